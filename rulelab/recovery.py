"""Exact recovery of a planted rule (Malioutov & Varshney 2013, section 3.3-3.5).

Rule learning as group testing: the labels are the OR of ``K`` unknown columns of a 0/1
design ``A`` (an AND-rule is the same problem after complementing ``A`` and ``y``, eq. 5).
This module draws random Bernoulli designs, checks the two conditions of the paper --
K-disjunctness (Definition 1, Lemma 1) and "every (K+1)-pattern is present" (Lemma 2) --
and runs recovery trials for three decoders:

* ``"lp"`` -- the LP relaxation (eq. 9 without noise, eq. 10 with noise);
* ``"zero-row"`` -- the simple algorithm of section 3.3: every column with a 1 in a zero
  row is eliminated, all other columns are kept (exact on K-disjunct designs);
* ``"greedy"`` -- greedy set cover in the style of the set covering machine: among the
  surviving columns, repeatedly take the one covering most uncovered positives (with
  noise, SCM's utility: new positives minus ``penalty`` times negatives).

Trials run in parallel through joblib and are cached per design point under
:func:`rulelab.evaluate.cache_dir` so an interrupted experiment resumes.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Sequence
from math import comb

import numpy as np
import pandas as pd
from joblib import Parallel, delayed

from .lp import solve_or_lp

__all__ = ["bernoulli_design", "plant_or_rule", "disjunct_fraction", "is_k_disjunct",
           "patterns_present", "decode", "recovery_trial", "recovery_experiment",
           "union_bound", "threshold_recovery_trial", "DECODERS", "recovery_rates",
           "samples_needed", "plot_phase_transition", "plot_against_bound"]

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
            -1, size), True
    rng = np.random.default_rng(rng)
    keys = np.argsort(rng.random((max_subsets, n)), axis=1)[:, :size]
    return np.sort(keys, axis=1), False


def disjunct_fraction(A: np.ndarray, k: int, *, max_subsets: int | None = 200_000,
                      rng=None, batch: int = 2048) -> tuple[float, bool]:
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
        S = subsets[start:start + batch]
        union = A[:, S].any(axis=2)                       # (m, B): rows the union covers
        # column j is contained in the union when it has no 1 outside it
        outside = (A[:, None, :] & ~union[:, :, None]).any(axis=0)   # (B, n)
        contained = ~outside
        contained[np.arange(len(S))[:, None], S] = False  # a subset's own columns don't count
        good += int((~contained.any(axis=1)).sum())
    return good / len(subsets), exhaustive


def is_k_disjunct(A: np.ndarray, k: int, *, max_subsets: int | None = 200_000,
                  rng=None) -> bool:
    """Whether no union of ``k`` columns contains another column (exact for small designs,
    a sampled check -- which can only miss a violation -- beyond ``max_subsets``)."""
    return disjunct_fraction(A, k, max_subsets=max_subsets, rng=rng)[0] == 1.0


def patterns_present(A: np.ndarray, k: int, *, max_subsets: int | None = 200_000, rng=None,
                     batch: int = 4096) -> tuple[bool, bool]:
    """Lemma 2's condition: every subset of ``k + 1`` columns shows all ``2^(k+1)`` patterns.

    Returns ``(holds, exhaustive)``; with more than ``max_subsets`` subsets a random sample
    is checked (a sampled "holds" can be wrong, a "fails" cannot). Stops at the first
    subset that lacks a pattern.
    """
    A = np.asarray(A, dtype=np.int32)
    size = k + 1
    subsets, exhaustive = _subsets(A.shape[1], size, max_subsets, rng)
    n_patterns = 2 ** size
    for start in range(0, len(subsets), batch):
        S = subsets[start:start + batch]
        codes = np.zeros((A.shape[0], len(S)), dtype=np.int64)   # pattern code of each row
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
    return np.minimum(1.0, comb(n, k) * 2.0 ** k * (1 - 2.0 ** -k) ** m)


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


def decode(A: np.ndarray, y: np.ndarray, method: str = "lp", *, lam: float | None = None,
           penalty: float | None = None) -> np.ndarray:
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
def recovery_trial(m: int, n: int, k: int, seed: int, *, p: float = 0.5, noise: float = 0.0,
                   methods: Sequence[str] = DECODERS, lam: float | None = None,
                   penalty: float | None = None, checks: bool = False) -> list[dict]:
    """One random design with a planted ``k``-term OR-rule, decoded by every method.

    Returns one record per method: ``exact`` (support recovered exactly), ``hamming``
    (size of the symmetric difference), ``n_selected``; with ``checks`` also whether the
    design is K-disjunct and satisfies Lemma 2 (exhaustive checks: keep ``n`` small).
    """
    rng = np.random.default_rng([seed, m, n, k])
    A = bernoulli_design(m, n, p, rng)
    support, y = plant_or_rule(A, k, rng, noise)
    extra = {}
    if checks:
        extra["k_disjunct"] = is_k_disjunct(A, k, max_subsets=None)
        extra["patterns"] = patterns_present(A, k, max_subsets=None)[0]
    records = []
    truth = set(support.tolist())
    for method in methods:
        found = set(decode(A, y, method, lam=lam, penalty=penalty).tolist())
        records.append({"m": m, "n": n, "k": k, "seed": seed, "p": p, "noise": noise,
                        "method": method, "truth": sorted(truth), "found": sorted(found),
                        "exact": found == truth,
                        "hamming": len(found ^ truth), "n_selected": len(found), **extra})
    return records


def _run_point(key: str, path, trials: list[dict]) -> list[dict]:
    records = [r for kwargs in trials for r in recovery_trial(**kwargs)]
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(records))
        tmp.replace(path)
    return records


def recovery_experiment(ms: Iterable[int], ks: Iterable[int], n: int, n_trials: int, *,
                        p: float = 0.5, noises: Iterable[float] = (0.0,),
                        methods: Sequence[str] = DECODERS, lam: float | None = None,
                        penalty: float | None = None, checks: bool = False, n_jobs: int = 1,
                        cache: bool = True, progress: bool = True) -> pd.DataFrame:
    """Recovery trials over a grid of sample sizes ``ms``, rule sizes ``ks`` and noise rates.

    Each grid point (all ``n_trials`` seeds) is one joblib task, cached as JSON, so a rerun
    with the same settings is free and an interrupted one resumes. Returns one row per
    (grid point, seed, method); see :func:`recovery_trial`.
    """
    from .evaluate import _safe, cache_dir, params_key

    tasks, records = [], []
    for k in ks:
        for m in ms:
            for noise in noises:
                trials = [dict(m=int(m), n=int(n), k=int(k), seed=s, p=p, noise=float(noise),
                               methods=list(methods), lam=lam, penalty=penalty, checks=checks)
                          for s in range(n_trials)]
                key = params_key(trials)
                path = None
                if cache:
                    path = cache_dir() / "recovery" / _safe(f"m{m}-n{n}-k{k}-r{noise}-{key}.json")
                    if path.is_file():
                        records.extend(json.loads(path.read_text()))
                        continue
                tasks.append(delayed(_run_point)(key, path, trials))
    if tasks:
        results = Parallel(n_jobs=n_jobs, return_as="generator_unordered")(tasks)
        if progress:
            from tqdm.auto import tqdm

            results = tqdm(results, total=len(tasks), desc="recovery trials", leave=False)
        for chunk in results:
            records.extend(chunk)
    frame = pd.DataFrame(records)
    return frame.sort_values(["k", "m", "noise", "method", "seed"]).reset_index(drop=True)


# ---- continuous features (section 3.5) ----------------------------------------------------
def threshold_recovery_trial(n_samples: int, n_thresholds: int, seed: int, *,
                             n_features: int = 5, truth=((0, ">", 0.3), (1, "<=", 0.6)),
                             lam: float = 1000.0) -> dict:
    """Plant an AND of thresholds on uniform features and learn it with :class:`OneRule`.

    The labels are ``AND_i x[f_i] op_i t_i`` on ``x ~ U(0, 1)^n_features``. A quantile grid
    rarely contains ``t_i`` itself, so no column reproduces the labels exactly and the
    slack LP (eq. 10) is used. The rule counts as *recovered up to threshold resolution*
    when the learned clause, tightened to one term per (feature, direction), uses exactly
    the true features and directions and each learned threshold is one of the two grid
    points bracketing the true one.

    Returns
    -------
    dict with ``recovered``, ``max_gap`` (largest |learned - true| threshold), ``resolution``
    (largest spacing of the grid around the true thresholds), the printed rule and the
    training error.
    """
    from .rules import simplify_clause
    from .rulesets import OneRule

    rng = np.random.default_rng([seed, n_samples, n_thresholds])
    X = pd.DataFrame(rng.random((n_samples, n_features)),
                     columns=[f"x{i}" for i in range(n_features)])
    y = np.ones(n_samples, dtype=bool)
    for f, op, t in truth:
        y &= (X[f"x{f}"] > t).to_numpy() if op == ">" else (X[f"x{f}"] <= t).to_numpy()
    model = OneRule(lam=lam, n_thresholds=n_thresholds).fit(X, y.astype(int))
    clause = simplify_clause(model.rule_)
    grid = model.binarizer_.thresholds_
    learned = {(t.feature, t.op): t.value for t in clause.terms}
    wanted = {(f"x{f}", op): t for f, op, t in truth}
    recovered = set(learned) == set(wanted)
    gaps, spacing = [], []
    for (feat, op), t in wanted.items():
        cuts = grid[feat]
        below, above = cuts[cuts <= t], cuts[cuts > t]
        bracket = {float(below.max()) if below.size else None,
                   float(above.min()) if above.size else None} - {None}
        spacing.append((max(bracket) - min(bracket)) if len(bracket) == 2 else np.nan)
        if (feat, op) in learned:
            gaps.append(abs(learned[(feat, op)] - t))
            recovered &= any(np.isclose(learned[(feat, op)], b) for b in bracket)
        else:
            gaps.append(np.nan)
    return {"n_samples": n_samples, "n_thresholds": n_thresholds, "seed": seed,
            "recovered": bool(recovered), "max_gap": float(np.nanmax(gaps)) if
            not np.all(np.isnan(gaps)) else np.nan, "resolution": float(np.nanmax(spacing)),
            "rule": str(clause), "train_error": float(1 - model.score(X, y.astype(int)))}


# ---- summaries and figures -------------------------------------------------------------------
def recovery_rates(trials: pd.DataFrame, by=("method", "k", "m")) -> pd.DataFrame:
    """Share of exact recoveries, mean Hamming distance and (if checked) the share of
    K-disjunct designs and of designs meeting Lemma 2, per group of ``by``."""
    agg = {"p_exact": ("exact", "mean"), "hamming": ("hamming", "mean"),
           "trials": ("exact", "size")}
    for col, name in (("k_disjunct", "p_disjunct"), ("patterns", "p_patterns")):
        if col in trials:
            agg[name] = (col, "mean")
    return trials.groupby(list(by)).agg(**agg).reset_index()


def samples_needed(rates: pd.DataFrame, level: float = 0.95) -> pd.DataFrame:
    """Smallest ``m`` from which the recovery rate stays at or above ``level``, per
    (method, k); NaN when it never does within the grid."""
    rows = []
    for (method, k), g in rates.groupby(["method", "k"]):
        g = g.sort_values("m")
        ok = g.p_exact.to_numpy() >= level
        # the first m after which every larger m is also at the level
        tail = np.flatnonzero(~ok)
        start = 0 if tail.size == 0 else tail[-1] + 1
        rows.append({"method": method, "k": k,
                     "m_needed": g.m.iloc[start] if start < len(g) else np.nan})
    return pd.DataFrame(rows)


def plot_phase_transition(rates: pd.DataFrame, methods: Sequence[str] = DECODERS, axes=None):
    """Figure (a): probability of exact recovery against ``m``, one panel per decoder,
    one line per rule size ``k``."""
    import matplotlib.pyplot as plt

    if axes is None:
        _, axes = plt.subplots(1, len(methods), figsize=(4 * len(methods), 3.4), sharey=True)
    for ax, method in zip(np.atleast_1d(axes), methods):
        for k, g in rates[rates.method == method].groupby("k"):
            ax.plot(g.m, g.p_exact, marker="o", ms=3, label=f"K = {k}")
        ax.set(title=method, xlabel="samples m", ylim=(-0.03, 1.03))
    np.atleast_1d(axes)[0].set_ylabel("P(exact recovery)")
    np.atleast_1d(axes)[-1].legend()
    return axes


def plot_against_bound(rates: pd.DataFrame, n: int, axes=None, method: str = "lp"):
    """Figure (b): per rule size, the LP's recovery rate, the share of K-disjunct designs,
    the share meeting Lemma 2, and one minus the union bound -- as printed in the paper
    (K-subsets) and for the (K+1)-subsets Lemma 2 needs."""
    import matplotlib.pyplot as plt

    ks = sorted(rates.k.unique())
    if axes is None:
        _, axes = plt.subplots(1, len(ks), figsize=(3.6 * len(ks), 3.4), sharey=True)
    for ax, k in zip(np.atleast_1d(axes), ks):
        g = rates[(rates.method == method) & (rates.k == k)].sort_values("m")
        grid = np.linspace(g.m.min(), g.m.max(), 200)
        ax.plot(g.m, g.p_exact, "o-", ms=3, label="LP recovers")
        ax.plot(g.m, g.p_disjunct, "s--", ms=3, label="K-disjunct")
        ax.plot(g.m, g.p_patterns, "^:", ms=3, label="Lemma 2 holds")
        ax.plot(grid, 1 - union_bound(grid, n, k), "k-", lw=1, label="1 - bound (paper)")
        ax.plot(grid, 1 - union_bound(grid, n, k + 1), color="0.5", lw=1,
                label="1 - bound (K+1)")
        ax.set(title=f"K = {k}", xlabel="samples m", ylim=(-0.03, 1.03))
    np.atleast_1d(axes)[0].set_ylabel("probability")
    np.atleast_1d(axes)[-1].legend(fontsize=8)
    return axes
