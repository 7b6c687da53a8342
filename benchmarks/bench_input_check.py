"""The input checks on a wide 0/1 table, column by column (former) against by dtype block.

    python benchmarks/bench_input_check.py [--dataset madelon] [--rows 1600]

Every learner checks a DataFrame once at fit and once at predict: that no column is
complex and, to take a 0/1 table as it is, that every column holds only 0 and 1. The former
checks made one pandas call per column, which on GRAB's cell design of Madelon (21,677
columns) took seconds per call, more than a GRAB fit at small C. The checks now read the
dtypes alone and test the columns of one NumPy dtype as one array. This script builds
notebook 05's cell design of ``--dataset`` (its training part, ``--rows`` rows), then in one
process, the former checks restored for the ``old`` runs:

1. times the checks alone, old and new, and confirms they agree (on the design, and on
   the design with one cell set to 2);
2. fits ``CBMClassifier(max_terms=1, C=0.1)`` and scores it on the test part, old and new,
   and confirms the predictions are identical.

It prints the CPU seconds of each and their ratio.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

import rulelab._base as base_module
import rulelab._validation as validation
import rulelab.grab.classifier as grab_classifier
from repro.grab.experiments import binarized_split
from rulelab.grab import CBMClassifier


def former_is_binary_frame(X: pd.DataFrame) -> bool:
    """The former check: one pandas call (or three) per column."""
    for col in X.columns:
        s = X[col]
        if s.dtype == bool:
            continue
        if not pd.api.types.is_numeric_dtype(s) or s.isna().any():
            return False
        if not s.isin((0, 1)).all():
            return False
    return True


def former_complex_check(frame: pd.DataFrame) -> None:
    """The former loop of ``check_frame``: one Series per column to read its dtype."""
    for col in frame.columns:
        validation.check_not_complex(col, frame[col])


class Former:
    """Restores the former checks inside the ``with`` block (``check_frame`` gets the former
    per-column loop on top of its dtype loop, which costs a small fraction of it)."""

    MODULES = (validation, base_module, grab_classifier)

    def __enter__(self):
        self.saved = validation.is_binary_frame, validation.check_frame

        def check_frame(X, _new=self.saved[1]):
            frame = _new(X)
            former_complex_check(frame)
            return frame

        for module in self.MODULES:
            module.is_binary_frame = former_is_binary_frame
            if hasattr(module, "check_frame"):
                module.check_frame = check_frame
        return self

    def __exit__(self, *exc):
        for module in self.MODULES:
            module.is_binary_frame = self.saved[0]
            if hasattr(module, "check_frame"):
                module.check_frame = self.saved[1]


def cpu(fn):
    start = time.process_time()
    out = fn()
    return time.process_time() - start, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="madelon")
    parser.add_argument("--rows", type=int, default=1600)
    args = parser.parse_args()
    B, y, Bt, yt = binarized_split(args.dataset, 0)
    B, y = B.iloc[: args.rows], y.iloc[: args.rows]
    print(f"{args.dataset}: {B.shape[0]} rows x {B.shape[1]} cells (0/1)")
    bad = B.copy()
    bad.iloc[0, -1] = 2
    t_old, old = cpu(lambda: former_is_binary_frame(B))
    t_new, new = cpu(lambda: validation.is_binary_frame(B))
    agree = old == new and former_is_binary_frame(bad) == validation.is_binary_frame(bad)
    print(
        f"  0/1 check alone:   old {t_old:6.2f} s   new {t_new:6.3f} s   "
        f"ratio {t_old / max(t_new, 1e-9):6.1f}x   same answers: {agree}"
    )

    def fit_score():
        model = CBMClassifier(max_terms=1, C=0.1).fit(B, y)
        return model.predict(Bt)

    fit_score()  # compile the numba kernels outside the timings
    with Former():
        t_old, p_old = cpu(fit_score)
    t_new, p_new = cpu(fit_score)
    same = np.array_equal(p_old, p_new)
    print(
        f"  GRAB fit + predict: old {t_old:6.2f} s   new {t_new:6.3f} s   "
        f"ratio {t_old / max(t_new, 1e-9):6.1f}x   same predictions: {same}"
    )
    if not (agree and same):
        raise SystemExit("the new checks disagree with the former ones")


if __name__ == "__main__":
    main()
