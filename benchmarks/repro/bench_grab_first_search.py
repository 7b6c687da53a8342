"""Table 1's GRAB grid on one fold: every (C, max_terms) fitted on its own vs each C's six
max_terms sharing their first itemset search, side by side.

    python -m benchmarks.repro.bench_grab_first_search [data set] [--loss l2hinge] [--C 1 10]

Paper 4's Table 1 tunes GRAB over C = 10^-3..10^3 and max_terms = 1..5 and None. At w = 0
the transaction weights do not depend on max_terms, so a (C, fold)'s six fits begin with
the same dynamic-threshold search, which :class:`rulelab.grab.grafting.SharedFirstSearch`
runs once where its sums are exact (C >= 1). Prints, on the data set's first
cross-validation fold (the Table 1 binarisation and top K; Madelon unless named), the CPU
seconds of both ways per C and in all, their ratio, and whether the scores agree (they
must: the same fits); exits with an error if they do not.
"""

from __future__ import annotations

import argparse

from sklearn.model_selection import StratifiedKFold

from benchmarks.timing import cpu, ratio
from repro.grab import experiments as ex
from repro.grab.parameters import PARAMETERS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", nargs="?", default="madelon")
    parser.add_argument("--loss", choices=["logistic", "l2hinge"], default="logistic")
    parser.add_argument("--C", type=float, nargs="+", help="a part of the grid's C")
    args = parser.parse_args()
    B, y, *_ = ex.binarized_split(args.dataset)
    train, test = next(StratifiedKFold(5, shuffle=True, random_state=0).split(B, y))
    top_k = PARAMETERS["TOP_K"].default
    methods = ex.table1_methods(args.dataset, len(train), top_k=top_k)
    est, grid = methods["GRAB (logistic)" if args.loss == "logistic" else "GRAB (L2-hinge)"]
    ks = sorted(grid["max_terms"], key=ex._none_last)
    Cs = args.C or sorted(grid["C"])
    # compile the kernels outside the timings
    ex._grab_fit_scores(est, {"C": 1.0}, [1, 2], B, y, train[:200], test[:50], None)
    print(f"{args.dataset} fold 0, GRAB ({args.loss}, top K {top_k}), max_terms {ks}")
    print(f"{'C':>7} {'alone s':>8} {'shared s':>9} {'ratio':>6} {'same scores':>12}")
    total_alone = total_shared = 0.0
    all_same = True
    for C in Cs:
        t_alone, alone = cpu(
            lambda C=C: [
                ex._fit_score(est, {"C": C, "max_terms": k}, B, y, train, test, None) for k in ks
            ]
        )
        t_shared, shared = cpu(ex._grab_fit_scores, est, {"C": C}, ks, B, y, train, test, None)
        same = [a["score"] for a in alone] == [s["score"] for s in shared["records"]]
        all_same &= same
        total_alone += t_alone
        total_shared += t_shared
        print(
            f"{C:>7g} {t_alone:>8.2f} {t_shared:>9.2f} "
            f"{ratio(t_alone, t_shared):>6.2f} {same!s:>12}"
        )
    print(
        f"{'all':>7} {total_alone:>8.2f} {total_shared:>9.2f} "
        f"{ratio(total_alone, total_shared):>6.2f} {all_same!s:>12}"
    )
    if not all_same:
        raise SystemExit("the shared first search changed a score")


if __name__ == "__main__":
    main()
