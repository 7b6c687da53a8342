"""The itemset engine's entry points on all of a1a: counting, expansion, WFIM, GRAB's top K.

Prints the CPU seconds of each call (best of ``--repeat``, after a warm-up that compiles
the kernels) and a checksum of its output, so that two revisions of the engine can be
compared call by call on one machine (run it in a worktree of each: benchmarks/README.md).

Run: ``python -m benchmarks.library.bench_itemsets [--degrees 3 4 5] [--repeat 3]``.
"""

from __future__ import annotations

import argparse

import numpy as np

from benchmarks.timing import best_of


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--degrees", type=int, nargs="+", default=[3, 4, 5])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    from repro.grab.experiments.experiments import load_a1a_all
    from rulelab.grab import ExhaustiveSearch, TopKMiner, count_itemsets, expand, wfim

    X, y = load_a1a_all()
    B = X.to_numpy(dtype=np.uint8)
    ypm = np.where(y.to_numpy() == 1, 1.0, -1.0)
    alpha = ypm * np.random.default_rng(0).uniform(0.05, 0.5, size=ypm.size)
    small = B[:300]
    count_itemsets(small, 2)
    expand(small, 2)
    wfim(small, alpha[:300], 1.0, 2, absolute=True)
    TopKMiner(small, 2, 10).top(alpha[:300], target=1.0)
    ExhaustiveSearch(small, 2, 10).search(alpha[:300])
    print(f"a1a: {B.shape[0]} rows, {B.shape[1]} items; CPU seconds, best of {args.repeat}")
    print(f"{'call':<34} {'k':>2} {'seconds':>8}  output")
    for k in args.degrees:
        calls = {
            "count_itemsets": lambda k=k: count_itemsets(B, k),
            "expand (occurrence lists)": lambda k=k: expand(B, k, flat=True)[0].nnz,
            "wfim theta=200": lambda k=k: round(
                float(np.abs(wfim(B, alpha, 200.0, k).values).sum()), 6
            ),
            "wfim |wfrq|>50": lambda k=k: round(
                float(np.abs(wfim(B, alpha, 50.0, k, absolute=True).values).sum()), 6
            ),
            "TopKMiner.top K=1000 (+measure)": lambda k=k: round(
                float(np.abs(TopKMiner(B, k, 1000).top(alpha, target=1e4)[0].values).sum()), 6
            ),
            "TopKMiner.reaches 1e4": lambda k=k: TopKMiner(B, k, 1000).reaches(alpha, None, 1e4),
        }
        if k <= 3:
            calls["ExhaustiveSearch"] = lambda k=k: len(ExhaustiveSearch(B, k, 10).search(alpha)[0])
        for name, fn in calls.items():
            t, out = best_of(fn, args.repeat, clock="cpu")
            print(f"{name:<34} {k:>2} {t:>8.3f}  {out}", flush=True)


if __name__ == "__main__":
    main()
