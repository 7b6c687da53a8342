"""Pricing: the conjunctions of most negative reduced cost, exactly or by beam search.

The reduced cost of a conjunction ``S`` (at most ``max_terms`` items) under the master
LP's duals is::

    rc(S) = fixed + per_term * |S| + v(N ∩ cover(S)) - mu(P ∩ cover(S))

A superset of ``S`` covers a subset of ``S``'s rows, so its positive dual mass is at most
``mu(P ∩ cover(S))`` and its negatives cost at least nothing; hence for every strict
superset ``T`` of ``S``::

    rc(T) >= fixed + per_term * (|S| + 1) - mu(P ∩ cover(S))

and the depth-first search over itemsets (:func:`rulelab.itemsets.lowest_cost_search`: the
traversal of GRAB's weighted itemset search, Lee et al. 2020, with the lowest-reduced-cost
collector over weighted bitsets and this bound in place of GRAB's gradient bound) prunes a
subtree as soon as the bound reaches the pruning threshold. Only the
rows that can change a reduced cost are searched: positives with ``mu_i > 0`` and negatives
with ``v_i > 0``.

Screening (in the spirit of Dash et al. 2014's dual tests): an item whose own positive dual
mass cannot pay for one clause of one term, ``fixed + per_term - mu(P ∩ item) >= threshold``,
is in no conjunction below the threshold and is dropped before the search.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from .._highs import quiet_highs
from ..itemsets import (
    lowest_cost_search,
    measure_items,
    measure_root,
    pack_bit_rows,
    weighted_layout,
)
from ._rows import BitMatrix, all_of, as_bit_matrix

__all__ = ["PricingResult", "price_exact", "price_beam", "price_milp", "reduced_costs"]


@dataclass
class PricingResult:
    """The columns one pricing call found.

    Attributes
    ----------
    itemsets : list of tuple of int
        Conjunctions (item indices, ascending), most negative reduced cost first.
    reduced_costs : ndarray
        Their reduced costs.
    exact : bool
        True when the search met every conjunction it had to (so ``best`` is the minimum
        over all conjunctions of at most ``max_terms`` items, or no conjunction is below
        the threshold).
    method : str
        ``"exact"``, ``"beam"`` or ``"milp"``.
    nodes : int
        Itemsets evaluated (``"milp"``: branch-and-bound nodes explored).
    items_searched : int
        Items left after screening (and merging items equal on the searched rows).
    seconds : float
    """

    itemsets: list
    reduced_costs: np.ndarray
    exact: bool
    method: str
    nodes: int = 0
    items_searched: int = 0
    seconds: float = 0.0
    note: str = field(default="")

    @property
    def best(self) -> float:
        return float(self.reduced_costs[0]) if len(self.reduced_costs) else np.inf


def reduced_costs(
    A: np.ndarray, itemsets, mu_pos: np.ndarray, cost_neg: np.ndarray, fixed: float, per_term: float
) -> np.ndarray:
    """Reduced cost of each itemset, computed directly (for checks and the final tally).

    ``mu_pos`` and ``cost_neg`` are per-row arrays (zero where they do not apply).
    """
    out = np.empty(len(itemsets))
    for t, s in enumerate(itemsets):
        cov = all_of(A, s)
        out[t] = fixed + per_term * len(s) + cost_neg[cov].sum() - mu_pos[cov].sum()
    return out


def _searched_rows(mu_pos, cost_neg, positives=None):
    """Rows whose weight can change a reduced cost; with ``positives`` (a mask) every
    positive too, so that conjunctions that differ only on zero-dual positives are told
    apart (needed to enumerate every column below a positive threshold)."""
    rows = (mu_pos > 0) | (cost_neg > 0)
    if positives is not None:
        rows |= positives
    return np.flatnonzero(rows)


def _packed(A, mu_pos, cost_neg, positives=None):
    """The searched rows of every item, packed in layout order, and each item's root
    measure: (bits, layout, opw, onw, root)."""
    rows = _searched_rows(mu_pos, cost_neg, positives)
    order, layout, opw, onw = weighted_layout(rows, mu_pos, cost_neg)
    A = as_bit_matrix(A)
    bits = pack_bit_rows(A.packed, A.n_items, order)
    return bits, layout, opw, onw, measure_root(bits, layout, opw, onw)


def _candidates(
    A, mu_pos, cost_neg, fixed, per_term, threshold, screening, merge_equal, positives=None
):
    """Rows and items the search needs, the items ordered by descending positive mass.

    Returns (bits, layout, opw, onw, items) with ``items`` the original index of each
    searched item.
    """
    bits, layout, opw, onw, root = _packed(A, mu_pos, cost_neg, positives)
    P = root[3]
    keep = (fixed + per_term - P < threshold) if screening else np.ones(P.size, dtype=bool)
    items = np.flatnonzero(keep)
    if merge_equal and items.size:
        # Items equal on every searched row price identically: search one of them, the
        # one that covers most rows overall (it is the better column for the integer step).
        groups = np.unique(bits[items].view(np.void(bits.shape[1] * 8)), return_inverse=True)[
            1
        ].ravel()
        if groups.max(initial=-1) + 1 < items.size:
            support = A.column_sums[items] if isinstance(A, BitMatrix) else A[:, items].sum(axis=0)
            best = {}
            for pos, g in enumerate(groups):
                if g not in best or support[pos] > support[best[g]]:
                    best[g] = pos
            items = items[np.sort(np.fromiter(best.values(), dtype=np.int64))]
    items = items[np.argsort(-P[items], kind="stable")]
    return np.ascontiguousarray(bits[items]), layout, opw, onw, items


MAX_NODES = 2_000_000_000
"""Itemsets an exact search evaluates at most (a safety net)."""


def price_exact(
    A: np.ndarray,
    mu_pos: np.ndarray,
    cost_neg: np.ndarray,
    *,
    fixed: float,
    per_term: float,
    max_terms: int,
    n_columns: int = 10,
    threshold: float = 0.0,
    screening: bool = True,
    merge_equal: bool = True,
    positives=None,
    time_limit: float | None = None,
    max_nodes: int = MAX_NODES,
    enumerate_all: bool = False,
) -> PricingResult:
    """The ``n_columns`` conjunctions of lowest reduced cost below ``threshold``, exactly.

    Parameters
    ----------
    A : ndarray of shape (n_samples, n_items), 0/1, or BitMatrix
    mu_pos : ndarray of shape (n_samples,)
        Dual of each positive's covering row (0 for negatives).
    cost_neg : ndarray of shape (n_samples,)
        Cost of covering each negative (0 for positives).
    fixed, per_term : float
        Complexity cost of a clause and of each of its terms.
    max_terms : int
        Most items in a conjunction.
    n_columns : int, default=10
        How many conjunctions to return (the lowest reduced costs).
    threshold : float, default=0.0
        Only conjunctions with reduced cost below it count (0: improving columns).
    screening : bool, default=True
        Drop items that cannot be in a conjunction below the threshold (see module doc).
    merge_equal : bool, default=True
        Search one of several items equal on the searched rows. Keep it off to enumerate
        every conjunction below the threshold.
    positives : ndarray of bool, optional
        Search every positive row, even those with a zero dual (with ``merge_equal=False``,
        to enumerate every distinct column below a positive threshold).
    time_limit : float, optional
        Seconds; the search then stops between first items and says it was not exact.
    max_nodes : int
        Itemsets evaluated at most (a safety net; reaching it makes the result inexact).
    enumerate_all : bool, default=False
        The caller wants every conjunction below the threshold: stop (inexact) as soon as
        ``n_columns`` are found, since the list can then not be complete.
    """
    start = time.perf_counter()
    bits, layout, opw, onw, items = _candidates(
        A, mu_pos, cost_neg, fixed, per_term, threshold, screening, merge_equal, positives
    )
    heap_val = np.full(n_columns, np.inf)
    heap_items = np.zeros((n_columns, max_terms), dtype=np.int64)
    heap_size = np.zeros(n_columns, dtype=np.int64)
    heap_n = np.zeros(1, dtype=np.int64)
    root = measure_root(bits, layout, opw, onw)
    nodes, exact = items.size, True
    m = items.size
    # First items in blocks, so a time limit is checked between blocks.
    block = max(1, min(64, 4096 // max(m, 1)))  # wide data: check the clock often
    lo = 0
    while lo < m:
        hi = min(m, lo + block)
        n, done = lowest_cost_search(
            bits,
            layout,
            opw,
            onw,
            root,
            lo,
            hi,
            max_terms,
            float(fixed),
            float(per_term),
            float(threshold),
            heap_val,
            heap_items,
            heap_size,
            heap_n,
            max_nodes - nodes,
            enumerate_all,
        )
        nodes += n
        if not done:
            exact = False
            break
        lo = hi
        if time_limit is not None and lo < m and time.perf_counter() - start > time_limit:
            exact = False
            break
    k = int(heap_n[0])
    order = np.argsort(heap_val[:k], kind="stable")
    itemsets = [tuple(sorted(int(items[j]) for j in heap_items[t, : heap_size[t]])) for t in order]
    return PricingResult(
        itemsets, heap_val[:k][order], exact, "exact", nodes, m, time.perf_counter() - start
    )


# ---- beam search ----------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _round9(x):
    """``np.round(x, 9)``: sums equal but for rounding tie, and the order of the itemsets
    decides between them."""
    return np.rint(x * 1e9) / 1e9


@njit(cache=True, nogil=True)
def _precedes(r, keys, a, b):
    """Itemset ``a`` comes before ``b``: lower rounded reduced cost, then the smaller item
    tuple (keys padded with -1, so a subset's prefix comes first, as Python's tuples)."""
    if r[a] != r[b]:
        return r[a] < r[b]
    for t in range(keys.shape[1]):
        if keys[a, t] != keys[b, t]:
            return keys[a, t] < keys[b, t]
    return False


@njit(cache=True, nogil=True)
def _first(values, keys, k):
    """Indices of the ``k`` first itemsets in the order of :func:`_precedes`."""
    n = values.shape[0]
    r = _round9(values)
    taken = np.zeros(n, dtype=np.bool_)
    out = np.empty(min(k, n), dtype=np.int64)
    for q in range(out.shape[0]):
        best = -1
        for i in range(n):
            if not taken[i] and (best < 0 or _precedes(r, keys, i, best)):
                best = i
        taken[best] = True
        out[q] = best
    return out


@njit(cache=True, nogil=True)
def _beam(bits, layout, opw, onw, P, N, fixed, per_term, max_terms, width, n_columns, threshold):
    """Beam search over the searched items' bitsets (see :func:`price_beam`).

    Returns (keys, reduced costs, itemsets evaluated): the ``n_columns`` best conjunctions
    below ``threshold``, as rows of item positions padded with -1.
    """
    m, n_words = bits.shape
    cap = m + (max_terms - 1) * width * width
    found_keys = np.full((cap, max_terms), -1, dtype=np.int64)
    found_vals = np.empty(cap)
    n_found = 0
    rc = fixed + per_term + N - P
    for j in range(m):
        if rc[j] < threshold:
            found_keys[n_found, 0] = j
            found_vals[n_found] = rc[j]
            n_found += 1
    first = np.argsort(_round9(rc), kind="mergesort")[:width]
    n_beam = first.shape[0]
    beam_keys = np.full((width, max_terms), -1, dtype=np.int64)
    beam_cov = np.empty((width, n_words), dtype=np.uint64)
    for b in range(n_beam):
        beam_keys[b, 0] = first[b]
        beam_cov[b] = bits[first[b]]
    nodes = m
    for size in range(2, max_terms + 1):
        cap_c = n_beam * width
        child_keys = np.full((cap_c, max_terms), -1, dtype=np.int64)
        child_vals = np.empty(cap_c)
        child_parent = np.empty(cap_c, dtype=np.int64)
        child_item = np.empty(cap_c, dtype=np.int64)
        n_child = 0
        key = np.empty(max_terms, dtype=np.int64)
        for b in range(n_beam):
            Pj, Nj, _ = measure_items(bits, layout, opw, onw, beam_cov[b])
            rcj = fixed + per_term * size + Nj - Pj
            for t in range(size - 1):
                rcj[beam_keys[b, t]] = np.inf
            nodes += m
            order = np.argsort(_round9(rcj), kind="mergesort")
            for q in range(min(width, m)):
                j = order[q]
                if not np.isfinite(rcj[j]):
                    continue
                # the parent's items with j inserted in order
                u = 0
                placed = False
                for t in range(size - 1):
                    if not placed and j < beam_keys[b, t]:
                        key[u] = j
                        u += 1
                        placed = True
                    key[u] = beam_keys[b, t]
                    u += 1
                if not placed:
                    key[u] = j
                # a child met from another parent keeps its first entry
                new = True
                for c in range(n_child):
                    same = True
                    for t in range(size):
                        if child_keys[c, t] != key[t]:
                            same = False
                            break
                    if same:
                        new = False
                        break
                if new:
                    child_keys[n_child, :size] = key[:size]
                    child_vals[n_child] = rcj[j]
                    child_parent[n_child] = b
                    child_item[n_child] = j
                    n_child += 1
        for c in range(n_child):
            if child_vals[c] < threshold:
                found_keys[n_found] = child_keys[c]
                found_vals[n_found] = child_vals[c]
                n_found += 1
        best = _first(child_vals[:n_child], child_keys[:n_child], width)
        n_beam = best.shape[0]
        next_cov = np.empty((width, n_words), dtype=np.uint64)
        for b in range(n_beam):
            c = best[b]
            beam_keys[b] = child_keys[c]
            next_cov[b] = beam_cov[child_parent[c]] & bits[child_item[c]]
        beam_cov = next_cov
        if n_beam == 0:
            break
    ranked = _first(found_vals[:n_found], found_keys[:n_found], n_columns)
    return found_keys[ranked], found_vals[ranked], nodes


def price_beam(
    A: np.ndarray,
    mu_pos: np.ndarray,
    cost_neg: np.ndarray,
    *,
    fixed: float,
    per_term: float,
    max_terms: int,
    n_columns: int = 10,
    threshold: float = 0.0,
    width: int = 10,
    screening: bool = True,
) -> PricingResult:
    """Beam search: keep the ``width`` best conjunctions of each size, extend each by one
    item. Fast on very wide data, but proves nothing (``exact=False``)."""
    start = time.perf_counter()
    bits, layout, opw, onw, root = _packed(A, mu_pos, cost_neg)
    P, N = root[3], root[4]
    keep = P > 0
    if screening:
        keep &= fixed + per_term - P < threshold
    items = np.flatnonzero(keep)
    if items.size == 0:
        return PricingResult([], np.zeros(0), False, "beam", 0, 0, time.perf_counter() - start)
    keys, values, nodes = _beam(
        np.ascontiguousarray(bits[items]),
        layout,
        opw,
        onw,
        P[items],
        N[items],
        float(fixed),
        float(per_term),
        int(max_terms),
        int(width),
        int(n_columns),
        float(threshold),
    )
    itemsets = [tuple(int(items[j]) for j in key if j >= 0) for key in keys]
    return PricingResult(
        itemsets, values, False, "beam", int(nodes), items.size, time.perf_counter() - start
    )


# ---- pricing as a MILP (the way BRCG prices) ------------------------------------------------
def price_milp(
    A: np.ndarray,
    mu_pos: np.ndarray,
    cost_neg: np.ndarray,
    *,
    fixed: float,
    per_term: float,
    max_terms: int,
    time_limit: float | None = None,
) -> PricingResult:
    """The single best conjunction by a MILP solved with HiGHS (Dash, Günlük & Wei 2018's
    pricing problem): ``z_j`` selects item ``j``, ``d_i`` says row ``i`` is covered::

        min fixed + per_term sum z - sum_{P} mu_i d_i + sum_{N} v_i d_i
        d_i + z_j <= 1             for a positive i and an item j absent from row i
        d_i >= 1 - sum_{j absent} z_j   for a negative i
        1 <= sum z <= max_terms

    Exact when HiGHS proves optimality within ``time_limit`` seconds, a clock limit: HiGHS
    has no count of work that bounds its root node (its simplex iteration limit does not
    reach the MIP's root LP, and a node limit binds only after the root). ``nodes`` of the
    result is the number of branch-and-bound nodes HiGHS explored (0: it stopped at the
    root).
    """
    import highspy
    import scipy.sparse as sp

    start = time.perf_counter()
    rows = _searched_rows(mu_pos, cost_neg)
    sub = (A.dense(rows) if isinstance(A, BitMatrix) else A[rows]).astype(bool)
    pw, nw = mu_pos[rows], cost_neg[rows]
    P = pw @ sub
    items = np.flatnonzero(P > 0)
    sub = sub[:, items]
    m, n = items.size, rows.size
    if m == 0:
        return PricingResult([], np.zeros(0), True, "milp", 0, 0, time.perf_counter() - start)
    is_pos = pw > 0
    # columns: z (m items) then d (n rows)
    absent = ~sub
    pr, pj = np.nonzero(absent & is_pos[:, None])
    k = pr.size
    # d_i + z_j <= 1
    r1 = sp.csr_matrix(
        (np.ones(2 * k), (np.repeat(np.arange(k), 2), np.column_stack([pj, m + pr]).ravel())),
        shape=(k, m + n),
    )
    neg = np.flatnonzero(~is_pos)
    # d_i + sum_{j absent} z_j >= 1 for negatives
    nr, nj = np.nonzero(absent[neg])
    r2 = sp.csr_matrix(
        (
            np.ones(nr.size + neg.size),
            (np.concatenate([nr, np.arange(neg.size)]), np.concatenate([nj, m + neg])),
        ),
        shape=(neg.size, m + n),
    )
    r3 = sp.csr_matrix(np.concatenate([np.ones(m), np.zeros(n)])[None, :])
    M = sp.vstack([r1, r2, r3], format="csc")
    lo = np.concatenate([np.full(k, -highspy.kHighsInf), np.ones(neg.size), [1.0]])
    hi = np.concatenate([np.ones(k), np.full(neg.size, highspy.kHighsInf), [float(max_terms)]])
    cost = np.concatenate([np.full(m, per_term), np.where(is_pos, -pw, nw)])
    h = quiet_highs()
    # HiGHS's MIP presolve does not watch the clock on these models (minutes past a 10 s
    # limit on MAGIC); without it the limit holds and small cases still solve to optimality.
    h.setOptionValue("presolve", "off")
    if time_limit is not None:
        h.setOptionValue("time_limit", float(time_limit))
    integrality = np.concatenate([np.ones(m), np.zeros(n)]).astype(np.int32)
    h.passModel(
        m + n,
        M.shape[0],
        M.nnz,
        int(highspy.MatrixFormat.kColwise.value),
        int(highspy.ObjSense.kMinimize.value),
        float(fixed),
        cost.astype(float),
        np.zeros(m + n),
        np.ones(m + n),
        lo.astype(float),
        hi.astype(float),
        M.indptr.astype(np.int32),
        M.indices.astype(np.int32),
        M.data.astype(float),
        integrality,
    )
    h.run()
    status = h.modelStatusToString(h.getModelStatus()).lower()
    nodes = int(h.getInfo().mip_node_count)
    x = np.asarray(h.getSolution().col_value, float)
    exact = status == "optimal"
    if x.size != m + n:
        return PricingResult(
            [], np.zeros(0), False, "milp", nodes, m, time.perf_counter() - start, note=status
        )
    chosen = tuple(sorted(int(items[j]) for j in np.flatnonzero(x[:m] > 0.5)))
    if not chosen:  # stopped without a solution: nothing found, nothing proved
        return PricingResult(
            [], np.zeros(0), False, "milp", nodes, m, time.perf_counter() - start, note=status
        )
    value = reduced_costs(A, [chosen], mu_pos, cost_neg, fixed, per_term)
    return PricingResult(
        [chosen], value, exact, "milp", nodes, m, time.perf_counter() - start, note=status
    )
