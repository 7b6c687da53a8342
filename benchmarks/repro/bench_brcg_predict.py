"""BRCG's predictions: aix360's own ``predict`` against the benchmark adapter's.

aix360's ``BooleanRuleCG.predict`` multiplies the binarised rows by every conjunction column
generation produced (the singletons it starts from and every one it added) in integer
arithmetic; only the conjunctions of the final rule set decide. The adapter
(``repro.peers.learners.learners.BRCGClassifier``) multiplies by those alone, in floating point. One BRCG fit on
fold 0 of notebook 07's folds (stratified 10-fold, shuffled with seed 0), then both
predictions on the fold's training rows, side by side: seconds, the ratio, and whether the
two agree on every row (the adapter's time includes binarising the rows again).

Run: ``python -m benchmarks.repro.bench_brcg_predict [--dataset ionosphere] [--repeats 3]``
(``--dataset musk2`` is the case that made notebook 07 slow: about 3,900 conjunctions).
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np
from sklearn.model_selection import StratifiedKFold

from benchmarks.timing import best_of, ratio
from rulelab import load_dataset


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="ionosphere")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    from repro.peers.learners.learners import BRCGClassifier

    X, y = load_dataset(args.dataset)
    train, _ = next(StratifiedKFold(10, shuffle=True, random_state=0).split(X, y))
    X_tr, y_tr = X.iloc[train].reset_index(drop=True), y.iloc[train]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = BRCGClassifier().fit(X_tr, y_tr)
        Xb = model.pipeline_[:-1].transform(X_tr)
        old_s, old = best_of(lambda: model.model_.predict(Xb), args.repeats)
        new_s, new = best_of(lambda: model._predict01(X_tr), args.repeats)
        old, new = np.asarray(old).astype(int), np.asarray(new).astype(int)
    z = model.model_.z
    print(
        f"{args.dataset}, fold 0: {len(X_tr):,} training rows x {Xb.shape[1]:,} binary "
        f"features; {z.shape[1]:,} conjunctions generated, {int(np.sum(model.model_.w > 0))} "
        f"selected (best of {args.repeats})"
    )
    print(f"aix360 predict (every conjunction, integer):          {old_s:9.3f} s")
    print(f"adapter predict (selected ones, float, binarising): {new_s:9.3f} s")
    print(
        f"ratio: {ratio(old_s, new_s):.1f}x; same predictions on every row: {np.array_equal(old, new)}"
    )


if __name__ == "__main__":
    main()
