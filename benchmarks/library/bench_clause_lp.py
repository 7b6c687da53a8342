"""The clause LP: its matrix built by this tree against an older revision, and solved with
and without HiGHS's presolve, side by side.

    python -m benchmarks.library.bench_clause_lp [--dataset musk] [--fold 0] [--theta 1]
                                                 [--against REV]

1. **Building** the reduced LP's matrix ``[rows | I]`` (the merged positive rows and one
   slack per row) by one compiled pass (:func:`rulelab.lp._csc`), timed against the build
   of ``--against`` (default c0fea7d, the last revision that scanned a Fortran copy with
   ``flatnonzero`` and stacked the identity with ``scipy.sparse.hstack``). The two matrices
   must be equal.
2. **Solving** without HiGHS's presolve (below).

The clause LP that every LP learner solves (paper 3's reduced LP: duplicate positive rows
merged, columns screened) leaves HiGHS's presolve almost nothing to remove, yet presolve
took about as long as the simplex itself on these dense covering problems. This script
takes the clause LPs of the first BCD iteration of ``TwoLevelRules(form="dnf")`` on one
training fold of the paper-2 protocol (``StratifiedKFold(10, shuffle=True,
random_state=0)``, 10 thresholds, R = 5 clauses, set-cover start), the heaviest LPs of the
suite, and solves each twice in one process: ``old`` with presolve on (HiGHS's default and
the former code path), ``new`` with presolve off (the default now). It prints, per LP, the
CPU seconds of each, whether the two LP optimum values agree (relative 1e-9), whether the
weights are identical (several optimal vertices can exist, so they need not be), and the
ratio of the totals.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import inspect
import tempfile
from pathlib import Path

import numpy as np
import scipy.sparse as sp

import rulelab.lp as lp_module
from benchmarks.library.bench_twolevel import design
from benchmarks.timing import add_against, cpu, ratio, revision_package
from rulelab.lp import learn_clause
from rulelab.twolevel.objective import clause_costs, clause_sums
from rulelab.twolevel.optimize import _others_reject, init_weights, lp_kwargs


def old_build(revision: str, where: Path):
    """The ``[rows | I]`` build of ``revision``'s ``rulelab.lp``: its ``_csc`` with the slack
    columns, or, before ``_csc`` took them, its ``_csc`` stacked beside the identity as that
    revision's ``_build`` did."""
    old_lp = importlib.import_module(revision_package(revision, where).__name__ + ".lp")
    if "identity" in inspect.signature(old_lp._csc).parameters:
        return lambda rows: old_lp._csc(rows, identity=True)
    return lambda rows: sp.hstack(
        [old_lp._csc(rows), sp.identity(len(rows), format="csc")], format="csc"
    )


def compare_build(A: np.ndarray, pos: np.ndarray, revision: str) -> None:
    """Time both builds of one LP's ``[rows | I]`` and check they are the same matrix."""
    rows, _ = lp_module._unique_rows(A[pos])
    lp_module._csc(rows[:2], identity=True)  # compile outside the timing
    with tempfile.TemporaryDirectory() as tmp:
        build = old_build(revision, Path(tmp))
        t_old, old = cpu(build, rows)
    t_new, new = cpu(lp_module._csc, rows, identity=True)
    same = old.shape == new.shape and (old != new).nnz == 0
    print(
        f"  build [rows | I] ({rows.shape[0]} x {rows.shape[1]}, {new.nnz} non-zeros): "
        f"{revision} {t_old:.3f} s   this tree {t_new:.3f} s   ratio {ratio(t_old, t_new):.1f}x   "
        f"same matrix: {same}"
    )
    if not same:
        raise SystemExit("the compiled build gives another matrix")


def solve(A, yy, cost, opts, presolve: bool):
    """One clause LP as the two-level learners solve it; (CPU seconds, result)."""
    original = lp_module._solve_highs
    lp_module._solve_highs = functools.partial(original, presolve=presolve)
    try:
        return cpu(learn_clause, A, yy, form="or", lam=1.0, column_cost=cost, **opts)
    finally:
        lp_module._solve_highs = original


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="musk")
    parser.add_argument("--fold", type=int, default=0)
    parser.add_argument("--theta", type=float, default=1.0)
    parser.add_argument("--rows", type=int, default=None)
    add_against(parser, default="c0fea7d")
    args = parser.parse_args()
    Xa, y, d = design(args.dataset, args.fold, args.rows)
    cost = clause_costs(d, args.theta)
    opts = lp_kwargs()
    W0, _ = init_weights(Xa, y, 5, cost, "setcover", opts, np.random.default_rng(0))
    S = clause_sums(Xa, W0)
    pos = np.asarray(y).astype(bool)
    print(f"{args.dataset} fold {args.fold}: {Xa.shape[0]} rows, {d} terms, theta = {args.theta}")
    compare_build(Xa, pos, args.against)
    totals = np.zeros(2)
    same_value = same_weights = 0
    for r in range(W0.shape[0]):
        rows = pos | ~_others_reject(S, r)
        A, yy = Xa[rows], pos[rows]
        t_old, old = solve(A, yy, cost, opts, presolve=True)
        t_new, new = solve(A, yy, cost, opts, presolve=False)
        totals += (t_old, t_new)
        agree = np.isclose(old.lp_value, new.lp_value, rtol=1e-9, atol=0)
        same_value += agree
        same_weights += np.array_equal(old.w, new.w)
        print(
            f"  clause {r}: {A.shape[0]} rows   presolve on {t_old:6.2f} s   off {t_new:6.2f} s"
            f"   LP value {old.lp_value:.6f} vs {new.lp_value:.6f} ({'same' if agree else 'DIFFERENT'})"
            f"   weights identical: {np.array_equal(old.w, new.w)}"
        )
    n = W0.shape[0]
    print(
        f"  total: presolve on {totals[0]:.1f} s CPU, off {totals[1]:.1f} s CPU, "
        f"speed-up {ratio(*totals):.2f}x; LP values equal on {same_value} of {n}, "
        f"weights identical on {same_weights} of {n}"
    )
    if same_value < n:
        raise SystemExit("presolve changed an LP optimum value")


if __name__ == "__main__":
    main()
