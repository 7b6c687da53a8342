"""Notebook 07's figure, each drawn from the result tables the notebook writes (the registry and the
command that redraws them: :mod:`repro.core.figures`)."""

from __future__ import annotations

import pandas as pd

from repro.core.figures import FigureSpec, spec


def benchmark_pareto(table: pd.DataFrame):
    """The benchmark: test error against terms per data set, with the Pareto front."""
    from repro.benchmark.tables import plot_pareto

    return plot_pareto(table)


FIGURES: dict[str, FigureSpec] = {
    "benchmark_pareto": spec(benchmark_pareto, "07_benchmark", "benchmark_table.csv"),
}
