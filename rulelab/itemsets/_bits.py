"""Bit and buffer primitives shared by every itemset kernel (compiled).

A set of rows is a bitset of ``uint64`` words, 64 rows a word; these helpers count and
walk its bits without a loop over the 64 positions, and grow the output buffers of the
searches, whatever their dtype.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["ctz", "popcount", "grow", "pack_bitsets"]

# De Bruijn multiplication: the index of the lowest set bit of a word without a loop
# (the top 6 bits of DEBRUIJN << i differ for every i, so they index a table)
_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
_DEBRUIJN_INDEX = np.empty(64, dtype=np.int64)
_DEBRUIJN_INDEX[[((int(_DEBRUIJN) << i) & (2**64 - 1)) >> 58 for i in range(64)]] = np.arange(64)


@njit(cache=True, inline="always")
def ctz(low):
    """Index of the single set bit of ``low`` (a word with one bit set, ``x & -x``)."""
    return _DEBRUIJN_INDEX[(low * _DEBRUIJN) >> np.uint64(58)]


@njit(cache=True, inline="always")
def popcount(x):
    """Number of set bits of the ``uint64`` word ``x`` (SWAR: no table, no loop)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (x * np.uint64(0x0101010101010101)) >> np.uint64(56)


@njit(cache=True, nogil=True)
def grow(a, need):
    """``a`` itself when it holds ``need`` entries, else a copy at least twice as long.

    The searches append outputs one at a time; doubling keeps that linear overall. The
    entries past the old length are uninitialised: callers write before they read.
    """
    if need <= a.shape[0]:
        return a
    b = np.empty(max(need, 2 * a.shape[0]), dtype=a.dtype)
    b[: a.shape[0]] = a
    return b


@njit(cache=True)
def pack_bitsets(indptr, indices, n_items, n_words):
    """Item columns of a CSC 0/1 matrix as bitsets: array (n_items, n_words) of uint64."""
    bits = np.zeros((n_items, n_words), dtype=np.uint64)
    for j in range(n_items):
        for q in range(indptr[j], indptr[j + 1]):
            i = indices[q]
            bits[j, i >> 6] |= np.uint64(1) << np.uint64(i & 63)
    return bits
