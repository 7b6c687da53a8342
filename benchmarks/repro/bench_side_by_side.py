"""Timed units one at a time vs two side by side, one per core: what each unit measures.

    python -m benchmarks.repro.bench_side_by_side [--thresholds 10 20] [--datasets ...]

Notebooks 04, 05 and 08 time single-threaded work (paper 3's Table 3, paper 4's Fig. 2,
the pricing ablation). Their units run ``N_JOBS`` at a time, one per core
(:func:`repro.core.runner.side_by_side`), which halves the wall time of those sections if a
unit measures the same seconds beside another unit as alone. This script times paper 3's
Table 3 units (:func:`repro.screening.experiments.timing_row`: the full problem, basic
and enhanced screening with their reduced problems, each a wall-clock time inside the unit)
first one at a time, then two at a time, without the cache, and prints each unit's
times both ways, their ratio (side by side / alone), and the sections' wall times.
"""

from __future__ import annotations

import argparse
import os
from functools import partial

from benchmarks.timing import ratio, wall

os.environ.setdefault("OMP_NUM_THREADS", "1")

TIMES = ("full_reduced", "basic_total", "enhanced_total")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=["gas_drift_partial", "magic"])
    parser.add_argument("--thresholds", type=int, nargs="+", default=[10, 20])
    args = parser.parse_args()

    from repro.core.runner import side_by_side
    from repro.screening.experiments import timing_row

    units = [
        partial(timing_row, ds, T, 1000.0, None, None, 0)
        for ds in args.datasets
        for T in args.thresholds
    ]
    t_alone, alone = wall(side_by_side, units, 1)
    t_side, side = wall(side_by_side, units, 2)
    names = [f"{ds} T={T}" for ds in args.datasets for T in args.thresholds]
    print(f"{'unit':<26} {'time':<15} {'alone s':>8} {'side s':>8} {'side/alone':>10}")
    for name, a, s in zip(names, alone, side):
        for col in TIMES:
            print(f"{name:<26} {col:<15} {a[col]:>8.2f} {s[col]:>8.2f} {s[col] / a[col]:>10.2f}")
    total_a = sum(a[c] for a in alone for c in TIMES)
    total_s = sum(s[c] for s in side for c in TIMES)
    print(
        f"sum of the units' times: alone {total_a:.1f} s, side by side {total_s:.1f} s, ratio "
        f"{total_s / total_a:.2f}"
    )
    print(
        f"wall time of the section: one at a time {t_alone:.1f} s, two at a time {t_side:.1f} s, "
        f"{ratio(t_alone, t_side):.2f}x"
    )


if __name__ == "__main__":
    main()
