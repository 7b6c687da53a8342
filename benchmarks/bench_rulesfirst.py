"""Rules-first classifiers: what the greedy search costs, measured side by side in one run.

    python benchmarks/bench_rulesfirst.py

Prints, on the paper's synthetic data (d = 400, k = 20), the fit time of plain l2 logistic
regression, greedy l2 with the fast search (candidates scored with the current model, one
refit per added rule) and with the exact search (one refit per candidate per step), the
rules each finds and their test accuracy, and the ratios.
"""

from __future__ import annotations

import time

from threadpoolctl import threadpool_limits

from rulelab import RulesFirstClassifier, make_rules_first
from rulelab.rulesfirst._base import make_linear


def _timed(model, X, y):
    start = time.perf_counter()
    model.fit(X, y)
    return model, time.perf_counter() - start


def main() -> None:
    print(
        f"{'m':>6} {'method':<16} {'seconds':>8} {'ratio':>7} {'rules':>6} {'planted':>8} {'accuracy':>9}"
    )
    with threadpool_limits(1):
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


if __name__ == "__main__":
    main()
