"""GRAB over Table 1's C grid: one cold fit per C (as before) vs one warm-started path.

On fold 0 of Table 1's 5-fold split of a data set's training part (``repro.grab.experiments.experiments``'s
binarisation, seed 0), for C = 10^-3..10^3 ascending and each ``--degrees`` value (0 for
unbounded), prints per C: the objective G of the cold and of the warm fit and their
relative difference, the certified bound on that difference, the validation accuracy of
both, their numbers of conjunctions and CPU seconds; then the total time ratio.

Both fits solve the same problem and stop at the same rule, V^t < eps V^0 with the same
V^0 (measured at w = 0), so neither is the exact optimum: each is within its duality gap
of min G (``rulelab.grab.grafting.duality_gap``, one exact top-1 search, not timed), and so
``|G_cold - G_warm| <= max(gap_cold, gap_warm)``; the ``bound`` column is that maximum
relative to G_cold. Where the accuracies differ, it is two points of that tolerance band.

    python -m benchmarks.library.bench_grab_path [--dataset madelon] [--degrees 2 0]
                                                 [--loss logistic] [--tol 1e-2]
"""

from __future__ import annotations

import argparse
import os

import numpy as np

from benchmarks.timing import cpu, ratio

os.environ.setdefault("OMP_NUM_THREADS", "1")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dataset", default="madelon")
    ap.add_argument("--degrees", type=int, nargs="+", default=[2, 0])
    ap.add_argument("--loss", default="logistic")
    ap.add_argument("--fold", type=int, default=0)
    ap.add_argument("--tol", type=float, default=1e-2)
    args = ap.parse_args()

    from sklearn.model_selection import StratifiedKFold

    from repro.grab.experiments.experiments import binarized_split
    from rulelab.grab import CBMClassifier
    from rulelab.grab.grafting import duality_gap

    B, y, _, _ = binarized_split(args.dataset, 0)
    splits = list(StratifiedKFold(5, shuffle=True, random_state=0).split(B, y))
    tr, te = splits[args.fold]
    Xtr, ytr, Xte, yte = B.iloc[tr], y.iloc[tr], B.iloc[te], y.iloc[te]
    Btr = Xtr.to_numpy(dtype=np.uint8)
    Cs = [10.0**e for e in range(-3, 4)]
    CBMClassifier(C=1.0).fit(Xtr.iloc[:300], ytr.iloc[:300])  # compile the kernels

    def gap(model, k):
        ypm = np.where(ytr.to_numpy() == model.classes_[1], 1.0, -1.0)
        G = model.objective_
        return duality_gap(
            Btr, ypm, model.result_.margins, G, C=model.C, loss=args.loss, max_size=k
        )

    print(
        f"{args.dataset} fold {args.fold}: {len(tr)} training rows, {B.shape[1]} binary cells, "
        f"loss {args.loss}, tol {args.tol:g}, top-K 100"
    )
    for k in args.degrees:
        k = None if k == 0 else k
        print(f"\nmax_terms = {k}")
        print(
            f"{'C':>7} {'G cold':>11} {'G warm':>11} {'rel diff':>9} {'bound':>8} "
            f"{'acc cold':>8} {'acc warm':>8} {'nz cold':>7} {'nz warm':>7} "
            f"{'s cold':>7} {'s warm':>7}"
        )
        warm = CBMClassifier(max_terms=k, loss=args.loss, tol=args.tol, warm_start=True)
        tot_c = tot_w = 0.0
        for C in Cs:
            cold = CBMClassifier(max_terms=k, loss=args.loss, tol=args.tol, C=C)
            s_c, _ = cpu(cold.fit, Xtr, ytr)
            warm.set_params(C=C)
            s_w, _ = cpu(warm.fit, Xtr, ytr)
            tot_c += s_c
            tot_w += s_w
            Gc, Gw = cold.objective_, warm.objective_
            bound = max(gap(cold, k), gap(warm, k)) / Gc
            print(
                f"{C:7g} {Gc:11.5g} {Gw:11.5g} {(Gw - Gc) / Gc:+9.2e} {bound:8.2e} "
                f"{cold.score(Xte, yte):8.4f} {warm.score(Xte, yte):8.4f} "
                f"{len(cold.coef_):7d} {len(warm.coef_):7d} {s_c:7.2f} {s_w:7.2f}",
                flush=True,
            )
        print(
            f"total CPU s: cold {tot_c:.1f}, warm path {tot_w:.1f}, ratio {ratio(tot_c, tot_w):.2f}x"
        )


if __name__ == "__main__":
    main()
