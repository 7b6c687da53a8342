"""The GRAB paper's comparison methods that work on conjunctions explicitly.

- :class:`ExpansionLinear`  "Expansion + LIBLINEAR" (Section 5.1): every occurring
  conjunction of size <= k becomes a column, then the same eq. (2) is solved by LIBLINEAR
  (scikit-learn's ``liblinear`` solver) with no separate intercept: the empty conjunction
  is a column like any other, so both solve exactly the same problem.
- :class:`LRFIM`  "L1-regularised logistic regression on frequent itemsets" (Section 5.3):
  plain frequent itemsets (support >= 1 % of the training rows, size <= 5) as features.
"""

from __future__ import annotations

import math
import time
import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.svm import LinearSVC
from sklearn.utils.validation import check_is_fitted

from rulelab._validation import check_frame, is_binary_frame
from rulelab.grab._bits import columns, flatten, pack_columns
from rulelab.grab.binarize import CellBinarizer
from rulelab.grab.wfim import (
    TransactionMatrix,
    expand,
    frequent_itemsets,
    itemset_tuples,
    take_itemsets,
)

__all__ = [
    "ExpansionLinear",
    "LRFIM",
    "conjunction_matrix",
    "l1_linear",
    "expansion_trace",
    "LIBLINEAR_DEFAULT_TOL",
]

LIBLINEAR_DEFAULT_TOL = 1e-2
"""LIBLINEAR's own default stopping tolerance for its L1-regularised solvers (``train -e``
for ``-s 5`` and ``-s 6``); scikit-learn's ``LogisticRegression`` defaults to 1e-4 instead."""


def conjunction_matrix(B, itemsets) -> sp.csc_matrix:
    """0/1 matrix with one column per conjunction (itemset of column indices) of B.

    ``itemsets`` is a list of tuples, or the flat pair ``(ptr, items)`` of int arrays
    (itemset i is ``items[ptr[i]:ptr[i + 1]]``), which spares building a tuple for each of
    the tens of thousands of itemsets LRFIM mines.
    """
    db = TransactionMatrix(B)
    flat = isinstance(itemsets, tuple) and all(isinstance(a, np.ndarray) for a in itemsets)
    ptr, items = itemsets if flat else flatten(itemsets)
    col_ptr, rows = columns(pack_columns(db), db.n_rows, ptr, items)
    return sp.csc_matrix((np.ones(rows.size), rows, col_ptr), shape=(db.n_rows, len(ptr) - 1))


def l1_linear(
    loss: str, C: float, tol: float, fit_intercept: bool, max_iter: int = 1000, random_state=0
):
    """LIBLINEAR's L1-regularised solver for eq. (2) with the given loss.

    LIBLINEAR visits the coordinates in a random order; ``random_state`` seeds it (without
    a seed two fits of the same data can stop at different points)."""
    if loss == "logistic":
        return LogisticRegression(
            l1_ratio=1.0,
            solver="liblinear",
            C=C,
            tol=tol,
            fit_intercept=fit_intercept,
            max_iter=max_iter,
            random_state=random_state,
        )
    if loss == "l2hinge":
        return LinearSVC(
            penalty="l1",
            loss="squared_hinge",
            dual=False,
            C=C,
            tol=tol,
            fit_intercept=fit_intercept,
            max_iter=max_iter,
            random_state=random_state,
        )
    raise ValueError(f"loss must be 'logistic' or 'l2hinge', got {loss!r}")


def _objective(Z, ypm: np.ndarray, coef: np.ndarray, C: float, loss: str) -> float:
    """G(w) of eq. (2) for the expanded design ``Z`` and labels ``ypm`` in {-1, +1}."""
    f = Z @ coef
    data = np.logaddexp(0, -ypm * f) if loss == "logistic" else np.maximum(0, 1 - ypm * f) ** 2
    return float(C * data.sum() + np.abs(coef).sum())


def expansion_trace(
    B,
    y,
    degree: int,
    C: float,
    *,
    loss: str = "logistic",
    tol: float = LIBLINEAR_DEFAULT_TOL,
    random_state=0,
    trace_limit: float | None = None,
) -> dict:
    """Expansion + LIBLINEAR with its objective over time, as grafting's trace records it.

    LIBLINEAR reports no objective while it runs and cannot be warm-started through
    scikit-learn, so the trace is rebuilt from runs capped at 1, 2, ... outer (Newton)
    iterations, each from scratch on the same expansion with the same seed: the run
    capped at ``i`` iterations repeats the first ``i`` iterations of the full run exactly
    (the coordinate order comes from the seed), so its end point is where the full run
    was after ``i`` iterations, and its time (expansion plus solve) is the time the full
    run took to get there. The last point is the full run itself, stopped by ``tol``.
    The capped runs cost about ``n_iter / 2`` full runs, so they are skipped when the
    expansion's nonzeros times the outer iterations exceed ``trace_limit`` (a count, so
    that the same runs are traced on any machine): the run is then credited at its end.

    Parameters
    ----------
    B : array of shape (n_rows, n_items)
        0/1 design.
    y : array of shape (n_rows,)
        Labels in {-1, +1}.
    degree, C, loss, tol, random_state
        As for :class:`ExpansionLinear`.
    trace_limit : float, optional
        Most nonzeros x outer iterations for which the trace is rebuilt (None: always).

    Returns
    -------
    dict
        ``objective`` (the full run's G(w)), ``n_nonzero``, ``n_iter`` (outer iterations),
        ``seconds`` (expansion plus full solve), ``traced`` (the capped runs were made) and
        ``trace``, a list of (seconds, objective) after each outer iteration (only the end
        when not ``traced``).
    """
    ypm = np.where(np.asarray(y) > 0, 1.0, -1.0)
    t0 = time.perf_counter()
    Z = expand(np.asarray(B, dtype=np.uint8), degree, flat=True)[0].tocsr()
    expanded = time.perf_counter() - t0

    def solve(max_iter):
        start = time.perf_counter()
        model = l1_linear(loss, C, tol, False, max_iter, random_state)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            model.fit(Z, ypm)
        seconds = expanded + time.perf_counter() - start
        coef = model.coef_.ravel()
        return seconds, _objective(Z, ypm, coef, C, loss), coef, int(np.max(model.n_iter_))

    seconds, objective, coef, n_iter = solve(1000)
    traced = trace_limit is None or Z.nnz * n_iter <= trace_limit
    trace = [solve(i)[:2] for i in range(1, n_iter)] if traced else []
    trace.append((seconds, objective))
    return {
        "objective": objective,
        "n_nonzero": int(np.count_nonzero(coef)),
        "n_iter": n_iter,
        "seconds": seconds,
        "traced": bool(traced),
        "trace": [[float(t), float(v)] for t, v in trace],
    }


class _BinaryInput:
    def _binary(self, X, fit):
        frame = check_frame(X)
        if fit:
            self.n_features_in_ = frame.shape[1]
            self.binarizer_ = None if is_binary_frame(frame) else CellBinarizer().fit(frame)
        if self.binarizer_ is not None:
            return self.binarizer_.transform(frame)
        return frame.to_numpy(dtype=np.uint8)


class ExpansionLinear(_BinaryInput, ClassifierMixin, BaseEstimator):
    """Expansion + LIBLINEAR: eq. (2) over the explicitly expanded Phi(d, k).

    ``tol`` is LIBLINEAR's own stopping tolerance (for its L1 solvers: the projected
    gradient's 1-norm relative to its value at w = 0); the default is LIBLINEAR's own for
    them, :data:`LIBLINEAR_DEFAULT_TOL` (scikit-learn's default, 1e-4, is stricter).

    Attributes
    ----------
    n_expanded_ : int
        Columns of the expansion (every occurring conjunction of size <= degree).
    support_ : list of tuples
        The conjunctions with non-zero weight, aligned with ``coef_``.
    objective_ : float
        G(w) of eq. (2) at LIBLINEAR's solution.
    """

    def __init__(
        self,
        degree=2,
        C=1.0,
        loss="logistic",
        tol=LIBLINEAR_DEFAULT_TOL,
        max_iter=1000,
        random_state=0,
    ):
        self.degree = degree
        self.C = C
        self.loss = loss
        self.tol = tol
        self.max_iter = max_iter
        self.random_state = random_state

    def fit(self, X, y):
        B = self._binary(X, fit=True)
        y = np.asarray(y)
        self.classes_ = np.unique(y)
        # the expansion is timed as the method: no tuple is built for the millions of
        # columns, only for the few with a weight
        Z, (ptr, cols) = expand(B, self.degree, flat=True)
        self.n_expanded_ = Z.shape[1]
        self.model_ = l1_linear(
            self.loss, self.C, self.tol, False, self.max_iter, self.random_state
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            self.model_.fit(Z.tocsr(), y)
        coef = self.model_.coef_.ravel()
        nz = np.flatnonzero(coef)
        self.coef_ = coef[nz]
        self.support_ = itemset_tuples(*take_itemsets(ptr, cols, nz))
        ypm = np.where(y == self.classes_[1], 1.0, -1.0)
        self.objective_ = _objective(Z, ypm, coef, self.C, self.loss)
        return self

    def decision_function(self, X):
        check_is_fitted(self, "coef_")
        B = self._binary(X, fit=False)
        return conjunction_matrix(B, self.support_) @ self.coef_

    def predict(self, X):
        return np.where(self.decision_function(X) > 0, self.classes_[1], self.classes_[0])


class LRFIM(_BinaryInput, ClassifierMixin, BaseEstimator):
    """Frequent itemsets (support >= ``min_support`` of the rows, size <= ``max_size``) as
    features of an L1-regularised logistic regression (with an intercept).

    Attributes
    ----------
    itemsets_flat_ : tuple of ndarray
        The mined itemsets flat, ``(ptr, items)``: itemset i is ``items[ptr[i]:ptr[i + 1]]``.
    itemsets_ : list of tuples
        The same itemsets as tuples.
    model_ : LogisticRegression
        The fitted L1 logistic regression over their columns.
    """

    def __init__(
        self, min_support=0.01, max_size=5, C=1.0, tol=1e-4, max_iter=1000, random_state=0
    ):
        self.min_support = min_support
        self.max_size = max_size
        self.C = C
        self.tol = tol
        self.max_iter = max_iter
        self.random_state = random_state

    def fit(self, X, y):
        return self.fit_features(self.mine(X, y), y)

    def mine(self, X, y) -> sp.csr_matrix:
        """Mine the frequent itemsets of ``X`` and return their 0/1 columns on ``X``: the
        part of :meth:`fit` that does not depend on ``C`` (Table 1 mines once per fold and
        fits every C on the result, :meth:`fit_features`)."""
        B = self._binary(X, fit=True)
        self.classes_ = np.unique(y)
        minsup = max(1, math.ceil(self.min_support * B.shape[0]))
        mined = frequent_itemsets(B, minsup, self.max_size)
        self.itemsets_flat_ = (mined.ptr.astype(np.int64), mined.cols.astype(np.int64))
        return conjunction_matrix(B, self.itemsets_flat_).tocsr()

    def fit_features(self, Z: sp.csr_matrix, y):
        """Fit the L1 logistic regression on the itemset columns ``Z`` that :meth:`mine`
        returned for the same rows (a cold fit: the same model for any earlier C)."""
        check_is_fitted(self, "itemsets_flat_")
        self.model_ = l1_linear(
            "logistic", self.C, self.tol, True, self.max_iter, self.random_state
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            self.model_.fit(Z, np.asarray(y))
        return self

    def features(self, X) -> sp.csr_matrix:
        """The mined itemsets' 0/1 columns on ``X``."""
        check_is_fitted(self, "itemsets_flat_")
        return conjunction_matrix(self._binary(X, fit=False), self.itemsets_flat_).tocsr()

    def decision_function(self, X):
        return self.decision_from_features(self.features(X))

    def decision_from_features(self, Z: sp.csr_matrix) -> np.ndarray:
        """Decision values on itemset columns ``Z`` (:meth:`features`)."""
        check_is_fitted(self, "model_")
        return self.model_.decision_function(Z)

    def predict_from_features(self, Z: sp.csr_matrix) -> np.ndarray:
        """Predicted classes on itemset columns ``Z`` (:meth:`features`)."""
        decision = self.decision_from_features(Z)
        return np.where(decision > 0, self.classes_[1], self.classes_[0])

    @property
    def itemsets_(self) -> list:
        """The mined itemsets as tuples of column indices, aligned with the model's
        coefficients (built on first use: the fit itself works on the flat arrays)."""
        check_is_fitted(self, "itemsets_flat_")
        return itemset_tuples(*self.itemsets_flat_)

    def predict(self, X):
        return self.predict_from_features(self.features(X))
