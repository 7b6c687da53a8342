"""Notebook 03's tuned two-level fits, clause LPs re-costed on a kept HiGHS model, against a revision.

    python -m benchmarks.library.bench_twolevel_kept [--against REV] [--datasets musk2]
                                                     [--fold 0] [--methods bcd am]

Notebook 03 fits BCD and AM on every outer training fold as
``ThetaSearchCV(TwoLevelRules(form="dnf", max_rules=5, max_iter=10, n_thresholds=10),
{"complexity": [0.01, 0.1, 1, 10]}, cv=3)``, on MAGIC and Musk tuned on a stratified
subsample of 2,000 rows (``repro.two_level.experiments.paper2_methods``), then refitted on
the whole fold. This script runs that fit on one outer fold (``StratifiedKFold(10,
shuffle=True, random_state=0)``) twice in one process: with the ``rulelab`` of
``--against`` (default 6a6877e, the last revision that passed every clause LP to a new
HiGHS model) and with this tree's, which re-costs an LP on the previous LP's model when
its matrix and bounds are the same (:class:`rulelab._highs.KeptModel`).

It prints the CPU seconds of each, their ratio, how many clause LPs the new path
re-costed, and whether the two fits are the same: the chosen complexity, the inner CV's
scores, the refitted weights and objective path, the printed rule and the test error
(it exits with an error if anything differs). Both packages are warmed up on a small fit
first, so compiling their kernels is not timed.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np
from sklearn.model_selection import StratifiedKFold

import rulelab
import rulelab._highs
from benchmarks.timing import add_against, cpu, ratio, revision_package
from repro.two_level.experiments import LARGE_DATASETS
from repro.two_level.theta_search import ThetaSearchCV
from rulelab import load_dataset

TWO = dict(form="dnf", max_rules=5, max_iter=10, n_thresholds=10)
GRID = [0.01, 0.1, 1.0, 10.0]


def count_reuse() -> list:
    """Count the LPs this tree's clause solves re-costed on a kept model (hits) and passed."""
    seen, original = [0, 0], rulelab._highs.KeptModel.model

    def model(self, structure):
        h = original(self, structure)
        seen[h is None] += 1
        return h

    rulelab._highs.KeptModel.model = model
    return seen


def tuned(package, method: str, dataset: str) -> ThetaSearchCV:
    """Notebook 03's FULL-run estimator for ``method`` on ``dataset``, from ``package``."""
    return ThetaSearchCV(
        package.TwoLevelRules(method=method, **TWO),
        {"complexity": GRID},
        cv=3,
        max_samples=2000 if dataset in LARGE_DATASETS else None,
        random_state=0,
    )


def summary(search: ThetaSearchCV, X_test, y_test) -> tuple:
    """What must be equal between the two fits."""
    best = search.best_estimator_
    return (
        search.best_params_,
        tuple(np.round(search.cv_results_["mean_test_score"], 12)),
        best.weights_.tobytes(),
        tuple(best.objective_path_),
        str(best),
        float(np.mean(search.predict(X_test) != y_test.to_numpy())),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_against(parser, default="6a6877e")
    parser.add_argument("--datasets", nargs="+", default=["musk2"])
    parser.add_argument("--fold", type=int, default=0)
    parser.add_argument("--methods", nargs="+", default=["bcd", "am"], choices=["bcd", "am"])
    args = parser.parse_args()
    seen = count_reuse()
    all_same = True
    with tempfile.TemporaryDirectory() as tmp:
        old_pkg = revision_package(args.against, Path(tmp))
        X, y = load_dataset("sonar")
        for package in (old_pkg, rulelab):  # compile and load every kernel before timing
            package.TwoLevelRules(method="bcd", **TWO).fit(X, y)
        print(f"old = {args.against}, new = this tree, fold {args.fold}")
        for dataset in args.datasets:
            X, y = load_dataset(dataset)
            split = StratifiedKFold(10, shuffle=True, random_state=0).split(X, y)
            train, test = list(split)[args.fold]
            fold = (X.iloc[train], y.iloc[train])
            for method in args.methods:
                t_old, old = cpu(tuned(old_pkg, method, dataset).fit, *fold)
                seen[:] = [0, 0]
                t_new, new = cpu(tuned(rulelab, method, dataset).fit, *fold)
                same = summary(old, X.iloc[test], y.iloc[test]) == summary(
                    new, X.iloc[test], y.iloc[test]
                )
                all_same &= same
                print(
                    f"  {dataset:10s} {method.upper():3s}  old {t_old:7.1f} s CPU"
                    f"   new {t_new:7.1f} s CPU   speed-up {ratio(t_old, t_new):5.2f}x"
                    f"   LPs re-costed {seen[0]} of {sum(seen)}   same fit: {same}"
                )
    if not all_same:
        raise SystemExit("the fits differ")


if __name__ == "__main__":
    main()
