"""Notebook 02's figure, each drawn from the result tables the notebook writes (the registry and the
command that redraws them: :mod:`repro.core.figures`)."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from repro.core.figures import FigureSpec, spec

# The ten methods drawn (DList and C5.0 are the paper's only: nothing to set beside).
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


def rulesets_table1_vs_paper(comparison: pd.DataFrame, methods: Sequence[str] = RULESETS_METHODS):
    """Paper 1, Table 1: our test error (± standard error) beside the paper's, per data set."""
    from repro.rule_sets.experiments import plot_comparison

    return plot_comparison(comparison[comparison.method.isin(methods)], list(methods))


FIGURES: dict[str, FigureSpec] = {
    "rulesets_table1_vs_paper": spec(
        rulesets_table1_vs_paper, "02_rule_sets", "paper1_table1_error.csv"
    ),
}
