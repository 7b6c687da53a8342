"""Compiled depth-first itemset enumeration (the inner loops of WFIM, counting and expansion).

One kernel serves every use: a backtracking search over itemsets in which a node p is
extended only by items larger than its last one (each itemset is met exactly once), and
its children's occurrence lists are built by *occurrence delivery* (LCM, Uno et al. 2004):
one sweep over the transactions that contain p hands each transaction to every item it
holds after p's last item. A node costs O(sum of |t| over T(p)), the bound of the paper's
Section 3.2.

Each transaction carries two non-negative weights, ``wpos`` and ``wneg``: the positive and
negative parts of its importance alpha. Identical transactions are merged, and a merged
transaction is *netted*: it adds wpos - wneg to every itemset that contains it, so only the
positive or the negative part of that difference is kept, which tightens the bounds below
without changing any weighted frequency. For an itemset p, ``P(p) = sum of wpos over T(p)`` and
``N(p) = sum of wneg over T(p)``; its weighted frequency is ``P(p) - N(p)``. ``P`` and ``N`` are
anti-monotone, which gives the two-stage strategy of Section 3.3 in one traversal:

- mode 0 (WFIM for alpha): a node is expanded while ``P(p) > theta`` (stage 1, only the
  positive transactions count) and output when ``P(p) - N(p) > theta`` (stage 2, the negative
  transactions are added back);
- mode 1 (the two WFIM problems of Theorem 1 at once, for alpha and -alpha): expanded while
  ``P(p) > theta`` or ``N(p) > theta``, output when ``|P(p) - N(p)| > theta``;
- mode 2 (naive exhaustive search, the baseline of Section 5.1): every itemset that occurs
  is visited and its weighted frequency computed; output when ``|P(p) - N(p)| > theta``.

Counting ("how many itemsets occur at least once") is mode 0 with unit weights and
``theta = 0.5`` without storing the output.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# status codes returned by the kernel
COMPLETE = 0
CAPPED = 1       # stopped after max_out outputs (Section 4, "incomplete termination")
REACHED = 2      # stopped once the outputs' sum of |wfrq| - 1 reached the target


@njit(cache=True, nogil=True)
def _grow_i32(a, need):
    if need <= a.shape[0]:
        return a
    b = np.empty(max(need, 2 * a.shape[0]), dtype=a.dtype)
    b[: a.shape[0]] = a
    return b


@njit(cache=True, nogil=True)
def _grow_i64(a, need):
    if need <= a.shape[0]:
        return a
    b = np.zeros(max(need, 2 * a.shape[0]), dtype=a.dtype)
    b[: a.shape[0]] = a
    return b


@njit(cache=True, nogil=True)
def _grow_f64(a, need):
    if need <= a.shape[0]:
        return a
    b = np.empty(max(need, 2 * a.shape[0]), dtype=a.dtype)
    b[: a.shape[0]] = a
    return b


@njit(cache=True, nogil=True)
def _grow_u64(a, need):
    if need <= a.shape[0]:
        return a
    b = np.empty(max(need, 2 * a.shape[0]), dtype=a.dtype)
    b[: a.shape[0]] = a
    return b


@njit(cache=True, nogil=True)
def _excluded(sorted_keys, k):
    n = sorted_keys.shape[0]
    if n == 0:
        return False
    i = np.searchsorted(sorted_keys, k)
    return i < n and sorted_keys[i] == k


@njit(cache=True, nogil=True)
def mine(indptr, indices, wpos, wneg, n_items, theta, max_size, mode, max_out, store,
         codes, store_occ):
    """Enumerate the itemsets of size <= max_size that pass the test of ``mode``.

    Parameters
    ----------
    indptr, indices : CSR of the transactions (items sorted ascending in each row).
    wpos, wneg : float64 per transaction, both >= 0.
    n_items : number of distinct items (ids 0 .. n_items - 1).
    theta : threshold.
    max_size : largest itemset size (>= 0).
    mode : 0 = wfrq > theta (stage-1 pruning on wpos), 1 = |wfrq| > theta, 2 = no pruning.
    max_out : stop after this many outputs (<= 0: no cap).
    store : keep the output itemsets (False: only count them).
    codes : uint64 per item, XOR-ed into a 64-bit key per itemset (Zobrist hashing), so the
        caller can recognise itemsets it already has without building tuples.
    store_occ : also keep each output's occurrence list (transaction ids), for expansion.

    Returns
    -------
    n_out, status, item_ptr, items, values, pos, keys, occ_ptr, occ
    """
    m = indptr.shape[0] - 1
    nnz = indices.shape[0]
    # the longest transaction bounds the size of any itemset that occurs
    longest = 0
    for t in range(m):
        ln = indptr[t + 1] - indptr[t]
        if ln > longest:
            longest = ln
    depth_cap = min(max_size, longest)
    L = max(depth_cap, 1)

    cnt = np.zeros((L, n_items), dtype=np.int64)
    start = np.zeros((L, n_items), dtype=np.int64)
    sp = np.zeros((L, n_items), dtype=np.float64)
    sn = np.zeros((L, n_items), dtype=np.float64)
    ch = np.empty((L, n_items), dtype=np.int32)
    nch = np.zeros(L, dtype=np.int64)
    chpos = np.zeros(L, dtype=np.int64)
    opened = np.zeros((L, n_items), dtype=np.bool_)
    delivered = np.zeros((L, n_items), dtype=np.bool_)
    # occbuf[d] holds the occurrence lists of the children of the node at depth d
    occbuf = np.empty((L, max(nnz, 1)), dtype=np.int32)
    occ_lo = np.zeros(L + 1, dtype=np.int64)
    occ_len = np.zeros(L + 1, dtype=np.int64)
    cur = np.empty(L + 1, dtype=np.int32)
    key = np.zeros(L + 1, dtype=np.uint64)

    cap0 = 1024 if max_out <= 0 else min(max_out, 1 << 16) + 1
    item_ptr = np.zeros(cap0 + 1, dtype=np.int64)
    items = np.empty(cap0 * 2, dtype=np.int32)
    values = np.empty(cap0, dtype=np.float64)
    posv = np.empty(cap0, dtype=np.float64)
    keys = np.empty(cap0, dtype=np.uint64)
    occ_ptr = np.zeros(cap0 + 1 if store_occ else 1, dtype=np.int64)
    occ = np.empty(1024 if store_occ else 1, dtype=np.int32)
    n_out = 0

    # --- the root: the empty itemset, i.e. the constant feature T (the bias) ---
    P = 0.0
    N = 0.0
    for t in range(m):
        P += wpos[t]
        N += wneg[t]
    v = P - N
    ok = v > theta if mode == 0 else abs(v) > theta
    if ok:
        if store:
            values[0] = v
            posv[0] = P
            keys[0] = np.uint64(0)
            if store_occ:
                occ = _grow_i32(occ, m)
                for t in range(m):
                    occ[t] = t
                occ_ptr[1] = m
        n_out = 1
        if max_out > 0 and n_out >= max_out:
            return n_out, CAPPED, item_ptr, items, values, posv, keys, occ_ptr, occ
    root_open = P > theta or (mode == 1 and N > theta) or mode == 2
    if depth_cap == 0 or not (root_open or store_occ):
        return n_out, COMPLETE, item_ptr, items, values, posv, keys, occ_ptr, occ

    depth = 0
    cur[0] = -1
    while True:
        # ---------- children of the node at `depth`: one sweep over its occurrences ----------
        tail = cur[depth]
        lo = occ_lo[depth]
        ln = m if depth == 0 else occ_len[depth]
        k_ch = 0
        for q in range(ln):
            t = q if depth == 0 else occbuf[depth - 1, lo + q]
            a = wpos[t]
            b = wneg[t]
            # items are sorted: walk back from the end while they exceed the tail
            e = indptr[t + 1] - 1
            s0 = indptr[t]
            while e >= s0:
                j = indices[e]
                if j <= tail:
                    break
                if cnt[depth, j] == 0:
                    ch[depth, k_ch] = j
                    k_ch += 1
                    sp[depth, j] = 0.0
                    sn[depth, j] = 0.0
                cnt[depth, j] += 1
                sp[depth, j] += a
                sn[depth, j] += b
                e -= 1
        nch[depth] = k_ch
        chpos[depth] = 0
        # stage 1: a child is opened only while P (or N, in mode 1) exceeds theta
        can_open = depth + 1 < depth_cap
        any_deliver = False
        off = 0
        for c in range(k_ch):
            j = ch[depth, c]
            op = can_open and (sp[depth, j] > theta or (mode == 1 and sn[depth, j] > theta)
                                  or mode == 2)
            opened[depth, j] = op
            dl = op or store_occ
            delivered[depth, j] = dl
            if dl:
                any_deliver = True
                start[depth, j] = off
                off += cnt[depth, j]
        if any_deliver:
            for q in range(ln):
                t = q if depth == 0 else occbuf[depth - 1, lo + q]
                e = indptr[t + 1] - 1
                s0 = indptr[t]
                while e >= s0:
                    j = indices[e]
                    if j <= tail:
                        break
                    if delivered[depth, j]:
                        occbuf[depth, start[depth, j]] = t
                        start[depth, j] += 1
                    e -= 1
            for c in range(k_ch):
                j = ch[depth, c]
                if delivered[depth, j]:
                    start[depth, j] -= cnt[depth, j]

        # ---------- walk the children; descend into the next one that is opened ----------
        descended = False
        while not descended:
            if chpos[depth] >= nch[depth]:
                for c in range(nch[depth]):
                    cnt[depth, ch[depth, c]] = 0
                depth -= 1
                if depth < 0:
                    return n_out, COMPLETE, item_ptr, items, values, posv, keys, occ_ptr, occ
                continue
            j = ch[depth, chpos[depth]]
            chpos[depth] += 1
            P = sp[depth, j]
            N = sn[depth, j]
            v = P - N
            ok = v > theta if mode == 0 else abs(v) > theta
            if ok:
                if store:
                    size = depth + 1
                    if n_out + 1 >= values.shape[0]:
                        values = _grow_f64(values, n_out + 2)
                        posv = _grow_f64(posv, n_out + 2)
                        keys = _grow_u64(keys, n_out + 2)
                        item_ptr = _grow_i64(item_ptr, values.shape[0] + 1)
                        if store_occ:
                            occ_ptr = _grow_i64(occ_ptr, values.shape[0] + 1)
                    base = item_ptr[n_out]
                    items = _grow_i32(items, base + size)
                    for r in range(depth):
                        items[base + r] = cur[r + 1]
                    items[base + depth] = j
                    item_ptr[n_out + 1] = base + size
                    values[n_out] = v
                    posv[n_out] = P
                    keys[n_out] = key[depth] ^ codes[j]
                    if store_occ:
                        ob = occ_ptr[n_out]
                        c_j = cnt[depth, j]
                        occ = _grow_i32(occ, ob + c_j)
                        s_j = start[depth, j]
                        for r in range(c_j):
                            occ[ob + r] = occbuf[depth, s_j + r]
                        occ_ptr[n_out + 1] = ob + c_j
                n_out += 1
                if max_out > 0 and n_out >= max_out:
                    return n_out, CAPPED, item_ptr, items, values, posv, keys, occ_ptr, occ
            if opened[depth, j]:
                cur[depth + 1] = j
                key[depth + 1] = key[depth] ^ codes[j]
                occ_lo[depth + 1] = start[depth, j]
                occ_len[depth + 1] = cnt[depth, j]
                depth += 1
                descended = True


@njit(cache=True, nogil=True, inline="always")
def _same_run(a, a0, b, b0, n):
    """Whether ``a[a0:a0 + n]`` equals ``b[b0:b0 + n]`` (two transactions' items)."""
    for z in range(n):
        if a[a0 + z] != b[b0 + z]:
            return False
    return True


@njit(cache=True, nogil=True)
def _order_by_bound(ch, sp, sn, depth, k_ch):
    """Sort the children ``ch[depth, :k_ch]`` by descending ``max(P, N)`` (stable).

    Mode 1 searches (GRAB's) visit children in this order, so the outputs of largest
    ``|wfrq|`` tend to come first; :func:`mine_reduced` and :func:`mine_topk` use the same
    order, so their outputs (and GRAB's running sums over them) are met alike. A leaf
    parent's children are not sorted (they are all met whatever their order), and long
    lists (tens of thousands of items on madelon) are merge-sorted, not insertion-sorted."""
    if k_ch <= 32:
        for a in range(1, k_ch):
            x = ch[depth, a]
            bx = max(sp[depth, x], sn[depth, x])
            b = a - 1
            while b >= 0 and max(sp[depth, ch[depth, b]], sn[depth, ch[depth, b]]) < bx:
                ch[depth, b + 1] = ch[depth, b]
                b -= 1
            ch[depth, b + 1] = x
        return
    neg_bound = np.empty(k_ch)
    for a in range(k_ch):
        x = ch[depth, a]
        neg_bound[a] = -max(sp[depth, x], sn[depth, x])
    perm = np.argsort(neg_bound, kind="mergesort")
    items = ch[depth, :k_ch].copy()
    for a in range(k_ch):
        ch[depth, a] = items[perm[a]]


@njit(cache=True, nogil=True, inline="always")
def _project(depth, j, merge, start, cnt, occ_t, occ_p, tp, ti, twp, twn, keep, codes, nh,
             table):
    """Write the conditional database of the child ``j`` of the node at ``depth``.

    The child's transactions are those of the node that contain j, cut to the items after
    j that are kept (``keep[i]``, decided once per child by the caller rather than per
    entry). Empty ones are dropped. With ``merge`` (the child's database will be scanned again
    below it) identical transactions are merged as they are written, through an
    open-addressing hash table on their 64-bit sums, and each merged transaction is
    netted. Returns the (possibly grown) hash table, the child's transaction count and its
    database's total P and N (after netting).
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
            if keep[i]:
                ti[d1, w_] = i
                w_ += 1
                h += codes[i]
        if w_ == s0:            # empty transactions have no extensions
            continue
        if merge:
            slot = h & mask
            found = False
            while True:
                g = table[slot]
                if g < 0:
                    table[slot] = n_new
                    break
                if (nh[g] == h and tp[d1, g + 1] - tp[d1, g] == w_ - s0
                        and _same_run(ti[d1], tp[d1, g], ti[d1], s0, w_ - s0)):
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


@njit(cache=True, nogil=True)
def mine_reduced(indptr, indices, wpos, wneg, n_items, theta, max_size, mode, max_out, store,
                 codes, excl_sorted, target):
    """The same search as :func:`mine` (no occurrence lists), with database reduction.

    Every opened node gets its own *conditional database* (LCM's database reduction):
    the transactions that contain it, cut to the items after its last item that are still
    alive (P > theta, or N > theta in mode 1, in the parent's database; an item that fails
    there fails in every descendant), with identical transactions merged (their P and N
    parts add up) and empty ones dropped. Deep in the tree these databases collapse to a few
    short transactions, which is where a plain occurrence-list search spends its time.
    ``target`` > 0 turns on the running sum of ``|wfrq| - 1`` over the outputs whose key is
    not in ``excl_sorted`` (GRAB's V over the search, eq. 17): the search stops with status
    REACHED as soon as it reaches ``target``. Outputs are met in the same order either way,
    so "the sum over the first max_out outputs is >= target" is decided exactly, usually
    after a fraction of them.
    Returns n_out, status, item_ptr, items, values, pos, keys, the running sum.
    """
    m0 = indptr.shape[0] - 1
    nnz0 = indices.shape[0]
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
    nt = np.zeros(L, dtype=np.int64)
    # per depth: children statistics and their occurrence lists in that database
    cnt = np.zeros((L, n_items), dtype=np.int64)
    start = np.zeros((L, n_items), dtype=np.int64)
    sp = np.zeros((L, n_items), dtype=np.float64)
    sn = np.zeros((L, n_items), dtype=np.float64)
    alive = np.zeros((L, n_items), dtype=np.bool_)
    opened = np.zeros((L, n_items), dtype=np.bool_)
    ch = np.empty((L, n_items), dtype=np.int32)
    nch = np.zeros(L, dtype=np.int64)
    chpos = np.zeros(L, dtype=np.int64)
    occ_t = np.empty((L, cap_i), dtype=np.int64)   # transaction index
    occ_p = np.empty((L, cap_i), dtype=np.int64)   # position of the child item in it
    cur = np.empty(L + 1, dtype=np.int32)
    key = np.zeros(L + 1, dtype=np.uint64)
    nh = np.empty(cap_t, dtype=np.uint64)
    table = np.empty(16, dtype=np.int64)

    cap0 = 1024 if max_out <= 0 else min(max_out, 1 << 16) + 1
    item_ptr = np.zeros(cap0 + 1, dtype=np.int64)
    items = np.empty(cap0 * 2, dtype=np.int32)
    values = np.empty(cap0, dtype=np.float64)
    posv = np.empty(cap0, dtype=np.float64)
    keys = np.empty(cap0, dtype=np.uint64)
    n_out = 0
    acc = 0.0

    # root database = the input
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
    nt[0] = m0
    v = P - N
    ok = v > theta if mode == 0 else abs(v) > theta
    if ok:
        if store:
            values[0] = v
            posv[0] = P
            keys[0] = np.uint64(0)
        n_out = 1
        if target > 0 and not _excluded(excl_sorted, np.uint64(0)):
            acc += abs(v) - 1.0
            if acc >= target:
                return n_out, REACHED, item_ptr, items, values, posv, keys, acc
        if max_out > 0 and n_out >= max_out:
            return n_out, CAPPED, item_ptr, items, values, posv, keys, acc
    root_open = P > theta or (mode == 1 and N > theta) or mode == 2
    if depth_cap == 0 or not root_open:
        return n_out, COMPLETE, item_ptr, items, values, posv, keys, acc

    depth = 0
    cur[0] = -1
    while True:
        # ---------- scan the database of the node at `depth` ----------
        n_t = nt[depth]
        k_ch = 0
        for t in range(n_t):
            a = twp[depth, t]
            b = twn[depth, t]
            for q in range(tp[depth, t], tp[depth, t + 1]):
                j = ti[depth, q]
                if cnt[depth, j] == 0:
                    ch[depth, k_ch] = j
                    k_ch += 1
                    sp[depth, j] = 0.0
                    sn[depth, j] = 0.0
                cnt[depth, j] += 1
                sp[depth, j] += a
                sn[depth, j] += b
        nch[depth] = k_ch
        chpos[depth] = 0
        can_open = depth + 1 < depth_cap
        if mode == 1 and can_open:
            _order_by_bound(ch, sp, sn, depth, k_ch)
        off = 0
        any_open = False
        for c in range(k_ch):
            j = ch[depth, c]
            al = sp[depth, j] > theta or (mode == 1 and sn[depth, j] > theta) or mode == 2
            alive[depth, j] = al
            op = can_open and al
            opened[depth, j] = op
            if op:
                any_open = True
                start[depth, j] = off
                off += cnt[depth, j]
        if any_open:
            for t in range(n_t):
                for q in range(tp[depth, t], tp[depth, t + 1]):
                    j = ti[depth, q]
                    if opened[depth, j]:
                        s = start[depth, j]
                        occ_t[depth, s] = t
                        occ_p[depth, s] = q
                        start[depth, j] = s + 1
            for c in range(k_ch):
                j = ch[depth, c]
                if opened[depth, j]:
                    start[depth, j] -= cnt[depth, j]

        # ---------- walk the children; descend into the next one that is opened ----------
        descended = False
        while not descended:
            if chpos[depth] >= nch[depth]:
                for c in range(nch[depth]):
                    cnt[depth, ch[depth, c]] = 0
                depth -= 1
                if depth < 0:
                    return n_out, COMPLETE, item_ptr, items, values, posv, keys, acc
                continue
            j = ch[depth, chpos[depth]]
            chpos[depth] += 1
            P = sp[depth, j]
            N = sn[depth, j]
            v = P - N
            ok = v > theta if mode == 0 else abs(v) > theta
            if ok:
                if store:
                    size = depth + 1
                    if n_out + 1 >= values.shape[0]:
                        values = _grow_f64(values, n_out + 2)
                        posv = _grow_f64(posv, n_out + 2)
                        keys = _grow_u64(keys, n_out + 2)
                        item_ptr = _grow_i64(item_ptr, values.shape[0] + 1)
                    base = item_ptr[n_out]
                    items = _grow_i32(items, base + size)
                    for r in range(depth):
                        items[base + r] = cur[r + 1]
                    items[base + depth] = j
                    item_ptr[n_out + 1] = base + size
                    values[n_out] = v
                    posv[n_out] = P
                    keys[n_out] = key[depth] ^ codes[j]
                n_out += 1
                if target > 0 and not _excluded(excl_sorted, key[depth] ^ codes[j]):
                    acc += abs(v) - 1.0
                    if acc >= target:
                        return n_out, REACHED, item_ptr, items, values, posv, keys, acc
                if max_out > 0 and n_out >= max_out:
                    return n_out, CAPPED, item_ptr, items, values, posv, keys, acc
            if not opened[depth, j]:
                continue
            # ---- build the conditional database of the child j ----
            d1 = depth + 1
            table, n_new, _, _ = _project(depth, j, d1 + 1 < depth_cap and cnt[depth, j] > 1,
                                          start, cnt, occ_t, occ_p, tp, ti, twp, twn,
                                          alive[depth], codes, nh, table)
            if n_new == 0:
                continue
            nt[d1] = n_new
            cur[d1] = j
            key[d1] = key[depth] ^ codes[j]
            depth = d1
            descended = True


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
                if (hsh[g] == h and out_ptr[g + 1] - out_ptr[g] == w_ - s0
                        and _same_run(out_idx, out_ptr[g], out_idx, s0, w_ - s0)):
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
            if (hsh[cand] == h and label[u] == label[t] and indptr[u + 1] - indptr[u] == n
                    and _same_run(indices, indptr[u], indices, indptr[t], n)):
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


@njit(cache=True, nogil=True)
def mine_topk(indptr, indices, wpos, wneg, n_items, theta, max_size, top_k, codes,
              excl_sorted, target, max_out):
    """The K itemsets of largest ``|P - N|`` above ``theta`` (mode 1), skipping excluded keys.

    GRAB only adds the top K violators per iteration (Section 4), so the search does not
    need every itemset above theta: once K candidates are held (in a min-heap), the
    threshold rises to the K-th best ``|wfrq|`` found so far and both the output test and
    the stage-1 pruning (P > thr or N > thr) use it. Any superset q of p has
    ``|wfrq(q)| <= max(P(p), N(p))``, so pruning at the raised threshold cannot lose a
    member of the top K; the result is the exact top K of the paper's eq. (8) rather than
    the top K among the first ``max_out`` outputs of a capped search. Itemsets whose key
    is in ``excl_sorted`` (the free features, sorted) are never held but are still
    expanded. Same database reduction as :func:`mine_reduced`.

    With ``target`` > 0 the same traversal also measures V's search part the way
    :func:`mine_reduced` does at threshold 1 (mode 1, the database reduced at 1 by the
    caller): until the running sum of ``|wfrq| - 1`` over the non-excluded outputs reaches
    ``target`` or ``max_out`` outputs have been counted, nodes are opened and children
    kept at threshold 1, so the same outputs are met, in that call's order; from then on
    only the heap's threshold applies. (The order can differ in one way: this call also
    cuts items by the side a child passes, so a transaction may merge, and be netted,
    differently, which moves the children's bounds and so their order. It matters only
    for a measurement capped at ``max_out``; on a1a at k = 5 the capped sums of both calls
    agree.) The measuring part and the top-K part share their nodes, which costs about as
    much as the larger of the two separate calls.

    ``seen`` sums ``|wfrq| - 1`` over every itemset of size >= 1 met with ``|wfrq| > 1``,
    excluded or not (no key lookups): minus the free features' own excess it is a lower
    bound of V's search part that costs nothing extra.

    Returns n (<= top_k), item_ptr, items, values, keys, ordered by |value| descending
    (ties by key ascending), the number of search-tree nodes opened, the measuring
    status (COMPLETE, CAPPED or REACHED; COMPLETE when ``target`` <= 0) and the sum.
    """
    m0 = indptr.shape[0] - 1
    nnz0 = indices.shape[0]
    longest = 0
    for t in range(m0):
        ln = indptr[t + 1] - indptr[t]
        if ln > longest:
            longest = ln
    depth_cap = min(max_size, longest)
    L = max(depth_cap, 1) + 1
    cap_t = max(m0, 1)
    cap_i = max(nnz0, 1)
    tp = np.zeros((L, cap_t + 1), dtype=np.int64)
    ti = np.empty((L, cap_i), dtype=np.int32)
    twp = np.empty((L, cap_t), dtype=np.float64)
    twn = np.empty((L, cap_t), dtype=np.float64)
    nt = np.zeros(L, dtype=np.int64)
    cnt = np.zeros((L, n_items), dtype=np.int64)
    start = np.zeros((L, n_items), dtype=np.int64)
    sp = np.zeros((L, n_items), dtype=np.float64)
    sn = np.zeros((L, n_items), dtype=np.float64)
    opened = np.zeros((L, n_items), dtype=np.bool_)
    ch = np.empty((L, n_items), dtype=np.int32)
    nch = np.zeros(L, dtype=np.int64)
    chpos = np.zeros(L, dtype=np.int64)
    occ_t = np.empty((L, cap_i), dtype=np.int64)
    occ_p = np.empty((L, cap_i), dtype=np.int64)
    cur = np.empty(L + 1, dtype=np.int32)
    key = np.zeros(L + 1, dtype=np.uint64)
    db_p = np.zeros(L + 1)     # per depth: P and N summed over the node's whole database
    db_n = np.zeros(L + 1)
    viable = np.zeros(n_items, dtype=np.int64)   # == stamp: counted at this leaf parent
    stamp = 0
    kept = np.zeros(n_items, dtype=np.bool_)
    nh = np.empty(cap_t, dtype=np.uint64)
    table = np.empty(16, dtype=np.int64)

    # the heap: slot s holds |value| hv[s], value hval[s], key hkey[s], size hsz[s] and
    # the items hit[s, :hsz[s]]; order[] arranges the slots as a binary min-heap
    K = max(top_k, 1)
    hv = np.zeros(K, dtype=np.float64)
    hval = np.zeros(K, dtype=np.float64)
    hkey = np.zeros(K, dtype=np.uint64)
    hsz = np.zeros(K, dtype=np.int64)
    hit = np.empty((K, L), dtype=np.int32)
    order = np.arange(K)
    n_held = 0
    thr = theta
    n_nodes = 0
    seen = 0.0
    measuring = target > 0
    status = COMPLETE
    acc = 0.0
    n_out = 0
    othr = 1.0 if measuring else thr     # the threshold that opens nodes and keeps items

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
    nt[0] = m0
    db_p[0] = P
    db_n[0] = N
    v = P - N
    # the empty itemset (the bias T) has key 0
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
        hv[0] = abs(v)
        hval[0] = v
        hkey[0] = np.uint64(0)
        hsz[0] = 0
        n_held = 1
        if n_held == K:
            thr = max(theta, hv[order[0]])
    othr = 1.0 if measuring else thr
    if depth_cap > 0 and (P > othr or N > othr):
        depth = 0
        cur[0] = -1
        while True:
            n_nodes += 1
            n_t = nt[depth]
            k_ch = 0
            if depth > 0 and depth + 1 == depth_cap:
                # the node's children are leaves, so its database would be scanned once:
                # read its transactions straight from the parent's occurrence lists (the
                # same items, cut the same way) instead of copying them first
                pd = depth - 1
                jj = cur[depth]
                # the leaves are exact itemsets p + jj + i, so inclusion-exclusion bounds
                # them on both sides: P(p+jj+i) <= min(P(p+jj), P(p+i)) and
                # N(p+jj+i) >= N(p+jj) + N(p+i) - N(p), all over p's database; an item
                # whose leaf cannot pass othr either way is not counted, and the scan is
                # skipped when no item can pass
                # (p's children are sorted by max(P, N): the first one at or below othr
                # ends the candidates; the viable ones are stamped with this leaf parent's
                # number)
                pj = sp[pd, jj]
                nj = sn[pd, jj]
                n_viable = 0
                stamp += 1
                for c in range(nch[pd]):
                    i = ch[pd, c]
                    pi = sp[pd, i]
                    ni = sn[pd, i]
                    if not (pi > othr or ni > othr):
                        break
                    if i > jj and (min(pj, pi) - max(0.0, nj + ni - db_n[pd]) > othr
                                   or min(nj, ni) - max(0.0, pj + pi - db_p[pd]) > othr):
                        viable[i] = stamp
                        n_viable += 1
                for r in range(start[pd, jj], start[pd, jj] + cnt[pd, jj] if n_viable else 0):
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
                    n_nodes -= 1     # no item survived the cut: not a node, as below
            elif depth > 0:
                # the occurrence lists are delivered in the same sweep as the counts: an
                # item occurs in this database at most as often as in the parent's (merging
                # only lowers counts), so the parent's counts lay out the buckets
                pd = depth - 1
                jj = cur[depth]
                off = 0
                for c in range(nch[pd]):
                    i = ch[pd, c]
                    if i > jj:
                        start[depth, i] = off
                        off += cnt[pd, i]
                for t in range(n_t):
                    a = twp[depth, t]
                    b = twn[depth, t]
                    for q in range(tp[depth, t], tp[depth, t + 1]):
                        j = ti[depth, q]
                        c_j = cnt[depth, j]
                        if c_j == 0:
                            ch[depth, k_ch] = j
                            k_ch += 1
                            sp[depth, j] = 0.0
                            sn[depth, j] = 0.0
                        s = start[depth, j] + c_j
                        occ_t[depth, s] = t
                        occ_p[depth, s] = q
                        cnt[depth, j] = c_j + 1
                        sp[depth, j] += a
                        sn[depth, j] += b
            else:
                for t in range(n_t):
                    a = twp[depth, t]
                    b = twn[depth, t]
                    for q in range(tp[depth, t], tp[depth, t + 1]):
                        j = ti[depth, q]
                        if cnt[depth, j] == 0:
                            ch[depth, k_ch] = j
                            k_ch += 1
                            sp[depth, j] = 0.0
                            sn[depth, j] = 0.0
                        cnt[depth, j] += 1
                        sp[depth, j] += a
                        sn[depth, j] += b
            nch[depth] = k_ch
            chpos[depth] = 0
            # children in descending order of their bound max(P, N): the large values are
            # met first, so the heap's threshold rises early and prunes the rest harder
            can_open = depth + 1 < depth_cap
            if can_open:
                _order_by_bound(ch, sp, sn, depth, k_ch)
            delivered = depth > 0 and can_open
            off = 0
            any_open = False
            for c in range(k_ch):
                j = ch[depth, c]
                op = can_open and (sp[depth, j] > othr or sn[depth, j] > othr)
                opened[depth, j] = op
                if op and not delivered:
                    any_open = True
                    start[depth, j] = off
                    off += cnt[depth, j]
            if any_open:
                for t in range(n_t):
                    for q in range(tp[depth, t], tp[depth, t + 1]):
                        j = ti[depth, q]
                        if opened[depth, j]:
                            s = start[depth, j]
                            occ_t[depth, s] = t
                            occ_p[depth, s] = q
                            start[depth, j] = s + 1
                for c in range(k_ch):
                    j = ch[depth, c]
                    if opened[depth, j]:
                        start[depth, j] -= cnt[depth, j]

            descended = False
            while not descended:
                if chpos[depth] >= nch[depth]:
                    for c in range(nch[depth]):
                        cnt[depth, ch[depth, c]] = 0
                    depth -= 1
                    if depth < 0:
                        break
                    continue
                j = ch[depth, chpos[depth]]
                chpos[depth] += 1
                P = sp[depth, j]
                N = sn[depth, j]
                v = P - N
                av = abs(v)
                if av > 1.0:
                    seen += av - 1.0
                if measuring and av > 1.0:
                    # the paper's measurement: every output at threshold 1, in order
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
                        filling = n_held < K
                        if filling:
                            s = n_held       # a new slot, at heap position n_held
                            n_held += 1
                        else:
                            s = order[0]     # evict the smallest
                        hv[s] = av
                        hval[s] = v
                        hkey[s] = kj
                        hsz[s] = depth + 1
                        for r in range(depth):
                            hit[s, r] = cur[r + 1]
                        hit[s, depth] = j
                        if filling:
                            _sift_up(hv, hkey, order, n_held - 1)
                        else:
                            _sift_down(hv, hkey, order, n_held, 0)
                        if n_held == K:
                            thr = max(theta, hv[order[0]])
                othr = 1.0 if measuring else thr
                # the threshold may have risen since this node's children were scanned
                if not opened[depth, j] or not (P > othr or N > othr):
                    continue
                d1 = depth + 1
                if d1 + 1 == depth_cap:
                    # a leaf parent: scanned from this node's occurrence lists (above)
                    cur[d1] = j
                    key[d1] = key[depth] ^ codes[j]
                    depth = d1
                    descended = True
                    continue
                # an item i is kept only where p + i could still pass on a side that p
                # itself passes: P(p + i) <= min(P(p), P(parent + i)), the same for N
                keep_p = P > othr
                keep_n = N > othr
                for c in range(nch[depth]):
                    i = ch[depth, c]
                    kept[i] = (keep_p and sp[depth, i] > othr) or (keep_n and sn[depth, i] > othr)
                table, n_new, db_p[d1], db_n[d1] = _project(
                    depth, j, cnt[depth, j] > 1, start, cnt, occ_t, occ_p, tp, ti, twp, twn,
                    kept, codes, nh, table)
                if n_new == 0:
                    continue
                nt[d1] = n_new
                cur[d1] = j
                key[d1] = key[depth] ^ codes[j]
                depth = d1
                descended = True
            if depth < 0:
                break

    # largest |value| first, ties by key (reproducible)
    sel = np.empty(n_held, dtype=np.int64)
    for s in range(n_held):
        sel[s] = s
    for a in range(1, n_held):          # insertion sort: K is small
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
    return n_held, item_ptr, items, values, keys, n_nodes, status, acc, seen
