"""Paper 1's iris rule under the quantile conventions its authors could have used.

Paper 1 learns its iris rule (Fig. 1) with "10 quantile-based thresholds per continuous
feature" and names Matlab as its tool (footnote 6) without saying which quantiles. Matlab's
``quantile`` places the i-th of n sorted values at level (i - 0.5) / n and interpolates
linearly between them (numpy's ``method="hazen"``); ``quantile(x, 10)`` asks for the levels
(1:10)/11. Before calling the rule not reproduced we try that convention and the other
level grids a reader of the sentence could pick.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rulelab import FeatureBinarizer
from rulelab.lp import learn_clause
from rulelab.rules import Clause

__all__ = ["MATLAB_LEVELS", "matlab_quantile_rules"]

# level grids for "10 quantile thresholds": Matlab's quantile(x, 10), deciles, and mid-deciles
MATLAB_LEVELS = {
    "quantile(x, 10): levels (1:10)/11": np.arange(1, 11) / 11,
    "deciles: levels (1:9)/10": np.arange(1, 10) / 10,
    "mid-deciles: levels (0.5:9.5)/10": (np.arange(10) + 0.5) / 10,
}


def matlab_quantile_rules(
    X: pd.DataFrame, y: pd.Series, paper_rule: Clause, lam: float
) -> pd.DataFrame:
    """The LP rule (eq. 10) on cut points from Matlab's quantile convention, per level grid.

    Returns
    -------
    pandas.DataFrame
        One row per grid of :data:`MATLAB_LEVELS`: ``levels``, ``paper cut points present``
        (how many of the paper rule's cut points the grid yields, of how many), ``rule``,
        ``training accuracy`` and ``paper's rule`` (the learned rule is the paper's).
    """
    paper_cuts = [(t.feature, float(t.value)) for t in paper_rule.terms]
    rows = []
    for name, levels in MATLAB_LEVELS.items():
        cuts = {c: list(np.quantile(X[c].to_numpy(float), levels, method="hazen")) for c in X}
        present = sum(any(np.isclose(c, t) for c in cuts[f]) for f, t in paper_cuts)
        binarizer = FeatureBinarizer(n_thresholds=1, thresholds=cuts).fit(X)
        rule = learn_clause(binarizer.transform(X), y, form="and", lam=lam).rule(binarizer.terms_)
        rows.append(
            {
                "levels": name,
                "paper cut points present": f"{present} of {len(paper_cuts)}",
                "rule": str(rule),
                "training accuracy": float((rule.evaluate(X) == y).mean()),
                "paper's rule": rule == paper_rule,
            }
        )
    return pd.DataFrame(rows)
