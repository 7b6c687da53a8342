"""The clause LP: exact recovery of planted rules (paper 1, Lemma 1), De Morgan, formulations."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from rulelab.lp import clause_objective, learn_clause, solve_or_lp
from tests.conftest import planted_design


def is_k_disjunct(A: np.ndarray, k: int) -> bool:
    """No column is contained in the union of k others (exact check, small n only)."""
    n = A.shape[1]
    cols = [set(np.flatnonzero(A[:, j])) for j in range(n)]
    for subset in itertools.combinations(range(n), k):
        union = set().union(*(cols[j] for j in subset))
        if any(j not in subset and cols[j] <= union for j in range(n)):
            return False
    return True


@pytest.mark.parametrize("seed", range(5))
def test_noiseless_lp_recovers_planted_or_rule_on_disjunct_design(seed):
    A, truth = planted_design(n_samples=300, n_features=14, k=2, seed=seed, p=0.3)
    assert is_k_disjunct(A, 2)
    y = A[:, truth].any(axis=1)
    result = solve_or_lp(A, y, lam=None)
    assert result.status == "optimal"
    assert result.is_integral
    assert list(result.selected) == list(truth)


@pytest.mark.parametrize("seed", range(5))
def test_noiseless_lp_recovers_planted_and_rule_on_disjunct_design(seed):
    A, truth = planted_design(n_samples=300, n_features=14, k=2, seed=seed, p=0.7)
    # The AND problem is the OR problem of the complemented design (eq. 5).
    assert is_k_disjunct(1 - A, 2)
    y = A[:, truth].all(axis=1)
    result = learn_clause(A, y, form="and", lam=None)
    assert list(result.selected) == list(truth)


@pytest.mark.parametrize("seed", range(3))
def test_lp_with_slacks_recovers_planted_three_term_rule(seed):
    A, truth = planted_design(n_samples=600, n_features=40, k=3, seed=seed)
    y = A[:, truth].any(axis=1)
    assert list(solve_or_lp(A, y, lam=1000).selected) == list(truth)


@pytest.mark.parametrize("seed", range(3))
def test_and_rule_on_A_y_equals_or_rule_on_complements(seed):
    rng = np.random.default_rng(seed)
    A = (rng.random((200, 25)) < 0.5).astype(np.uint8)
    y = (rng.random(200) < 0.4).astype(int)  # noisy labels: no exact rule exists
    and_rule = learn_clause(A, y, form="and", lam=5)
    or_rule = learn_clause(1 - A, 1 - y, form="or", lam=5)
    assert list(and_rule.selected) == list(or_rule.selected)
    # Complementing the OR-clause's output gives the AND-clause's output.
    and_out = A[:, and_rule.selected].all(axis=1)
    or_out = (1 - A)[:, or_rule.selected].any(axis=1)
    assert np.array_equal(and_out, ~or_out)


@pytest.mark.parametrize("seed", range(4))
def test_reduced_and_full_formulations_have_the_same_optimum(seed):
    rng = np.random.default_rng(seed)
    A = (rng.random((150, 30)) < 0.4).astype(np.uint8)
    y = (rng.random(150) < 0.5).astype(int)
    d = rng.random(150)
    full = solve_or_lp(A, y, lam=3.0, sample_weight=d, formulation="full")
    reduced = solve_or_lp(A, y, lam=3.0, sample_weight=d, formulation="reduced")
    assert reduced.lp_value == pytest.approx(full.lp_value, rel=1e-7, abs=1e-7)


def test_cvxpy_path_gives_the_same_lp_value_as_direct_highs(rng):
    A = (rng.random((120, 20)) < 0.5).astype(np.uint8)
    y = (rng.random(120) < 0.5).astype(int)
    direct = solve_or_lp(A, y, lam=2.0)
    via_cvxpy = solve_or_lp(A, y, lam=2.0, solver="HIGHS")
    assert via_cvxpy.lp_value == pytest.approx(direct.lp_value, rel=1e-6)


def test_exact_milp_matches_brute_force_on_a_small_problem(rng):
    A = (rng.random((60, 8)) < 0.5).astype(np.uint8)
    y = (rng.random(60) < 0.5).astype(int)
    best = min(
        clause_objective(A, y, list(s), 2.0)
        for r in range(9)
        for s in itertools.combinations(range(8), r)
    )
    exact = solve_or_lp(A, y, lam=2.0, exact=True)
    assert exact.objective == pytest.approx(best)
    assert exact.lp_value <= best + 1e-6


def test_lp_value_lower_bounds_every_rounding(rng):
    A = (rng.random((200, 30)) < 0.5).astype(np.uint8)
    y = (rng.random(200) < 0.5).astype(int)
    for rounding in ("threshold", "randomized"):
        r = solve_or_lp(A, y, lam=2.0, rounding=rounding, random_state=0)
        assert r.lp_value <= r.objective + 1e-9


def test_randomized_rounding_is_never_worse_than_threshold_rounding(rng):
    A = (rng.random((200, 30)) < 0.5).astype(np.uint8)
    y = (rng.random(200) < 0.5).astype(int)
    thr = solve_or_lp(A, y, lam=2.0)
    rnd = solve_or_lp(A, y, lam=2.0, rounding="randomized", random_state=0)
    assert rnd.objective <= thr.objective + 1e-9


def test_noiseless_lp_reports_infeasible_when_no_clause_fits():
    A = np.array([[1, 0], [1, 0]], dtype=np.uint8)
    y = np.array([1, 0])  # identical rows, different labels
    assert solve_or_lp(A, y, lam=None).status == "infeasible"


@pytest.mark.parametrize(
    "bad, message",
    [
        (np.array([[0, 2], [1, 0]]), "only 0/1"),
        (np.array([[np.nan, 1.0], [1.0, 0.0]]), "NaN"),
        (np.zeros((0, 3)), "empty"),
    ],
)
def test_bad_design_matrices_are_rejected_clearly(bad, message):
    with pytest.raises(ValueError, match=message):
        solve_or_lp(bad, np.array([1, 0])[: len(bad)] if len(bad) else np.array([]), lam=1.0)


def test_mismatched_lengths_and_non_binary_labels_are_rejected():
    A = np.eye(3, dtype=np.uint8)
    with pytest.raises(ValueError, match="must match"):
        solve_or_lp(A, [1, 0], lam=1.0)
    with pytest.raises(ValueError, match="binary"):
        solve_or_lp(A, [0, 1, 2], lam=1.0)


def test_result_turns_into_a_readable_clause():
    from rulelab.rules import Term

    A, truth = planted_design(300, 10, 2, seed=0)
    y = A[:, truth].all(axis=1)
    terms = [Term(f"f{j}", "==", 1) for j in range(10)]
    rule = learn_clause(A, y, form="and", lam=None).rule(terms)
    assert str(rule) == f"f{truth[0]} == 1 AND f{truth[1]} == 1"
