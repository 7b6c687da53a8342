"""GRAB / CBMClassifier: exact objective, optimality conditions, estimator behaviour."""

import os
import time
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.model_selection import cross_val_score

from repro.core.model_size import complexity
from rulelab import CBMClassifier
from rulelab.grab import CellBinarizer, _cd, count_itemsets, expand, graft
from rulelab.rules import format_value, rule_from_dict


def planted(seed=1, m=300, d=6):
    rng = np.random.default_rng(seed)
    X = (rng.random((m, d)) < 0.5).astype(np.uint8)
    rule = (X[:, 0] & X[:, 1]) | (X[:, 2] & (1 - X[:, 3]))
    y = np.where(rule ^ (rng.random(m) < 0.1), 1.0, -1.0)
    return X, y


def exact_objective(X, y, C, loss, k):
    """Eq. (2) on the explicit expansion, solved by an interior-point method (Clarabel)."""
    cp = pytest.importorskip("cvxpy")
    Z, _ = expand(X, k)
    Z = Z.toarray()
    w = cp.Variable(Z.shape[1])
    margin = cp.multiply(y, Z @ w)
    data = (
        cp.sum(cp.logistic(-margin)) if loss == "logistic" else cp.sum_squares(cp.pos(1 - margin))
    )
    prob = cp.Problem(cp.Minimize(C * data + cp.norm1(w)))
    prob.solve(solver="CLARABEL")
    wv = w.value
    f = Z @ wv
    if loss == "logistic":
        return C * np.logaddexp(0, -y * f).sum() + np.abs(wv).sum()
    return C * (np.maximum(0, 1 - y * f) ** 2).sum() + np.abs(wv).sum()


@pytest.mark.parametrize("loss", ["logistic", "l2hinge"])
@pytest.mark.parametrize("k", [1, 2, None])
@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
def test_grab_reaches_the_exact_l1_optimum_of_the_expansion(loss, k, C):
    X, y = planted()
    res = graft(X, y, C=C, loss=loss, max_size=k, tol=1e-8, top_k=3)
    ref = exact_objective(X, y, C, loss, k)
    assert res.converged
    assert abs(res.objective - ref) <= 1e-4 * ref


@pytest.mark.parametrize("loss", ["logistic", "l2hinge"])
def test_every_feature_satisfies_the_optimality_condition_at_convergence(loss):
    X, y = planted(seed=2)
    res = graft(X, y, C=1.0, loss=loss, max_size=3, tol=1e-8, top_k=4)
    # free features: 0 in the subdifferential (gradient = -sign(w), or |gradient| <= 1 at 0)
    Z, sets = expand(X, 3)
    alpha = _cd.sample_grad(res.margins, y, 1.0, _cd.LOGISTIC if loss == "logistic" else 1)
    grad = Z.T @ alpha
    index = {p: j for j, p in enumerate(sets)}
    free = {p: w for p, w in zip(res.itemsets, res.coef)}
    for p, j in index.items():
        w = free.get(p, 0.0)
        if w != 0.0:
            assert abs(grad[j] + np.sign(w)) < 1e-5
        else:  # every feature outside the support, free or not, has |gradient| <= 1
            assert abs(grad[j]) <= 1 + 1e-5


@pytest.mark.parametrize("top_k", [3, 10_000])
def test_the_recorded_stopping_measure_is_the_exhaustive_one(top_k):
    # with K above the number of violators the top-K heap never fills, and that one call
    # is taken as the measurement: V must still be exactly the exhaustive sum
    X, y = planted(seed=4)
    res = graft(X, y, C=1.0, max_size=3, tol=1e-3, top_k=top_k)
    assert res.converged
    Z, sets = expand(X, 3)
    grad = Z.T @ _cd.sample_grad(res.margins, y, 1.0, _cd.LOGISTIC)
    free = {p: w for p, w in zip(res.itemsets, res.coef)}
    V = sum(
        abs(g + np.sign(free[p])) if free.get(p, 0.0) != 0.0 else max(abs(g) - 1.0, 0.0)
        for p, g in zip(sets, grad)
    )
    last = res.history[-1]
    assert last["V_measured"]
    assert last["V"] == pytest.approx(V, rel=1e-9, abs=1e-12)
    assert last["V"] < 1e-3 * res.V0


@pytest.mark.parametrize("search", ["naive", "occurring"])
def test_naive_grafting_reaches_the_same_optimum(search):
    X, y = planted(seed=3)
    a = graft(X, y, C=1.0, max_size=2, tol=1e-8, top_k=3, search="wfim")
    b = graft(X, y, C=1.0, max_size=2, tol=1e-8, top_k=3, search=search)
    assert abs(a.objective - b.objective) <= 1e-6 * a.objective


@pytest.mark.parametrize("k", [1, 2, 3])
def test_phi_scan_visits_all_of_phi_and_finds_every_violator(k):
    """The paper's naive search: every conjunction of Phi(d, k), occurring or not, is
    evaluated; the violators (|gradient| > 1) are those of a brute-force check."""
    from rulelab.grab.naive import PhiScan, phi_size
    from rulelab.grab.wfim import wfim_bruteforce

    rng = np.random.default_rng(k)
    X = (rng.random((150, 9)) < 0.3).astype(np.uint8)  # many conjunctions never occur
    alpha = rng.normal(scale=0.4, size=150)
    scan = PhiScan(X, k, top_k=5)
    found, top = scan.search(alpha)
    assert scan.n_visited == phi_size(9, k)
    got = {
        tuple(sorted(found.cols[found.ptr[i] : found.ptr[i + 1]])): v
        for i, v in enumerate(found.values)
    }
    expected = wfim_bruteforce(X, alpha, 1.0, k, absolute=True)
    assert got.keys() == expected.keys()
    assert all(abs(got[p] - expected[p]) < 1e-9 for p in got)
    assert list(np.abs(top.values)) == sorted(np.abs(found.values), reverse=True)[:5]
    # excluded (free) features are not returned again
    again, _ = scan.search(alpha, top.keys)
    assert len(again.values) == len(found.values) - len(top.values)


def test_phi_scan_stops_at_its_deadline_and_says_so():
    from rulelab.grab.naive import PhiScan

    X = (np.random.default_rng(0).random((200, 40)) < 0.5).astype(np.uint8)
    scan = PhiScan(X, 3, top_k=5, deadline=0.0)  # already past
    found, _ = scan.search(np.ones(200))
    assert scan.timed_out and not found.complete
    res = graft(X, np.where(X[:, 0] == 1, 1.0, -1.0), max_size=3, search="naive", time_limit=0.0)
    assert res.timed_out and not res.converged


def test_liblinear_on_the_expansion_solves_the_same_logistic_problem():
    from sklearn.linear_model import LogisticRegression

    X, y = planted(seed=4)
    Z, _ = expand(X, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est = LogisticRegression(
            l1_ratio=1.0,
            solver="liblinear",
            C=1.0,
            fit_intercept=False,
            tol=1e-10,
            max_iter=100_000,
        ).fit(Z, y)
    f = Z @ est.coef_.ravel()
    lib = np.logaddexp(0, -y * f).sum() + np.abs(est.coef_).sum()
    res = graft(X, y, C=1.0, max_size=2, tol=1e-8, top_k=3)
    assert abs(res.objective - lib) <= 1e-6 * lib


def test_classifier_prints_conjunctions_sorted_by_weight():
    X, y = planted(seed=5)
    frame = pd.DataFrame(X, columns=[f"f{j + 1}" for j in range(X.shape[1])])
    model = CBMClassifier(max_terms=2, C=1.0, loss="l2hinge").fit(frame, y)
    table = model.coef_table_
    assert list(table.columns) == ["weight", "conjunction", "size", "support"]
    assert np.all(np.diff(np.abs(table["weight"])) <= 0)
    assert (table["weight"] != 0).all()
    assert table["conjunction"].str.fullmatch(r"\(always\)|f\d == 1( AND f\d == 1)?").all()
    assert "f1 == 1 AND f2 == 1" in set(table["conjunction"])  # the planted conjunction
    lines = str(model).splitlines()  # the printout is rules_, one line per weight
    assert str(model) == str(model.rules_) and lines[0].startswith("IF score > 0 THEN")
    assert len(lines) == len(table) + 1 and "(f1 == 1 AND f2 == 1)" in str(model)
    assert model.score(frame, y) > 0.85


def test_classifier_is_a_scikit_learn_estimator_with_original_labels():
    X, y = planted(seed=6)
    labels = np.where(y > 0, "yes", "no")
    model = CBMClassifier(max_terms=2, C=1.0)
    scores = cross_val_score(model, X, labels, cv=3)
    assert scores.mean() > 0.8
    fitted = clone(model).fit(X, labels)
    assert set(fitted.predict(X)) <= {"yes", "no"}
    proba = fitted.predict_proba(X)
    assert np.allclose(proba.sum(axis=1), 1)
    assert not hasattr(CBMClassifier(loss="l2hinge").fit(X, labels), "predict_proba")


def test_decision_function_is_the_weighted_sum_of_conjunctions():
    X, y = planted(seed=7)
    model = CBMClassifier(max_terms=3, C=1.0).fit(X, y)
    A = X.astype(bool)
    f = np.zeros(len(X))
    for p, w in zip(model.itemsets_, model.coef_):
        f += w * (A[:, list(p)].all(axis=1) if p else 1.0)
    assert np.allclose(model.decision_function(X), f)
    assert np.allclose(model.decision_function(X), model.result_.margins)


def test_numeric_input_is_binarised_into_equal_width_cells():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"age": rng.uniform(20, 70, 400), "flag": rng.integers(0, 2, 400)})
    y = ((X["age"] > 45) & (X["flag"] == 1)).astype(int)
    model = CBMClassifier(max_terms=2, C=10.0, n_bins=5).fit(X, y)
    assert model.binarizer_ is not None
    cut = X["age"].min() + (X["age"].max() - X["age"].min()) / 5 * np.arange(1, 5)
    f = [format_value(c) for c in cut]
    assert list(model.feature_names_) == [
        f"age < {f[0]}",
        f"age in [{f[0]}, {f[1]})",
        f"age in [{f[1]}, {f[2]})",
        f"age in [{f[2]}, {f[3]})",
        f"age >= {f[3]}",
        "flag == 1",
    ]
    assert model.score(X, y) > 0.9


def test_cell_binarizer_one_hots_discrete_codes():
    X = pd.DataFrame({"url_length": [-1, 0, 1, 1, 0], "redirect": [0, 1, 0, 1, 1]})
    keep = CellBinarizer().fit(X)
    assert list(keep.get_feature_names_out()) == [
        "url_length == -1",
        "url_length == 0",
        "url_length == 1",
        "redirect == 1",
    ]
    onehot = CellBinarizer(binary="onehot").fit(X)
    assert onehot.transform(X).shape == (5, 5)
    assert np.array_equal(onehot.transform(X).sum(axis=1), [2] * 5)


def test_cell_binarizer_uses_equal_width_cells_and_clips_new_values():
    X = pd.DataFrame({"v": np.linspace(0, 1, 11)})
    B = CellBinarizer(n_bins=2).fit(X)
    assert list(B.get_feature_names_out()) == ["v < 0.500", "v >= 0.500"]
    assert np.array_equal(
        B.transform(pd.DataFrame({"v": [-5.0, 0.49, 0.5, 9.0]})), [[1, 0], [1, 0], [0, 1], [0, 1]]
    )


@pytest.mark.parametrize(
    "bad, message",
    [
        (dict(loss="hinge"), "loss"),
        (dict(max_terms=-1), "max_terms"),
        (dict(C=0), "C"),
        (dict(top_k=0), "top_k"),
        (dict(binarize="yes"), "binarize"),
    ],
)
def test_bad_parameters_raise_clear_errors(bad, message):
    X, y = planted()
    with pytest.raises(ValueError, match=message):
        CBMClassifier(**bad).fit(X, y)


def test_bad_input_raises_clear_errors():
    X, y = planted()
    with pytest.raises(ValueError, match="one class"):
        CBMClassifier().fit(X, np.ones(len(X)))
    with pytest.raises(ValueError, match="column 'x0' has missing values"):
        CBMClassifier().fit(np.where(X == 1, np.nan, 0.0), y)
    with pytest.raises(ValueError, match="features"):
        CBMClassifier().fit(X, y).predict(X[:, :3])


def test_time_limit_stops_the_run_and_says_so():
    X, y = planted(m=2000, d=10)
    model = CBMClassifier(max_terms=None, C=100.0, top_k=1, tol=1e-9, time_limit=0.0).fit(X, y)
    assert model.timed_out_ and not model.converged_


@pytest.mark.data
@pytest.mark.skipif(not os.environ.get("RULELAB_DATA"), reason="needs RULELAB_DATA")
def test_a1a_has_5439_conjunctions_of_size_at_most_two():
    from rulelab import load_dataset

    X = pd.concat([load_dataset("a1a_train")[0], load_dataset("a1a_test")[0]])
    assert len(X) == 32_561
    assert count_itemsets(X.to_numpy(), 2) == 5_439  # the paper's number (incl. T)


def test_expansion_baseline_predicts_with_its_own_conjunctions():
    from repro.grab.baselines import ExpansionLinear

    X, y = planted(seed=8)
    est = ExpansionLinear(degree=2, C=1.0, tol=1e-8).fit(X, y)
    res = graft(X, y, C=1.0, max_size=2, tol=1e-8, top_k=3)
    assert abs(est.objective_ - res.objective) <= 1e-4 * res.objective
    Z, sets = expand(X, 2)
    full = np.zeros(len(sets))
    full[[sets.index(p) for p in est.support_]] = est.coef_
    assert np.allclose(est.decision_function(X), Z @ full)


def test_lrfim_uses_frequent_itemsets_only():
    from repro.grab.baselines import LRFIM

    X, y = planted(seed=9)
    model = LRFIM(min_support=0.2, max_size=3).fit(X, y)
    A = X.astype(bool)
    assert all(A[:, list(p)].all(axis=1).mean() >= 0.2 for p in model.itemsets_)
    assert model.score(X, y) > 0.8


@pytest.mark.data
@pytest.mark.skipif(not os.environ.get("RULELAB_DATA"), reason="needs RULELAB_DATA")
def test_table1_and_table2_runs_are_cached_so_an_interrupted_run_resumes(tmp_path, monkeypatch):
    from sklearn.tree import DecisionTreeClassifier

    from repro.grab import experiments as ex

    monkeypatch.setenv("RULELAB_CACHE", str(tmp_path))
    # one depth: each (combination, fold) is a unit of its own (depths form a chain per fold)
    grid = {"max_depth": [4], "min_samples_leaf": [1, 20]}
    methods = {"DT": (DecisionTreeClassifier(random_state=0), grid)}
    first = ex.tuned_accuracy("fourclass", methods, folds=2, max_train=200)
    # one record per (combination, fold) and one for the refit: a search resumes
    assert len(list((tmp_path / "results" / "grab" / "table1cv").glob("*.json"))) == 4
    assert len(list((tmp_path / "results" / "grab" / "table1refit").glob("*.json"))) == 1
    again = ex.tuned_accuracy("fourclass", methods, folds=2, max_train=200)
    # seconds too: nothing was refitted, and the row says its fits were read
    assert first.n_cached.tolist() == [0] and again.n_cached.tolist() == [4]
    pd.testing.assert_frame_equal(first.drop(columns="n_cached"), again.drop(columns="n_cached"))
    fresh = ex.tuned_accuracy("fourclass", methods, folds=2, max_train=200, cache=False)
    assert fresh.accuracy.tolist() == first.accuracy.tolist()
    assert fresh.n_cached.tolist() == [0]
    # a depth grid: one unit per fold, read back as one record per (combination, fold)
    chain = {"DT": (DecisionTreeClassifier(random_state=0), {"max_depth": [2, 4, 8]})}
    first = ex.tuned_accuracy("fourclass", chain, folds=2, max_train=200)
    assert len(list((tmp_path / "results" / "grab" / "table1depth").glob("*.json"))) == 2
    again = ex.tuned_accuracy("fourclass", chain, folds=2, max_train=200)
    assert first.n_cached.tolist() == [0] and again.n_cached.tolist() == [6]
    pd.testing.assert_frame_equal(first.drop(columns="n_cached"), again.drop(columns="n_cached"))
    tol = ex.tolerance_study("fourclass", 2, tols=(1e-4, 1e-2), max_train=200)
    assert len(list((tmp_path / "results" / "grab" / "table2").glob("*.json"))) == 2
    pd.testing.assert_frame_equal(
        tol, ex.tolerance_study("fourclass", 2, tols=(1e-4, 1e-2), max_train=200)
    )
    assert tol["|Phi \\ Phi_eps|"].iloc[0] == 0  # the tightest fit is the reference


def test_a_cached_result_is_not_reused_by_changed_code(tmp_path, monkeypatch):
    from sklearn.tree import DecisionTreeClassifier

    from repro.grab import experiments as ex

    monkeypatch.setenv("RULELAB_CACHE", str(tmp_path))
    methods = {"DT": (DecisionTreeClassifier(random_state=0), {"max_depth": [2]})}
    ex.tuned_accuracy("fourclass", methods, folds=2, max_train=100)
    ex.tuned_accuracy("fourclass", methods, folds=2, max_train=100)  # read, not recomputed
    assert len(list((tmp_path / "results" / "grab" / "table1refit").glob("*.json"))) == 1
    from repro.core import cache

    monkeypatch.setattr(cache, "key_of_specs", lambda specs: "other-code")
    ex.tuned_accuracy("fourclass", methods, folds=2, max_train=100)
    assert len(list((tmp_path / "results" / "grab" / "table1refit").glob("*.json"))) == 2
    assert len(list((tmp_path / "results" / "grab" / "table1cv").glob("*.json"))) == 4


def test_expansion_liblinear_is_deterministic_given_random_state():
    from repro.grab.baselines import ExpansionLinear

    X, y = planted(seed=4)
    a = ExpansionLinear(degree=2, C=1.0, random_state=3).fit(X, y)
    b = ExpansionLinear(degree=2, C=1.0, random_state=3).fit(X, y)
    assert a.support_ == b.support_ and np.array_equal(a.coef_, b.coef_)


def test_bitset_columns_match_the_rows_each_conjunction_holds_on():
    from rulelab.grab._bits import columns, flatten, pack_columns
    from rulelab.grab.wfim import TransactionMatrix

    rng = np.random.default_rng(5)
    X = (rng.random((130, 7)) < 0.6).astype(np.uint8)  # 130 rows: a padded last word
    itemsets = [(), (0,), (1, 3), (0, 2, 4), (5, 6), (0, 1, 2, 3, 4, 5, 6)]
    ptr, items = flatten(itemsets)
    col_ptr, rows = columns(pack_columns(TransactionMatrix(X)), X.shape[0], ptr, items)
    for c, p in enumerate(itemsets):
        expected = np.flatnonzero(X[:, list(p)].all(axis=1)) if p else np.arange(X.shape[0])
        assert np.array_equal(rows[col_ptr[c] : col_ptr[c + 1]], expected)


def test_appended_columns_keep_the_earlier_rows_when_the_buffer_grows():
    from rulelab.grab._bits import append_columns, flatten, pack_columns
    from rulelab.grab.wfim import TransactionMatrix

    rng = np.random.default_rng(6)
    X = (rng.random((200, 6)) < 0.5).astype(np.uint8)
    bits = pack_columns(TransactionMatrix(X))
    rows, end, bounds = np.full(3, -1, dtype=np.int32), 0, [0]
    batches = [[(0,), (1, 2)], [(), (3, 4, 5)], [(0, 5)]]
    for batch in batches:  # the 3-slot buffer must grow on the way
        rows, col_ptr = append_columns(bits, 200, *flatten(batch), rows, end)
        end = int(col_ptr[-1])
        bounds += col_ptr[1:].tolist()
    for c, p in enumerate(p for batch in batches for p in batch):
        expected = np.flatnonzero(X[:, list(p)].all(axis=1)) if p else np.arange(200)
        assert np.array_equal(rows[bounds[c] : bounds[c + 1]], expected)


@pytest.mark.parametrize("seed", range(4))
def test_line_search_bound_is_an_upper_bound_of_the_logistic_loss_change(seed):
    from rulelab.grab._cd import _log1p_bound

    rng = np.random.default_rng(seed)
    s = rng.uniform(1e-6, 1 - 1e-6, size=200)
    for step in (-3.0, -0.5, -1e-3, 1e-3, 0.5, 3.0):
        x = np.expm1(step)  # x > -1 for every step
        exact = np.log1p(s * x).sum()
        assert exact <= _log1p_bound(x, s.sum(), (s**2).sum(), (s**3).sum()) + 1e-9


@pytest.mark.parametrize("loss", ["logistic", "l2hinge"])
def test_repeated_rows_count_in_the_objective_supports_and_margins(loss):
    # graft solves over distinct (row, label) pairs weighted by their counts; everything it
    # reports must still be about the caller's rows
    X, y = planted(seed=7)
    rng = np.random.default_rng(7)
    reps = rng.integers(1, 4, size=len(y))
    X, y = np.repeat(X, reps, axis=0), np.repeat(y, reps)
    res = graft(X, y, C=1.0, loss=loss, max_size=2, tol=1e-6, top_k=5)
    cols = [X[:, list(p)].all(axis=1) if p else np.ones(len(y), bool) for p in res.itemsets]
    assert np.allclose(res.margins, sum(w * c for w, c in zip(res.coef, cols)))
    assert res.supports.tolist() == [int(c.sum()) for c in cols]
    z = y * res.margins
    data = np.logaddexp(0, -z) if loss == "logistic" else np.maximum(0, 1 - z) ** 2
    assert res.objective == pytest.approx(data.sum() + np.abs(res.coef).sum(), rel=1e-10)


def test_speed_is_compared_at_an_equal_objective():
    """Fig. 2's comparison: each method's time to the same objective (the best any method
    reached, +0.1 %); a method that stopped above it has no time, whatever its clock."""
    from repro.grab.experiments import time_methods, time_to_objective

    X, y = planted(seed=5)
    times = time_methods(
        X,
        y,
        Cs=(1.0,),
        degrees=(1, 2),
        methods=("GRAB", "Grafting", "LIBLINEAR"),
        top_k=3,
        tol=1e-6,
    )
    tto = time_to_objective(times)
    assert set(tto.method) == {"GRAB", "Grafting", "LIBLINEAR"}
    for _, part in tto.groupby("degree"):
        assert part.reached.all()  # all three solve the same problem
        assert (part.objective <= part.target + 1e-9).all()
        assert (part.seconds_to_target > 0).all()
    # GRAB stopped at a loose tolerance ends above the target: it never reached it
    loose = time_methods(X, y, Cs=(1.0,), degrees=(2,), methods=("GRAB",), top_k=1, tol=0.5).assign(
        method="GRAB (eps 0.5)"
    )
    both = time_to_objective(pd.concat([times[times.degree == 2], loose]))
    row = both.set_index("method").loc["GRAB (eps 0.5)"]
    assert row.objective > row.target
    assert not row.reached and np.isnan(row.seconds_to_target)


def test_fig2_keeps_the_median_of_repeated_short_runs(monkeypatch):
    """A short run is timed three times and the run of median time kept, trace and all; a
    long run and a run stopped at its limit are timed once. The repeats solve the same problem."""
    from repro.grab import timing as grab_timing

    X, y = planted(seed=5)
    real = grab_timing.time_methods(
        X, y, Cs=(1.0,), degrees=(1, 2), methods=("GRAB",), top_k=3, tol=1e-6
    )
    again = grab_timing.time_methods_repeated(
        X,
        y,
        Cs=(1.0,),
        degrees=(1, 2),
        methods=("GRAB",),
        top_k=3,
        tol=1e-6,
        repeat_below=1e9,
        cache=False,
    )
    assert (again.repeats == 3).all() and (again.seconds_range >= 0).all()
    np.testing.assert_allclose(again.objective, real.objective, rtol=1e-9)

    # scripted clocks: the first pass, then the repeats of each short run in turn
    clocks = iter([[4.0, 50.0, 2.0], [9.0], [6.0]])

    def scripted(X, y, *, Cs=(1.0,), degrees=(1, 2, 3), methods=("GRAB",), **_):
        seconds = next(clocks)
        keys = [(m, c, k) for c in Cs for m in methods for k in degrees]
        return pd.DataFrame(
            [
                {
                    "method": m,
                    "C": c,
                    "degree": k,
                    "seconds": s,
                    "stopped": k == 3,
                    "attempted": True,
                    "objective": 1.0,
                    "n_nonzero": 1,
                    "trace": f"[[{s}, 1.0]]",
                }
                for (m, c, k), s in zip(keys, seconds)
            ]
        )

    monkeypatch.setattr(grab_timing, "time_methods", scripted)
    options = dict(Cs=(1.0,), methods=("GRAB",), degrees=(1, 2, 3), repeat_below=30)
    out = grab_timing.time_methods_repeated(X, y, **options)
    # the series is a unit of the result cache: a rerun reads it (the clocks are spent)
    pd.testing.assert_frame_equal(grab_timing.time_methods_repeated(X, y, **options), out)
    first, long_run, stopped = (out.iloc[i] for i in range(3))
    assert first.repeats == 3 and first.seconds == 6.0 and first.trace == "[[6.0, 1.0]]"
    assert first.seconds_range == 5.0
    assert long_run.repeats == 1 and long_run.seconds == 50.0  # 50 s: above repeat_below
    assert stopped.repeats == 1  # stopped at its limit: not repeated
    with pytest.raises(ValueError, match="repeats"):
        grab_timing.time_methods_repeated(X, y, repeats=0)


@pytest.mark.data
@pytest.mark.skipif(not os.environ.get("RULELAB_DATA"), reason="needs RULELAB_DATA")
def test_table1_gives_every_method_the_same_binarised_data_and_excludes_failures(
    tmp_path, monkeypatch
):
    """§5.3: the same preprocessing for every method; a combination that fails or runs out
    of time is excluded from the choice."""
    from sklearn.tree import DecisionTreeClassifier

    from repro.grab import experiments as ex

    monkeypatch.setenv("RULELAB_CACHE", str(tmp_path))
    B, y, _, _ = ex.binarized_split("fourclass")
    grid = {"max_depth": [2, 4], "min_samples_leaf": [1, -5]}  # -5 is refused by sklearn
    out = ex.tuned_accuracy(
        "fourclass", {"DT": (DecisionTreeClassifier(random_state=0), grid)}, folds=2, max_train=200
    ).iloc[0]
    assert out.d == B.shape[1] and set(np.unique(B.to_numpy())) <= {0, 1}
    assert out.n_combinations == 4 and out.n_excluded == 2
    assert "-5" not in out.best
    paper = ex.table1_methods("fourclass", 200)
    assert paper["GRAB (logistic)"][1]["max_terms"] == [1, 2, 3, 4, 5, None]
    assert paper["SVC"][1]["C"] == [10.0**e for e in range(-3, 4)]
    assert len(paper["XGB"][1]["xgbclassifier__reg_lambda"]) == 7


def _mixed_frame(n: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "glucose": rng.normal(120, 30, n).round(1),
            "age": rng.integers(21, 80, n),
            "colour": rng.choice(["red", "green", "blue"], n),
            "flag": rng.integers(0, 2, n),
        }
    )


def test_cell_terms_hold_exactly_where_the_cells_are_one():
    train, new = _mixed_frame(300, 0), _mixed_frame(200, 1)
    # beyond the training range and infinite values fall in the outer cells
    new.loc[:3, "glucose"] = [-np.inf, np.inf, 1e6, -1e6]
    binar = CellBinarizer(n_bins=20).fit(train)
    for frame in (train, new):
        B = binar.transform(frame)
        A = np.column_stack([t.evaluate(frame) for t in binar.terms_])
        assert np.array_equal(B.astype(bool), A)
    assert list(binar.get_feature_names_out()) == [str(t) for t in binar.terms_]
    # a value lies in one cell; a new value may fall in a cell no training value filled
    cells = [j for j, t in enumerate(binar.terms_) if t.feature == "glucose"]
    assert (binar.transform(train)[:, cells].sum(axis=1) == 1).all()
    assert (binar.transform(new)[:, cells].sum(axis=1) <= 1).all()
    assert binar.transform(new)[:4, cells].sum(axis=1).tolist() == [1, 1, 1, 1]


def test_classifier_rules_are_its_model_on_the_raw_data():
    X = _mixed_frame(400, 2)
    y = np.where((X["glucose"] > 130) & (X["colour"] != "blue") | (X["age"] > 70), "yes", "no")
    model = CBMClassifier(max_terms=2, C=1.0, n_bins=10).fit(X, y)
    rules = model.rules_
    assert rules.n_rules == len(model.coef_) and rules.weights == tuple(model.coef_)
    assert rules.n_terms == sum(len(p) for p in model.itemsets_)
    assert complexity(model) == (float(rules.n_rules), float(rules.n_terms))
    new = _mixed_frame(150, 3)
    new.loc[:1, "glucose"] = [np.inf, -np.inf]
    score = model.decision_function(new)
    assert np.allclose(rules.score(new), score)
    assert np.allclose(rule_from_dict(rules.to_json()).score(new), score)
    positive = model.predict(new) == "yes"
    assert np.array_equal(rules.evaluate(new), positive)
    picked = new.query(rules.to_pandas_query(), engine="python").index
    assert np.array_equal(np.sort(picked), np.flatnonzero(positive))
    reasons = model.explain(new.head(3))
    assert list(reasons["prediction"]) == list(model.predict(new.head(3)))
    assert reasons["reason"].str.startswith("score ").all()
    # the printed table is the rule's clauses
    assert list(model.coef_table_["conjunction"]) == [
        str(c) if c.terms else "(always)" for c in rules.clauses
    ]


def test_every_table1_method_fits_the_binarised_cells_it_is_given():
    """Table 1 gives every method the same binarised data (paper 4, section 5.3), whose
    column names are the cells' terms ("x in [a, b)", "x < b"): no method may fail on them
    (XGBoost refuses names with [, ] or <), or it would silently drop out of the table."""
    from repro.grab import experiments as ex

    rng = np.random.default_rng(0)
    X = pd.DataFrame({"x": rng.normal(size=120), "z": rng.integers(0, 3, 120).astype(float)})
    y = pd.Series(((X.x > 0) ^ (X.z == 1)).astype(int))
    binar = CellBinarizer(n_bins=5).fit(X)
    B = pd.DataFrame(binar.transform(X), columns=binar.get_feature_names_out())
    assert any("[" in c or "<" in c for c in B.columns)
    train, test = np.arange(80), np.arange(80, 120)
    for name, (est, grid) in ex.table1_methods("toy", m=80, grids="quick").items():
        params = {k: v[0] for k, v in grid.items()}
        record = ex._fit_score(est, params, B, y, train, test, None)
        assert record["error"] == "", (name, record["error"])
        assert 0 <= record["score"] <= 1


def test_xgboost_on_sparse_cells_learns_the_trees_it_learns_on_the_dense_array():
    """Table 1 hands XGBoost the 0/1 cells as a CSR matrix (its left-out entries are
    "missing", not 0): on 0/1 columns the trees, and so the probabilities, are the same."""
    from xgboost import XGBClassifier

    from repro.grab.experiments import sparse_cells

    rng = np.random.default_rng(3)
    X = (rng.random((300, 60)) < 0.1).astype(float)
    y = ((X[:, 0] + X[:, 1] * X[:, 2] + rng.random(300) * 0.5) > 0.6).astype(int)
    kw = dict(n_jobs=1, random_state=0, tree_method="hist", max_depth=4)
    dense = XGBClassifier(**kw).fit(X[:200], y[:200])
    sparse = XGBClassifier(**kw).fit(sparse_cells(X[:200]), y[:200])
    assert np.array_equal(dense.predict_proba(X[200:]), sparse.predict_proba(sparse_cells(X[200:])))


def test_the_precomputed_polynomial_kernel_is_libsvms_own():
    """Table 1's SVC computes its kernel matrix once (paper 4's (gamma x.x' + 1 - gamma)^d);
    on 0/1 cells it must be the kernel libsvm computes itself: the same decision values."""
    from sklearn.svm import SVC

    from repro.grab.experiments import PolySVC

    rng = np.random.default_rng(1)
    X = (rng.random((150, 40)) < 0.3).astype(float)
    y = (X[:, :3].sum(axis=1) + rng.normal(0, 0.5, 150) > 1).astype(int)
    train, test = np.arange(100), np.arange(100, 150)
    for degree, gamma, C in [(1, 0.1, 0.01), (3, 0.4, 1.0), (3, 1.0, 100.0)]:
        ours = PolySVC(degree=degree, gamma=gamma, C=C, gram_min_columns=1).fit(X[train], y[train])
        assert ours.X_fit_ is not None  # the precomputed path
        reference = SVC(kernel="poly", degree=degree, gamma=gamma, coef0=1 - gamma, C=C).fit(
            X[train], y[train]
        )
        assert np.allclose(
            ours.decision_function(X[test]), reference.decision_function(X[test]), atol=1e-6
        )
        assert np.array_equal(ours.predict(X[test]), reference.predict(X[test]))
        # above gram_max_rows, or below gram_min_columns (the default 1,000 here), libsvm
        # computes the kernel, from a sparse matrix: the same model
        for limits in ({"gram_max_rows": 50, "gram_min_columns": 1}, {}):
            other = PolySVC(degree=degree, gamma=gamma, C=C, **limits).fit(X[train], y[train])
            assert other.X_fit_ is None
            assert np.allclose(
                other.decision_function(X[test]), reference.decision_function(X[test]), atol=1e-6
            )
            assert np.array_equal(other.predict(X[test]), reference.predict(X[test]))


def test_polysvc_kernel_from_sparse_cells_is_the_exact_dense_kernel():
    """The precomputed kernel is built from a sparse product of the 0/1 cells; its dot
    products must be the exact counts of common cells, as a float64 dense product gives."""
    from repro.grab.experiments import PolySVC, sparse_cells

    rng = np.random.default_rng(2)
    X = (rng.random((120, 60)) < 0.2).astype(np.uint8)
    y = (X[:, :4].sum(axis=1) > 1).astype(int)
    for degree, gamma in [(1, 0.1), (3, 0.7)]:
        model = PolySVC(degree=degree, gamma=gamma, gram_min_columns=1).fit(X[:80], y[:80])
        dots = X[80:].astype(np.float64) @ X[:80].astype(np.float64).T
        assert np.array_equal(model._kernel(sparse_cells(X[80:])), model.kernel_from_dots(dots))
        expected = (gamma * dots + (1.0 - gamma)) ** degree
        np.testing.assert_allclose(model._kernel(sparse_cells(X[80:])), expected, rtol=1e-14)


class _Sleeper(ClassifierMixin, BaseEstimator):
    """Predicts the majority class after sleeping ``delay`` seconds in fit."""

    def __init__(self, delay=0.0):
        self.delay = delay

    def fit(self, X, y):
        time.sleep(self.delay)
        self.classes_, counts = np.unique(y, return_counts=True)
        self.majority_ = self.classes_[np.argmax(counts)]
        return self

    def predict(self, X):
        return np.full(len(X), self.majority_)


def test_a_fit_that_cannot_stop_itself_is_stopped_at_the_time_limit():
    """Table 1 excludes a combination whose fit runs out of time; an estimator without a
    time limit of its own (SVC, trees, forests) is stopped there, not waited for."""
    from repro.grab import experiments as ex

    B = pd.DataFrame({"a": [0, 1] * 20})
    y = pd.Series([0, 0, 1] * 13 + [0])
    train, test = np.arange(30), np.arange(30, 40)
    t0 = time.perf_counter()
    slow = ex._fit_score(_Sleeper(), {"delay": 60.0}, B, y, train, test, 1.0)
    assert time.perf_counter() - t0 < 30
    assert slow["timed_out"] and np.isnan(slow["score"]) and slow["error"] == ""
    quick = ex._fit_score(_Sleeper(), {"delay": 0.0}, B, y, train, test, 30.0)
    assert not quick["timed_out"] and quick["error"] == ""
    assert quick["score"] == float((y.iloc[test] == 0).mean())


@pytest.mark.parametrize("time_limit", [None, 60.0])
def test_forest_sizes_scored_as_prefixes_equal_forests_fitted_alone(time_limit):
    """Table 1 scores a random forest's sizes as prefixes of its largest forest: each score
    is the score of that forest fitted on its own (in a child process under a time limit
    as well)."""
    from sklearn.ensemble import RandomForestClassifier

    from repro.grab import experiments as ex

    rng = np.random.default_rng(1)
    B = pd.DataFrame(rng.integers(0, 2, size=(160, 12)), columns=[f"c{j}" for j in range(12)])
    y = pd.Series((B.c0 & B.c1 | B.c2).astype(int) ^ (rng.random(160) < 0.1))
    train, test = np.arange(110), np.arange(110, 160)
    est = RandomForestClassifier(random_state=0, n_jobs=1)
    Ns = [4, 8, 16]
    shared = ex._forest_fit_scores(est, {"max_depth": 3}, Ns, B, y, train, test, time_limit)
    alone = [
        ex._fit_score(est, {"max_depth": 3, "n_estimators": n}, B, y, train, test, time_limit)
        for n in Ns
    ]
    assert [r["score"] for r in shared["records"]] == [r["score"] for r in alone]
    assert len({r["score"] for r in alone}) > 1  # the sizes are told apart
    assert not any(r["timed_out"] or r["error"] for r in shared["records"])
    assert ex._uses_forest_prefixes(est, {"max_depth": [3], "n_estimators": Ns})


def _depth_data():
    rng = np.random.default_rng(3)
    B = pd.DataFrame(rng.integers(0, 2, size=(200, 10)), columns=[f"c{j}" for j in range(10)])
    y = pd.Series((B.c0 & B.c1 | B.c2 & ~B.c3).astype(int) ^ (rng.random(200) < 0.15))
    return B, y, np.arange(140), np.arange(140, 200)


def _depth_methods():
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import FunctionTransformer
    from sklearn.tree import DecisionTreeClassifier
    from xgboost import XGBClassifier

    from repro.grab import experiments as ex

    xgb = make_pipeline(
        FunctionTransformer(ex.sparse_cells),
        XGBClassifier(n_jobs=1, random_state=0, tree_method="hist", n_estimators=20),
    )
    return [
        (DecisionTreeClassifier(random_state=0), "max_depth", {}),
        (xgb, "xgbclassifier__max_depth", {"xgbclassifier__reg_lambda": 0.01}),
    ]


@pytest.mark.parametrize("time_limit", [None, 60.0])
@pytest.mark.parametrize("which", [0, 1])
def test_depths_fitted_as_one_chain_equal_depths_fitted_alone(which, time_limit):
    """Table 1 fits a tree's (or XGBoost's) depths ascending and, once the fitted trees stop
    short of the maximum depth, scores every larger depth with that model: each score is
    the score of that depth fitted on its own (in a child process under a time limit as
    well), and the larger depths are not fitted again."""
    from repro.grab import experiments as ex

    B, y, train, test = _depth_data()
    est, key, params = _depth_methods()[which]
    depths = [1, 2, 3, 8, 16, 64]
    chain = ex._depth_fit_scores(est, params, key, depths, B, y, train, test, time_limit)
    alone = [ex._fit_score(est, {**params, key: D}, B, y, train, test, time_limit) for D in depths]
    assert [r["score"] for r in chain["records"]] == [r["score"] for r in alone]
    assert len({r["score"] for r in alone}) > 1  # the depths are told apart
    assert not any(r["timed_out"] or r["error"] for r in chain["records"])
    assert chain["records"][-1]["seconds"] == 0.0  # reused, not fitted again
    assert set(chain["records"][0]) == set(alone[0])
    assert ex._depth_key(est, {**{k: [v] for k, v in params.items()}, key: depths}) == key


def test_trees_that_stop_short_of_the_maximum_depth_are_the_trees_of_any_larger_depth():
    """The premise of the depth chain, on the models themselves: a decision tree's nodes and
    every XGBoost tree (the booster's dump, hist method, with reg_lambda) are the same at
    any maximum depth above the depth the fitted trees reach, and differ below it."""
    from sklearn.base import clone

    from repro.grab import experiments as ex

    B, y, train, _ = _depth_data()
    for est, key, params in _depth_methods():
        reached = None
        models = {}
        for D in [2, 16, 64, 256, 512]:
            model = clone(est).set_params(**params, **{key: D}).fit(B.iloc[train], y.iloc[train])
            models[D] = model
            reached = ex._reached_depth(model)["reached_depth"]
        assert 2 < reached < 16
        if key == "max_depth":
            trees = {D: m.tree_ for D, m in models.items()}
            for D in [64, 256, 512]:
                for field in ("children_left", "children_right", "feature", "threshold", "value"):
                    assert np.array_equal(getattr(trees[D], field), getattr(trees[16], field))
            assert trees[2].node_count < trees[16].node_count
        else:
            dumps = {D: m[-1].get_booster().get_dump(with_stats=True) for D, m in models.items()}
            assert all(dumps[D] == dumps[16] for D in [64, 256, 512])
            assert dumps[2] != dumps[16]
            assert ex._reached_depth(models[2])["reached_depth"] == 2


def _lrfim_data():
    rng = np.random.default_rng(4)
    B = pd.DataFrame(rng.integers(0, 2, size=(240, 12)), columns=[f"c{j}" for j in range(12)])
    y = pd.Series((B.c0 & B.c1 | B.c2 & B.c3 & B.c4).astype(int) ^ (rng.random(240) < 0.1))
    return B, y, np.arange(170), np.arange(170, 240)


@pytest.mark.parametrize("time_limit", [None, 60.0])
def test_lrfim_mined_once_per_fold_equals_lrfim_fitted_per_c(time_limit):
    """Table 1 mines LRFIM's itemsets once per fold and fits every C on them: each score is
    the score of LRFIM fitted on its own at that C (in a child process under a time limit
    as well), and the models are the same."""
    from repro.grab import experiments as ex
    from repro.grab.baselines import LRFIM

    B, y, train, test = _lrfim_data()
    est, Cs = LRFIM(min_support=0.05, max_size=3), [0.01, 0.1, 1.0, 10.0]
    shared = ex._lrfim_fit_scores(est, {}, Cs, B, y, train, test, time_limit)
    alone = [ex._fit_score(est, {"C": C}, B, y, train, test, time_limit) for C in Cs]
    assert [r["score"] for r in shared["records"]] == [r["score"] for r in alone]
    assert len({r["score"] for r in alone}) > 1  # the Cs are told apart
    assert not any(r["timed_out"] or r["error"] for r in shared["records"])
    assert [set(r) for r in shared["records"]] == [set(r) for r in alone]
    assert ex._uses_lrfim_mining(est, {"C": Cs})
    # the fit on mined columns is LRFIM's fit
    model = LRFIM(min_support=0.05, max_size=3, C=0.1)
    Z = model.mine(B.iloc[train], y.iloc[train])
    reference = LRFIM(min_support=0.05, max_size=3, C=0.1).fit(B.iloc[train], y.iloc[train])
    model.fit_features(Z, y.iloc[train])
    assert np.array_equal(model.model_.coef_, reference.model_.coef_)
    assert np.array_equal(model.predict(B.iloc[test]), reference.predict(B.iloc[test]))


def test_lrfim_mined_once_keeps_the_time_limit_of_separate_fits(monkeypatch):
    """Under a time limit, mining that overruns times out every C (each separate fit would
    mine too) without mining again; a fit that overruns times out its own C, and the Cs
    after it are mined for and fitted again."""
    from repro.grab import experiments as ex
    from repro.grab.baselines import LRFIM

    B, y, train, test = _lrfim_data()
    est, Cs = LRFIM(min_support=0.05, max_size=3), [0.01, 0.1, 1.0]
    mine, fit_features = LRFIM.mine, LRFIM.fit_features

    def slow_mine(self, X, y):
        time.sleep(60)
        return mine(self, X, y)

    monkeypatch.setattr(LRFIM, "mine", slow_mine)
    t0 = time.perf_counter()
    out = ex._lrfim_fit_scores(est, {}, Cs, B, y, train, test, 2.0)["records"]
    assert time.perf_counter() - t0 < 30
    assert all(r["timed_out"] and np.isnan(r["score"]) and not r["error"] for r in out)
    monkeypatch.setattr(LRFIM, "mine", mine)

    def slow_at_one_tenth(self, Z, y):
        if self.C == 0.1:
            time.sleep(60)
        return fit_features(self, Z, y)

    monkeypatch.setattr(LRFIM, "fit_features", slow_at_one_tenth)
    t0 = time.perf_counter()
    out = ex._lrfim_fit_scores(est, {}, Cs, B, y, train, test, 2.0)["records"]
    assert time.perf_counter() - t0 < 30
    assert [r["timed_out"] for r in out] == [False, True, False]
    alone = ex._fit_score(est, {"C": 1.0}, B, y, train, test, 2.0)
    assert out[2]["score"] == alone["score"] and not np.isnan(out[0]["score"])


@pytest.mark.parametrize("time_limit", [None, 60.0])
@pytest.mark.parametrize("gram_min_columns", [1, 10**9])
def test_svc_kernels_from_dot_products_once_per_fold_equal_svcs_fitted_alone(
    time_limit, gram_min_columns
):
    """Table 1 computes the rows' dot products once per fold and makes every (degree,
    gamma, C) kernel from them: each score is the score of that PolySVC fitted on its own
    (in a child process under a time limit as well), whether the fit alone precomputes its
    kernel or libsvm computes it from the sparse cells."""
    from sklearn.model_selection import ParameterGrid
    from sklearn.svm import SVC

    from repro.grab import experiments as ex

    rng = np.random.default_rng(5)
    B = pd.DataFrame((rng.random((150, 40)) < 0.3).astype(np.uint8))
    B.columns = [f"c{j}" for j in range(40)]
    y = pd.Series((B.c0 + B.c1 + B.c2 * B.c3 > 1).astype(int) ^ (rng.random(150) < 0.1))
    train, test = np.arange(100), np.arange(100, 150)
    est = ex.PolySVC(max_iter=100_000, gram_min_columns=gram_min_columns)
    grid = {"degree": [1, 3], "gamma": [0.1, 1.0], "C": [0.01, 1.0, 100.0]}
    combos = list(ParameterGrid(grid))
    shared = ex._svc_fit_scores(est, combos, B, y, train, test, time_limit)["records"]
    alone = [ex._fit_score(est, c, B, y, train, test, time_limit) for c in combos]
    assert [r["score"] for r in shared] == [r["score"] for r in alone]
    assert len({r["score"] for r in alone}) > 1  # the combinations are told apart
    assert not any(r["timed_out"] or r["error"] for r in shared)
    assert [set(r) for r in shared] == [set(r) for r in alone]
    assert ex._uses_shared_gram(est, grid, len(train), B.shape[1])
    assert not ex._uses_shared_gram(ex.PolySVC(gram_max_rows=99), grid, len(train), 40)
    # the libsvm model itself: the same support vectors and coefficients, bit for bit
    S = ex.sparse_cells(B.iloc[train])
    dots = (S @ S.T).toarray().astype(np.float64)
    model = ex.PolySVC(
        degree=3, gamma=0.1, C=100.0, max_iter=100_000, gram_min_columns=gram_min_columns
    )
    model.fit(B.iloc[train], y.iloc[train])
    svc = SVC(kernel="precomputed", C=100.0, max_iter=100_000)
    svc.fit(model.kernel_from_dots(dots), y.iloc[train])
    assert np.array_equal(svc.support_, model.svc_.support_)
    assert np.array_equal(
        np.asarray(svc.dual_coef_),
        model.svc_.dual_coef_.toarray()
        if hasattr(model.svc_.dual_coef_, "toarray")
        else model.svc_.dual_coef_,
    )


@pytest.mark.parametrize("degree", [1, 2, 3, 5])
def test_polysvc_kernel_from_dots_is_libsvms_own_kernel_bit_for_bit(degree):
    """The kernel made from dot products is the one libsvm computes itself (its power by
    repeated squaring, not ``pow``): fitted on it, libsvm takes the same steps and gives
    the same decision values to the last bit as on the sparse cells."""
    from sklearn.svm import SVC

    from repro.grab import experiments as ex

    rng = np.random.default_rng(degree)
    B = pd.DataFrame((rng.random((160, 30)) < 0.35).astype(np.uint8))
    y = pd.Series((B[0] + B[1] + B[2] * B[3] > 1).astype(int) ^ (rng.random(160) < 0.1))
    train, test = np.arange(120), np.arange(120, 160)
    own = ex.PolySVC(degree=degree, gamma=0.7, C=10.0, max_iter=100_000, gram_min_columns=10**9)
    own.fit(B.iloc[train], y.iloc[train])
    assert own.X_fit_ is None  # libsvm computed the kernel itself
    S, S_test = ex.sparse_cells(B.iloc[train]), ex.sparse_cells(B.iloc[test])
    dots = (S @ S.T).toarray().astype(np.float64)
    dots_test = (S_test @ S.T).toarray().astype(np.float64)
    pre = SVC(kernel="precomputed", C=10.0, max_iter=100_000).fit(
        own.kernel_from_dots(dots), y.iloc[train]
    )
    assert pre.n_iter_.tolist() == own.svc_.n_iter_.tolist()
    assert np.array_equal(
        pre.decision_function(own.kernel_from_dots(dots_test)),
        own.decision_function(B.iloc[test]),
    )
    expected = np.ones_like(dots) if degree == 0 else (0.7 * dots + 0.3) ** degree
    np.testing.assert_allclose(own.kernel_from_dots(dots), expected, rtol=1e-12)


@pytest.mark.parametrize("time_limit", [None, 60.0])
def test_forest_depths_fitted_as_one_chain_equal_forests_fitted_alone(time_limit):
    """Table 1 fits a forest's depths ascending (each depth's sizes as prefixes of one
    forest) and, once every tree stops short of the maximum depth, scores the larger
    depths with that forest: each score is the score of that forest fitted on its own."""
    from sklearn.ensemble import RandomForestClassifier

    from repro.grab import experiments as ex

    B, y, train, test = _depth_data()
    est = RandomForestClassifier(random_state=0, n_jobs=1)
    depths, Ns = [1, 2, 4, 16, 64, 256], [4, 8]
    chain = ex._forest_depth_fit_scores(est, {}, depths, Ns, B, y, train, test, time_limit)
    params = [{"max_depth": D, "n_estimators": n} for D in depths for n in Ns]
    alone = [ex._fit_score(est, p, B, y, train, test, time_limit) for p in params]
    assert [r["score"] for r in chain["records"]] == [r["score"] for r in alone]
    assert len({r["score"] for r in alone}) > 1  # the combinations are told apart
    assert not any(r["timed_out"] or r["error"] for r in chain["records"])
    assert [r["seconds"] for r in chain["records"][-4:]] == [0.0] * 4  # reused
    assert [set(r) for r in chain["records"]] == [set(r) for r in alone]
    assert ex._uses_forest_depths({"max_depth": depths}) and not ex._uses_forest_depths({})


@pytest.mark.data
@pytest.mark.skipif(not os.environ.get("RULELAB_DATA"), reason="needs RULELAB_DATA")
def test_table1_with_shared_fits_equals_table1_with_every_fit_alone(monkeypatch):
    """The shared fits (depth chains, forest prefixes, LRFIM mined once, SVC dot products
    once) put each record in the place of its (combination, fold): Table 1's rows are
    those of a search that fits every (combination, fold) on its own."""
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import FunctionTransformer
    from sklearn.tree import DecisionTreeClassifier
    from xgboost import XGBClassifier

    from repro.grab import experiments as ex
    from repro.grab.baselines import LRFIM

    xgb = make_pipeline(
        FunctionTransformer(ex.sparse_cells),
        XGBClassifier(n_jobs=1, random_state=0, tree_method="hist", n_estimators=10),
    )
    methods = {
        "DT": (DecisionTreeClassifier(random_state=0), {"max_depth": [1, 2, 4, 64]}),
        "RF": (
            RandomForestClassifier(random_state=0, n_jobs=1),
            {"max_depth": [2, 4, 64], "n_estimators": [4, 8]},
        ),
        "XGB": (
            xgb,
            {"xgbclassifier__max_depth": [1, 2, 64], "xgbclassifier__reg_lambda": [0.01, 1]},
        ),
        "LRFIM": (LRFIM(max_size=2), {"C": [0.01, 1.0, 100.0]}),
        "SVC": (
            ex.PolySVC(max_iter=10_000, gram_min_columns=1),
            {"degree": [1, 3], "gamma": [0.1, 1.0], "C": [0.1, 10.0]},
        ),
    }
    run = dict(folds=3, max_train=150, cache=False)
    shared = ex.tuned_accuracy("german.numer", methods, **run)
    for name in ("_uses_forest_prefixes", "_uses_forest_depths", "_uses_lrfim_mining"):
        monkeypatch.setattr(ex, name, lambda *a, **k: False)
    monkeypatch.setattr(ex, "_uses_shared_gram", lambda *a, **k: False)
    monkeypatch.setattr(ex, "_depth_key", lambda *a, **k: None)
    alone = ex.tuned_accuracy("german.numer", methods, **run)
    columns = ["method", "accuracy", "best", "cv_accuracy", "n_excluded"]
    pd.testing.assert_frame_equal(shared[columns], alone[columns])
