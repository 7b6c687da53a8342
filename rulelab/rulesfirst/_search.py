"""Bookkeeping of the greedy search: what the current model predicts and loses per sample.

Kept apart from the estimator so the search's arithmetic (the change in loss if a
candidate rule were added) can be read on its own.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import clone
from sklearn.linear_model import LogisticRegression

from ._base import base_proba, fit_base

__all__ = ["_State", "_rule_loss", "_warm_init", "base_proba", "fit_warm"]


class _State:
    """Coverage, predictions and per-sample losses of the current model on one split."""

    def __init__(self, X, y, B):
        self.X, self.y, self.B = X, y, B
        self.covered = np.zeros(len(y), bool)
        self.pred = np.zeros(len(y), np.int64)
        self.loss = np.zeros(len(y))

    def copy(self) -> _State:
        out = _State(self.X, self.y, self.B)
        out.covered, out.pred, out.loss = self.covered.copy(), self.pred.copy(), self.loss.copy()
        return out

    def update_base(self, base, keep, k: int, log: bool) -> None:
        free = ~self.covered
        if not free.any():
            return
        proba = base_proba(base, self.X[free][:, keep], k)
        self.pred[free] = proba.argmax(axis=1)
        if log:
            p_true = proba[np.arange(len(proba)), self.y[free]]
            self.loss[free] = -np.log(np.clip(p_true, 1e-12, 1.0))
        else:
            self.loss[free] = self.pred[free] != self.y[free]

    def column(self, j: int) -> np.ndarray:
        """The samples with feature ``j`` > 0 (those its rule covers), read from the
        coverage matrix ``B`` (CSC) instead of sliced out of ``X`` (a CSR column slice
        costs a pass over the whole matrix)."""
        out = np.zeros(len(self.y), bool)
        out[self.B.indices[self.B.indptr[j] : self.B.indptr[j + 1]]] = True
        return out

    def add_rule(self, j: int, c: int, q: float, k: int, log: bool) -> None:
        new = self.column(j) & ~self.covered
        self.pred[new] = c
        self.loss[new] = _rule_loss(self.y[new] == c, q, k, log)
        self.covered |= new

    def fast_deltas(self, cand, q, k: int, log: bool):
        """Change in this split's total loss if each candidate rule were added.

        Only the samples a rule newly covers change (to the rule's prediction); every other
        prediction stays the current model's. All candidates at once: a few sparse
        matrix-vector products.
        """
        free = (~self.covered).astype(np.float64)
        BT = self.B.T
        now = (BT @ (free * self.loss))[cand.feature]
        newly = (BT @ free)[cand.feature]
        delta = np.empty(len(cand))
        for c in range(k):
            sel = cand.label == c
            if sel.any():
                hit = (BT @ (free * (self.y == c)))[cand.feature[sel]]
                miss = newly[sel] - hit
                after = hit * _rule_loss(True, q[sel], k, log) + miss * _rule_loss(
                    False, q[sel], k, log
                )
                delta[sel] = after - now[sel]
        return delta, np.rint(newly).astype(np.int64)


def _rule_loss(correct, q, k: int, log: bool):
    """Loss of a rule on a sample it covers: 0/1, or -log of the probability it gives y."""
    if not log:
        return np.where(correct, 0.0, 1.0)
    return np.where(correct, -np.log(q), -np.log((1 - q) / (k - 1)))


def _warm_init(current, keep_now: np.ndarray, keep: np.ndarray):
    """The current base's coefficients on the columns ``keep`` (a subset of ``keep_now``,
    the columns it was fitted on), to start a refit from; None where that is not possible
    (no logistic regression, or liblinear, which cannot warm-start)."""
    if (
        not isinstance(current, LogisticRegression)
        or current.solver == "liblinear"
        or not hasattr(current, "coef_")
    ):
        return None
    pos = np.searchsorted(keep_now, keep)
    return current.classes_, current.coef_[:, pos], current.intercept_


def fit_warm(template, X, y: np.ndarray, default: int, init=None):
    """:func:`fit_base`, but a logistic regression starts from ``init`` (classes,
    coefficients, intercept) when the classes agree.

    The problem is strictly convex (l2) or convex (l1), so the start changes only how many
    iterations the solver takes to reach the optimum, not which optimum it reaches (up to
    the solver's tolerance).
    """
    if init is None or not np.array_equal(np.unique(y), init[0]):
        return fit_base(template, X, y, default)
    model = clone(template).set_params(warm_start=True)
    model.coef_, model.intercept_ = init[1].copy(), init[2].copy()
    return model.fit(X, y)
