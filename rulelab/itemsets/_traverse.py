"""The depth-first weighted itemset traversal (compiled): one search, parameterised by what it
collects and by how a node's cover is held.

A backtracking search over itemsets in which a node p is extended only by items larger
than its last one, so each itemset is met exactly once. Opening a node measures its
children (their P, N and size of cover) at once; the walk then hands each child to the
*collector*, and opens it only while an anti-monotone bound of the child (a mass its
supersets cannot exceed) says a superset may still be collected. Children of a node may
also be bounded from their two parents (``p + j`` and ``p + i`` bound ``p + j + i`` by
inclusion-exclusion over p's cover) before they are measured. One kernel is compiled per
(collector, cover) in use (:func:`_make_kernel`); the other's code is pruned before
compilation.

Two *covers* (how a node's rows are held and its children measured):

- ``DATABASE``: every opened node gets its own conditional database (below); GRAB's
  collectors run over it, since their transactions are sparse and collapse deep in the
  tree;
- ``BITSET``: the node's rows as a bitset over rows laid out in blocks of equal weight
  (:mod:`._cost`), a child measured by an AND and a popcount per word; column
  generation's pricing runs over it, since binarised columns are dense (about half the
  rows per item), where one word measures 64 rows and a database scan reads one entry per
  row (the database traversal takes 13-36x the time there).

Over a ``DATABASE``, every opened node gets its own *conditional database* (LCM's database
reduction, Uno et al. 2004): the transactions that contain it, cut to the items after its
last item that can still pass, with identical transactions merged and empty ones dropped.
Deep in the tree these databases collapse to a few short transactions, which is where a
plain occurrence-list search spends its time.

Each transaction carries two non-negative weights, ``wpos`` and ``wneg``. For an itemset p,
``P(p)`` and ``N(p)`` are their sums over the transactions that contain p, and its weighted
frequency is ``wfrq(p) = P(p) - N(p)``. ``P`` and ``N`` are anti-monotone, which gives the
two-stage strategy of Lee, Matsushima & Yamanishi (2020, Section 3.3) in one traversal; the
*test* ``mode`` says which itemsets pass and which nodes may still have passing supersets:

- mode 0: output when ``wfrq > theta``, expand while ``P > theta``;
- mode 1: output when ``|wfrq| > theta``, expand while ``P > theta`` or ``N > theta`` (the
  two problems of their Theorem 1, for alpha and -alpha, at once);
- mode 2: output when ``|wfrq| > theta``, expand every node (exhaustive search).

A merged transaction is *netted*: it adds ``wpos - wneg`` to every itemset that contains it,
so only the positive or the negative part of the difference is kept, which tightens the
bounds without changing any weighted frequency.

The *collector* says what is kept of the passing itemsets (``THRESHOLD`` and ``TOP_K``
over a ``DATABASE``, ``LOWEST_COST`` over a ``BITSET``):

- ``THRESHOLD``: every one, in the order met (or only their number), optionally with each
  one's transactions (``store_occ``; no merging then, so rows keep their identity), with a
  running sum of ``|wfrq| - 1`` that can stop the search at a target, and an output cap;
- ``TOP_K``: the K of largest ``|wfrq|`` in a min-heap whose K-th value raises the
  threshold of both the output test and the pruning as the search proceeds (any superset q
  of p has ``|wfrq(q)| <= max(P(p), N(p))``, so the raised threshold loses no member of
  the top K), optionally measuring the running sum of the threshold collector at 1 in the
  same traversal.

A node's occurrence lists are delivered in a second sweep over its database, only for the
children that are opened. Under ``TOP_K`` a node whose children are leaves reads its
transactions straight from its parent's occurrence lists instead of building a database
that would be scanned once, bounding each leaf by inclusion-exclusion from its two parents
before counting it, and a node's walk visits only the children that can still be held,
opened or counted (:func:`_order_walk`: on a wide design most of the root's children can
do none of these); ``THRESHOLD`` (whose plain counts would gain nothing from either) builds
every database and walks every child. The two differ in nothing else, and the order in
which itemsets are met is the same under both.

- ``LOWEST_COST``: the itemsets S of lowest ``cost(S) = fixed + per_term * |S| + N(S) -
  P(S)`` below a threshold (the reduced cost of a conjunction under the master LP's
  duals), in a heap of fixed capacity whose worst cost becomes the threshold once it is
  full. Every strict superset of S costs at least ``fixed + per_term * (|S| + 1) - P(S)``,
  the bound by which a node is opened. A child whose cover equals its parent's is not
  handed over (it and its supersets cost more for the same rows), and the children of a
  leaf parent are bounded, measured and handed over one at a time, against the threshold
  of the moment.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._bits import grow
from ._cost import _bitset_children, _cost_bound_fails, _insert, _measure, _threshold
from ._database import same_run

__all__ = [
    "COMPLETE",
    "CAPPED",
    "REACHED",
    "THRESHOLD",
    "TOP_K",
    "LOWEST_COST",
    "lowest_cost_search",
    "traverse",
]

# status codes returned by the kernel
COMPLETE = 0
CAPPED = 1  # stopped after max_out outputs (GRAB's Section 4, "incomplete termination")
REACHED = 2  # the running sum of |wfrq| - 1 over the outputs reached the target

# collectors
THRESHOLD = 0
TOP_K = 1
LOWEST_COST = 2

# how a node's cover is held and its children measured
DATABASE = 0  # a conditional database of weighted transactions, scanned
BITSET = 1  # a bitset of weighted rows, ANDed with each item's and counted


@njit(cache=True, nogil=True, inline="always")
def _may_grow(P, N, thr, mode):
    """Whether a superset of an itemset with bounds (P, N) can pass the test of ``mode``."""
    return P > thr or (mode == 1 and N > thr) or mode == 2


@njit(cache=True, nogil=True)
def _excluded(sorted_keys, k):
    n = sorted_keys.shape[0]
    if n == 0:
        return False
    i = np.searchsorted(sorted_keys, k)
    return i < n and sorted_keys[i] == k


@njit(cache=True, nogil=True, inline="always")
def _leaf_may_pass(pj, nj, pi, ni, db_p, db_n, thr):
    """Whether the leaf p + j + i can have ``|wfrq| > thr``, bounded from its parents p + j
    and p + i by inclusion-exclusion over p's database (totals ``db_p``, ``db_n``):
    ``P <= min(P(p+j), P(p+i))`` and ``N >= N(p+j) + N(p+i) - N(p)``, and the same for -wfrq."""
    return (
        min(pj, pi) - max(0.0, nj + ni - db_n) > thr or min(nj, ni) - max(0.0, pj + pi - db_p) > thr
    )


@njit(cache=True, nogil=True)
def _backward_order(ch, depth, k_ch, met_in):
    """Reorder the children ``ch[depth, :k_ch]``, listed in the order a forward scan of the
    transactions first met them (``met_in[c]``: the transaction of the first meeting), into
    the order a scan of each transaction from its last item would meet them: the children
    first met in one transaction come out in reverse. This is the order of the occurrence-
    delivery search the expansion has always used, so its columns keep their order."""
    a = 0
    while a < k_ch:
        b = a + 1
        while b < k_ch and met_in[b] == met_in[a]:
            b += 1
        lo = a
        hi = b - 1
        while lo < hi:
            x = ch[depth, lo]
            ch[depth, lo] = ch[depth, hi]
            ch[depth, hi] = x
            lo += 1
            hi -= 1
        a = b


@njit(cache=True, nogil=True)
def _order_by_bound(kids, sp, sn, k_ch):
    """Sort the children ``kids[:k_ch]`` by descending ``max(P, N)`` (``sp``, ``sn`` of
    their depth), stable.

    Mode 1 searches visit children in this order, so the outputs of largest ``|wfrq|``
    tend to come first (a top-K heap's threshold then rises early, and a capped or
    target-stopped search keeps the largest ones). A leaf parent's children are not sorted
    (they are all met whatever their order), and long lists (tens of thousands of items)
    are merge-sorted, not insertion-sorted."""
    if k_ch <= 32:
        for a in range(1, k_ch):
            x = kids[a]
            bx = max(sp[x], sn[x])
            b = a - 1
            while b >= 0 and max(sp[kids[b]], sn[kids[b]]) < bx:
                kids[b + 1] = kids[b]
                b -= 1
            kids[b + 1] = x
        return
    neg_bound = np.empty(k_ch)
    for a in range(k_ch):
        x = kids[a]
        neg_bound[a] = -max(sp[x], sn[x])
    perm = np.argsort(neg_bound, kind="mergesort")
    items = kids[:k_ch].copy()
    for a in range(k_ch):
        kids[a] = items[perm[a]]


@njit(cache=True, nogil=True)
def _order_walk(ch, sp, sn, depth, k_ch, othr, counted, buf):
    """Order the children ``ch[depth, :k_ch]`` of a mode-1 node for its walk; return how
    many are candidates and how many are walked.

    First the candidates (``max(P, N) > othr``: they may pass, be held or be opened),
    then, with ``counted`` (a top-K search's running sums), the others with ``|wfrq| > 1``,
    each part by descending ``max(P, N)`` (stable), then the rest, which the walk skips.
    This is the order of :func:`_order_by_bound` with the children that do nothing left
    out of the walk: the candidates come first there too, and ``othr`` never falls (a
    fixed threshold, or a top-K heap's of at least 1), so a child that is not a candidate
    cannot become one, and none of the rest can pass, be held or be counted. On a wide
    design most children at the root are of the rest, and sorting them was a large part of
    a search."""
    n_c = 0
    n_s = 0
    n_r = 0
    for c in range(k_ch):
        j = ch[depth, c]
        P = sp[depth, j]
        N = sn[depth, j]
        if P > othr or N > othr:
            buf[0, n_c] = j
            n_c += 1
        elif counted and abs(P - N) > 1.0:
            buf[1, n_s] = j
            n_s += 1
        else:
            buf[2, n_r] = j
            n_r += 1
    kids = ch[depth]
    for c in range(n_c):
        kids[c] = buf[0, c]
    for c in range(n_s):
        kids[n_c + c] = buf[1, c]
    for c in range(n_r):
        kids[n_c + n_s + c] = buf[2, c]
    _order_by_bound(kids, sp[depth], sn[depth], n_c)
    _order_by_bound(kids[n_c:], sp[depth], sn[depth], n_s)
    return n_c, n_c + n_s


@njit(cache=True, nogil=True, inline="always")
def _project(
    depth,
    j,
    merge,
    start,
    cnt,
    occ_t,
    occ_p,
    tp,
    ti,
    twp,
    twn,
    keep_p,
    keep_n,
    keep_thr,
    sp,
    sn,
    codes,
    nh,
    table,
    trow,
    track_rows,
):
    """Write the conditional database of the child ``j`` of the node at ``depth``.

    The child's transactions are those of the node that contain j, cut to the items i after
    j that are kept: ``P(node + i) > keep_thr`` with ``keep_p``, or ``N(node + i) >
    keep_thr`` with ``keep_n`` (``sp``, ``sn``). The test is made per entry, where the
    node's children are met, rather than by marking all of them first for every child
    opened (at the root of a wide design that marking took most of a top-K search).
    Empty ones are dropped. With ``merge`` (the child's database will be scanned again
    below it) identical transactions are merged as they are written, through an
    open-addressing hash table on their 64-bit sums, and each merged transaction is
    netted. With ``track_rows`` (never with ``merge``) each transaction's input row is
    carried along in ``trow``. Returns the (possibly grown) hash table, the child's
    transaction count and its database's total P and N (after netting).
    """
    d1 = depth + 1
    r0 = start[depth, j]
    n_occ = cnt[depth, j]
    mask = np.uint64(0)
    if merge:
        size_t = 1
        while size_t < 2 * n_occ:
            size_t *= 2
        if table.shape[0] < size_t:
            table = np.empty(size_t, dtype=np.int64)
        mask = np.uint64(size_t - 1)
        table[:size_t] = -1
    n_new = 0
    w_ = 0
    tp[d1, 0] = 0
    for r in range(r0, r0 + n_occ):
        t = occ_t[depth, r]
        s0 = w_
        h = np.uint64(0)
        for q in range(occ_p[depth, r] + 1, tp[depth, t + 1]):
            i = ti[depth, q]
            if (keep_p and sp[depth, i] > keep_thr) or (keep_n and sn[depth, i] > keep_thr):
                ti[d1, w_] = i
                w_ += 1
                h += codes[i]
        if w_ == s0:  # empty transactions have no extensions
            continue
        if merge:
            slot = h & mask
            found = False
            while True:
                g = table[slot]
                if g < 0:
                    table[slot] = n_new
                    break
                if (
                    nh[g] == h
                    and tp[d1, g + 1] - tp[d1, g] == w_ - s0
                    and same_run(ti[d1], tp[d1, g], ti[d1], s0, w_ - s0)
                ):
                    twp[d1, g] += twp[depth, t]
                    twn[d1, g] += twn[depth, t]
                    found = True
                    break
                slot = (slot + np.uint64(1)) & mask
            if found:
                w_ = s0
                continue
        twp[d1, n_new] = twp[depth, t]
        twn[d1, n_new] = twn[depth, t]
        if track_rows:
            trow[d1, n_new] = trow[depth, t]
        nh[n_new] = h
        n_new += 1
        tp[d1, n_new] = w_
    p_sum = 0.0
    n_sum = 0.0
    for g in range(n_new):
        if merge:
            # netting: a merged transaction adds wp - wn to every itemset that contains
            # it, so only its net weight can count towards P or N (a tighter bound, same
            # wfrq)
            d = twp[d1, g] - twn[d1, g]
            twp[d1, g] = d if d > 0.0 else 0.0
            twn[d1, g] = -d if d < 0.0 else 0.0
        p_sum += twp[d1, g]
        n_sum += twn[d1, g]
    return table, n_new, p_sum, n_sum


@njit(cache=True, nogil=True, inline="always")
def _sift_down(hv, hkey, order, n, r):
    # min-heap on (|value|, key) over the slots order[0..n); r is the position to fix
    while True:
        c = 2 * r + 1
        if c >= n:
            return
        if c + 1 < n:
            a = order[c]
            b = order[c + 1]
            if hv[b] < hv[a] or (hv[b] == hv[a] and hkey[b] > hkey[a]):
                c += 1
        x = order[r]
        y = order[c]
        if hv[y] < hv[x] or (hv[y] == hv[x] and hkey[y] > hkey[x]):
            order[r] = y
            order[c] = x
            r = c
        else:
            return


@njit(cache=True, nogil=True, inline="always")
def _sift_up(hv, hkey, order, r):
    while r > 0:
        p = (r - 1) // 2
        x = order[r]
        y = order[p]
        if hv[x] < hv[y] or (hv[x] == hv[y] and hkey[x] > hkey[y]):
            order[r] = y
            order[p] = x
            r = p
        else:
            return


@njit(cache=True, nogil=True, inline="always")
def _hold(hv, hval, hkey, hsz, hit, order, n_held, K, av, v, kj, cur, size, j):
    """Put the itemset ``cur[1:size] + (j,)`` (``()`` when size is 0) in the top-K heap,
    evicting the smallest when the heap is full. Returns the new number held."""
    filling = n_held < K
    if filling:
        s = n_held  # a new slot, at heap position n_held
        n_held += 1
    else:
        s = order[0]  # evict the smallest
    hv[s] = av
    hval[s] = v
    hkey[s] = kj
    hsz[s] = size
    for r in range(size - 1):
        hit[s, r] = cur[r + 1]
    if size > 0:
        hit[s, size - 1] = j
    if filling:
        _sift_up(hv, hkey, order, n_held - 1)
    else:
        _sift_down(hv, hkey, order, n_held, 0)
    return n_held


@njit(cache=True, nogil=True)
def _heap_sorted(hv, hval, hkey, hsz, hit, n_held):
    """The held itemsets, largest |value| first, ties by key (reproducible), as flat arrays."""
    sel = np.empty(n_held, dtype=np.int64)
    for s in range(n_held):
        sel[s] = s
    for a in range(1, n_held):  # insertion sort: K is small
        x = sel[a]
        b = a - 1
        while b >= 0 and (hv[sel[b]] < hv[x] or (hv[sel[b]] == hv[x] and hkey[sel[b]] > hkey[x])):
            sel[b + 1] = sel[b]
            b -= 1
        sel[b + 1] = x
    item_ptr = np.zeros(n_held + 1, dtype=np.int64)
    for a in range(n_held):
        item_ptr[a + 1] = item_ptr[a] + hsz[sel[a]]
    items = np.empty(max(item_ptr[n_held], 1), dtype=np.int32)
    values = np.empty(n_held, dtype=np.float64)
    keys = np.empty(n_held, dtype=np.uint64)
    for a in range(n_held):
        s = sel[a]
        for r in range(hsz[s]):
            items[item_ptr[a] + r] = hit[s, r]
        values[a] = hval[s]
        keys[a] = hkey[s]
    return item_ptr, items, values, keys


def _make_kernel(collect, cover, store_occ):
    """The traversal compiled for one collector, one cover representation and one
    ``store_occ``: all three are constants of the closure, so the code of the other
    collectors and cover is pruned before compilation (the counting kernel is otherwise
    slowed by the top-K code it never runs, and each cover's arguments are typed only in
    its own kernel)."""
    topk = collect == TOP_K
    lowest = collect == LOWEST_COST
    bitset = cover == BITSET

    @njit(cache=True, nogil=True)
    def _kernel(data, params, max_size):
        """The search of :func:`traverse` (``data``: the transaction database and item
        codes; ``params``: the test and collector's settings) or of
        :func:`lowest_cost_search` (``data``: the bitsets, their layout and the root's
        measurement; ``params``: the costs, threshold and heap)."""
        if bitset:
            bits, layout, opw, onw, root, root_lo, root_hi = data
            blk_lo, blk_hi, blk_w, blk_pos, o_lo, o_hi = layout
            (
                fixed,
                per_term,
                tau,
                heap_val,
                heap_items,
                heap_size,
                heap_n,
                max_nodes,
                stop_when_full,
            ) = params
            n_items, n_words = bits.shape
            depth_cap = max_size
            L = max_size + 1
            # the cover of the node at each depth, and its children's (P, N, count) in it
            cov = np.empty((L, n_words), dtype=np.uint64)
            cov[0, :] = ~np.uint64(0)
            sp = np.zeros((L, n_items))
            sn = np.zeros((L, n_items))
            cnt = np.zeros((L, n_items), dtype=np.int64)
            ch = np.empty((L, n_items), dtype=np.int32)
            nch = np.zeros(L, dtype=np.int64)
            nwalk = np.zeros(L, dtype=np.int64)  # the walk visits every child here
            chpos = np.zeros(L, dtype=np.int64)
            cur = np.empty(L + 1, dtype=np.int32)
            db_n = np.zeros(L + 1)  # per depth: N and the row count of the node's cover
            db_c = np.zeros(L + 1, dtype=np.int64)
            # the root is the empty itemset, measured by the caller and not collected
            db_n[0] = root[1]
            db_c[0] = root[2]
            sp[0] = root[3]
            sn[0] = root[4]
            cnt[0] = root[5]
            cap_heap = heap_val.shape[0]
            # the open leaf parent's terms of its leaves' bound (set when it is opened)
            lf_cost = lf_p = lf_n = lf_ns = 0.0
            lf_c = 0
            thr = _threshold(tau, heap_val, heap_n)
            nodes = 0
            run = True
        else:
            (indptr, indices, wpos, wneg, n_items, codes) = data
            theta, mode, top_k, max_out, store, excl_sorted, target = params
            m0 = indptr.shape[0] - 1
            nnz0 = indices.shape[0]
            # the longest transaction bounds the size of any itemset that occurs
            longest = 0
            for t in range(m0):
                ln = indptr[t + 1] - indptr[t]
                if ln > longest:
                    longest = ln
            depth_cap = min(max_size, longest)
            L = max(depth_cap, 1) + 1
            cap_t = max(m0, 1)
            cap_i = max(nnz0, 1)
            # the conditional database of the node at each depth
            tp = np.zeros((L, cap_t + 1), dtype=np.int64)
            ti = np.empty((L, cap_i), dtype=np.int32)
            twp = np.empty((L, cap_t), dtype=np.float64)
            twn = np.empty((L, cap_t), dtype=np.float64)
            trow = np.empty((L if store_occ else 1, cap_t), dtype=np.int64)
            nt = np.zeros(L, dtype=np.int64)
            # per depth: children statistics and their occurrence lists in that database
            cnt = np.zeros((L, n_items), dtype=np.int64)
            start = np.zeros((L, n_items), dtype=np.int64)
            sp = np.zeros((L, n_items), dtype=np.float64)
            sn = np.zeros((L, n_items), dtype=np.float64)
            opened = np.zeros((L, n_items), dtype=np.bool_)
            ch = np.empty((L, n_items), dtype=np.int32)
            nch = np.zeros(L, dtype=np.int64)
            # per depth: the first ncand children are the candidates (max(P, N) above the
            # threshold) and the walk visits the first nwalk (mode 1: :func:`_order_walk`;
            # elsewhere all of them)
            ncand = np.zeros(L, dtype=np.int64)
            nwalk = np.zeros(L, dtype=np.int64)
            walk_buf = np.empty((3, n_items), dtype=np.int32)
            chpos = np.zeros(L, dtype=np.int64)
            occ_t = np.empty((L, cap_i), dtype=np.int64)  # transaction index
            occ_p = np.empty((L, cap_i), dtype=np.int64)  # position of the child item in it
            cur = np.empty(L + 1, dtype=np.int32)
            key = np.zeros(L + 1, dtype=np.uint64)
            db_p = np.zeros(L + 1)  # per depth: P and N summed over the node's whole database
            db_n = np.zeros(L + 1)
            viable = np.zeros(n_items, dtype=np.int64)  # == stamp: counted at this leaf parent
            stamp = 0
            met_in = np.empty(n_items, dtype=np.int64)  # transaction where each child was first met
            nh = np.empty(cap_t, dtype=np.uint64)
            table = np.empty(16, dtype=np.int64)

            # THRESHOLD's outputs, grown as needed
            cap0 = 1 if topk else (1024 if max_out <= 0 else min(max_out, 1 << 16) + 1)
            item_ptr = np.zeros(cap0 + 1, dtype=np.int64)
            items = np.empty(cap0 * 2, dtype=np.int32)
            values = np.empty(cap0, dtype=np.float64)
            keys = np.empty(cap0, dtype=np.uint64)
            occ_ptr = np.zeros(cap0 + 1 if store_occ else 1, dtype=np.int64)
            occ = np.empty(1024 if store_occ else 1, dtype=np.int32)

            # TOP_K's heap: slot s holds |value| hv[s], value hval[s], key hkey[s], size hsz[s] and
            # the items hit[s, :hsz[s]]; order[] arranges the slots as a binary min-heap
            K = max(top_k, 1) if topk else 1
            hv = np.zeros(K, dtype=np.float64)
            hval = np.zeros(K, dtype=np.float64)
            hkey = np.zeros(K, dtype=np.uint64)
            hsz = np.zeros(K, dtype=np.int64)
            hit = np.empty((K, L), dtype=np.int32)
            order = np.arange(K)
            n_held = 0
            thr = theta  # the heap's threshold
            measuring = topk and target > 0
            status = COMPLETE
            stop = False
            acc = 0.0
            seen = 0.0
            n_out = 0
            n_nodes = 0

            # ---------- the root: the empty itemset (the constant feature), key 0 ----------
            for t in range(m0 + 1):
                tp[0, t] = indptr[t]
            for q in range(nnz0):
                ti[0, q] = indices[q]
            P = 0.0
            N = 0.0
            for t in range(m0):
                twp[0, t] = wpos[t]
                twn[0, t] = wneg[t]
                P += wpos[t]
                N += wneg[t]
            if store_occ:
                for t in range(m0):
                    trow[0, t] = t
            nt[0] = m0
            db_p[0] = P
            db_n[0] = N
            v = P - N
            if topk:
                root_excl = _excluded(excl_sorted, np.uint64(0))
                if measuring and abs(v) > 1.0:
                    n_out = 1
                    if not root_excl:
                        acc += abs(v) - 1.0
                    if acc >= target:
                        measuring = False
                        status = REACHED
                    elif max_out > 0 and n_out >= max_out:
                        measuring = False
                        status = CAPPED
                if abs(v) > thr and not root_excl:
                    n_held = _hold(
                        hv,
                        hval,
                        hkey,
                        hsz,
                        hit,
                        order,
                        n_held,
                        K,
                        abs(v),
                        v,
                        np.uint64(0),
                        cur,
                        0,
                        0,
                    )
                    if n_held == K:
                        thr = max(theta, hv[order[0]])
                othr = 1.0 if measuring else thr  # the threshold that opens nodes and keeps items
            else:
                othr = theta
                if (v > theta) if mode == 0 else (abs(v) > theta):
                    if store:
                        values[0] = v
                        keys[0] = np.uint64(0)
                        if store_occ:
                            occ = grow(occ, m0)
                            for t in range(m0):
                                occ[t] = t
                            occ_ptr[1] = m0
                    n_out = 1
                    if target > 0 and not _excluded(excl_sorted, np.uint64(0)):
                        acc += abs(v) - 1.0
                        if acc >= target:
                            status = REACHED
                            stop = True
                    if not stop and max_out > 0 and n_out >= max_out:
                        status = CAPPED
                        stop = True

            run = depth_cap > 0 and not stop and _may_grow(P, N, othr, mode)
        if run:
            depth = 0
            cur[0] = -1
            while True:
                if bitset:
                    # ---------- measure the children of the node at `depth` ----------
                    k_ch = 0
                    if depth == 0:
                        for j in range(root_lo, root_hi):
                            if cnt[0, j] != 0:
                                ch[0, k_ch] = j
                                k_ch += 1
                    else:
                        k_ch, nodes = _bitset_children(
                            depth,
                            depth + 1 == depth_cap,
                            cur[depth],
                            fixed + per_term * (depth + 1),
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
                        )
                        if depth + 1 < depth_cap and nodes >= max_nodes:
                            return nodes, False
                        if depth + 1 == depth_cap:
                            # a leaf parent: what bounds and measures its leaves in the walk
                            lf_cost = fixed + per_term * (depth + 1)
                            lf_p = sp[depth - 1, cur[depth]]
                            lf_n = sn[depth - 1, cur[depth]]
                            lf_ns = db_n[depth - 1]
                            lf_c = db_c[depth]
                    nch[depth] = k_ch
                    nwalk[depth] = k_ch
                else:
                    # ---------- scan the database of the node at `depth` ----------
                    n_nodes += 1
                    n_t = nt[depth]
                    k_ch = 0
                    if topk and depth > 0 and depth + 1 == depth_cap:
                        # the node's children are leaves, so its database would be scanned once:
                        # read its transactions straight from the parent's occurrence lists (the
                        # same items, cut the same way) instead of copying them first. The leaves
                        # are exact itemsets p + jj + i, so inclusion-exclusion bounds them
                        # (:func:`_leaf_may_pass`); an item whose leaf cannot pass othr is not
                        # counted, and the scan is skipped when no item can pass (p's children are
                        # sorted by max(P, N): the first one at or below othr ends the candidates;
                        # the viable ones are stamped with this leaf parent's number). The
                        # threshold collector builds the leaf parent's database instead: in modes
                        # 0 and 2 children are not sorted, and in a plain count nearly every item
                        # is viable.
                        pd = depth - 1
                        jj = cur[depth]
                        pj = sp[pd, jj]
                        nj = sn[pd, jj]
                        n_viable = 0
                        stamp += 1
                        for c in range(ncand[pd]):
                            i = ch[pd, c]
                            pi = sp[pd, i]
                            ni = sn[pd, i]
                            if not (pi > othr or ni > othr):
                                break
                            if i > jj and _leaf_may_pass(pj, nj, pi, ni, db_p[pd], db_n[pd], othr):
                                viable[i] = stamp
                                n_viable += 1
                        for r in range(
                            start[pd, jj], start[pd, jj] + cnt[pd, jj] if n_viable else 0
                        ):
                            t = occ_t[pd, r]
                            a = twp[pd, t]
                            b = twn[pd, t]
                            for q in range(occ_p[pd, r] + 1, tp[pd, t + 1]):
                                j = ti[pd, q]
                                if viable[j] == stamp:
                                    if cnt[depth, j] == 0:
                                        ch[depth, k_ch] = j
                                        k_ch += 1
                                        sp[depth, j] = 0.0
                                        sn[depth, j] = 0.0
                                    cnt[depth, j] += 1
                                    sp[depth, j] += a
                                    sn[depth, j] += b
                        if k_ch == 0:
                            n_nodes -= 1  # no item survived the cut: not a node, as below
                    else:
                        for t in range(n_t):
                            a = twp[depth, t]
                            b = twn[depth, t]
                            for q in range(tp[depth, t], tp[depth, t + 1]):
                                j = ti[depth, q]
                                if cnt[depth, j] == 0:
                                    ch[depth, k_ch] = j
                                    if store_occ:
                                        met_in[k_ch] = t
                                    k_ch += 1
                                    sp[depth, j] = 0.0
                                    sn[depth, j] = 0.0
                                cnt[depth, j] += 1
                                sp[depth, j] += a
                                sn[depth, j] += b
                    nch[depth] = k_ch
                    if store_occ:
                        _backward_order(ch, depth, k_ch, met_in)
                    can_open = depth + 1 < depth_cap
                    ncand[depth] = k_ch
                    nwalk[depth] = k_ch
                    if mode == 1 and can_open:
                        if not topk or theta >= 1.0:
                            ncand[depth], nwalk[depth] = _order_walk(
                                ch, sp, sn, depth, k_ch, othr, topk, walk_buf
                            )
                        else:
                            _order_by_bound(ch[depth], sp[depth], sn[depth], k_ch)
                    # the occurrence lists are delivered in a second sweep, only for the children
                    # that are opened (or whose transactions are kept): delivering every child's
                    # in the counting sweep wrote far more than a top-K search opens
                    off = 0
                    any_deliver = False
                    for c in range(k_ch):
                        j = ch[depth, c]
                        op = can_open and _may_grow(sp[depth, j], sn[depth, j], othr, mode)
                        opened[depth, j] = op
                        if op or store_occ:
                            any_deliver = True
                            start[depth, j] = off
                            off += cnt[depth, j]
                    if any_deliver:
                        for t in range(n_t):
                            for q in range(tp[depth, t], tp[depth, t + 1]):
                                j = ti[depth, q]
                                if opened[depth, j] or store_occ:
                                    s = start[depth, j]
                                    occ_t[depth, s] = t
                                    occ_p[depth, s] = q
                                    start[depth, j] = s + 1
                        for c in range(k_ch):
                            j = ch[depth, c]
                            if opened[depth, j] or store_occ:
                                start[depth, j] -= cnt[depth, j]

                # ---------- walk the children; descend into the next one that is opened ----------
                # (the position among the node's children is kept in a local while walking
                # them, and in chpos only while a child's subtree is searched)
                descended = False
                pos = 0
                n_pos = nwalk[depth]
                while not descended:
                    if pos >= n_pos:
                        if bitset:
                            # a leaf parent's children were measured in the walk
                            if depth > 0 and depth + 1 == depth_cap and nodes >= max_nodes:
                                return nodes, False
                        else:
                            for c in range(nch[depth]):
                                cnt[depth, ch[depth, c]] = 0
                        depth -= 1
                        if depth < 0:
                            break
                        pos = chpos[depth]
                        n_pos = nwalk[depth]
                        continue
                    j = ch[depth, pos]
                    pos += 1
                    if bitset and depth > 0 and depth + 1 == depth_cap:
                        # a leaf: bounded from its two parents with the threshold of the
                        # moment, measured only if it can pass, and never opened
                        if _cost_bound_fails(
                            lf_cost,
                            per_term,
                            lf_p,
                            lf_n,
                            sp[depth - 1, j],
                            sn[depth - 1, j],
                            lf_ns,
                            thr,
                            True,
                        ):
                            continue
                        P, N, cj = _measure(
                            cov,
                            depth,
                            bits,
                            j,
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
                        if cj == 0 or cj == lf_c:
                            continue
                    else:
                        P = sp[depth, j]
                        N = sn[depth, j]
                    if lowest:
                        # the lowest-cost collector: a new cost below the threshold is held
                        # (and may lower the threshold); a node is opened while a strict
                        # superset can still cost less, fixed + per_term * (size + 1) - P
                        size = depth + 1
                        rc = fixed + per_term * size + N - P
                        if rc < thr:
                            cur[size] = j
                            _insert(heap_val, heap_items, heap_size, heap_n, rc, cur, size)
                            thr = _threshold(tau, heap_val, heap_n)
                            if stop_when_full and heap_n[0] == cap_heap:
                                return nodes, False
                        if size >= depth_cap or fixed + per_term * (size + 1) - P >= thr:
                            continue
                    else:
                        v = P - N
                        av = abs(v)
                        if topk and av > 1.0:
                            seen += av - 1.0
                        if topk:
                            if measuring and av > 1.0:
                                # the threshold collector's measurement: every output at 1, in order
                                n_out += 1
                                if not _excluded(excl_sorted, key[depth] ^ codes[j]):
                                    acc += av - 1.0
                                if acc >= target:
                                    measuring = False
                                    status = REACHED
                                elif max_out > 0 and n_out >= max_out:
                                    measuring = False
                                    status = CAPPED
                            if av > thr:
                                kj = key[depth] ^ codes[j]
                                if not _excluded(excl_sorted, kj):
                                    n_held = _hold(
                                        hv,
                                        hval,
                                        hkey,
                                        hsz,
                                        hit,
                                        order,
                                        n_held,
                                        K,
                                        av,
                                        v,
                                        kj,
                                        cur,
                                        depth + 1,
                                        j,
                                    )
                                    if n_held == K:
                                        thr = max(theta, hv[order[0]])
                            othr = 1.0 if measuring else thr
                        elif (v > theta) if mode == 0 else (av > theta):
                            if store:
                                size = depth + 1
                                if n_out + 1 >= values.shape[0]:
                                    values = grow(values, n_out + 2)
                                    keys = grow(keys, n_out + 2)
                                    item_ptr = grow(item_ptr, values.shape[0] + 1)
                                    if store_occ:
                                        occ_ptr = grow(occ_ptr, values.shape[0] + 1)
                                base = item_ptr[n_out]
                                items = grow(items, base + size)
                                for r in range(depth):
                                    items[base + r] = cur[r + 1]
                                items[base + depth] = j
                                item_ptr[n_out + 1] = base + size
                                values[n_out] = v
                                keys[n_out] = key[depth] ^ codes[j]
                                if store_occ:
                                    ob = occ_ptr[n_out]
                                    c_j = cnt[depth, j]
                                    occ = grow(occ, ob + c_j)
                                    s_j = start[depth, j]
                                    for r in range(c_j):
                                        occ[ob + r] = trow[depth, occ_t[depth, s_j + r]]
                                    occ_ptr[n_out + 1] = ob + c_j
                            n_out += 1
                            if target > 0 and not _excluded(excl_sorted, key[depth] ^ codes[j]):
                                acc += av - 1.0
                                if acc >= target:
                                    return (
                                        n_out,
                                        REACHED,
                                        item_ptr,
                                        items,
                                        values,
                                        keys,
                                        occ_ptr,
                                        occ,
                                        n_nodes,
                                        acc,
                                        seen,
                                    )
                            if max_out > 0 and n_out >= max_out:
                                return (
                                    n_out,
                                    CAPPED,
                                    item_ptr,
                                    items,
                                    values,
                                    keys,
                                    occ_ptr,
                                    occ,
                                    n_nodes,
                                    acc,
                                    seen,
                                )
                        # a top-K threshold may have risen since this node's children were scanned
                        if not opened[depth, j] or (topk and not _may_grow(P, N, othr, mode)):
                            continue

                    # ---------- open the child: its cover, then descend into it ----------
                    d1 = depth + 1
                    if bitset:
                        for w in range(n_words):
                            cov[d1, w] = cov[depth, w] & bits[j, w]
                        db_n[d1] = N
                        db_c[d1] = cnt[depth, j]
                    elif not (topk and d1 + 1 == depth_cap):
                        # (a top-K leaf parent is scanned from this node's occurrence lists)
                        if topk:
                            # an item i is kept only where p + i could still pass on a side that p
                            # itself passes: P(p + i) <= min(P(p), P(parent + i)), the same for N
                            # (decided per child: the heap's threshold moves)
                            keep_p = P > othr
                            keep_n = N > othr
                            keep_thr = othr
                        else:
                            # a fixed threshold: the items that may still grow (_may_grow);
                            # mode 2 keeps every item (P >= 0 > -1)
                            keep_p = True
                            keep_n = mode == 1
                            keep_thr = othr if mode != 2 else -1.0
                        table, n_new, p_sum, n_sum = _project(
                            depth,
                            j,
                            d1 + 1 < depth_cap and cnt[depth, j] > 1 and not store_occ,
                            start,
                            cnt,
                            occ_t,
                            occ_p,
                            tp,
                            ti,
                            twp,
                            twn,
                            keep_p,
                            keep_n,
                            keep_thr,
                            sp,
                            sn,
                            codes,
                            nh,
                            table,
                            trow,
                            store_occ,
                        )
                        if topk:  # the leaf bounds need the database's totals
                            db_p[d1] = p_sum
                            db_n[d1] = n_sum
                        if n_new == 0:
                            continue
                        nt[d1] = n_new
                    cur[d1] = j
                    if not bitset:
                        key[d1] = key[depth] ^ codes[j]
                    chpos[depth] = pos
                    depth = d1
                    descended = True
                if depth < 0:
                    break

        if lowest:
            return nodes, True
        if topk:
            item_ptr, items, values, keys = _heap_sorted(hv, hval, hkey, hsz, hit, n_held)
            n_out = n_held
        return (n_out, status, item_ptr, items, values, keys, occ_ptr, occ, n_nodes, acc, seen)

    return _kernel


# the kernels in use: GRAB's collectors over databases, pricing's over bitsets
_KERNELS = {
    (THRESHOLD, False): _make_kernel(THRESHOLD, DATABASE, False),
    (THRESHOLD, True): _make_kernel(THRESHOLD, DATABASE, True),
    (TOP_K, False): _make_kernel(TOP_K, DATABASE, False),
    (LOWEST_COST, False): _make_kernel(LOWEST_COST, BITSET, False),
}


def traverse(
    indptr,
    indices,
    wpos,
    wneg,
    n_items,
    theta,
    max_size,
    mode,
    collect,
    top_k,
    max_out,
    store,
    store_occ,
    codes,
    excl_sorted,
    target,
):
    """Search the itemsets of size <= ``max_size`` and collect those that pass.

    Parameters
    ----------
    indptr, indices : CSR of the transactions, items sorted ascending in each row.
    wpos, wneg : float64 per transaction, both >= 0.
    n_items : number of distinct items (ids 0 .. n_items - 1).
    theta : the threshold of the test.
    max_size : largest itemset size (>= 0).
    mode : the test, 0, 1 or 2 (module docstring); ``TOP_K`` takes mode 1.
    collect : ``THRESHOLD`` or ``TOP_K``.
    top_k : K, for ``TOP_K``.
    max_out : ``THRESHOLD``: stop after this many outputs (status CAPPED); ``TOP_K``: stop
        the measurement there. <= 0: no cap.
    store : ``THRESHOLD``: keep the outputs (False: only count them).
    store_occ : ``THRESHOLD``: also keep each output's transactions (row ids of the input).
        Children are then met in the order of a backward scan of each transaction, and no
        transactions are merged.
    codes : uint64 per item, XOR-ed into a 64-bit key per itemset (Zobrist hashing), so
        callers recognise itemsets they already have without building tuples.
    excl_sorted : sorted uint64 keys of itemsets that are never held by ``TOP_K`` and do
        not count towards the running sum (they are still expanded).
    target : > 0 turns on the running sum of ``|wfrq| - 1`` over the outputs not excluded.
        ``THRESHOLD``: the search stops (REACHED) when the sum reaches it. ``TOP_K``: the
        same sum is measured as a ``THRESHOLD`` search in mode 1 at theta = 1 would, on a
        database reduced at 1 (nodes are opened and items kept at 1 until the sum reaches
        ``target`` or ``max_out`` outputs are counted; from then on only the heap's
        threshold applies). The order can differ from that call's in one way: the heap
        also cuts items by the side a child passes, so a transaction may merge, and be
        netted, differently, which moves the children's bounds and so their order. It
        matters only for a measurement capped at ``max_out``.

    Returns
    -------
    n : number of outputs (``TOP_K``: held, <= K, ordered by |value| descending, ties by
        key ascending)
    status : COMPLETE, CAPPED or REACHED (``TOP_K``: of the measurement)
    item_ptr, items : the outputs' items (``items[item_ptr[i]:item_ptr[i + 1]]``)
    values, keys : their weighted frequencies and keys
    occ_ptr, occ : their transactions, with ``store_occ``
    n_nodes : search-tree nodes opened
    acc : the running sum (0 without a target)
    seen : sum of ``|wfrq| - 1`` over every itemset of size >= 1 met with ``|wfrq| > 1``,
        excluded or not (no key lookups)
    """
    if collect not in (THRESHOLD, TOP_K):
        raise ValueError(
            f"collect must be THRESHOLD ({THRESHOLD}) or TOP_K ({TOP_K}), got {collect!r}"
        )
    if mode not in (0, 1, 2) or (collect == TOP_K and mode != 1):
        raise ValueError(f"mode must be 0, 1 or 2 (1 with TOP_K), got {mode!r}")
    kernel = _KERNELS[(collect, bool(store_occ) and collect == THRESHOLD)]
    data = (indptr, indices, wpos, wneg, int(n_items), codes)
    params = (
        float(theta),
        int(mode),
        int(top_k),
        int(max_out),
        bool(store),
        excl_sorted,
        float(target),
    )
    return kernel(data, params, int(max_size))


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
    """Search for the itemsets of lowest cost below ``tau``, first item in
    [root_lo, root_hi): the traversal with the ``LOWEST_COST`` collector over bitsets.

    ``bits`` are the items' bitsets over the rows of ``layout`` (:func:`weighted_layout`,
    :func:`pack_rows`), ``root`` is :func:`measure_root`'s output, and an itemset S of at
    most ``max_terms`` (>= 1) items costs ``fixed + per_term * |S| + N(S) - P(S)``. The
    lowest costs found are kept in the heap (``heap_val``, ``heap_items``, ``heap_size``,
    ``heap_n[0]`` held; its capacity is ``len(heap_val)``, and ties keep the first met),
    which the caller may carry over from one call to the next (a search split by first
    item). The threshold is ``tau`` until the heap is full, then the heap's worst cost.
    ``stop_when_full`` stops the search as soon as the heap is full; ``max_nodes`` bounds
    the itemsets measured.

    Returns (nodes measured, finished). A child whose cover equals its parent's is skipped
    (it and its supersets cost more than the parent for the same rows). A node's children
    are bounded by inclusion-exclusion from their two parents before they are measured
    (:func:`_cost_bound_fails`), and a node is opened only while a strict superset can
    still cost less than the threshold, ``fixed + per_term * (|S| + 1) - P(S)`` (the
    anti-monotone bound); the children of a node whose children are leaves are measured
    one by one, against the threshold of the moment.
    """
    data = (bits, layout, opw, onw, root, int(root_lo), int(root_hi))
    params = (
        float(fixed),
        float(per_term),
        float(tau),
        heap_val,
        heap_items,
        heap_size,
        heap_n,
        int(max_nodes),
        bool(stop_when_full),
    )
    return _KERNELS[(LOWEST_COST, False)](data, params, int(max_terms))
