"""Notebook 04's figure, each drawn from the result tables the notebook writes (the registry and the
command that redraws them: :mod:`repro.core.figures`)."""

from __future__ import annotations

import pandas as pd

from repro.core.figures import FigureSpec, spec


def screening_times(t3: pd.DataFrame, paper: pd.DataFrame | None = None):
    """Paper 3, Table 3: seconds to the optimal clause with and without screening."""
    from repro.screening.experiments import plot_times

    return plot_times(t3, paper)


FIGURES: dict[str, FigureSpec] = {
    "screening_times": spec(
        screening_times,
        "04_screening",
        "screening_table3.csv",
        "repro/paper_numbers/paper3_table3.csv",
    ),
}
