"""Every clause LP of one BCD fit solved three ways: from scratch, on one kept model, warm.

    python -m benchmarks.library.bench_clause_lp_reuse [--dataset musk2] [--fold 0]
                                   [--theta 0.01] [--rows 2000] [--ways kept warm]

The clause LPs of one fit are much alike: every subproblem keeps all the positives, so the
reduced LP's rows (the merged positive rows) are the same in every LP of the fit, and only
the column costs (theta plus each term's count on the kept negatives) and the screened
columns change. This script records the LPs of ``bcd`` on one training fold of the
paper-2 protocol (``StratifiedKFold(10, shuffle=True, random_state=0)``, DNF through De
Morgan, 10 thresholds, R = 5 clauses, 10 iterations, set-cover start; ``--rows`` a
stratified subsample, 2,000 rows as in notebook 03's search, 0 the whole fold as in its
refit) and solves the sequence ``cold`` and the ``--ways`` asked for:

* ``cold``: as :func:`rulelab.lp.learn_clause` does (screen, build, pass the model to a
  new HiGHS object, dual simplex from the slack basis);
* ``kept``: one HiGHS model kept while the screened matrix stays the same (same columns
  kept, same merged rows): only the costs are changed and the solver state cleared, so
  HiGHS starts from the slack basis as ``cold`` does; a new matrix is passed as ``cold``;
* ``warm``: one HiGHS model over all the columns for the whole fit; each LP changes the
  costs, fixes the screened columns at 0 and goes on from the previous LP's basis.

It prints the CPU seconds of each, their ratio against ``cold``, and on how many LPs the
optimum value (relative 1e-9), the weights and the two rounded candidates that BCD
takes from an LP (threshold and best prefix) are the same as ``cold``'s. With several optimal
vertices a different start can end at another optimum: the value stays, the rounded
candidates need not, and then BCD goes on along another path.
"""

from __future__ import annotations

import argparse

import highspy
import numpy as np

import rulelab.lp as lp_module
import rulelab.twolevel.optimize as optimize
from benchmarks.library.bench_twolevel import design
from benchmarks.timing import cpu, ratio
from rulelab._highs import quiet_highs
from rulelab.screening import _screen
from rulelab.twolevel.objective import clause_costs


def record_lps(Xa, y, cost):
    """The clause LPs (A, y, column costs) of one BCD fit, in the order it solves them."""
    opts = optimize.lp_kwargs()
    W0, _ = optimize.init_weights(Xa, y, 5, cost, "setcover", opts, np.random.default_rng(0))
    lps, original = [], optimize._rounded

    def recording(A, yy, c, options):
        lps.append((A, yy, c))
        return original(A, yy, c, options)

    optimize._rounded = recording
    try:
        optimize.bcd(Xa, y, W0, cost, max_iter=10, lp_options=opts)
    finally:
        optimize._rounded = original
    return lps


def screened(A, yy, c):
    """The columns the clause LP keeps after basic screening (as ``learn_clause``)."""
    keep, _ = _screen(A, yy, 1.0, "basic", "auto", False, True, np.ones(len(yy)), c)
    return keep


def new_model(cost, M, col_hi) -> highspy.Highs:
    """A HiGHS object holding the reduced LP ``[rows | I]`` with the given costs."""
    h = quiet_highs()
    h.setOptionValue("presolve", "off")  # as rulelab.lp._solve_highs
    k, n = M.shape
    h.passModel(
        n, k, M.nnz, int(highspy.MatrixFormat.kColwise.value),
        int(highspy.ObjSense.kMinimize.value), 0.0, cost, np.zeros(n), col_hi,
        np.ones(k), np.full(k, highspy.kHighsInf), M.indptr.astype(np.int32),
        M.indices.astype(np.int32), M.data, np.zeros(n, np.int32),
    )  # fmt: skip
    return h


def solve_cold(A, yy, c):
    lp = optimize.learn_clause(A, yy, form="or", lam=1.0, column_cost=c, **optimize.lp_kwargs())
    return lp.w, lp.lp_value


class Kept:
    """One model per screened matrix: a new matrix is passed, the same one only re-costed."""

    def __init__(self):
        self.key, self.h = None, None

    def __call__(self, A, yy, c):
        keep = screened(A, yy, c)
        idx = np.flatnonzero(keep)
        sub = np.take(A, idx, axis=1)
        key = (sub[yy].shape, idx.tobytes(), np.packbits(sub[yy]).tobytes())
        if key != self.key:
            cost, M, _, _, _, col_hi, n_w = lp_module._build(
                sub, yy, 1.0, np.ones(len(yy)), c[idx], "reduced"
            )
            self.key, self.h, self.n_w = key, new_model(cost, M, col_hi), n_w
        else:  # the same matrix and slack costs: only the term costs move
            cost_w = c[idx] + sub[~yy].sum(axis=0, dtype=np.int64)
            self.h.changeColsCost(idx.size, np.arange(idx.size, dtype=np.int32), cost_w)
            self.h.clearSolver()  # start from the slack basis, as a new model does
        self.h.run()
        w = np.zeros(A.shape[1])
        w[idx] = np.clip(np.asarray(self.h.getSolution().col_value)[: self.n_w], 0, 1)
        return w, self.h.getInfo().objective_function_value


class Warm:
    """One model over every column of the fit's design, re-costed and re-bounded per LP and
    solved from the previous LP's basis."""

    def __init__(self, Xa, pos):
        self.n = Xa.shape[1]
        rows, inv = lp_module._unique_rows(Xa[pos])
        M = lp_module._csc(rows, identity=True)
        cost = np.concatenate([np.ones(self.n), np.bincount(inv).astype(float)])
        self.h = new_model(cost, M, np.ones(M.shape[1]))

    def __call__(self, A, yy, c):
        off = self.n - A.shape[1]  # the LP without the always-true column drops column 0
        cost_w, upper = np.zeros(self.n), np.zeros(self.n)
        cost_w[off:] = c + A[~yy].sum(axis=0, dtype=np.int64)
        upper[off:] = screened(A, yy, c)
        cols = np.arange(self.n, dtype=np.int32)
        self.h.changeColsCost(self.n, cols, cost_w)
        self.h.changeColsBounds(self.n, cols, np.zeros(self.n), upper)
        self.h.run()
        x = np.asarray(self.h.getSolution().col_value)[off : self.n]
        return np.clip(x, 0, 1), self.h.getInfo().objective_function_value


def candidates(A, yy, c, w):
    """The two clauses BCD rounds an LP's weights to (threshold, best prefix)."""
    return [w > optimize._TOL, optimize._best_prefix(A, yy, w, c)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="musk2")
    parser.add_argument("--fold", type=int, default=0)
    parser.add_argument("--theta", type=float, default=0.01)
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--ways", nargs="+", default=["kept", "warm"], choices=["kept", "warm"])
    args = parser.parse_args()
    Xa, y, d = design(args.dataset, args.fold, args.rows or None)
    cost = clause_costs(d, args.theta)
    lps = [(np.ascontiguousarray(A, dtype=np.uint8), yy, c) for A, yy, c in record_lps(Xa, y, cost)]
    print(
        f"{args.dataset} fold {args.fold}: {Xa.shape[0]} rows, {d} terms, theta = {args.theta},"
        f" {len(lps)} clause LPs"
    )
    solve_cold(*lps[0])  # compile and construct outside the timing
    ways = {"cold": solve_cold}
    if "kept" in args.ways:
        ways["kept"] = Kept()
    if "warm" in args.ways:
        ways["warm"] = Warm(Xa, np.asarray(y).astype(bool))
    results, seconds = {}, {}
    for name, solve in ways.items():
        seconds[name], results[name] = cpu(lambda solve=solve: [solve(*lp) for lp in lps])
    for name in ways:
        same_value = same_w = same_cands = 0
        for (A, yy, c), (w0, v0), (w, v) in zip(lps, results["cold"], results[name]):
            same_value += bool(np.isclose(v, v0, rtol=1e-9, atol=1e-9))
            same_w += bool(np.array_equal(w, w0))
            same_cands += all(
                np.array_equal(a, b)
                for a, b in zip(candidates(A, yy, c, w), candidates(A, yy, c, w0))
            )
        print(
            f"  {name}: {seconds[name]:6.2f} s CPU   ratio {ratio(seconds['cold'], seconds[name]):.2f}x"
            f"   same as cold: LP value {same_value}/{len(lps)}, weights {same_w}/{len(lps)},"
            f" rounded candidates {same_cands}/{len(lps)}"
        )


if __name__ == "__main__":
    main()
