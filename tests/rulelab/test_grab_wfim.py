"""Weighted frequent itemset mining: brute force agrees, counts, expansion, top-K search."""

from itertools import combinations

import numpy as np
import pytest

from rulelab.grab import TopKMiner, count_itemsets, expand, frequent_itemsets, wfim, wfim_bruteforce
from rulelab.grab.wfim import (
    ExhaustiveSearch,
    TransactionMatrix,
    exact_sums,
    first_searches,
    itemset_keys,
)


def random_case(seed):
    rng = np.random.default_rng(seed)
    m, d = int(rng.integers(5, 60)), int(rng.integers(1, 9))
    X = (rng.random((m, d)) < rng.uniform(0.2, 0.8)).astype(np.uint8)
    if seed % 2:  # repeated rows exercise the merging of identical transactions
        X = X[rng.integers(0, m, size=m)]
    w = rng.normal(size=m)
    if seed % 3 == 0:  # zero weights (L2-hinge points outside the margin) are dropped
        w[rng.random(m) < 0.3] = 0.0
    return X, w, rng


@pytest.mark.parametrize("seed", range(25))
@pytest.mark.parametrize("absolute", [False, True])
def test_wfim_equals_bruteforce_sets_and_weights(seed, absolute):
    X, w, rng = random_case(seed)
    for k in (None, 0, 1, 2, 3):
        theta = float(rng.uniform(0, 1.5))
        ours = wfim(X, w, theta, k, absolute=absolute).as_dict()
        ref = wfim_bruteforce(X, w, theta, k, absolute=absolute)
        assert set(ours) == set(ref)
        assert all(abs(ours[p] - ref[p]) < 1e-9 for p in ours)


@pytest.mark.parametrize("seed", range(10))
def test_count_and_expansion_agree_with_bruteforce(seed):
    X, _, _ = random_case(seed)
    A = X.astype(bool)
    for k in (None, 1, 2, 3):
        kk = A.shape[1] if k is None else k
        occurring = [
            p
            for s in range(kk + 1)
            for p in combinations(range(A.shape[1]), s)
            if (A[:, list(p)].all(axis=1) if p else np.ones(len(A), bool)).any()
        ]
        assert count_itemsets(X, k) == len(occurring)
        Z, sets = expand(X, k)
        assert sorted(sets) == sorted(occurring)
        for j, p in enumerate(sets):
            col = A[:, list(p)].all(axis=1) if p else np.ones(len(A), bool)
            assert np.array_equal(Z[:, j].toarray().ravel() == 1, col)


def test_frequent_itemsets_respect_min_support():
    rng = np.random.default_rng(3)
    X = (rng.random((80, 7)) < 0.5).astype(np.uint8)
    res = frequent_itemsets(X, min_support=10, max_size=3)
    A = X.astype(bool)
    for p, v in zip(res.itemsets, res.values):
        assert v == A[:, list(p)].all(axis=1).sum() >= 10
    assert len(res) == count_itemsets(X, 3, min_support=10, include_empty=False)


def test_output_cap_marks_the_result_incomplete():
    rng = np.random.default_rng(0)
    X = (rng.random((50, 8)) < 0.6).astype(np.uint8)
    res = wfim(X, np.ones(50), 0.5, 3, max_out=20)
    assert len(res) == 20 and not res.complete


def test_itemset_keys_match_the_miner():
    X, w, _ = random_case(4)
    res = wfim(X, w, 0.1, 3, absolute=True)
    assert np.array_equal(res.keys, itemset_keys(res.itemsets, X.shape[1]))


def test_topk_miner_finds_the_true_top_k_and_remembers_M():
    rng = np.random.default_rng(7)
    X = (rng.random((400, 8)) < 0.5).astype(np.uint8)
    alpha = rng.normal(size=400) * 3
    miner = TopKMiner(X, 3, top_k=5)
    found, top = miner.search(alpha)
    ref = wfim_bruteforce(X, alpha, 1.0, 3, absolute=True)
    best = sorted(ref.values(), key=abs, reverse=True)[:5]
    assert np.allclose(sorted(np.abs(top.values)), sorted(np.abs(best)))
    assert miner.M < 10 and found.theta == 2.0**miner.M
    M = miner.M
    miner.search(alpha)
    assert miner.M <= M  # the threshold only moves down between calls


def test_topk_miner_excludes_free_features():
    rng = np.random.default_rng(8)
    X = (rng.random((300, 6)) < 0.5).astype(np.uint8)
    alpha = rng.normal(size=300) * 3
    _, top = TopKMiner(X, 2, top_k=4).search(alpha)
    _, again = TopKMiner(X, 2, top_k=4).search(alpha, exclude_keys=top.keys)
    assert not set(top.itemsets) & set(again.itemsets)


def test_exhaustive_search_matches_wfim_at_threshold_one():
    rng = np.random.default_rng(9)
    X = (rng.random((200, 6)) < 0.5).astype(np.uint8)
    alpha = rng.normal(size=200)
    found, _ = ExhaustiveSearch(X, 3, top_k=3).search(alpha)
    ref = wfim(X, alpha, 1.0, 3, absolute=True)
    assert np.allclose(np.sort(found.values), np.sort(ref.values))


def test_non_binary_matrix_is_rejected_with_a_clear_message():
    with pytest.raises(ValueError, match="0/1"):
        TransactionMatrix(np.array([[0, 2], [1, 0]]))


@pytest.mark.parametrize("seed", range(8))
def test_heap_search_returns_the_exact_top_k_outside_the_free_features(seed):
    rng = np.random.default_rng(100 + seed)
    m, d = int(rng.integers(40, 300)), int(rng.integers(4, 9))
    X = (rng.random((m, d)) < rng.uniform(0.3, 0.7)).astype(np.uint8)
    alpha = rng.normal(size=m) * rng.uniform(0.5, 3)
    k = [1, 2, 3, None][seed % 4]
    ref = wfim_bruteforce(X, alpha, 1.0, k, absolute=True)
    free = [p for p in ref if rng.random() < 0.3]
    rest = {p: v for p, v in ref.items() if p not in set(free)}
    K = int(rng.integers(1, 10))
    top, _, _ = TopKMiner(X, k, top_k=K).top(alpha, itemset_keys(free, d))
    best = sorted(map(abs, rest.values()), reverse=True)[:K]
    assert np.allclose(np.abs(top.values), best)  # largest first
    assert all(p in rest and np.isclose(rest[p], v) for p, v in zip(top.itemsets, top.values))


@pytest.mark.parametrize("seed", range(12))
def test_heap_search_is_exact_on_deep_trees_over_repeated_rows(seed):
    # repeated rows with both signs are merged and netted inside the search, every depth
    # reuses its parent's counts for its occurrence lists, and leaf parents prune by
    # inclusion-exclusion: the top K must still be the brute-force top K
    rng = np.random.default_rng(500 + seed)
    m, d = int(rng.integers(60, 400)), int(rng.integers(6, 11))
    X = (rng.random((int(m / 3), d)) < rng.uniform(0.3, 0.7)).astype(np.uint8)
    X = X[rng.integers(0, X.shape[0], size=m)]
    alpha = rng.normal(size=m) * rng.uniform(0.3, 2)
    k = [3, 4, 5, None][seed % 4]
    ref = wfim_bruteforce(X, alpha, 1.0, k, absolute=True)
    free = [p for p in ref if rng.random() < 0.2]
    rest = sorted((abs(v) for p, v in ref.items() if p not in set(free)), reverse=True)
    for K in (1, 7, 40):
        top, _, _ = TopKMiner(X, k, top_k=K).top(alpha, itemset_keys(free, d))
        assert np.allclose(np.abs(top.values), rest[:K])
        assert all(np.isclose(ref[p], v) for p, v in zip(top.itemsets, top.values))


def test_reaches_decides_whether_the_capped_sum_passes_the_target():
    rng = np.random.default_rng(11)
    X = (rng.random((300, 7)) < 0.5).astype(np.uint8)
    alpha = rng.normal(size=300) * 2
    ref = wfim_bruteforce(X, alpha, 1.0, 3, absolute=True)
    free = list(ref)[:3]
    total = sum(abs(v) - 1 for p, v in ref.items() if p not in set(free))
    miner = TopKMiner(X, 3, top_k=5)
    keys = itemset_keys(free, 7)
    reached, s = miner.reaches(alpha, keys, total + 1.0)
    assert not reached and np.isclose(s, total)  # the whole sum, measured
    reached, s = miner.reaches(alpha, keys, total / 2)
    assert reached and total / 2 <= s <= total + 1e-9  # stopped early
    for target in (total / 3, total + 1.0):  # the top-K call measures the same in passing
        _, r1, s1 = TopKMiner(X, 3, top_k=5).top(alpha, keys, target=target)
        assert (r1, s1) == miner.reaches(alpha, keys, target)


@pytest.mark.parametrize("seed", range(6))
def test_flat_itemsets_are_the_tuples_the_expansion_lists(seed):
    from rulelab.grab.wfim import itemset_tuples, take_itemsets

    X, _, rng = random_case(seed)
    for include_empty in (True, False):
        Z, sets = expand(X, 3, include_empty=include_empty)
        Z2, (ptr, cols) = expand(X, 3, include_empty=include_empty, flat=True)
        assert (Z != Z2).nnz == 0 and itemset_tuples(ptr, cols) == sets
        which = rng.permutation(len(sets))[: len(sets) // 2]
        assert itemset_tuples(*take_itemsets(ptr, cols, which)) == [sets[i] for i in which]


def test_the_first_search_breaks_ties_at_the_kth_place_by_key():
    # alpha = +-1/2 everywhere (w = 0, logistic, C = 1): the K-th value is shared by many
    # itemsets, and the K kept must be those with the smallest keys whatever the order
    rng = np.random.default_rng(12)
    X = (rng.random((200, 9)) < 0.5).astype(np.uint8)
    alpha = np.where(rng.random(200) < 0.5, 0.5, -0.5)
    found, top = TopKMiner(X, 3, top_k=40, M=0).search(alpha)
    ref = wfim_bruteforce(X, alpha, 1.0, 3, absolute=True)
    keys = dict(zip(ref, itemset_keys(list(ref), 9).tolist()))
    expected = sorted(ref, key=lambda p: (-abs(ref[p]), keys[p]))[:40]
    assert top.itemsets == [tuple(p) for p in expected]


@pytest.mark.parametrize("order", ["C", "F"])
def test_csr_from_dense_is_the_matrix_scipy_builds_in_either_memory_order(order):
    from scipy import sparse

    from rulelab.grab.wfim import csr_from_dense

    rng = np.random.default_rng(3)
    a = np.asarray(rng.random((37, 53)) < 0.2, dtype=np.uint8, order=order)
    a[5] = 0  # an empty row
    ref, got = sparse.csr_matrix(a), csr_from_dense(a)
    assert got.has_sorted_indices
    got_sorted = got.copy()
    got_sorted.has_sorted_indices = False
    got_sorted.sort_indices()  # the flag it sets is true: sorting changes nothing
    for arr in ("indptr", "indices", "data"):
        assert np.array_equal(getattr(got, arr), getattr(ref, arr))
        assert np.array_equal(getattr(got_sorted, arr), getattr(ref, arr))
    assert got.data.dtype == ref.data.dtype


def test_sparse_cells_equal_the_dense_float32_copy_made_sparse():
    import pandas as pd
    from scipy import sparse

    from repro.grab.experiments import sparse_cells

    rng = np.random.default_rng(4)
    frame = pd.DataFrame((rng.random((40, 30)) < 0.3).astype(np.uint8))  # column-major block
    tiny = pd.DataFrame({"a": [1e-50, 1.0, 0.0], "b": [0.0, 2.5, np.nan]})  # 0 only in float32
    for B in (frame, tiny):
        ref = sparse.csr_matrix(np.asarray(B, dtype=np.float32))
        got = sparse_cells(B)
        assert got.dtype == np.float32
        assert np.array_equal(got.indptr, ref.indptr)
        assert np.array_equal(got.indices, ref.indices)
        assert np.array_equal(got.data, ref.data, equal_nan=True)


def _half_integer_weights(seed):
    # GRAB's weights at w = 0 for C >= 1: row counts times C / 2, of either sign
    X, _, rng = random_case(seed)
    w = rng.integers(-3, 4, size=len(X)) * 0.5
    return X, w


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("top_k", [1, 4, 50])
def test_first_searches_give_each_size_its_own_search_when_sums_are_exact(seed, top_k):
    X, w = _half_integer_weights(seed)
    sizes = [1, 2, 3, None]
    served = first_searches(X, w, sizes, top_k, M=3)
    assert set(served) == set(sizes)
    for size in sizes:
        miner = TopKMiner(X, size, top_k, M=3)
        found, top = miner.search(w)
        s_found, s_top, s_M = served[size]
        assert s_M == miner.M and s_found.theta == found.theta
        assert s_found.complete == found.complete
        assert sorted(s_found.values) == sorted(found.values)
        assert s_top.itemsets == top.itemsets and np.array_equal(s_top.values, top.values)


def test_first_searches_share_nothing_when_sums_are_rounded():
    X, w, _ = random_case(3)
    assert not exact_sums(w) and first_searches(X, w, [1, 2, None], 5) == {}
    assert exact_sums(np.array([0.5, -1.5, 3.0])) and not exact_sums(np.array([0.05, 0.1]))


def test_first_searches_leave_out_a_smaller_size_a_capped_call_cut_short():
    X, w = _half_integer_weights(1)
    served = first_searches(X, w, [1, None], 100, M=0, max_out=1)
    assert list(served) == [None] and not served[None][0].complete
