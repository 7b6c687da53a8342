"""Table 1's depth grid for XGBoost, the decision tree and the random forest: every depth
fitted alone vs the depths fitted ascending until the trees stop short of the maximum depth,
side by side on the same fold.

    python -m benchmarks.repro.bench_depth_chain [data set]

Paper 4's Table 1 tunes the depth over 8, 16, ..., 512. Trees that stop short of their
maximum depth are the trees of every larger depth, so once a fit's deepest node lies above
its maximum depth its score stands for the larger depths. Prints, on the data set's first
cross-validation fold (the Table 1 binarisation; german.numer unless named; XGBoost at
lambda = 1/m; the random forest with its sizes 16..256 scored as prefixes of one forest
per depth either way), the seconds of both ways, their ratio and whether the scores agree.
"""

from __future__ import annotations

import argparse

from sklearn.model_selection import StratifiedKFold

from benchmarks.timing import ratio, wall
from repro.grab import experiments as ex


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", nargs="?", default="german.numer")
    name = parser.parse_args().dataset
    B, y, *_ = ex.binarized_split(name)
    train, test = next(StratifiedKFold(5, shuffle=True, random_state=0).split(B, y))
    methods = ex.table1_methods(name, len(train))
    print(f"{name} fold 0, depths 8..512")
    print(f"{'method':>7} {'alone s':>8} {'chain s':>8} {'ratio':>7} {'same scores':>12}")
    for method, params in [("XGB", {"xgbclassifier__reg_lambda": 1.0 / len(train)}), ("DT", {})]:
        est, grid = methods[method]
        key = ex._depth_key(est, grid)
        depths = grid[key]
        fits = [{**params, key: D} for D in depths]
        t_alone, alone = wall(
            lambda fits=fits, est=est: [
                ex._fit_score(est, p, B, y, train, test, None) for p in fits
            ]
        )
        t_chain, chain = wall(
            ex._depth_fit_scores, est, params, key, depths, B, y, train, test, None
        )
        same = [a["score"] for a in alone] == [c["score"] for c in chain["records"]]
        print(
            f"{method:>7} {t_alone:>8.2f} {t_chain:>8.2f} {ratio(t_alone, t_chain):>7.2f} {same!s:>12}"
        )
    # the forest: each depth's sizes as prefixes of one forest (the way before), per depth
    # vs the depths as one chain
    est, grid = methods["RF"]
    depths, Ns = grid["max_depth"], grid["n_estimators"]

    def per_depth():
        records = []
        for D in depths:
            out = ex._forest_fit_scores(est, {"max_depth": D}, Ns, B, y, train, test, None)
            records += out["records"]
        return records

    t_alone, alone = wall(per_depth)
    t_chain, chain = wall(ex._forest_depth_fit_scores, est, {}, depths, Ns, B, y, train, test, None)
    same = [a["score"] for a in alone] == [c["score"] for c in chain["records"]]
    print(f"{'RF':>7} {t_alone:>8.2f} {t_chain:>8.2f} {ratio(t_alone, t_chain):>7.2f} {same!s:>12}")


if __name__ == "__main__":
    main()
