"""Run every benchmark of this folder in turn, each in its own process (``make bench``).

Each script prints its own ratios, measured side by side in one run; this runner only
names the script before its output and reports the ones that failed. Any further arguments
are passed to every script (e.g. none, for their defaults).

Run: ``python benchmarks/run_all.py [--only grab colgen]``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--only", nargs="*", default=None, help="run only bench_<name>.py for these names"
    )
    args = parser.parse_args()
    scripts = sorted(HERE.glob("bench_*.py"))
    if args.only:
        scripts = [s for s in scripts if s.stem.removeprefix("bench_") in args.only]
        if not scripts:
            parser.error(f"no benchmark named {args.only}")
    failed = []
    for script in scripts:
        print(f"\n=== {script.name} ===", flush=True)
        start = time.perf_counter()
        code = subprocess.call([sys.executable, str(script)], cwd=HERE.parent)
        print(f"--- {script.name}: exit {code}, {time.perf_counter() - start:.0f} s", flush=True)
        if code:
            failed.append(script.name)
    if failed:
        print(f"\nfailed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
