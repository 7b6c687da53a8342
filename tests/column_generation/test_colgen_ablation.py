"""Notebook 08's pricing ablation: every column but the seconds is counted in work, and the
MILP, timed on the search's own pricing problems, agrees with it where it proves optimality."""

import numpy as np
import pytest

from repro.column_generation import experiments as study
from tests.conftest import data_dir

pytestmark = pytest.mark.skipif(data_dir() is None, reason="benchmark data not available")

TIMES = ["seconds", "pricing_seconds"]


def test_the_ablation_is_the_same_run_twice_times_aside():
    first, second = (
        study.pricing_ablation("pima", max_rows=300, exact_budget=0.05, cache=False)
        for _ in range(2)
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


def test_a_rerun_reads_every_unit_and_gives_the_same_tables(monkeypatch, tmp_path):
    monkeypatch.setenv("RULELAB_CACHE", str(tmp_path))
    tally = tmp_path / "tally"
    monkeypatch.setenv("RULELAB_CACHE_TALLY", str(tally))

    def tables():
        return (
            study.recovery_curve([2], [150], 1, n_test=500),
            study.pricing_ablation("pima", max_rows=200, exact_budget=0.05),
            study.milp_pricing_times("pima", max_rows=100, rounds=1, milp_time_limit=20),
            study.complexity_path("pima", [0.01], max_folds=1),
        )

    fresh = tables()
    wrote = tally.read_text().splitlines()
    assert len(wrote) == 1 + len(study.ABLATION_VARIANTS) + 1 + 1
    assert all(line.startswith("wrote colgen/") for line in wrote)
    tally.unlink()
    again = tables()
    assert all(line.startswith("read colgen/") for line in tally.read_text().splitlines())
    for a, b in zip(fresh, again):
        assert a.equals(b)
