"""Paper 1's iris rule under the quantile conventions its authors could have used.

Paper 1 learns its iris rule (Fig. 1) with "10 quantile-based thresholds per continuous
feature" and names Matlab as its tool (footnote 6) without saying which quantiles. Matlab's
``quantile`` places the i-th of n sorted values at level (i - 0.5) / n and interpolates
linearly between them (numpy's ``method="hazen"``); ``quantile(x, 10)`` asks for the levels
(1:10)/11. Before calling the rule not reproduced we try that convention and the other
level grids a reader of the sentence could pick. :func:`claims` judges the tour's two claims
about the rule (notebook 00).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rulelab import FeatureBinarizer
from rulelab.lp import learn_clause
from rulelab.rules import Clause

__all__ = ["MATLAB_LEVELS", "matlab_quantile_rules", "claims"]

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
        # the binariser adds its own median cut to the given ones: keep the grid's cuts only
        keep = [
            j
            for j, t in enumerate(binarizer.terms_)
            if any(np.isclose(float(t.value), c) for c in cuts[t.feature])
        ]
        design = np.asarray(binarizer.transform(X))[:, keep]
        terms = [binarizer.terms_[j] for j in keep]
        rule = learn_clause(design, y, form="and", lam=lam).rule(terms)
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


def _accuracy(rule: Clause, X: pd.DataFrame, y: pd.Series) -> float:
    return float((rule.evaluate(X) == y).mean())


def _learned_verdict(learned: Clause, paper_rule: Clause, matlab: pd.DataFrame) -> str:
    """Holds when a grid learns the paper's rule; does not hold when a grid that has all
    its cut points learns another; not testable when no grid we can rebuild has them (the
    paper's grid is unknown, so a different rule refutes nothing)."""
    if learned == paper_rule or matlab["paper's rule"].any():
        return "holds"
    complete = matlab["paper cut points present"].map(
        lambda text: text.split(" of ")[0] == text.split(" of ")[1]
    )
    return "does not hold" if complete.any() else "not testable"


def claims(
    X: pd.DataFrame,
    y: pd.Series,
    paper_rule: Clause,
    *,
    lp_rule: Clause,
    integral: bool,
    learned: Clause,
    matlab: pd.DataFrame,
) -> list[dict]:
    """Notebook 00's claims about paper 1's iris rule, each with its verdict and evidence.

    ``lp_rule`` is the LP's rule (eq. 10) with the paper's cut points among the candidates
    and ``integral`` whether its solution was; ``learned`` the rule 1Rule learned on its own
    quantile cut points; ``matlab`` the :func:`matlab_quantile_rules` table. Both claims
    are exact matches: no tolerance.
    """
    ours = f"ours: {learned} (accuracy {_accuracy(learned, X, y):.3f})"
    paper = f"the paper's rule: accuracy {_accuracy(paper_rule, X, y):.3f}"
    grids = "; ".join(
        f"{r['levels']}: {r['rule']} ({r['paper cut points present']} of the paper's cut "
        "points among the candidates)"
        for r in matlab.to_dict("records")
    )
    return [
        {
            "claim": "Paper 1, Fig. 1: petal length <= 5.350 AND petal width <= 1.700 AND petal "
            "width > 0.875 is the optimum of the LP (eq. 10, lambda = 1000) for iris versicolor "
            "vs rest",
            "verdict": "holds" if lp_rule == paper_rule and integral else "does not hold",
            "evidence": "with the paper's three cut points among the candidates the LP "
            f"({'integral' if integral else 'fractional'} solution) returns "
            f"{'exactly this rule' if lp_rule == paper_rule else 'another rule'}: {lp_rule}",
        },
        {
            "claim": "Paper 1, section 5: with 10 quantile thresholds per feature, 1Rule learns "
            "that rule",
            "verdict": _learned_verdict(learned, paper_rule, matlab),
            "evidence": f"{ours}; {paper}. The paper does not define its quantiles; with "
            "Matlab's quantile convention (its tool, footnote 6) the LP learns " + grids,
        },
    ]
