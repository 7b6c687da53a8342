"""Two-level rules: what screening and parallel clause LPs buy, measured side by side.

    python benchmarks/bench_twolevel.py [--datasets wdbc magic] [--rows 5000] [--repeats 1]

For each data set (a stratified subsample of at most ``--rows`` rows, DNF as in the paper,
theta = 1, R = 5) it times

* BCD (set-cover initialisation + greedy BCD) with the clause LPs unscreened and with
  paper 3's basic screening (when :mod:`rulelab.lp` supports it);
* AM with its R clause LPs per iteration solved one after another and on two threads.

It prints seconds, ratios and the final objectives (screening is safe for the LP optimum,
but a different optimal vertex may round differently, so the objectives are shown).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from sklearn.model_selection import train_test_split

from rulelab import load_dataset
from rulelab.binarize import FeatureBinarizer
from rulelab.twolevel.objective import augment, clause_costs
from rulelab.twolevel.optimize import _SCREENING, am, bcd, init_weights, lp_kwargs


def design(name: str, rows: int):
    X, y = load_dataset(name)
    if len(y) > rows:
        X, _, y, _ = train_test_split(X, y, train_size=rows, stratify=y, random_state=0)
    A = FeatureBinarizer().fit_transform(X)
    # DNF through De Morgan, exactly as TwoLevelRules(form="dnf") does.
    return augment(1 - A), 1 - y.to_numpy().astype(np.int8), A.shape[1]


def run_bcd(Xa, y, d, screening):
    cost = clause_costs(d, 1.0)
    opts = lp_kwargs(screening=screening)
    start = time.perf_counter()
    W0, _ = init_weights(Xa, y, 5, cost, "setcover", opts, np.random.default_rng(0))
    res = bcd(Xa, y, W0, cost, max_iter=10, lp_options=opts)
    return time.perf_counter() - start, res.objective_path[-1]


def run_am(Xa, y, d, n_jobs):
    cost = clause_costs(d, 1.0)
    opts = lp_kwargs()
    W0, _ = init_weights(Xa, y, 5, cost, "setcover", opts, np.random.default_rng(0))
    start = time.perf_counter()
    res = am(Xa, y, W0, cost, max_iter=10, lp_options=opts, n_jobs=n_jobs)
    return time.perf_counter() - start, res.objective_path[-1], res.n_iter


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=["wdbc", "magic"])
    parser.add_argument("--rows", type=int, default=5000)
    args = parser.parse_args()
    print(f"screening available in rulelab.lp: {_SCREENING}")
    for name in args.datasets:
        Xa, y, d = design(name, args.rows)
        print(f"\n{name}: {Xa.shape[0]} rows, {d} terms")
        t0, f0 = run_bcd(Xa, y, d, None)
        t1, f1 = run_bcd(Xa, y, d, "basic")
        print(f"  BCD  unscreened {t0:7.2f} s (F = {f0:g})   screened {t1:7.2f} s (F = {f1:g})"
              f"   speed-up {t0 / t1:5.2f}x")
        a1, g1, it1 = run_am(Xa, y, d, None)
        a2, g2, it2 = run_am(Xa, y, d, 2)
        print(f"  AM   1 thread   {a1:7.2f} s (F = {g1:g}, {it1} it)   2 threads {a2:7.2f} s "
              f"(F = {g2:g}, {it2} it)   speed-up {a1 / a2:5.2f}x")


if __name__ == "__main__":
    main()
