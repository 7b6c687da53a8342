"""Notebook 08's figures, each drawn from the result tables the notebook writes (the registry and the
command that redraws them: :mod:`repro.core.figures`)."""

from __future__ import annotations

import pandas as pd

from repro.core.figures import FigureSpec, spec


def colgen_recovery(table: pd.DataFrame):
    """Column generation: probability of recovering a planted DNF against samples."""
    from repro.column_generation.experiments import plot_recovery

    return plot_recovery(table)


def colgen_path(table: pd.DataFrame):
    """Column generation: error against terms along the complexity path."""
    from repro.column_generation.experiments import plot_path

    return plot_path(table)


FIGURES: dict[str, FigureSpec] = {
    "colgen_recovery": spec(colgen_recovery, "08_column_generation", "colgen_recovery.csv"),
    "colgen_path": spec(colgen_path, "08_column_generation", "colgen_path.csv"),
}
