"""Exact recovery of a planted rule (Malioutov & Varshney 2013, section 3.3-3.5).

Rule learning as group testing: the labels are the OR of ``K`` unknown columns of a 0/1
design ``A`` (an AND-rule is the same problem after complementing ``A`` and ``y``, eq. 5).
This module draws random Bernoulli designs, checks the two conditions of the paper --
K-disjunctness (Definition 1, Lemma 1) and "every (K+1)-pattern is present" (Lemma 2) --
and decodes the rule with one of three decoders:

* ``"lp"`` -- the LP relaxation (eq. 9 without noise, eq. 10 with noise);
* ``"zero-row"`` -- the simple algorithm of section 3.3: every column with a 1 in a zero
  row is eliminated, all other columns are kept (exact on K-disjunct designs);
* ``"greedy"`` -- greedy set cover in the style of the set covering machine: among the
  surviving columns, repeatedly take the one covering most uncovered positives (with
  noise, SCM's utility: new positives minus ``penalty`` times negatives).

Paper 1's recovery experiments (trials, rates, phase-transition plots) are in
:mod:`repro.exact_recovery.experiments`.
"""

from __future__ import annotations

import itertools
from math import comb

import numpy as np

from .lp import solve_or_lp

__all__ = [
    "bernoulli_design",
    "plant_or_rule",
    "disjunct_fraction",
    "is_k_disjunct",
    "patterns_present",
    "decode",
    "union_bound",
    "DECODERS",
]

DECODERS = ("lp", "zero-row", "greedy")


# ---- designs and planted rules ----------------------------------------------------------
def bernoulli_design(m: int, n: int, p: float = 0.5, rng=None) -> np.ndarray:
    """An ``m x n`` 0/1 matrix with independent Bernoulli(``p``) entries (uint8)."""
    if not 0 < p < 1:
        raise ValueError(f"p must be strictly between 0 and 1, got {p}")
    rng = np.random.default_rng(rng)
    return (rng.random((m, n)) < p).astype(np.uint8)


def plant_or_rule(A: np.ndarray, k: int, rng=None, noise: float = 0.0):
    """Pick ``k`` random columns as the true rule; return ``(support, y)``.

    ``y = OR of the support columns``, each label then flipped with probability ``noise``.
    """
    n = A.shape[1]
    if not 1 <= k <= n:
        raise ValueError(f"k must be between 1 and the number of columns ({n}), got {k}")
    rng = np.random.default_rng(rng)
    support = np.sort(rng.choice(n, size=k, replace=False))
    y = A[:, support].any(axis=1).astype(np.int8)
    if noise > 0:
        flip = rng.random(len(y)) < noise
        y = np.where(flip, 1 - y, y).astype(np.int8)
    return support, y


# ---- the conditions of Lemmas 1 and 2 --------------------------------------------------
def _subsets(n: int, size: int, max_subsets: int | None, rng) -> tuple[np.ndarray, bool]:
    """All ``size``-subsets of ``range(n)`` if there are at most ``max_subsets`` of them,
    else ``max_subsets`` random ones; returns (subsets, exhaustive)."""
    total = comb(n, size)
    if max_subsets is None or total <= max_subsets:
        return np.array(list(itertools.combinations(range(n), size)), dtype=np.int64).reshape(
            -1, size
        ), True
    rng = np.random.default_rng(rng)
    keys = np.argsort(rng.random((max_subsets, n)), axis=1)[:, :size]
    return np.sort(keys, axis=1), False


def disjunct_fraction(
    A: np.ndarray, k: int, *, max_subsets: int | None = 200_000, rng=None, batch: int = 2048
) -> tuple[float, bool]:
    """Fraction of ``k``-subsets of columns whose union contains no other column.

    This is ``1 - eps`` of (eps, K)-disjunctness (Definition 2); ``A`` is K-disjunct
    (Definition 1) exactly when it is 1. Every subset is checked when there are at most
    ``max_subsets`` (exact); otherwise a random sample of that many (an estimate).

    Returns
    -------
    (fraction, exhaustive)
    """
    A = np.asarray(A, dtype=bool)
    n = A.shape[1]
    subsets, exhaustive = _subsets(n, k, max_subsets, rng)
    good = 0
    for start in range(0, len(subsets), batch):
        S = subsets[start : start + batch]
        union = A[:, S].any(axis=2)  # (m, B): rows the union covers
        # column j is contained in the union when it has no 1 outside it
        outside = (A[:, None, :] & ~union[:, :, None]).any(axis=0)  # (B, n)
        contained = ~outside
        contained[np.arange(len(S))[:, None], S] = False  # a subset's own columns don't count
        good += int((~contained.any(axis=1)).sum())
    return good / len(subsets), exhaustive


def is_k_disjunct(A: np.ndarray, k: int, *, max_subsets: int | None = 200_000, rng=None) -> bool:
    """Whether no union of ``k`` columns contains another column (exact for small designs,
    a sampled check -- which can only miss a violation -- beyond ``max_subsets``)."""
    return disjunct_fraction(A, k, max_subsets=max_subsets, rng=rng)[0] == 1.0


def patterns_present(
    A: np.ndarray, k: int, *, max_subsets: int | None = 200_000, rng=None, batch: int = 4096
) -> tuple[bool, bool]:
    """Lemma 2's condition: every subset of ``k + 1`` columns shows all ``2^(k+1)`` patterns.

    Returns ``(holds, exhaustive)``; with more than ``max_subsets`` subsets a random sample
    is checked (a sampled "holds" can be wrong, a "fails" cannot). Stops at the first
    subset that lacks a pattern.
    """
    A = np.asarray(A, dtype=np.int32)
    size = k + 1
    subsets, exhaustive = _subsets(A.shape[1], size, max_subsets, rng)
    n_patterns = 2**size
    for start in range(0, len(subsets), batch):
        S = subsets[start : start + batch]
        codes = np.zeros((A.shape[0], len(S)), dtype=np.int64)  # pattern code of each row
        for bit in range(size):
            codes |= A[:, S[:, bit]] << bit
        offsets = codes + n_patterns * np.arange(len(S))
        counts = np.bincount(offsets.ravel(), minlength=n_patterns * len(S))
        if (counts.reshape(len(S), n_patterns) == 0).any():
            return False, exhaustive
    return True, exhaustive


def union_bound(m, n: int, k: int) -> np.ndarray:
    """The paper's bound on the probability that some K-subset of equiprobable features
    misses a pattern: ``C(n, K) 2^K (1 - 2^-K)^m`` (section 3.3), clipped to 1."""
    m = np.asarray(m, dtype=float)
    return np.minimum(1.0, comb(n, k) * 2.0**k * (1 - 2.0**-k) ** m)


# ---- decoders -----------------------------------------------------------------------------
def _zero_row(A, y) -> np.ndarray:
    """Keep every column that has no 1 in a zero row (section 3.3)."""
    zero = ~y.astype(bool)
    return np.flatnonzero(~A[zero].any(axis=0))


def _greedy(A, y, penalty: float | None) -> np.ndarray:
    """Greedy set cover of the positives (SCM). Without ``penalty`` only columns with no 1
    in a zero row are candidates; with it, a column's utility is
    ``new positives - penalty * zero rows hit`` and the cover stops when no utility is positive."""
    A = A.astype(bool)
    pos = y.astype(bool)
    if penalty is None:
        candidates = ~A[~pos].any(axis=0)
        cost = np.zeros(A.shape[1])
    else:
        candidates = np.ones(A.shape[1], dtype=bool)
        cost = penalty * A[~pos].sum(axis=0)
    uncovered, chosen = pos.copy(), []
    while uncovered.any():
        gain = A[uncovered].sum(axis=0) - cost
        gain[~candidates] = -np.inf
        j = int(np.argmax(gain))
        if gain[j] <= 0:
            break
        chosen.append(j)
        candidates[j] = False
        uncovered &= ~A[:, j]
    return np.sort(np.asarray(chosen, dtype=int))


def decode(
    A: np.ndarray,
    y: np.ndarray,
    method: str = "lp",
    *,
    lam: float | None = None,
    penalty: float | None = None,
) -> np.ndarray:
    """Recover the support of an OR-rule ``y = A v w`` with one of :data:`DECODERS`.

    ``lam=None`` is the noiseless LP (eq. 9); a number solves eq. (10). ``penalty`` is the
    greedy decoder's price of a zero row hit (``None``: zero rows are forbidden).
    """
    if method == "lp":
        return np.sort(solve_or_lp(A, y, lam).selected)
    if method == "zero-row":
        return _zero_row(A, y)
    if method == "greedy":
        return _greedy(A, y, penalty)
    raise ValueError(f"method must be one of {DECODERS}, not {method!r}")


# ---- trials ---------------------------------------------------------------------------------
# ---- summaries and figures -------------------------------------------------------------------
