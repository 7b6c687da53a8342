"""The input checks on a wide 0/1 table: this tree against an older revision, side by side.

    python -m benchmarks.library.bench_input_check [--dataset madelon] [--rows 1600]
                                                   [--against REV]

Every learner checks a DataFrame once at fit and once at predict: that no column is
complex and, to take a 0/1 table as it is, that every column holds only 0 and 1. The checks
of ``--against`` (default 7613132, the last revision whose checks made one pandas call per
column, which on GRAB's cell design of Madelon, 21,677 columns, took seconds per call, more
than a GRAB fit at small C) are timed beside this tree's, which read the dtypes alone and
test the columns of one NumPy dtype as one array. This script builds notebook 05's cell
design of ``--dataset`` (its training part, ``--rows`` rows), then in one process:

1. times the 0/1 check alone, both revisions, and confirms they agree (on the design, and
   on the design with one cell set to 2);
2. fits ``CBMClassifier(max_terms=1, C=0.1)`` of each revision and scores it on the test
   part, and confirms the predictions are identical.

It prints the CPU seconds of each and their ratio.
"""

from __future__ import annotations

import argparse
import importlib
import tempfile
from pathlib import Path

import numpy as np

import rulelab._validation as validation
import rulelab.grab as grab
from benchmarks.timing import add_against, cpu, ratio, revision_package
from repro.grab.experiments import binarized_split


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="madelon")
    parser.add_argument("--rows", type=int, default=1600)
    add_against(parser, default="7613132")
    args = parser.parse_args()
    B, y, Bt, yt = binarized_split(args.dataset, 0)
    B, y = B.iloc[: args.rows], y.iloc[: args.rows]
    print(f"{args.dataset}: {B.shape[0]} rows x {B.shape[1]} cells (0/1), old = {args.against}")
    bad = B.copy()
    bad.iloc[0, -1] = 2
    with tempfile.TemporaryDirectory() as tmp:
        old_pkg = revision_package(args.against, Path(tmp))
        old_validation = importlib.import_module(old_pkg.__name__ + "._validation")
        old_grab = importlib.import_module(old_pkg.__name__ + ".grab")
        t_old, old = cpu(old_validation.is_binary_frame, B)
        t_new, new = cpu(validation.is_binary_frame, B)
        agree = old == new and (
            old_validation.is_binary_frame(bad) == validation.is_binary_frame(bad)
        )
        print(
            f"  0/1 check alone:   old {t_old:6.2f} s   new {t_new:6.3f} s   "
            f"ratio {ratio(t_old, t_new):6.1f}x   same answers: {agree}"
        )

        def fit_score(package):
            model = package.CBMClassifier(max_terms=1, C=0.1).fit(B, y)
            return model.predict(Bt)

        for package in (old_grab, grab):  # compile the numba kernels outside the timings
            package.CBMClassifier(max_terms=1, C=0.1).fit(B.iloc[:200], y.iloc[:200])
        t_old, p_old = cpu(fit_score, old_grab)
        t_new, p_new = cpu(fit_score, grab)
    same = np.array_equal(p_old, p_new)
    print(
        f"  GRAB fit + predict: old {t_old:6.2f} s   new {t_new:6.3f} s   "
        f"ratio {ratio(t_old, t_new):6.1f}x   same predictions: {same}"
    )
    if not (agree and same):
        raise SystemExit("the checks of this tree disagree with the older revision's")


if __name__ == "__main__":
    main()
