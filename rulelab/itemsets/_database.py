"""Transaction databases prepared for a search: rows dropped, items cut, duplicates merged.

Identical transactions (rows of a 0/1 matrix) are recognised by a 64-bit sum of random item
codes through an open-addressing hash table and confirmed item by item, so merging costs
one pass over the data.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["reduce_db", "group_rows", "same_run"]


@njit(cache=True, nogil=True, inline="always")
def same_run(a, a0, b, b0, n):
    """Whether ``a[a0:a0 + n]`` equals ``b[b0:b0 + n]`` (two transactions' items)."""
    for z in range(n):
        if a[a0 + z] != b[b0 + z]:
            return False
    return True


@njit(cache=True, nogil=True)
def reduce_db(indptr, indices, wpos, wneg, n_items, rank_items, theta, mode, merge, codes):
    """Prepare a search: drop zero-weight rows and items that cannot pass, merge rows.

    ``indices`` hold item *ranks* (0 = rarest), sorted in every row; ``rank_items[r]`` is
    the column of rank r. Items with P <= theta (and N <= theta in mode 1) are dropped:
    no itemset containing them can pass. Returns indptr, indices (new ids, sorted), wpos,
    wneg and the column of each new id.
    """
    m = indptr.shape[0] - 1
    P = np.zeros(n_items)
    N = np.zeros(n_items)
    occurs = np.zeros(n_items, dtype=np.bool_)
    for t in range(m):
        a = wpos[t]
        b = wneg[t]
        if a == 0.0 and b == 0.0 and mode != 2:
            continue
        for q in range(indptr[t], indptr[t + 1]):
            r = indices[q]
            P[r] += a
            N[r] += b
            occurs[r] = True
    newid = np.full(n_items, -1, dtype=np.int64)
    n_new = 0
    for r in range(n_items):
        if occurs[r] and (P[r] > theta or (mode == 1 and N[r] > theta) or mode == 2):
            newid[r] = n_new
            n_new += 1
    cols = np.empty(n_new, dtype=np.int64)
    for r in range(n_items):
        if newid[r] >= 0:
            cols[newid[r]] = rank_items[r]
    out_ptr = np.zeros(m + 1, dtype=np.int64)
    out_idx = np.empty(indices.shape[0], dtype=np.int32)
    out_wp = np.empty(m)
    out_wn = np.empty(m)
    hsh = np.empty(m, dtype=np.uint64)
    size_t = 1
    while size_t < 2 * max(m, 1):
        size_t *= 2
    table = np.full(size_t if merge else 1, -1, dtype=np.int64)
    mask = np.uint64(size_t - 1)
    nt = 0
    w_ = 0
    for t in range(m):
        a = wpos[t]
        b = wneg[t]
        if a == 0.0 and b == 0.0 and mode != 2:
            continue
        s0 = w_
        h = np.uint64(0)
        for q in range(indptr[t], indptr[t + 1]):
            j = newid[indices[q]]
            if j >= 0:
                out_idx[w_] = j
                w_ += 1
                h += codes[j] * np.uint64(2654435761) + np.uint64(j)
        if merge:
            slot = h & mask
            found = -1
            while True:
                g = table[slot]
                if g < 0:
                    table[slot] = nt
                    break
                if (
                    hsh[g] == h
                    and out_ptr[g + 1] - out_ptr[g] == w_ - s0
                    and same_run(out_idx, out_ptr[g], out_idx, s0, w_ - s0)
                ):
                    found = g
                    break
                slot = (slot + np.uint64(1)) & mask
            if found >= 0:
                out_wp[found] += a
                out_wn[found] += b
                w_ = s0
                continue
        hsh[nt] = h
        out_wp[nt] = a
        out_wn[nt] = b
        nt += 1
        out_ptr[nt] = w_
    if merge and mode != 2:
        for g in range(nt):
            d = out_wp[g] - out_wn[g]
            out_wp[g] = d if d > 0.0 else 0.0
            out_wn[g] = -d if d < 0.0 else 0.0
    return out_ptr[: nt + 1], out_idx[:w_], out_wp[:nt], out_wn[:nt], cols


@njit(cache=True, nogil=True)
def group_rows(indptr, indices, label, codes):
    """Group identical rows of a CSR matrix (sorted indices) that also share their label.

    Returns (group of every row, numbered in order of first appearance; the first row of
    each group; the size of each group). Rows are matched by a 64-bit sum of item codes
    through an open-addressing table and confirmed item by item.
    """
    m = indptr.shape[0] - 1
    size_t = 1
    while size_t < 2 * max(m, 1):
        size_t *= 2
    table = np.full(size_t, -1, dtype=np.int64)
    mask = np.uint64(size_t - 1)
    group = np.empty(m, dtype=np.int64)
    first = np.empty(m, dtype=np.int64)
    count = np.zeros(m, dtype=np.int64)
    hsh = np.empty(m, dtype=np.uint64)
    n_groups = 0
    for t in range(m):
        h = np.uint64(label[t]) * np.uint64(0x9E3779B97F4A7C15)
        for q in range(indptr[t], indptr[t + 1]):
            h += codes[indices[q]]
        slot = h & mask
        g = -1
        while True:
            cand = table[slot]
            if cand < 0:
                break
            u = first[cand]
            n = indptr[t + 1] - indptr[t]
            if (
                hsh[cand] == h
                and label[u] == label[t]
                and indptr[u + 1] - indptr[u] == n
                and same_run(indices, indptr[u], indices, indptr[t], n)
            ):
                g = cand
                break
            slot = (slot + np.uint64(1)) & mask
        if g < 0:
            g = n_groups
            n_groups += 1
            table[slot] = g
            first[g] = t
            hsh[g] = h
        group[t] = g
        count[g] += 1
    return group, first[:n_groups].copy(), count[:n_groups].copy()
