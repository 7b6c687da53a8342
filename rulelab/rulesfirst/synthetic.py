"""The (k, B)-realizable synthetic data of Cohen et al. (2019, §7.1)."""

from __future__ import annotations

import numpy as np
from sklearn.utils import check_random_state

__all__ = ["make_rules_first", "rule_probability"]


def make_rules_first(
    m: int, d: int = 400, k: int = 20, p: float = 1 / 60, mu: float = -0.02, random_state=None
):
    """Samples whose label is set by k rule features first and by a halfspace otherwise.

    ``d`` standard features ~ N(mu, 1) and ``k`` rule features ~ Bernoulli(p); y = 1 when
    any rule feature is 1, otherwise y = [<w, x> > 0] with w_j = 1 on the standard features
    (the paper's settings are the defaults).

    Parameters
    ----------
    m : int
        Number of samples.
    d : int, default=400
        Standard (linear-part) features.
    k : int, default=20
        Rule features.
    p : float, default=1/60
        Probability that a rule feature is 1.
    mu : float, default=-0.02
        Mean of the standard features.
    random_state : int, RandomState or None

    Returns
    -------
    X : ndarray, shape (m, d + k)
        Standard features in columns ``0 .. d-1``, rule features in ``d .. d+k-1``.
    y : ndarray of int, shape (m,)
        Labels in {0, 1}.
    rules : ndarray of int, shape (k,)
        Column indices of the rule features.
    """
    if m < 1 or d < 1 or k < 0:
        raise ValueError(f"need m >= 1, d >= 1 and k >= 0, got m={m}, d={d}, k={k}")
    if not 0 <= p <= 1:
        raise ValueError(f"p is a probability, got {p}")
    rng = check_random_state(random_state)
    standard = rng.normal(mu, 1.0, size=(m, d))
    rule_part = (rng.random_sample((m, k)) < p).astype(np.float64)
    y = np.where(rule_part.any(axis=1), 1, (standard.sum(axis=1) > 0).astype(int))
    X = np.hstack([standard, rule_part])
    return X, y.astype(np.int64), np.arange(d, d + k)


def rule_probability(k: int, coverage: float) -> float:
    """Per-rule probability p so that k independent rules cover a share ``coverage`` of samples.

    Holding the covered share fixed while k varies isolates the cost of *finding* k rules
    (the paper's k = 20, p = 1/60 covers 28.5%).
    """
    if not 0 <= coverage < 1:
        raise ValueError(f"coverage must be in [0, 1), got {coverage}")
    return 1.0 - (1.0 - coverage) ** (1.0 / k)
