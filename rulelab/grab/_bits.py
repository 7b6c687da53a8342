"""Conjunctions evaluated on bit-packed columns (64 rows per word), compiled.

Used to build the columns of newly selected features and to compute f(x) = sum_phi
w_phi phi(x) for prediction: a conjunction of |p| items costs |p| * n_rows / 64 word ANDs.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .wfim import TransactionMatrix


def pack_columns(db: TransactionMatrix) -> np.ndarray:
    """Item columns as bitsets: array (n_items, n_words) of uint64."""
    n_words = (db.n_rows + 63) // 64
    return _pack(db.csc.indptr.astype(np.int64), db.csc.indices.astype(np.int64),
                 db.n_items, n_words)


@njit(cache=True)
def _pack(indptr, indices, n_items, n_words):
    bits = np.zeros((n_items, n_words), dtype=np.uint64)
    for j in range(n_items):
        for q in range(indptr[j], indptr[j + 1]):
            i = indices[q]
            bits[j, i >> 6] |= np.uint64(1) << np.uint64(i & 63)
    return bits


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
                r = (b << 6) + _ctz(low)
                if r < n_rows:
                    f[r] += w
                x ^= low
    return f


@njit(cache=True, inline="always")
def _ctz(low):
    # index of the single set bit in `low`
    n = 0
    if low & np.uint64(0xFFFFFFFF) == 0:
        n += 32
        low >>= np.uint64(32)
    if low & np.uint64(0xFFFF) == 0:
        n += 16
        low >>= np.uint64(16)
    if low & np.uint64(0xFF) == 0:
        n += 8
        low >>= np.uint64(8)
    if low & np.uint64(0xF) == 0:
        n += 4
        low >>= np.uint64(4)
    if low & np.uint64(0x3) == 0:
        n += 2
        low >>= np.uint64(2)
    if low & np.uint64(0x1) == 0:
        n += 1
    return n


@njit(cache=True)
def columns(bits, n_rows, ptr, items):
    """Row indices of every conjunction, as CSC arrays (col_ptr, rows)."""
    n_words = bits.shape[1]
    n_feat = ptr.shape[0] - 1
    acc = np.empty((n_feat, n_words), dtype=np.uint64)
    full = ~np.uint64(0)
    col_ptr = np.zeros(n_feat + 1, dtype=np.int64)
    for c in range(n_feat):
        acc[c, :] = full
        for q in range(ptr[c], ptr[c + 1]):
            j = items[q]
            for b in range(n_words):
                acc[c, b] &= bits[j, b]
        cnt = 0
        for b in range(n_words):
            x = acc[c, b]
            while x:
                low = x & (~x + np.uint64(1))
                if (b << 6) + _ctz(low) < n_rows:
                    cnt += 1
                x ^= low
        col_ptr[c + 1] = col_ptr[c] + cnt
    rows = np.empty(col_ptr[n_feat], dtype=np.int32)
    for c in range(n_feat):
        o = col_ptr[c]
        for b in range(n_words):
            x = acc[c, b]
            while x:
                low = x & (~x + np.uint64(1))
                r = (b << 6) + _ctz(low)
                if r < n_rows:
                    rows[o] = r
                    o += 1
                x ^= low
    return col_ptr, rows
