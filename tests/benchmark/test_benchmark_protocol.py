"""Notebook 07's protocol: what QUICK means for its parameters, data sets and methods, the
merge of a partial FULL run, and the lines that say what a run covered."""

import pandas as pd
import pytest

from repro.benchmark import protocol
from repro.core.runs import declared


def resolved(quick: bool) -> dict:
    return {name: p.resolve(name, p.default, quick) for name, p in declared("07_benchmark").items()}


def test_a_run_left_at_the_defaults_takes_the_full_or_the_quick_settings():
    full, quick = resolved(False), resolved(True)
    assert (full["MAX_FOLDS"], quick["MAX_FOLDS"]) == (None, 2)
    assert (full["BRCG_ITER_MAX"], quick["BRCG_ITER_MAX"]) == (100, 5)
    assert (full["PLANTED_ROWS"], quick["PLANTED_ROWS"]) == ([10_000, 100_000], [10_000])


def test_the_data_sets_of_a_run():
    quick_sets, all_sets = ["bupa"], ["bupa", "pima"]
    assert protocol.run_datasets(None, True, quick_sets, all_sets) == ["bupa"]
    assert protocol.run_datasets(None, False, quick_sets, all_sets) == ["bupa", "pima"]
    assert protocol.run_datasets(["sonar"], True, quick_sets, all_sets) == ["sonar"]
    assert protocol.multiclass_datasets(True, ["iris", "gas"], ["iris"]) == ["iris"]
    assert protocol.multiclass_datasets(False, ["iris", "gas"], ["iris"]) == ["iris", "gas"]
    assert protocol.cut_datasets(None, ["bupa"]) == ["bupa"]
    assert protocol.cut_datasets([], ["bupa"]) == []


@pytest.fixture
def fake_learners(monkeypatch):
    calls = {}

    def ours(**kw):
        calls["ours"] = kw
        return {"RuSC": "rusc", "CG": "cg"}, {"GRAB": "not installed"}

    def theirs(**kw):
        calls["theirs"] = kw
        return {"BRCG": "brcg", "RF": "rf"}, {}

    monkeypatch.setattr(protocol.peers, "rulelab_learners", ours)
    monkeypatch.setattr(protocol.peers, "peer_learners", theirs)
    return calls


def lineup(**kw):
    settings = dict(
        quick=False,
        quick_peers=["BRCG"],
        exclude=[],
        only=None,
        max_rules=10,
        theta=1.0,
        random_state=0,
        brcg_iter_max=100,
        brcg_time_max=None,
        cart_depth=3,
        ripper="jrip",
    )
    return protocol.lineup(**{**settings, **kw})


def test_a_quick_run_fits_only_the_quick_peers(fake_learners):
    lineup(quick=True)
    assert fake_learners["theirs"]["include"] == ["BRCG"]
    lineup(quick=False)
    assert fake_learners["theirs"]["include"] is None


def test_exclude_and_only_leave_methods_out(fake_learners):
    ours, theirs, skipped = lineup(exclude=["CG"])
    assert list(ours) == ["RuSC"] and list(theirs) == ["BRCG", "RF"]
    assert skipped == {
        "GRAB": "not installed",
        "CG": "left out by the EXCLUDE parameter of this run",
    }
    ours, theirs, _ = lineup(only=["CG", "RF"])
    assert list(ours) == ["CG"] and list(theirs) == ["RF"]
    with pytest.raises(ValueError, match="ONLY names unknown methods"):
        lineup(only=["XGB"])


def folds(datasets, method="CG", limits=None):
    return pd.DataFrame(
        [
            {"dataset": d, "method": method, "fold": f, "limits_hit": limits}
            for d in datasets
            for f in range(2)
        ]
    )


def test_a_partial_full_run_says_which_data_sets_it_did_not_run(tmp_path):
    folds(["pima"]).assign(run="earlier").to_csv(tmp_path / "folds.csv", index=False)
    merged = protocol.keep_earlier(
        folds(["bupa"]), tmp_path / "folds.csv", "now", keep=True, quick=False
    )
    assert set(merged.dataset) == {"bupa", "pima"}
    assert protocol.run_mode(merged, False, ["bupa", "pima"]) == "FULL"
    assert protocol.run_mode(merged, False, ["bupa", "pima", "wdbc"]) == "partial FULL"
    assert protocol.run_mode(merged, True, ["bupa", "pima"]) == "QUICK"
    quick = protocol.keep_earlier(
        folds(["bupa"]), tmp_path / "folds.csv", "now", keep=True, quick=True
    )
    assert set(quick.dataset) == {"bupa"}
    lines = protocol.run_report(
        merged,
        "now",
        mode="partial FULL",
        all_datasets=["bupa", "pima", "wdbc"],
        max_folds=None,
        n_splits=10,
        brcg_iter_max=100,
        brcg_time_max=None,
    )
    assert lines[0] == (
        "partial FULL run: 10 of 10 folds on 2 of 3 data sets; BRCG limited to 100 "
        "iterations (no clock limit); not run: wdbc"
    )


def test_the_report_counts_the_folds_on_which_each_limit_bound():
    results = pd.concat([folds(["bupa"], "CG", "pricing_node_limit"), folds(["bupa"], "BRCG")])
    results = results.assign(run="now")
    lines = protocol.run_report(
        results,
        "now",
        mode="QUICK",
        all_datasets=["bupa"],
        max_folds=2,
        n_splits=10,
        brcg_iter_max=5,
        brcg_time_max=30.0,
    )
    assert (
        lines[0]
        == "QUICK run: 2 of 10 folds on 1 of 1 data sets; BRCG limited to 5 iterations / 30.0 s"
    )
    assert lines[-1] == "  CG: pricing_node_limit bound on 2 of 2 folds"


def test_wide_keeps_the_methods_order():
    table = pd.DataFrame(
        {"method": ["A", "B", "A", "B"], "dataset": ["x", "x", "y", "y"], "error": [1, 2, 3, 4]}
    )
    out = protocol.wide(table, "error", {"B": None, "A": None})
    assert list(out.index) == ["B", "A"] and out.loc["A", "y"] == 3
