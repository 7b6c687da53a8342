"""Notebook 03's protocol: its parameters' QUICK and FULL values, the merge of a partial FULL
run with the earlier run's rows, the provenance lines and the run-time table."""

import pandas as pd

from repro.core.runs import declared
from repro.two_level import protocol
from repro.two_level.experiments import PAPER_NAMES


def resolved(quick: bool) -> dict:
    return {name: p.resolve(name, p.default, quick) for name, p in declared("03_two_level").items()}


def test_a_run_left_at_the_defaults_takes_the_paper_settings_or_the_small_ones():
    full, quick = resolved(False), resolved(True)
    assert full["DATASETS"] == list(PAPER_NAMES)
    assert quick["DATASETS"] == ["parkinsons", "bupa"]
    assert (full["THETA_GRID"], quick["THETA_GRID"]) == ([0.01, 0.1, 1.0, 10.0], [0.1, 10.0])
    assert (full["INNER_CV"], quick["INNER_CV"]) == (3, 2)
    assert (full["MAX_FOLDS"], quick["MAX_FOLDS"]) == (None, 2)


def folds(datasets, method="BCD", fold_count=2):
    return pd.DataFrame(
        [
            {"dataset": d, "method": method, "fold": f, "error": 0.1, "fit_time": 1.0}
            for d in datasets
            for f in range(fold_count)
        ]
    )


def test_a_full_run_keeps_the_earlier_rows_of_the_datasets_it_did_not_run(tmp_path):
    earlier = folds(["pima", "sonar"]).assign(run="2024-01-01 00:00 UTC")
    earlier.to_csv(tmp_path / "folds.csv", index=False)
    merged = protocol.keep_earlier(
        folds(["sonar"]), tmp_path / "folds.csv", "now", keep=True, quick=False
    )
    assert set(merged[merged.run == "now"].dataset) == {"sonar"}
    assert set(merged[merged.run != "now"].dataset) == {"pima"}
    lines = protocol.provenance(merged, "now")
    assert lines[:2] == [
        "  computed by this run: Sonar",
        "  computed by the 2024-01-01 00:00 UTC: Pima",
    ]
    assert lines[2].startswith("NOTE: the paper's datasets ['ILPD', 'Ionos', 'Liver'")


def test_a_quick_run_or_keep_earlier_off_keeps_only_its_own_rows(tmp_path):
    folds(["pima"]).assign(run="earlier").to_csv(tmp_path / "folds.csv", index=False)
    for keep, quick in ((True, True), (False, False)):
        out = protocol.keep_earlier(
            folds(["sonar"]), tmp_path / "folds.csv", "now", keep=keep, quick=quick
        )
        assert set(out.dataset) == {"sonar"} and set(out.run) == {"now"}


def test_fit_times_scale_the_folds_run_to_all_folds():
    results = pd.concat([folds(["pima"], "BCD"), folds(["pima"], "AM")])
    times = protocol.fit_times(results, n_splits=10)
    assert list(times.columns) == ["BCD", "AM", "all methods, 10 folds (s)"]
    assert list(times.index) == ["Pima"]
    # 2 methods x 2 folds of 1 s, on 2 of 10 folds
    assert times.loc["Pima", "all methods, 10 folds (s)"] == 20.0
