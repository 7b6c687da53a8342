"""Two-level rule fits of notebook 03 on Musk: this tree's rulelab against an earlier revision.

    python -m benchmarks.library.bench_twolevel_fit [--against REV] [--dataset musk2] [--fold 0]
                                                    [--methods bcd am] [--theta 0.01] [--rows 2000]

Notebook 03 tunes ``TwoLevelRules(form="dnf", max_rules=5, max_iter=10, n_thresholds=10)``
over ``complexity`` on a stratified subsample of 2,000 training rows and refits the chosen
value on the whole training fold (``repro.two_level.experiments.experiments.paper2_methods``). This script fits one
such estimator twice on the same rows of one outer training fold (``StratifiedKFold(10,
shuffle=True, random_state=0)``): once with the ``rulelab`` package of ``--against`` (a git
revision, extracted to a temporary directory and imported under another name; default
aa64c5d, the last before the row-major clause LPs) and once with this tree's. It prints the CPU seconds of each, their ratio and whether the learned
weights and the objective paths are identical (it exits with an error if they differ), and
how many of those seconds each spent inside HiGHS (passing the model and solving it): with
the LPs unchanged, that part is the floor of any change made around them.

``--rows 2000`` (default) is the size of the tuning subsample; ``--rows 0`` fits the whole
fold, as the refit does. Both packages are warmed up on a small fit first, so compiling
their kernels is not timed.
"""

from __future__ import annotations

import argparse
import importlib
import tempfile
import time
from pathlib import Path

import numpy as np
from sklearn.model_selection import StratifiedKFold, train_test_split

import rulelab
from benchmarks.timing import add_against, cpu, ratio, revision_package
from rulelab import load_dataset

TWO = dict(form="dnf", max_rules=5, max_iter=10, n_thresholds=10)


def rows_of_fold(name: str, fold: int, rows: int):
    """The training rows of one outer fold, or a stratified subsample of ``rows`` of them."""
    X, y = load_dataset(name)
    train, _ = list(StratifiedKFold(10, shuffle=True, random_state=0).split(X, y))[fold]
    X, y = X.iloc[train], y.iloc[train]
    if rows and len(y) > rows:
        X, _, y, _ = train_test_split(X, y, train_size=rows, stratify=np.asarray(y), random_state=0)
    return X, y


def count_solver_time(package) -> list:
    """Wrap the package's HiGHS call (model pass and simplex) to add up its CPU seconds: the
    part of a fit no change around the LPs can remove while the LPs stay the same."""
    lp = importlib.import_module(package.__name__ + ".lp")
    solve, spent = lp._solve_highs, [0.0]

    def timed(*args, **kwargs):
        start = time.process_time()
        try:
            return solve(*args, **kwargs)
        finally:
            spent[0] += time.process_time() - start

    lp._solve_highs = timed
    return spent


def timed_fit(package, method: str, theta: float, X, y, spent=None):
    """CPU seconds of one fit, the seconds inside HiGHS among them, and the fitted model."""
    model = package.TwoLevelRules(method=method, complexity=theta, **TWO)
    before = spent[0] if spent else 0.0
    seconds, _ = cpu(model.fit, X, y)
    return seconds, (spent[0] - before if spent else 0.0), model


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_against(parser, default="aa64c5d")
    parser.add_argument("--dataset", default="musk2")
    parser.add_argument("--fold", type=int, default=0)
    parser.add_argument("--methods", nargs="+", default=["bcd", "am"], choices=["bcd", "am"])
    parser.add_argument("--theta", type=float, default=0.01)
    parser.add_argument("--rows", type=int, default=2000, help="0: the whole training fold")
    args = parser.parse_args()
    X, y = rows_of_fold(args.dataset, args.fold, args.rows)
    with tempfile.TemporaryDirectory() as tmp:
        old_pkg = revision_package(args.against, Path(tmp))
        spent = {pkg: count_solver_time(pkg) for pkg in (old_pkg, rulelab)}
        for package in (old_pkg, rulelab):  # compile and load every kernel before timing
            timed_fit(package, "bcd", 1.0, X.iloc[::20], y.iloc[::20])
        print(
            f"{args.dataset} fold {args.fold}: {len(y)} rows, complexity = {args.theta},"
            f" old = {args.against}, new = this tree"
        )
        all_same = True
        for method in args.methods:
            t_old, h_old, old = timed_fit(old_pkg, method, args.theta, X, y, spent[old_pkg])
            t_new, h_new, new = timed_fit(rulelab, method, args.theta, X, y, spent[rulelab])
            same = np.array_equal(old.weights_, new.weights_) and (
                old.objective_path_ == new.objective_path_
            )
            all_same &= same
            print(
                f"  {method.upper():3s}  old {t_old:7.1f} s CPU ({old.n_lp_} LPs)"
                f"   new {t_new:7.1f} s CPU ({new.n_lp_} LPs)"
                f"   speed-up {ratio(t_old, t_new):5.2f}x   rules identical: {same}"
            )
            print(
                f"       in HiGHS  old {h_old:7.1f} s          new {h_new:7.1f} s"
                f"           outside HiGHS: old {t_old - h_old:5.1f} s, new {t_new - h_new:5.1f} s"
            )
    if not all_same:
        raise SystemExit("the fits differ")


if __name__ == "__main__":
    main()
