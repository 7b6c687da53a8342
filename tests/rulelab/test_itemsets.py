"""The itemset engine against brute-force enumeration on small random data.

Each collector of the traversal (through :func:`rulelab.itemsets.traverse`: every itemset
above a threshold in the three test modes, with and without occurrence lists and a target;
the top K; through :func:`rulelab.itemsets.lowest_cost_search`: the lowest reduced costs
over bitsets, whole or split by first item, capped or stopped when the heap fills) is
checked against every subset of the items evaluated directly, and one search of each
cover against its outputs recorded before the two searches became one traversal.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from rulelab.itemsets import (
    CAPPED,
    COMPLETE,
    REACHED,
    THRESHOLD,
    TOP_K,
    lowest_cost_search,
    measure_root,
    pack_rows,
    traverse,
    weighted_layout,
)


def random_db(seed, n_rows=40, n_items=7, density=0.45):
    rng = np.random.default_rng(seed)
    A = rng.random((n_rows, n_items)) < density
    w = rng.normal(size=n_rows) * 2.0
    return A, w


def csr(A):
    indptr = np.zeros(A.shape[0] + 1, dtype=np.int64)
    indptr[1:] = np.cumsum(A.sum(axis=1))
    indices = np.nonzero(A)[1].astype(np.int64)  # row-major: sorted within each row
    return indptr, indices


def codes(n_items, seed=7):
    return np.random.default_rng(seed).integers(1, 2**63, size=n_items, dtype=np.uint64)


def key(p, c):
    k = np.uint64(0)
    for j in p:
        k ^= c[j]
    return k


def brute_force(A, w, max_size):
    """{itemset: (wfrq, rows)} for every itemset of size <= max_size that occurs."""
    out = {}
    for size in range(max_size + 1):
        for p in combinations(range(A.shape[1]), size):
            rows = A[:, list(p)].all(axis=1) if p else np.ones(A.shape[0], bool)
            if rows.any():
                out[p] = (float(w[rows].sum()), np.flatnonzero(rows))
    return out


def run(
    A,
    w,
    theta,
    max_size,
    mode,
    collect=THRESHOLD,
    top_k=0,
    store_occ=False,
    excl=(),
    target=0.0,
    max_out=0,
):
    indptr, indices = csr(A)
    c = codes(A.shape[1])
    excl_sorted = np.sort(np.array([key(p, c) for p in excl], dtype=np.uint64))
    res = traverse(
        indptr,
        indices,
        np.maximum(w, 0.0),
        np.maximum(-w, 0.0),
        A.shape[1],
        float(theta),
        max_size,
        mode,
        collect,
        top_k,
        max_out,
        True,
        store_occ,
        c,
        excl_sorted,
        float(target),
    )
    n, status, item_ptr, items, values, keys = res[:6]
    found = {
        tuple(sorted(items[item_ptr[i] : item_ptr[i + 1]].tolist())): values[i] for i in range(n)
    }
    assert len(found) == n  # every itemset is met once
    for i, p in enumerate(found):
        assert keys[i] == key(p, c)
    return found, res


def outputs(res):
    """The itemsets a search returned, with their values, in the order returned."""
    n, _, item_ptr, items, values = res[:5]
    return [
        (tuple(items[item_ptr[t] : item_ptr[t + 1]].tolist()), float(values[t])) for t in range(n)
    ]


def passes(v, theta, mode):
    return v > theta if mode == 0 else abs(v) > theta


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("mode", [0, 1, 2])
@pytest.mark.parametrize("max_size", [1, 2, 3, 7])
def test_threshold_collector_finds_exactly_the_itemsets_above_theta(seed, mode, max_size):
    A, w = random_db(seed)
    theta = 1.5
    found, res = run(A, w, theta, max_size, mode)
    truth = {p: v for p, (v, _) in brute_force(A, w, max_size).items() if passes(v, theta, mode)}
    assert found.keys() == truth.keys()
    for p, v in truth.items():
        assert found[p] == pytest.approx(v, abs=1e-9)
    assert res[1] == COMPLETE


@pytest.mark.parametrize("seed", range(4))
def test_occurrence_lists_are_the_rows_that_contain_the_itemset(seed):
    A, _ = random_db(seed, n_rows=30, n_items=6)
    ones = np.ones(A.shape[0])
    found, res = run(A, ones, 2.5, 3, 0, store_occ=True)
    n, item_ptr, items, occ_ptr, occ = res[0], res[2], res[3], res[6], res[7]
    truth = brute_force(A, ones, 3)
    assert found.keys() == {p for p, (v, _) in truth.items() if v > 2.5}
    for i in range(n):
        p = tuple(sorted(items[item_ptr[i] : item_ptr[i + 1]].tolist()))
        assert occ[occ_ptr[i] : occ_ptr[i + 1]].tolist() == truth[p][1].tolist()


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("top_k", [1, 5, 20])
def test_top_k_collector_holds_the_k_largest_outside_the_excluded(seed, top_k):
    A, w = random_db(seed, n_items=8)
    truth = {p: v for p, (v, _) in brute_force(A, w, 3).items() if abs(v) > 1.0}
    excl = sorted(truth, key=lambda p: -abs(truth[p]))[:3:2]  # the 1st and 3rd best
    found, res = run(A, w, 1.0, 3, 1, collect=TOP_K, top_k=top_k, excl=excl)
    rest = sorted((p for p in truth if p not in excl), key=lambda p: -abs(truth[p]))
    assert set(found) == set(rest[:top_k])
    assert np.all(np.diff(np.abs(res[4][: res[0]])) <= 0)  # largest first


@pytest.mark.parametrize("seed", range(4))
def test_target_stops_the_threshold_search_once_the_sum_is_reached(seed):
    A, w = random_db(seed)
    truth = [v for v, _ in brute_force(A, w, 3).values() if abs(v) > 1.0]
    total = sum(abs(v) - 1.0 for v in truth)
    _, res = run(A, w, 1.0, 3, 1, target=2 * total + 1.0)
    assert res[1] == COMPLETE and res[9] == pytest.approx(total)
    _, res = run(A, w, 1.0, 3, 1, target=total / 2)
    assert res[1] == REACHED and total / 2 <= res[9] <= total + 1e-9
    last = abs(res[4][res[0] - 1]) - 1.0
    assert res[9] - last < total / 2  # it stopped at the output that crossed


def lowest_costs(A, mu_pos, cost_neg, fixed, per_term, max_terms, n_columns, tau=0.0):
    rows = np.flatnonzero((mu_pos > 0) | (cost_neg > 0))
    order, layout, opw, onw = weighted_layout(rows, mu_pos, cost_neg)
    bits = pack_rows(A.astype(np.uint8), order)
    root = measure_root(bits, layout, opw, onw)
    heap_val = np.full(n_columns, np.inf)
    heap_items = np.zeros((n_columns, max_terms), dtype=np.int64)
    heap_size = np.zeros(n_columns, dtype=np.int64)
    heap_n = np.zeros(1, dtype=np.int64)
    _, done = lowest_cost_search(
        bits,
        layout,
        opw,
        onw,
        root,
        0,
        A.shape[1],
        max_terms,
        float(fixed),
        float(per_term),
        float(tau),
        heap_val,
        heap_items,
        heap_size,
        heap_n,
        10**9,
        False,
    )
    assert done
    k = int(heap_n[0])
    return {tuple(sorted(heap_items[t, : heap_size[t]].tolist())): heap_val[t] for t in range(k)}


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("max_terms", [1, 2, 3])
def test_lowest_cost_search_finds_the_brute_force_minimum(seed, max_terms):
    rng = np.random.default_rng(seed)
    A = rng.random((150, 8)) < 0.5
    y = rng.random(150) < 0.5
    # duals of a covering LP: most are 0 or one common value, a few are not
    mu_pos = np.where(y, rng.choice([0.0, 1.0, 0.37], size=150, p=[0.3, 0.6, 0.1]), 0.0)
    cost_neg = np.where(y, 0.0, 1.0)
    fixed, per_term = 2.0, 1.0

    def rc(p):
        cov = A[:, list(p)].all(axis=1)
        return fixed + per_term * len(p) + cost_neg[cov].sum() - mu_pos[cov].sum()

    costs = {
        p: rc(p)
        for s in range(1, max_terms + 1)
        for p in combinations(range(8), s)
        if A[:, list(p)].all(axis=1).any()
    }
    found = lowest_costs(A, mu_pos, cost_neg, fixed, per_term, max_terms, n_columns=5)
    best = min(costs.values())
    if best >= 0.0:
        assert found == {}
    else:
        assert min(found.values()) == pytest.approx(best)
        for p, v in found.items():
            assert v == pytest.approx(costs[p]) and v < 0.0


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("max_terms", [2, 3])
def test_both_searches_measure_the_same_costs(seed, max_terms):
    # The traversal over conditional databases and the search over weighted bitsets are the
    # two measurements of the package: with weights mu - cost they give every itemset the
    # same reduced cost, so the lowest ones agree (the bitset search skips a superset whose
    # cover equals its parent's, which never costs less, so the minima are the same).
    rng = np.random.default_rng(seed)
    A = rng.random((120, 7)) < 0.5
    y = rng.random(120) < 0.5
    mu_pos = np.where(y, rng.choice([0.0, 1.0, 0.25], size=120, p=[0.3, 0.6, 0.1]), 0.0)
    cost_neg = np.where(y, 0.0, 1.0)
    fixed, per_term = 0.5, 0.25
    found, _ = run(A, mu_pos - cost_neg, -np.inf, max_terms, 2)
    costs = np.sort([fixed + per_term * len(p) - v for p, v in found.items() if p])
    held = lowest_costs(A, mu_pos, cost_neg, fixed, per_term, max_terms, 8, tau=np.inf)
    np.testing.assert_allclose(np.sort(list(held.values())), costs[:8])


def pricing_instance(seed, n_rows=90, n_items=7):
    rng = np.random.default_rng(seed)
    A = rng.random((n_rows, n_items)) < 0.55
    y = rng.random(n_rows) < 0.5
    mu_pos = np.where(y, rng.choice([0.0, 1.0, 0.37], size=n_rows, p=[0.3, 0.6, 0.1]), 0.0)
    cost_neg = np.where(y, 0.0, rng.choice([1.0, 0.5], size=n_rows))
    return A, mu_pos, cost_neg


def bitset_search(A, mu_pos, cost_neg, fixed, per_term, max_terms, n_columns, tau, cuts, **kw):
    """The heap and the calls' (nodes, finished) of a search split at the first items ``cuts``."""
    rows = np.arange(A.shape[0])
    order, layout, opw, onw = weighted_layout(rows, mu_pos, cost_neg)
    bits = pack_rows(A.astype(np.uint8), order)
    root = measure_root(bits, layout, opw, onw)
    heap = (
        np.full(n_columns, np.inf),
        np.zeros((n_columns, max_terms), dtype=np.int64),
        np.zeros(n_columns, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
    )
    calls = [
        lowest_cost_search(
            bits,
            layout,
            opw,
            onw,
            root,
            lo,
            hi,
            max_terms,
            fixed,
            per_term,
            tau,
            *heap,
            kw.get("max_nodes", 10**9),
            kw.get("stop_when_full", False),
        )
        for lo, hi in zip(cuts[:-1], cuts[1:])
    ]
    val, items, size, n = heap
    held = [(tuple(items[t, : size[t]].tolist()), float(val[t])) for t in range(int(n[0]))]
    return held, calls


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("max_terms", [1, 2, 3, 4])
def test_lowest_cost_collector_holds_every_itemset_below_tau(seed, max_terms):
    # With room for all of them, the heap holds exactly the itemsets that cost less than tau
    # among those the search meets: an itemset is not met when one of its prefixes of two
    # or more items covers the same rows as the prefix one item shorter (it and its
    # supersets then cost more than that prefix's for the same rows).
    A, mu_pos, cost_neg = pricing_instance(seed)
    fixed, per_term, tau = 0.5, 0.75, 1.5

    def cover(p):
        return A[:, list(p)].all(axis=1)

    expected = {}
    for size in range(1, max_terms + 1):
        for p in combinations(range(A.shape[1]), size):
            if not cover(p).any():
                continue
            if any((cover(p[:t]) == cover(p[: t - 1])).all() for t in range(2, size + 1)):
                continue
            rc = fixed + per_term * size + cost_neg[cover(p)].sum() - mu_pos[cover(p)].sum()
            if rc < tau:
                expected[p] = rc
    held, calls = bitset_search(
        A, mu_pos, cost_neg, fixed, per_term, max_terms, 500, tau, [0, A.shape[1]]
    )
    assert calls[0][1] and len(held) < 500
    assert {p for p, _ in held} == set(expected)
    for p, v in held:
        assert v == pytest.approx(expected[p])


@pytest.mark.parametrize("seed", range(4))
def test_lowest_cost_search_split_by_first_item_is_one_search(seed):
    # Pricing splits the search by first item and carries the heap over: the calls together
    # measure the same itemsets and hold the same ones as a single call.
    A, mu_pos, cost_neg = pricing_instance(seed, n_items=9)
    args = (A, mu_pos, cost_neg, 1.0, 0.5, 3, 4, 0.0)
    whole, (one,) = bitset_search(*args, [0, 9])
    split, calls = bitset_search(*args, [0, 2, 5, 9])
    assert split == whole
    assert sum(c[0] for c in calls) == one[0] and all(c[1] for c in calls)


def test_lowest_cost_search_stops_at_max_nodes_and_when_the_heap_is_full():
    A, mu_pos, cost_neg = pricing_instance(0, n_items=9)
    args = (A, mu_pos, cost_neg, 0.0, 0.1, 3)
    _, (full,) = bitset_search(*args, 50, np.inf, [0, 9])
    assert full[1]
    _, (capped,) = bitset_search(*args, 50, np.inf, [0, 9], max_nodes=10)
    assert not capped[1] and 10 <= capped[0] < full[0]
    held, (stopped,) = bitset_search(*args, 3, np.inf, [0, 9], stop_when_full=True)
    assert not stopped[1] and len(held) == 3


# (nodes measured, finished) per call and the heap (itemset, reduced cost), as recorded
RECORDED_CALLS = [(229, True), (53, True)]
RECORDED_HELD = [
    ((6, 10, 11), -4.239999999999998),
    ((1, 6, 10), -7.740000000000002),
    ((6, 10), -6.980000000000004),
    ((1, 6), -4.740000000000002),
    ((6, 9), -4.480000000000004),
]


def test_lowest_cost_search_reproduces_the_recorded_search():
    # Recorded from the bitset search before it became a collector of the one traversal:
    # the same itemsets, reduced costs and number of itemsets measured.
    A, mu_pos, cost_neg = pricing_instance(3, n_rows=200, n_items=12)
    held, calls = bitset_search(A, mu_pos, cost_neg, 2.0, 1.0, 3, 5, 0.0, [0, 5, 12])
    assert calls == RECORDED_CALLS
    assert held == RECORDED_HELD


# (status, nodes opened, running sum, seen) and the top K (itemset, wfrq), as recorded
RECORDED_TOP_K_RUN = (REACHED, 20, 48.3031045922973, 1206.8250979313918)
RECORDED_TOP_K_HELD = [
    ((8,), 56.874984227808106),
    ((), 49.3031045922973),
    ((3,), 47.10791657173974),
    ((0, 3), 43.55605951122103),
    ((6,), 42.37492103398369),
    ((2,), 37.792640522495375),
]


def test_top_k_traversal_reproduces_the_recorded_search():
    # Recorded before the traversal took the bitset cover and the lowest-cost collector:
    # the same itemsets, weighted frequencies, nodes opened and running sums.
    A, w = random_db(3, n_rows=200, n_items=10)
    _, res = run(A, w, 0.5, 3, 1, collect=TOP_K, top_k=6, target=20.0)
    assert (int(res[1]), int(res[8]), float(res[9]), float(res[10])) == RECORDED_TOP_K_RUN
    assert outputs(res) == RECORDED_TOP_K_HELD


# GRAB's top-K search (threshold 1) on a wider design, recorded before the walk skipped the
# children that can be neither held, opened nor counted and the occurrence lists were
# delivered for opened children only: (target, output cap) -> (status, nodes opened,
# running sum, seen), and the top K, the same in all three runs
RECORDED_WIDE_RUNS = {
    (400.0, 0): (REACHED, 577, 405.1484168628611, 35867.20277753912),
    (0.0, 0): (COMPLETE, 577, 0.0, 35846.675393383775),
    (1e9, 150): (CAPPED, 577, 783.0603332319334, 36007.297037998185),
}
RECORDED_WIDE_HELD = [
    ((13, 50), 32.021530775380725),
    ((20, 59), 31.613337299834974),
    ((50,), 29.766824709446396),
    ((17, 36), -29.732926336548935),
    ((5, 30), -29.70859692981876),
    ((52, 58), -29.501670283489332),
    ((19, 25), 29.27493699598542),
    ((17,), -29.260551141191335),
]


@pytest.mark.parametrize("target, max_out", list(RECORDED_WIDE_RUNS))
def test_top_k_walk_at_threshold_one_reproduces_the_recorded_search(target, max_out):
    A, w = random_db(11, n_rows=300, n_items=60, density=0.3)
    _, res = run(
        A, w, 1.0, 4, 1, collect=TOP_K, top_k=8, excl=[(3,)], target=target, max_out=max_out
    )
    searched = (int(res[1]), int(res[8]), float(res[9]), float(res[10]))
    assert searched == RECORDED_WIDE_RUNS[target, max_out]
    assert outputs(res) == RECORDED_WIDE_HELD


# The threshold collector in mode 1 on the same design, recorded before its walk skipped
# the children that cannot pass: (theta, output cap, target) -> (status, outputs, running
# sum) and the first three and the last output, in the order met
RECORDED_WIDE_THRESHOLD_RUNS = {
    (8.0, 40, 0.0): (
        (CAPPED, 40, 0.0),
        ((19, 25, 45, 54), 10.13708945425273),
    ),
    (4.0, 0, 300.0): (
        (REACHED, 32, 304.9691050272743),
        ((19, 25, 29, 58), 9.245159398432673),
    ),
    (4.0, 0, 0.0): (
        (COMPLETE, 100795, 0.0),
        ((41, 43, 54, 56), 4.071743417923502),
    ),
}
RECORDED_WIDE_FIRST = [
    ((), -23.250557730422685),
    ((58,), -17.91759939408159),
    ((58, 59), 16.74392324014588),
]


@pytest.mark.parametrize("theta, max_out, target", list(RECORDED_WIDE_THRESHOLD_RUNS))
def test_threshold_walk_in_mode_1_reproduces_the_recorded_search(theta, max_out, target):
    A, w = random_db(11, n_rows=300, n_items=60, density=0.3)
    _, res = run(A, w, theta, 4, 1, excl=[(3,)], target=target, max_out=max_out)
    out = outputs(res)
    searched, last = RECORDED_WIDE_THRESHOLD_RUNS[theta, max_out, target]
    assert (int(res[1]), len(out), float(res[9])) == searched
    assert out[:3] == RECORDED_WIDE_FIRST and out[-1] == last
