"""Naive feature selection of Section 5.1: the gradient of every conjunction in Phi(d, k).

Lee, Matsushima & Yamanishi's baseline "Grafting + Naive feature selection" computes the
gradient (8) of every feature phi in Phi(d, k) -- every conjunction of at most k of the d
attributes, whether or not it occurs in the data -- and keeps those with
``|sum_{i: phi(x_i)=1} alpha_i| > 1``. :class:`PhiScan` does exactly that: it enumerates the
sum_{s<=k} C(d, s) conjunctions in lexicographic order and evaluates each from its own
columns (bit-packed, 64 rows a word: |phi| - 1 word ANDs per word of rows, then the
weights of the rows left), with nothing pruned and nothing shared between conjunctions.
GRAB's point is that weighted frequent itemset mining avoids this scan.

The scan is split by the conjunctions' first attribute, so a time limit is checked between
parts (:attr:`PhiScan.timed_out` says that a call stopped early; its output is then a
partial scan).
"""

from __future__ import annotations

import time
from math import comb

import numpy as np
from numba import njit

from ..itemsets import ctz
from ._bits import pack_columns
from .wfim import Itemsets, TransactionMatrix, _weights

__all__ = ["PhiScan", "phi_size"]


def phi_size(d: int, k: int | None) -> int:
    """|Phi(d, k)|: conjunctions of at most k of d attributes, the empty one included."""
    k = d if k is None else min(k, d)
    return sum(comb(d, s) for s in range(k + 1))


@njit(cache=True)
def _scan_first(
    bits, alpha, n_rows, first, k, codes, excl_sorted, out_vals, out_keys, out_cols, n_out
):
    """Every conjunction whose smallest attribute is ``first`` (size 1..k); appends those
    with |gradient| > 1 not in ``excl_sorted`` to the output arrays (grown when full)."""
    d, n_words = bits.shape
    acc = np.empty(n_words, dtype=np.uint64)
    idx = np.empty(k, dtype=np.int64)
    last = ~np.uint64(0)
    if n_rows & 63:
        last = (np.uint64(1) << np.uint64(n_rows & 63)) - np.uint64(1)
    n_visited = 0
    for size in range(1, k + 1):
        if first + size > d:
            break
        idx[0] = first
        for s in range(1, size):
            idx[s] = first + s
        while True:
            n_visited += 1
            # the conjunction idx[:size], from its own columns
            for b in range(n_words):
                acc[b] = bits[idx[0], b]
            for s in range(1, size):
                j = idx[s]
                for b in range(n_words):
                    acc[b] &= bits[j, b]
            acc[n_words - 1] &= last
            g = 0.0
            for b in range(n_words):
                x = acc[b]
                base = b << 6
                while x:
                    low = x & (~x + np.uint64(1))
                    g += alpha[base + ctz(low)]
                    x ^= low
            if abs(g) > 1.0:
                key = np.uint64(0)
                for s in range(size):
                    key ^= codes[idx[s]]
                pos = np.searchsorted(excl_sorted, key)
                if not (pos < excl_sorted.shape[0] and excl_sorted[pos] == key):
                    if n_out >= out_vals.shape[0]:
                        grow = 2 * out_vals.shape[0]
                        v2 = np.empty(grow, dtype=np.float64)
                        k2 = np.empty(grow, dtype=np.uint64)
                        c2 = np.full((grow, out_cols.shape[1]), -1, dtype=np.int64)
                        v2[:n_out] = out_vals[:n_out]
                        k2[:n_out] = out_keys[:n_out]
                        c2[:n_out] = out_cols[:n_out]
                        out_vals, out_keys, out_cols = v2, k2, c2
                    out_vals[n_out] = g
                    out_keys[n_out] = key
                    for s in range(size):
                        out_cols[n_out, s] = idx[s]
                    n_out += 1
            # next combination of size `size` with idx[0] fixed at `first`
            s = size - 1
            while s >= 1 and idx[s] == d - size + s:
                s -= 1
            if s < 1:
                break
            idx[s] += 1
            for t in range(s + 1, size):
                idx[t] = idx[t - 1] + 1
    return out_vals, out_keys, out_cols, n_out, n_visited


class PhiScan:
    """Naive feature search over all of Phi(d, k) (same interface as
    :class:`~rulelab.grab.wfim.ExhaustiveSearch`).

    Parameters
    ----------
    X : 0/1 matrix or :class:`TransactionMatrix`
    max_size : int
        k, the largest conjunction (None: every attribute, feasible only for tiny d).
    top_k : int
        How many of the violators :meth:`search` returns as the selection.
    deadline : float, optional
        A ``time.perf_counter()`` value after which a call stops between parts.
    """

    def __init__(self, X, max_size, top_k: int, deadline: float | None = None):
        self.db = TransactionMatrix(X)
        self.max_size = self.db.n_items if max_size is None else int(max_size)
        self.top_k = int(top_k)
        self.deadline = deadline
        self.bits = pack_columns(self.db)
        self.M = 0
        self.n_calls = 0
        self.n_visited = 0
        self.timed_out = False

    def search(self, weights, exclude_keys=None):
        wpos, wneg = _weights(self.db, weights)
        alpha = wpos - wneg
        excl = np.sort(
            np.asarray(exclude_keys if exclude_keys is not None else [], dtype=np.uint64)
        )
        self.n_calls += 1
        k = max(self.max_size, 1)
        vals = np.empty(1024, dtype=np.float64)
        keys = np.empty(1024, dtype=np.uint64)
        cols = np.full((1024, k), -1, dtype=np.int64)
        n_out = 0
        # the empty conjunction (the bias) covers every row
        g0 = float(alpha.sum())
        if abs(g0) > 1.0 and not (excl.size and excl[0] == 0):  # key 0 sorts first
            vals[0], keys[0], n_out = g0, 0, 1
        self.n_visited += 1
        complete = True
        if self.max_size >= 1:
            for first in range(self.db.n_items):
                if self.deadline is not None and time.perf_counter() > self.deadline:
                    complete = False
                    self.timed_out = True
                    break
                vals, keys, cols, n_out, visited = _scan_first(
                    self.bits,
                    alpha,
                    self.db.n_rows,
                    first,
                    self.max_size,
                    self.db.codes,
                    excl,
                    vals,
                    keys,
                    cols,
                    n_out,
                )
                self.n_visited += visited
        vals, keys, cols = vals[:n_out], keys[:n_out], cols[:n_out]
        lens = (cols >= 0).sum(axis=1)
        ptr = np.concatenate([[0], np.cumsum(lens)]).astype(np.int64)
        flat = cols[cols >= 0].astype(np.int64)
        found = Itemsets(None, vals, keys, 1.0, complete, ptr=ptr, cols=flat)
        sel = np.lexsort((keys, -np.abs(vals)))[: self.top_k]
        lens_sel = lens[sel]
        top_ptr = np.concatenate([[0], np.cumsum(lens_sel)]).astype(np.int64)
        top_cols = (
            np.concatenate([cols[i, : lens[i]] for i in sel]).astype(np.int64)
            if len(sel)
            else np.zeros(0, dtype=np.int64)
        )
        top = Itemsets(None, vals[sel], keys[sel], 1.0, complete, ptr=top_ptr, cols=top_cols)
        return found, top
