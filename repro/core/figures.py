"""Every committed figure as a function of result tables, and the command that redraws them.

Each figure is one function that takes the tables a notebook writes to ``results/`` (read
back from CSV, or the same frames in the notebook's own run) and returns a matplotlib
Figure; it fits nothing and needs no data set. :data:`FIGURES` maps each figure's name (its
file name in ``figures/``) to the function, the files it is drawn from and the notebook
that writes them, so that the notebooks and this command draw the same figure::

    python -m repro.core.figures                              # every figure, REPORT.md, README table
    python -m repro.core.figures --style seaborn-v0_8-colorblind
    python -m repro.core.figures --only grab_fig2_time --style paper.mplstyle --out /tmp/figs

``--style`` takes a matplotlib style name or a style/rc file and is applied on top of the
house style to every figure at once. ``--results`` reads another run's tables (e.g. a run
with other parameters under ``runs/``). Writing into the committed ``figures/`` also
refreshes REPORT.md (claims, run log, gallery) and the README's results table from
``results/``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from repro.core import plotting
from repro.core.paths import ROOT

__all__ = ["FIGURES", "FigureSpec", "draw", "main", "missing_sources", "redraw"]

# Notebook 02 draws its ten methods (DList and C5.0 are the paper's only: nothing to set beside).
RULESETS_METHODS = (
    "1Rule",
    "RuSC",
    "RuSC-rr",
    "RuB",
    "CART",
    "TrBag",
    "kNN",
    "Discr",
    "SVM",
    "RIPPER",
)


def _one(table: pd.DataFrame, column: str):
    """The single value of a setting recorded as a constant column of a result table."""
    if column not in table:
        raise ValueError(
            f"the table has no column {column!r}: rerun the notebook that writes "
            "it (its FULL run records the setting the figure needs)"
        )
    values = pd.unique(table[column].dropna())
    if len(values) != 1:
        raise ValueError(f"column {column!r} should hold one setting, found {list(values)}")
    return values[0]


def _plt():
    import matplotlib.pyplot as plt

    return plt


# ---- 00: the tour --------------------------------------------------------------------------
def tour_iris_rule(rules: pd.DataFrame):
    """Paper 1, Fig. 1: the region where each rule of ``rules`` (columns ``title`` and
    ``rule``, the rule as JSON) predicts versicolor, over iris's petal length and width.
    Iris ships with scikit-learn, so no data set is fetched."""
    from sklearn.datasets import load_iris

    from rulelab.rules import rule_from_dict

    iris = load_iris(as_frame=True)
    X, y = iris.data, pd.Series((iris.target == 1).astype(int), name="species")
    fig, axes = _plt().subplots(
        1, len(rules), figsize=(5.5 * len(rules), 4.3), sharey=True, squeeze=False
    )
    for ax, row in zip(axes[0], rules.itertuples()):
        rule = rule_from_dict(row.rule)
        plotting.plot_rule_region(
            rule,
            X,
            y,
            "petal length (cm)",
            "petal width (cm)",
            ax=ax,
            labels=("setosa / virginica", "versicolor"),
        )
        ax.set_title(f"{row.title}\naccuracy {(rule.evaluate(X) == y).mean():.3f}", fontsize=10)
    return fig


# ---- 01: exact recovery --------------------------------------------------------------------
def recovery_phase_transition(rates: pd.DataFrame):
    """Probability of exact recovery against m, one panel per decoder, one line per K
    (``recovery_rates`` of every decoder)."""
    from repro.exact_recovery.experiments import plot_phase_transition

    return plot_phase_transition(rates)[0].figure


def recovery_union_bound(rates: pd.DataFrame):
    """The LP's recovery rate, K-disjunct and Lemma 2 shares against the union bounds, per K
    (the LP's rates with the design's width ``n`` as a column)."""
    from repro.exact_recovery.experiments import plot_against_bound

    return plot_against_bound(rates.assign(method="lp"), int(_one(rates, "n")))[0].figure


def recovery_noise(noise_rates: pd.DataFrame):
    """Mean Hamming distance to the planted rule against the label-noise rate, per decoder
    (the rule size ``k``, samples ``m`` and width ``n`` are constant columns)."""
    fig, ax = _plt().subplots()
    for method, g in noise_rates.groupby("method"):
        ax.plot(g.noise, g.hamming, marker="o", label=method)
    k, m, n = (int(_one(noise_rates, c)) for c in ("k", "m", "n"))
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
    fig, ax = _plt().subplots()
    ax.plot(summary.n_thresholds, summary.resolution, "k--", label="grid spacing at the truth")
    ax.plot(summary.n_thresholds, summary.max_gap, "o-", label="|learned - true threshold|")
    ax.set(xscale="log", xlabel="quantile thresholds per feature", ylabel="threshold error")
    ax.legend()
    return fig


# ---- 02-04 ---------------------------------------------------------------------------------
def rulesets_table1_vs_paper(comparison: pd.DataFrame, methods: Sequence[str] = RULESETS_METHODS):
    """Paper 1, Table 1: our test error (± standard error) beside the paper's, per data set."""
    from repro.rule_sets.experiments import plot_comparison

    return plot_comparison(comparison[comparison.method.isin(methods)], list(methods))


def twolevel_tradeoff(folds: pd.DataFrame):
    """Paper 2: test error against features used, per data set and method (fold means)."""
    from repro.two_level.experiments import plot_tradeoff

    c = plotting.COLORS
    return plot_tradeoff(folds, colors={**c, "OCRL": c["1Rule"], "SC": c["RuSC"]})


def screening_times(t3: pd.DataFrame, paper: pd.DataFrame | None = None):
    """Paper 3, Table 3: seconds to the optimal clause with and without screening."""
    from repro.screening.experiments import plot_times

    return plot_times(t3, paper)


# ---- 05: GRAB ------------------------------------------------------------------------------
def grab_fig2_time(tto: pd.DataFrame):
    """Paper 4, Fig. 2: seconds to the common objective per degree (the training ``rows``
    are a constant column)."""
    from repro.grab.experiments import plot_time_to_objective

    return plot_time_to_objective(tto, int(_one(tto, "rows")))


def grab_fig3_accuracy_vs_size(curves: pd.DataFrame):
    """Paper 4, Fig. 3: test accuracy against training-set size, one panel per data set."""
    parts = list(curves.groupby("dataset", sort=False))
    fig, axes = _plt().subplots(1, len(parts), figsize=(4.2 * len(parts), 3.6), squeeze=False)
    for ax, (name, part) in zip(axes[0], parts):
        for k, g in part.groupby("degree"):
            ax.plot(g.m, g.accuracy, "o-", label=f"k = {k}")
        ax.set(xscale="log", xlabel="training points m", ylabel="test accuracy (%)", title=name)
    axes[0, 0].legend()
    return fig


# ---- 06: rules first -----------------------------------------------------------------------
def rulesfirst_fig2(left: pd.DataFrame, right: pd.DataFrame):
    """Paper 5, Fig. 2: accuracy against m (left) and against the rules allowed (right)."""
    from repro.rules_first.summary import plot_fig2

    return plot_fig2(left, right)


def rulesfirst_table1(crossing: pd.DataFrame, k_fixed: int = 10, d_fixed: int = 100):
    """Paper 5, Table 1 measured: samples needed for the ``target`` error (a constant
    column) against k and against B."""
    from repro.rules_first.summary import plot_sample_complexity

    return plot_sample_complexity(
        crossing, float(_one(crossing, "target")), k_fixed=k_fixed, d_fixed=d_fixed
    )


def rulesfirst_fig3_twitter(sweep: pd.DataFrame):
    """Paper 5, Fig. 3 on the tweets: accuracy against the candidate threshold, with the
    paper's best thresholds shaded."""
    from repro.rules_first.summary import plot_fig3

    return plot_fig3({_one(sweep, "corpus"): sweep}, paper_t=1.7)


def rulesfirst_fig3_sls(sweep: pd.DataFrame):
    """Paper 5, Fig. 3 repeated on the sentiment-labelled sentences."""
    from repro.rules_first.summary import plot_fig3

    return plot_fig3({_one(sweep, "corpus"): sweep})


# ---- 07-08 ---------------------------------------------------------------------------------
def benchmark_pareto(table: pd.DataFrame):
    """The benchmark: test error against terms per data set, with the Pareto front."""
    from repro.peers.learners import plot_pareto

    return plot_pareto(table)


def colgen_recovery(table: pd.DataFrame):
    """Column generation: probability of recovering a planted DNF against samples."""
    from repro.column_generation.experiments import plot_recovery

    return plot_recovery(table)


def colgen_path(table: pd.DataFrame):
    """Column generation: error against terms along the complexity path."""
    from repro.column_generation.experiments import plot_path

    return plot_path(table)


# ---- the registry --------------------------------------------------------------------------
@dataclass(frozen=True)
class FigureSpec:
    """How one figure is drawn: ``draw(*tables)`` with one table per entry of ``sources``
    (paths relative to the project: ``results/...`` or the paper's numbers), written by
    ``notebook``."""

    draw: Callable
    sources: tuple[str, ...]
    notebook: str


def _spec(draw, notebook, *sources):
    return FigureSpec(draw, tuple(s if "/" in s else f"results/{s}" for s in sources), notebook)


FIGURES: dict[str, FigureSpec] = {
    "tour_iris_rule": _spec(tour_iris_rule, "00_tour", "tour_iris_rules.csv"),
    "recovery_phase_transition": _spec(
        recovery_phase_transition, "01_exact_recovery", "paper1_recovery_phase.csv"
    ),
    "recovery_union_bound": _spec(
        recovery_union_bound, "01_exact_recovery", "paper1_recovery_rates.csv"
    ),
    "recovery_noise": _spec(recovery_noise, "01_exact_recovery", "paper1_recovery_noise.csv"),
    "recovery_thresholds": _spec(
        recovery_thresholds, "01_exact_recovery", "paper1_recovery_thresholds.csv"
    ),
    "rulesets_table1_vs_paper": _spec(
        rulesets_table1_vs_paper, "02_rule_sets", "paper1_table1_error.csv"
    ),
    "twolevel_tradeoff": _spec(twolevel_tradeoff, "03_two_level", "twolevel_folds.csv"),
    "screening_times": _spec(
        screening_times,
        "04_screening",
        "screening_table3.csv",
        "repro/paper_numbers/paper3_table3.csv",
    ),
    "grab_fig2_time": _spec(grab_fig2_time, "05_grab", "grab_fig2_time_to_objective.csv"),
    "grab_fig3_accuracy_vs_size": _spec(
        grab_fig3_accuracy_vs_size, "05_grab", "grab_fig3_accuracy.csv"
    ),
    "rulesfirst_fig2": _spec(
        rulesfirst_fig2, "06_rules_first", "rulesfirst_fig2_left.csv", "rulesfirst_fig2_right.csv"
    ),
    "rulesfirst_table1": _spec(rulesfirst_table1, "06_rules_first", "rulesfirst_table1.csv"),
    "rulesfirst_fig3_twitter": _spec(
        rulesfirst_fig3_twitter, "06_rules_first", "rulesfirst_fig3_twitter.csv"
    ),
    "rulesfirst_fig3_sls": _spec(rulesfirst_fig3_sls, "06_rules_first", "rulesfirst_fig3_sls.csv"),
    "benchmark_pareto": _spec(benchmark_pareto, "07_benchmark", "benchmark_table.csv"),
    "colgen_recovery": _spec(colgen_recovery, "08_column_generation", "colgen_recovery.csv"),
    "colgen_path": _spec(colgen_path, "08_column_generation", "colgen_path.csv"),
}


def _source_path(source: str, results: Path | None) -> Path:
    """Where a source lives: ``results/`` files in ``results`` (default: this run's results
    folder, see :func:`repro.core.report.results_dir`), anything else under the project."""
    if source.startswith("results/"):
        from repro.core.report import results_dir

        return (results or results_dir()) / source.removeprefix("results/")
    return ROOT / source


def missing_sources(name: str, results: Path | None = None) -> list[str]:
    """The sources of figure ``name`` that do not exist (empty when it can be drawn)."""
    return [s for s in _spec_of(name).sources if not _source_path(s, results).is_file()]


def _spec_of(name: str) -> FigureSpec:
    if name not in FIGURES:
        raise ValueError(f"no figure {name!r}; the figures are: {', '.join(FIGURES)}")
    return FIGURES[name]


def draw(name: str, results: Path | None = None):
    """Figure ``name`` drawn from its result files (read from ``results``, default this
    run's ``results/``); a missing file is a ValueError naming it and its notebook."""
    from repro.core.reference import paper_table

    spec = _spec_of(name)
    missing = missing_sources(name, results)
    if missing:
        raise ValueError(
            f"{name}: {', '.join(missing)} not found; a FULL run of notebook "
            f"{spec.notebook} writes it"
        )
    tables = []
    for source in spec.sources:
        path = _source_path(source, results)
        # the paper's numbers carry comment lines; paper_table reads them the one way
        tables.append(
            paper_table(path.stem)
            if source.startswith("repro/paper_numbers/")
            else pd.read_csv(path)
        )
    return spec.draw(*tables)


def redraw(
    names: Sequence[str] | None = None,
    out: Path | None = None,
    style: str | None = None,
    results: Path | None = None,
    skip_missing: bool = False,
) -> dict[str, str]:
    """Draw figures (default: all) into ``out`` (default :func:`repro.core.plotting.figures_dir`)
    as PNG and PDF, with ``style`` over the house style; returns name -> PNG path.

    With ``skip_missing`` a figure whose result files are missing is reported and left out
    instead of raising.
    """
    import matplotlib

    plt = _plt()
    written = {}
    with matplotlib.rc_context():
        plotting.use_style(style)
        for name in names or list(FIGURES):
            if skip_missing and missing_sources(name, results):
                print(
                    f"skipped {name}: {', '.join(missing_sources(name, results))} not found "
                    f"(a FULL run of notebook {_spec_of(name).notebook} writes it)",
                    file=sys.stderr,
                )
                continue
            fig = draw(name, results)
            written[name] = plotting.savefig(fig, name, out=out)
            plt.close(fig)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m repro.core.figures",
        description="Redraw the figures from the result tables (no fitting, no data sets); "
        "into the committed figures/ this also refreshes REPORT.md and the "
        "README's results table",
    )
    parser.add_argument(
        "--style",
        help="a matplotlib style name (e.g. seaborn-v0_8-colorblind) "
        "or a style/rc file, applied over the house style",
    )
    parser.add_argument(
        "--out", type=Path, help="folder for the PNG and PDF files (default: figures/ of this run)"
    )
    parser.add_argument(
        "--results", type=Path, help="folder of the result tables (default: results/ of this run)"
    )
    parser.add_argument("--only", nargs="+", metavar="NAME", help="these figures only")
    args = parser.parse_args(argv)
    if args.only:
        unknown = [n for n in args.only if n not in FIGURES]
        if unknown:
            parser.error(
                f"unknown figure {', '.join(unknown)}; the figures are: {', '.join(FIGURES)}"
            )
        for name in args.only:  # a figure asked for by name must be drawable
            if missing_sources(name, args.results):
                parser.error(
                    f"{name}: {', '.join(missing_sources(name, args.results))} not "
                    f"found; a FULL run of notebook {FIGURES[name].notebook} writes it"
                )
    if args.style:
        try:
            _check_style(args.style)
        except ValueError as err:
            parser.error(str(err))
    start = time.perf_counter()
    written = redraw(args.only, args.out, args.style, args.results, skip_missing=True)
    where = args.out or plotting.figures_dir()
    print(
        f"{len(written)} of {len(args.only or FIGURES)} figures drawn in "
        f"{time.perf_counter() - start:.1f} s into {where}"
    )
    # REPORT.md and the README describe the committed outputs: refreshed only when this
    # command redraws them (not into another folder, nor from another run's tables)
    if args.out is None and args.results is None:
        from repro.core.pipeline import rewrite_report  # keeps their digests in the run log

        return rewrite_report()
    return 0


def _check_style(style: str) -> None:
    """A ValueError naming ``style`` when it is neither a file nor a matplotlib style."""
    import matplotlib.style

    if not Path(style).is_file() and style not in matplotlib.style.available:
        raise ValueError(
            f"--style {style!r} is neither a file nor a matplotlib style; the "
            f"styles are: {', '.join(sorted(matplotlib.style.available))}"
        )


if __name__ == "__main__":
    sys.exit(main())
