"""Notebook 01's figures, each drawn from the result tables the notebook writes (the registry and the
command that redraws them: :mod:`repro.core.figures`)."""

from __future__ import annotations

import pandas as pd

from repro.core.figures import FigureSpec, one_setting, pyplot, spec


def recovery_phase_transition(rates: pd.DataFrame):
    """Probability of exact recovery against m, one panel per decoder, one line per K
    (``recovery_rates`` of every decoder)."""
    from repro.exact_recovery.experiments import plot_phase_transition

    return plot_phase_transition(rates)[0].figure


def recovery_union_bound(rates: pd.DataFrame):
    """The LP's recovery rate, K-disjunct and Lemma 2 shares against the union bounds, per K
    (the LP's rates with the design's width ``n`` as a column)."""
    from repro.exact_recovery.experiments import plot_against_bound

    return plot_against_bound(rates.assign(method="lp"), int(one_setting(rates, "n")))[0].figure


def recovery_noise(noise_rates: pd.DataFrame):
    """Mean Hamming distance to the planted rule against the label-noise rate, per decoder
    (the rule size ``k``, samples ``m`` and width ``n`` are constant columns)."""
    fig, ax = pyplot().subplots()
    for method, g in noise_rates.groupby("method"):
        ax.plot(g.noise, g.hamming, marker="o", label=method)
    k, m, n = (int(one_setting(noise_rates, c)) for c in ("k", "m", "n"))
    ax.set(
        xlabel="label noise rate",
        ylabel="mean Hamming distance to the planted rule",
        title=f"K = {k}, m = {m}, n = {n}",
    )
    ax.legend()
    return fig


def recovery_thresholds(summary: pd.DataFrame):
    """Error of the learned thresholds against the quantile grid's spacing, per number of
    thresholds (one row per ``n_thresholds``)."""
    fig, ax = pyplot().subplots()
    ax.plot(summary.n_thresholds, summary.resolution, "k--", label="grid spacing at the truth")
    ax.plot(summary.n_thresholds, summary.max_gap, "o-", label="|learned - true threshold|")
    ax.set(xscale="log", xlabel="quantile thresholds per feature", ylabel="threshold error")
    ax.legend()
    return fig


FIGURES: dict[str, FigureSpec] = {
    "recovery_phase_transition": spec(
        recovery_phase_transition, "01_exact_recovery", "paper1_recovery_phase.csv"
    ),
    "recovery_union_bound": spec(
        recovery_union_bound, "01_exact_recovery", "paper1_recovery_rates.csv"
    ),
    "recovery_noise": spec(recovery_noise, "01_exact_recovery", "paper1_recovery_noise.csv"),
    "recovery_thresholds": spec(
        recovery_thresholds, "01_exact_recovery", "paper1_recovery_thresholds.csv"
    ),
}
