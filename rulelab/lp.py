"""The Boolean compressed-sensing LP for one clause (Malioutov & Varshney 2013).

An OR-clause ``y = A v w`` is learned from a 0/1 design matrix ``A`` (rows = samples,
columns = Boolean terms) by the LP relaxation

* noiseless, eq. (9):   min sum_j c_j w_j   s.t.  A_P w >= 1,  A_Z w = 0,  0 <= w <= 1
* with slacks, eq. (10): min sum_j c_j w_j + lam sum_i d_i xi_i
                         s.t.  A_P w + xi_P >= 1,  A_Z w = xi_Z,  0 <= w <= 1,
                               0 <= xi_P <= 1,  xi_Z >= 0

where P / Z are the positive / zero rows, ``d`` optional sample weights (eq. 11 for
boosting) and ``c`` column costs (1 by default). An AND-clause is learned through
De Morgan: y = AND_j a_j  <=>  1 - y = OR_j (1 - a_j) (eq. 5).

Because ``xi_Z = A_Z w`` at every feasible point, eq. (10) equals the *reduced* LP of
Dash, Malioutov & Varshney (2014, eq. 4)

    min sum_j (c_j + lam sum_{i in Z} d_i a_ij) w_j + lam sum_{i in P} d_i xi_i
    s.t. A_P w + xi_P >= 1,  0 <= w <= 1,  0 <= xi_P <= 1

which has one constraint per *positive* row instead of one per row; identical positive
rows are further merged into one constraint with the summed weight (exactly equivalent:
their slacks are equal at the optimum). This is the default.

Solvers: ``solver="highs"`` (default) hands the LP to HiGHS directly through highspy;
any other name is a cvxpy solver (e.g. ``"HIGHS"``, ``"CLARABEL"``, ``"SCIPY"``) and the
LP is stated in cvxpy. Both solve the same problem. HiGHS is the default solver either
way; the direct path is the default route because it skips cvxpy's canonicalisation
(about a fifth of the run time on MAGIC at 100 thresholds, see ``benchmarks/library/bench_lp.py``),
keeps rulelab's overhead over a bare HiGHS call near 1x, and gives the MILP and its time
limit without a modelling layer. The exact 0/1 problem (eq. 8 / its slack version) is solved
as a MILP through HiGHS with ``exact=True``.

Screening (paper 3): ``screening="basic"|"enhanced"`` first removes columns that cannot be
in an optimal clause (:mod:`rulelab.screening`), solves the smaller problem and maps the
solution back to the full column indices. The counting and pairwise tests are exchange
arguments valid for fractional ``w`` as well, so they are used for the LP; the duality test
bounds 0/1 solutions only and is added when ``exact=True``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from numba import njit

from ._highs import KeptModel, absorb_banner, quiet_highs
from ._validation import check_binary_labels, check_binary_matrix
from .screening import _screen

__all__ = ["ClauseLP", "solve_or_lp", "learn_clause", "clause_objective", "or_predict"]

_TOL = 1e-6


@dataclass
class ClauseLP:
    """The result of one clause LP.

    Attributes
    ----------
    selected : ndarray of int
        Indices of the columns in the learned clause (after rounding, or exact).
    form : str
        ``"or"`` or ``"and"``: how the selected columns combine.
    w : ndarray of float
        The LP's (fractional) solution over all columns; 0/1 when ``exact``.
    lp_value : float
        Optimal value of the LP (or MILP) that was solved.
    objective : float
        Value of the rounded 0/1 clause in the same objective.
    status : str
        ``"optimal"``, ``"infeasible"``, ``"time_limit"`` or the solver's own word.
    exact : bool
        Whether the 0/1 problem was solved exactly (MILP).
    formulation : str
        ``"reduced"`` (paper 3, eq. 4), ``"full"`` (paper 1, eq. 10) or ``"noiseless"`` (eq. 9).
    solve_time : float
        Seconds spent in the solver (building the problem excluded).
    """

    selected: np.ndarray
    form: str
    w: np.ndarray
    lp_value: float
    objective: float
    status: str
    exact: bool = False
    formulation: str = "reduced"
    solve_time: float = 0.0
    info: dict = field(default_factory=dict)

    @property
    def is_integral(self) -> bool:
        """True when the LP solution was already 0/1 (no rounding needed)."""
        return bool(np.all(np.minimum(self.w, 1 - self.w) < _TOL))

    def rule(self, terms):
        """The learned clause in words: ``terms[j]`` is the :class:`~rulelab.rules.Term` of
        column ``j`` (e.g. ``FeatureBinarizer.terms_``)."""
        from .rules import Clause

        if len(terms) != self.w.size:
            raise ValueError(f"{len(terms)} terms given for an LP over {self.w.size} columns")
        return Clause(tuple(terms[j] for j in np.sort(self.selected)), self.form)


def or_predict(A: np.ndarray, selected) -> np.ndarray:
    """Output of the OR-clause over ``selected`` columns on every row of ``A``."""
    selected = np.asarray(selected, dtype=int)
    if selected.size == 0:
        return np.zeros(A.shape[0], dtype=bool)
    return A[:, selected].any(axis=1)


def clause_objective(
    A, y, selected, lam: float | None, sample_weight=None, column_cost=None
) -> float:
    """Objective of eq. (10) at the 0/1 OR-clause ``selected`` (``inf`` if ``lam`` is None and
    the clause makes an error). ``xi_Z`` counts every selected term that fires on a negative."""
    A = np.asarray(A)
    y = np.asarray(y).astype(bool)
    selected = np.asarray(selected, dtype=int)
    d = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, float)
    c = np.ones(A.shape[1]) if column_cost is None else np.asarray(column_cost, float)
    hits = A[:, selected].sum(axis=1) if selected.size else np.zeros(len(y))
    miss_p = hits[y] == 0
    over_z = hits[~y]
    if lam is None:
        return float(c[selected].sum()) if not miss_p.any() and not over_z.any() else float("inf")
    return float(c[selected].sum() + lam * (d[y] @ miss_p + d[~y] @ over_z))


def _split(A, y, d):
    pos = y.astype(bool)
    return A[pos], A[~pos], d[pos], d[~pos]


def _unique_rows(R: np.ndarray):
    """Distinct rows of a 0/1 matrix and the inverse map; rows are packed to bytes first,
    which is much faster than ``np.unique(axis=0)`` on wide designs."""
    packed = np.packbits(R.astype(bool, copy=False), axis=1)
    keys = np.ascontiguousarray(packed).view(np.dtype((np.void, packed.shape[1]))).ravel()
    _, first, inv = np.unique(keys, return_index=True, return_inverse=True)
    return R[first], inv.ravel()


@njit(cache=True, nogil=True)
def _csc_structure(R):
    """indptr and row indices of a dense 0/1 matrix's non-zeros, column by column, in two
    row-major passes (no Fortran copy, no index arrays the size of the matrix)."""
    k, n = R.shape
    indptr = np.zeros(n + 1, dtype=np.int64)
    for i in range(k):
        for j in range(n):
            if R[i, j]:
                indptr[j + 1] += 1
    for j in range(n):
        indptr[j + 1] += indptr[j]
    indices = np.empty(indptr[n], dtype=np.int32)
    fill = indptr[:n].copy()
    for i in range(k):
        for j in range(n):
            if R[i, j]:
                indices[fill[j]] = i
                fill[j] += 1
    return indptr, indices


def _csc(R: np.ndarray, identity: bool = False) -> sp.csc_matrix:
    """CSC matrix of a dense 0/1 array (with ``identity``: of ``[R | I]``, the reduced LP's
    terms and slacks), built directly: these LPs hold millions of non-zeros."""
    k, n = R.shape
    indptr, indices = _csc_structure(np.ascontiguousarray(R, dtype=np.uint8))
    if identity:
        indptr = np.concatenate([indptr, indptr[-1] + np.arange(1, k + 1)])
        indices = np.concatenate([indices, np.arange(k, dtype=np.int32)])
        n += k
    if indptr[-1] < np.iinfo(np.int32).max:
        indptr = indptr.astype(np.int32)
    return sp.csc_matrix((np.ones(indices.size), indices, indptr), shape=(k, n))


def _weighted_column_sums(R: np.ndarray, d: np.ndarray) -> np.ndarray:
    """sum_i d_i R_ij, without a float copy of R when the weights are all equal."""
    if d.size and np.all(d == d[0]):
        return d[0] * R.sum(axis=0, dtype=np.int64).astype(float)
    return d @ R.astype(np.float32)


def _build(A, y, lam, d, c, formulation):
    """Assemble (cost, matrix, row bounds, column bounds, n_w) of the chosen formulation."""
    m, n = A.shape
    A_P, A_Z, d_P, d_Z = _split(A, y, d)
    if lam is None:  # eq. (9): columns touching a zero row are fixed at 0
        upper = np.where(A_Z.any(axis=0), 0.0, 1.0)
        rows, _ = _unique_rows(A_P)
        M = _csc(rows)
        return (
            c.astype(float),
            M,
            np.ones(rows.shape[0]),
            np.full(rows.shape[0], np.inf),
            np.zeros(n),
            upper,
            n,
        )
    if formulation == "reduced":
        cost_w = c + lam * _weighted_column_sums(A_Z, d_Z)
        rows, inv = _unique_rows(A_P)
        weights = np.bincount(inv, weights=d_P, minlength=rows.shape[0])
        k = rows.shape[0]
        M = _csc(rows, identity=True)
        cost = np.concatenate([cost_w, lam * weights])
        return (
            cost,
            M,
            np.ones(k),
            np.full(k, np.inf),
            np.zeros(n + k),
            np.concatenate([np.ones(n), np.ones(k)]),
            n,
        )
    if formulation == "full":
        p, z = A_P.shape[0], A_Z.shape[0]
        top = sp.hstack([_csc(A_P), sp.identity(p, format="csc"), sp.csc_matrix((p, z))])
        bottom = sp.hstack([_csc(A_Z), sp.csc_matrix((z, p)), -sp.identity(z, format="csc")])
        M = sp.vstack([top, bottom], format="csc")
        cost = np.concatenate([c, lam * d_P, lam * d_Z])
        row_lo = np.concatenate([np.ones(p), np.zeros(z)])
        row_hi = np.concatenate([np.full(p, np.inf), np.zeros(z)])
        col_hi = np.concatenate([np.ones(n + p), np.full(z, np.inf)])
        return cost, M, row_lo, row_hi, np.zeros(n + p + z), col_hi, n
    raise ValueError(f"formulation must be 'reduced' or 'full', not {formulation!r}")


def _solve_highs(
    cost,
    M,
    row_lo,
    row_hi,
    col_lo,
    col_hi,
    integer_cols,
    time_limit,
    presolve: bool = False,
    kept: KeptModel | None = None,
):
    import highspy

    cost = np.ascontiguousarray(cost, dtype=np.float64)
    # Everything HiGHS is given but the costs; an LP is re-costed on a kept model only if
    # all of it is equal (a MILP or a presolved LP always gets a new model).
    structure = (
        np.ascontiguousarray(col_lo, dtype=np.float64),
        np.ascontiguousarray(np.minimum(col_hi, highspy.kHighsInf), dtype=np.float64),
        np.ascontiguousarray(row_lo, dtype=np.float64),
        np.ascontiguousarray(np.minimum(row_hi, highspy.kHighsInf), dtype=np.float64),
        M.indptr.astype(np.int32, copy=False),
        M.indices.astype(np.int32, copy=False),
        M.data.astype(np.float64, copy=False),
        np.array([np.inf if time_limit is None else float(time_limit)]),
    )
    reuse = kept is not None and not (integer_cols or presolve)
    h = kept.model(structure) if reuse else None
    if h is not None:
        h.changeColsCost(cost.size, np.arange(cost.size, dtype=np.int32), cost)
        h.clearSolver()  # the slack basis again, as on a new model: the same simplex path
    else:
        h = _new_highs(cost, M, structure, integer_cols, time_limit, presolve)
        if reuse:
            kept.keep(structure, h)
    start = time.perf_counter()
    h.run()
    elapsed = time.perf_counter() - start
    status = h.modelStatusToString(h.getModelStatus()).lower()
    x = np.asarray(h.getSolution().col_value, dtype=float)
    value = h.getInfo().objective_function_value
    if "infeasible" in status:
        status = "infeasible"
    elif "time limit" in status:
        status = "time_limit"
    return x, float(value), status, elapsed


def _new_highs(cost, M, structure, integer_cols, time_limit, presolve):
    """A new HiGHS model holding the LP (``structure`` as :func:`_solve_highs` makes it)."""
    import highspy

    h = quiet_highs()
    if time_limit is not None:
        h.setOptionValue("time_limit", float(time_limit))
    if not (integer_cols or presolve):
        # The clause LP has merged duplicate rows and screened columns already: presolve
        # finds almost nothing left to remove in these dense covering problems but spends
        # about as long looking as the simplex takes to solve them (benchmarks/library/bench_clause_lp.py).
        h.setOptionValue("presolve", "off")
    n_col, n_row = M.shape[1], M.shape[0]
    integrality = np.zeros(n_col, dtype=np.int32)  # 0 = continuous
    integrality[:integer_cols] = int(highspy.HighsVarType.kInteger.value)
    col_lo, col_hi, row_lo, row_hi, indptr, indices, data, _ = structure
    # The array form of passModel hands numpy buffers to HiGHS without Python-level copies.
    h.passModel(
        n_col,
        n_row,
        M.nnz,
        int(highspy.MatrixFormat.kColwise.value),
        int(highspy.ObjSense.kMinimize.value),
        0.0,
        cost,
        col_lo,
        col_hi,
        row_lo,
        row_hi,
        indptr,
        indices,
        data,
        integrality,
    )
    return h


def _solve_cvxpy(cost, M, row_lo, row_hi, col_lo, col_hi, integer_cols, solver, time_limit):
    import cvxpy as cp

    if solver not in cp.installed_solvers():
        raise ValueError(
            f"solver {solver!r} is not installed; installed: {cp.installed_solvers()}"
            " (or use solver='highs')"
        )
    n = M.shape[1]
    if integer_cols:
        xw = cp.Variable(integer_cols, integer=True)
        rest = cp.Variable(n - integer_cols) if n > integer_cols else None
        x = cp.hstack([xw, rest]) if rest is not None else xw
    else:
        x = cp.Variable(n)
    Mx = M @ x
    cons = [x >= col_lo]
    finite_hi = np.isfinite(col_hi)
    cons.append(x[np.flatnonzero(finite_hi)] <= col_hi[finite_hi])
    eq = row_lo == row_hi
    if eq.any():
        cons.append(Mx[np.flatnonzero(eq)] == row_lo[eq])
    if (~eq).any():
        cons.append(Mx[np.flatnonzero(~eq)] >= row_lo[~eq])
    prob = cp.Problem(cp.Minimize(cost @ x), cons)
    kwargs = {"time_limit": time_limit} if (time_limit and solver == "HIGHS") else {}
    if solver == "HIGHS":
        absorb_banner()  # cvxpy's HiGHS interface constructs a highspy.Highs
    start = time.perf_counter()
    prob.solve(solver=solver, verbose=False, **kwargs)
    elapsed = time.perf_counter() - start
    status = "optimal" if prob.status == cp.OPTIMAL else prob.status
    if x.value is None:
        return np.full(n, np.nan), float("nan"), status, elapsed
    return np.asarray(x.value, float), float(prob.value), status, elapsed


def _randomized_round(A, y, w, lam, d, c, n_trials, rng):
    """Randomized rounding for set cover (Vazirani, ch. 14): repeat ~ln(m) rounds of keeping
    column j with probability w_j; the best of ``n_trials`` draws by the discrete objective."""
    rounds = int(np.ceil(np.log(max(2, int(y.sum()))))) + 1
    best, best_val = np.flatnonzero(w > _TOL), None
    best_val = clause_objective(A, y, best, lam, d, c)
    for _ in range(n_trials):
        keep = np.zeros_like(w, dtype=bool)
        for _ in range(rounds):
            keep |= rng.random(w.shape) < w
        cand = np.flatnonzero(keep)
        val = clause_objective(A, y, cand, lam, d, c)
        if val < best_val:
            best, best_val = cand, val
    return best


def solve_or_lp(
    A,
    y,
    lam: float | None = 1000.0,
    *,
    sample_weight=None,
    column_cost=None,
    exact: bool = False,
    rounding: str = "threshold",
    formulation: str = "reduced",
    solver: str = "highs",
    time_limit: float | None = None,
    n_trials: int = 20,
    random_state=None,
    screening: str | None = None,
    screening_groups="auto",
    kept: KeptModel | None = None,
) -> ClauseLP:
    """Learn an OR-clause ``y ~ OR_{j in S} A[:, j]`` with the Boolean compressed-sensing LP.

    Parameters
    ----------
    A : array-like of shape (n_samples, n_terms), 0/1
        The truth table of the candidate terms.
    y : array-like of shape (n_samples,), 0/1
    lam : float or None, default=1000
        Weight of the slacks (eq. 10). ``None`` solves the noiseless LP (eq. 9).
    sample_weight : array-like, optional
        Non-negative ``d_i`` multiplying each slack (eq. 11).
    column_cost : array-like, optional
        Cost of each term (default 1): the sparsity penalty ``c_j``.
    exact : bool, default=False
        Solve the 0/1 problem exactly as a MILP (HiGHS) instead of rounding the LP.
    rounding : {"threshold", "randomized"}, default="threshold"
        ``"threshold"``: every non-zero ``w_j`` becomes 1 (paper 1). ``"randomized"``:
        randomized rounding, the best of ``n_trials`` draws (and the threshold rounding).
    formulation : {"reduced", "full"}, default="reduced"
        The reduced LP (paper 3, eq. 4, with merged duplicate rows) or eq. (10) as written.
    solver : str, default="highs"
        ``"highs"`` (direct) or the name of an installed cvxpy solver.
    time_limit : float, optional
        Seconds allowed to the solver; ``status`` says ``"time_limit"`` when it stopped.
    n_trials : int, default=20
        Draws of randomized rounding.
    random_state : int or Generator, optional
        Seed of randomized rounding.
    screening : {None, "basic", "enhanced"}, default=None
        Screen the columns first (Dash, Malioutov & Varshney 2014) and solve the reduced
        problem; ``selected`` and ``w`` refer to the columns of ``A`` as given. Which tests
        run depends on what is solved:

        * the LP (``exact=False``): the counting test and the pairwise test on nested
          threshold columns. Both are exchange arguments (drop a column, or move its weight
          onto a nested smaller column) that never raise the objective, for fractional
          ``w`` as well as 0/1, so the LP optimum value is unchanged.
        * the 0/1 problem (``exact=True``): the duality test in addition. It compares a
          lower bound on every *0/1* solution that uses a column with a feasible 0/1
          solution, so it may remove columns an optimal *fractional* solution uses; it is
          never applied to the LP.

        ``"basic"`` compares consecutive thresholds and uses the basic greedy bounds,
        ``"enhanced"`` all pairs and the enhanced bounds. With ``lam=None`` (eq. 9) only
        columns that fire on a negative are removed (eq. 9 fixes them at 0). The report
        is in ``info["screening"]``.
    screening_groups : "auto", list or None, default="auto"
        The nested threshold columns for the pairwise test (see
        :func:`rulelab.screening.screen`); ``"auto"`` detects them.
    kept : rulelab._highs.KeptModel, optional
        Solve on the HiGHS model of the previous LP when this one has the same matrix and
        bounds (only the costs are changed): the same solution, without passing the matrix
        again. For a sequence of related LPs, such as one two-level fit's clause LPs.

    Returns
    -------
    ClauseLP
    """
    A = check_binary_matrix(A)
    y = check_binary_labels(y, A.shape[0], allow_one_class=True)
    m, n = A.shape
    d = np.ones(m) if sample_weight is None else np.asarray(sample_weight, dtype=float)
    if d.shape != (m,) or (d < 0).any() or not np.isfinite(d).all():
        raise ValueError("sample_weight must be finite, non-negative and one per sample")
    c = np.ones(n) if column_cost is None else np.asarray(column_cost, dtype=float)
    if c.shape != (n,) or (c < 0).any():
        raise ValueError("column_cost must be non-negative and one per column of A")
    if lam is not None and lam <= 0:
        raise ValueError(f"lam must be positive (or None for the noiseless LP), got {lam}")
    if rounding not in ("threshold", "randomized"):
        raise ValueError(f"rounding must be 'threshold' or 'randomized', not {rounding!r}")
    if screening not in (None, "basic", "enhanced"):
        raise ValueError(f"screening must be None, 'basic' or 'enhanced', not {screening!r}")
    if not y.any():  # nothing to cover: the empty OR-clause (always false) is optimal
        return ClauseLP(
            np.empty(0, int),
            "or",
            np.zeros(n),
            0.0,
            clause_objective(A, y, [], lam, d, c),
            "optimal",
            exact,
            "noiseless" if lam is None else formulation,
        )
    name = "noiseless" if lam is None else formulation
    if screening is not None:
        return _solve_screened(
            A,
            y,
            lam,
            d,
            c,
            screening,
            screening_groups,
            exact=exact,
            rounding=rounding,
            formulation=formulation,
            solver=solver,
            time_limit=time_limit,
            n_trials=n_trials,
            random_state=random_state,
            kept=kept,
        )
    cost, M, row_lo, row_hi, col_lo, col_hi, n_w = _build(A, y, lam, d, c, formulation)
    integer_cols = n_w if exact else 0
    if solver.lower() == "highs":
        x, value, status, elapsed = _solve_highs(
            cost, M, row_lo, row_hi, col_lo, col_hi, integer_cols, time_limit, kept=kept
        )
    else:
        x, value, status, elapsed = _solve_cvxpy(
            cost, M, row_lo, row_hi, col_lo, col_hi, integer_cols, solver, time_limit
        )
    if status == "infeasible" or not np.isfinite(x).all() or x.size < n_w:
        return ClauseLP(
            np.empty(0, int),
            "or",
            np.zeros(n),
            float("nan"),
            float("inf"),
            status,
            exact,
            name,
            elapsed,
        )
    w = np.clip(x[:n_w], 0.0, 1.0)
    if exact:
        selected = np.flatnonzero(w > 0.5)
    elif rounding == "randomized":
        rng = np.random.default_rng(random_state)
        selected = _randomized_round(A, y, w, lam, d, c, n_trials, rng)
    else:
        selected = np.flatnonzero(w > _TOL)
    return ClauseLP(
        selected,
        "or",
        w,
        value,
        clause_objective(A, y, selected, lam, d, c),
        status,
        exact,
        name,
        elapsed,
    )


def _solve_screened(A, y, lam, d, c, level, groups, **kwargs) -> ClauseLP:
    """Screen, solve the reduced problem, and map its solution back to the columns of ``A``."""
    start = time.perf_counter()
    if lam is None:  # eq. (9) fixes every column that fires on a negative at 0
        keep = ~A[y == 0].any(axis=0)
        report = {
            "level": level,
            "n_columns": A.shape[1],
            "total": int((~keep).sum()),
            "fraction": float((~keep).mean()),
            "kept": int(keep.sum()),
        }
    else:
        keep, report = _screen(
            A, y.astype(bool), lam, level, groups, bool(kwargs["exact"]), True, d, c
        )
    screen_time = time.perf_counter() - start
    n = A.shape[1]
    idx = np.flatnonzero(keep)
    info = {"screening": report, "screen_time": screen_time}
    name = "noiseless" if lam is None else kwargs["formulation"]
    if idx.size == 0:
        if lam is None:  # no column avoids every negative: eq. (9) has no solution
            return ClauseLP(
                np.empty(0, int),
                "or",
                np.zeros(n),
                float("nan"),
                float("inf"),
                "infeasible",
                kwargs["exact"],
                name,
                0.0,
                info,
            )
        # Every column was shown useless: the empty clause (all slacks at 1) is optimal.
        value = clause_objective(A, y, [], lam, d, c)
        return ClauseLP(
            np.empty(0, int),
            "or",
            np.zeros(n),
            value,
            value,
            "optimal",
            kwargs["exact"],
            name,
            0.0,
            info,
        )
    # np.take keeps the row-major layout that every later step reads row by row;
    # ``A[:, idx]`` returns a column-major copy, several times slower to take and to read.
    sub = solve_or_lp(
        np.take(A, idx, axis=1), y, lam, sample_weight=d, column_cost=c[idx], **kwargs
    )
    w = np.zeros(n)
    w[idx] = sub.w
    selected = idx[sub.selected]
    sub.info.update(info)
    return ClauseLP(
        selected,
        "or",
        w,
        sub.lp_value,
        clause_objective(A, y, selected, lam, d, c),
        sub.status,
        sub.exact,
        sub.formulation,
        sub.solve_time,
        sub.info,
    )


def _complement_groups(groups):
    """Nested chains of ``A`` are nested the other way round in ``1 - A`` (De Morgan)."""
    if groups is None or isinstance(groups, str):
        return groups
    out = []
    for g in groups:
        if isinstance(g, tuple) and len(g) == 2 and isinstance(g[1], str):
            out.append(
                (g[0], {"increasing": "decreasing", "decreasing": "increasing"}.get(g[1], g[1]))
            )
        else:
            out.append(np.asarray(g, dtype=int)[::-1])
    return out


def learn_clause(A, y, form: str = "and", lam: float | None = 1000.0, **kwargs) -> ClauseLP:
    """Learn an AND- or OR-clause; AND through De Morgan (complement ``A`` and ``y``, eq. 5).

    Takes the keyword arguments of :func:`solve_or_lp` (including ``screening=``; nested
    ``screening_groups`` are given for ``A`` and reversed for ``1 - A``). For ``form="and"`` the returned
    ``selected`` columns are the terms of ``AND_j A[:, j]`` in the original ``A``, and
    ``objective``/``lp_value`` are those of the complemented OR problem (the same errors).
    """
    if form == "or":
        return solve_or_lp(A, y, lam, **kwargs)
    if form != "and":
        raise ValueError(f"form must be 'and' or 'or', not {form!r}")
    A = check_binary_matrix(A)
    y = check_binary_labels(y, A.shape[0], allow_one_class=True)
    if "screening_groups" in kwargs:
        kwargs["screening_groups"] = _complement_groups(kwargs["screening_groups"])
    result = solve_or_lp(1 - A, 1 - y, lam, **kwargs)
    result.form = "and"
    return result
