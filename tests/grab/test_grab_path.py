"""GRAB along a C grid: warm starts solve the same problem to the same criterion."""

import os

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone

from rulelab import CBMClassifier
from rulelab.grab import graft
from rulelab.grab.grafting import SharedFirstSearch, duality_gap


def planted(seed=1, m=400, d=8):
    rng = np.random.default_rng(seed)
    X = (rng.random((m, d)) < 0.5).astype(np.uint8)
    rule = (X[:, 0] & X[:, 1]) | (X[:, 2] & (1 - X[:, 3]))
    y = np.where(rule ^ (rng.random(m) < 0.1), 1, 0)
    return pd.DataFrame(X, columns=[f"a{j}" for j in range(d)]), pd.Series(y)


def gap(model, X, y, k):
    ypm = np.where(np.asarray(y) == model.classes_[1], 1.0, -1.0)
    return duality_gap(
        X.to_numpy(np.uint8),
        ypm,
        model.result_.margins,
        model.objective_,
        C=model.C,
        loss=model.loss,
        max_size=k,
    )


@pytest.mark.parametrize("loss", ["logistic", "l2hinge"])
@pytest.mark.parametrize("k", [2, None])
def test_a_warm_start_reaches_the_cold_objective_at_the_same_criterion(loss, k):
    X, y = planted()
    for C1, C2 in [(0.1, 1.0), (1.0, 10.0), (10.0, 1.0)]:
        warm = CBMClassifier(max_terms=k, C=C1, loss=loss, top_k=5, warm_start=True).fit(X, y)
        warm.set_params(C=C2).fit(X, y)
        cold = CBMClassifier(max_terms=k, C=C2, loss=loss, top_k=5).fit(X, y)
        assert warm.warm_started_ and not cold.warm_started_
        # the same V^0 (measured at w = 0 for C2), so the same stopping rule, and it fired
        assert warm.result_.V0 == cold.result_.V0 and warm.converged_ and cold.converged_
        # each is within its duality gap of the optimum, so they are within the larger one
        bound = max(gap(warm, X, y, k), gap(cold, X, y, k))
        assert bound >= 0
        assert abs(warm.objective_ - cold.objective_) <= bound + 1e-9 * cold.objective_


@pytest.mark.parametrize("loss", ["logistic", "l2hinge"])
def test_a_tight_warm_start_reaches_the_cold_optimum(loss):
    X, y = planted(seed=3)
    warm = CBMClassifier(C=0.5, loss=loss, tol=1e-9, top_k=5, warm_start=True).fit(X, y)
    warm.set_params(C=5.0).fit(X, y)
    cold = CBMClassifier(C=5.0, loss=loss, tol=1e-9, top_k=5).fit(X, y)
    assert abs(warm.objective_ - cold.objective_) <= 1e-7 * cold.objective_
    assert gap(cold, X, y, 2) <= 1e-6 * cold.objective_
    np.testing.assert_allclose(warm.decision_function(X), cold.decision_function(X), atol=1e-4)


def test_without_warm_start_a_refit_is_the_fit_it_always_was():
    X, y = planted()
    model = CBMClassifier(C=0.3, top_k=5).fit(X, y)
    model.set_params(C=3.0).fit(X, y)
    fresh = CBMClassifier(C=3.0, top_k=5).fit(X, y)
    ypm = np.where(y == 1, 1.0, -1.0)
    direct = graft(X.to_numpy(np.uint8), ypm, C=3.0, max_size=2, tol=1e-2, top_k=5)
    assert not model.warm_started_
    assert model.itemsets_ == fresh.itemsets_
    np.testing.assert_array_equal(model.coef_, fresh.coef_)
    assert model.objective_ == fresh.objective_ == direct.objective
    untimed = [c for c in fresh.history_ if not c.startswith("time")]
    pd.testing.assert_frame_equal(model.history_[untimed], fresh.history_[untimed])


def test_a_warm_start_on_other_attributes_is_a_cold_fit():
    X, y = planted()
    model = CBMClassifier(C=1.0, top_k=5, warm_start=True).fit(X, y)
    other = X.rename(columns={"a0": "b0"})
    model.fit(other, y)
    fresh = CBMClassifier(C=1.0, top_k=5).fit(other, y)
    assert not model.warm_started_
    np.testing.assert_array_equal(model.coef_, fresh.coef_)
    # a smaller max_terms keeps the previous conjunctions that still belong to Phi(d, k)
    model.fit(X, y)
    model.set_params(max_terms=1).fit(X, y)
    assert model.warm_started_ and all(len(p) <= 1 for p in model.itemsets_)


def test_graft_refuses_a_warm_start_outside_the_problem():
    X, y = planted()
    B, ypm = X.to_numpy(np.uint8), np.where(y == 1, 1.0, -1.0)
    for init, message in [
        (([(0, 1, 2)], [1.0]), "not a conjunction"),
        (([(0,), (0,)], [1.0, 2.0]), "repeats"),
        (([(99,)], [1.0]), "outside"),
        (([(0,)], [1.0, 2.0]), "weights"),
    ]:
        with pytest.raises(ValueError, match=message):
            graft(B, ypm, max_size=2, init=init)


def test_duality_gap_bounds_the_distance_to_the_optimum():
    X, y = planted(seed=4)
    B, ypm = X.to_numpy(np.uint8), np.where(y == 1, 1.0, -1.0)
    best = graft(B, ypm, C=2.0, max_size=2, tol=1e-10, top_k=5)
    rough = graft(B, ypm, C=2.0, max_size=2, tol=1e-1, top_k=5)
    g = duality_gap(B, ypm, rough.margins, rough.objective, C=2.0, loss="logistic", max_size=2)
    assert rough.objective - best.objective <= g
    assert g > 0


def _path_data():
    X, y = planted(seed=5, m=300)
    folds = np.arange(len(y)) % 3
    return X, y, np.flatnonzero(folds != 0), np.flatnonzero(folds == 0)


def test_a_path_task_scores_every_c_as_independent_fits_do():
    from repro.grab import experiments as ex

    X, y, tr, te = _path_data()
    est = CBMClassifier(top_k=5, tol=1e-8)
    Cs = [0.01, 0.1, 1.0, 10.0, 100.0]
    path = ex._path_fit_scores(est, {"max_terms": 2}, Cs, X, y, tr, te, None)["records"]
    alone = [ex._fit_score(est, {"max_terms": 2, "C": C}, X, y, tr, te, None) for C in Cs]
    assert [r["score"] for r in path] == [r["score"] for r in alone]
    assert all(not r["timed_out"] and not r["error"] for r in path)


@pytest.mark.data
@pytest.mark.skipif(not os.environ.get("RULELAB_DATA"), reason="needs RULELAB_DATA")
def test_table1_fits_grab_as_cached_paths_with_the_rows_of_independent_fits(tmp_path, monkeypatch):
    from repro.grab import experiments as ex

    monkeypatch.setenv("RULELAB_CACHE", str(tmp_path))
    grid = {"max_terms": [1, 2], "C": [10.0, 0.1, 1.0]}  # the path sorts C itself
    methods = {"GRAB": (CBMClassifier(top_k=20, tol=1e-8), grid)}
    run = dict(folds=2, max_train=200)
    path = ex.tuned_accuracy("fourclass", methods, grab_path=True, **run)
    # one cached unit per (max_terms, fold), and a rerun reads every fit
    assert len(list((tmp_path / "results" / "grab" / "table1path").glob("*.json"))) == 4
    again = ex.tuned_accuracy("fourclass", methods, grab_path=True, **run)
    assert path.n_cached.tolist() == [0] and again.n_cached.tolist() == [12]
    cold = ex.tuned_accuracy("fourclass", methods, grab_path=False, **run)
    assert path.grab_path.tolist() == [True] and cold.grab_path.tolist() == [False]
    same = ["m", "d", "n_combinations", "n_excluded"]
    pd.testing.assert_frame_equal(path[same], cold[same])
    # one-hot cells sum to the bias, so the L1 optimum need not be unique and a validation
    # row may sit at f = 0: equal objectives, a validation row or two apart (of 100)
    assert abs(path.cv_accuracy.iloc[0] - cold.cv_accuracy.iloc[0]) <= 2.0
    assert clone(methods["GRAB"][0]).get_params()["warm_start"] is False


@pytest.mark.parametrize("loss", ["logistic", "l2hinge"])
@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
def test_a_shared_first_search_gives_the_models_of_separate_fits(loss, C):
    X, y = planted(seed=3)
    ks = [1, 2, 3, None]
    shared = SharedFirstSearch(ks)
    for k in ks:
        est = CBMClassifier(max_terms=k, C=C, loss=loss, top_k=3)
        alone, along = clone(est).fit(X, y), clone(est).fit(X, y, first_search=shared)
        assert along.itemsets_ == alone.itemsets_ and np.array_equal(along.coef_, alone.coef_)
        assert along.objective_ == alone.objective_ and along.n_iter_ == alone.n_iter_
        assert along.result_.V0 == alone.result_.V0
    assert (len(shared._served) == len(ks)) == (C >= 1)  # shared where sums are exact


def test_a_shared_first_search_is_ignored_by_a_fit_on_other_rows():
    X, y = planted(seed=3)
    shared = SharedFirstSearch([1, 2])
    CBMClassifier(max_terms=1, top_k=3).fit(X, y, first_search=shared)
    est = CBMClassifier(max_terms=2, top_k=3)
    alone, along = (
        clone(est).fit(X[:300], y[:300]),
        clone(est).fit(X[:300], y[:300], first_search=shared),
    )
    assert along.itemsets_ == alone.itemsets_ and np.array_equal(along.coef_, alone.coef_)


def test_a_grab_task_scores_every_max_terms_as_independent_fits_do():
    from repro.grab import experiments as ex

    X, y, tr, te = _path_data()
    est = CBMClassifier(top_k=5)
    ks = [1, 2, 3, None]
    for C in (0.1, 10.0):
        task = ex._grab_fit_scores(est, {"C": C}, ks, X, y, tr, te, None)["records"]
        alone = [ex._fit_score(est, {"C": C, "max_terms": k}, X, y, tr, te, None) for k in ks]
        assert [r["score"] for r in task] == [r["score"] for r in alone]
        assert all(not r["timed_out"] and not r["error"] for r in task)
