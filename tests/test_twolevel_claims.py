"""Notebook 03's verdicts: paired over folds, DList and C5.0 through paper 1's columns."""

import numpy as np
import pandas as pd

from repro.two_level import claims

METHODS = {"BCD": 0.20, "AM": 0.20, "OCRL": 0.30, "SC": 0.25, "CART": 0.28, "RIPPER": 0.24}


def _folds(wobble=0.0, seed=0):
    """Per-fold errors; ``wobble`` moves BCD up and down by that much on alternate folds
    (mean unchanged)."""
    rng = np.random.default_rng(seed)
    rows = []
    for d in ("pima", "wdbc", "sonar"):
        for f in range(10):
            shift = rng.normal(0, 0.03)  # fold difficulty, shared by the methods
            for m, e in METHODS.items():
                rows.append(
                    {
                        "dataset": d,
                        "method": m,
                        "fold": f,
                        "error": e + shift + (wobble * (-1) ** f if m == "BCD" else 0),
                        "n_terms": 5.0 if m != "RIPPER" else 50.0,
                    }
                )
    return pd.DataFrame(rows)


def _paper1():
    errors = pd.DataFrame(
        [
            {"dataset": d, "method": m, "error": v}
            for d in ("pima", "wdbc", "sonar")
            for m, v in (("DList", 0.40), ("C5.0", 0.21))
        ]
    )
    rules = pd.DataFrame(
        [{"dataset": d, "method": "C5.0", "n_rules": 12.0} for d in ("pima", "wdbc", "sonar")]
    )
    return errors, rules


def test_dlist_and_c50_are_tested_against_paper_1s_published_columns():
    v = claims(_folds(), *_paper1()).set_index("key")
    assert v.loc["dlist", "verdict"] == "holds"
    assert "paper 1's DList" in v.loc["dlist", "evidence"]
    assert v.loc["c50_accuracy", "verdict"] == "holds"
    assert "tolerance ours" in v.loc["c50_accuracy", "evidence"]
    assert v.loc["c50_features", "verdict"] == "holds"  # 5 features < 12 rules everywhere
    without = claims(_folds()).set_index("key")
    assert without.loc["dlist", "verdict"] == "not testable"


def test_equal_methods_are_a_tie_and_a_shared_fold_shift_does_not_hide_a_gap():
    v = claims(_folds(wobble=0.01), *_paper1()).set_index("key")
    # BCD and AM have the same error up to noise: BCD best on WDBC is a tie
    assert v.loc["wdbc", "verdict"] == "tie", v.loc["wdbc", "evidence"]
    # BCD 0.08 below CART on every fold: paired over folds, clear
    assert v.loc["cart_bcd", "verdict"] == "holds"
    assert v.loc["ripper_small", "verdict"] == "does not hold"


def _with(frame, method, dataset, shift):
    """``frame`` with ``method``'s error on ``dataset`` moved by ``shift`` on every fold."""
    out = frame.copy()
    at = (out.method == method) & (out.dataset == dataset)
    out.loc[at, "error"] += shift
    return out


def test_higher_or_equal_accuracy_than_cart_is_a_no_worse_claim_that_can_fail():
    equal = _with(_folds(wobble=0.01), "CART", "pima", -0.08)  # CART as good as BCD on pima
    equal = _with(equal, "CART", "wdbc", -0.08)
    equal = _with(equal, "CART", "sonar", -0.08)
    assert claims(equal).set_index("key").loc["cart_bcd", "verdict"] == "holds"
    worse = _with(equal, "BCD", "sonar", 0.05)  # BCD clearly worse on one set
    assert claims(worse).set_index("key").loc["cart_bcd", "verdict"] == "does not hold"


def test_dlist_claim_covers_bcd_am_and_sc_and_fails_when_one_of_them_does():
    errors, rules = _paper1()
    weak_ocrl = _with(_folds(), "OCRL", "pima", 0.2)  # OCRL above DList: not in the claim
    assert claims(weak_ocrl, errors, rules).set_index("key").loc["dlist", "verdict"] == "holds"
    weak_sc = _with(_folds(), "SC", "pima", 0.2)
    verdict = claims(weak_sc, errors, rules).set_index("key").loc["dlist", "verdict"]
    assert verdict == "does not hold"
