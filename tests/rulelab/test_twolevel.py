"""Two-level rules by BCD and AM (Su, Wei, Varshney & Malioutov 2016): the objective, its
optimisers against brute force, De Morgan, clause disabling, printing, scikit-learn API."""

from __future__ import annotations

import itertools
import time

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone

from rulelab import TwoLevelRules
from rulelab._highs import KeptModel
from rulelab.lp import solve_or_lp
from rulelab.rules import DNF, Clause, Term
from rulelab.twolevel import format_rule
from rulelab.twolevel.objective import augment, clause_costs, clause_sums, hamming_objective
from rulelab.twolevel.optimize import am, assign_negatives, bcd, init_weights, lp_kwargs
from rulelab.twolevel.starts import StartMemo
from tests.conftest import load_or_skip


# ---- helpers --------------------------------------------------------------------------
def with_negations(Z: np.ndarray) -> pd.DataFrame:
    """Binary features and their negations (the paper's footnote 1) as a 0/1 frame."""
    Z = np.asarray(Z, dtype=np.uint8)
    cols = {f"x{j + 1}": Z[:, j] for j in range(Z.shape[1])}
    cols |= {f"not_x{j + 1}": 1 - Z[:, j] for j in range(Z.shape[1])}
    return pd.DataFrame(cols)


def full_table(n_features: int, repeats: int) -> np.ndarray:
    """Every 0/1 combination of ``n_features``, ``repeats`` times."""
    rows = np.array(list(itertools.product([0, 1], repeat=n_features)), dtype=np.uint8)
    return np.tile(rows, (repeats, 1))


def brute_force_cnf(
    X: np.ndarray, y: np.ndarray, n_clauses: int, theta: float, disable_cost: float = 0.0
) -> float:
    """The exact minimum of F(W) over every CNF with at most ``n_clauses`` clauses (every
    subset of the augmented columns for every clause)."""
    Xa = augment(X)
    k = Xa.shape[1]
    C = np.array(list(itertools.product([0, 1], repeat=k)), dtype=np.int32)  # all clauses
    cost = clause_costs(X.shape[1], theta, disable_cost)
    S = Xa.astype(np.int32) @ C.T  # n x 2^k
    pos = y.astype(bool)
    pos_loss = np.maximum(0, 1 - S[pos]).sum(axis=0) + C @ cost
    Sn = S[~pos]
    if n_clauses == 1:
        return float((pos_loss + Sn.sum(axis=0)).min())
    assert n_clauses == 2
    best = np.inf
    for a in range(C.shape[0]):  # pairs (a, b) with b >= a; min over the two clauses
        neg = np.minimum(Sn[:, a : a + 1], Sn[:, a:]).sum(axis=0)
        best = min(best, float((pos_loss[a] + pos_loss[a:] + neg).min()))
    return best


def objective_by_ideal_outputs(X, y, W, cost) -> float:
    """Eq. (3) minimised over every feasible assignment of ideal clause outputs (4),
    enumerated literally (DC = don't care), for a tiny problem."""
    Xa = augment(X)
    S = clause_sums(Xa, W)
    R = W.shape[0]
    total = float((np.asarray(W, float) @ cost).sum())
    for i in range(len(y)):
        if y[i] == 1:
            total += sum(max(0, 1 - S[i, r]) for r in range(R))
        else:
            options = []
            for vhat in itertools.product([0, "DC"], repeat=R):
                if 0 in vhat:
                    options.append(sum(S[i, r] for r in range(R) if vhat[r] == 0))
            total += min(options)
    return total


# ---- the objective ----------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(3))
def test_objective_equals_eq3_minimised_over_ideal_outputs(seed):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(25, 4)).astype(np.uint8)
    y = rng.integers(0, 2, size=25)
    W = rng.random((3, 5)) < 0.35
    cost = clause_costs(4, theta=0.7, disable_cost=0.2)
    assert hamming_objective(augment(X), y, W, cost) == pytest.approx(
        objective_by_ideal_outputs(X, y, W, cost)
    )


def test_cluster_centre_breaks_ties_towards_the_nearer_centre():
    # Negatives 0-1 are clause 0's alone, 2-3 clause 1's; negative 4 ties (0 in both) and
    # looks like negatives 2-3, so it goes to clause 1.
    S = np.array([[0, 1], [0, 2], [1, 0], [2, 0], [0, 0]])
    X = np.array([[1, 1, 0, 0], [1, 1, 0, 0], [0, 0, 1, 1], [0, 0, 1, 1], [0, 0, 1, 1]])
    assert assign_negatives(S, X).tolist() == [0, 0, 1, 1, 1]


# ---- descent and optimality --------------------------------------------------------------
@pytest.mark.parametrize("update", ["greedy", "cyclic", "random"])
@pytest.mark.parametrize("seed", range(3))
def test_bcd_objective_never_increases(update, seed):
    rng = np.random.default_rng(seed)
    X = with_negations(rng.integers(0, 2, size=(150, 8)))
    y = ((X.x1 | X.x2) & (X.x3 | X.not_x4)).to_numpy() ^ (rng.random(150) < 0.1)
    model = TwoLevelRules(
        form="cnf",
        method="bcd",
        update=update,
        max_rules=3,
        complexity=0.3,
        init="random",
        max_iter=15,
        random_state=seed,
    ).fit(X, y)
    path = np.asarray(model.objective_path_)
    assert len(path) >= 2
    assert np.all(np.diff(path) <= 1e-9)


@pytest.mark.parametrize("seed", range(3))
def test_am_objective_never_increases(seed):
    rng = np.random.default_rng(seed)
    X = with_negations(rng.integers(0, 2, size=(150, 8)))
    y = ((X.x1 & X.x2) | X.x5).to_numpy() ^ (rng.random(150) < 0.1)
    model = TwoLevelRules(
        method="am", max_rules=3, complexity=0.3, init="random", random_state=seed
    ).fit(X, y)
    assert np.all(np.diff(model.objective_path_) <= 1e-9)


@pytest.mark.parametrize("method", ["bcd", "am"])
@pytest.mark.parametrize("form", ["cnf", "dnf"])
@pytest.mark.parametrize("init", ["setcover", "random"])
@pytest.mark.parametrize("seed", range(3))
def test_reused_clause_lps_give_the_reference_path_rules(method, form, init, seed):
    """Solving each clause subproblem's LPs once per fit (the default) offers the same
    candidates as re-solving them at every change of the clause (the reference path), so
    the clauses, the objective path and the iterations are identical, with no more LPs."""
    rng = np.random.default_rng(seed)
    X = with_negations(rng.integers(0, 2, size=(200, 7))).to_numpy()
    y = ((X[:, 0] & X[:, 1]) | (X[:, 2] & X[:, 10]) | X[:, 4]) ^ (rng.random(200) < 0.15)
    y = y.astype(np.uint8)
    if form == "dnf":  # as TwoLevelRules(form="dnf") does: the CNF of the complements
        X, y = 1 - X, 1 - y
    Xa, cost, opts = augment(X), clause_costs(X.shape[1], 0.5), lp_kwargs()
    W0, _ = init_weights(Xa, y, 4, cost, init, opts, np.random.default_rng(seed))
    fit = bcd if method == "bcd" else am
    fast = fit(Xa, y, W0, cost, max_iter=10, lp_options=opts, reuse_lps=True)
    reference = fit(Xa, y, W0, cost, max_iter=10, lp_options=opts, reuse_lps=False)
    assert np.array_equal(fast.W, reference.W)
    assert fast.objective_path == reference.objective_path
    assert (fast.n_iter, fast.converged) == (reference.n_iter, reference.converged)
    assert fast.n_lp <= reference.n_lp


@pytest.mark.parametrize("seed", range(3))
def test_lps_recosted_on_a_kept_model_have_the_new_models_solutions(seed):
    """An LP with the matrix of the previous one is only re-costed on its HiGHS model, and
    its solution is the one a new model returns, to the last bit."""
    rng = np.random.default_rng(seed)
    A = rng.integers(0, 2, size=(120, 15)).astype(np.uint8)
    y = (A[:, 0] | A[:, 3] | (rng.random(120) < 0.2)).astype(np.uint8)
    kept, models = KeptModel(), []
    for _ in range(6):
        c = rng.uniform(0.05, 3.0, size=15)
        again = solve_or_lp(A, y, 1.0, column_cost=c, kept=kept)
        anew = solve_or_lp(A, y, 1.0, column_cost=c)
        models.append(kept._local.held[1])
        assert np.array_equal(again.w, anew.w) and again.lp_value == anew.lp_value
    assert all(m is models[0] for m in models)  # one model, re-costed five times


@pytest.mark.parametrize("method", ["bcd", "am"])
@pytest.mark.parametrize("theta", [0.05, 0.5])
@pytest.mark.parametrize("seed", range(3))
def test_kept_model_fit_equals_a_fit_passing_every_lp_anew(method, theta, seed):
    """BCD and AM with the clause LPs re-costed on a kept model where the matrix repeats
    (the default) learn the clauses, objective path and LP count of the former path."""
    rng = np.random.default_rng(seed)
    X = 1 - with_negations(rng.integers(0, 2, size=(300, 8))).to_numpy()
    y = 1 - (((X[:, 0] & X[:, 1]) | X[:, 12]) ^ (rng.random(300) < 0.15)).astype(np.uint8)
    Xa, cost, opts = augment(X), clause_costs(X.shape[1], theta), lp_kwargs()
    W0, _ = init_weights(Xa, y, 4, cost, "setcover", opts, np.random.default_rng(seed))
    fit = bcd if method == "bcd" else am
    kept = fit(Xa, y, W0, cost, max_iter=10, lp_options=opts, keep_model=True)
    anew = fit(Xa, y, W0, cost, max_iter=10, lp_options=opts, keep_model=False)
    assert np.array_equal(kept.W, anew.W) and kept.objective_path == anew.objective_path
    assert (kept.n_iter, kept.n_lp) == (anew.n_iter, anew.n_lp)


@pytest.fixture
def starts(monkeypatch):
    """An empty memo of set-covering starts in place of the process's."""
    memo = StartMemo()
    monkeypatch.setattr("rulelab.twolevel.optimize.SETCOVER_STARTS", memo)
    return memo


def fitted(model, X, y) -> tuple:
    """What a kept start must not change: weights, objective path, iterations, LPs, rule."""
    model.fit(X, y)
    return (
        model.weights_.tobytes(),
        tuple(model.objective_path_),
        model.n_iter_,
        model.n_lp_,
        str(model),
    )


@pytest.mark.parametrize("theta", [0.05, 0.5, 3.0])
@pytest.mark.parametrize("seed", range(3))
def test_kept_setcover_start_gives_the_fits_of_one_computed_anew(starts, theta, seed):
    """BCD then AM with the same complexity on the same rows: AM takes BCD's set-covering
    start from the memo and learns what it learns from a start computed anew, as does a
    second BCD fit; a start is never handed to another complexity or other rows."""
    rng = np.random.default_rng(seed)
    X = with_negations(rng.integers(0, 2, size=(300, 8)))
    y = (((X["x1"] & X["x2"]) | X["x5"]) ^ (rng.random(300) < 0.15)).astype(np.uint8)
    bcd_, am_ = (TwoLevelRules(method=m, max_rules=4, complexity=theta) for m in ("bcd", "am"))
    starts.maxsize = 0  # every fit computes its own start
    anew = [fitted(m, X, y) for m in (bcd_, am_, bcd_)]
    assert (starts.hits, len(starts)) == (0, 0)
    starts.maxsize = 256
    kept = [fitted(m, X, y) for m in (bcd_, am_, bcd_)]
    assert (starts.hits, len(starts)) == (2, 1)
    assert kept == anew
    fitted(clone(am_).set_params(complexity=theta * 2), X, y)
    fitted(am_, X.iloc[1:], y.iloc[1:])
    assert (starts.hits, len(starts)) == (2, 3)


def test_a_clock_limited_setcover_start_is_not_kept(starts):
    """With an LP time limit the start depends on the clock, so each fit computes its own."""
    rng = np.random.default_rng(0)
    X = with_negations(rng.integers(0, 2, size=(100, 5)))
    y = (X["x1"] | X["x3"]).astype(np.uint8)
    for method in ("bcd", "am"):
        TwoLevelRules(method=method, max_rules=3, lp_time_limit=60.0).fit(X, y)
    assert (starts.hits, starts.misses, len(starts)) == (0, 0, 0)


@pytest.mark.parametrize("method", ["bcd", "am"])
@pytest.mark.parametrize("n_clauses", [1, 2])
def test_noisy_tiny_problems_compared_with_brute_force_optimum(method, n_clauses):
    """Ten noisy problems with three features (six terms with negations): no run goes below
    the true minimum (the objective is computed right); one clause is always optimal (the
    one-level LP is exact here); with two clauses BCD/AM are local methods and reach the
    optimum on about half of the problems, at most 50% above it (measured: mean gap 16%)."""
    gaps = []
    for seed in range(10):
        rng = np.random.default_rng(seed)
        Z = rng.integers(0, 2, size=(40, 3))
        X = with_negations(Z)
        y = ((Z[:, 0] | Z[:, 1]) & (Z[:, 2] | (1 - Z[:, 0]))) ^ (rng.random(40) < 0.15)
        optimum = brute_force_cnf(X.to_numpy(), y, n_clauses, theta=0.5)
        model = TwoLevelRules(form="cnf", method=method, max_rules=n_clauses, complexity=0.5).fit(
            X, y
        )
        assert model.objective_ >= optimum - 1e-9
        gaps.append((model.objective_ - optimum) / optimum)
    gaps = np.asarray(gaps)
    if n_clauses == 1:
        assert np.allclose(gaps, 0)
    else:
        assert (gaps < 1e-9).sum() >= 4
        assert gaps.mean() <= 0.25 and gaps.max() <= 0.6


@pytest.mark.parametrize("method", ["bcd", "am"])
@pytest.mark.parametrize("truth", ["(x1 | x2) & (x3 | not_x4)", "(x1 | not_x3) & x4"])
def test_planted_noise_free_cnf_reaches_the_exact_optimum(method, truth):
    X = with_negations(full_table(4, repeats=3))
    y = X.eval(truth).to_numpy().astype(int)
    optimum = brute_force_cnf(X.to_numpy(), y, 2, theta=0.2)
    model = TwoLevelRules(form="cnf", method=method, max_rules=2, complexity=0.2).fit(X, y)
    assert model.objective_ == pytest.approx(optimum)
    assert (model.predict(X) == y).all()
    n_terms = truth.count("x")
    assert optimum == pytest.approx(0.2 * n_terms)  # zero errors, the planted terms only


def test_planted_dnf_is_recovered_with_exact_subproblems():
    X = with_negations(full_table(5, repeats=2))
    y = X.eval("(x1 & x2) | (x3 & not_x5)").to_numpy().astype(int)
    model = TwoLevelRules(form="dnf", max_rules=3, complexity=0.1, exact=True).fit(X, y)
    assert set(model.rules_.clauses) == {
        Clause((Term("x1", "==", 1), Term("x2", "==", 1)), "and"),
        Clause((Term("x3", "==", 1), Term("not_x5", "==", 1)), "and"),
    }


PLANTED = "(x1 & x2) | (x3 & not_x4 & x5) | (x6 & x7) | (not_x8 & x9 & x10)"


def planted_clauses(truth: str) -> set:
    """The clauses of a DNF written as ``(a & b) | ...``, each as a set of terms."""
    return {
        frozenset(Term(t.strip(), "==", 1) for t in part.strip(" ()").split("&"))
        for part in truth.split("|")
    }


@pytest.mark.parametrize("method", ["bcd", "am"])
@pytest.mark.parametrize("seed", [1, 2, 4])  # draws where SC stops at 1-3 clauses
def test_from_the_set_cover_start_the_path_moves_to_the_planted_dnf(method, seed):
    """Su et al. start BCD and AM from set covering and descend: on a planted four-clause
    DNF the objective path leaves SC's rule, enabling the clauses SC did not use, and ends
    at the planted rule (zero errors, its 10 terms)."""
    from rulelab import SetCoverRules

    rng = np.random.default_rng(seed)
    X = with_negations(rng.integers(0, 2, size=(600, 10)))
    y = X.eval(PLANTED).to_numpy().astype(int)
    theta = 0.2
    sc = SetCoverRules(complexity=theta, max_rules=6).fit(X, y)
    model = TwoLevelRules(method=method, complexity=theta, max_rules=6).fit(X, y)
    print(model)
    path = np.asarray(model.objective_path_)
    assert len(path) >= 2 and path[-1] < path[0] and np.all(np.diff(path) <= 1e-9)
    assert {frozenset(c.terms) for c in model.rules_.clauses} == planted_clauses(PLANTED)
    assert model.objective_ == pytest.approx(10 * theta)
    assert model.rules_.n_rules > sc.rules_.n_rules  # clauses SC left unused were enabled


@pytest.mark.parametrize("method", ["bcd", "am"])
@pytest.mark.parametrize("theta", [0.05, 1.0, 5.0])
def test_on_pima_the_training_objective_is_at_most_set_covers(method, theta):
    from rulelab import SetCoverRules

    X, y = load_or_skip("pima")
    model = TwoLevelRules(method=method, complexity=theta, max_rules=5).fit(X, y)
    sc = SetCoverRules(complexity=theta, max_rules=5).fit(X, y)
    # F of SC's rule, computed from the columns SC's LPs selected (before its clauses are
    # simplified) on the same terms (De Morgan: the DNF clause over terms S is the CNF
    # clause over the complemented terms S).
    A = model._validate_fit(X, y)[0]
    assert model.terms_ == sc.terms_
    W = np.zeros((5, A.shape[1] + 1), dtype=bool)
    W[:, 0] = True
    for r, lp in enumerate(sc.lps_):
        W[r, 0] = False
        W[r, 1 + np.asarray(lp.selected, dtype=int)] = True
    y01 = (np.asarray(y) == model.classes_[1]).astype(int)
    f_sc = hamming_objective(augment(1 - A), 1 - y01, W, clause_costs(A.shape[1], theta))
    assert model.objective_path_[0] == pytest.approx(f_sc)  # the start is SC's rule
    assert model.objective_ <= f_sc + 1e-9


# ---- De Morgan and clause disabling ------------------------------------------------------
@pytest.mark.parametrize("method", ["bcd", "am"])
def test_cnf_on_the_problem_and_dnf_on_its_complement_agree(method):
    rng = np.random.default_rng(7)
    X = with_negations(rng.integers(0, 2, size=(200, 6)))
    y = ((X.x1 | X.x2) & (X.x3 | X.x6)).to_numpy() ^ (rng.random(200) < 0.1)
    cnf = TwoLevelRules(form="cnf", method=method, max_rules=3, complexity=0.5).fit(X, y)
    dnf = TwoLevelRules(form="dnf", method=method, max_rules=3, complexity=0.5).fit(1 - X, 1 - y)
    assert cnf.objective_path_ == pytest.approx(dnf.objective_path_)
    assert np.array_equal(cnf.weights_, dnf.weights_)
    assert np.array_equal(dnf.predict(1 - X), 1 - cnf.predict(X))
    assert [len(c) for c in cnf.rules_.clauses] == [len(c) for c in dnf.rules_.clauses]


@pytest.mark.parametrize("method", ["bcd", "am"])
@pytest.mark.parametrize("form", ["cnf", "dnf"])
def test_one_clause_truth_leaves_one_active_clause_of_five(method, form):
    X = with_negations(full_table(5, repeats=3))
    truth = "x1 | not_x2 | x4" if form == "cnf" else "x1 & not_x2 & x4"
    y = X.eval(truth).to_numpy().astype(int)
    model = TwoLevelRules(form=form, method=method, max_rules=5, complexity=0.2).fit(X, y)
    assert model.rules_.n_rules == 1
    assert model.active_.sum() == 1
    assert {t.feature for t in model.rules_.clauses[0].terms} == {"x1", "not_x2", "x4"}
    assert model.complexity_() == (1.0, 3.0)


def test_disabled_clauses_are_neither_printed_nor_counted():
    X = with_negations(full_table(4, repeats=2))
    y = X.eval("x1 & x2").to_numpy().astype(int)
    model = TwoLevelRules(max_rules=4, complexity=0.2).fit(X, y)
    assert model.weights_[:, 0].sum() == 3  # three clauses disabled
    assert str(model) == "IF  1. x1 == 1 AND\n       x2 == 1\nTHEN 1"


def test_costly_disabling_keeps_the_empty_rule_out():
    X = with_negations(full_table(4, repeats=2))
    y = X.eval("x1 & x2").to_numpy().astype(int)
    model = TwoLevelRules(max_rules=2, complexity=0.2, disable_cost=100.0).fit(X, y)
    assert (model.predict(X) == y).all()


# ---- printing and the estimator API -------------------------------------------------------
def test_rule_prints_numbered_like_the_paper():
    rule = DNF(
        [
            Clause((Term("DFA", ">", 0.7),)),
            Clause((Term("Fhi", "<=", 200.0), Term("Flo", ">", 90.0))),
        ],
        then="sick",
    )
    names = {"DFA": "voice fractal scaling exponent"}
    assert format_rule(rule, names) == (
        "IF  1. voice fractal scaling exponent > 0.700\n"
        " OR 2. Fhi <= 200 AND\n"
        "       Flo > 90\n"
        "THEN sick"
    )


def test_fit_is_deterministic_given_random_state():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(120, 4)), columns=list("abcd"))
    y = ((X.a > 0) & (X.b > 0) | (X.c > 1)).astype(int)
    a = TwoLevelRules(init="random", update="random", random_state=3, max_rules=3).fit(X, y)
    b = TwoLevelRules(init="random", update="random", random_state=3, max_rules=3).fit(X, y)
    assert str(a) == str(b) and a.objective_path_ == b.objective_path_


@pytest.mark.parametrize(
    "params, word",
    [
        ({"form": "xor"}, "form"),
        ({"method": "sgd"}, "method"),
        ({"max_rules": 0}, "max_rules"),
        ({"complexity": -1.0}, "complexity"),
        ({"init": "zeros"}, "init"),
        ({"update": "best"}, "update"),
        ({"max_iter": -1}, "max_iter"),
        ({"disable_cost": float("nan")}, "disable_cost"),
    ],
)
def test_bad_parameters_raise_a_value_error_naming_them(params, word):
    X = with_negations(full_table(3, repeats=2))
    y = X.x1.to_numpy()
    with pytest.raises(ValueError, match=word):
        TwoLevelRules(**params).fit(X, y)


def test_works_inside_grid_search():
    from sklearn.model_selection import GridSearchCV

    rng = np.random.default_rng(1)
    X = pd.DataFrame(rng.normal(size=(150, 3)), columns=["a", "b", "c"])
    y = ((X.a > 0) | (X.b > 0.5)).astype(int)
    search = GridSearchCV(TwoLevelRules(max_rules=3), {"complexity": [0.5, 5.0]}, cv=3).fit(X, y)
    assert search.best_estimator_.rules_.n_rules >= 1
    assert search.score(X, y) > 0.8


def test_passes_sklearn_check_estimator():
    from sklearn.utils.estimator_checks import check_estimator

    check_estimator(TwoLevelRules(max_rules=2, max_iter=3))


def test_theta_search_tunes_on_a_subsample_and_refits_on_all_samples():
    from repro.core.model_size import complexity
    from repro.two_level.theta_search import ThetaSearchCV

    rng = np.random.default_rng(2)
    X = pd.DataFrame(rng.normal(size=(300, 3)), columns=["a", "b", "c"])
    y = ((X.a > 0) & (X.b > 0) | (X.c > 1)).astype(int)
    search = ThetaSearchCV(
        TwoLevelRules(max_rules=3), {"complexity": [0.5, 50.0]}, cv=2, max_samples=100
    ).fit(X, y)
    assert search.cv_results_["split0_test_score"].size == 2
    assert search.best_params_ == {"complexity": 0.5}  # complexity = 50 leaves an empty rule
    assert complexity(search) == search.best_estimator_.complexity_()
    assert (search.predict(X) == search.best_estimator_.predict(X)).all()


# ---- the fast paths against their plain definitions ---------------------------------------
def test_clause_sums_count_the_selected_terms_of_every_clause():
    """Summing clause by clause over the selected columns gives the integer product of the
    design and the weights, for enabled, disabled and empty clauses alike."""
    rng = np.random.default_rng(0)
    Xa = augment(rng.integers(0, 2, size=(300, 40)))
    W = rng.random((6, 41)) < 0.2
    W[1] = False  # the empty clause
    W[2, 0] = True  # a disabled clause
    S = clause_sums(Xa, W)
    assert S.dtype == np.int32
    assert np.array_equal(S, Xa.astype(np.int64) @ W.astype(np.int64).T)


def test_best_prefix_is_the_best_of_all_prefixes_by_direct_evaluation():
    """The rounding by best prefix takes the prefix (of the columns sorted by decreasing
    LP weight) with the lowest subproblem objective, each evaluated from its definition."""
    from rulelab.twolevel.objective import clause_subobjective
    from rulelab.twolevel.optimize import _best_prefix

    rng = np.random.default_rng(1)
    for _ in range(20):
        A = rng.integers(0, 2, size=(80, 15)).astype(np.uint8)
        pos = rng.random(80) < 0.6
        w = np.where(rng.random(15) < 0.5, rng.random(15), 0.0)
        cost = np.full(15, 0.7)
        got = _best_prefix(A, pos, w, cost)
        order = np.flatnonzero(w > 1e-6)
        order = order[np.argsort(-w[order], kind="stable")]
        if order.size == 0:
            assert not got.any()
            continue
        values = []
        for m in range(1, order.size + 1):
            c = np.zeros(15, dtype=bool)
            c[order[:m]] = True
            values.append(clause_subobjective(A, pos, c, cost))
        assert clause_subobjective(A, pos, got, cost) == min(values)


def test_musk_clause_lp_is_the_same_whatever_the_design_layout():
    """The screened clause LP on a Musk subproblem returns the same weights from a
    row-major and a column-major design: the layout changes the copies made on the way,
    never the LP handed to the solver."""
    from rulelab.binarize import FeatureBinarizer
    from rulelab.lp import learn_clause

    X, y = load_or_skip("musk2")
    X, y = X.iloc[::11], y.iloc[::11]  # 600 rows of both classes
    A = np.asarray(FeatureBinarizer(n_thresholds=10).fit_transform(X), dtype=np.uint8)
    yy = y.to_numpy().astype(bool)
    cost = np.full(A.shape[1], 0.1)
    runs = [
        learn_clause(M, yy, form="or", lam=1.0, column_cost=cost, screening="basic")
        for M in (np.ascontiguousarray(A), np.asfortranarray(A))
    ]
    assert runs[0].status == runs[1].status == "optimal"
    assert np.array_equal(runs[0].w, runs[1].w)
    assert runs[0].lp_value == runs[1].lp_value


def test_a_kept_start_is_charged_at_the_seconds_it_took(starts):
    """Each hit adds the seconds its start took when it was computed, so a fit's time can
    be reported as its own: a start that took 0.2 s, found twice, adds 0.4 s."""

    def slow():
        time.sleep(0.2)
        return np.zeros((2, 3), dtype=bool), 1

    starts.maxsize = 8
    for _ in range(3):
        W, lps = starts.get(b"key", slow)
        assert (W.shape, lps) == ((2, 3), 1)
    assert (starts.hits, starts.misses) == (2, 1)
    assert 0.4 <= starts.reused_seconds < 1.0
    starts.clear()
    assert starts.reused_seconds == 0.0
