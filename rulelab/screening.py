"""Screening tests for the Boolean compressed-sensing LP (Dash, Malioutov & Varshney 2014).

Before the clause LP is solved, cheap certificates remove columns (terms) that cannot be
in an optimal clause. The problem screened is the OR-clause LP of :mod:`rulelab.lp` in its
reduced form (paper 3, eq. 4, not divided by lambda)::

    min  sum_j C_j w_j + sum_{i in P} e_i xi_i   s.t.  A_P w + xi >= 1,  w, xi >= 0
    C_j = c_j + lam * sum_{i in Z} d_i a_ij      (cost of term j: size + false alarms)
    e_i = lam * d_i                               (cost of missing positive i)

With ``B_j = lam * sum_{i in P} d_i a_ij`` (the most term j can save on the positives),
every test below compares ``D_j = C_j - B_j``. Unit weights give the paper's counts:
``D_j = lam (||a_Z^j|| - ||a_P^j||) + 1``.

The tests
---------
* **counting** (§3.1): drop j when ``D_j >= 0``; w_j = 0 then never costs anything.
* **pairwise** (§3.1): for nested columns of one feature, ``supp(k) ⊆ supp(k')``, drop the
  larger k' when ``D_k' >= D_k``: moving k' 's weight onto k loses at most the positives
  k' adds and saves at least the false alarms it adds. ``level="basic"`` compares
  consecutive columns of a chain, ``"enhanced"`` all pairs (a prefix minimum: O(K) per
  chain of K columns). Ties are broken by column index so that two identical columns are
  never both removed.
* **duality** (§3.2-3.3): a greedy 0/1 dual of eq. (5) gives, for each column, a lower
  bound (eq. 7) on every 0/1 solution that uses it; a greedy 0/1 primal gives an upper
  bound on the optimum. A column whose bound exceeds the primal value is in no optimal
  0/1 solution. Basic: one pass over rows in order (dual) and over columns sorted by D
  (primal). Enhanced: rows sorted by increasing number of nonzeros; the primal adds the
  best column up to three times, then completes with the basic pass.

Which tests are safe for what
-----------------------------
Counting and pairwise are exchange arguments that hold for fractional ``w`` too: the LP
optimum value (and, for ``exact=True``, the 0/1 optimum value) is unchanged, and a column
in the unique optimum is never removed. The duality test bounds 0/1 solutions only
(the paper: "this test explicitly assumes we want integral solutions"): use it when the
0/1 optimum is asked for. Its removals may change the LP relaxation.

Direction of the pairwise test. The paper words it the other way round ("never select
column j instead of j'" when the larger j' adds more positives than negatives). That
version is not safe: the positives j' adds may be covered by another term already, so the
swap j -> j' can only add false alarms. Example: j = [x <= 1] covers one positive, j' =
[x <= 2] adds ten positives and five negatives, and a term of another feature covers those
ten positives alone; the optimum {j, other} is lost. The test implemented here keeps the
paper's quantities and is a proof, not a heuristic; ``tests/rulelab/test_screening.py`` checks it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ._validation import check_binary_labels, check_binary_matrix

__all__ = ["screen", "ScreeningResult", "nested_chains", "threshold_design"]

_BLOCK = 4096  # columns per block when a dense float copy of A would be large


@dataclass
class ScreeningResult:
    """What :func:`screen` returns; unpacks as ``mask, report = screen(...)``.

    Attributes
    ----------
    mask : ndarray of bool, shape (n_columns,)
        True for the columns that survive (the reduced problem keeps these).
    report : dict
        Columns removed by each test (``counting``, ``pairwise``, ``simple`` = their union,
        ``duality``, ``total``), ``fraction`` removed, seconds per test (``time_simple``,
        ``time_duality``, ``time``), the greedy bounds (``primal_value``, ``dual_value``)
        and the settings.
    primal : ndarray of int
        The greedy 0/1 primal solution (column indices); empty without the duality test.
    """

    mask: np.ndarray
    report: dict
    primal: np.ndarray = field(default_factory=lambda: np.empty(0, int))

    def __iter__(self):
        return iter((self.mask, self.report))


# ----------------------------------------------------------------------------- helpers


def _weighted_colsum(M: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``weights @ M`` for a 0/1 uint8 matrix without a full float copy of ``M``."""
    if M.shape[0] == 0:
        return np.zeros(M.shape[1])
    if not np.all(weights != 0):  # e.g. a mask of uncovered rows: sum the others only
        keep = weights != 0
        M, weights = M[keep], weights[keep]
        if M.shape[0] == 0:
            return np.zeros(M.shape[1])
    if np.all(weights == weights[0]):
        return float(weights[0]) * M.sum(axis=0, dtype=np.int64).astype(float)
    out = np.empty(M.shape[1])
    for s in range(0, M.shape[1], _BLOCK):
        out[s : s + _BLOCK] = weights @ M[:, s : s + _BLOCK].astype(np.float64)
    return out


def nested_chains(A) -> list[np.ndarray]:
    """Chains of nested columns found among *consecutive* columns of ``A``.

    A chain lists column indices in order of increasing support, each support contained
    in the next. Thresholds of one feature come out of :class:`rulelab.FeatureBinarizer`
    (and :func:`threshold_design`) next to each other: ``x <= t`` for increasing ``t`` is
    an increasing run, ``x > t`` a decreasing one, so this finds them without knowing the
    feature names, and only ever reports chains it has checked.
    """
    A = np.asarray(A)
    n = A.shape[1]
    if n < 2:
        return []
    inc, dec = _consecutive_flags(A)
    chains = []
    for flags, reverse in ((inc, False), (dec, True)):
        padded = np.concatenate([[False], flags, [False]])
        starts = np.flatnonzero(~padded[:-1] & padded[1:])
        ends = np.flatnonzero(padded[:-1] & ~padded[1:])  # run of pairs [s, e) -> cols s..e
        for s, e in zip(starts, ends):
            cols = np.arange(s, e + 1)
            chains.append(cols[::-1] if reverse else cols)
    return chains


def _consecutive_flags(A: np.ndarray):
    """inc[k]: supp(k) ⊆ supp(k+1); dec[k]: supp(k) ⊇ supp(k+1), for every k (slices only)."""
    n = A.shape[1]
    inc = np.empty(max(n - 1, 0), bool)
    dec = np.empty(max(n - 1, 0), bool)
    for s in range(0, n - 1, _BLOCK):
        e = min(n - 1, s + _BLOCK)
        left, right = A[:, s:e], A[:, s + 1 : e + 1]
        inc[s:e] = ~np.any(left > right, axis=0)
        dec[s:e] = ~np.any(left < right, axis=0)
    return inc, dec


def _check_groups(A: np.ndarray, groups) -> list[np.ndarray]:
    """Explicit groups -> increasing chains; a group that is not nested is an error."""
    chains = []
    n = A.shape[1]
    flags = None
    for g in groups:
        direction = "increasing"
        if isinstance(g, tuple) and len(g) == 2 and isinstance(g[1], str):
            g, direction = g
        idx = np.asarray(g, dtype=int).ravel()
        if direction == "decreasing":
            idx = idx[::-1]
        elif direction != "increasing":
            raise ValueError(
                f"group direction must be 'increasing' or 'decreasing', not {direction!r}"
            )
        if idx.size and (idx.min() < 0 or idx.max() >= n):
            raise ValueError(f"group {idx.tolist()[:5]}... has column indices outside 0..{n - 1}")
        if idx.size > 1:
            step = np.diff(idx)
            # Thresholds of one feature sit side by side: check those runs on slices of A
            # (cheap); other groups by gathering their columns.
            if np.all(step == 1) or np.all(step == -1):
                if flags is None:
                    flags = _consecutive_flags(A)
                ok = flags[0][idx[:-1]] if step[0] == 1 else flags[1][idx[1:]]
                nested = bool(ok.all())
            else:
                nested = not np.any(A[:, idx[:-1]] > A[:, idx[1:]])
            if not nested:
                raise ValueError(
                    f"group starting {idx.tolist()[:3]} is not nested in the given direction: each "
                    "column's support must contain the previous one's (use groups='auto')"
                )
        chains.append(idx)
    return chains


def _pairwise(D: np.ndarray, chains, all_pairs: bool) -> np.ndarray:
    """Columns removed by the pairwise test: k' when an earlier (smaller) k has a lower
    (D, index) key; the index breaks ties so a swap chain never returns to its start."""
    removed = np.zeros(D.shape[0], bool)
    for chain in chains:
        if chain.size < 2:
            continue
        d, idx = D[chain], chain
        if all_pairs:
            best_d, best_i = d[0], idx[0]
            for pos in range(1, chain.size):
                if (d[pos], idx[pos]) > (best_d, best_i):
                    removed[idx[pos]] = True
                else:
                    best_d, best_i = d[pos], idx[pos]
        else:
            later = (d[1:] > d[:-1]) | ((d[1:] == d[:-1]) & (idx[1:] > idx[:-1]))
            removed[idx[1:][later]] = True
    return removed


# ------------------------------------------------------------------- greedy primal / dual


def _greedy_dual(A_P: np.ndarray, e: np.ndarray, cap: np.ndarray, enhanced: bool):
    """Rows R with ``sum_{i in R} e_i a_i <= cap`` (a 0/1 dual of eq. 5, one pass)."""
    if enhanced:  # §3.3: sparse rows first leave room for more rows
        order = np.argsort(A_P.sum(axis=1, dtype=np.int64), kind="stable")
    else:
        order = np.arange(A_P.shape[0])
    slack = cap.astype(float).copy()
    chosen = np.zeros(A_P.shape[0], bool)
    for k in order:
        ek = e[k]
        if ek <= 0:
            continue
        nz = np.flatnonzero(A_P[k])
        # A tiny tolerance keeps float sums of equal weights from refusing a row that fits.
        if nz.size == 0 or slack[nz].min() >= ek * (1 - 1e-12):
            slack[nz] -= ek
            chosen[k] = True
    return chosen


def _greedy_primal(
    A_P: np.ndarray,
    e: np.ndarray,
    C: np.ndarray,
    D: np.ndarray,
    candidates: np.ndarray,
    enhanced: bool,
    max_best: int = 3,
):
    """A feasible 0/1 solution of eq. (4) and its value; only columns with ``D_j < 0`` can
    lower the objective, so only those are tried (the others never pass the test)."""
    uncovered = np.ones(A_P.shape[0], bool)
    value = float(e.sum())
    chosen: list[int] = []
    cand = candidates[D[candidates] < 0]
    if cand.size == 0:
        return np.empty(0, int), value
    block = np.asfortranarray(A_P[:, cand])
    free = np.ones(cand.size, bool)
    if enhanced:  # best improvement, at most ``max_best`` columns (the paper uses three)
        for _ in range(max_best):
            gains = _weighted_colsum(block, np.where(uncovered, e, 0.0))
            delta = np.where(free, C[cand] - gains, np.inf)
            best = int(np.argmin(delta))
            if not delta[best] < 0:
                break
            free[best] = False
            chosen.append(int(cand[best]))
            value += float(delta[best])
            uncovered &= block[:, best] == 0
    # One pass in increasing D (the paper's ||a_Z|| - ||a_P||): add a column iff it helps.
    for pos in np.argsort(D[cand], kind="stable"):
        if not free[pos]:
            continue
        col = block[:, pos]
        delta = C[cand[pos]] - float(e[uncovered & (col == 1)].sum())
        if delta < 0:
            chosen.append(int(cand[pos]))
            value += delta
            uncovered &= col == 0
    return np.asarray(sorted(chosen), int), value


def _duality(A_P, e, C, D, cols: np.ndarray, enhanced: bool):
    """Columns (among ``cols``) whose eq.-(7) bound exceeds the greedy primal value."""
    sub = A_P[:, cols] if cols.size < A_P.shape[1] else A_P
    rows = _greedy_dual(sub, e, C[cols], enhanced)
    mu = np.where(rows, e, 0.0)
    dual_value = float(mu.sum())
    covered = _weighted_colsum(sub[rows], e[rows])  # dual mass on rows the column covers
    bound = C[cols] + dual_value - covered  # eq. (7)
    primal, primal_value = _greedy_primal(A_P, e, C, D, cols, enhanced)
    tol = 1e-9 * max(1.0, abs(primal_value))
    removed = np.zeros(A_P.shape[1], bool)
    removed[cols[bound > primal_value + tol]] = True
    return removed, primal, primal_value, dual_value


# ------------------------------------------------------------------------------ screen


def screen(
    A,
    y,
    lam: float = 1000.0,
    *,
    level: str = "enhanced",
    groups="auto",
    duality: bool = True,
    sequential: bool = True,
    sample_weight=None,
    column_cost=None,
) -> ScreeningResult:
    """Screen the columns of the OR-clause LP ``y ~ OR_j A[:, j]`` (paper 3).

    Parameters
    ----------
    A : array-like of shape (n_samples, n_terms), 0/1
        The design matrix of the OR problem (for an AND-clause pass ``1 - A, 1 - y``, as
        :func:`rulelab.lp.learn_clause` does).
    y : array-like of shape (n_samples,), 0/1
    lam : float, default=1000
        The LP's weight of errors against clause size (paper 1, eq. 10).
    level : {"basic", "enhanced"}, default="enhanced"
        ``"basic"``: consecutive-pair test, basic greedy primal and dual (the paper's
        Table 1). ``"enhanced"``: all-pairs test, enhanced heuristics (Table 2).
    groups : "auto", list or None, default="auto"
        The nested threshold columns. ``"auto"`` finds chains among consecutive columns
        (:func:`nested_chains`); a list gives each chain as column indices ordered by
        increasing support, or as ``(indices, "increasing" | "decreasing")``; ``None``
        skips the pairwise test. Given groups are checked to be nested.
    duality : bool, default=True
        Run the duality test. It is safe only for the 0/1 problem (see the module notes).
    sequential : bool, default=True
        Run the duality test on the columns the simple tests kept (smaller, stronger, and
        what a solver wants). ``False`` runs every test on all columns, as the paper's
        tables count them ("alone" per test, then the union).
    sample_weight, column_cost : array-like, optional
        As in :func:`rulelab.lp.solve_or_lp`.

    Returns
    -------
    ScreeningResult
        ``mask`` (True = keep) and ``report``; unpacks as ``mask, report``.
    """
    if level not in ("basic", "enhanced"):
        raise ValueError(f"level must be 'basic' or 'enhanced', not {level!r}")
    if lam is None or not lam > 0:
        raise ValueError(f"screening needs a positive lam (the LP with slacks), got {lam!r}")
    A = check_binary_matrix(A)
    y = check_binary_labels(y, A.shape[0], allow_one_class=True).astype(bool)
    m, n = A.shape
    d = np.ones(m) if sample_weight is None else np.asarray(sample_weight, float)
    c = np.ones(n) if column_cost is None else np.asarray(column_cost, float)
    if d.shape != (m,) or (d < 0).any() or not np.isfinite(d).all():
        raise ValueError("sample_weight must be finite, non-negative and one per sample")
    if c.shape != (n,) or (c < 0).any() or not np.isfinite(c).all():
        raise ValueError("column_cost must be finite, non-negative and one per column of A")
    return _screen(A, y, lam, level, groups, duality, sequential, d, c)


def _screen(
    A: np.ndarray,
    y: np.ndarray,
    lam: float,
    level: str,
    groups,
    duality: bool,
    sequential: bool,
    d: np.ndarray,
    c: np.ndarray,
) -> ScreeningResult:
    """:func:`screen` on validated input (``A`` uint8, ``y`` bool, weights as arrays)."""
    n = A.shape[1]
    enhanced = level == "enhanced"
    start = time.perf_counter()
    A_P, A_Z = A[y], A[~y]
    e = lam * d[y]
    C = c + lam * _weighted_colsum(A_Z, d[~y])
    D = C - _weighted_colsum(A_P, e)
    counting = D >= 0
    if groups is None:
        chains = []
    elif isinstance(groups, str):
        if groups != "auto":
            raise ValueError(
                f"groups must be 'auto', None or a list of column groups, not {groups!r}"
            )
        chains = nested_chains(A)
    else:
        chains = _check_groups(A, groups)
    pairwise = _pairwise(D, chains, all_pairs=enhanced)
    simple = counting | pairwise
    t_simple = time.perf_counter() - start

    start = time.perf_counter()
    removed_dual = np.zeros(n, bool)
    primal, primal_value, dual_value = np.empty(0, int), float("nan"), float("nan")
    if duality and y.any():
        cols = np.flatnonzero(~simple) if sequential else np.arange(n)
        if cols.size:
            removed_dual, primal, primal_value, dual_value = _duality(A_P, e, C, D, cols, enhanced)
    t_dual = time.perf_counter() - start

    removed = simple | removed_dual
    report = {
        "level": level,
        "sequential": sequential,
        "n_columns": n,
        "counting": int(counting.sum()),
        "pairwise": int((pairwise & ~counting).sum()),
        "simple": int(simple.sum()),
        "duality": int(removed_dual.sum()),
        "total": int(removed.sum()),
        "fraction": float(removed.mean()),
        "kept": int(n - removed.sum()),
        "n_chains": len(chains),
        "primal_value": primal_value,
        "dual_value": dual_value,
        "time_simple": t_simple,
        "time_duality": t_dual,
        "time": t_simple + t_dual,
    }
    return ScreeningResult(~removed, report, primal)


# ----------------------------------------------------------------- the paper's design


def threshold_design(
    X,
    n_thresholds: int,
    *,
    levels: str = "inner",
    quantile_method: str = "linear",
    strict: bool = False,
):
    """The paper's design: ``n_thresholds`` quantile thresholds per numeric feature, both
    directions, duplicates kept; two-valued features give ``== hi`` and ``== lo``;
    constant features are dropped.

    Unlike :class:`rulelab.FeatureBinarizer` (which drops repeated thresholds and those at
    the maximum), every feature gets exactly ``2 * n_thresholds`` columns, so the column
    counts are the paper's (e.g. 2 x 10 x 100 = 2000 on MAGIC).

    The papers do not say how their quantile thresholds are placed; the options below span
    the usual definitions (used by :func:`repro.screening.experiments.design_sweep`).

    Parameters
    ----------
    X : DataFrame or array-like of shape (n_samples, n_features)
    n_thresholds : int
        Thresholds per numeric feature (T).
    levels : {"inner", "lower", "mid", "upper", "range"}, default="inner"
        Quantile levels ``i/(T+1)``, i = 1..T (``"inner"``); ``i/T``, i = 0..T-1
        (``"lower"``); ``(i - 1/2)/T`` (``"mid"``); ``i/T``, i = 1..T (``"upper"``); or
        ``"range"``: the ``"inner"`` levels spaced evenly between the minimum and maximum.
    quantile_method : str, default="linear"
        ``method`` of :func:`numpy.quantile` (e.g. ``"hazen"`` is Matlab's definition).
    strict : bool, default=False
        Use ``x < t`` / ``x >= t`` instead of ``x <= t`` / ``x > t``.

    Returns
    -------
    A : ndarray of uint8, shape (n_samples, n_columns)
    terms : list of rulelab.rules.Term
    groups : list of ndarray
        The nested chains (increasing support) for :func:`screen`.
    """
    from ._validation import check_frame
    from .rules import Term

    X = check_frame(X)
    T = n_thresholds
    grid = {
        "inner": np.arange(1, T + 1) / (T + 1),
        "lower": np.arange(T) / T,
        "mid": (np.arange(1, T + 1) - 0.5) / T,
        "upper": np.arange(1, T + 1) / T,
        "range": np.arange(1, T + 1) / (T + 1),
    }
    if levels not in grid:
        raise ValueError(f"levels must be one of {sorted(grid)}, not {levels!r}")
    quantiles = grid[levels]
    blocks, terms, groups, n_cols = [], [], [], 0
    for col in X.columns:
        values = X[col].to_numpy(dtype=float)
        distinct = np.unique(values)
        if distinct.size < 2:
            continue
        if distinct.size == 2:
            lo, hi = distinct
            blocks.append(np.stack([values == hi, values == lo], axis=1))
            terms += [Term(col, "==", float(hi)), Term(col, "==", float(lo))]
            n_cols += 2
            continue
        if levels == "range":
            cuts = values.min() + (values.max() - values.min()) * quantiles
        else:
            cuts = np.quantile(values, quantiles, method=quantile_method)
        if strict:  # x < t is x <= (the float just below t): the same terms, exactly
            cuts = np.nextafter(cuts, -np.inf)
        le = values[:, None] <= cuts[None, :]
        blocks.append(np.concatenate([le, ~le], axis=1))
        terms += [Term(col, "<=", float(t)) for t in cuts] + [
            Term(col, ">", float(t)) for t in cuts
        ]
        groups.append(np.arange(n_cols, n_cols + T))  # x <= t grows with t
        groups.append(np.arange(n_cols + 2 * T - 1, n_cols + T - 1, -1))  # x > t shrinks with t
        n_cols += 2 * T
    if not blocks:
        raise ValueError("every column of X is constant: no threshold terms to build")
    return np.concatenate(blocks, axis=1).astype(np.uint8), terms, groups
