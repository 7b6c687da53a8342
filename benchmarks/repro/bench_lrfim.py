"""LRFIM's feature matrix: built from flat itemset arrays vs through Python tuples, side by side.

    python -m benchmarks.repro.bench_lrfim

LRFIM (paper 4's Table 1 baseline) mines every itemset of support >= 1 % and size <= 5 and
turns them into 0/1 columns, once per fit (35 fits per data set and split: 7 values of C
times 5 folds). The tuple route built a Python tuple per itemset and flattened them again;
the flat route hands the miner's ``(ptr, items)`` arrays to the column kernel. Prints the
seconds of both on german.numer's binarised training split (as Table 1 uses it), their
ratio, and whether the two matrices are equal.
"""

from __future__ import annotations

import argparse
import math

from benchmarks.timing import ratio, wall
from repro.grab.baselines import conjunction_matrix
from repro.grab.experiments import binarized_split
from rulelab.grab.wfim import frequent_itemsets, itemset_tuples


def main() -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    B, _, *_ = binarized_split("german.numer")
    minsup = max(1, math.ceil(0.01 * B.shape[0]))
    mined = frequent_itemsets(B, minsup, 5)
    flat = (mined.ptr, mined.cols)
    conjunction_matrix(B, flat)  # compile the column kernel outside the timings
    t_tuples, Z_tuples = wall(lambda: conjunction_matrix(B, itemset_tuples(*flat)))
    t_flat, Z_flat = wall(conjunction_matrix, B, flat)
    same = (Z_tuples != Z_flat).nnz == 0
    print(f"german.numer: {B.shape[0]} rows, {len(mined)} itemsets")
    print(f"{'tuples s':>9} {'flat s':>8} {'ratio':>7} {'same':>5}")
    print(f"{t_tuples:>9.3f} {t_flat:>8.3f} {ratio(t_tuples, t_flat):>7.1f} {same!s:>5}")


if __name__ == "__main__":
    main()
