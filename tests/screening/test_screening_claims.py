"""Notebook 04's verdict rules: each comes out holds, does not hold or tie on inputs made
to decide it, so none is a check that cannot fail."""

from __future__ import annotations

import pandas as pd
import pytest

from repro.screening.claims import claims


def _counts(level_shift: int = 0) -> pd.DataFrame:
    """A Table 1/2 in the layout of :func:`repro.screening.experiments.beside_counts`."""
    rows = []
    for dataset, same in (("Banknote", True), ("Gas", False)):
        for t in (10, 100):
            cols = 8 * t
            simple, duality, total = int(0.6 * cols), int(0.8 * cols), int(0.85 * cols)
            rows.append(
                {
                    "dataset": dataset,
                    "thresholds": t,
                    "same_data": same,
                    "columns_ours": cols,
                    "columns_paper": cols,
                    "simple_ours": simple + level_shift,
                    "simple_paper": simple,
                    "duality_ours": duality + level_shift,
                    "duality_paper": duality,
                    "total_ours": total + level_shift,
                    "total_paper": total,
                    "fraction_ours": round((total + level_shift) / cols, 3),
                    "fraction_paper": round(total / cols, 3),
                }
            )
    return pd.DataFrame(rows)


def _times(gas_basic: float = 2.0, gas_ratio: float = 100.0) -> pd.DataFrame:
    rows = []
    for dataset in ("Gas", "MAGIC"):
        for t in (10, 100):
            rows.append(
                {
                    "dataset": dataset,
                    "rows": 6697 if dataset == "Gas" else 19020,
                    "thresholds": t,
                    "columns": 256 * t,
                    "a_total": gas_basic if dataset == "Gas" else 0.5,
                    "b_total": 0.2 if dataset == "Gas" else 0.5,
                    "ratio_b": gas_ratio,
                    "full_status": "optimal",
                    "same_value": True,
                    "same_rule": True,
                }
            )
    return pd.DataFrame(rows)


def _verdicts(t1, t2, t3) -> dict[str, str]:
    return {
        r.claim.split(" (")[0].split(",")[0]: r.verdict for r in claims(t1, t2, t3).itertuples()
    }


SAME = "our tests screen at least the paper's columns where the data are the same"
ENHANCED = "enhanced screening gives a lower total time than basic on gas"
STABLE = "the fraction is stable across thresholds and tends to improve with more"
OVERLAP = "simple and duality tests overlap"
SAFE = "the screened and the full problem have the same optimum"


def test_each_rule_holds_on_inputs_that_meet_it():
    v = _verdicts(_counts(), _counts(), _times())
    for claim in (SAME, ENHANCED, STABLE, OVERLAP, SAFE):
        assert v[claim] == "holds", claim


def test_the_same_data_claim_is_judged_only_where_the_data_only_counts_agree():
    fewer = _counts()
    fewer.loc[fewer.dataset == "Banknote", "total_ours"] -= 5  # fewer columns screened
    assert _verdicts(fewer, fewer, _times())[SAME] == "does not hold"
    other_data = _counts(level_shift=-3)  # simple counts differ: not the paper's columns
    assert _verdicts(other_data, other_data, _times())[SAME] == "not testable"


def test_enhanced_against_basic_is_judged_on_gas_and_can_tie_or_fail():
    assert _verdicts(_counts(), _counts(), _times(gas_basic=0.25))[ENHANCED] == "tie"
    assert _verdicts(_counts(), _counts(), _times(gas_basic=0.1))[ENHANCED] == "does not hold"


def test_stability_is_read_against_the_papers_own_spread():
    wobbly = _counts()
    big = (wobbly.dataset == "Gas") & (wobbly.thresholds == 100)
    wobbly.loc[big, "fraction_ours"] -= 0.2  # ours moves, the paper's does not
    assert _verdicts(wobbly, wobbly, _times())[STABLE] == "does not hold"


@pytest.mark.parametrize("superset", ["simple", "duality"])
def test_overlap_fails_when_one_test_screens_the_whole_union(superset):
    t = _counts()
    t[f"{superset}_ours"] = t["total_ours"]
    assert _verdicts(t, t, _times())[OVERLAP] == "does not hold"


def test_safety_fails_when_a_screened_optimum_differs():
    t3 = _times()
    t3.loc[0, "same_value"] = False
    assert _verdicts(_counts(), _counts(), t3)[SAFE] == "does not hold"


def test_the_largest_gain_on_gas_and_the_large_problem_under_15_s():
    basic, enhanced = _counts(), _counts()
    gas = enhanced.dataset == "Gas"
    enhanced.loc[gas, "fraction_ours"] += 0.05
    claims_ = {r.claim: r.verdict for r in claims(basic, enhanced, _times()).itertuples()}
    assert claims_["the gain of the enhanced over the basic tests is largest on gas"] == "holds"
    enhanced.loc[~gas, "fraction_ours"] += 0.10
    claims_ = {r.claim: r.verdict for r in claims(basic, enhanced, _times()).itertuples()}
    assert claims_["the gain of the enhanced over the basic tests is largest on gas"] == (
        "does not hold"
    )
    big = "with 100 thresholds on gas the 25,600-variable binary problem is solved to optimality in under 15 s"
    slow = _times()
    slow.loc[(slow.dataset == "Gas") & (slow.thresholds == 100), "b_total"] = 20.0
    assert {r.claim: r.verdict for r in claims(basic, basic, _times()).itertuples()}[big] == "holds"
    assert {r.claim: r.verdict for r in claims(basic, basic, slow).itertuples()}[big] == (
        "does not hold"
    )
