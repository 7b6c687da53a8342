"""Weighted frequent itemset mining (WFIM) over a binary transaction matrix.

Rows of a 0/1 matrix are transactions, columns are items, and every row carries a real
weight alpha_i. The weighted frequency of an itemset p is ``wfrq(p) = sum of alpha_i over
the rows that contain every item of p`` (Lee, Matsushima & Yamanishi 2020, eq. 12). With
mixed signs it is not monotone, so the search follows the two-stage strategy of their
Section 3.3: stage 1 enumerates, depth first, the itemsets whose weight over the
*positive* rows exceeds theta (that part is monotone); stage 2 adds the negative rows back
and keeps those whose full weighted frequency still exceeds theta. Both stages run in one
compiled traversal (:func:`rulelab.itemsets.traverse`).

Entry points
------------
:func:`wfim`            itemsets with wfrq > theta (or |wfrq| > theta), size <= max_size
:func:`count_itemsets`  how many itemsets of size <= k occur at least min_support times
:func:`frequent_itemsets`  the itemsets themselves (plain FIM, used by LRFIM)
:func:`expand`          the explicit feature matrix of every occurring conjunction
:class:`TopKMiner`      GRAB's top-K search with the dynamic threshold of Section 4
:func:`first_searches`  that search for several size limits, from shared traversals
:func:`wfim_bruteforce` the reference: every subset of size <= max_size checked directly

Before the search, rows with zero weight are dropped (with the L2-hinge loss these are the
points outside the margin), items that cannot pass theta on their own are removed (no
superset can pass either), identical rows are merged and netted (a merged row keeps only
the positive or the negative part of its summed weight: every itemset that contains it gets
the difference anyway, and the bounds P and N of the search tighten), and items are
renumbered from rare to frequent so that the long occurrence lists meet few extensions.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np
import pandas as pd
import scipy.sparse as sp

from ..itemsets import COMPLETE, REACHED, THRESHOLD, TOP_K, reduce_db, traverse

__all__ = [
    "Itemsets",
    "TransactionMatrix",
    "wfim",
    "count_itemsets",
    "frequent_itemsets",
    "expand",
    "TopKMiner",
    "first_searches",
    "exact_sums",
    "ExhaustiveSearch",
    "wfim_bruteforce",
    "itemset_keys",
    "itemset_tuples",
]


def _item_codes(n_items: int, seed: int = 0x6A5B) -> np.ndarray:
    """Fixed random 64-bit codes per item (Zobrist hashing of itemsets)."""
    rng = np.random.default_rng(seed)  # fixed: keys must agree between calls and objects
    return rng.integers(1, np.iinfo(np.uint64).max, size=n_items, dtype=np.uint64, endpoint=True)


def itemset_keys(itemsets, n_items: int) -> np.ndarray:
    """64-bit keys of itemsets (XOR of item codes); the empty itemset has key 0."""
    codes = _item_codes(n_items)
    out = np.zeros(len(itemsets), dtype=np.uint64)
    for i, p in enumerate(itemsets):
        k = np.uint64(0)
        for j in p:
            k ^= codes[j]
        out[i] = k
    return out


def csr_from_dense(a) -> sp.csr_matrix:
    """A dense 2-D array as CSR: the same matrix ``scipy.sparse.csr_matrix(a)`` builds.

    A DataFrame of one dtype hands out its values column-major (``to_numpy`` is then a
    view of its block, Fortran-ordered), and finding the non-zeros of such an array row
    by row reads memory with a stride of a whole column: on Madelon's 1,600 x 21,677
    cells that took about 0.4 s per fit. Its transpose is row-major, so the non-zeros are
    found column by column and the CSC result turned into CSR, with the same entries,
    sorted in each row (``benchmarks/repro/bench_dense_csr.py``).
    """
    if (
        isinstance(a, np.ndarray)
        and a.ndim == 2
        and a.flags.f_contiguous
        and not a.flags.c_contiguous
    ):
        A = sp.csr_matrix(a.T).T.tocsr()
        A.has_sorted_indices = True  # CSC -> CSR lists each row's columns in order
        return A
    return sp.csr_matrix(a)


def as_csr(X) -> sp.csr_matrix:
    """``X`` (array, sparse matrix, DataFrame or :class:`TransactionMatrix`) as CSR."""
    if isinstance(X, TransactionMatrix):
        return X.csr
    if sp.issparse(X):
        return sp.csr_matrix(X)
    return csr_from_dense(X.to_numpy() if isinstance(X, pd.DataFrame) else np.asarray(X))


def binary_csr(X) -> sp.csr_matrix:
    """``X`` as a CSR matrix of ones with sorted indices; anything but 0/1 is an error."""
    A = as_csr(X).copy() if sp.issparse(X) else as_csr(X)  # never sort the caller's matrix
    A.sum_duplicates()
    if A.nnz and not np.all(A.data == 1):
        A.eliminate_zeros()
        if not np.all(A.data == 1):
            raise ValueError(
                "the transaction matrix must contain only 0/1 values; "
                "binarise it first (rulelab.grab.CellBinarizer)"
            )
    A.data = np.ones_like(A.data, dtype=np.int8)
    A.sort_indices()
    return A


class TransactionMatrix:
    """A binary matrix prepared for mining: CSR (rows -> items) and CSC (items -> rows).

    Parameters
    ----------
    X : array-like, scipy sparse matrix or DataFrame of 0/1 values, shape (n_rows, n_items)
    """

    def __init__(self, X):
        if isinstance(X, TransactionMatrix):
            self.__dict__.update(X.__dict__)
            return
        A = binary_csr(X)
        self.csr = A
        self.csc = A.tocsc()
        self.n_rows, self.n_items = A.shape
        self.codes = _item_codes(self.n_items)
        self.support = np.diff(self.csc.indptr)
        # items renumbered from rare to frequent (rank), rows sorted by rank: the long
        # occurrence lists of frequent items then meet few extensions
        self.rank_items = np.argsort(self.support, kind="stable").astype(np.int64)
        rank = np.empty(self.n_items, dtype=np.int64)
        rank[self.rank_items] = np.arange(self.n_items)
        R = sp.csr_matrix((A.data, rank[A.indices], A.indptr), shape=A.shape)
        R.has_sorted_indices = False
        R.sort_indices()
        self.rank_indptr = R.indptr.astype(np.int64)
        self.rank_indices = R.indices.astype(np.int64)

    def column(self, itemset) -> np.ndarray:
        """Indices of the rows that contain every item of ``itemset`` (all rows for ())."""
        if len(itemset) == 0:
            return np.arange(self.n_rows, dtype=np.int32)
        order = sorted(itemset, key=lambda j: self.support[j])
        rows = self.csc.indices[self.csc.indptr[order[0]] : self.csc.indptr[order[0] + 1]]
        for j in order[1:]:
            other = self.csc.indices[self.csc.indptr[j] : self.csc.indptr[j + 1]]
            rows = np.intersect1d(rows, other, assume_unique=True)
            if rows.size == 0:
                break
        return rows.astype(np.int32, copy=False)

    def keys(self, itemsets) -> np.ndarray:
        return itemset_keys(itemsets, self.n_items)


@dataclass
class Itemsets:
    """The output of a mining call.

    ``itemsets[i]`` is a tuple of column indices (``()`` is the empty conjunction, the
    constant feature); ``values[i]`` its weighted frequency (its frequency for plain FIM);
    ``keys[i]`` its 64-bit hash (see :func:`itemset_keys`); ``complete`` is False when
    the search stopped at the output cap; ``theta`` the threshold used. ``ptr`` and
    ``cols``, where given, hold the same itemsets flat (``cols[ptr[i]:ptr[i + 1]]``), the
    form the compiled kernels take; the tuples are then built on first use (GRAB's
    iterations never need them).
    """

    _itemsets: list | None
    values: np.ndarray
    keys: np.ndarray
    theta: float
    complete: bool
    occurrences: list | None = None
    ptr: np.ndarray | None = None
    cols: np.ndarray | None = None

    @property
    def itemsets(self) -> list | None:
        if self._itemsets is None and self.ptr is not None:
            self._itemsets = itemset_tuples(self.ptr, self.cols)
        return self._itemsets

    def __len__(self):
        return len(self.values)

    def as_dict(self) -> dict:
        return dict(zip(self.itemsets, self.values.tolist()))

    def to_frame(self, names=None) -> pd.DataFrame:
        def words(p):
            if names is None:
                return " AND ".join(map(str, p)) if p else "(always)"
            return " AND ".join(str(names[j]) for j in p) if p else "(always)"

        return pd.DataFrame(
            {
                "itemset": self.itemsets,
                "size": [len(p) for p in self.itemsets],
                "conjunction": [words(p) for p in self.itemsets],
                "wfrq": self.values,
            }
        )


def _max_size(max_size, db: TransactionMatrix) -> int:
    if max_size is None:
        return db.n_items
    max_size = int(max_size)
    if max_size < 0:
        raise ValueError(f"max_size must be >= 0 or None (unbounded), got {max_size}")
    return max_size


def _reduce(db: TransactionMatrix, wpos, wneg, theta, mode, merge=True):
    """Drop zero-weight rows and hopeless items, merge identical rows, renumber items."""
    codes = db.codes[db.rank_items]
    return reduce_db(
        db.rank_indptr,
        db.rank_indices,
        wpos,
        wneg,
        db.n_items,
        db.rank_items,
        float(theta),
        mode,
        merge,
        codes,
    )


def _run(
    db,
    wpos,
    wneg,
    theta,
    max_size,
    mode,
    max_out,
    store,
    store_occ=False,
    excl_sorted=None,
    target=0.0,
):
    k = _max_size(max_size, db)
    # occurrence lists must refer to the original rows: no merging when they are kept
    indptr, indices, wp, wn, items = _reduce(db, wpos, wneg, theta, mode, merge=not store_occ)
    codes = db.codes[items] if items.size else np.zeros(1, dtype=np.uint64)
    cap = 0 if max_out is None else int(max_out)
    if excl_sorted is None:
        excl_sorted = np.zeros(0, dtype=np.uint64)
    n_out, status, item_ptr, flat, values, keys, occ_ptr, occ, *_ = traverse(
        indptr,
        indices,
        wp,
        wn,
        max(len(items), 1),
        float(theta),
        k,
        mode,
        THRESHOLD,
        0,
        cap,
        bool(store),
        bool(store_occ),
        codes,
        excl_sorted,
        float(target),
    )
    if not store_occ:
        occ_ptr = occ = None
    return n_out, status, item_ptr, flat, values, keys, occ_ptr, occ, items


def take_itemsets(ptr, cols, which):
    """The itemsets ``which`` of the flat pair (ptr, cols), as a new flat pair."""
    which = np.asarray(which, dtype=np.int64)
    lens = ptr[which + 1] - ptr[which]
    out_ptr = np.zeros(which.size + 1, dtype=np.int64)
    np.cumsum(lens, out=out_ptr[1:])
    # the position of every item: its itemset's start plus its offset within it
    pos = np.repeat(ptr[which] - out_ptr[:-1], lens) + np.arange(out_ptr[-1])
    return out_ptr, cols[pos]


def _gather(n_out, item_ptr, flat, items, which=None):
    """Flat remapped output -> (ptr, cols): the outputs ``which`` as original column ids,
    each itemset sorted ascending."""
    which = np.arange(n_out) if which is None else which
    ptr, cols = take_itemsets(item_ptr, flat, which)
    cols = items[cols].astype(np.int64, copy=False)
    lens = np.diff(ptr)
    for size in np.unique(lens):
        if size > 1:
            at = ptr[np.flatnonzero(lens == size)][:, None] + np.arange(size)
            cols[at] = np.sort(cols[at], axis=1)
    return ptr, cols


def itemset_tuples(ptr, cols) -> list:
    """Flat itemsets (``cols[ptr[i]:ptr[i + 1]]``) as a list of tuples of ints.

    Built one size at a time from a 2-D array: a Python loop per itemset costs seconds
    for the millions of itemsets of an expansion."""
    lens = np.diff(ptr)
    out = np.empty(lens.size, dtype=object)
    for size in np.unique(lens):
        sel = np.flatnonzero(lens == size)
        block = cols[ptr[sel][:, None] + np.arange(size)].tolist()
        out[sel] = np.fromiter(map(tuple, block), dtype=object, count=sel.size)
    return out.tolist()


def _split(n_out, item_ptr, flat, items, which=None):
    """Flat remapped output -> tuples of original column indices (sorted), for ``which``."""
    return itemset_tuples(*_gather(n_out, item_ptr, flat, items, which))


def _weights(db, weights):
    w = np.asarray(weights, dtype=np.float64).ravel()
    if w.shape[0] != db.n_rows:
        raise ValueError(f"weights has {w.shape[0]} entries but the matrix has {db.n_rows} rows")
    if not np.all(np.isfinite(w)):
        raise ValueError("weights contain NaN or infinity")
    return np.maximum(w, 0.0), np.maximum(-w, 0.0)


def wfim(
    X,
    weights,
    theta: float,
    max_size: int | None = None,
    *,
    absolute: bool = False,
    max_out: int | None = None,
) -> Itemsets:
    """All itemsets p with ``wfrq(p) > theta`` (``|wfrq(p)| > theta`` with ``absolute``).

    Parameters
    ----------
    X : 0/1 matrix (n_rows, n_items), DataFrame, sparse matrix or :class:`TransactionMatrix`
    weights : array of shape (n_rows,)
        The importance alpha of each transaction, of any sign.
    theta : float
        Threshold; must be >= 0 (with theta < 0 every itemset that never occurs would pass).
    max_size : int or None
        Largest itemset size k; None for unbounded.
    absolute : bool, default=False
        Solve the two problems of the paper's Theorem 1 at once: wfrq for alpha and -alpha.
    max_out : int, optional
        Stop after this many itemsets (the output is then marked incomplete).

    Returns
    -------
    Itemsets
        Includes the empty itemset ``()`` when it passes (the constant feature).
    """
    db = TransactionMatrix(X)
    if not theta >= 0:
        raise ValueError(f"theta must be >= 0, got {theta}")
    wpos, wneg = _weights(db, weights)
    n_out, status, item_ptr, flat, values, keys, _, _, items = _run(
        db, wpos, wneg, theta, max_size, 1 if absolute else 0, max_out, True
    )
    return Itemsets(
        _split(n_out, item_ptr, flat, items),
        values[:n_out].copy(),
        keys[:n_out].copy(),
        float(theta),
        status == COMPLETE,
    )


def count_itemsets(
    X, max_size: int | None = None, *, min_support: int = 1, include_empty: bool = True
) -> int:
    """How many itemsets of size <= max_size occur in at least ``min_support`` rows.

    With ``min_support=1`` this is the number of conjunctions in Phi(d, k) that are not
    identically zero on the data (``include_empty`` counts the constant feature too).
    """
    db = TransactionMatrix(X)
    ones = np.ones(db.n_rows)
    n_out, *_ = _run(db, ones, np.zeros(db.n_rows), min_support - 0.5, max_size, 0, None, False)
    if not include_empty and db.n_rows >= min_support:
        n_out -= 1
    return int(n_out)


def frequent_itemsets(
    X,
    min_support: int = 1,
    max_size: int | None = None,
    *,
    include_empty: bool = False,
    occurrences: bool = False,
) -> Itemsets:
    """Plain frequent itemset mining: itemsets contained in >= ``min_support`` rows.

    ``values`` are the frequencies. With ``occurrences`` the row indices of every itemset
    are returned too (``Itemsets.occurrences``), which is what :func:`expand` builds on.
    The itemsets come flat (``ptr``, ``cols``); their tuples are built on first use.
    """
    db = TransactionMatrix(X)
    ones = np.ones(db.n_rows)
    n_out, status, item_ptr, flat, values, keys, occ_ptr, occ, items = _run(
        db,
        ones,
        np.zeros(db.n_rows),
        min_support - 0.5,
        max_size,
        0,
        None,
        True,
        store_occ=occurrences,
    )
    # the empty itemset, when it passes, is the first output
    first = 1 if not include_empty and n_out and item_ptr[1] == 0 else 0
    ptr, cols = _gather(n_out, item_ptr, flat, items, np.arange(first, n_out))
    occs = None
    if occurrences:
        # views, not copies: an expansion's occurrence lists run to hundreds of millions
        lo = occ_ptr[first]
        occs = (occ_ptr[first : n_out + 1] - lo, occ[lo : occ_ptr[n_out]])
    return Itemsets(
        None,
        values[first:n_out].copy(),
        keys[first:n_out].copy(),
        float(min_support),
        status == COMPLETE,
        occs,
        ptr=ptr,
        cols=cols,
    )


def expand(
    X, max_size: int | None, *, min_support: int = 1, include_empty: bool = True, flat: bool = False
):
    """The explicit expansion: one 0/1 column per conjunction of size <= max_size that occurs.

    Conjunctions that never occur are identically zero and are left out (they can never
    carry weight).

    Returns
    -------
    Z : scipy.sparse.csc_matrix of shape (n_rows, n_features), float64
    itemsets : list of tuples (column j of Z is the conjunction ``itemsets[j]``), or with
        ``flat`` the pair (ptr, cols) of :class:`Itemsets` (no tuple is built: an
        expansion has millions of columns and a fit needs the words of few of them)
    """
    db = TransactionMatrix(X)
    res = frequent_itemsets(
        db, min_support, max_size, include_empty=include_empty, occurrences=True
    )
    ptr, occ = res.occurrences
    Z = sp.csc_matrix((np.ones(occ.size), occ, ptr), shape=(db.n_rows, len(res)))
    Z.has_sorted_indices = False
    Z.sort_indices()
    return Z, ((res.ptr, res.cols) if flat else res.itemsets)


class TopKMiner:
    """GRAB's feature search: the top-K conjunctions by ``|wfrq|`` among those above 1.

    The dynamic threshold control of Section 4: WFIM runs at ``theta = 2**M``, starting
    from ``M = 10`` and decrementing M until at least K new itemsets are found or
    ``theta = 1``; the next call starts from the M that was used last (M never goes back
    up). A call stops after ``max_out`` outputs (100K in the paper) and keeps the top K
    of what it found, so the selection is then not guaranteed to be the true top K.

    Parameters
    ----------
    X : 0/1 matrix or TransactionMatrix
    max_size : int or None
    top_k : int
    M : int, default=10
    max_out : int, default=100_000
    """

    def __init__(self, X, max_size, top_k: int, M: int = 10, max_out: int = 100_000):
        self.db = TransactionMatrix(X)
        self.max_size = max_size
        self.top_k = int(top_k)
        self.M = int(M)
        self.max_out = int(max_out)
        self.n_calls = 0

    def search(self, weights, exclude_keys=None):
        """Mine for ``weights`` (alpha); return (found, top) as :class:`Itemsets`.

        ``found`` holds the sums of everything the final WFIM call output except the
        excluded keys (the features already free; its ``itemsets`` is None, only the
        values are needed for V^t); ``top`` the K largest of them by ``|wfrq|``.
        """
        wpos, wneg = _weights(self.db, weights)
        excl = np.asarray(exclude_keys if exclude_keys is not None else [], dtype=np.uint64)
        while True:
            theta = float(2.0**self.M)
            self.n_calls += 1
            out = _run(self.db, wpos, wneg, theta, self.max_size, 1, self.max_out, True)
            found, top = _select(out, excl, self.top_k, theta)
            if len(top) >= self.top_k or self.M <= 0:
                return found, top
            self.M -= 1

    def reaches(self, weights, exclude_keys, target: float) -> tuple[bool, float]:
        """Does the paper's V over the search reach ``target``?

        Eq. (17)'s second term as GRAB measures it: the sum of ``|wfrq| - 1`` over the
        features outside ``exclude_keys`` that one WFIM call at theta = 1 returns (the first
        ``max_out`` outputs). The call stops as soon as the running sum reaches
        ``target``, which decides the question exactly without listing the rest. Returns
        (reached, the sum so far: the full measured sum when not reached). M is untouched.
        """
        wpos, wneg = _weights(self.db, weights)
        excl = np.sort(
            np.asarray(exclude_keys if exclude_keys is not None else [], dtype=np.uint64)
        )
        k = _max_size(self.max_size, self.db)
        indptr, indices, wp, wn, items = _reduce(self.db, wpos, wneg, 1.0, 1)
        codes = self.db.codes[items] if items.size else np.zeros(1, dtype=np.uint64)
        self.n_calls += 1
        res = traverse(
            indptr,
            indices,
            wp,
            wn,
            max(len(items), 1),
            1.0,
            k,
            1,
            THRESHOLD,
            0,
            self.max_out,
            False,
            False,
            codes,
            excl,
            float(max(target, 1e-300)),
        )
        status, total = res[1], res[9]
        return status == REACHED, float(total)

    def top(self, weights, exclude_keys=None, target: float = 0.0):
        """The exact top K itemsets by ``|wfrq| > 1`` outside ``exclude_keys``.

        One WFIM call that keeps only the best K in a heap and raises its threshold to the
        K-th best value found so far (:func:`rulelab.itemsets.traverse`, collector
        ``TOP_K``). No output cap is needed and the result is the true top K among the
        features outside F, which :meth:`search` only gives when it is not capped. The
        heap replaces the dynamic threshold here: starting at 2**M and halving after a call
        that finds fewer than K repeats a whole traversal each time the K-th value crosses a
        power of two, while the heap's threshold reaches the K-th value within one
        traversal (on a1a at k = 5 the search took 20 % less time without the restarts). M
        is untouched.

        With ``target`` > 0 the call also answers :meth:`reaches` for that target in the
        same traversal (the shared nodes are visited once). After the call ``self.seen``
        holds the sum of ``|wfrq| - 1`` over every itemset met with ``|wfrq| > 1``, the
        excluded ones included (see :func:`rulelab.itemsets.traverse`).

        Returns
        -------
        top : Itemsets
        reached, total : as :meth:`reaches` (False, 0.0 without a target)
        """
        wpos, wneg = _weights(self.db, weights)
        excl = np.sort(
            np.asarray(exclude_keys if exclude_keys is not None else [], dtype=np.uint64)
        )
        k = _max_size(self.max_size, self.db)
        measure = target > 0
        indptr, indices, wp, wn, items = _reduce(self.db, wpos, wneg, 1.0, 1)
        codes = self.db.codes[items] if items.size else np.zeros(1, dtype=np.uint64)
        self.n_calls += 1
        n, status, item_ptr, flat, values, keys, _, _, self.n_nodes, acc, self.seen = traverse(
            indptr,
            indices,
            wp,
            wn,
            max(len(items), 1),
            1.0,
            k,
            1,
            TOP_K,
            self.top_k,
            self.max_out,
            False,
            False,
            codes,
            excl,
            float(target) if measure else 0.0,
        )
        reached, total = (status == REACHED, float(acc)) if measure else (False, 0.0)
        ptr, cols = _gather(n, item_ptr, flat, items)
        top = Itemsets(None, values, keys, 1.0, True, ptr=ptr, cols=cols)
        return top, reached, total


def exact_sums(weights) -> bool:
    """Whether every sum of some of ``weights`` is exact in float64, whatever its order.

    True when the weights are integer multiples of one power of two, 2**-s, and their
    absolute values sum to less than 2**(52 - s): every partial sum is then such a multiple
    below 2**52, which float64 holds exactly. GRAB's weights at w = 0 are, for C >= 1:
    ``count * C / 2`` (logistic) or ``count * 2 C`` (L2-hinge) with C = 10^e.
    """
    w = np.asarray(weights, dtype=np.float64).ravel()
    if not np.all(np.isfinite(w)):
        return False
    total = float(np.abs(w).sum())
    for s in range(53):
        scaled = w * 2.0**s  # exact: a power of two
        if np.array_equal(scaled, np.rint(scaled)):
            return total * 2.0**s < 2.0**52
    return False


def _unbounded_last(max_size):
    return (max_size is None, 0 if max_size is None else int(max_size))


def first_searches(X, weights, max_sizes, top_k: int, *, M: int = 10, max_out: int = 100_000):
    """:meth:`TopKMiner.search` without exclusions for several size limits at once.

    Returns ``{max_size: (found, top, M_end)}``: what ``TopKMiner(X, max_size, top_k, M,
    max_out).search(weights)`` returns and the M it ends at, for every size of ``max_sizes``
    this can serve exactly; a size left out needs its own search.

    Each threshold 2**M of the dynamic-threshold ladder is searched once, at the largest
    size still descending (that size's own WFIM call), and each smaller size reads its
    itemsets from the output: those of at most its size. That is the smaller size's own
    output only when every weighted frequency is exact (:func:`exact_sums`): the
    traversal's order and its merging of transactions depend on the size limit, so with
    rounded sums a value near the threshold could fall on the other side (it does on
    Madelon at C = 0.1). With exact sums every bound, value and test is the exact one, so
    the output of a complete call, cut to a size, is that size's complete output, and
    V^0's sum over it (of multiples of the same power of two) is exact in any order. So
    nothing is shared without exact sums, and a smaller size whose output a capped call
    cut short (``max_out``) is left out.
    """
    sizes = sorted(dict.fromkeys(max_sizes), key=_unbounded_last)
    if len(sizes) < 2 or not exact_sums(weights):
        return {}
    db = TransactionMatrix(X)
    wpos, wneg = _weights(db, weights)
    excl = np.zeros(0, dtype=np.uint64)
    served = {}
    M = int(M)
    while sizes:
        theta = float(2.0**M)
        largest = sizes[-1]
        out = _run(db, wpos, wneg, theta, largest, 1, int(max_out), True)
        n_out, status, item_ptr = out[0], out[1], out[2]
        lens = np.diff(item_ptr[: n_out + 1])
        for size in list(sizes):
            if size == largest:
                which = None  # the largest size's own call
            elif status != COMPLETE:
                sizes.remove(size)  # its own call would have met other itemsets first
                continue
            else:
                which = np.flatnonzero(lens <= size)
            found, top = _select(out, excl, top_k, theta, which)
            if len(top) >= top_k or M <= 0:  # TopKMiner.search's test
                served[size] = (found, top, M)
                sizes.remove(size)
        M -= 1
    return served


class ExhaustiveSearch:
    """The naive feature search of Section 5.1: the gradient of every conjunction.

    Visits every conjunction of size <= max_size that occurs in the data (a conjunction
    that never occurs has zero gradient) and returns all those with ``|wfrq| > 1``;
    nothing is pruned by weight. Same interface as :class:`TopKMiner`.
    """

    def __init__(self, X, max_size, top_k: int):
        self.db = TransactionMatrix(X)
        self.max_size = max_size
        self.top_k = int(top_k)
        self.M = 0
        self.n_calls = 0

    def search(self, weights, exclude_keys=None):
        wpos, wneg = _weights(self.db, weights)
        excl = np.asarray(exclude_keys if exclude_keys is not None else [], dtype=np.uint64)
        self.n_calls += 1
        out = _run(self.db, wpos, wneg, 1.0, self.max_size, 2, None, True)
        return _select(out, excl, self.top_k, 1.0)


def _select(out, excl, top_k, theta, which=None):
    """(found, top) of one WFIM call's output ``out``: everything it found outside the keys
    ``excl`` (only the outputs ``which``, where given), and the ``top_k`` best of it."""
    n_out, status, item_ptr, flat, values, keys, _, _, items = out
    keys = keys[:n_out]
    idx = np.arange(n_out) if which is None else np.asarray(which, dtype=np.int64)
    if excl.size:
        idx = idx[~np.isin(keys[idx], excl)]
    vals = values[idx]
    found = Itemsets(None, vals, keys[idx], theta, status == COMPLETE)
    # largest |wfrq| first, ties broken by key, also at the K-th place: the selection must
    # not depend on the order the miner met the itemsets in (at t = 0 every alpha_i is
    # +-C/2 and whole blocks of itemsets tie)
    sel = np.lexsort((keys[idx], -np.abs(vals)))[:top_k]
    ptr, cols = _gather(n_out, item_ptr, flat, items, idx[sel])
    top = Itemsets(None, vals[sel], keys[idx][sel], theta, found.complete, ptr=ptr, cols=cols)
    return found, top


def wfim_bruteforce(
    X, weights, theta: float, max_size: int | None = None, *, absolute: bool = False
) -> dict:
    """Reference WFIM by checking every subset of size <= max_size (small matrices only)."""
    A = np.asarray(X.toarray() if hasattr(X, "toarray") else X).astype(bool)
    w = np.asarray(weights, dtype=float)
    d = A.shape[1]
    k = d if max_size is None else min(max_size, d)
    out = {}
    for size in range(k + 1):
        for p in combinations(range(d), size):
            rows = A[:, list(p)].all(axis=1) if p else np.ones(A.shape[0], bool)
            if not rows.any():
                continue
            v = float(w[rows].sum())
            if (abs(v) if absolute else v) > theta:
                out[p] = v
    return out
