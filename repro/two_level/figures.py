"""Notebook 03's figure, each drawn from the result tables the notebook writes (the registry and the
command that redraws them: :mod:`repro.core.figures`)."""

from __future__ import annotations

import pandas as pd

from repro.core import plotting
from repro.core.figures import FigureSpec, spec


def twolevel_tradeoff(folds: pd.DataFrame):
    """Paper 2: test error against features used, per data set and method (fold means)."""
    from repro.two_level.experiments import plot_tradeoff

    c = plotting.COLORS
    return plot_tradeoff(folds, colors={**c, "OCRL": c["1Rule"], "SC": c["RuSC"]})


FIGURES: dict[str, FigureSpec] = {
    "twolevel_tradeoff": spec(twolevel_tradeoff, "03_two_level", "twolevel_folds.csv"),
}
