"""Table 1's SVC grid: every (degree, gamma, C) fitted on its own vs the rows' dot products
computed once per fold and every kernel made from them, side by side on the same fold.

    python -m benchmarks.repro.bench_svc_shared_dots [data set] [--max-train N]

Paper 4's Table 1 tunes the polynomial SVC over degree {1, 3}, gamma {0.1, 0.4, 0.7, 1} and
C = 10^-3..10^3: 56 fits per fold. The kernel is an elementwise function of the rows' dot
products: on Madelon's 21,677 cells a fit spends most of its time on them, and on a few
hundred cells (phishing, ijcnn1) libsvm's own sparse kernel still costs every fit a pass
that the shared dense kernel does not. Prints, on the data set's first cross-validation
fold (the Table 1 binarisation; Madelon unless named; ``--max-train`` subsamples the
training part as Table 1 does, ijcnn1 at 10,000), the seconds of both ways, their ratio
and whether the 56 scores agree.
"""

from __future__ import annotations

import argparse

import numpy as np
from sklearn.model_selection import ParameterGrid, StratifiedKFold

from benchmarks.timing import ratio, wall
from repro.grab import experiments as ex


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", nargs="?", default="madelon")
    parser.add_argument("--max-train", type=int, default=None)
    args = parser.parse_args()
    name = args.dataset
    B, y, *_ = ex.binarized_split(name)
    if args.max_train is not None and len(B) > args.max_train:
        # Table 1's subsample (repro.grab.experiments.tuned_accuracy, seed 0)
        idx = np.sort(np.random.default_rng(0).choice(len(B), args.max_train, replace=False))
        B, y = B.iloc[idx].reset_index(drop=True), y.iloc[idx].reset_index(drop=True)
    train, test = next(StratifiedKFold(5, shuffle=True, random_state=0).split(B, y))
    est, grid = ex.table1_methods(name, len(train))["SVC"]
    combos = list(ParameterGrid(grid))
    t_alone, alone = wall(lambda: [ex._fit_score(est, c, B, y, train, test, None) for c in combos])
    t_shared, shared = wall(ex._svc_fit_scores, est, combos, B, y, train, test, None)
    shared = shared["records"]
    same = [a["score"] for a in alone] == [s["score"] for s in shared]
    print(f"{name} fold 0, SVC, {len(combos)} combinations")
    print(f"{'alone s':>8} {'shared dots s':>14} {'ratio':>7} {'same scores':>12}")
    print(f"{t_alone:>8.2f} {t_shared:>14.2f} {ratio(t_alone, t_shared):>7.2f} {same!s:>12}")


if __name__ == "__main__":
    main()
