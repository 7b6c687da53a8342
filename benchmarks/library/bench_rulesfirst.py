"""Rules-first classifiers: what the greedy search costs, measured side by side in one run.

    python -m benchmarks.library.bench_rulesfirst

Part 1 prints, on the paper's synthetic data (d = 400, k = 20), the fit time of plain l2
logistic regression, greedy l2 with the fast search (candidates scored with the current
model, one refit per added rule) and with the exact search (one refit per candidate per
step), the rules each finds and their test accuracy, and the ratios.

Part 2 times the exact search's refits two ways on the same data and seed: through
``LogisticRegression.fit`` (the estimator: validation, label encoding, slicing
``X[rows][:, keep]`` per candidate) and through the lean refit that runs the same L-BFGS-B
optimisation on a design prepared once per step; for an l1 base, through liblinear (which
always starts from zero) and through the warm-started l1 refit. The l2 refits must choose
the same rules; the l1 refits stop nearer the optimum than liblinear's default tolerance,
so their rules can differ where liblinear's tolerance decides a tie.
"""

from __future__ import annotations

import argparse

from threadpoolctl import threadpool_limits

from benchmarks.timing import ratio, wall
from rulelab import RulesFirstClassifier, make_rules_first
from rulelab.rulesfirst._base import make_linear
from rulelab.rulesfirst._l1 import L1LogisticRefit
from rulelab.rulesfirst._refit import LogisticRefit


def _timed(model, X, y):
    seconds, _ = wall(model.fit, X, y)
    return model, seconds


def _searches() -> None:
    print(
        f"{'m':>6} {'method':<16} {'seconds':>8} {'ratio':>7} {'rules':>6} {'planted':>8} {'accuracy':>9}"
    )
    for m in (300, 1000, 2000):
        X, y, planted = make_rules_first(m, random_state=0)
        Xt, yt, _ = make_rules_first(2000, random_state=1)
        base, t_base = _timed(make_linear("l2"), X, y)
        print(
            f"{m:>6} {'l2 logistic':<16} {t_base:>8.2f} {1.0:>7.1f} {0:>6} {0:>8} "
            f"{base.score(Xt, yt):>9.3f}"
        )
        for search in ("fast", "exact"):
            if search == "exact" and m > 1000:
                continue  # one refit per candidate and step: minutes at this size
            g, t = _timed(RulesFirstClassifier(search=search, random_state=0), X, y)
            hits = len(set(g.rules_.feature_indices) & set(planted.tolist()))
            print(
                f"{m:>6} {'greedy l2 ' + search:<16} {t:>8.2f} {t / t_base:>7.1f} "
                f"{len(g.rules_):>6} {hits:>8} {g.score(Xt, yt):>9.3f}"
            )


def _refits() -> None:
    print(
        f"\n{'penalty':<8} {'candidates':<14} {'estimator s':>12} {'lean s':>8} {'ratio':>7} "
        f"{'same rules':>11}"
    )
    X, y, _ = make_rules_first(1000, random_state=0)
    for penalty, refit in (("l2", LogisticRefit), ("l1", L1LogisticRefit)):
        applies = refit.applies
        for label, purity in (("exact rules", 1.0), ("all features", 0.0)):
            kw = {
                "penalty": penalty,
                "min_purity": purity,
                "max_rules": 20,
                "early_stopping": False,
                "random_state": 0,
            }
            lean, t_lean = _timed(RulesFirstClassifier(**kw), X, y)
            refit.applies = staticmethod(lambda model, X: False)  # the estimator's fit
            try:
                plain, t_plain = _timed(RulesFirstClassifier(**kw), X, y)
            finally:
                refit.applies = applies
            same = lean.rules_.feature_indices == plain.rules_.feature_indices
            print(
                f"{penalty:<8} {label:<14} {t_plain:>12.2f} {t_lean:>8.2f} "
                f"{ratio(t_plain, t_lean):>7.2f} {same!s:>11}"
            )


def main() -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    with threadpool_limits(1):
        _searches()
        _refits()


if __name__ == "__main__":
    main()
