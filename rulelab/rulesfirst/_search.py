"""Bookkeeping of the greedy search: what the current model predicts and loses per sample.

Kept apart from the estimator so the search's arithmetic (the change in loss if a
candidate rule were added) can be read on its own.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ._base import base_proba

__all__ = ["_State", "_col", "base_proba"]


class _State:
    """Coverage, predictions and per-sample losses of the current model on one split."""

    def __init__(self, X, y, B):
        self.X, self.y, self.B = X, y, B
        self.covered = np.zeros(len(y), bool)
        self.pred = np.zeros(len(y), np.int64)
        self.loss = np.zeros(len(y))

    def copy(self) -> "_State":
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

    def add_rule(self, j: int, c: int, q: float, k: int, log: bool) -> None:
        new = _col(self.X, j) & ~self.covered
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
                after = (hit * _rule_loss(True, q[sel], k, log)
                         + miss * _rule_loss(False, q[sel], k, log))
                delta[sel] = after - now[sel]
        return delta, np.rint(newly).astype(np.int64)


def _rule_loss(correct, q, k: int, log: bool):
    """Loss of a rule on a sample it covers: 0/1, or -log of the probability it gives y."""
    if not log:
        return np.where(correct, 0.0, 1.0)
    return np.where(correct, -np.log(q), -np.log((1 - q) / (k - 1)))


def _col(X, j: int) -> np.ndarray:
    col = X[:, j]
    col = col.toarray() if sp.issparse(col) else np.asarray(col)
    return col.ravel() > 0
