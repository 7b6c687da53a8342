"""Table 1's LRFIM grid: every C fitted on its own (mining each time) vs the itemsets mined
once per fold and every C fitted on them, side by side on the same fold.

    python -m benchmarks.repro.bench_lrfim_mined_once [data set]

Paper 4's Table 1 tunes LRFIM's C over 10^-3..10^3. Its frequent itemsets (support >= 1 %,
at most 5 items) and their columns depend on the training rows only, so one mining per fold
serves the seven C. Prints, on the data set's first cross-validation fold (the Table 1
binarisation; german.numer unless named), the seconds of both ways, their ratio and whether
the seven scores agree.
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
    est, grid = ex.table1_methods(name, len(train))["LRFIM"]
    Cs = sorted(grid["C"])
    t_alone, alone = wall(
        lambda: [ex._fit_score(est, {"C": C}, B, y, train, test, None) for C in Cs]
    )
    t_shared, shared = wall(ex._lrfim_fit_scores, est, {}, Cs, B, y, train, test, None)
    shared = shared["records"]
    same = [a["score"] for a in alone] == [s["score"] for s in shared]
    print(f"{name} fold 0, LRFIM (max {est.max_size} items), C = {Cs[0]:g}..{Cs[-1]:g}")
    print(f"{'alone s':>8} {'mined once s':>13} {'ratio':>7} {'same scores':>12}")
    print(f"{t_alone:>8.2f} {t_shared:>13.2f} {ratio(t_alone, t_shared):>7.2f} {same!s:>12}")


if __name__ == "__main__":
    main()
