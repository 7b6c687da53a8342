"""Exact recovery (paper 1, section 3.3-3.5): designs, disjunctness, Lemma 2, decoders."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from repro.exact_recovery.experiments import (
    recovery_experiment,
    recovery_trial,
    threshold_recovery_trial,
)
from rulelab.recovery import (
    bernoulli_design,
    decode,
    disjunct_fraction,
    is_k_disjunct,
    patterns_present,
    plant_or_rule,
    union_bound,
)


def brute_force_k_disjunct(A, k) -> bool:
    cols = [set(np.flatnonzero(A[:, j])) for j in range(A.shape[1])]
    for subset in itertools.combinations(range(A.shape[1]), k):
        union = set().union(*(cols[j] for j in subset))
        if any(j not in subset and cols[j] <= union for j in range(A.shape[1])):
            return False
    return True


@pytest.mark.parametrize("method", ["lp", "zero-row", "greedy"])
@pytest.mark.parametrize("seed", range(10))
def test_generous_sample_size_recovers_the_planted_rule_in_every_seed(method, seed):
    (record,) = recovery_trial(m=300, n=20, k=3, seed=seed, methods=[method])
    assert record["exact"] and record["hamming"] == 0


@pytest.mark.parametrize("seed", range(8))
def test_slack_lp_recovers_the_planted_rule_under_label_noise(seed):
    (record,) = recovery_trial(m=400, n=20, k=2, seed=seed, noise=0.05, methods=["lp"], lam=1000.0)
    assert record["exact"]


def test_disjunctness_check_agrees_with_brute_force():
    for seed in range(30):
        A = bernoulli_design(12, 8, p=0.4, rng=seed)
        for k in (1, 2):
            assert is_k_disjunct(A, k) == brute_force_k_disjunct(A, k)


def test_disjunctness_of_hand_made_designs():
    identity = np.eye(5, dtype=np.uint8)
    assert is_k_disjunct(identity, 4)
    # no column inside another, but column 2 lies inside the union of columns 0 and 1
    A = np.array([[1, 0, 1], [1, 0, 0], [0, 1, 1], [0, 1, 0]], dtype=np.uint8)
    assert is_k_disjunct(A, 1) and not is_k_disjunct(A, 2)
    assert disjunct_fraction(A, 2) == (pytest.approx(2 / 3), True)


def test_lemma_2_patterns_imply_k_disjunct():
    seen = 0
    for seed in range(40):
        A = bernoulli_design(90, 8, rng=seed)
        if patterns_present(A, 2)[0]:
            seen += 1
            assert is_k_disjunct(A, 2)
    assert seen > 5


def test_lemma_1_noiseless_lp_is_exact_on_k_disjunct_designs():
    checked = 0
    for seed in range(40):
        A = bernoulli_design(60, 12, p=0.3, rng=seed)
        if not is_k_disjunct(A, 2):
            continue
        support, y = plant_or_rule(A, 2, rng=seed)
        assert decode(A, y, "lp").tolist() == support.tolist()
        assert decode(A, y, "zero-row").tolist() == support.tolist()
        checked += 1
    assert checked > 5


def test_sampled_disjunctness_estimates_the_exact_fraction():
    A = bernoulli_design(40, 16, rng=3)
    exact, exhaustive = disjunct_fraction(A, 3, max_subsets=None)
    sampled, sampled_all = disjunct_fraction(A, 3, max_subsets=300, rng=0)
    assert exhaustive and not sampled_all
    assert abs(sampled - exact) < 0.1


def test_union_bound_falls_with_m_and_is_clipped_at_one():
    b = union_bound(np.array([0, 50, 100, 400]), n=20, k=2)
    assert b[0] == 1.0 and np.all(np.diff(b) <= 0) and b[-1] < 1e-30


def test_recovery_experiment_is_cached_and_resumes(tmp_path, monkeypatch):
    monkeypatch.setenv("RULELAB_CACHE", str(tmp_path))
    first = recovery_experiment([30, 60], [2], n=10, n_trials=3, progress=False)
    files = list((tmp_path / "results" / "recovery").glob("*.json"))
    assert len(files) == 2 and len(first) == 2 * 3 * 3
    second = recovery_experiment([30, 60], [2], n=10, n_trials=3, progress=False)
    assert second.equals(first)


@pytest.mark.parametrize("seed", range(4))
def test_planted_threshold_rule_is_recovered_up_to_threshold_resolution(seed):
    result = threshold_recovery_trial(2000, 10, seed)
    assert result["recovered"]
    assert result["max_gap"] <= result["resolution"]
