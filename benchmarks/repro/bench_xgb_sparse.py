"""XGBoost on GRAB's 0/1 cells as a sparse matrix, against the former dense array.

    python -m benchmarks.repro.bench_xgb_sparse [--sets madelon a1a ...] [--depth 8]

Table 1 of notebook 05 tunes XGBoost (``tree_method="hist"``) on the same 0/1 cell design
as GRAB: on Madelon 21,677 columns, of which about 2 % are 1 in a row. The former code
handed XGBoost the dense array; the notebook now hands it a CSR matrix. An entry a CSR
matrix leaves out is "missing" to XGBoost rather than 0, but on a 0/1 column the split
between 0 and 1 and the split between missing and 1 part the rows the same way, so the
trees, and the predictions, are the same; the histograms are built over the non-zeros
only. For each set (its seed-0 split, ``max_depth`` as given, ``reg_lambda = 1/m``) this
fits both ways in one process on one core and prints the CPU seconds, their ratio, the
largest difference between the two models' test probabilities and their test accuracies.
"""

from __future__ import annotations

import argparse

import numpy as np
import scipy.sparse as sp
from xgboost import XGBClassifier

from benchmarks.timing import cpu, ratio
from repro.grab.experiments import binarized_split

SETS = ("madelon", "a1a", "phishing", "german.numer", "diabetes", "fourclass")


def fit(X, y, depth: int):
    model = XGBClassifier(
        n_jobs=1, random_state=0, tree_method="hist", max_depth=depth, reg_lambda=1.0 / len(y)
    )
    return cpu(model.fit, X, y)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="+", default=list(SETS))
    parser.add_argument("--depth", type=int, default=8)
    args = parser.parse_args()
    print(
        f"{'set':<13} {'rows x cells':>15} {'dense s':>8} {'sparse s':>9} {'ratio':>6}"
        f" {'max |dp|':>9} {'accuracy':>17}"
    )
    worst = 0.0
    for name in args.sets:
        B, y, Bt, yt = binarized_split(name, 0)
        X, Xt = B.to_numpy(np.float32), Bt.to_numpy(np.float32)
        t_dense, dense = fit(X, y, args.depth)
        t_sparse, sparse = fit(sp.csr_matrix(X), y, args.depth)
        diff = float(
            np.abs(dense.predict_proba(Xt) - sparse.predict_proba(sp.csr_matrix(Xt))).max()
        )
        worst = max(worst, diff)
        acc = (
            f"{np.mean(dense.predict(Xt) == yt):.4f} / "
            f"{np.mean(sparse.predict(sp.csr_matrix(Xt)) == yt):.4f}"
        )
        print(
            f"{name:<13} {f'{X.shape[0]} x {X.shape[1]}':>15} {t_dense:>8.1f} {t_sparse:>9.1f}"
            f" {ratio(t_dense, t_sparse):>6.1f} {diff:>9.1e} {acc:>17}",
            flush=True,
        )
    if worst > 1e-6:
        raise SystemExit(f"the sparse input changed a prediction (max |dp| = {worst:.1e})")


if __name__ == "__main__":
    main()
