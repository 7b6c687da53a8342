"""Notebook 08's pricing ablation: every column but the seconds is counted in work, and the
MILP, timed on the search's own pricing problems, agrees with it where it proves optimality."""

import numpy as np
import pytest

from repro import column_generation as study
from tests.conftest import data_dir

pytestmark = pytest.mark.skipif(data_dir() is None, reason="benchmark data not available")

TIMES = ["seconds", "pricing_seconds"]


def test_the_ablation_is_the_same_run_twice_times_aside():
    first, second = (
        study.pricing_ablation("pima", max_rows=300, exact_budget=0.05) for _ in range(2)
    )
    assert list(first["variant"]) == list(study.ABLATION_VARIANTS)
    assert first.drop(columns=TIMES).equals(second.drop(columns=TIMES))
    # a budget of 0.05 s of work binds on the exact variants and is named where it does
    exact = first[first["variant"] != "beam search only"]
    assert exact["limits_hit"].str.contains("exact_budget").all()
    assert not first["limits_hit"].str.contains("time_limit").any()


def test_the_milp_finds_the_search_s_lowest_reduced_cost_on_the_same_problems():
    table = study.milp_pricing_times("pima", max_rows=100, rounds=2, milp_time_limit=60)
    assert list(table["round"]) == list(range(len(table))) and len(table) >= 2
    assert np.all(np.diff(table["lp_value"]) <= 1e-9)  # the run goes on with the search's columns
    proved = table[table["milp_proved"]]
    assert len(proved) >= 1  # 100 rows: HiGHS proves each in seconds
    assert (table["milp_nodes"] >= 0).all()  # HiGHS's own count, read back
    np.testing.assert_allclose(proved["milp_best"], proved["best"], atol=1e-6)
