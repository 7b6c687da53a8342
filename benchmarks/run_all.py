"""Run every benchmark in turn, each in its own process (``make bench``).

Each script prints its own ratios, measured side by side in one run; this runner only
names the script before its output and reports the ones that failed. The scripts run with
their defaults, from the project's root as ``python -m benchmarks.<part>.<script>``.

Run: ``python benchmarks/run_all.py [--part library] [--only grab colgen]``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PARTS = ("library", "repro")  # rulelab's algorithms; the reproduction's units of work


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--part", nargs="*", choices=PARTS, default=list(PARTS), help="run only these folders"
    )
    parser.add_argument(
        "--only", nargs="*", default=None, help="run only bench_<name>.py for these names"
    )
    args = parser.parse_args()
    scripts = [s for part in args.part for s in sorted((HERE / part).glob("bench_*.py"))]
    if args.only:
        scripts = [s for s in scripts if s.stem.removeprefix("bench_") in args.only]
        if not scripts:
            parser.error(f"no benchmark named {args.only}")
    failed = []
    for script in scripts:
        name = f"{script.parent.name}/{script.name}"
        module = f"benchmarks.{script.parent.name}.{script.stem}"
        print(f"\n=== {name} ===", flush=True)
        start = time.perf_counter()  # only to say how long each script took
        code = subprocess.call([sys.executable, "-m", module], cwd=HERE.parent)
        print(f"--- {name}: exit {code}, {time.perf_counter() - start:.0f} s", flush=True)
        if code:
            failed.append(name)
    if failed:
        print(f"\nfailed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
