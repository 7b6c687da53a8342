"""Column generation at scale: ``ColumnGenerationRules()`` on 10^4 to 10^7 rows.

The planted problem: 20 standard Gaussian features, the class is the three-clause DNF
``(x0 > 0.5 AND x1 <= 0) OR (x2 > 1 AND x3 <= -0.5) OR (x4 <= -1 AND x5 > 0.3)`` with 5 % of
the labels flipped (the best possible test error is 0.05). For every size, in a fresh
process on one core (so that the peak memory is that fit's), ``ColumnGenerationRules()``
with its defaults (form and complexity chosen by its inner cross-validation) is fitted on
that many rows and scored on 100,000 fresh ones. Printed per size: fit time, peak resident
memory of the process (data included), test error, rules, terms, the learned rule.

The targets: 10^6 rows in under a minute, 10^7 in under ten minutes, within 8 GB (10^9
bytes; the peak includes the process's own copy of the data, 1.6 GB of float64 at 10^7). Sizes
above ``--max-rows`` are not run; a size whose fit exceeds ``--time-limit`` is stopped and
reported as such, and the larger sizes are skipped.

Run: ``python -m benchmarks.library.bench_scale [--max-rows 1000000] [--time-limit 900]
[--profile N]`` (``--profile N``: cProfile one fit of N rows in this process and print the
top functions by cumulative time instead).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

import numpy as np

from benchmarks.timing import ROOT, wall
from repro.benchmark.cut_points import PLANTED_FEATURES as N_FEATURES
from repro.benchmark.cut_points import PLANTED_NOISE as NOISE
from repro.benchmark.cut_points import planted_offgrid as planted

SIZES = (10_000, 100_000, 1_000_000, 10_000_000)
N_TEST = 100_000


def _one_size(n: int) -> dict:
    """Fit at one size in this process; return the measurements."""
    import resource

    from rulelab import ColumnGenerationRules

    X, y = planted(n, seed=n)
    X_te, y_te = planted(N_TEST, seed=1)
    seconds, model = wall(ColumnGenerationRules(random_state=0).fit, X, y)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e9  # KiB on Linux
    return {
        "rows": n,
        "seconds": seconds,
        "peak_gb": peak,
        "error": float(np.mean(model.predict(X_te) != y_te)),
        "rules": len(model.rules_.clauses),
        "terms": model.rules_.n_terms,
        "form": model.form_,
        "complexity": model.chosen_complexity_,
        "rule": str(model.rules_),
    }


def _run(n: int, time_limit: float) -> dict | None:
    """One size in a fresh single-threaded process; None when it passed ``time_limit``."""
    env = {
        **os.environ,
        "OMP_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "NUMBA_NUM_THREADS": "1",
    }
    cmd = [sys.executable, "-m", __spec__.name, "--one", str(n)]
    try:
        out = subprocess.run(
            cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=time_limit, check=True
        )
    except subprocess.TimeoutExpired:
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def _profile(n: int, top: int = 25) -> None:
    import cProfile
    import pstats

    from rulelab import ColumnGenerationRules

    X, y = planted(n, seed=n)
    ColumnGenerationRules(random_state=0).fit(*planted(2000, seed=5))  # compile first
    profiler = cProfile.Profile()
    profiler.enable()
    ColumnGenerationRules(random_state=0).fit(X, y)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(top)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--max-rows", type=int, default=10_000_000)
    parser.add_argument(
        "--time-limit", type=float, default=900.0, help="seconds per size (fit and data generation)"
    )
    parser.add_argument("--profile", type=int, default=None)
    parser.add_argument("--one", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(_one_size(args.one)))
        return
    if args.profile is not None:
        _profile(args.profile)
        return
    print(
        f"planted three-clause DNF over {N_FEATURES} Gaussian features, {NOISE:.0%} label "
        f"noise; test on {N_TEST:,} fresh rows; one process and one core per size"
    )
    print(
        f"{'rows':>12} {'fit (s)':>9} {'peak RSS (GB)':>14} {'test error':>11} "
        f"{'rules':>6} {'terms':>6}  form, complexity"
    )
    for n in SIZES:
        if n > args.max_rows:
            print(f"{n:>12,}  not run (--max-rows {args.max_rows:,})")
            continue
        r = _run(n, args.time_limit)
        if r is None:
            print(f"{n:>12,}  stopped after {args.time_limit:g} s; larger sizes not run")
            break
        print(
            f"{n:>12,} {r['seconds']:9.1f} {r['peak_gb']:14.2f} {r['error']:11.4f} "
            f"{r['rules']:6d} {r['terms']:6d}  {r['form']}, {r['complexity']:g}"
        )
        print("    " + r["rule"].replace("\n", "\n    "))


if __name__ == "__main__":
    main()
