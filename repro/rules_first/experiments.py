"""The synthetic experiments of Cohen et al. (2019, §7.1), as cached parallel units.

- :func:`accuracy_vs_m` — Fig. 2 (left): greedy l1/l2 against l1/l2 logistic regression.
- :func:`accuracy_vs_rules` — Fig. 2 (right): accuracy against the number of rules |K|.
- :func:`sample_complexity` — Table 1 measured: the training size each learner needs to
  reach a target error as k and the linear part's size vary.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from repro.core.runner import run_units
from rulelab.rulesfirst._base import make_linear
from rulelab.rulesfirst.greedy import RulesFirstClassifier, truncate_rules
from rulelab.rulesfirst.synthetic import make_rules_first, rule_probability

__all__ = [
    "accuracy_vs_m",
    "accuracy_vs_rules",
    "sample_complexity",
    "crossing_m",
    "oracle_accuracy",
]

TEST_OFFSET = 1_000_003  # test sets use seed + offset: never the training draw


def _data(m, seed, n_test, **gen):
    X, y, planted = make_rules_first(m, random_state=seed, **gen)
    Xt, yt, _ = make_rules_first(n_test, random_state=seed + TEST_OFFSET, **gen)
    return X, y, Xt, yt, planted


def _m_unit(
    m: int,
    seed: int,
    n_test: int,
    C: float,
    max_rules: int,
    base_rows: str = "uncovered",
    search: str = "exact",
) -> list[dict]:
    X, y, Xt, yt, planted = _data(m, seed, n_test)
    out = []
    for penalty in ("l1", "l2"):
        base = make_linear(penalty, C, random_state=seed).fit(X, y)
        out.append(
            {
                "m": m,
                "seed": seed,
                "method": f"{penalty} logistic",
                "accuracy": base.score(Xt, yt),
                "n_rules": 0,
                "planted_found": 0,
            }
        )
        # §7.1 selects "the k rule features": |K| = max_rules, no early stop (candidates
        # are exact rules, so fewer are taken only when fewer exist in the sample).
        g = RulesFirstClassifier(
            penalty=penalty,
            C=C,
            max_rules=max_rules,
            early_stopping=False,
            search=search,
            base_rows=base_rows,
            random_state=seed,
        ).fit(X, y)
        found = len(set(g.rules_.feature_indices) & set(planted.tolist()))
        out.append(
            {
                "m": m,
                "seed": seed,
                "method": f"greedy {penalty}",
                "accuracy": g.score(Xt, yt),
                "n_rules": len(g.rules_),
                "planted_found": found,
                "base_rows": base_rows,
                "search": search,
            }
        )
    return out


def accuracy_vs_m(
    ms,
    n_seeds: int = 20,
    *,
    n_test: int = 2000,
    C: float = 1.0,
    max_rules: int = 20,
    base_rows: str = "uncovered",
    search: str = "exact",
    n_jobs: int = 1,
    progress: bool = True,
) -> pd.DataFrame:
    """Test accuracy of greedy l1/l2 and l1/l2 logistic regression for each training size.

    One unit per (m, seed): a fresh realisation of the paper's data (d = 400, k = 20,
    p = 1/60, mu = -0.02), a 2,000-sample test set from an independent seed. ``base_rows``
    is the greedy's reading of §7 and ``search`` how it scores a candidate
    (:class:`rulelab.RulesFirstClassifier`; "exact" refits the base per candidate, §7).

    Returns
    -------
    DataFrame with columns m, seed, method, accuracy, n_rules, planted_found.
    """
    tasks = [
        {
            "m": int(m),
            "seed": s,
            "n_test": n_test,
            "C": C,
            "max_rules": max_rules,
            "base_rows": base_rows,
            "search": search,
        }
        for m in ms
        for s in range(n_seeds)
    ]
    return pd.DataFrame(
        run_units(_m_unit, tasks, "rulesfirst/fig2_left", n_jobs=n_jobs, progress=progress)
    )


def _rules_unit(
    m: int, seed: int, n_test: int, C: float, ks: list[int], search: str = "exact"
) -> list[dict]:
    X, y, Xt, yt, planted = _data(m, seed, n_test)
    out = []
    for penalty in ("l1", "l2"):
        for candidates, min_purity in (("exact rules", 1.0), ("all features", 0.0)):
            # |K| is forced (no early stop). With every feature a candidate the greedy must
            # take features that are not rules once the planted ones are used up.
            g = RulesFirstClassifier(
                penalty=penalty,
                C=C,
                max_rules=max(ks),
                min_purity=min_purity,
                early_stopping=False,
                search=search,
                random_state=seed,
            ).fit(X, y)
            for k in ks:
                model = truncate_rules(g, k, X, y)
                out.append(
                    {
                        "m": m,
                        "seed": seed,
                        "method": f"greedy {penalty}",
                        "candidates": candidates,
                        "n_rules": k,
                        "search": search,
                        "rules_used": len(model.rules_),
                        "accuracy": model.score(Xt, yt),
                        "planted_found": len(
                            set(model.rules_.feature_indices) & set(planted.tolist())
                        ),
                    }
                )
    return out


def accuracy_vs_rules(
    ks,
    m: int = 1000,
    n_seeds: int = 20,
    *,
    n_test: int = 2000,
    C: float = 1.0,
    search: str = "exact",
    n_jobs: int = 1,
    progress: bool = True,
) -> pd.DataFrame:
    """Test accuracy of greedy l1/l2 with exactly |K| rules, for each |K| in ``ks``.

    One greedy search per (seed, penalty) with ``max(ks)`` rules; each |K| keeps the first
    |K| rules and refits the base (see :func:`truncate_rules`). ``search`` as in
    :func:`accuracy_vs_m`.
    """
    tasks = [
        {
            "m": int(m),
            "seed": s,
            "n_test": n_test,
            "C": C,
            "ks": [int(k) for k in ks],
            "search": search,
        }
        for s in range(n_seeds)
    ]
    return pd.DataFrame(
        run_units(_rules_unit, tasks, "rulesfirst/fig2_right", n_jobs=n_jobs, progress=progress)
    )


def oracle_accuracy(X, y, Xt, yt, planted, penalty="l2", C=1.0) -> float:
    """Accuracy of the rules-first model that is *told* the rule features K.

    Stands in for ERM over H_{2,0} (exponential search over K, not computable here): it
    pays for learning the linear part but nothing for finding the rules, so its sample
    complexity tracks the information-theoretic k + B^2 from below.
    """
    covered = (X[:, planted] > 0).any(axis=1)
    keep = np.setdiff1d(np.arange(X.shape[1]), planted)
    pred = np.ones(len(yt), dtype=np.int64)
    free = ~(Xt[:, planted] > 0).any(axis=1)
    if len(np.unique(y[~covered])) == 2:
        base = make_linear(penalty, C).fit(X[~covered][:, keep], y[~covered])
        pred[free] = base.predict(Xt[free][:, keep])
    elif (~covered).any():
        pred[free] = y[~covered][0]
    return float(np.mean(pred == yt))


def _sc_unit(
    k: int, d: int, m: int, seed: int, coverage: float, n_test: int, C: float, search: str = "exact"
) -> list[dict]:
    gen = {"d": d, "k": k, "p": rule_probability(k, coverage), "mu": 0.0}
    X, y, Xt, yt, planted = _data(m, seed, n_test, **gen)
    base = make_linear("l2", C).fit(X, y)
    greedy = RulesFirstClassifier(
        penalty="l2", C=C, max_rules=k, early_stopping=False, search=search, random_state=seed
    ).fit(X, y)
    row = {"k": k, "d": d, "B": float(np.sqrt(d)), "m": m, "seed": seed}
    return [
        {
            **row,
            "method": "ERM stand-in (rules known)",
            "error": 1 - oracle_accuracy(X, y, Xt, yt, planted, "l2", C),
        },
        {**row, "method": "convex relaxation (l2 logistic)", "error": 1 - base.score(Xt, yt)},
        {**row, "method": "greedy l2", "error": 1 - greedy.score(Xt, yt)},
    ]


def sample_complexity(
    configs,
    ms,
    n_seeds: int = 5,
    *,
    coverage: float = 0.285,
    n_test: int = 2000,
    C: float = 1.0,
    search: str = "exact",
    n_jobs: int = 1,
    progress: bool = True,
) -> pd.DataFrame:
    """Test error of ERM stand-in, convex relaxation and greedy over a grid of (k, d, m).

    ``configs`` is a list of (k, d): k rule features, each with the probability that makes
    the k rules cover ``coverage`` of the samples (28.5% as in the paper's k = 20,
    p = 1/60), and a linear part on d standard N(0, 1) features with w = 1. The linear
    part's sample complexity grows with d the way it grows with B^2 for a norm-bounded
    halfspace, so B = sqrt(d) is the analogue of the paper's norm bound.
    """
    tasks = [
        {
            "k": int(k),
            "d": int(d),
            "m": int(m),
            "seed": s,
            "coverage": coverage,
            "n_test": n_test,
            "C": C,
            "search": search,
        }
        for k, d in configs
        for m in ms
        for s in range(n_seeds)
    ]
    return pd.DataFrame(
        run_units(
            _sc_unit, tasks, "rulesfirst/table1_sample_complexity", n_jobs=n_jobs, progress=progress
        )
    )


def crossing_m(results: pd.DataFrame, target: float, by=("k", "d", "method")) -> pd.DataFrame:
    """Smallest training size whose mean error is at most ``target``, per group.

    Interpolates log(m) linearly between the last grid point above the target and the first
    below it; NaN when the grid never reaches the target.
    """
    rows = []
    for key, grp in results.groupby(list(by), sort=False):
        curve = grp.groupby("m")["error"].mean().sort_index()
        ms, errs = curve.index.to_numpy(float), curve.to_numpy()
        hit = np.flatnonzero(errs <= target)
        if not len(hit):
            m_star = np.nan
        elif hit[0] == 0:
            m_star = ms[0]
        else:
            i = hit[0]
            f = (errs[i - 1] - target) / (errs[i - 1] - errs[i])
            m_star = float(np.exp(np.log(ms[i - 1]) + f * (np.log(ms[i]) - np.log(ms[i - 1]))))
        rows.append({**dict(zip(by, key)), "m_needed": m_star})
    return pd.DataFrame(rows)
