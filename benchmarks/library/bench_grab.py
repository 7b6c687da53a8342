"""GRAB vs Expansion + LIBLINEAR on all of a1a (32,561 rows), logistic loss, C = 1.

Prints, for k = 1..6, the CPU seconds of both methods measured side by side in one run
(``time.process_time``: both are single-threaded, and CPU time is not inflated by other
jobs on a shared machine), their ratio, and the objective each reached (both solve eq. (2);
GRAB stops at V^t < 1e-2 V^0, LIBLINEAR at its own default 1e-2 criterion), then GRAB with
k = None (every conjunction). With several ``--top-k`` values GRAB runs once per K against
the same LIBLINEAR fit (K trades iterations against features added per iteration; V^0, and
so the stopping point, depends on K through the first search's dynamic threshold).

    python -m benchmarks.library.bench_grab [--degrees 1 2 3 4 5 6] [--C 1] [--top-k 1000 1500]
                                            [--no-unbounded] [--liblinear-limit SECONDS]

The expansion of a degree is skipped (reported as such) when the previous degree's
expansion + fit took longer than --liblinear-limit seconds.
"""

from __future__ import annotations

import argparse
import os

import numpy as np

from benchmarks.timing import cpu, ratio

os.environ.setdefault("OMP_NUM_THREADS", "1")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--degrees", type=int, nargs="+", default=[1, 2, 3, 4, 5, 6])
    ap.add_argument("--C", type=float, default=1.0)
    ap.add_argument("--top-k", type=int, nargs="+", default=[1000, 1500])
    ap.add_argument("--tol", type=float, default=1e-2)
    ap.add_argument("--no-unbounded", action="store_true")
    ap.add_argument("--liblinear-limit", type=float, default=3600.0)
    args = ap.parse_args()

    from repro.grab.experiments.baselines import ExpansionLinear
    from repro.grab.experiments.experiments import load_a1a_all, warm_up
    from rulelab.grab import count_itemsets, graft

    X, y = load_a1a_all()
    B = X.to_numpy(dtype=np.uint8)
    ypm = np.where(y.to_numpy() == 1, 1.0, -1.0)
    warm_up(B, ypm, methods=("GRAB", "LIBLINEAR"), top_k=args.top_k[0])
    print(
        f"a1a: {B.shape[0]} rows, {B.shape[1]} attributes, C = {args.C}, "
        f"top-K = {args.top_k}, eps = {args.tol}"
    )
    print(
        f"{'k':>4} {'|Phi| occurring':>16} {'K':>5} {'GRAB s':>7} {'LIBLINEAR s':>12} {'ratio':>7} "
        f"{'G(GRAB)':>11} {'G(LIBLINEAR)':>13} {'nz GRAB':>8} {'nz LIB':>7}"
    )
    skip = False
    for k in args.degrees:
        n_phi = count_itemsets(B, k)
        grab = []
        for K in args.top_k:
            t_grab, res = cpu(graft, B, ypm, C=args.C, max_size=k, tol=args.tol, top_k=K)
            grab.append((K, t_grab, res))
        if skip:
            t_lib, g_lib, nz_lib = float("nan"), float("nan"), "-"
        else:
            t_lib, est = cpu(ExpansionLinear(degree=k, C=args.C, tol=args.tol).fit, B, ypm)
            g_lib, nz_lib = est.objective_, len(est.coef_)
            skip = t_lib > args.liblinear_limit
        for K, t_grab, res in grab:
            print(
                f"{k:>4} {n_phi:>16,} {K:>5} {t_grab:>7.1f} {t_lib:>12.1f} "
                f"{ratio(t_lib, t_grab):>6.1f}x {res.objective:>11.1f} {g_lib:>13.1f} "
                f"{np.count_nonzero(res.coef):>8} {nz_lib:>7}",
                flush=True,
            )
    if not args.no_unbounded:
        t, res = cpu(graft, B, ypm, C=args.C, max_size=None, tol=args.tol, top_k=args.top_k[0])
        print(
            f"k = None (all conjunctions), K = {args.top_k[0]}: GRAB {t:.1f} s, "
            f"{res.n_iter} iterations, "
            f"{np.count_nonzero(res.coef)} non-zero weights, G = {res.objective:.1f}, "
            f"converged = {res.converged}"
        )


if __name__ == "__main__":
    main()
