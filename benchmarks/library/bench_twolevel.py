"""Two-level rules: each clause subproblem's LPs solved once per fit, against the former way.

    python -m benchmarks.library.bench_twolevel [--dataset musk] [--fold 0] [--methods bcd am]
                                                [--theta 1] [--rows N]

On one training fold of the paper-2 protocol (``StratifiedKFold(10, shuffle=True,
random_state=0)``; DNF through De Morgan, 10 thresholds, R = 5 clauses, 10 iterations,
set-cover initialisation, as in Table 1) it runs BCD and AM twice on the same design and
the same initial clauses:

* ``old``: the clause LPs re-solved whenever the clause or its subproblem changed
  (``reuse_lps=False``, the former code path);
* ``new``: the LPs of each distinct subproblem solved once per fit, their candidates
  offered again with the clause's current weights (``reuse_lps=True``, the default).

Both minimise the same objective with the same candidates, so the rules must be identical;
it prints the CPU seconds of each (the set-cover initialisation, shared, apart), the LPs
solved, their ratio, the objectives and whether the learned clauses are identical.
``--rows`` fits a stratified subsample of the fold instead (a quick check).
"""

from __future__ import annotations

import argparse

import numpy as np
from sklearn.model_selection import StratifiedKFold, train_test_split

from benchmarks.timing import cpu, ratio
from rulelab import load_dataset
from rulelab.binarize import FeatureBinarizer
from rulelab.twolevel.objective import augment, clause_costs
from rulelab.twolevel.optimize import am, bcd, init_weights, lp_kwargs


def design(name: str, fold: int, rows: int | None):
    """The CNF design of ``TwoLevelRules(form="dnf")`` on one training fold."""
    X, y = load_dataset(name)
    train, _ = list(StratifiedKFold(10, shuffle=True, random_state=0).split(X, y))[fold]
    X, y = X.iloc[train], y.iloc[train]
    if rows is not None and len(y) > rows:
        X, _, y, _ = train_test_split(X, y, train_size=rows, stratify=y, random_state=0)
    A = FeatureBinarizer(n_thresholds=10).fit_transform(X)
    return augment(1 - np.asarray(A)), 1 - y.to_numpy().astype(np.int8), A.shape[1]


def timed(method, Xa, y, W0, cost, opts, reuse):
    fit = bcd if method == "bcd" else am
    return cpu(fit, Xa, y, W0, cost, max_iter=10, lp_options=opts, reuse_lps=reuse)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="musk")
    parser.add_argument("--fold", type=int, default=0)
    parser.add_argument("--methods", nargs="+", default=["bcd", "am"], choices=["bcd", "am"])
    parser.add_argument("--theta", type=float, default=1.0)
    parser.add_argument("--rows", type=int, default=None)
    args = parser.parse_args()
    Xa, y, d = design(args.dataset, args.fold, args.rows)
    print(f"{args.dataset} fold {args.fold}: {Xa.shape[0]} rows, {d} terms, theta = {args.theta}")
    cost = clause_costs(d, args.theta)
    opts = lp_kwargs()
    seconds, (W0, _) = cpu(init_weights, Xa, y, 5, cost, "setcover", opts, np.random.default_rng(0))
    print(f"  set-cover initialisation (shared): {seconds:7.1f} s CPU")
    all_same = True
    for method in args.methods:
        t_old, old = timed(method, Xa, y, W0, cost, opts, reuse=False)
        t_new, new = timed(method, Xa, y, W0, cost, opts, reuse=True)
        same = np.array_equal(old.W, new.W)
        all_same &= same
        print(
            f"  {method.upper():3s}  old {t_old:7.1f} s CPU ({old.n_lp} LPs, F = {old.objective_path[-1]:g})"
            f"   new {t_new:7.1f} s CPU ({new.n_lp} LPs, F = {new.objective_path[-1]:g})"
            f"   speed-up {ratio(t_old, t_new):5.1f}x   rules identical: {same}"
        )
    if not all_same:
        raise SystemExit("the fits differ: the reused LP candidates changed the rules")


if __name__ == "__main__":
    main()
