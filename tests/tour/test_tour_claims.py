"""Notebook 00's verdict rules (:func:`repro.tour.iris_quantiles.claims`): exact matches of the
paper's iris rule, each coming out holds and does not hold on rules made to decide it."""

from __future__ import annotations

import pandas as pd

from repro.tour.iris_quantiles import claims
from rulelab.rules import Clause, Term

LP = (
    "Paper 1, Fig. 1: petal length <= 5.350 AND petal width <= 1.700 AND petal width > 0.875 "
    "is the optimum of the LP (eq. 10, lambda = 1000) for iris versicolor vs rest"
)
QUANTILES = "Paper 1, section 5: with 10 quantile thresholds per feature, 1Rule learns that rule"

PAPER = Clause(
    (
        Term("petal length", "<=", 5.35),
        Term("petal width", "<=", 1.70),
        Term("petal width", ">", 0.875),
    )
)
OTHER = Clause((Term("petal length", "<=", 4.8), Term("petal width", ">", 0.875)))

# four rows: the paper's rule is right on all, the other rule on three
X = pd.DataFrame({"petal length": [1.4, 4.5, 5.0, 6.0], "petal width": [0.2, 1.3, 1.5, 2.1]})
y = pd.Series([0, 1, 1, 0])


def _matlab(present: str = "1 of 3", paper_rule: bool = False) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "levels": ["deciles: levels (1:9)/10"],
            "paper cut points present": [present],
            "rule": [str(PAPER if paper_rule else OTHER)],
            "paper's rule": [paper_rule],
        }
    )


MATLAB = _matlab()


def _claims(lp_rule=PAPER, integral=True, learned=PAPER, matlab=MATLAB) -> dict[str, dict]:
    rows = claims(X, y, PAPER, lp_rule=lp_rule, integral=integral, learned=learned, matlab=matlab)
    return {r["claim"]: r for r in rows}


def test_both_rules_hold_when_the_paper_s_rule_comes_out():
    out = _claims()
    assert list(out) == [LP, QUANTILES]
    assert [r["verdict"] for r in out.values()] == ["holds", "holds"]
    assert out[LP]["evidence"].endswith(f"returns exactly this rule: {PAPER}")


def test_the_lp_claim_needs_the_same_rule_and_an_integral_solution():
    other = _claims(lp_rule=OTHER)[LP]
    assert other["verdict"] == "does not hold"
    assert other["evidence"].endswith(f"(integral solution) returns another rule: {OTHER}")
    fractional = _claims(integral=False)[LP]
    assert fractional["verdict"] == "does not hold"
    assert "(fractional solution) returns exactly this rule" in fractional["evidence"]
    # the other claim is judged on its own rule
    assert _claims(lp_rule=OTHER)[QUANTILES]["verdict"] == "holds"


def test_the_quantile_claim_is_untestable_without_the_paper_s_cut_points_and_fails_with_them():
    out = _claims(learned=OTHER)  # no grid we can rebuild holds the paper's cut points
    assert out[QUANTILES]["verdict"] == "not testable"
    with_cuts = _claims(learned=OTHER, matlab=_matlab("3 of 3"))
    assert with_cuts[QUANTILES]["verdict"] == "does not hold"  # they were there: another rule
    assert _claims(learned=OTHER, matlab=_matlab("3 of 3", True))[QUANTILES]["verdict"] == "holds"
    assert out[LP]["verdict"] == "holds"
    assert out[QUANTILES]["evidence"] == (
        f"ours: {OTHER} (accuracy 0.750); the paper's rule: accuracy 1.000. The paper does not "
        "define its quantiles; with Matlab's quantile convention (its tool, footnote 6) the LP "
        f"learns deciles: levels (1:9)/10: {OTHER} (1 of 3 of the paper's cut points among the "
        "candidates)"
    )


def test_a_cut_point_off_by_a_little_is_another_rule():
    near = Clause((Term("petal length", "<=", 5.4), *PAPER.terms[1:]))
    assert (near.evaluate(X) == PAPER.evaluate(X)).all()  # the same predictions here
    out = _claims(lp_rule=near, learned=near, matlab=_matlab("3 of 3"))
    assert out[LP]["verdict"] == out[QUANTILES]["verdict"] == "does not hold"
