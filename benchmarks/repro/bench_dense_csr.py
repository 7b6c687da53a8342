"""Table 1's 0/1 cells to CSR, and the fits that convert them: CPU seconds and a digest of
each result, to compare with an older revision's run.

    python -m benchmarks.repro.bench_dense_csr [--set madelon] [--repeats 3]

Table 1 of notebook 05 hands every fit a DataFrame of 0/1 cells (uint8). Such a frame
keeps its values column-major; GRAB (``TransactionMatrix``, at fit and at predict) and
XGBoost (``repro.grab.experiments.sparse_cells``) turn it into a CSR matrix by
:func:`rulelab.grab.wfim.csr_from_dense`, which finds the non-zeros column by column in the
transposed (row-major) view, where ``scipy.sparse.csr_matrix`` (until aa64c5d) scanned
them row by row, every step jumping a whole column; the XGBoost cells are cast to float32
after the conversion, not before. ``PolySVC``, where it precomputes the kernel (Madelon),
takes the rows' dot products as one product of the sparse cells, where it took one dense
float32 product until aa64c5d (the same exact counts, so the same kernel and libsvm model).
On the first fold of the set's seed-0 training part (as Table 1 splits it) this prints the
CPU seconds (median of ``--repeats``) and a digest of the result of

- the conversion of the fold's training cells for XGBoost;
- one XGBoost fit and test score as Table 1 runs it (``max_depth = 8``, ``lambda = 1/m``);
- one GRAB fit and test score at C = 10^-3 (w = 0 is optimal there, so the fit is mostly
  this overhead, as in 12 of GRAB's 42 combinations on Madelon) and at C = 0.1, k = 1;
- one SVC fit and test score where ``PolySVC`` precomputes the kernel.

Run it here and in a worktree of aa64c5d (benchmarks/README.md): the ratio is the old
seconds over these, and equal digests mean the same matrices, models and predictions.
Single process, one core.
"""

from __future__ import annotations

import argparse
import hashlib

import numpy as np
from sklearn.model_selection import StratifiedKFold

import repro.grab.experiments as ex
from benchmarks.timing import median_of


def digest(*arrays) -> str:
    """A short digest of arrays or bytes, the same on any machine for the same values."""
    h = hashlib.sha1()
    for a in arrays:
        h.update(a if isinstance(a, bytes) else np.ascontiguousarray(a).tobytes())
    return h.hexdigest()[:10]


def fit_score(dataset: str, name: str, params: dict, B, y, train, test):
    """Fit Table 1's ``name`` (for ``dataset``) with ``params`` on rows ``train``: (model, test predictions)."""
    from sklearn.base import clone

    est, _ = ex.table1_methods(dataset, len(train), top_k=1000)[name]
    model = clone(est).set_params(**params).fit(B.iloc[train], y.iloc[train])
    return model, model.predict(B.iloc[test])


def model_digest(model, predicted) -> str:
    """A digest of what defines the fitted model, and of its test predictions."""
    if hasattr(model, "coef_"):
        return digest(repr(model.itemsets_).encode(), model.coef_, predicted)
    if hasattr(model, "svc_"):
        return digest(model.svc_.support_, model.svc_.dual_coef_, predicted)
    return digest(bytes(model[-1].get_booster().save_raw()), predicted)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default="madelon")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    B, y, _, _ = ex.binarized_split(args.set, 0)
    train, test = next(StratifiedKFold(5, shuffle=True, random_state=0).split(B, y))
    m = len(train)
    # compile GRAB's kernels and load XGBoost outside the clock
    fit_score(args.set, "GRAB (logistic)", {"C": 1.0, "max_terms": 1}, B, y, train[:200], test[:50])
    print(f"{args.set}: fold 1 of 5, {m} x {B.shape[1]} cells")
    print(f"{'step':<40} {'CPU s':>7}  digest")
    cells = B.iloc[train]
    seconds, csr = median_of(lambda: ex.sparse_cells(cells), args.repeats)
    shown = digest(csr.indptr, csr.indices, csr.data)
    print(f"{'cells -> CSR float32 (XGBoost)':<40} {seconds:>7.3f}  {shown}", flush=True)
    cases = [
        ("XGB", {"xgbclassifier__max_depth": 8, "xgbclassifier__reg_lambda": 1.0 / m}),
        ("GRAB (logistic)", {"C": 0.001, "max_terms": 2}),
        ("GRAB (logistic)", {"C": 0.1, "max_terms": 1}),
        ("SVC", {"degree": 3, "gamma": 0.1, "C": 1.0}),
    ]
    for method, params in cases:

        def run(method=method, params=params):
            return fit_score(args.set, method, params, B, y, train, test)

        seconds, (model, predicted) = median_of(run, args.repeats)
        label = f"{method} " + ", ".join(f"{k.split('__')[-1]}={v:g}" for k, v in params.items())
        print(f"{label[:40]:<40} {seconds:>7.3f}  {model_digest(model, predicted)}", flush=True)


if __name__ == "__main__":
    main()
