"""How much does rulelab add on top of HiGHS? The 1Rule LP on MAGIC, 100 thresholds.

Builds the 1Rule design for MAGIC (19,020 rows x 2,000 threshold columns: 10 features,
100 quantile thresholds in both directions), then times, in one run and one process:

1. rulelab: ``learn_clause(A, y, form="and", lam=1000)`` end to end (De Morgan, the
   reduced LP of paper 3 with merged duplicate rows, HiGHS through highspy, rounding);
2. the same reduced LP handed straight to HiGHS (scipy's ``linprog(method="highs")``),
   built outside the timer: the overhead ratio 1 / 2 is the figure of merit (target <= 1.3);
3. paper 1's eq. (10) as written (one constraint per row) straight to HiGHS, for scale;
4. rulelab's reduced LP stated in cvxpy with its HiGHS interface, to show what the
   modelling layer costs on a problem of this size.

Run: ``python -m benchmarks.library.bench_lp [--thresholds 100] [--repeat 1]``.
"""

from __future__ import annotations

import argparse

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

from benchmarks.timing import best_of, ratio
from rulelab import FeatureBinarizer, load_dataset
from rulelab.lp import learn_clause, solve_or_lp


def reduced_lp(A, y, lam):
    """The reduced LP of the OR problem (A, y) as linprog arrays (built outside the timer)."""
    pos = y.astype(bool)
    A_P, A_Z = A[pos], A[~pos]
    rows, inv = np.unique(A_P, axis=0, return_inverse=True)
    k, n = rows.shape[0], A.shape[1]
    weights = np.bincount(inv.ravel(), minlength=k).astype(float)
    c = np.concatenate([1 + lam * A_Z.sum(axis=0), lam * weights])
    M = sp.hstack([sp.csr_matrix(rows.astype(float)), sp.identity(k, format="csr")], format="csr")
    return c, -M, -np.ones(k), [(0, 1)] * (n + k)


def full_lp(A, y, lam):
    """Paper 1's eq. (10) as written: one constraint per row, slacks for every row."""
    pos = y.astype(bool)
    A_P, A_Z = A[pos].astype(float), A[~pos].astype(float)
    p, z, n = A_P.shape[0], A_Z.shape[0], A.shape[1]
    ub = sp.hstack([-sp.csr_matrix(A_P), -sp.identity(p), sp.csr_matrix((p, z))], format="csr")
    eq = sp.hstack([sp.csr_matrix(A_Z), sp.csr_matrix((z, p)), -sp.identity(z)], format="csr")
    c = np.concatenate([np.ones(n), lam * np.ones(p + z)])
    bounds = [(0, 1)] * (n + p) + [(0, None)] * z
    return c, ub, -np.ones(p), eq, np.zeros(z), bounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--thresholds", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--lam", type=float, default=1000.0)
    parser.add_argument("--skip-cvxpy", action="store_true")
    args = parser.parse_args()

    X, y = load_dataset("magic")
    A = FeatureBinarizer(n_thresholds=args.thresholds).fit_transform(X)
    y = y.to_numpy()
    print(
        f"MAGIC design: {A.shape[0]:,} rows x {A.shape[1]:,} columns, "
        f"{A.mean():.2f} density; AND-clause, lambda = {args.lam:g}"
    )
    # The AND-clause is the OR-clause of the complemented problem (De Morgan).
    Ac, yc = (1 - A).astype(np.uint8), 1 - y

    t_rulelab, res = best_of(lambda: learn_clause(A, y, form="and", lam=args.lam), args.repeat)
    c, A_ub, b_ub, bounds = reduced_lp(Ac, yc, args.lam)
    t_direct, direct = best_of(
        lambda: linprog(c, A_ub=A_ub, b_ub=b_ub, bounds=bounds, method="highs"), args.repeat
    )
    c2, ub2, bub2, eq2, beq2, bounds2 = full_lp(Ac, yc, args.lam)
    t_full, full = best_of(
        lambda: linprog(
            c2, A_ub=ub2, b_ub=bub2, A_eq=eq2, b_eq=beq2, bounds=bounds2, method="highs"
        ),
        args.repeat,
    )
    print(f"\n{'what':58s} {'seconds':>9s} {'LP value':>14s}")
    print(
        f"{'rulelab learn_clause (reduced LP, end to end)':58s} {t_rulelab:9.2f} {res.lp_value:14.4f}"
    )
    print(f"{'same reduced LP straight to HiGHS (linprog)':58s} {t_direct:9.2f} {direct.fun:14.4f}")
    print(f"{'eq. (10) as written straight to HiGHS (linprog)':58s} {t_full:9.2f} {full.fun:14.4f}")
    if not args.skip_cvxpy:
        t_cvx, cvx = best_of(lambda: solve_or_lp(Ac, yc, args.lam, solver="HIGHS"), args.repeat)
        print(f"{'rulelab reduced LP through cvxpy (HIGHS)':58s} {t_cvx:9.2f} {cvx.lp_value:14.4f}")
    print(
        f"\noverhead ratio rulelab / direct HiGHS (same LP): {ratio(t_rulelab, t_direct):.2f} (target <= 1.3)"
    )
    print(f"speed-up of rulelab over eq. (10) as written:    {ratio(t_full, t_rulelab):.1f}x")
    if not args.skip_cvxpy:
        print(f"cvxpy modelling layer / direct rulelab path:      {ratio(t_cvx, t_rulelab):.2f}x")
    print(f"learned clause: {len(res.selected)} terms, status {res.status}")


if __name__ == "__main__":
    main()
