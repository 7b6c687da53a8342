"""Weighted bitsets as the traversal's cover, and the lowest-cost collector's heap (compiled).

The depth-first traversal (:mod:`._traverse`) runs over this cover with the
``LOWEST_COST`` collector for column generation's pricing; this module holds what is
particular to them: the layout and packing of the rows, the measurement of a cover AND an
item (:func:`_measure`), the listing and measuring of a node's children
(:func:`_bitset_children`), the cost bound of a child from its two parents
(:func:`_cost_bound_fails`) and the heap of the lowest costs (:func:`_insert`,
:func:`_threshold`).

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
    "measure_items",
    "measure_root",
    "pack_bit_rows",
    "pack_rows",
    "weighted_layout",
]


@njit(cache=True, nogil=True)
def _insert(heap_val, heap_items, heap_size, heap_n, rc, cur, size):
    """Keep the ``len(heap_val)`` smallest reduced costs (ties: the first met stays); the
    itemset is ``cur[1 : size + 1]`` (the traversal's stack of items)."""
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
        heap_items[slot, q] = cur[q + 1]


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
def _measure(A, ia, B, ib, blk_lo, blk_hi, blk_w, blk_pos, o_lo, o_hi, opw, onw):
    """Mass of the rows in both bitsets ``A[ia]`` and ``B[ib]``: (P, N, count).

    Rows of 2-d arrays rather than 1-d views, so the traversal's inner loop creates no
    array (whose reference counting it would otherwise pay for every child measured)."""
    P = 0.0
    N = 0.0
    C = 0
    for t in range(blk_lo.shape[0]):
        c = 0
        for w in range(blk_lo[t], blk_hi[t]):
            c += popcount(A[ia, w] & B[ib, w])
        C += c
        if blk_pos[t]:
            P += blk_w[t] * c
        else:
            N += blk_w[t] * c
    for w in range(o_lo, o_hi):
        x = A[ia, w] & B[ib, w]
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
    cov2 = np.empty((1, cov.shape[0]), dtype=np.uint64)
    cov2[0] = cov
    for k in range(m):
        P[k], N[k], C[k] = _measure(
            cov2, 0, bits, k, blk_lo, blk_hi, blk_w, blk_pos, o_lo, o_hi, opw, onw
        )
    return P, N, C


@njit(cache=True, nogil=True)
def measure_root(bits, layout, opw, onw):
    """The whole row set's mass and every item's (P, N, count): the search's first level."""
    blk_lo, blk_hi, blk_w, blk_pos, o_lo, o_hi = layout
    full = np.full((1, bits.shape[1]), ~np.uint64(0), dtype=np.uint64)
    tP, tN, tC = _measure(full, 0, full, 0, blk_lo, blk_hi, blk_w, blk_pos, o_lo, o_hi, opw, onw)
    P, N, C = measure_items(bits, layout, opw, onw, full[0])
    return tP, tN, tC, P, N, C


@njit(cache=True, nogil=True, inline="always")
def _cost_bound_fails(child_cost, per_term, Pj, Nj, Pk, Nk, NS, thr, leaf):
    """Whether the child ``S + j + k`` and (unless it is a ``leaf``) its supersets cost at
    least ``thr``, bounded from its two parents by inclusion-exclusion over S's cover:
    ``P <= min(P(S+j), P(S+k))`` and ``N >= N(S+j) + N(S+k) - N(S)``."""
    pk = min(Pj, Pk)
    lb_n = Nj + Nk - NS
    if lb_n < 0.0:
        lb_n = 0.0
    return child_cost + lb_n - pk >= thr and (leaf or child_cost + per_term - pk >= thr)


@njit(cache=True, nogil=True)
def _bitset_children(
    depth,
    leaves,
    jj,
    child_cost,
    per_term,
    thr,
    bits,
    cov,
    sp,
    sn,
    cnt,
    ch,
    db_n,
    db_c,
    nodes,
    blk_lo,
    blk_hi,
    blk_w,
    blk_pos,
    o_lo,
    o_hi,
    opw,
    onw,
):
    """List (in ``ch[depth]``) the children of the node at ``depth``, whose last item is
    ``jj`` and whose cover is ``cov[depth]``: the items after ``jj`` that its parent kept.

    Each is bounded from its two parents and kept only when it (or, unless they are
    ``leaves``, its supersets) can cost less than ``thr``. Leaves are then measured one by
    one in the walk, bounded again against the threshold of the moment; other children are
    measured here, their (P, N, count) going to ``sp``, ``sn``, ``cnt`` at ``depth`` (count
    0: not measured), and listed unless their cover is empty or equal to the node's (they
    and their supersets cost more than the node for the same rows). Returns the number
    listed and ``nodes`` plus the number measured."""
    pd = depth - 1
    m = bits.shape[0]
    k_ch = 0
    Pj = sp[pd, jj]
    Nj = sn[pd, jj]
    if leaves:
        # the threshold only falls, so a leaf bounded out now stays out
        for k in range(jj + 1, m):
            if cnt[pd, k] != 0 and not _cost_bound_fails(
                child_cost, per_term, Pj, Nj, sp[pd, k], sn[pd, k], db_n[pd], thr, True
            ):
                ch[depth, k_ch] = k
                k_ch += 1
        return k_ch, nodes
    Cj = db_c[depth]
    for k in range(jj + 1, m):
        if cnt[pd, k] == 0 or _cost_bound_fails(
            child_cost, per_term, Pj, Nj, sp[pd, k], sn[pd, k], db_n[pd], thr, False
        ):
            cnt[depth, k] = 0
            continue
        p, q, c = _measure(
            cov, depth, bits, k, blk_lo, blk_hi, blk_w, blk_pos, o_lo, o_hi, opw, onw
        )
        nodes += 1
        sp[depth, k] = p
        sn[depth, k] = q
        cnt[depth, k] = c
        if c != 0 and c != Cj:
            ch[depth, k_ch] = k
            k_ch += 1
    return k_ch, nodes


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
