"""Notebook 04's protocol: its parameters' QUICK and FULL values, the placement sweep beside
the paper's counts and its readings, and Table 3's timings per dataset."""

import pandas as pd
import pytest

from repro.core.runs import declared
from repro.screening import protocol


def resolved(quick: bool) -> dict:
    return {name: p.resolve(name, p.default, quick) for name, p in declared("04_screening").items()}


def test_a_run_left_at_the_defaults_takes_the_paper_settings_or_the_small_ones():
    full, quick = resolved(False), resolved(True)
    # these values enter the cache keys of the counts and timings: as they always were
    assert repr(full["TIME_LIMIT"]) == "None" and repr(quick["TIME_LIMIT"]) == "60.0"
    assert (full["THRESHOLDS"], quick["THRESHOLDS"]) == ([10, 20, 50, 100], [10])
    assert (full["SPLIT_THRESHOLDS"], quick["SPLIT_THRESHOLDS"]) == ([10, 100], [10])
    assert (full["TIME_THRESHOLDS"], quick["TIME_THRESHOLDS"]) == ([10, 20, 50, 100], [10])
    assert full["TIME_ROWS"] == {"gas_drift_partial": None, "magic": None}
    assert quick["TIME_ROWS"] == {"gas_drift_partial": 1000, "magic": 2000}
    assert (full["GROWTH_ROWS"], quick["GROWTH_ROWS"]) == (
        [2000, 5000, 10000, None],
        [500, 1000, 2000],
    )
    assert (full["GROWTH_THRESHOLDS"], quick["GROWTH_THRESHOLDS"]) == (100, 10)


def sweep(simple, duality, total):
    return pd.DataFrame({"simple": simple, "duality": duality, "total": total})


PAPER = pd.DataFrame(
    {
        "dataset": ["Banknote", "Ionosphere"],
        "thresholds": [10, 10],
        "simple": [36, 400],
        "duality": [66, 500],
        "total": [67, 600],
    }
)


@pytest.fixture
def placement(monkeypatch):
    sweeps = {
        # our default (the first row) gives the paper's counts on banknote
        "banknote": sweep([36, 30, 36], [66, 60, 50], [67, 61, 70]),
        # no placement reaches the paper's total on ionosphere
        "ionosphere": sweep([300, 400, 350], [450, 480, 490], [550, 590, 580]),
    }
    monkeypatch.setattr(protocol, "design_sweep", lambda ds, T, level, lam: sweeps[ds])
    return protocol.placement_sweep(PAPER, [10], 1000.0)


def test_the_placement_sweep_sets_each_count_beside_the_paper_s(placement):
    assert list(placement.dataset) == ["Banknote"] * 3 + ["Ionosphere"] * 3
    row = placement[(placement.dataset == "Ionosphere") & (placement.test == "simple")].iloc[0]
    assert row["paper"] == 400 and row["ours (default)"] == 300
    assert (row["min over placements"], row["max over placements"]) == (300, 400)
    assert row["placements matching the paper"] == 1 and row["placements"] == 3


def test_the_readings_say_whether_the_default_or_any_placement_gives_the_paper_s_counts(placement):
    banknote, ionosphere = protocol.placement_readings(placement)
    assert banknote == (
        "Banknote at 10 thresholds: our default placement gives the paper's counts; the "
        "paper's total is within reach of all 3 placements; the paper's simple count is "
        "matched by 2 of them"
    )
    assert "our default placement does not give the paper's counts" in ionosphere
    assert "the paper's total is above all 3 placements" in ionosphere


def test_timings_run_each_dataset_on_its_own_rows(monkeypatch, tmp_path):
    """Each dataset is timed on its own row count, at every threshold count, and the rows
    come back in the order of the datasets and thresholds (whatever order they ran in)."""
    from repro.screening import experiments

    monkeypatch.setenv("RULELAB_CACHE", str(tmp_path))

    def fake(dataset, thresholds, lam, time_limit, rows, seed):
        return {"columns": 2 * thresholds, "rows": 1000 if rows is None else rows}

    monkeypatch.setattr(experiments, "timing_row", fake)
    rows = {"gas_drift_partial": 1000, "magic": None}
    out = protocol.timings(rows, [10, 20], 1000.0, 60.0, seed=0, n_jobs=1)
    assert list(zip(out.dataset, out.thresholds, out.rows_requested.fillna(-1))) == [
        ("gas_drift_partial", 10, 1000),
        ("gas_drift_partial", 20, 1000),
        ("magic", 10, -1),
        ("magic", 20, -1),
    ]
    assert list(out["columns"]) == [20, 40, 20, 40]
