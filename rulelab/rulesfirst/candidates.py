"""Candidate rules: features that are *nearly* rules, pre-selected by support and purity.

Real data hold no perfect rules, so Cohen et al. (2019, §7.2) keep a feature j as a
candidate rule for label c when it occurs in at least ``min_support`` training samples *of
label c* ("features that appear in less than 4 negative (16 positive) training tweets" are
discarded) and the empirical purity p_c,j = P(y = c | x(j) > 0) is at least
``min_purity``, and rank candidates by sqrt(M_j) * p_c,j (M_j = samples containing x(j)):
the score balances nearness to a rule (p) against coverage (M). A candidate threshold on
that score is the knob of their Fig. 3. Note that the filters bound the score from below:
M_j * p_c,j >= s and p_c,j >= q give sqrt(M_j) * p_c,j >= sqrt(s * q), so a threshold
below sqrt(s * q) selects nothing the filters have not already selected.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp


@dataclass
class Candidates:
    """Candidate rules as parallel arrays, sorted by decreasing score."""

    feature: np.ndarray
    label: np.ndarray  # index into classes_
    support: np.ndarray
    purity: np.ndarray
    score: np.ndarray

    def __len__(self) -> int:
        return len(self.feature)


def rule_scores(B: sp.spmatrix, y: np.ndarray, n_classes: int = 2):
    """Support M_j and purity p_c,j of every feature j and label c.

    Parameters
    ----------
    B : sparse matrix, shape (n_samples, n_features)
        Coverage ``X > 0`` as 0/1 (see :func:`rulelab.rulesfirst.rules.coverage_matrix`).
    y : ndarray of int
        Class indices in ``range(n_classes)``.

    Returns
    -------
    support : ndarray, shape (n_features,)
    purity : ndarray, shape (n_classes, n_features)
        NaN-free: 0 where a feature covers nothing.
    """
    support = np.asarray(B.sum(axis=0)).ravel()
    onehot = np.zeros((len(y), n_classes))
    onehot[np.arange(len(y)), y] = 1.0
    counts = np.asarray(B.T @ onehot).T  # (n_classes, n_features)
    with np.errstate(invalid="ignore", divide="ignore"):
        purity = np.where(support > 0, counts / np.maximum(support, 1), 0.0)
    return support, purity


def select_candidates(
    B: sp.spmatrix,
    y: np.ndarray,
    labels,
    *,
    min_support,
    min_purity,
    threshold,
    n_classes: int = 2,
    max_candidates: int | None = None,
    exclude=(),
) -> Candidates:
    """Candidate (feature, label) pairs that pass the support, purity and score thresholds.

    ``min_support``, ``min_purity`` and ``threshold`` are sequences indexed by class index
    (one value per label, as the paper uses different values for the two labels).
    ``threshold`` entries may be None (no score threshold). ``min_support[c]`` counts the
    samples of label ``c`` the feature occurs in.
    """
    support, purity = rule_scores(B, y, n_classes)
    feats, labs = [], []
    excluded = np.zeros(B.shape[1], dtype=bool)
    excluded[list(exclude)] = True
    for c in labels:
        score = np.sqrt(support) * purity[c]
        in_class = np.rint(support * purity[c])
        ok = (in_class >= max(min_support[c], 1)) & (purity[c] >= min_purity[c]) & ~excluded
        if threshold[c] is not None:
            ok &= score >= threshold[c]
        idx = np.flatnonzero(ok)
        feats.append(idx)
        labs.append(np.full(len(idx), c))
    feature = np.concatenate(feats).astype(np.int64)
    label = np.concatenate(labs).astype(np.int64)
    sup = support[feature]
    pur = purity[label, feature]
    score = np.sqrt(sup) * pur
    # Sort by score, then feature index, so ties resolve the same way on every run.
    order = np.lexsort((feature, label, -score))
    if max_candidates is not None:
        order = order[:max_candidates]
    return Candidates(
        feature[order], label[order], sup[order].astype(np.int64), pur[order], score[order]
    )
