"""Lowest-cost itemsets over weighted bitsets: the best-reduced-cost collector (compiled).

Rows carry a positive weight (``P``, a dual gained when the itemset covers the row) or a
negative one (``N``, a cost paid), and an itemset S of at most ``max_terms`` items costs::

    cost(S) = fixed + per_term * |S| + N(cover(S)) - P(cover(S))

A superset covers a subset of S's rows, so every strict superset costs at least
``fixed + per_term * (|S| + 1) - P(cover(S))``: the depth-first search prunes a subtree as
soon as that bound reaches the threshold, which is the pricing problem of column
generation for rule sets (the reduced cost of a conjunction under the master LP's duals).

Rows are held as bitsets, laid out in word-aligned blocks of equal weight
(:func:`weighted_layout`): in a covering LP most duals are exactly 0 or the row's weight, so
a block's mass is its weight times a popcount. Rows of rarer weights go to a last, "other"
block, read bit by bit with their own weights.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._bits import popcount

__all__ = [
    "lowest_cost_search",
    "measure_items",
    "measure_root",
    "pack_bit_rows",
    "pack_rows",
    "weighted_layout",
]


@njit(cache=True, nogil=True)
def _insert(heap_val, heap_items, heap_size, heap_n, rc, chosen, size):
    """Keep the ``len(heap_val)`` smallest reduced costs (ties: the first met stays)."""
    cap = heap_val.shape[0]
    if heap_n[0] < cap:
        slot = heap_n[0]
        heap_n[0] += 1
    else:
        slot = 0
        for t in range(1, cap):
            if heap_val[t] > heap_val[slot]:
                slot = t
        if rc >= heap_val[slot]:
            return
    heap_val[slot] = rc
    heap_size[slot] = size
    for q in range(size):
        heap_items[slot, q] = chosen[q]


@njit(cache=True, nogil=True)
def _threshold(tau, heap_val, heap_n):
    if heap_n[0] < heap_val.shape[0]:
        return tau
    worst = heap_val[0]
    for t in range(1, heap_val.shape[0]):
        if heap_val[t] > worst:
            worst = heap_val[t]
    return min(tau, worst)


@njit(cache=True, nogil=True, inline="always")
def _measure(a, b, out, write, blk_lo, blk_hi, blk_w, blk_pos, o_lo, o_hi, opw, onw):
    """Mass of the rows in both bitsets ``a`` and ``b``: (P, N, count); ``out = a & b``."""
    P = 0.0
    N = 0.0
    C = 0
    for t in range(blk_lo.shape[0]):
        c = 0
        for w in range(blk_lo[t], blk_hi[t]):
            x = a[w] & b[w]
            if write:
                out[w] = x
            c += popcount(x)
        C += c
        if blk_pos[t]:
            P += blk_w[t] * c
        else:
            N += blk_w[t] * c
    for w in range(o_lo, o_hi):
        x = a[w] & b[w]
        if write:
            out[w] = x
        base = (w - o_lo) << 6
        while x:
            low = x & (~x + np.uint64(1))
            r = base + popcount(low - np.uint64(1))
            P += opw[r]
            N += onw[r]
            C += 1
            x ^= low
    return P, N, C


@njit(cache=True, nogil=True)
def measure_items(bits, layout, opw, onw, cov):
    """(P, N, count) of ``cov`` AND each item: the children of one itemset, measured."""
    blk_lo, blk_hi, blk_w, blk_pos, o_lo, o_hi = layout
    m = bits.shape[0]
    P = np.zeros(m)
    N = np.zeros(m)
    C = np.zeros(m, dtype=np.int64)
    dummy = np.empty(0, dtype=np.uint64)
    for k in range(m):
        P[k], N[k], C[k] = _measure(
            cov, bits[k], dummy, False, blk_lo, blk_hi, blk_w, blk_pos, o_lo, o_hi, opw, onw
        )
    return P, N, C


@njit(cache=True, nogil=True)
def measure_root(bits, layout, opw, onw):
    """The whole row set's mass and every item's (P, N, count): the search's first level."""
    blk_lo, blk_hi, blk_w, blk_pos, o_lo, o_hi = layout
    full = np.full(bits.shape[1], ~np.uint64(0), dtype=np.uint64)
    dummy = np.empty(0, dtype=np.uint64)
    tP, tN, tC = _measure(
        full, full, dummy, False, blk_lo, blk_hi, blk_w, blk_pos, o_lo, o_hi, opw, onw
    )
    P, N, C = measure_items(bits, layout, opw, onw, full)
    return tP, tN, tC, P, N, C


@njit(cache=True, nogil=True)
def lowest_cost_search(
    bits,
    layout,
    opw,
    onw,
    root,
    root_lo,
    root_hi,
    max_terms,
    fixed,
    per_term,
    tau,
    heap_val,
    heap_items,
    heap_size,
    heap_n,
    max_nodes,
    stop_when_full,
):
    """Depth-first search for the itemsets of lowest cost below ``tau``, first item in
    [root_lo, root_hi).

    ``bits`` are the items' bitsets over the rows of ``layout`` (:func:`weighted_layout`,
    :func:`pack_rows`), ``root`` is :func:`measure_root`'s output. The lowest costs found
    are kept in the heap (``heap_val``, ``heap_items``, ``heap_size``, ``heap_n[0]`` held;
    its capacity is ``len(heap_val)``, and ties keep the first met), which the caller may
    carry over from one call to the next (a search split by first item). The threshold is
    ``tau`` until the heap is full, then the heap's worst cost. ``stop_when_full`` stops
    the search as soon as the heap is full; ``max_nodes`` bounds the itemsets measured.

    Returns (nodes measured, finished). Children of a node take items after its last one,
    so every itemset is met once; a child whose cover equals its parent's is skipped (it
    and its supersets cost more than the parent for the same rows). A node's children are
    measured together, so a child ``S+j+k`` is first bounded by inclusion-exclusion from
    its two parents (``P <= min(P(S+j), P(S+k))``, ``N >= N(S+j) + N(S+k) - N(S)``) and
    only measured when it or its supersets can fall below the threshold.
    """
    blk_lo, blk_hi, blk_w, blk_pos, o_lo, o_hi = layout
    m, n_words = bits.shape
    L = max_terms + 1
    cov = np.empty((L, n_words), dtype=np.uint64)
    nxt = np.zeros(L, dtype=np.int64)
    NS = np.zeros(L)
    CS = np.zeros(L, dtype=np.int64)
    P = np.zeros((L, m))
    N = np.zeros((L, m))
    C = np.zeros((L, m), dtype=np.int64)
    chosen = np.zeros(max_terms, dtype=np.int64)
    cov[0, :] = ~np.uint64(0)
    dummy = np.empty(0, dtype=np.uint64)
    NS[0] = root[1]
    CS[0] = root[2]
    P[0] = root[3]
    N[0] = root[4]
    C[0] = root[5]
    nodes = 0
    nxt[0] = root_lo
    d = 0
    while True:
        lim = root_hi if d == 0 else m
        j = nxt[d]
        if j >= lim:
            if d == 0:
                break
            d -= 1
            continue
        nxt[d] = j + 1
        Pj = P[d, j]
        Nj = N[d, j]
        Cj = C[d, j]
        if Cj == 0 or (d > 0 and Cj == CS[d]):
            continue
        size = d + 1
        chosen[d] = j
        rc = fixed + per_term * size + Nj - Pj
        thr = _threshold(tau, heap_val, heap_n)
        if rc < thr:
            _insert(heap_val, heap_items, heap_size, heap_n, rc, chosen, size)
            thr = _threshold(tau, heap_val, heap_n)
            if stop_when_full and heap_n[0] == heap_val.shape[0]:
                return nodes, False
        if size >= max_terms or fixed + per_term * (size + 1) - Pj >= thr:
            continue
        for w in range(n_words):
            cov[d + 1, w] = cov[d, w] & bits[j, w]
        NS[d + 1] = Nj
        CS[d + 1] = Cj
        child_cost = fixed + per_term * (size + 1)
        leaves = size + 1 == max_terms
        for k in range(j + 1, m):
            if C[d, k] == 0:
                C[d + 1, k] = 0
                continue
            pk = min(Pj, P[d, k])
            lb_n = Nj + N[d, k] - NS[d]
            if lb_n < 0.0:
                lb_n = 0.0
            if child_cost + lb_n - pk >= thr and (leaves or child_cost + per_term - pk >= thr):
                C[d + 1, k] = 0
                continue
            p, q, c = _measure(
                cov[d + 1],
                bits[k],
                dummy,
                False,
                blk_lo,
                blk_hi,
                blk_w,
                blk_pos,
                o_lo,
                o_hi,
                opw,
                onw,
            )
            nodes += 1
            if leaves:
                if c == 0 or c == Cj:
                    continue
                rc = child_cost + q - p
                if rc < thr:
                    chosen[d + 1] = k
                    _insert(heap_val, heap_items, heap_size, heap_n, rc, chosen, size + 1)
                    thr = _threshold(tau, heap_val, heap_n)
                    if stop_when_full and heap_n[0] == heap_val.shape[0]:
                        return nodes, False
            else:
                P[d + 1, k] = p
                N[d + 1, k] = q
                C[d + 1, k] = c
        if nodes >= max_nodes:
            return nodes, False
        if not leaves:
            nxt[d + 1] = j + 1
            d += 1
    return nodes, True


def weighted_layout(rows, mu_pos, cost_neg):
    """Order the rows ``rows`` in word-aligned blocks of equal (sign, weight).

    ``mu_pos`` and ``cost_neg`` are per-row weights (a row is positive where ``mu_pos > 0``).
    Returns (order, layout, opw, onw): ``order`` the rows in search order with ``-1`` for
    padding, ``layout`` the block bounds (in words), weights and signs, and ``opw``,
    ``onw`` the weights of the rows of the last, "other" block.
    """
    is_pos = mu_pos[rows] > 0
    weight = np.where(is_pos, mu_pos[rows], cost_neg[rows])
    keys = np.round(weight, 12) * np.where(is_pos, 1.0, -1.0)
    values, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
    order, lo, hi, wts, pos = [], [], [], [], []
    word = 0
    other = []
    for g in np.argsort(-counts, kind="stable"):
        members = rows[inverse == g]
        if counts[g] < 64 or values[g] == 0.0:
            other.append(members)
            continue
        n_words = (members.size + 63) // 64
        order.append(np.concatenate([members, np.full(n_words * 64 - members.size, -1)]))
        lo.append(word)
        hi.append(word + n_words)
        wts.append(abs(values[g]))
        pos.append(values[g] > 0)
        word += n_words
    other = np.concatenate(other) if other else np.zeros(0, dtype=np.int64)
    n_other = (other.size + 63) // 64
    order.append(np.concatenate([other, np.full(n_other * 64 - other.size, -1)]))
    order = np.concatenate(order).astype(np.int64)
    tail = order[word * 64 :]
    opw = np.where(tail >= 0, mu_pos[np.maximum(tail, 0)], 0.0)
    onw = np.where(tail >= 0, cost_neg[np.maximum(tail, 0)], 0.0)
    layout = (
        np.array(lo, dtype=np.int64),
        np.array(hi, dtype=np.int64),
        np.array(wts, dtype=np.float64),
        np.array(pos, dtype=np.bool_),
        word,
        word + n_other,
    )
    return order, layout, opw, onw


def pack_rows(A, order) -> np.ndarray:
    """The columns of the 0/1 matrix ``A`` as bitsets over the rows ``order`` (bit ``p`` is
    row ``order[p]``; ``-1`` pads): (n_items, n_words) uint64. Packs ``A`` eight cells to
    a byte first and then reads it as :func:`pack_bit_rows` does."""
    A = np.asarray(A)
    packed = np.packbits(A != 0, axis=1, bitorder="little")
    return pack_bit_rows(packed, A.shape[1], np.asarray(order, dtype=np.int64))


@njit(cache=True, nogil=True)
def pack_bit_rows(P, m, order):
    """The ``m`` items of the packed rows ``P`` (item ``j`` in bit ``j % 8`` of byte
    ``j // 8``) as bitsets over the rows ``order`` (bit ``p`` is row ``order[p]``; ``-1``
    pads): (m, n_words) uint64, read from the bits without unpacking them."""
    n_words = max((order.shape[0] + 63) // 64, 1)
    out = np.zeros((m, n_words), dtype=np.uint64)
    for p in range(order.shape[0]):
        r = order[p]
        if r < 0:
            continue
        w = p >> 6
        bit = np.uint64(1) << np.uint64(p & 63)
        for b in range(P.shape[1]):
            v = P[r, b]
            k = 0
            while v:
                if v & 1:
                    out[b * 8 + k, w] |= bit
                v >>= 1
                k += 1
    return out
