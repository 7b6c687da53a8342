"""Warm-started refits of an l1 logistic base (liblinear's problem) for the exact greedy
search.

liblinear cannot start from given coefficients, so the exact search refitted an l1 base
from zero for every candidate feature and step. The candidate's refit is a small change
of the current problem (a few rows and one column leave), so a solver started from the
current coefficients needs a few Newton steps. :class:`L1LogisticRefit` solves liblinear's
problem for ``LogisticRegression(penalty="l1", solver="liblinear")``: the intercept is the
coefficient of a constant feature 1 and is penalised like the others,

    min_w  ||w||_1 + C * sum_i log(1 + exp(-s_i <w, x_i>)),   s_i = +-1,

by liblinear's own method (newGLMNET, Yuan, Ho & Lin 2012: a coordinate-descent pass over
a quadratic model of the loss, then a line search), in a compiled kernel. It stops when
the summed violation of the optimality conditions falls to ``tol`` times its value at
w = 0 (liblinear's rule) times :data:`TIGHTER`: closer to the optimum than liblinear's
default, so the evaluation errors the search compares do not depend on where a fit started.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from scipy.special import expit
from sklearn.linear_model import LogisticRegression

__all__ = ["L1LogisticRefit"]

MAX_CELLS = 20_000_000  # dense, column-major copy of the training design
TIGHTER = 0.1
MAX_OUTER = 100
INNER = 0.1


class L1LogisticRefit:
    """The current l1 logistic base's problem, ready to refit without one feature and some
    rows, started from the current coefficients.

    Parameters
    ----------
    X : ndarray, shape (n, d)
        The training split (dense), all columns.
    y : ndarray of int, shape (n,)
        Class indices.
    keep : ndarray of int
        Columns the current base reads.
    model : LogisticRegression
        The current base (see :meth:`applies`).
    """

    def __init__(self, X, y: np.ndarray, keep: np.ndarray, model: LogisticRegression):
        self.keep = keep
        self.classes = model.classes_
        self.C = float(model.C)
        self.tol = float(model.tol) * TIGHTER
        self.scaling = float(model.intercept_scaling)
        self.A = self.design(X)
        self.s = np.where(y == self.classes[1], 1.0, -1.0)
        self.w0 = np.append(model.coef_.ravel(), model.intercept_ / self.scaling)

    @staticmethod
    def applies(model, X) -> bool:
        """Whether ``model`` is a fitted two-class liblinear l1 logistic regression with an
        intercept and no class weights, over a dense design small enough to copy."""
        return (
            isinstance(model, LogisticRegression)
            and hasattr(model, "coef_")
            and len(model.classes_) == 2
            and model.solver == "liblinear"
            and model.l1_ratio == 1
            and model.fit_intercept
            and model.class_weight is None
            and isinstance(X, np.ndarray)
            and X.size <= MAX_CELLS
        )

    def design(self, X) -> np.ndarray:
        """``X`` read through ``keep``, column-major, with the constant intercept feature."""
        B = np.asarray(X[:, self.keep], dtype=np.float64)
        return np.asfortranarray(np.hstack([B, np.full((B.shape[0], 1), self.scaling)]))

    def refit(self, column: int, rows: np.ndarray) -> np.ndarray | None:
        """Coefficients (on ``keep``, then the intercept feature's; 0 for ``keep[column]``)
        of the base fitted on ``rows`` without design column ``keep[column]``; None when
        ``rows`` hold fewer than two classes or the solver does not converge."""
        s = self.s[rows]
        if (s > 0).all() or (s < 0).all():
            return None
        A = np.asfortranarray(self.A[rows])
        w = self.w0.copy()
        w[column] = 0.0
        ok = _newglmnet(A, s, self.C, w, column, self.tol, MAX_OUTER)
        return w if ok else None

    def proba(self, A: np.ndarray, w: np.ndarray, n_classes: int, rows=None) -> np.ndarray:
        """Class probabilities, spread onto ``n_classes`` class indices, of the refitted
        base on the rows of ``A`` (:meth:`design`), or on its rows ``rows`` (boolean), as
        ``predict_proba`` gives them."""
        p = expit((A if rows is None else A[rows]) @ w)
        out = np.zeros((len(p), n_classes))
        out[:, self.classes[0]] = 1 - p
        out[:, self.classes[1]] = p
        return out


@njit(cache=True, nogil=True)
def _loss(z, s, C):
    """C * sum log(1 + exp(-s z)), stable for large |z|."""
    total = 0.0
    for i in range(len(z)):
        m = -s[i] * z[i]
        total += m + np.log1p(np.exp(-m)) if m > 0 else np.log1p(np.exp(m))
    return C * total


@njit(cache=True, nogil=True)
def _violation(grad, w, fixed):
    """Per coordinate, the smallest |subgradient| of the objective (0 at the optimum)."""
    v = np.zeros(len(w))
    for j in range(len(w)):
        if j == fixed:
            continue
        if w[j] > 0:
            v[j] = abs(grad[j] + 1.0)
        elif w[j] < 0:
            v[j] = abs(grad[j] - 1.0)
        else:
            v[j] = max(abs(grad[j]) - 1.0, 0.0)
    return v


@njit(cache=True, nogil=True)
def _newglmnet(A, s, C, w, fixed, tol, max_outer):
    """Minimise ``||w||_1 + C sum log(1 + exp(-s <w, a_i>))`` in place from ``w``, with
    ``w[fixed]`` held at 0; True once the summed violation is below ``tol`` times its value
    at w = 0."""
    n, p = A.shape
    # liblinear's scale: the violation at w = 0, where every margin is 0
    g0 = np.zeros(p)
    for j in range(p):
        acc = 0.0
        for i in range(n):
            acc += A[i, j] * (-0.5 * s[i])
        g0[j] = C * acc
    limit = tol * np.sum(_violation(g0, np.zeros(p), fixed))
    z = np.zeros(n)
    for j in range(p):
        if w[j] != 0.0:
            for i in range(n):
                z[i] += w[j] * A[i, j]
    f = _loss(z, s, C) + np.sum(np.abs(w))
    grad = np.zeros(p)
    hdiag = np.zeros(p)
    gi = np.zeros(n)
    D = np.zeros(n)
    d = np.zeros(p)
    Ad = np.zeros(n)
    for _ in range(max_outer):
        for i in range(n):
            e = 1.0 / (1.0 + np.exp(s[i] * z[i]))  # sigma(-s z)
            gi[i] = -C * s[i] * e
            D[i] = C * e * (1.0 - e)
        for j in range(p):
            a = 0.0
            h = 0.0
            for i in range(n):
                a += A[i, j] * gi[i]
                h += A[i, j] * A[i, j] * D[i]
            grad[j] = a
            hdiag[j] = h + 1e-12
        v = _violation(grad, w, fixed)
        total = np.sum(v)
        if total <= limit:
            return True
        active = np.array([j for j in range(p) if j != fixed and (w[j] != 0.0 or v[j] > 0.0)])
        # coordinate descent on the quadratic model of the loss around w
        d[:] = 0.0
        Ad[:] = 0.0
        for _inner in range(50):
            moved = 0.0
            for j in active:
                G = grad[j]
                for i in range(n):
                    G += A[i, j] * D[i] * Ad[i]
                H = hdiag[j]
                wd = w[j] + d[j]
                if G + 1.0 <= H * wd:
                    step = -(G + 1.0) / H
                elif G - 1.0 >= H * wd:
                    step = -(G - 1.0) / H
                else:
                    step = -wd
                if step != 0.0:
                    d[j] += step
                    for i in range(n):
                        Ad[i] += step * A[i, j]
                    moved += abs(step) * np.sqrt(H)
            if moved <= INNER * total:
                break
        # Armijo line search on the objective along d
        delta = 0.0
        for j in range(p):
            delta += grad[j] * d[j] + abs(w[j] + d[j]) - abs(w[j])
        t = 1.0
        accepted = False
        for _ls in range(30):
            zt = z + t * Ad
            f_new = _loss(zt, s, C) + np.sum(np.abs(w + t * d))
            if f_new - f <= 0.01 * t * delta:
                accepted = True
                break
            t *= 0.5
        if not accepted:
            return False
        w += t * d
        z += t * Ad
        f = f_new
    return False
