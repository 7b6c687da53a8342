"""Block coordinate descent and alternating minimisation for two-level rules (CNF form).

Everything here works on the augmented 0/1 design ``Xa = [1 | X]`` (see
:mod:`rulelab.twolevel.objective`) and a weight matrix ``W`` of shape (R, d + 1); DNF
rules are learned by the estimator through De Morgan's law.

Each clause update is the one-level LP of Malioutov & Varshney (2013) on the samples
whose ideal output for that clause is not "don't care": all positives (ideal output 1)
and the negatives assigned to the clause (ideal output 0). We call
:func:`rulelab.lp.learn_clause` with ``lam = 1`` and column costs ``theta * c_j``: the
LP's objective is then the clause's share of eq. (3) in the same units (dividing by
``theta`` gives the paper's "theta in place of 1/lambda", lambda = 1/theta).

Where the paper is silent we choose as follows, and say so here. A fractional LP solution
is rounded both by threshold (the paper's "every non-zero weight is one") and by the best
prefix of its weights in decreasing order. BCD judges every candidate clause (current,
disabled, always false, the two roundings, and the LP without the always-true column when
the LP leans towards disabling) by F(W) itself and takes the best update, so it can
enable, disable and rewrite clauses and never increases F(W); AM takes each clause's best
candidate on its own subproblem and keeps an iteration only if F(W) decreases. Both start
from the set-covering baseline's clauses (:func:`init_weights`), as the paper's
experiments do.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field

import numpy as np
from joblib import Parallel, delayed

from .._highs import KeptModel
from ..lp import learn_clause, solve_or_lp
from .objective import clause_subobjective, clause_sums, hamming_objective
from .starts import SETCOVER_STARTS

__all__ = [
    "TwoLevelResult",
    "clause_candidates",
    "fit_clause",
    "init_weights",
    "bcd",
    "am",
    "assign_negatives",
]

_TOL = 1e-6
_SCREENING = "screening" in inspect.signature(solve_or_lp).parameters


@dataclass
class TwoLevelResult:
    """What an optimiser returns: the weights, the objective at every iteration, counts."""

    W: np.ndarray
    objective_path: list = field(default_factory=list)
    n_iter: int = 0
    converged: bool = False
    n_lp: int = 0


def lp_kwargs(
    exact: bool = False, solver: str = "highs", time_limit=None, screening: str | None = "basic"
) -> dict:
    """Keyword arguments for every clause LP. ``screening`` (paper 3's safe column tests,
    ``"basic"``/``"enhanced"``/None) is passed only when :mod:`rulelab.lp` supports it, so
    the clause LPs fall back to the unscreened problem on an older ``lp``."""
    kw = dict(exact=exact, solver=solver, time_limit=time_limit)
    if _SCREENING and screening is not None:
        kw["screening"] = screening
    return kw


def _best_prefix(A: np.ndarray, pos: np.ndarray, w: np.ndarray, cost: np.ndarray) -> np.ndarray:
    """Round LP weights ``w`` to the best clause among the prefixes of the columns sorted by
    decreasing weight (evaluated exactly in one vectorised pass)."""
    support = np.flatnonzero(w > _TOL)
    out = np.zeros(A.shape[1], dtype=bool)
    if support.size == 0:
        return out
    order = support[np.argsort(-w[support], kind="stable")]
    k = order.size
    sub = np.take(A, order, axis=1)  # the few support columns first, then the rows
    M = sub[pos].astype(bool)
    # A positive is covered by prefix m once its first firing column is among the first m.
    first = np.where(M.any(axis=1), M.argmax(axis=1), k)
    counts = np.bincount(first, minlength=k + 1)
    uncovered = counts[::-1].cumsum()[::-1]  # uncovered[m] = #(first >= m)
    neg_hits = np.concatenate([[0], sub[~pos].sum(axis=0).cumsum()])
    spent = np.concatenate([[0.0], cost[order].cumsum()])
    values = uncovered + neg_hits + spent  # m = 0 .. k
    m = int(np.argmin(values[1:])) + 1  # the empty clause is the caller's fallback
    out[order[:m]] = True
    return out


def _rounded(
    A: np.ndarray, yy: np.ndarray, cost: np.ndarray, lp_options: dict
) -> tuple[list[np.ndarray], np.ndarray | None]:
    """The clause LP on (A, yy) rounded by threshold and by best prefix, and the LP's
    weights (([], None) if the LP failed)."""
    lp = learn_clause(A, yy, form="or", lam=1.0, column_cost=cost, **lp_options)
    if lp.status not in ("optimal", "time_limit") or not np.isfinite(lp.w).all():
        return [], None
    thr = np.zeros(A.shape[1], dtype=bool)
    thr[lp.selected] = True
    return [thr, _best_prefix(A, yy, lp.w, cost)], lp.w


def clause_candidates(
    Xa: np.ndarray,
    y: np.ndarray,
    rows: np.ndarray,
    w_current: np.ndarray,
    cost: np.ndarray,
    lp_options: dict,
) -> tuple[list[np.ndarray], int]:
    """Candidate refits of one OR-clause on ``rows``; returns (candidates, LPs solved).

    The candidates are the current clause (first), the disabled clause, the always-false
    clause and the one-level LP of the subproblem rounded by threshold and by best
    prefix. When that LP puts weight on the always-true column (it leans towards
    disabling the clause), the LP is solved again without that column, so an enabled
    clause is always on offer: the subproblem charges a negative every term that fires on
    it, while F(W) charges only the smallest count over the clauses, so a clause the LP
    would disable can still lower F(W). The caller decides by F(W) (BCD) or by the
    clause's subproblem objective (AM, :func:`fit_clause`).
    """
    fitted, n_lp = _lp_candidates(Xa, y, rows, cost, lp_options)
    return _with_fixed(w_current, fitted), n_lp


def _lp_candidates(Xa, y, rows, cost, lp_options) -> tuple[list[np.ndarray], int]:
    """The candidates of :func:`clause_candidates` that come from the LPs, and the number
    of LPs solved. They depend on the subproblem (``rows``) only, not on the current
    clause, so BCD and AM solve each distinct subproblem once per fit.

    Each LP is solved from the slack basis, not re-solved from a previous basis: these
    LPs often have many optimal points, both roundings depend on which one the solver
    returns, and a warm start returns another one, so it would change the rules
    (``benchmarks/library/bench_clause_lp_reuse.py``: on Musk the previous LP's basis changed the
    rounded clauses of most LPs, with the same optimum values). Only the model is reused,
    when ``lp_options`` carries a ``kept`` model (see :func:`bcd`)."""
    A, yy = Xa[rows], np.asarray(y)[rows].astype(bool)
    found, w = _rounded(A, yy, cost, lp_options)
    n_lp = 1
    if w is None or w[0] > _TOL:
        enabled, _ = _rounded(A[:, 1:], yy, cost[1:], lp_options)
        found += [np.concatenate([[False], c]) for c in enabled]
        n_lp += 1
    return found, n_lp


def _with_fixed(w_current, fitted) -> list[np.ndarray]:
    """The current clause, the disabled and the always-false clause, then ``fitted``:
    canonical, without repeats, in that order (BCD and AM keep the first on ties)."""
    n_cols = len(w_current)
    disabled = np.zeros(n_cols, dtype=bool)
    disabled[0] = True
    found = [np.asarray(w_current, dtype=bool), disabled, np.zeros(n_cols, dtype=bool)]
    out, seen = [], set()
    for c in found + list(fitted):
        c = canonical(c)
        key = np.packbits(c).tobytes()
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def fit_clause(
    Xa: np.ndarray,
    y: np.ndarray,
    rows: np.ndarray,
    w_current: np.ndarray,
    cost: np.ndarray,
    lp_options: dict,
) -> tuple[np.ndarray, int]:
    """Refit one OR-clause on ``rows``; return (new weights, LPs solved): the best of
    :func:`clause_candidates` on the clause's subproblem, the current clause on ties, so
    the subproblem objective never increases."""
    candidates, n_lp = clause_candidates(Xa, y, rows, w_current, cost, lp_options)
    return _best_on_subproblem(Xa, y, rows, candidates, cost), n_lp


def _best_on_subproblem(Xa, y, rows, candidates, cost) -> np.ndarray:
    """The candidate with the lowest subproblem objective, the first on ties."""
    A, yy = Xa[rows], np.asarray(y)[rows].astype(bool)
    values = [clause_subobjective(A, yy, w, cost) for w in candidates]
    return candidates[int(np.argmin(values))].copy()  # argmin keeps the first on ties


def canonical(w: np.ndarray) -> np.ndarray:
    """A disabled clause (always-true feature selected) keeps no other term: they only add
    cost and raise the clause's count on negatives."""
    w = np.asarray(w, dtype=bool).copy()
    if w[0]:
        w[1:] = False
    return w


def _others_reject(S: np.ndarray, r: int) -> np.ndarray:
    """Samples that some clause other than r already outputs 0 on."""
    if S.shape[1] == 1:
        return np.zeros(S.shape[0], dtype=bool)
    return (np.delete(S, r, axis=1) == 0).any(axis=1)


def init_weights(
    Xa, y, n_clauses: int, cost, how: str, lp_options: dict, rng
) -> tuple[np.ndarray, int]:
    """Initial weights: ``"setcover"``, ``"random"`` or ``"empty"``; returns (W, LPs solved).

    ``"setcover"`` is the set-covering baseline itself (Su et al. initialise BCD and AM
    with it): :class:`rulelab.SetCoverRules` with ``complexity = theta`` and at most
    ``n_clauses`` clauses on the De Morgan dual of this CNF problem (the DNF problem on
    ``1 - X``, ``1 - y``); its AND-clause over terms S is this problem's OR-clause over
    the same columns, and the clauses it did not use start disabled. So BCD and AM start
    at SC's rule and, as descent methods, never end above SC's objective. A start already
    computed in this process from the same inputs (BCD's, for AM tuned on the same folds) is
    taken from :data:`rulelab.twolevel.starts.SETCOVER_STARTS`, unless an LP time limit
    makes the start depend on the clock.
    ``"random"``: every clause ORs one to three random terms. ``"empty"``: all-zero
    weights (every clause is the empty OR, always false).
    """
    n_cols = Xa.shape[1]
    W = np.zeros((n_clauses, n_cols), dtype=bool)
    if how == "empty":
        return W, 0
    if how == "random":
        for r in range(n_clauses):
            k = int(rng.integers(1, min(3, n_cols - 1) + 1))
            W[r, 1 + rng.choice(n_cols - 1, size=k, replace=False)] = True
        return W, 0
    if how != "setcover":
        raise ValueError(f"init must be 'setcover', 'random' or 'empty', not {how!r}")
    theta = float(cost[1]) if n_cols > 1 else 1.0
    W[:, 0] = True
    dual_y = 1 - np.asarray(y).astype(np.uint8)
    if dual_y.min() == dual_y.max():
        return W, 0  # one class: SC has nothing to cover
    options = {k: lp_options.get(k) for k in ("exact", "solver", "time_limit", "screening")}
    if options["time_limit"] is not None:
        # a solve stopped by the clock is not a function of its inputs: nothing to share
        return _setcover_start(Xa, dual_y, W, theta, options)
    # BCD and AM tuned on the same folds meet the same starts (rulelab.twolevel.starts)
    key = SETCOVER_STARTS.key(Xa, dual_y, n_clauses, theta, options)
    return SETCOVER_STARTS.get(key, lambda: _setcover_start(Xa, dual_y, W, theta, options))


def _setcover_start(Xa, dual_y, W, theta: float, options: dict) -> tuple[np.ndarray, int]:
    """:func:`init_weights`' ``"setcover"`` start: SC's clauses in ``W`` (all disabled on
    entry), and the LPs SC solved."""
    from ..rulesets import SetCoverRules  # the baseline of Table 1, not a copy of it

    sc = SetCoverRules(
        complexity=theta if theta > 0 else 1e-12,
        max_rules=W.shape[0],
        binarizer="passthrough",
        exact=options["exact"] or False,
        solver=options["solver"] or "highs",
        lp_time_limit=options["time_limit"],
        screening=options["screening"],
    )
    sc.fit(1 - Xa[:, 1:], dual_y)
    for r, lp in enumerate(sc.lps_):
        W[r] = False
        W[r, 1 + np.asarray(lp.selected, dtype=int)] = True
    n_lp = len(sc.lps_) + (sc.stop_reason_ not in ("max_rules", "no positives left"))
    return W, n_lp


def _objective_with(Xa, y, W, S, r, w, cost) -> float:
    """F(W) with clause r replaced by ``w`` (reusing the clause sums of the others)."""
    trial_S = S.copy()
    trial_S[:, r] = Xa[:, np.asarray(w, dtype=bool)].sum(axis=1, dtype=np.int64)
    trial_W = W.copy()
    trial_W[r] = w
    return hamming_objective(Xa, y, trial_W, cost, trial_S)


def _keeping(lp_options: dict, keep_model: bool) -> dict:
    """``lp_options`` with a :class:`~rulelab._highs.KeptModel` for this fit's clause LPs
    (HiGHS only: another solver has no model to keep)."""
    if not keep_model or lp_options.get("solver", "highs").lower() != "highs":
        return lp_options
    return {**lp_options, "kept": KeptModel()}


def _parallel(n_jobs):
    # Threads: HiGHS releases the GIL while it solves, and threads share the design matrix.
    return Parallel(n_jobs=n_jobs, prefer="threads")


def bcd(
    Xa,
    y,
    W0,
    cost,
    *,
    max_iter: int = 20,
    update: str = "greedy",
    lp_options: dict,
    rng=None,
    n_jobs=None,
    reuse_lps: bool = True,
    keep_model: bool = True,
) -> TwoLevelResult:
    """Block coordinate descent (section 3.1): update one clause at a time, others fixed.

    For clause r, the negatives some other clause already rejects are don't-cares; the
    clause is refitted on the positives and the other negatives, and every candidate of
    :func:`clause_candidates` is judged by F(W). ``update="greedy"`` tries every clause
    and keeps the update with the lowest objective (the paper's experiments);
    ``"cyclic"`` and ``"random"`` try one clause per iteration. An update is accepted only
    if it lowers F(W), so the objective path never increases. Greedy stops when no clause
    improves; cyclic/random after ``R`` tries in a row without improvement.

    A clause's LPs depend only on its subproblem (which negatives are kept), and after an
    update the updated clause's subproblem is unchanged, so with ``reuse_lps`` (default)
    each distinct subproblem's LPs are solved once per fit and their candidates are
    offered again with the clause's new current weights. ``reuse_lps=False`` re-solves
    them whenever the clause or its subproblem changed (the reference path: same
    candidates, more LPs).

    Every subproblem keeps all the positives, so consecutive clause LPs often have the
    same matrix (merged positive rows, screened columns) and other costs; with
    ``keep_model`` (default) such an LP is re-costed on the HiGHS model of the previous one
    instead of passed anew (:class:`rulelab._highs.KeptModel`): the same solutions, so
    the same rules. ``keep_model=False`` passes every LP to a new model.
    """
    if update not in ("greedy", "cyclic", "random"):
        raise ValueError(f"update must be 'greedy', 'cyclic' or 'random', not {update!r}")
    rng = np.random.default_rng(rng)
    lp_options = _keeping(lp_options, keep_model)
    pos = np.asarray(y).astype(bool)
    W = np.asarray(W0, dtype=bool).copy()
    R = W.shape[0]
    S = clause_sums(Xa, W)
    F = hamming_objective(Xa, y, W, cost, S)
    result = TwoLevelResult(W, [F])
    cache: dict = {}  # subproblem -> its LP candidates (or, reference path, a refit)
    stale = 0
    for it in range(max_iter):
        if update == "greedy":
            blocks = list(range(R))
        elif update == "cyclic":
            blocks = [it % R]
        else:
            blocks = [int(rng.integers(R))]
        keys, todo = [], []
        for r in blocks:
            rows = pos | ~_others_reject(S, r)
            if reuse_lps:
                key = np.packbits(rows).tobytes()
            else:
                key = (r, np.packbits(rows).tobytes(), np.packbits(W[r]).tobytes())
            keys.append(key)
            if key not in cache and all(key != t[0] for t in todo):
                todo.append((key, rows, r))
        if reuse_lps:
            jobs = (delayed(_lp_candidates)(Xa, y, rows, cost, lp_options) for _, rows, _ in todo)
        else:
            jobs = (
                delayed(clause_candidates)(Xa, y, rows, W[r], cost, lp_options)
                for _, rows, r in todo
            )
        fitted = _parallel(n_jobs if len(todo) > 1 else None)(jobs)
        for (key, _, _), (cands, k) in zip(todo, fitted):
            cache[key] = cands
            result.n_lp += k
        # Every candidate of every block is judged by F(W) itself, not by its subproblem:
        # that is what lets BCD enable a clause the subproblem's LP would leave disabled.
        best_F, best_r, best_w = F, None, None
        for r, key in zip(blocks, keys):
            for w in _with_fixed(W[r], cache[key]) if reuse_lps else cache[key]:
                if np.array_equal(w, W[r]):
                    continue
                value = _objective_with(Xa, y, W, S, r, w, cost)
                if value < best_F - 1e-9:
                    best_F, best_r, best_w = value, r, w
        result.n_iter = it + 1
        if best_r is None:
            stale += len(blocks)
            if update == "greedy" or stale >= R:
                result.converged = True
                break
            result.objective_path.append(F)
            continue
        stale = 0
        W[best_r] = best_w
        S = clause_sums(Xa, W)
        F = best_F
        result.objective_path.append(F)
    result.W = W
    return result


def assign_negatives(S_neg: np.ndarray, X_neg: np.ndarray) -> np.ndarray:
    """For every negative, the clause whose ideal output is 0: ``argmin_r s_ir`` (eq. 5),
    ties broken by the nearest cluster centre in l1 norm (section 3.2).

    The centre of clause r is the mean feature vector of the negatives for which r attains
    the minimum, ties included. For 0/1 rows, ``|x - c|_1 = sum(c) + x @ (1 - 2c)``.
    """
    if S_neg.shape[0] == 0:
        return np.zeros(0, dtype=int)
    tied = S_neg == S_neg.min(axis=1, keepdims=True)
    assign = tied.argmax(axis=1)
    multi = tied.sum(axis=1) > 1
    if multi.any():
        X = np.asarray(X_neg, dtype=float)
        counts = tied.sum(axis=0).astype(float)
        with np.errstate(invalid="ignore", divide="ignore"):
            centres = (tied.T.astype(float) @ X) / counts[:, None]
        centres = np.nan_to_num(centres)  # a clause no negative reaches is never a candidate
        dist = centres.sum(axis=1)[None, :] + X[multi] @ (1.0 - 2.0 * centres).T
        dist[~tied[multi]] = np.inf
        assign[multi] = dist.argmin(axis=1)
    return assign


def am(
    Xa,
    y,
    W0,
    cost,
    *,
    max_iter: int = 20,
    lp_options: dict,
    n_jobs=None,
    reuse_lps: bool = True,
    keep_model: bool = True,
) -> TwoLevelResult:
    """Alternating minimisation (section 3.2): (a) with W fixed, set the ideal outputs
    (positives 1 everywhere; each negative 0 on its clause from :func:`assign_negatives`,
    don't-care elsewhere); (b) with them fixed, refit all R clauses independently, in
    parallel. Stops when an iteration does not lower F(W). ``reuse_lps`` as in
    :func:`bcd`: a subproblem met again (same clause rows) reuses its LP candidates;
    ``keep_model`` as in :func:`bcd`."""
    lp_options = _keeping(lp_options, keep_model)
    pos = np.asarray(y).astype(bool)
    W = np.asarray(W0, dtype=bool).copy()
    R = W.shape[0]
    S = clause_sums(Xa, W)
    F = hamming_objective(Xa, y, W, cost, S)
    result = TwoLevelResult(W, [F])
    neg_idx = np.flatnonzero(~pos)
    cache: dict = {}  # subproblem rows -> its LP candidates
    for it in range(max_iter):
        assign = assign_negatives(S[neg_idx], Xa[neg_idx])
        subproblems = []
        for r in range(R):
            rows = pos.copy()
            rows[neg_idx[assign == r]] = True
            subproblems.append((rows, np.packbits(rows).tobytes()))
        if reuse_lps:
            todo = list({key: rows for rows, key in subproblems if key not in cache}.items())
            solved = _parallel(n_jobs)(
                delayed(_lp_candidates)(Xa, y, rows, cost, lp_options) for _, rows in todo
            )
            for (key, _), (cands, k) in zip(todo, solved):
                cache[key] = cands
                result.n_lp += k
            new = [
                _best_on_subproblem(Xa, y, rows, _with_fixed(W[r], cache[key]), cost)
                for r, (rows, key) in enumerate(subproblems)
            ]
        else:
            fitted = _parallel(n_jobs)(
                delayed(fit_clause)(Xa, y, rows, W[r], cost, lp_options)
                for r, (rows, _) in enumerate(subproblems)
            )
            new = [w for w, _ in fitted]
            result.n_lp += sum(k for _, k in fitted)
        W_new = np.array(new, dtype=bool).reshape(W.shape)
        result.n_iter = it + 1
        S_new = clause_sums(Xa, W_new)
        F_new = hamming_objective(Xa, y, W_new, cost, S_new)
        if F_new >= F - 1e-9:
            result.converged = True
            break
        W, S, F = W_new, S_new, F_new
        result.objective_path.append(F)
    result.W = W
    return result
