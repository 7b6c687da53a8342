"""Grafting over the combinatorial feature set Phi(d, k) (GRAB, and the naive baseline).

Solves eq. (2) of Lee, Matsushima & Yamanishi (2020),

    min_w  G(w) = C * sum_i loss(f(x_i), y_i) + ||w||_1,   f(x) = sum_phi w_phi phi(x),

over every conjunction phi of at most k binary attributes, the empty conjunction T
(constant 1) included: **the bias is the weight of T and is penalised like every other
weight**, exactly as eq. (2) is written. Identical training rows with the same label are
solved as one row whose loss counts as often (the same problem, fewer rows to touch);
everything returned speaks of the caller's rows.

Each iteration (Algorithm 2):

1. optimise the free weights F by warm-started coordinate descent (:mod:`._cd`);
2. set the transaction weights alpha_i = C * d loss / d f(x_i) and search the features
   outside F with ``|sum_{i: phi(x_i)=1} alpha_i| > 1`` (eq. 14), i.e. the two WFIM problems
   of Theorem 1, by :class:`~rulelab.grab.wfim.TopKMiner` (GRAB), by computing the
   gradient of every conjunction in Phi(d, k) (:class:`~rulelab.grab.naive.PhiScan`, the
   paper's naive grafting) or of every conjunction that occurs in the data
   (:class:`~rulelab.grab.wfim.ExhaustiveSearch`, a stronger baseline of ours);
3. stop when V^t < eps * V^0 (eq. 17), where V sums the minimum-norm subgradient over the
   free features and ``|grad| - 1`` over the features found by the search; else add the top
   K found features to F.

As in the paper, V^0 is summed over the features the first search returns (an
underestimate when the dynamic threshold stops above 1, which makes the rule stricter).

GRAB's search in iterations t >= 1 is split in two, because selecting and measuring need
different things:

- *selection* (:meth:`TopKMiner.top`): the exact top K by ``|grad|`` outside F, from one
  WFIM call whose threshold rises to the K-th best value found so far (a heap; the
  dynamic threshold of Section 4 is used by the first search only). The paper's
  selection is the top K of one WFIM call capped at max_out outputs, which on a1a at
  k = 5 is a near-arbitrary 100K of about 440K violators; the exact top K halved the
  number of iterations there (161 -> 76 at K = 100).
- *measuring* V's search part as the paper does (the sum of ``|grad| - 1`` over what one
  WFIM call at threshold 1 returns, at most max_out features) only decides whether
  V^t < eps V^0. It is skipped while a lower bound already shows V^t >= eps V^0: the sum
  over the top K, or the sum over every violator the top-K call met on its way (minus
  the free features' own excess; on a1a at k = 5 this settles every iteration but the
  last). Otherwise the measuring call (:meth:`TopKMiner.reaches`) stops as soon as its
  running sum shows V^t >= eps V^0, and runs to the end of the call (or the cap) only
  when the rule may fire, so features with 1 < |grad| <= theta cannot be missed by the
  stopping test.

``history`` records, per iteration, V with ``V_measured`` telling whether its search part
is the full measurement or a lower bound that already proved the rule cannot fire.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ..itemsets import group_rows
from . import _cd
from ._bits import append_columns, flatten, pack_columns
from .naive import PhiScan
from .wfim import (
    ExhaustiveSearch,
    Itemsets,
    TopKMiner,
    TransactionMatrix,
    _item_codes,
    binary_csr,
    first_searches,
    itemset_tuples,
)

LOSSES = {"logistic": _cd.LOGISTIC, "l2hinge": _cd.L2HINGE}


@dataclass
class GraftResult:
    """What a grafting run returns (the classifier keeps it as ``result_``)."""

    itemsets: list  # free features (tuples of column indices; () is the bias T)
    coef: np.ndarray  # their weights
    objective: float  # G(w) at the end
    converged: bool  # the stopping rule V^t < eps V^0 fired
    timed_out: bool
    n_iter: int
    V0: float
    V: float
    history: list = field(default_factory=list)  # one dict per iteration
    supports: np.ndarray | None = None  # training rows per free feature
    margins: np.ndarray | None = None  # f(x_i) on the training rows


def _excess(grads) -> float:
    """Sum of ``|grad| - 1`` over the violators: their part of V (eq. 17) at w = 0."""
    return float(np.maximum(np.abs(grads) - 1.0, 0.0).sum())


def duality_gap(X, y, margins, objective: float, *, C: float, loss: str, max_size) -> float:
    """A certified bound on ``objective - min G``: G(w) minus the Fenchel dual of eq. (2) at
    the scaled sample gradient.

    With alpha_i = C loss'(f_i, y_i) and g_phi = sum of alpha_i over the rows of phi, the
    point u = s * alpha with s = 1 / max(1, max_phi |g_phi|) is dual feasible (|Z^T u| <= 1
    over all of Phi(d, k)); the dual value is -sum_i h_i*(u_i), h_i = C loss(., y_i):
    ``-C sum [p log p + (1 - p) log(1 - p)]`` with p_i = s sigmoid(-y_i f_i) for the logistic
    loss, ``sum [b - b^2 / (4C)]`` with b_i = 2 s C max(0, 1 - y_i f_i) for the squared hinge.
    max |g_phi| over every conjunction is one exact top-1 search (:meth:`TopKMiner.top`).
    Two solutions of the same problem differ in objective by at most the larger of their
    gaps, whatever route (cold or warm start) reached them.
    """
    from scipy.special import expit, xlogy

    y = np.asarray(y, dtype=np.float64)
    f = np.asarray(margins, dtype=np.float64)
    alpha = _cd.sample_grad(f, y, float(C), LOSSES[loss])
    top, _, _ = TopKMiner(X, max_size, 1).top(alpha, None)
    s = 1.0 / max(1.0, float(np.abs(top.values).max()) if len(top) else 1.0)
    if loss == "logistic":
        p = s * expit(-y * f)
        dual = -C * float((xlogy(p, p) + xlogy(1.0 - p, 1.0 - p)).sum())
    else:
        b = 2.0 * s * C * np.maximum(0.0, 1.0 - y * f)
        dual = float((b - b * b / (4.0 * C)).sum())
    return float(objective) - dual


def _check_init(init, n_items: int, max_size: int | None) -> tuple:
    """A warm start's (itemsets, coef) as a list of sorted tuples and an array, or an error
    that says what does not fit the problem."""
    itemsets, coef = init
    itemsets = [tuple(sorted(int(j) for j in p)) for p in itemsets]
    coef = np.asarray(coef, dtype=np.float64).ravel()
    if len(itemsets) != coef.size:
        raise ValueError(f"init has {len(itemsets)} itemsets but {coef.size} weights")
    if len(set(itemsets)) != len(itemsets):
        raise ValueError("init repeats an itemset")
    for p in itemsets:
        if p and not (0 <= p[0] and p[-1] < n_items):
            raise ValueError(f"init's itemset {p} names a column outside 0..{n_items - 1}")
        if len(set(p)) != len(p) or (max_size is not None and len(p) > max_size):
            raise ValueError(f"init's itemset {p} is not a conjunction of Phi(d, {max_size})")
    return itemsets, coef


class SharedFirstSearch:
    """GRAB's first search, shared by grafting runs that differ only in ``max_size``.

    At w = 0 the transaction weights alpha_i = C loss'(0, y_i) do not depend on the size
    limit, so runs over Phi(d, k) for several k with the same rows, labels, C, loss and
    top K begin with the dynamic-threshold search of the same weights at every k. Passed to
    each run (``graft(..., shared=...)``, ``CBMClassifier.fit(..., first_search=...)``),
    the first run searches for every size of ``max_sizes`` at once
    (:func:`rulelab.grab.wfim.first_searches`) and the later runs read their result: the
    itemsets, values and V^0 of their own searches, hence the same runs. A size it cannot
    serve exactly (the weights' sums are not exact in float64, as at C < 1; an output
    cut at ``max_out``) and a run on other rows, weights or settings search on their own.

    Parameters
    ----------
    max_sizes : list of int or None
        The size limits of the runs that will share the search.
    """

    def __init__(self, max_sizes):
        self.max_sizes = list(max_sizes)
        self._problem = None
        self._served = {}

    def get(self, db: TransactionMatrix, weights, max_size, top_k: int, M: int, max_out: int):
        """``(found, top, M_end)`` of ``TopKMiner(db, max_size, top_k, M, max_out)``'s
        search for ``weights``, or None where the run must search on its own."""
        weights = np.asarray(weights, dtype=np.float64)
        problem = (db.csr.shape, db.csr.indptr, db.csr.indices, weights, (top_k, M, max_out))
        if self._problem is None:
            self._problem = tuple(np.array(a, copy=True) for a in problem)
            self._served = first_searches(db, weights, self.max_sizes, top_k, M=M, max_out=max_out)
        elif not all(np.array_equal(a, b) for a, b in zip(self._problem, problem)):
            return None
        return self._served.get(max_size)


def graft(
    X,
    y,
    *,
    C: float = 1.0,
    loss: str = "logistic",
    max_size: int | None = 2,
    tol: float = 1e-2,
    top_k: int = 10,
    search: str = "wfim",
    max_iter: int = 10_000,
    max_out: int = 100_000,
    M: int = 10,
    inner_ratio: float = 0.5,
    max_epochs: int = 100_000,
    time_limit: float | None = None,
    random_state: int = 0,
    verbose: bool = False,
    init: tuple | None = None,
    shared: SharedFirstSearch | None = None,
) -> GraftResult:
    """Run GRAB (``search="wfim"``), the paper's naive grafting over all of Phi(d, k)
    (``search="naive"``) or grafting over the occurring conjunctions (``"occurring"``).

    Parameters
    ----------
    X : 0/1 matrix (n_samples, n_attributes) or :class:`TransactionMatrix`
    y : array of -1/+1
    C, loss, max_size : the problem: eq. (2) with ``loss`` over Phi(d, max_size)
        (``max_size=None``: every conjunction).
    tol : float
        eps of the stopping rule V^t < eps V^0.
    top_k : int
        Features added per iteration (the top K of the search).
    search : {"wfim", "naive", "occurring"}
    max_out, M : the output cap and the starting exponent of the dynamic threshold.
    inner_ratio : float
        The free weights are optimised until their part of V is below
        ``inner_ratio * tol * V^0`` (the rest of the budget is left to the search).
    time_limit : float, optional
        Seconds; the run stops (``timed_out=True``) after the iteration that crosses it
        (naive grafting also stops inside a search that crosses it).
    init : (itemsets, coef), optional
        A warm start: the free features (tuples of column indices, each of at most
        ``max_size`` items, no repeats) and their starting weights, e.g. the solution at a
        neighbouring C. The first search at w = 0 still runs, so that V^0 and hence the
        stopping rule V^t < eps V^0 are the cold start's (at w = 0 alpha_i = C * loss'(0,
        y_i) is linear in C, but which features the dynamic threshold returns is not, so
        V^0 is not a fixed multiple of C); its top K is not added. When w = 0 is optimal
        (nothing violates at t = 0) the result is the cold one, w = 0. Otherwise grafting
        starts from ``init`` instead of the first search's top K and stops at the same
        criterion, so the result is a solution of the same problem to the same tolerance.
    shared : SharedFirstSearch, optional
        The first search (``search="wfim"``) shared with runs of other ``max_size`` on the
        same problem; the run is the same as without it.
    """
    t_start = time.perf_counter()
    y = np.asarray(y, dtype=np.float64)
    if loss not in LOSSES:
        raise ValueError(f"loss must be one of {sorted(LOSSES)}, got {loss!r}")
    if not np.all((y == 1.0) | (y == -1.0)):
        raise ValueError("graft needs labels in {-1, +1}")
    csr = binary_csr(X)
    if csr.shape[0] != y.shape[0]:
        raise ValueError(f"X has {csr.shape[0]} rows but y has {y.shape[0]} labels")
    # identical rows with the same label are one row that counts as often (the loss, its
    # gradient and the line search are sums over rows): binary data repeat rows often, and
    # the coordinate descent and the free columns then never touch the repeats
    group, first, count = group_rows(
        csr.indptr, csr.indices, (y > 0).astype(np.int64), _item_codes(csr.shape[1])
    )
    # the rows are put in label order, positives first: every column's sorted row list then
    # splits into a positive and a negative run, which the coordinate descent loops over
    # without reading a label (f is returned in the caller's row order)
    order = np.argsort(-y[first], kind="stable")
    position = np.empty_like(order)
    position[order] = np.arange(order.size)
    db = TransactionMatrix(csr[first[order]])
    y = y[first[order]]
    cw = count[order].astype(np.float64)
    n_pos = int(np.count_nonzero(y > 0))
    lid = LOSSES[loss]
    m = db.n_rows
    if search == "wfim":
        searcher = TopKMiner(db, max_size, top_k, M=M, max_out=max_out)
    elif search == "naive":
        searcher = PhiScan(
            db, max_size, top_k, deadline=None if time_limit is None else t_start + time_limit
        )
    elif search == "occurring":
        searcher = ExhaustiveSearch(db, max_size, top_k)
    else:
        raise ValueError(f"search must be 'wfim', 'naive' or 'occurring', got {search!r}")
    bits = pack_columns(db)
    if init is not None:
        init = _check_init(init, db.n_items, max_size)

    # the free features flat (ptr, cols as in Itemsets); their tuples are built at the end
    set_ptr = np.zeros(1, dtype=np.int64)
    set_cols = np.zeros(0, dtype=np.int64)
    keys = np.zeros(0, dtype=np.uint64)
    w = np.zeros(0)
    f = np.zeros(m)
    col_ptr = np.zeros(1, dtype=np.int64)
    # the free columns' row lists live in one buffer that the new columns are written
    # into directly; it is reserved large (untouched pages cost nothing) so that it is
    # rarely grown and copied
    row_buf = np.empty(max(1 << 16, min(1 << 26, top_k * m)), dtype=np.int32)
    history = []

    def add(top):
        nonlocal set_ptr, set_cols, keys, w, col_ptr, row_buf
        row_buf, cp = append_columns(bits, m, top.ptr, top.cols, row_buf, col_ptr[-1])
        set_ptr = np.concatenate([set_ptr, set_ptr[-1] + top.ptr[1:]])
        set_cols = np.concatenate([set_cols, top.cols])
        keys = np.concatenate([keys, top.keys])
        w = np.concatenate([w, np.zeros(len(top))])
        col_ptr = np.concatenate([col_ptr, cp[1:]])

    def add_warm(itemsets, coef):
        # the warm start's features become free with their weights, and f = Z w follows
        nonlocal f
        ptr, cols = flatten(itemsets)
        keys_ = db.keys(itemsets)
        add(Itemsets(None, np.zeros(len(itemsets)), keys_, 1.0, True, ptr=ptr, cols=cols))
        w[:] = np.asarray(coef, dtype=np.float64)
        f = np.bincount(
            row_buf[: col_ptr[-1]], weights=np.repeat(w, np.diff(col_ptr)), minlength=m
        ).astype(np.float64)

    # t = 0: w = 0, nothing free
    t0 = time.perf_counter()
    alpha = cw * _cd.sample_grad(f, y, C, lid)
    first = None
    if shared is not None and search == "wfim":
        first = shared.get(db, alpha, max_size, top_k, M, max_out)
    if first is None:
        found, top = searcher.search(alpha, keys)
    else:
        found, top, searcher.M = first  # as searcher.search would leave it
    t_mine = time.perf_counter() - t0
    V0 = _excess(found.values)
    V = V0
    history.append(
        {
            "iter": 0,
            "n_free": 0,
            "n_nonzero": 0,
            "V": V0,
            "V_free": 0.0,
            "V_search": V0,
            "theta": found.theta,
            "n_found": len(found.values),
            "objective": float(_cd.objective(f, y, w, C, lid, cw)),
            "time_search": t_mine,
            "time_opt": 0.0,
            "time": time.perf_counter() - t_start,
        }
    )
    converged = len(top) == 0 and found.theta <= 1.0 and found.complete
    timed_out = bool(getattr(searcher, "timed_out", False))
    converged = converged and not timed_out
    stalls = 0
    it = 0
    g_free = None  # the free features' gradients after the last solve
    last_lower = np.inf
    if not converged and init is not None and len(init[0]):
        add_warm(*init)
        history[0].update(
            n_free=len(w),
            n_nonzero=int(np.count_nonzero(w)),
            objective=float(_cd.objective(f, y, w, C, lid, cw)),
        )
    elif not converged:
        add(top)
    while not converged and not timed_out and it < max_iter:
        it += 1
        t0 = time.perf_counter()
        inner_tol = inner_ratio * tol * V0
        rows = row_buf[: col_ptr[-1]]
        # the solve starts from the features that can move: non-zero weights, the features
        # just added and those whose gradient (measured after the last solve, at the same
        # f) is near the L1 threshold; every free feature is measured again below, so one
        # that the solve skipped but now violates is caught and joins the next solve
        active = np.ones(len(w), dtype=np.bool_)
        if g_free is not None:
            old = g_free.size
            active[:old] = (w[:old] != 0) | (np.abs(g_free) >= 1.0 - 1e-3)
        epochs, _ = _cd.cd_solve(
            col_ptr,
            rows,
            w,
            f,
            cw,
            n_pos,
            C,
            lid,
            inner_tol,
            max_epochs,
            random_state + it,
            active,
            False,
        )
        alpha = cw * _cd.sample_grad(f, y, C, lid)
        g_free = _cd.free_gradients(col_ptr, rows, alpha)
        v_free = _cd.min_norm_subgradient(g_free, w)
        t_opt = time.perf_counter() - t0
        t0 = time.perf_counter()
        V_free = float(v_free.sum())
        measured = True
        if search == "wfim":
            # the exact top K by a heap-pruned WFIM call (its threshold rises to the K-th
            # best value met so far). V's search part is the paper's measurement: the sum
            # of |grad| - 1 over what one WFIM call at threshold 1 returns (at most max_out
            # features). It only decides whether V < eps V^0, so it is skipped when a lower
            # bound already shows V >= eps V^0: the sum over the top K, or the sum over
            # every violator the top-K call met (minus what the free features themselves
            # contribute). Otherwise the measuring call stops as soon as its running sum
            # reaches `need` (then V >= eps V^0 for sure), and runs to the end of the call
            # (or the cap) only when the rule may fire, so features with 1 < |grad| <=
            # theta cannot be missed by the stopping test.
            need = tol * V0 - V_free
            free_excess = _excess(g_free)
            # once the last bound came within 2x of `need`, measure in the same traversal
            # (a little dearer than the top K alone, far cheaper than a second call)
            likely = need > 0 and last_lower < 2.0 * need
            top, reached, total = searcher.top(alpha, keys, target=need if likely else 0.0)
            top_excess = _excess(top.values)
            lower = max(top_excess, searcher.seen - free_excess)
            if len(top) < searcher.top_k:
                # the heap never filled, so its threshold stayed at 1 and the call met
                # every violator outside F: the top K *is* the measurement (a second
                # traversal cost madelon at k = 2 as much again)
                V_search = top_excess
            elif need <= 0 or lower >= need:
                V_search, measured = lower, False  # V >= eps V^0 already
            else:
                if not likely:
                    top, reached, total = searcher.top(alpha, keys, target=need)
                    lower = max(_excess(top.values), searcher.seen - free_excess)
                V_search, measured = max(lower, total), not reached
            last_lower = lower
            # the heap's final threshold: the K-th largest |grad| outside F
            theta = float(np.abs(top.values).min()) if len(top) else 1.0
            n_found = len(top)
        else:
            found, top = searcher.search(alpha, keys)
            theta, n_found = found.theta, len(found.values)
            V_search = _excess(found.values)
        V = V_free + V_search
        t_mine = time.perf_counter() - t0
        elapsed = time.perf_counter() - t_start
        history.append(
            {
                "iter": it,
                "n_free": len(w),
                "n_nonzero": int(np.count_nonzero(w)),
                "V": V,
                "V_free": V_free,
                "V_search": V_search,
                "theta": theta,
                "n_found": n_found,
                "V_measured": measured,
                "objective": float(_cd.objective(f, y, w, C, lid, cw)),
                "time_search": t_mine,
                "time_opt": t_opt,
                "epochs": epochs,
                "nnz_free": int(col_ptr[-1]),
                "time": elapsed,
            }
        )
        if verbose:
            h = history[-1]
            print(
                f"[graft] it {it:4d}  free {h['n_free']:6d}  nz {h['n_nonzero']:6d}  "
                f"V/V0 {V / max(V0, 1e-300):.2e}  theta {theta:g}  "
                f"G {h['objective']:.6g}  {elapsed:.1f}s"
            )
        if getattr(searcher, "timed_out", False):
            timed_out = True  # a partial scan decides nothing
            break
        if V < tol * V0:
            converged = True
            break
        if time_limit is not None and elapsed > time_limit:
            timed_out = True
            break
        if len(top):
            add(top)
            stalls = 0
        else:
            # nothing left to add but the free part is still too large: solve tighter,
            # and give up after a few rounds (the tolerance is below round-off)
            stalls += 1
            if stalls > 3:
                break
            inner_ratio *= 0.1
    # a column's sum of row weights is its support among the caller's rows
    supports = np.rint(_cd.free_gradients(col_ptr, row_buf, cw)).astype(np.int64)
    margins = f[position[group]]
    return GraftResult(
        itemset_tuples(set_ptr, set_cols),
        w,
        float(_cd.objective(f, y, w, C, lid, cw)),
        converged,
        timed_out,
        it,
        V0,
        V,
        history,
        supports,
        margins,
    )
