"""Refits of a binary lbfgs logistic base for the exact greedy search, without the
estimator's per-call overhead.

The exact search refits the base once per candidate feature and step (thousands of fits
of a few milliseconds each). ``LogisticRegression.fit`` spends most of such a fit outside
the optimisation: input validation, label encoding, array-namespace dispatch in every
loss evaluation, and copying ``X[rows][:, keep]``. :class:`LogisticRefit` keeps the
current base's design dense once per step and runs the very optimisation scikit-learn
runs (its objective, scaling, starting point, L-BFGS-B options and stopping rule), with
the candidate's column held at zero instead of sliced out: a zero gradient entry keeps
it there, so the iterates are those of the fit without the column.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy import optimize
from scipy.special import expit
from sklearn.linear_model import LogisticRegression

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
        A = self.A[rows]
        # The transpose made once per refit: scipy rebuilds it on every ``A.T @ r``.
        AT = A.T.tocsr() if sp.issparse(A) else A.T
        w0 = self.w0.copy()
        w0[column] = 0.0
        l2 = 1.0 / (self.C * len(t))  # scikit-learn's scaling: mean loss + l2 / 2 |coef|^2
        res = optimize.minimize(
            _loss_grad,
            w0,
            method="L-BFGS-B",
            jac=True,
            args=(A, AT, t, l2, column),
            options={
                "maxiter": self.max_iter,
                "maxls": 50,
                "gtol": self.tol,
                "ftol": 64 * np.finfo(float).eps,
            },
        )
        return res.x

    def proba(self, A, w: np.ndarray, n_classes: int) -> np.ndarray:
        """Class probabilities, spread onto ``n_classes`` class indices, of the refitted
        base on the rows of ``A`` (:meth:`design`), as ``predict_proba`` gives them."""
        p = expit(np.asarray(A @ w).ravel())
        out = np.zeros((len(p), n_classes))
        out[:, self.classes[0]] = 1 - p
        out[:, self.classes[1]] = p
        return out


def _loss_grad(w: np.ndarray, A, AT, t: np.ndarray, l2: float, fixed: int):
    """Mean log-loss plus ``l2 / 2 |coef|^2`` (intercept unpenalised) and its gradient,
    whose entry ``fixed`` is zero so that coefficient stays where it starts."""
    z = np.asarray(A @ w).ravel()
    n = len(t)
    coef = w[:-1]
    f = float(np.sum(np.logaddexp(0.0, z) - t * z) / n + 0.5 * l2 * np.dot(coef, coef))
    g = np.asarray(AT @ ((expit(z) - t) / n)).ravel()
    g[:-1] += l2 * coef
    g[fixed] = 0.0
    return f, g
