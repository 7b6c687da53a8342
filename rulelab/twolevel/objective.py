"""The regularised Hamming loss of a CNF rule (Su, Wei, Varshney & Malioutov 2016, eqs. 3-5).

A CNF with ``R`` clauses over the 0/1 design ``X`` (n samples x d terms) is a 0/1 weight
matrix ``W`` of shape (R, d + 1). Column 0 of the *augmented* design ``[1 | X]`` is the
always-true feature: ``W[r, 0] = 1`` disables clause r (it outputs 1 on every sample and
drops out of the conjunction), so ``R`` is a maximum, not an exact count.

With ``s_ir = sum_j x_ij w_jr`` (how many selected terms fire on sample i in clause r),
the minimal Hamming distance to a rule that classifies sample i correctly is

* ``y_i = 1``: every clause must output 1, each costs ``max(0, 1 - s_ir)``;
* ``y_i = 0``: one clause must output 0, the cheapest one, ``min_r s_ir`` (eq. 5).

The objective (3) minimised over the ideal clause outputs is therefore

    F(W) = sum_{y_i=1} sum_r max(0, 1 - s_ir) + sum_{y_i=0} min_r s_ir
           + theta * sum_r sum_j c_j w_jr,

with ``c_0`` the cost of disabling a clause (default 0) and ``c_j = 1`` otherwise.
"""

from __future__ import annotations

import numpy as np

__all__ = ["augment", "clause_costs", "clause_sums", "hamming_objective", "clause_subobjective"]


def augment(X: np.ndarray) -> np.ndarray:
    """``[1 | X]``: the design with the always-true feature in column 0 (uint8)."""
    X = np.asarray(X, dtype=np.uint8)
    return np.hstack([np.ones((X.shape[0], 1), dtype=np.uint8), X])


def clause_costs(n_terms: int, theta: float, disable_cost: float = 0.0) -> np.ndarray:
    """Sparsity cost of every column of the augmented design: ``theta * c_j``."""
    c = np.full(n_terms + 1, float(theta))
    c[0] = float(theta) * float(disable_cost)
    return c


def clause_sums(Xa: np.ndarray, W: np.ndarray) -> np.ndarray:
    """``S[i, r] = s_ir``: selected terms of clause r firing on sample i (int32, n x R).

    Summed clause by clause over the selected columns only: a clause selects a few of
    thousands of columns, and an integer matrix product would read (and first copy to
    int32) the whole design."""
    W = np.asarray(W, dtype=bool)
    S = np.empty((Xa.shape[0], W.shape[0]), dtype=np.int32)
    for r, w in enumerate(W):
        S[:, r] = np.take(Xa, np.flatnonzero(w), axis=1).sum(axis=1, dtype=np.int32)
    return S


def hamming_objective(
    Xa: np.ndarray, y: np.ndarray, W: np.ndarray, cost: np.ndarray, S: np.ndarray | None = None
) -> float:
    """The objective F(W) of eqs. (3)-(5) (see the module docstring)."""
    W = np.asarray(W, dtype=bool)
    if S is None:
        S = clause_sums(Xa, W)
    pos = np.asarray(y).astype(bool)
    loss_pos = np.maximum(0, 1 - S[pos]).sum()
    if W.shape[0] == 0:  # the empty conjunction is always true: every negative costs 1
        loss_neg = float((~pos).sum())
    else:
        loss_neg = S[~pos].min(axis=1).sum()
    return float(loss_pos + loss_neg + (W.astype(float) @ cost).sum())


def clause_subobjective(
    Xa_rows: np.ndarray, y_rows: np.ndarray, w: np.ndarray, cost: np.ndarray
) -> float:
    """One clause's share of (3) on the samples it is fitted to (ideal outputs fixed):
    positives cost ``max(0, 1 - s_i)``, the negatives kept (ideal output 0) cost ``s_i``.
    This is the one-level objective of Malioutov & Varshney (2013, eq. 10) with
    ``lambda = 1`` and column costs ``theta * c_j``."""
    s = Xa_rows[:, np.asarray(w, dtype=bool)].sum(axis=1, dtype=np.int64)  # unsigned would wrap
    pos = np.asarray(y_rows).astype(bool)
    return float(np.maximum(0, 1 - s[pos]).sum() + s[~pos].sum() + cost[np.asarray(w, bool)].sum())
