"""Refits of a binary lbfgs logistic base for the exact greedy search, without the
estimator's per-call overhead.

The exact search refits the base once per candidate feature and step (thousands of fits
of a few milliseconds each). ``LogisticRegression.fit`` spends most of such a fit outside
the optimisation: input validation, label encoding, array-namespace dispatch in every
loss evaluation, and copying ``X[rows][:, keep]``. :class:`LogisticRefit` keeps the
current base's design dense once per step and runs the very optimisation scikit-learn
runs (its objective, scaling, starting point, L-BFGS-B options and stopping rule), with
the candidate's column held at zero instead of sliced out: a zero gradient entry keeps
it there, so the iterates are those of the fit without the column. The L-BFGS-B loop
itself is :func:`lbfgsb`: scipy's own step routine driven without the wrappers
``scipy.optimize.minimize`` puts around every evaluation, which cost as much as the
evaluations of these small problems; the iterates are the same, bit for bit. On a sparse
design the products with the design and its transpose likewise call scipy's own kernel
without the dispatch around it (:class:`_CSR`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
import scipy.sparse as sp
from scipy import optimize
from scipy.special import expit
from sklearn.linear_model import LogisticRegression

try:  # the kernel ``csr_matrix @ vector`` calls
    from scipy.sparse._sparsetools import csr_matvec
except ImportError:  # another scipy: its ``@``
    csr_matvec = None

__all__ = ["LogisticRefit"]

MAX_CELLS = 50_000_000  # dense copy of the training design: 400 MB at most


class LogisticRefit:
    """The current binary logistic base's problem, ready to refit without one feature and
    some rows.

    Parameters
    ----------
    X : ndarray or sparse matrix, shape (n, d)
        The training split, all columns.
    y : ndarray of int, shape (n,)
        Class indices.
    keep : ndarray of int
        Columns the current base reads.
    model : LogisticRegression
        The current base (see :meth:`applies`); its coefficients start every refit.
    """

    def __init__(self, X, y: np.ndarray, keep: np.ndarray, model: LogisticRegression):
        self.keep = keep
        self.classes = model.classes_
        self.C = float(model.C)
        self.tol = float(model.tol)
        self.max_iter = int(model.max_iter)
        self.A = self.design(X)
        self.t = (y == self.classes[1]).astype(np.float64)
        self.w0 = np.append(model.coef_.ravel(), model.intercept_)
        self.within = None  # (rows, their CSR design and its transpose): see :meth:`restrict`

    def restrict(self, rows: np.ndarray) -> None:
        """Declare that every refit of this step fits a subset of ``rows`` (boolean).

        A sparse design is then sliced and transposed once, here, instead of once per
        refit: a refit evaluates its loss on these rows and drops the others from the sum
        and from the gradient (a zero residual). Each row's margin is the same dot product
        either way, and the gradient's sums meet the same terms in the same order with
        exact zeros between them, so the iterates are the same, bit for bit.
        """
        if sp.issparse(self.A):
            A = self.A[rows]
            self.within = (np.asarray(rows, bool), _CSR.of(A), _CSR.of(A.T.tocsr()))

    @staticmethod
    def applies(model, X) -> bool:
        """Whether ``model`` is a base this refit reproduces: a fitted two-class lbfgs
        logistic regression, l2 penalty, intercept, no class weights, over a sparse design
        or a dense one small enough to copy."""
        return (
            isinstance(model, LogisticRegression)
            and hasattr(model, "coef_")
            and len(model.classes_) == 2
            and model.solver == "lbfgs"
            and model.fit_intercept
            and model.class_weight is None
            and model.l1_ratio in (0, 0.0, None)
            and getattr(model, "penalty", "deprecated") in ("l2", "deprecated")
            and (sp.issparse(X) or X.shape[0] * X.shape[1] <= MAX_CELLS)
        )

    def design(self, X):
        """``X`` read through ``keep`` with a column of ones for the intercept (CSR when
        ``X`` is sparse: a bag of words stays cheap to multiply)."""
        B = X[:, self.keep]
        ones = np.ones((B.shape[0], 1))
        if sp.issparse(B):
            return sp.hstack([B, ones], format="csr", dtype=np.float64)
        return np.hstack([np.asarray(B, dtype=np.float64), ones])

    def refit(self, column: int, rows: np.ndarray) -> np.ndarray | None:
        """Coefficients (on ``keep``, then the intercept; 0 for ``keep[column]``) of the
        base fitted on ``rows`` without design column ``keep[column]``, started from the
        current base's; None when ``rows`` hold fewer than two classes."""
        t = self.t[rows]
        if t.all() or not t.any():
            return None
        w0 = self.w0.copy()
        w0[column] = 0.0
        l2 = 1.0 / (self.C * len(t))  # scikit-learn's scaling: mean loss + l2 / 2 |coef|^2
        if self.within is not None and not (rows & ~self.within[0]).any():
            outer, A, AT = self.within
            args = (A, AT, t, l2, column, rows[outer])
        else:
            A = self.A[rows]
            # The transpose made once per refit: scipy rebuilds it on every ``A.T @ r``.
            AT = _CSR.of(A.T.tocsr()) if sp.issparse(A) else A.T
            args = (_CSR.of(A), AT, t, l2, column)
        return lbfgsb(
            _loss_grad,
            w0,
            args,
            maxiter=self.max_iter,
            maxls=50,
            gtol=self.tol,
            ftol=64 * np.finfo(float).eps,
        )

    def proba(self, A, w: np.ndarray, n_classes: int, rows=None) -> np.ndarray:
        """Class probabilities, spread onto ``n_classes`` class indices, of the refitted
        base on the rows of ``A`` (:meth:`design`), or on its rows ``rows`` (boolean), as
        ``predict_proba`` gives them.

        On a sparse design the margins of all the rows are computed and ``rows`` read from
        them: each row's margin is its own sum over its entries in their stored order,
        whatever other rows are multiplied with it, so it is the same to the last bit, and
        the product over all rows costs less than slicing them out."""
        if rows is None:
            z = np.asarray(_CSR.of(A) @ w).ravel()
        elif sp.issparse(A):
            z = (_CSR.of(A) @ w)[rows]
        else:
            z = np.asarray(A[rows] @ w).ravel()
        p = expit(z)
        out = np.zeros((len(p), n_classes))
        out[:, self.classes[0]] = 1 - p
        out[:, self.classes[1]] = p
        return out


def lbfgsb(
    fun_grad: Callable,
    x0: np.ndarray,
    args: tuple = (),
    *,
    maxiter: int = 15000,
    maxls: int = 20,
    gtol: float = 1e-5,
    ftol: float = 2.2204460492503131e-09,
    maxcor: int = 10,
    maxfun: int = 15000,
) -> np.ndarray:
    """The minimiser ``scipy.optimize.minimize(fun_grad, x0, args, method="L-BFGS-B",
    jac=True, options=...)`` returns (no bounds), computed by the same step routine.

    scipy's loop asks its step routine for a point, evaluates ``fun_grad`` there through
    layers of wrappers (copies, memoisation, counters) and stops on the routine's word or
    at ``maxiter`` iterations or ``maxfun`` evaluations. This is that loop without the
    layers: the same points are evaluated in the same order and the same ``x`` comes out.
    Where scipy's private step routine is not the one this loop was written for, the call
    goes through ``scipy.optimize.minimize`` instead.
    """
    setulb = _step_routine()
    if setulb is None:
        return _minimize(fun_grad, x0, args, maxiter, maxls, gtol, ftol, maxcor, maxfun)
    return _drive(setulb, fun_grad, x0, args, maxiter, maxls, gtol, ftol, maxcor, maxfun)


def _drive(setulb, fun_grad, x0, args, maxiter, maxls, gtol, ftol, maxcor, maxfun):
    x = np.array(np.asarray(x0, dtype=np.float64).ravel())
    n = x.size
    f, g = fun_grad(x.copy(), *args)  # scipy evaluates the start before the first step
    nfev = 1
    f = float(f)
    g = np.asarray(g, dtype=np.float64)
    unbounded = np.zeros(n, np.float64)
    nbd = np.zeros(n, np.int32)
    wa = np.zeros(2 * maxcor * n + 5 * n + 11 * maxcor * maxcor + 8 * maxcor, np.float64)
    iwa = np.zeros(3 * n, np.int32)
    task = np.zeros(2, np.int32)
    ln_task = np.zeros(2, np.int32)
    lsave = np.zeros(4, np.int32)
    isave = np.zeros(44, np.int32)
    dsave = np.zeros(29, np.float64)
    factr = ftol / np.finfo(float).eps
    evaluated = x.copy()
    iterations = 0
    while True:
        setulb(
            maxcor, x, unbounded, unbounded, nbd, f, g, factr, gtol, wa, iwa, task,
            lsave, isave, dsave, maxls, ln_task,
        )  # fmt: skip
        if task[0] == 3:  # evaluate at x (scipy's wrapper reuses the last one when x is unchanged)
            if not (x == evaluated).all():  # np.array_equal on arrays of one shape
                evaluated = x.copy()
                f, g = fun_grad(x.copy(), *args)
                nfev += 1
                f = float(f)
                g = np.asarray(g, dtype=np.float64)
        elif task[0] == 1:  # a new iterate
            iterations += 1
            if iterations >= maxiter:
                task[0], task[1] = 5, 504
            elif nfev > maxfun:
                task[0], task[1] = 5, 502
        else:
            return x


def _minimize(fun_grad, x0, args, maxiter, maxls, gtol, ftol, maxcor, maxfun) -> np.ndarray:
    options = dict(maxiter=maxiter, maxls=maxls, gtol=gtol, ftol=ftol, maxcor=maxcor, maxfun=maxfun)
    return optimize.minimize(
        fun_grad, x0, args=args, method="L-BFGS-B", jac=True, options=options
    ).x


@functools.cache
def _step_routine() -> Callable | None:
    """scipy's private L-BFGS-B step routine, once :func:`_drive` has been seen to give
    ``scipy.optimize.minimize``'s result with it bit for bit (None otherwise: another scipy
    with another routine)."""
    try:
        from scipy.optimize import _lbfgsb

        rng = np.random.default_rng(0)
        A, t = rng.normal(size=(40, 6)), (rng.random(40) < 0.5).astype(float)
        A[:, -1] = 1.0
        args = (A, A.T, t, 0.1, 2)
        x0 = rng.normal(size=6)
        options = (100, 50, 1e-6, 64 * np.finfo(float).eps, 10, 15000)
        ours = _drive(_lbfgsb.setulb, _loss_grad, x0, args, *options)
        theirs = _minimize(_loss_grad, x0, args, *options)
        return _lbfgsb.setulb if np.array_equal(ours, theirs) else None
    except Exception:  # any other signature or behaviour: scipy's own loop
        return None


class _CSR:
    """A float CSR matrix whose product with a vector, ``M @ v``, calls scipy's kernel
    ``csr_matvec`` directly: the very kernel ``csr_matrix @ vector`` runs, into the same
    zeroed output, so the product is the same to the last bit, without the checks and
    dispatch around it that cost as much as the product of a refit's small design."""

    __slots__ = ("shape", "indptr", "indices", "data")

    def __init__(self, M):
        self.shape = M.shape
        self.indptr, self.indices, self.data = M.indptr, M.indices, M.data

    @staticmethod
    def of(M):
        """``M`` wrapped where the direct kernel applies (a float64 CSR matrix whose
        index arrays share one type), else ``M`` itself."""
        if (
            csr_matvec is None
            or not sp.issparse(M)
            or M.format != "csr"
            or M.dtype != np.float64
            or M.indptr.dtype != M.indices.dtype
        ):
            return M
        return _CSR(M)

    def __matmul__(self, v: np.ndarray) -> np.ndarray:
        if v.ndim != 1 or v.dtype != np.float64 or len(v) != self.shape[1]:
            raise ValueError("a float64 vector of the matrix's width")
        out = np.zeros(self.shape[0])
        csr_matvec(*self.shape, self.indptr, self.indices, self.data, v, out)
        return out


def _loss_grad(w: np.ndarray, A, AT, t: np.ndarray, l2: float, fixed: int, kept=None):
    """Mean log-loss plus ``l2 / 2 |coef|^2`` (intercept unpenalised) and its gradient,
    whose entry ``fixed`` is zero so that coefficient stays where it starts.

    With ``kept`` (boolean over the rows of ``A``; ``t`` is then on those rows only) the
    loss is that of the kept rows, computed on all of ``A`` with the other rows' residuals
    set to zero."""
    z = np.asarray(A @ w).ravel()
    if kept is not None:
        z = z[kept]
    n = len(t)
    coef = w[:-1]
    f = float(np.sum(np.logaddexp(0.0, z) - t * z) / n + 0.5 * l2 * np.dot(coef, coef))
    r = (expit(z) - t) / n
    if kept is not None:
        r_kept, r = r, np.zeros(kept.size)
        r[kept] = r_kept
    g = np.asarray(AT @ r).ravel()
    g[:-1] += l2 * coef
    g[fixed] = 0.0
    return f, g
