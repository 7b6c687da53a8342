"""Dense 0/1 cells to CSR in their own memory order, against scipy's row-by-row scan.

    python benchmarks/bench_dense_csr.py [--set madelon] [--repeats 3]

Table 1 of notebook 05 hands every fit a DataFrame of 0/1 cells (uint8). Such a frame
keeps its values column-major, and both GRAB (``TransactionMatrix``, at fit and at
predict) and XGBoost (``repro.grab.experiments.sparse_cells``) turned it into a CSR matrix with
``scipy.sparse.csr_matrix``, which finds the non-zeros row by row: on a column-major
array every step jumps a whole column. :func:`rulelab.grab.wfim.csr_from_dense` finds
them column by column in the transposed (row-major) view and converts the result; the
XGBoost cells are now cast to float32 after that, not before (a quarter of the bytes to
scan). On the first fold of the set's seed-0 training part (as Table 1 splits it) this
prints, old and new side by side, the CPU seconds of

- the conversion of the fold's training cells for XGBoost;
- one XGBoost fit and test score as Table 1 runs it (``max_depth = 8``, ``lambda = 1/m``);
- one GRAB fit and test score at C = 10^-3 (w = 0 is optimal there, so the fit is mostly
  this overhead, as in 12 of GRAB's 42 combinations on Madelon) and at C = 0.1, k = 1;
- one SVC fit and test score where ``PolySVC`` precomputes the kernel (Madelon): the dot
  products of the 0/1 rows were one dense float32 product and are now one product of the
  sparse cells (the same exact counts, so the same kernel matrix and libsvm model);

with their ratio (median of ``--repeats``), and checks that the matrices are the same
arrays and that the models score and predict the same. Single process, one core.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import time

import numpy as np
import scipy.sparse as sp
from sklearn.model_selection import StratifiedKFold
from sklearn.svm import SVC

import repro.grab.experiments as ex

# the module (``rulelab.grab.wfim`` as an attribute is the function of that name)
wfim = importlib.import_module("rulelab.grab.wfim")


def old_sparse_cells(B) -> sp.csr_matrix:
    """The former conversion for XGBoost: a dense float32 copy, scanned row by row."""
    return sp.csr_matrix(np.asarray(B, dtype=np.float32))


def old_csr_from_dense(a) -> sp.csr_matrix:
    """The former conversion inside GRAB (``as_csr``)."""
    return sp.csr_matrix(a)


class OldPolySVC(ex.PolySVC):
    """The former precomputed kernel: the dot products as one dense float32 product."""

    def _kernel(self, X32):
        dots = (X32 @ self.X_fit_.T).astype(np.float64)
        return (self.gamma * dots + (1.0 - self.gamma)) ** self.degree

    def fit(self, X, y):
        rows, columns = np.shape(X)
        if rows > self.gram_max_rows or columns < self.gram_min_columns:
            return super().fit(X, y)  # libsvm's own kernel: unchanged
        self.X_fit_ = np.asarray(X, dtype=np.float32)
        self.svc_ = SVC(kernel="precomputed", C=self.C, max_iter=self.max_iter)
        self.svc_.fit(self._kernel(self.X_fit_), y)
        self.classes_ = self.svc_.classes_
        return self

    def _libsvm_input(self, X):
        if self.X_fit_ is None:
            return super()._libsvm_input(X)
        return self._kernel(np.asarray(X, dtype=np.float32))


class Old:
    """Puts the former conversions in place for the length of a ``with`` block."""

    def __enter__(self):
        self.saved = ex.sparse_cells, wfim.csr_from_dense, ex.PolySVC
        ex.sparse_cells, wfim.csr_from_dense = old_sparse_cells, old_csr_from_dense
        ex.PolySVC = OldPolySVC

    def __exit__(self, *exc):
        ex.sparse_cells, wfim.csr_from_dense, ex.PolySVC = self.saved


def timed(run, repeats: int):
    """(median CPU seconds, the last result) of ``run()``."""
    times, out = [], None
    for _ in range(repeats):
        start = time.process_time()
        out = run()
        times.append(time.process_time() - start)
    return statistics.median(times), out


def fit_score(dataset: str, name: str, params: dict, B, y, train, test):
    """Fit Table 1's ``name`` (for ``dataset``) with ``params`` on rows ``train``: (model, test predictions)."""
    from sklearn.base import clone

    est, _ = ex.table1_methods(dataset, len(train), top_k=1000)[name]
    model = clone(est).set_params(**params).fit(B.iloc[train], y.iloc[train])
    return model, model.predict(B.iloc[test])


def same_model(a, b) -> bool:
    if hasattr(a, "coef_"):
        return a.itemsets_ == b.itemsets_ and np.array_equal(a.coef_, b.coef_)
    if hasattr(a, "svc_"):
        return np.array_equal(a.svc_.support_, b.svc_.support_) and np.array_equal(
            a.svc_.dual_coef_, b.svc_.dual_coef_
        )
    return a[-1].get_booster().save_raw() == b[-1].get_booster().save_raw()


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
    print(f"{'step':<40} {'old s':>7} {'new s':>7} {'ratio':>6}  same")
    worst_same = True

    def row(label, old, new, same):
        nonlocal worst_same
        worst_same &= same
        print(
            f"{label:<40} {old:>7.3f} {new:>7.3f} {old / max(new, 1e-9):>6.1f}  {same}", flush=True
        )

    cells = B.iloc[train]
    t_old, a = timed(lambda: old_sparse_cells(cells), args.repeats)
    t_new, b = timed(lambda: ex.sparse_cells(cells), args.repeats)
    row(
        "cells -> CSR float32 (XGBoost)",
        t_old,
        t_new,
        all(np.array_equal(getattr(a, k), getattr(b, k)) for k in ("indptr", "indices", "data")),
    )
    cases = [
        ("XGB", {"xgbclassifier__max_depth": 8, "xgbclassifier__reg_lambda": 1.0 / m}),
        ("GRAB (logistic)", {"C": 0.001, "max_terms": 2}),
        ("GRAB (logistic)", {"C": 0.1, "max_terms": 1}),
        ("SVC", {"degree": 3, "gamma": 0.1, "C": 1.0}),
    ]
    for method, params in cases:

        def run(method=method, params=params):
            return fit_score(args.set, method, params, B, y, train, test)

        with Old():
            t_old, (m_old, p_old) = timed(run, args.repeats)
        t_new, (m_new, p_new) = timed(run, args.repeats)
        shown = ", ".join(f"{k.split('__')[-1]}={v:g}" for k, v in params.items())
        row(
            f"{method} {shown}"[:40],
            t_old,
            t_new,
            same_model(m_old, m_new) and np.array_equal(p_old, p_new),
        )
    if not worst_same:
        raise SystemExit("the new conversion changed a matrix, a model or a prediction")


if __name__ == "__main__":
    main()
