"""Table 1's polynomial SVC: the kernel matrix computed once against libsvm's own kernel.

On the first of Table 1's five folds of a data set (paper 4's binarised cells; Madelon by
default: 1,600 training rows of 21,677 cells), fits ``PolySVC`` both ways for a few
(degree, gamma, C) of the paper's grid and prints the CPU seconds of each (fit and score,
measured side by side in one run), their ratio, and whether the test predictions agree.

    python -m benchmarks.repro.bench_polysvc [--dataset madelon] [--combos 3,1,1000 1,0.1,0.001]
"""

from __future__ import annotations

import argparse
import os

import numpy as np

from benchmarks.timing import cpu, ratio

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dataset", default="madelon")
    ap.add_argument(
        "--combos",
        nargs="+",
        default=["3,1,1000", "3,0.4,1", "1,0.1,0.001"],
        help="degree,gamma,C triples",
    )
    args = ap.parse_args()

    from sklearn.model_selection import StratifiedKFold

    from repro.grab.experiments.experiments import PolySVC, binarized_split

    B, y, _, _ = binarized_split(args.dataset, 0)
    train, test = next(StratifiedKFold(5, shuffle=True, random_state=0).split(B, y))
    Xtr, Xte = B.iloc[train].to_numpy(float), B.iloc[test].to_numpy(float)
    ytr, yte = y.iloc[train].to_numpy(), y.iloc[test].to_numpy()
    print(f"{args.dataset}: {Xtr.shape[0]} training rows, {Xtr.shape[1]} cells (first fold)")
    print(
        f"{'degree':>6} {'gamma':>6} {'C':>8} {'precomputed s':>14} {'libsvm s':>10} "
        f"{'ratio':>7}  predictions"
    )
    for combo in args.combos:
        d, g, c = combo.split(",")
        params = dict(degree=int(d), gamma=float(g), C=float(c), max_iter=1_000_000)
        seconds, predictions = [], []
        for rows in (len(Xtr), 0):  # gram_max_rows: precomputed, then libsvm's kernel
            model = PolySVC(gram_max_rows=rows, gram_min_columns=1, **params)
            t, predicted = cpu(lambda model=model: model.fit(Xtr, ytr).predict(Xte))
            predictions.append(predicted)
            seconds.append(t)
        agree = np.mean(predictions[0] == predictions[1])
        print(
            f"{d:>6} {g:>6} {c:>8} {seconds[0]:14.2f} {seconds[1]:10.2f} "
            f"{ratio(seconds[1], seconds[0]):6.1f}x  {100 * agree:.1f} % equal, accuracy "
            f"{np.mean(predictions[0] == yte):.4f} / {np.mean(predictions[1] == yte):.4f}"
        )


if __name__ == "__main__":
    main()
