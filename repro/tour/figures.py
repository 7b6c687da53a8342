"""Notebook 00's figure, each drawn from the result tables the notebook writes (the registry and the
command that redraws them: :mod:`repro.core.figures`)."""

from __future__ import annotations

import pandas as pd

from repro.core import plotting
from repro.core.figures import FigureSpec, pyplot, spec


def tour_iris_rule(rules: pd.DataFrame):
    """Paper 1, Fig. 1: the region where each rule of ``rules`` (columns ``title`` and
    ``rule``, the rule as JSON) predicts versicolor, over iris's petal length and width.
    Iris ships with scikit-learn, so no data set is fetched."""
    from sklearn.datasets import load_iris

    from rulelab.rules import rule_from_dict

    iris = load_iris(as_frame=True)
    X, y = iris.data, pd.Series((iris.target == 1).astype(int), name="species")
    fig, axes = pyplot().subplots(
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


FIGURES: dict[str, FigureSpec] = {
    "tour_iris_rule": spec(tour_iris_rule, "00_tour", "tour_iris_rules.csv"),
}
