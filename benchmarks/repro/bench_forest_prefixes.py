"""Table 1's random-forest grid: every size fitted alone vs all sizes as prefixes of one
forest, side by side on the same fold.

    python -m benchmarks.repro.bench_forest_prefixes

Paper 4's Table 1 tunes the forest over 16, 32, 64, 128 and 256 trees at each depth. A
forest of n trees is exactly the first n trees of the 256-tree forest with the same seed,
so one forest per depth and fold gives every size's score. Prints, on german.numer's first
cross-validation fold (the Table 1 binarisation, depth 64), the seconds of both ways,
their ratio and whether the five scores agree.
"""

from __future__ import annotations

import argparse

from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import StratifiedKFold

from benchmarks.timing import ratio, wall
from repro.grab import experiments as ex


def main() -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    B, y, *_ = ex.binarized_split("german.numer")
    train, test = next(StratifiedKFold(5, shuffle=True, random_state=0).split(B, y))
    est = RandomForestClassifier(random_state=0, n_jobs=1)
    Ns = [16, 32, 64, 128, 256]
    params = {"max_depth": 64}
    t_alone, alone = wall(
        lambda: [
            ex._fit_score(est, {**params, "n_estimators": n}, B, y, train, test, None) for n in Ns
        ]
    )
    t_shared, shared = wall(ex._forest_fit_scores, est, params, Ns, B, y, train, test, None)
    shared = shared["records"]
    same = [a["score"] for a in alone] == [s["score"] for s in shared]
    print(f"german.numer fold 0, depth {params['max_depth']}, sizes {Ns}")
    print(f"{'alone s':>8} {'prefixes s':>11} {'ratio':>7} {'same scores':>12}")
    print(f"{t_alone:>8.2f} {t_shared:>11.2f} {ratio(t_alone, t_shared):>7.2f} {same!s:>12}")


if __name__ == "__main__":
    main()
