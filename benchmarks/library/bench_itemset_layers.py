"""The itemset engine's two measurements on column generation's data, on one enumeration.

Pricing searches weighted bitsets (:func:`rulelab.itemsets.lowest_cost_search`) while GRAB
searches conditional databases (:func:`rulelab.itemsets.traverse`). This prints both
running the same exhaustive search (every itemset of at most ``k`` items that covers a
row, no pruning) on binarised columns of notebook 07's first fold, and the ratio, so that
the cost of serving pricing from the conditional-database traversal is measured rather
than guessed: binarised numeric columns are dense (about half the rows per item), where
one AND and popcount measures 64 rows and a database scan reads one entry per row.

Run: ``python -m benchmarks.library.bench_itemset_layers [--cases musk2:400:2 magic:200:3]``
(``data set:first columns:k``).
"""

from __future__ import annotations

import argparse
import math

import numpy as np
import scipy.sparse as sp

from benchmarks.timing import cpu, ratio
from repro.column_generation.experiments import _fold
from rulelab import FeatureBinarizer
from rulelab.itemsets import (
    THRESHOLD,
    lowest_cost_search,
    measure_root,
    pack_rows,
    traverse,
    weighted_layout,
)


def bitset_search(A, k):
    """Every itemset by the bitset search: no pruning (the heap never fills, tau = inf)."""
    n, m = A.shape
    cost = np.ones(n)
    order, layout, opw, onw = weighted_layout(np.arange(n), np.zeros(n), cost)
    bits = pack_rows(A, order)
    root = measure_root(bits, layout, opw, onw)
    cap = sum(math.comb(m, s) for s in range(1, k + 1))  # room for every itemset
    heap = (np.full(cap, np.inf), np.zeros((cap, k), np.int64), np.zeros(cap, np.int64))
    n_held = np.zeros(1, np.int64)
    nodes, _ = lowest_cost_search(
        bits, layout, opw, onw, root, 0, m, k, 0.0, 0.0, np.inf, *heap, n_held, 2**62, False
    )
    return int(n_held[0])


def database_search(A, k):
    """Every itemset by the conditional-database traversal (test mode 2: exhaustive)."""
    S = sp.csr_matrix(A)
    S.sort_indices()
    n, m = A.shape
    codes = np.random.default_rng(0).integers(1, 2**63, size=m, dtype=np.uint64)
    res = traverse(
        S.indptr.astype(np.int64),
        S.indices.astype(np.int32),
        np.zeros(n),
        np.ones(n),
        m,
        -1.0,
        k,
        2,
        THRESHOLD,
        0,
        0,
        False,
        False,
        codes,
        np.zeros(0, np.uint64),
        0.0,
    )
    return int(res[0]) - 1  # the empty itemset is an output too


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", nargs="+", default=["musk2:400:2", "musk2:120:3", "magic:200:3"])
    args = ap.parse_args()
    small = np.random.default_rng(0).random((100, 10)) < 0.5
    bitset_search(small.astype(np.uint8), 2)  # compile both before timing
    database_search(small.astype(np.uint8), 2)
    print(
        f"{'case':<14} {'rows':>6} {'density':>7} {'bitsets s':>9} {'database s':>10} {'ratio':>6}"
    )
    for case in args.cases:
        name, cols, k = case.split(":")
        X = _fold(name, None)[0]
        A = np.ascontiguousarray(FeatureBinarizer().fit_transform(X)[:, : int(cols)], np.uint8)
        t_bits, n_bits = cpu(bitset_search, A, int(k))
        t_db, n_db = cpu(database_search, A, int(k))
        # the bitset search skips an itemset whose cover equals its parent's
        assert n_bits <= n_db
        print(
            f"{case:<14} {A.shape[0]:>6} {A.mean():>7.3f} {t_bits:>9.3f} {t_db:>10.3f} "
            f"{ratio(t_db, t_bits):>5.0f}x",
            flush=True,
        )


if __name__ == "__main__":
    main()
