"""Conjunctions evaluated on bit-packed columns (64 rows per word), compiled.

Used to build the columns of newly selected features and to compute f(x) = sum_phi
w_phi phi(x) for prediction: a conjunction of |p| items costs |p| * n_rows / 64 word ANDs.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..itemsets import ctz, grow, pack_bitsets, popcount
from .wfim import TransactionMatrix


def pack_columns(db: TransactionMatrix) -> np.ndarray:
    """Item columns as bitsets: array (n_items, n_words) of uint64."""
    n_words = (db.n_rows + 63) // 64
    return pack_bitsets(
        db.csc.indptr.astype(np.int64), db.csc.indices.astype(np.int64), db.n_items, n_words
    )


def flatten(itemsets):
    """List of tuples -> (ptr, items) int64 arrays."""
    ptr = np.zeros(len(itemsets) + 1, dtype=np.int64)
    ptr[1:] = np.cumsum([len(p) for p in itemsets])
    items = np.fromiter((j for p in itemsets for j in p), dtype=np.int64, count=int(ptr[-1]))
    return ptr, items


@njit(cache=True)
def decision(bits, n_rows, ptr, items, coef):
    """f_i = sum over features of coef * [row i contains every item of the feature]."""
    n_words = bits.shape[1]
    f = np.zeros(n_rows)
    acc = np.empty(n_words, dtype=np.uint64)
    full = ~np.uint64(0)
    for c in range(ptr.shape[0] - 1):
        w = coef[c]
        if w == 0.0:
            continue
        acc[:] = full
        for q in range(ptr[c], ptr[c + 1]):
            j = items[q]
            for b in range(n_words):
                acc[b] &= bits[j, b]
        for b in range(n_words):
            x = acc[b]
            while x:
                low = x & (~x + np.uint64(1))
                r = (b << 6) + ctz(low)
                if r < n_rows:
                    f[r] += w
                x ^= low
    return f


@njit(cache=True)
def append_columns(bits, n_rows, ptr, items, rows, end):
    """Append the row indices of every conjunction to ``rows`` from position ``end``.

    ``rows`` is grown (doubled, copied) only when it is too short, so a caller that keeps
    appending can reserve a large buffer once: pages that are never written cost nothing.
    Returns (rows, col_ptr) with ``col_ptr`` the new columns' bounds in ``rows``.
    """
    n_words = bits.shape[1]
    n_feat = ptr.shape[0] - 1
    acc = np.empty(n_words, dtype=np.uint64)
    full = ~np.uint64(0)
    if n_rows & 63:
        # the last word's padding bits are never rows
        last = (np.uint64(1) << np.uint64(n_rows & 63)) - np.uint64(1)
    else:
        last = full
    col_ptr = np.empty(n_feat + 1, dtype=np.int64)
    col_ptr[0] = end
    o = end
    for c in range(n_feat):
        acc[:] = full
        for q in range(ptr[c], ptr[c + 1]):
            j = items[q]
            for b in range(n_words):
                acc[b] &= bits[j, b]
        if n_words:
            acc[n_words - 1] &= last
        cnt = 0
        for b in range(n_words):
            cnt += popcount(acc[b])
        rows = grow(rows, o + cnt)
        for b in range(n_words):
            x = acc[b]
            base = b << 6
            while x:
                low = x & (~x + np.uint64(1))
                rows[o] = base + ctz(low)
                o += 1
                x ^= low
        col_ptr[c + 1] = o
    return rows, col_ptr


def columns(bits, n_rows, ptr, items):
    """Row indices of every conjunction, as CSC arrays (col_ptr, rows)."""
    rows, col_ptr = append_columns(bits, n_rows, ptr, items, np.empty(0, dtype=np.int32), 0)
    return col_ptr, rows[: col_ptr[-1]]
