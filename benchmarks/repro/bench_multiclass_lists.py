"""Column generation's rule list on many classes against RIPPER (Weka's JRip) and CART.

For each multiclass set of notebook 07 (:data:`repro.benchmark.multiclass.MULTICLASS_SETS`:
iris, wine, digits, the gas data, Breiman's LED digits and a planted rule list), on the same
stratified folds (shuffled with seed 0): the test error of ``ColumnGenerationRules()`` at its
defaults (classes in the order of difficulty), of the same with RIPPER's order of frequency
(``CG-frequency``), of JRip and of CART (``min_samples_leaf=5``), each with its SE over the
folds, CG's error minus JRip's and minus CG-frequency's, paired over the folds with its SE, the rules each learns (a list's
default and a tree's root not counted as rules; a tree's leaves are its rules) and the fit
time summed over the folds. An accuracy benchmark: the errors are the result, the times
are one run's.

Run: ``python -m benchmarks.repro.bench_multiclass_lists [--datasets iris led ...]
[--folds 5] [--out folds.csv]``.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold
from sklearn.tree import DecisionTreeClassifier

from repro.benchmark.multiclass import MULTICLASS_SETS, load_multiclass
from repro.peers.jrip import make_ripper
from rulelab import ColumnGenerationRules

METHODS = {
    "CG": lambda: ColumnGenerationRules(random_state=0),
    "CG-frequency": lambda: ColumnGenerationRules(random_state=0, class_order="frequency"),
    "JRip": lambda: make_ripper(),
    "CART": lambda: DecisionTreeClassifier(min_samples_leaf=5, random_state=0),
}


def _rules(model) -> float:
    if hasattr(model, "get_n_leaves"):
        return float(model.get_n_leaves())
    if hasattr(model, "complexity_"):  # JRip: its rules, the default not counted
        return float(model.complexity_()[0])
    return float(len(model.rules_.clauses))


def run(datasets, folds: int) -> pd.DataFrame:
    rows = []
    for name in datasets:
        X, y = load_multiclass(name)
        split = StratifiedKFold(folds, shuffle=True, random_state=0).split(X, y)
        for fold, (train, test) in enumerate(split):
            X_tr, y_tr = X.iloc[train].reset_index(drop=True), y.iloc[train].reset_index(drop=True)
            X_te, y_te = X.iloc[test].reset_index(drop=True), y.iloc[test].to_numpy()
            for method, make in METHODS.items():
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    start = time.perf_counter()
                    model = make().fit(X_tr, y_tr)
                    seconds = time.perf_counter() - start
                error = float(np.mean(model.predict(X_te) != y_te))
                rows.append(
                    {
                        "dataset": name,
                        "fold": fold,
                        "method": method,
                        "error": error,
                        "rules": _rules(model),
                        "fit_time": seconds,
                    }
                )
            shown = rows[-len(METHODS) :]
            print(name, fold, {r["method"]: round(r["error"], 3) for r in shown}, flush=True)
    return pd.DataFrame(rows)


def summary(folds: pd.DataFrame) -> pd.DataFrame:
    """Per set: each method's mean error (SE), rules and time; CG minus JRip and minus
    CG-frequency, paired."""
    out = []
    for name, part in folds.groupby("dataset", sort=False):
        wide = part.pivot(index="fold", columns="method", values="error")
        row = {"dataset": name}
        for method in METHODS:
            e = wide[method]
            row[f"{method} error"] = f"{e.mean():.3f} ± {e.std(ddof=1) / np.sqrt(len(e)):.3f}"
            mine = part[part.method == method]
            row[f"{method} rules"] = round(float(mine.rules.mean()), 1)
            row[f"{method} s"] = round(float(mine.fit_time.sum()), 1)
        for other in ("JRip", "CG-frequency"):
            d = wide["CG"] - wide[other]
            row[f"CG - {other}"] = f"{d.mean():+.3f} ± {d.std(ddof=1) / np.sqrt(len(d)):.3f}"
        out.append(row)
    return pd.DataFrame(out).set_index("dataset")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--datasets", nargs="+", default=list(MULTICLASS_SETS))
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--out", default=None, help="write the per-fold table to this CSV")
    args = parser.parse_args()
    folds = run(args.datasets, args.folds)
    if args.out:
        folds.to_csv(args.out, index=False)
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print(summary(folds))


if __name__ == "__main__":
    main()
