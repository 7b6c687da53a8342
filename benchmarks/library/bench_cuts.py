"""Refined cut points against the binariser's grid: out-of-sample error and rule size.

``ColumnGenerationRules`` learns its rule set over quantile cut points and then, with
``refine_cuts=True``, moves each threshold to the best cut among the training values
(:func:`rulelab.cuts.refine_cuts`). One fit gives both rule sets: ``grid_rules_`` is the
rule set on the grid (what ``refine_cuts=False`` returns), ``rules_`` the refined one. Printed
side by side:

1. the planted three-clause DNF of ``bench_scale`` (thresholds off the grid, 5 % label
   noise, so the best test error is 0.05) at a few training sizes, tested on 100,000 fresh
   rows: error, rules, terms, and both rule sets;
2. notebook 07's eleven data sets on its folds (stratified 10-fold, shuffled with seed 0;
   ``ColumnGenerationRules(random_state=0)``): mean test error, rules and terms per data
   set, and over all folds the mean, the folds where refining lowers / raises the error.

Run: ``python -m benchmarks.library.bench_cuts [--sizes 10000 100000] [--datasets ...] [--folds 10]
[--n-jobs 1] [--skip-planted] [--skip-benchmark] [--out folds.csv]``.
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from sklearn.model_selection import StratifiedKFold

from benchmarks.library.bench_scale import N_TEST, planted
from benchmarks.timing import wall
from repro.benchmark.parameters import PARAMETERS
from rulelab import ColumnGenerationRules, load_dataset

# notebook 07's eleven binary sets, as its parameters declare them
DATASETS = PARAMETERS["ALL_DATASETS"].default


def _size(rules) -> tuple[int, int]:
    return len(rules.clauses), rules.n_terms


def planted_rows(sizes) -> None:
    X_te, y_te = planted(N_TEST, seed=1)
    print(f"1. planted DNF, 5 % label noise, test on {N_TEST:,} fresh rows (floor 0.05)")
    print(
        f"{'rows':>9} {'grid error':>11} {'refined':>8} {'grid rules/terms':>17} "
        f"{'refined':>8} {'fit (s)':>8}"
    )
    for n in sizes:
        X, y = planted(n, seed=n)
        seconds, model = wall(ColumnGenerationRules(random_state=0, refine_cuts=True).fit, X, y)
        grid = np.mean(model.grid_rules_.evaluate(X_te) != y_te)
        refined = np.mean(model.predict(X_te) != y_te)
        g, r = _size(model.grid_rules_), _size(model.rules_)
        print(
            f"{n:>9,} {grid:11.4f} {refined:8.4f} {g[0]:>9d} / {g[1]:<5d} "
            f"{r[0]:>3d} / {r[1]:<3d} {seconds:8.1f}"
        )
        print("   grid:    " + str(model.grid_rules_).replace("\n", "\n            "))
        print("   refined: " + str(model.rules_).replace("\n", "\n            "))


def _fold(dataset: str, fold: int, train, test, X, y) -> dict:
    model = ColumnGenerationRules(random_state=0, refine_cuts=True)
    seconds, _ = wall(model.fit, X.iloc[train], y.iloc[train])
    truth = y.iloc[test].to_numpy() == model.classes_[1]
    X_te = X.iloc[test]
    row = {"dataset": dataset, "fold": fold, "fit_time": seconds}
    for name, rules in (("grid", model.grid_rules_), ("refined", model.rules_)):
        row[f"{name}_error"] = float(np.mean(rules.evaluate(X_te) != truth))
        row[f"{name}_rules"], row[f"{name}_terms"] = _size(rules)
    return row


def benchmark_rows(datasets, folds: int, n_jobs: int, out: str | None) -> None:
    tasks = []
    for dataset in datasets:
        X, y = load_dataset(dataset)
        splits = list(StratifiedKFold(10, shuffle=True, random_state=0).split(X, y))[:folds]
        tasks += [(dataset, k, tr, te, X, y) for k, (tr, te) in enumerate(splits)]
    rows = Parallel(n_jobs=n_jobs)(delayed(_fold)(*t) for t in tasks)
    table = pd.DataFrame(rows)
    if out:
        table.to_csv(out, index=False)
    print(f"\n2. notebook 07's data sets, {folds} of its 10 folds each: mean over folds")
    cols = [
        "grid_error",
        "refined_error",
        "grid_rules",
        "refined_rules",
        "grid_terms",
        "refined_terms",
        "fit_time",
    ]
    per = table.groupby("dataset", sort=False)[cols].mean()
    with pd.option_context(
        "display.precision", 4, "display.width", 160, "display.max_columns", None
    ):
        print(per)
    diff = table["refined_error"] - table["grid_error"]
    se = diff.std(ddof=1) / np.sqrt(len(diff)) if len(diff) > 1 else float("nan")
    print(
        f"all {len(table)} folds: error {table['grid_error'].mean():.4f} on the grid, "
        f"{table['refined_error'].mean():.4f} refined (difference {diff.mean():+.4f} "
        f"± {se:.4f} SE); refining lowers it on {(diff < 0).sum()} folds, raises it on "
        f"{(diff > 0).sum()}; rules {table['grid_rules'].mean():.2f} -> "
        f"{table['refined_rules'].mean():.2f}, terms {table['grid_terms'].mean():.2f} -> "
        f"{table['refined_terms'].mean():.2f}"
    )
    wins = (per["refined_error"] < per["grid_error"]).sum()
    losses = (per["refined_error"] > per["grid_error"]).sum()
    print(
        f"data sets: refined lower on {wins}, higher on {losses}, equal on "
        f"{len(per) - wins - losses}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--datasets", nargs="+", default=DATASETS)
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--skip-planted", action="store_true")
    parser.add_argument("--skip-benchmark", action="store_true")
    parser.add_argument("--out", default=None, help="write the per-fold table to this CSV")
    args = parser.parse_args()
    if not args.skip_planted:
        planted_rows(args.sizes)
    if not args.skip_benchmark:
        benchmark_rows(args.datasets, args.folds, args.n_jobs, args.out)


if __name__ == "__main__":
    main()
