"""GRAB's Table 1 fits on one Madelon fold: an earlier revision's itemset search against this
tree's, side by side.

    python -m benchmarks.library.bench_grab_search_walk [--against REV] [--dataset madelon]
                                    [--fold 0] [--fits logistic:3:1 logistic:0:10 ...]
                                    [--top-k 1000]

Notebook 05's Table 1 fits ``CBMClassifier(top_k=1000, loss, max_terms=k, C)`` on every
(k, C) of its grid and each of 5 folds; on Madelon (21,677 binarised cells) nearly all of a
fit is the top-K itemset search. This script fits the given (loss, k, C) on the training
part of one fold of ``repro.grab.experiments.binarized_split`` (``StratifiedKFold(5, shuffle=True,
random_state=0)``), once with the ``rulelab`` package of ``--against`` (a git revision,
extracted to a temporary directory and imported under another name; default 8aeff47, the
last before the walk skipped children that can do nothing) and once with this tree's, and prints the CPU seconds of each, their ratio and whether the coefficients,
conjunctions and intercept are identical (it exits with an error if any differ). k = 0
stands for no bound on the size of a conjunction. Both packages are warmed up on a small
fit first, so compiling their kernels is not timed.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

from benchmarks.timing import add_against, cpu, ratio, revision_package

os.environ.setdefault("OMP_NUM_THREADS", "1")

DEFAULT_FITS = ["logistic:3:1", "logistic:0:10", "l2hinge:0:1", "logistic:2:1"]


def parse_fit(text: str) -> tuple[str, int | None, float]:
    """``loss:k:C`` -> (loss, max_terms or None for k = 0, C)."""
    try:
        loss, k, C = text.split(":")
        return loss, (int(k) or None), float(C)
    except ValueError:
        message = f"a fit is loss:k:C, e.g. logistic:3:1, not {text!r}"
        raise argparse.ArgumentTypeError(message) from None


def timed_fit(package, loss, k, C, X, y, top_k):
    """CPU seconds of one fit and the fitted model."""
    model = package.grab.CBMClassifier(top_k=top_k, loss=loss, max_terms=k, C=C)
    seconds, _ = cpu(model.fit, X, y)
    return seconds, model


def same_model(a, b) -> bool:
    return (
        np.array_equal(a.coef_, b.coef_)
        and a.itemsets_ == b.itemsets_
        and np.array_equal(np.asarray(a.intercept_), np.asarray(b.intercept_))
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_against(parser, default="8aeff47")
    parser.add_argument("--dataset", default="madelon")
    parser.add_argument("--fold", type=int, default=0)
    parser.add_argument(
        "--fits", nargs="+", type=parse_fit, default=[parse_fit(f) for f in DEFAULT_FITS]
    )
    parser.add_argument("--top-k", type=int, default=1000, help="K (notebook 05: 1000)")
    args = parser.parse_args()

    from sklearn.model_selection import StratifiedKFold

    import rulelab
    import rulelab.grab
    from repro.grab.experiments import binarized_split

    B, y, _, _ = binarized_split(args.dataset, 0)
    train, _ = list(StratifiedKFold(5, shuffle=True, random_state=0).split(B, y))[args.fold]
    X, y = B.iloc[train], y.iloc[train]
    with tempfile.TemporaryDirectory() as tmp:
        old_pkg = revision_package(args.against, Path(tmp))
        __import__(old_pkg.__name__ + ".grab")
        for package in (old_pkg, rulelab):  # compile and load every kernel before timing
            timed_fit(package, "logistic", 3, 1.0, X.iloc[:300], y.iloc[:300], args.top_k)
        print(
            f"{args.dataset} fold {args.fold}: {len(y)} training rows, {X.shape[1]} cells, "
            f"top-K {args.top_k}, old = {args.against}, new = this tree"
        )
        print(f"{'loss':>9} {'k':>5} {'C':>7} {'old s':>8} {'new s':>8} {'ratio':>6} {'same':>5}")
        all_same, t_old_all, t_new_all = True, 0.0, 0.0
        for loss, k, C in args.fits:
            t_old, old = timed_fit(old_pkg, loss, k, C, X, y, args.top_k)
            t_new, new = timed_fit(rulelab, loss, k, C, X, y, args.top_k)
            same = same_model(old, new)
            all_same &= same
            t_old_all += t_old
            t_new_all += t_new
            print(
                f"{loss:>9} {k!s:>5} {C:>7g} {t_old:>8.2f} {t_new:>8.2f} "
                f"{ratio(t_old, t_new):>6.2f} {same!s:>5}"
            )
        print(
            f"all fits: {t_old_all:.1f} s old, {t_new_all:.1f} s new, {ratio(t_old_all, t_new_all):.2f}x"
        )
    if not all_same:
        print("the fitted models differ", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
