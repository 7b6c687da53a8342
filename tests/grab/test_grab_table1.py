"""Notebook 05's Table 1 protocol: which sets and methods a run fits, which earlier rows it
keeps, and the views the claims read."""

import numpy as np
import pandas as pd
import pytest

from repro.grab import table1 as t1
from repro.grab.claims import naive_ratio
from repro.grab.experiments import conjunction_counts

METHODS = t1.method_names()


def _protocol(**changes):
    settings = dict(
        folds=5, seed=0, max_train={"ijcnn1": 10000}, fit_time_limit=3600, top_k=1000,
        splits={"diabetes": 10},
    )  # fmt: skip
    return t1.Protocol(**(settings | changes))


def _rows(sets, accuracy=80.0, methods=METHODS, **columns):
    """Table 1 rows of every method on ``sets``, as a run writes them."""
    return pd.DataFrame(
        [
            {"dataset": d, "method": m, "accuracy": accuracy, "accuracy_se": np.nan}
            | {"folds": 5, "seed": 0, "max_train": np.nan, "fit_time_limit": 3600.0}
            | {"top_k": 1000, "splits": 1}
            | columns
            for d in sets
            for m in methods
        ]
    )


def test_a_setting_is_given_for_every_set_or_per_set():
    assert t1.for_set(300, "a1a") == 300
    assert t1.for_set({"ijcnn1": 10000}, "ijcnn1") == 10000
    assert t1.for_set({"ijcnn1": 10000}, "a1a") is None
    assert _protocol().max_train_of("a1a") is None


def test_a_full_table_is_read_over_the_papers_seven_sets_a_quick_one_over_its_own():
    assert t1.all_sets(["fourclass"], quick=False) == list(t1.PAPER_SETS)
    assert t1.all_sets(["fourclass", "diabetes"], quick=True) == ["fourclass", "diabetes"]


def test_the_protocol_frame_records_each_sets_cap_and_splits():
    frame = _protocol().frame(["diabetes", "ijcnn1"]).set_index("dataset")
    assert frame.loc["diabetes", "splits"] == 10 and frame.loc["ijcnn1", "splits"] == 1
    assert frame.loc["ijcnn1", "max_train"] == 10000 and pd.isna(frame.loc["diabetes", "max_train"])


def test_an_unknown_method_is_refused_with_the_known_ones():
    methods = {m: None for m in METHODS}
    assert list(t1._chosen(methods, ["DT", "RF"])) == ["DT", "RF"]
    assert t1._chosen(methods, None) is methods
    with pytest.raises(ValueError, match="unknown methods \\['CART'\\]"):
        t1._chosen(methods, ["CART"])


def _earlier(tmp_path):
    earlier = _rows(["a1a", "fourclass"], accuracy=70.0, run="the first run")
    earlier.to_csv(tmp_path / t1.TABLE_FILE, index=False)
    splits = earlier[["dataset", "method"]].assign(split=0, accuracy=70.0)
    splits.to_csv(tmp_path / t1.SPLITS_FILE, index=False)


def test_a_full_run_keeps_the_earlier_rows_of_the_sets_it_did_not_run(tmp_path):
    _earlier(tmp_path)
    table, splits = _rows(["a1a"]), _rows(["a1a"])[["dataset", "method"]].assign(split=0)
    merged, merged_splits = t1.with_earlier(
        table, splits, tmp_path, run="now", protocol=_protocol().frame(t1.PAPER_SETS),
        keep_earlier=True, quick=False,
    )  # fmt: skip
    by_set = merged.groupby("dataset").run.agg(set)
    assert by_set["a1a"] == {"now"} and by_set["fourclass"] == {"the first run"}
    assert merged.loc[merged.dataset == "a1a", "accuracy"].eq(80.0).all()
    assert sorted(merged_splits.dataset.unique()) == ["a1a", "fourclass"]


@pytest.mark.parametrize("keep_earlier, quick", [(False, False), (True, True)])
def test_a_quick_run_or_one_without_keep_earlier_keeps_nothing(tmp_path, keep_earlier, quick):
    _earlier(tmp_path)
    merged, _ = t1.with_earlier(
        _rows(["a1a"]), pd.DataFrame(), tmp_path, run="now",
        protocol=_protocol().frame(t1.PAPER_SETS), keep_earlier=keep_earlier, quick=quick,
    )  # fmt: skip
    assert set(merged.dataset) == {"a1a"} and set(merged.run) == {"now"}


def test_an_earlier_row_of_another_protocol_is_not_kept(tmp_path):
    _earlier(tmp_path)
    merged, _ = t1.with_earlier(
        _rows(["a1a"]), pd.DataFrame(), tmp_path, run="now",
        protocol=_protocol(folds=3).frame(t1.PAPER_SETS), keep_earlier=True, quick=False,
    )  # fmt: skip
    assert set(merged.dataset) == {"a1a"}


def test_the_wide_table_names_the_sets_without_every_methods_row():
    table = pd.concat([_rows(["fourclass"]), _rows(["a1a"], methods=METHODS[:3])])
    shown, missing = t1.wide(table, t1.PAPER_SETS)
    assert list(shown.index) == ["a1a", "fourclass"] and list(shown.columns) == METHODS
    assert missing == [d for d in t1.PAPER_SETS if d != "fourclass"]


def test_provenance_names_each_run_and_its_sets():
    table = pd.concat([_rows(["a1a"], run="now"), _rows(["fourclass"], run="2026-01-01")])
    lines = t1.provenance(table, "now").splitlines()
    assert lines[0].startswith("computed by this run: a1a (GRAB (logistic), ")
    assert lines[1].startswith("computed by the run of 2026-01-01: fourclass (")


def test_capped_sets_and_split_errors_are_read_from_the_rows():
    table = pd.concat(
        [_rows(["ijcnn1"], max_train=10000.0), _rows(["diabetes"], splits=10, accuracy_se=0.5)]
    )
    assert t1.capped(table).to_dict() == {"ijcnn1": 10000}
    assert list(t1.split_se(table).index) == ["diabetes"]


def test_side_by_side_compares_the_best_grab_with_the_trees_and_lrfim():
    wide = pd.DataFrame([[80, 85, 70, 84, 86, 75, 78]], index=["a1a"], columns=METHODS)
    paper = pd.DataFrame({"dataset": ["a1a"], "method": ["SVC"], "best_in_text": ["yes"]})
    side = t1.side_by_side(wide, paper).loc["a1a"]
    assert side["best (ours)"] == "RF" and side["best (paper text)"] == "SVC"
    assert side["GRAB >= DT"] and not side["GRAB >= RF"] and side["GRAB(log) >= LRFIM"]


def test_naive_ratio_counts_a_naive_run_that_never_reached_the_objective_as_infinitely_slow():
    tto = pd.DataFrame(
        {
            "method": ["GRAB", "Grafting", "GRAB", "Grafting"],
            "C": [1.0, 1.0, 1.0, 1.0],
            "degree": [1, 1, 4, 4],
            "seconds_to_target": [2.0, 6.0, 3.0, np.nan],
        }
    )
    ratio = naive_ratio(tto)
    assert ratio.name == "naive / GRAB"
    assert ratio[(1.0, 1)] == 3.0 and ratio[(1.0, 4)] == np.inf


def test_only_the_counts_the_paper_keeps_are_counted():
    with pytest.raises(ValueError, match="no count of \\['madelon'\\]"):
        conjunction_counts(pd.DataFrame({"a": [0, 1]}), ["madelon"])
