"""The 0/1 design of column generation, one bit per cell, and a fold's rows without copies.

Column generation reads its design row by row (pricing packs the searched rows into
bitsets) and column by column (a conjunction's coverage). Stored one byte per cell, ten
million rows of 400 items take 4 GB; :class:`BitMatrix` keeps each row's items packed
eight to a byte (0.5 GB) and answers those two reads directly from the bits.

The inner cross-validation needs each fold's training rows as one contiguous block and
its validation rows as another. Copying them would add the size of the design once per
fold; :class:`FoldArrangement` instead permutes the rows in place so that the fold's
training rows come first, in their original order, then its validation rows, and hands
out views; :meth:`FoldArrangement.restore` puts the rows back.
"""

from __future__ import annotations

import functools

import numpy as np
from numba import njit

__all__ = ["BitMatrix", "FoldArrangement", "as_bit_matrix"]


# ---- one bit per cell -----------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _all_of(P, byte, mask):
    """Rows of the packed rows ``P`` in which every bit of ``mask[t]`` is set in byte
    ``byte[t]``, for every ``t``."""
    n = P.shape[0]
    out = np.ones(n, np.bool_)
    for i in range(n):
        for t in range(byte.size):
            if (P[i, byte[t]] & mask[t]) != mask[t]:
                out[i] = False
                break
    return out


@njit(cache=True, nogil=True)
def _column_sums(P, m):
    """How many rows hold each of the ``m`` items."""
    out = np.zeros(m, np.int64)
    for i in range(P.shape[0]):
        for b in range(P.shape[1]):
            v = P[i, b]
            k = 0
            while v:
                if v & 1:
                    out[b * 8 + k] += 1
                v >>= 1
                k += 1
    return out


class BitMatrix:
    """A 0/1 matrix of ``n_items`` columns stored one bit per cell.

    Parameters
    ----------
    packed : ndarray of shape (n_rows, ceil(n_items / 8)), uint8, C-contiguous
        Each row's items, item ``j`` in bit ``j % 8`` of byte ``j // 8``
        (``np.packbits(..., axis=1, bitorder="little")``).
    n_items : int
        The number of columns.
    """

    def __init__(self, packed: np.ndarray, n_items: int):
        self.packed = packed
        self.n_items = int(n_items)

    @classmethod
    def from_dense(cls, A, block_rows: int = 1 << 18) -> BitMatrix:
        """Pack a 0/1 matrix (any non-zero is 1), a block of rows at a time so that no
        temporary of the dense matrix's size is made."""
        A = np.asarray(A)
        n, m = A.shape
        packed = np.empty((n, (m + 7) // 8), dtype=np.uint8)
        for a in range(0, n, block_rows):
            packed[a : a + block_rows] = np.packbits(
                A[a : a + block_rows] != 0, axis=1, bitorder="little"
            )
        return cls(packed, m)

    @property
    def shape(self) -> tuple[int, int]:
        return (self.packed.shape[0], self.n_items)

    def all_of(self, items) -> np.ndarray:
        """Rows in which every one of ``items`` is 1 (every row for no items)."""
        # a conjunction has a few items: its byte masks are cheaper built in Python than
        # by numpy's per-call overhead, which dominated small fits
        masks: dict[int, int] = {}
        for j in items:
            j = int(j)
            if not 0 <= j < self.n_items:
                raise IndexError(f"item {j} outside 0..{self.n_items - 1}")
            masks[j >> 3] = masks.get(j >> 3, 0) | (1 << (j & 7))
        byte = np.fromiter(masks.keys(), dtype=np.int64, count=len(masks))
        mask = np.fromiter(masks.values(), dtype=np.uint8, count=len(masks))
        return _all_of(self.packed, byte, mask)

    @functools.cached_property
    def column_sums(self) -> np.ndarray:
        """How many rows hold each item (computed once)."""
        return _column_sums(self.packed, self.n_items)

    def dense(self, rows=None) -> np.ndarray:
        """The rows ``rows`` (all by default) one byte per cell."""
        P = self.packed if rows is None else self.packed[rows]
        return np.unpackbits(P, axis=1, count=self.n_items, bitorder="little")


def as_bit_matrix(A) -> BitMatrix:
    """``A`` as a :class:`BitMatrix` (packed if it is a 0/1 array)."""
    return A if isinstance(A, BitMatrix) else BitMatrix.from_dense(A)


def all_of(A, items) -> np.ndarray:
    """Rows of ``A`` (a 0/1 array or a :class:`BitMatrix`) in which every item is 1."""
    if isinstance(A, BitMatrix):
        return A.all_of(items)
    items = list(items)
    return A[:, items].all(axis=1) if items else np.ones(A.shape[0], dtype=bool)


# ---- a fold's rows as views -------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _permute_rows(A, p):
    """``A[:] = A[p]`` in place, by following the permutation's cycles with one spare row."""
    n = A.shape[0]
    done = np.zeros(n, np.bool_)
    spare = np.empty(A.shape[1], A.dtype)
    for i in range(n):
        if done[i]:
            continue
        done[i] = True
        if p[i] == i:
            continue
        spare[:] = A[i]
        j = i
        while True:
            k = p[j]
            if k == i:
                A[j] = spare
                break
            A[j] = A[k]
            done[k] = True
            j = k


class FoldArrangement:
    """Rearranges the rows of a matrix (in place) fold by fold; :meth:`restore` undoes it.

    Parameters
    ----------
    A : ndarray of shape (n_rows, n_columns), C-contiguous, or BitMatrix
        The matrix whose rows are moved. Nothing else may read it between :meth:`split`
        and :meth:`restore` except through the views :meth:`split` returns.
    """

    def __init__(self, A):
        self.bits = A if isinstance(A, BitMatrix) else None
        self.rows = A.packed if self.bits is not None else A
        if not self.rows.flags["C_CONTIGUOUS"]:
            raise ValueError("FoldArrangement needs a C-contiguous matrix")
        self.order = np.arange(self.rows.shape[0])  # original row of each current row

    def _arrange(self, wanted: np.ndarray) -> None:
        # current row r holds original row order[r]; to hold original row wanted[r] it
        # takes the current row where that one sits now
        where = np.empty_like(self.order)
        where[self.order] = np.arange(self.order.size)
        _permute_rows(self.rows, where[wanted])
        self.order = wanted

    def _wrap(self, rows: np.ndarray):
        return rows if self.bits is None else BitMatrix(rows, self.bits.n_items)

    def split(self, train: np.ndarray, valid: np.ndarray):
        """The rows ``train`` and the rows ``valid`` (original row numbers, each in the
        order given), as views when the two are disjoint; copies (in the original order)
        when they share rows, as some custom splitters allow."""
        train, valid = np.asarray(train, np.int64), np.asarray(valid, np.int64)
        n = self.rows.shape[0]
        named = np.zeros(n, np.int64)
        np.add.at(named, train, 1)
        np.add.at(named, valid, 1)
        if named.max(initial=0) > 1:
            self.restore()
            return self._wrap(self.rows[train]), self._wrap(self.rows[valid])
        # rows in neither block go last, out of the way
        self._arrange(np.concatenate([train, valid, np.flatnonzero(named == 0)]))
        a, b = train.size, train.size + valid.size
        return self._wrap(self.rows[:a]), self._wrap(self.rows[a:b])

    def restore(self) -> None:
        """Put every row back where it was."""
        if not np.array_equal(self.order, np.arange(self.order.size)):
            self._arrange(np.arange(self.rows.shape[0]))
