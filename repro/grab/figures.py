"""Notebook 05's figures, each drawn from the result tables the notebook writes (the registry and the
command that redraws them: :mod:`repro.core.figures`)."""

from __future__ import annotations

import pandas as pd

from repro.core.figures import FigureSpec, one_setting, pyplot, spec


def grab_fig2_time(tto: pd.DataFrame):
    """Paper 4, Fig. 2: seconds to the common objective per degree (the training ``rows``
    are a constant column)."""
    from repro.grab.experiments import plot_time_to_objective

    return plot_time_to_objective(tto, int(one_setting(tto, "rows")))


def grab_fig3_accuracy_vs_size(curves: pd.DataFrame):
    """Paper 4, Fig. 3: test accuracy against training-set size, one panel per data set."""
    parts = list(curves.groupby("dataset", sort=False))
    fig, axes = pyplot().subplots(1, len(parts), figsize=(4.2 * len(parts), 3.6), squeeze=False)
    for ax, (name, part) in zip(axes[0], parts):
        for k, g in part.groupby("degree"):
            ax.plot(g.m, g.accuracy, "o-", label=f"k = {k}")
        ax.set(xscale="log", xlabel="training points m", ylabel="test accuracy (%)", title=name)
    axes[0, 0].legend()
    return fig


FIGURES: dict[str, FigureSpec] = {
    "grab_fig2_time": spec(grab_fig2_time, "05_grab", "grab_fig2_time_to_objective.csv"),
    "grab_fig3_accuracy_vs_size": spec(
        grab_fig3_accuracy_vs_size, "05_grab", "grab_fig3_accuracy.csv"
    ),
}
