"""Notebook 07's grid-against-refined comparison (repro.benchmark.cut_points)."""

from __future__ import annotations

import pandas as pd
import pytest

from repro.benchmark import cut_points
from repro.benchmark.cut_points import GRID, REFINED, cut_methods, cut_table, cut_verdict


def _records(dataset: str, refined: list[float], grid: list[float]) -> pd.DataFrame:
    rows = []
    for method, errors, rules in ((REFINED, refined, 3.0), (GRID, grid, 4.0)):
        for fold, error in enumerate(errors):
            rows.append(
                {
                    "dataset": dataset,
                    "method": method,
                    "fold": fold,
                    "error": error,
                    "n_rules": rules,
                    "n_terms": 2 * rules,
                    "fit_time": 1.0,
                }
            )
    return pd.DataFrame(rows)


def test_the_two_learners_differ_only_in_refine_cuts():
    methods = cut_methods(random_state=3)
    refined, grid = methods[REFINED].get_params(), methods[GRID].get_params()
    assert refined.pop("refine_cuts") is True and grid.pop("refine_cuts") is False
    assert refined == grid and refined["random_state"] == 3


def test_the_table_pairs_the_folds_and_calls_a_gap_within_its_se_a_tie():
    folds = pd.concat(
        [
            _records("better", refined=[0.1, 0.1, 0.1], grid=[0.2, 0.3, 0.2]),
            _records("tied", refined=[0.1, 0.2, 0.1], grid=[0.2, 0.1, 0.1]),
        ]
    )
    table = cut_table(folds).set_index("dataset")
    assert list(table["verdict"]) == ["holds", "tie"]
    assert (
        table.loc["better", "gain"] == pytest.approx(0.4 / 3)
        and table.loc["better", "refined_rules"] == 3
    )
    claim = cut_verdict(table.reset_index())
    assert claim["verdict"] == "holds"  # "never raises": within its SE is what equal looks like
    assert claim["evidence"].startswith(
        "refined against grid, paired over folds: 1 better, 1 within 1 SE, 0 worse on 2 "
        "data sets; better on better; mean error 0.1167 refined"
    )


def test_one_data_set_worse_beyond_its_se_breaks_the_claim():
    table = cut_table(_records("sonar", refined=[0.3, 0.4, 0.3], grid=[0.2, 0.2, 0.2]))
    assert cut_verdict(table)["verdict"] == "does not hold"
    assert "worse on sonar" in cut_verdict(table)["evidence"]


def test_the_benchmark_s_cg_folds_are_reused_and_only_the_grid_is_fitted(monkeypatch):
    calls = []

    def fake_cross_validate(methods, datasets, **kw):
        calls.append((list(methods), list(datasets)))
        frame = pd.concat(_records(d, [0.1] * 2, [0.2] * 2) for d in datasets)
        return frame[frame["method"].isin(methods)]

    monkeypatch.setattr(cut_points, "cross_validate", fake_cross_validate)
    reuse = _records("pima", [0.25, 0.25], [0.0, 0.0])
    reuse = reuse[reuse["method"] == REFINED]
    folds = cut_points.run_cut_comparison(["pima", "sonar"], max_folds=2, reuse=reuse)
    assert calls == [([GRID], ["pima", "sonar"]), ([REFINED], ["sonar"])]
    pima = folds[(folds.dataset == "pima") & (folds.method == REFINED)]
    assert list(pima["error"]) == [0.25, 0.25]  # the benchmark's rows, not refitted


def test_no_data_set_is_not_testable():
    table = cut_table(cut_points.run_cut_comparison([]))
    assert table.empty and cut_verdict(table)["verdict"] == "not testable"


def test_the_planted_problem_flips_about_its_noise_share_of_the_rule_s_labels():
    X, y = cut_points.planted_offgrid(20_000, seed=3)
    truth = cut_points.planted_offgrid_rule().evaluate(X)
    assert X.shape == (20_000, cut_points.PLANTED_FEATURES)
    assert abs((y != truth).mean() - cut_points.PLANTED_NOISE) < 0.01


def test_refined_cuts_move_toward_the_planted_thresholds_and_the_noise_floor():
    table = cut_points.planted_comparison([5000], n_test=20_000)
    (row,) = table.itertuples()
    # the grid's nearest quantile cuts leave error above the floor; refining removes most
    assert row.refined_error < row.grid_error
    assert row.refined_error - row.floor < 0.5 * (row.grid_error - row.floor)
    assert row.verdict == "holds" and row.gain == pytest.approx(row.grid_error - row.refined_error)
    assert cut_points.planted_verdict(table)["verdict"] == "holds"


def test_no_planted_size_is_not_testable():
    assert cut_points.planted_verdict(pd.DataFrame())["verdict"] == "not testable"
