"""Table 1's polynomial SVC with libsvm's kernel cache at its default (200 MB) and at
PolySVC's (2,000 MB), side by side on the same fold.

On the first inner fold of Table 1's ijcnn1 run (10,000 training rows kept, 8,000 in the
fold; 590 cells, so libsvm computes the kernel itself), fits ``PolySVC`` with both cache
sizes for a few (degree, gamma, C) of the paper's grid, and prints the CPU seconds of each,
their ratio, and whether the two models are the same (support vectors, dual coefficients,
intercept and test predictions, exactly).

    python -m benchmarks.repro.bench_svc_cache [--dataset ijcnn1] [--rows 10000]
        [--combos 1,1,1000 1,0.4,10 3,1,1 3,0.1,1000]
"""

from __future__ import annotations

import argparse
import os
import warnings

import numpy as np

from benchmarks.timing import cpu, ratio

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dataset", default="ijcnn1")
    ap.add_argument("--rows", type=int, default=10_000, help="training rows kept (Table 1's cap)")
    ap.add_argument(
        "--combos",
        nargs="+",
        default=["1,1,1000", "1,0.4,10", "3,1,1", "3,0.1,1000"],
        help="degree,gamma,C triples",
    )
    args = ap.parse_args()
    warnings.filterwarnings("ignore", message="Solver terminated early")  # the cap is the grid's

    from sklearn.model_selection import StratifiedKFold, train_test_split

    from repro.grab.experiments.experiments import PolySVC, binarized_split

    B, y, _, _ = binarized_split(args.dataset, 0)
    if len(y) > args.rows:
        keep, _ = train_test_split(
            np.arange(len(y)), train_size=args.rows, random_state=0, stratify=y
        )
        B, y = B.iloc[np.sort(keep)], y.iloc[np.sort(keep)]
    train, test = next(StratifiedKFold(5, shuffle=True, random_state=0).split(B, y))
    Xtr, Xte = B.iloc[train].to_numpy(float), B.iloc[test].to_numpy(float)
    ytr = y.iloc[train].to_numpy()
    print(f"{args.dataset}: {Xtr.shape[0]} training rows, {Xtr.shape[1]} cells (first fold)")
    print(
        f"{'degree':>6} {'gamma':>6} {'C':>8} {'200 MB s':>9} {'2000 MB s':>10} {'ratio':>7}  model"
    )
    for combo in args.combos:
        d, g, c = combo.split(",")
        params = dict(degree=int(d), gamma=float(g), C=float(c), max_iter=1_000_000)
        seconds, fitted = [], []
        for size in (200.0, 2000.0):
            model = PolySVC(cache_size=size, **params)
            t, predicted = cpu(lambda model=model: model.fit(Xtr, ytr).predict(Xte))
            seconds.append(t)
            fitted.append((model.svc_, predicted))
        (a, pa), (b, pb) = fitted

        def dense(m):
            return m.toarray() if hasattr(m, "toarray") else np.asarray(m)

        same = (
            np.array_equal(a.support_, b.support_)
            and np.array_equal(dense(a.dual_coef_), dense(b.dual_coef_))
            and np.array_equal(a.intercept_, b.intercept_)
            and np.array_equal(pa, pb)
        )
        print(
            f"{d:>6} {g:>6} {c:>8} {seconds[0]:9.2f} {seconds[1]:10.2f} "
            f"{ratio(seconds[0], seconds[1]):6.2f}x  {'the same' if same else 'DIFFERENT'}"
            f" ({a.n_iter_[0]} iterations)"
        )


if __name__ == "__main__":
    main()
