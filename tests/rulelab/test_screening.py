"""Screening (paper 3) is safe: brute force over every 0/1 clause and the LP agree before and
after screening, on many random problems with nested threshold columns."""

import itertools
import os

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulelab.lp import learn_clause, solve_or_lp
from rulelab.screening import nested_chains, screen, threshold_design

LAMS = [0.4, 1.0, 2.5, 1000.0]


def random_problem(seed: int, weighted: bool):
    """A small design: thresholds of 1-3 integer features (so some thresholds repeat) plus
    random columns of other 'features', labels from a noisy planted rule."""
    rng = np.random.default_rng(seed)
    m = int(rng.integers(6, 30))
    n_feat = int(rng.integers(1, 4))
    X = pd.DataFrame({f"x{k}": rng.integers(0, 6, m) for k in range(n_feat)})
    A, _, groups = threshold_design(X, int(rng.integers(1, 4)))
    extra = rng.random((m, int(rng.integers(0, 4)))) < rng.uniform(0.1, 0.6)
    A = np.concatenate([A, extra.astype(np.uint8)], axis=1)[:, :12]
    groups = [g[g < A.shape[1]] for g in groups]
    planted = rng.choice(A.shape[1], size=min(2, A.shape[1]), replace=False)
    y = A[:, planted].any(axis=1) ^ (rng.random(m) < 0.15)
    d = rng.uniform(0.2, 2.0, m) if weighted else np.ones(m)
    c = rng.uniform(0.0, 2.0, A.shape[1]) if weighted else np.ones(A.shape[1])
    lam = LAMS[int(rng.integers(len(LAMS)))]
    return A, y.astype(np.uint8), d, c, lam, groups


def all_clause_values(A, y, lam, d, c):
    """Objective (eq. 10 at 0/1 w) of every subset of columns, by brute force."""
    n = A.shape[1]
    S = np.array(list(itertools.product((0, 1), repeat=n)), dtype=float)
    hits = S @ A.T.astype(float)  # terms firing per (subset, row)
    pos = y.astype(bool)
    miss = (hits[:, pos] == 0) @ d[pos]
    false_alarms = hits[:, ~pos] @ d[~pos]
    return S.astype(bool), S @ c + lam * (miss + false_alarms)


def best_within(values, S, mask):
    allowed = ~S[:, ~mask].any(axis=1)
    return values[allowed].min()


problems = st.tuples(st.integers(0, 10**6), st.booleans())
levels = st.sampled_from(["basic", "enhanced"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems, levels, st.booleans(), st.sampled_from(["auto", "given"]))
def test_exact_optimum_unchanged_and_unique_optimum_kept(problem, level, sequential, groups):
    A, y, d, c, lam, given_groups = random_problem(*problem)
    mask, report = screen(
        A,
        y,
        lam,
        level=level,
        sequential=sequential,
        sample_weight=d,
        column_cost=c,
        groups=given_groups if groups == "given" else "auto",
    )
    S, values = all_clause_values(A, y, lam, d, c)
    best = values.min()
    tol = 1e-9 * max(1.0, abs(best))
    assert best_within(values, S, mask) <= best + tol
    optimal = np.flatnonzero(values <= best + tol)
    if optimal.size == 1:
        assert mask[S[optimal[0]]].all(), "a column of the unique optimum was screened out"
    assert report["total"] == int((~mask).sum())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems, levels)
def test_simple_and_pairwise_tests_keep_the_lp_optimum(problem, level):
    A, y, d, c, lam, _ = random_problem(*problem)
    if not y.any():
        return
    mask, _ = screen(A, y, lam, level=level, duality=False, sample_weight=d, column_cost=c)
    full = solve_or_lp(A, y, lam, sample_weight=d, column_cost=c)
    if mask.any():
        reduced = solve_or_lp(A[:, mask], y, lam, sample_weight=d, column_cost=c[mask]).lp_value
    else:  # nothing left: every positive is a miss
        reduced = lam * d[y == 1].sum()
    assert reduced == pytest.approx(full.lp_value, rel=1e-6, abs=1e-7)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems, levels, st.sampled_from(["and", "or"]))
def test_screened_solver_returns_an_optimal_clause_in_original_columns(problem, level, form):
    A, y, d, c, lam, _ = random_problem(*problem)
    plain = learn_clause(A, y, form, lam, exact=True, sample_weight=d, column_cost=c)
    fast = learn_clause(
        A, y, form, lam, exact=True, sample_weight=d, column_cost=c, screening=level
    )
    assert fast.objective == pytest.approx(plain.objective, rel=1e-7, abs=1e-7)
    assert fast.w.shape == (A.shape[1],)
    assert "screening" in fast.info or not (y if form == "or" else 1 - y).any()


def test_screening_lp_keeps_lp_value_on_binarised_data():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(300, 4)), columns=list("abcd"))
    y = ((X.a > 0.3) & (X.b < 0.5)).to_numpy() ^ (rng.random(300) < 0.05)
    A, _, groups = threshold_design(X, 8)
    plain = learn_clause(A, y, "and", 1000.0)
    fast = learn_clause(A, y, "and", 1000.0, screening="enhanced", screening_groups=groups)
    assert fast.lp_value == pytest.approx(plain.lp_value, rel=1e-9)
    assert fast.info["screening"]["total"] > 0


def test_planted_and_rule_recovered_with_screening():
    rng = np.random.default_rng(1)
    X = pd.DataFrame(rng.uniform(size=(400, 5)), columns=[f"f{k}" for k in range(5)])
    y = ((X.f0 > 0.5) & (X.f3 <= 0.5)).to_numpy()
    A, terms, _ = threshold_design(X, 3)  # quartile cuts include 0.5 (approximately)
    fit = learn_clause(A, y, "and", 1000.0, exact=True, screening="enhanced")
    truth = learn_clause(A, y, "and", 1000.0, exact=True)
    assert sorted(fit.selected.tolist()) == sorted(truth.selected.tolist())
    assert {terms[j].feature for j in fit.selected} == {"f0", "f3"}


def test_paper_wording_of_pairwise_test_would_lose_the_optimum():
    # j = [x <= 1] covers positive p0; j' = [x <= 2] adds p1..p10 and five negatives;
    # z covers p1..p10 alone. The optimum is {j, z}; the paper's wording drops j.
    x = np.array([1] + [2] * 10 + [2] * 5 + [3] * 4)
    y = np.array([1] + [1] * 10 + [0] * 5 + [0] * 4)
    z = np.array([0] + [1] * 10 + [0] * 5 + [0] * 4)
    A = np.stack([x <= 1, x <= 2, z], axis=1).astype(np.uint8)
    S, values = all_clause_values(A, y, 1000.0, np.ones(20), np.ones(3))
    assert S[np.argmin(values)].tolist() == [True, False, True]
    P, Z = A[y == 1].sum(0), A[y == 0].sum(0)
    assert P[1] - P[0] > Z[1] - Z[0]  # the paper's condition to drop j = column 0
    for level in ("basic", "enhanced"):
        mask, _ = screen(A, y, 1000.0, level=level, groups=[[0, 1]])
        assert mask[0] and mask[2]


def test_identical_columns_are_never_both_removed():
    rng = np.random.default_rng(3)
    col = (rng.random(50) < 0.4).astype(np.uint8)
    A = np.stack([col, col, col], axis=1)
    y = col ^ (rng.random(50) < 0.05)
    for level in ("basic", "enhanced"):
        mask, report = screen(A, y, 1000.0, level=level, duality=False)
        assert mask.sum() == 1 and report["pairwise"] == 2


def test_nested_chains_finds_the_threshold_groups():
    rng = np.random.default_rng(2)
    X = pd.DataFrame(rng.normal(size=(200, 3)), columns=list("abc"))
    A, _, groups = threshold_design(X, 5)
    found = {tuple(ch) for ch in nested_chains(A)}
    assert {tuple(g) for g in groups} <= found


def test_non_nested_group_is_refused():
    A = np.array([[1, 0], [0, 1], [1, 1]], dtype=np.uint8)
    with pytest.raises(ValueError, match="not nested"):
        screen(A, [1, 0, 1], groups=[[0, 1]])


def test_bad_arguments_are_named():
    A = np.eye(3, dtype=np.uint8)
    with pytest.raises(ValueError, match="level"):
        screen(A, [1, 0, 1], level="fast")
    with pytest.raises(ValueError, match="lam"):
        screen(A, [1, 0, 1], lam=None)
    with pytest.raises(ValueError, match="screening"):
        solve_or_lp(A, [1, 0, 1], screening="yes")


def test_result_unpacks_as_mask_and_report():
    A = np.array([[1, 0], [1, 1], [0, 1]], dtype=np.uint8)
    mask, report = screen(A, [1, 1, 0])
    assert mask.tolist() == [True, False]
    assert report["counting"] == 1 and report["fraction"] == 0.5


@pytest.mark.data
@pytest.mark.skipif(not os.environ.get("RULELAB_DATA"), reason="needs RULELAB_DATA")
def test_banknote_counts_match_paper_table1_row():
    from rulelab import load_dataset

    X, y = load_dataset("banknote")
    A, _, groups = threshold_design(X, 10)
    _, rep = screen(
        1 - A,
        1 - y.to_numpy(),
        1000.0,
        level="basic",
        groups=[g[::-1] for g in groups],
        sequential=False,
    )
    assert (A.shape[1], rep["simple"], rep["duality"], rep["total"]) == (80, 36, 66, 67)


@pytest.mark.parametrize("levels", ["inner", "lower", "mid", "upper", "range"])
@pytest.mark.parametrize("strict", [False, True])
def test_every_threshold_placement_matches_its_terms_and_chains(levels, strict):
    # Ties (integer values) are where the placements and the inequality conventions differ.
    rng = np.random.default_rng(3)
    X = pd.DataFrame(
        {
            "a": rng.integers(-2, 3, 200),
            "b": rng.normal(size=200),
            "flag": rng.integers(0, 2, 200),
            "constant": np.ones(200),
        }
    )
    A, terms, groups = threshold_design(X, 4, levels=levels, quantile_method="hazen", strict=strict)
    assert A.shape[1] == 2 * 4 * 2 + 2  # the constant feature is dropped
    for j, term in enumerate(terms):  # each column is its term, evaluated
        assert np.array_equal(A[:, j].astype(bool), term.evaluate(X))
    for chain in groups:  # each chain is nested, support increasing
        assert (np.diff(A[:, chain].astype(int), axis=1) >= 0).all()
    if strict:  # x < t: a value equal to a cut falls on the upper side
        cut = np.nextafter(terms[0].value, np.inf)
        assert not A[X["a"].to_numpy() == cut, 0].any()


def test_unknown_threshold_placement_is_named():
    with pytest.raises(ValueError, match="levels must be one of"):
        threshold_design(pd.DataFrame({"a": np.arange(10.0)}), 3, levels="deciles")
