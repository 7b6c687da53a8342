"""The one timing module of the benchmarks: clocks, repeats, ratios and older revisions.

Every benchmark measures two ways side by side in one process and prints their ratio, so
the machine's load moves both alike. The clocks:

- :func:`cpu` (``time.process_time``): CPU seconds of this process, for single-threaded
  work on a shared machine, where other jobs inflate wall time but not CPU time;
- :func:`wall` (``time.perf_counter``): wall seconds, for work that runs threads or child
  processes (joblib, HiGHS, XGBoost) or whose waiting is part of the cost.

:func:`best_of` and :func:`median_of` repeat a call; :func:`ratio` divides the two ways'
seconds. A benchmark compares against an older revision of the code, not against a copy
of the former code kept in the script: :func:`add_against` gives a script its
``--against REV`` option and :func:`revision_package` imports ``rulelab`` as it was at that
revision, beside this tree's.
"""

from __future__ import annotations

import argparse
import importlib
import io
import re
import statistics
import subprocess
import sys
import tarfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}


def _timed(clock: str, fn: Callable[..., Any], *args, **kwargs) -> tuple[float, Any]:
    read = CLOCKS[clock]
    start = read()
    out = fn(*args, **kwargs)
    return read() - start, out


def cpu(fn: Callable[..., Any], *args, **kwargs) -> tuple[float, Any]:
    """(CPU seconds of this process, result) of one call ``fn(*args, **kwargs)``."""
    return _timed("cpu", fn, *args, **kwargs)


def wall(fn: Callable[..., Any], *args, **kwargs) -> tuple[float, Any]:
    """(wall seconds, result) of one call ``fn(*args, **kwargs)``."""
    return _timed("wall", fn, *args, **kwargs)


def _repeat(fn: Callable[[], Any], repeats: int, clock: str) -> tuple[list[float], Any]:
    times, out = [], None
    for _ in range(max(1, repeats)):
        seconds, out = _timed(clock, fn)
        times.append(seconds)
    return times, out


def best_of(fn: Callable[[], Any], repeats: int = 3, clock: str = "wall") -> tuple[float, Any]:
    """(the least seconds over ``repeats`` calls of ``fn()``, the last call's result)."""
    times, out = _repeat(fn, repeats, clock)
    return min(times), out


def median_of(fn: Callable[[], Any], repeats: int = 3, clock: str = "cpu") -> tuple[float, Any]:
    """(the median seconds over ``repeats`` calls of ``fn()``, the last call's result)."""
    times, out = _repeat(fn, repeats, clock)
    return statistics.median(times), out


def ratio(old: float, new: float) -> float:
    """``old / new``, the speed-up of ``new``; a zero time counts as a nanosecond."""
    return old / max(new, 1e-9)


def add_against(parser: argparse.ArgumentParser, default: str | None = None) -> None:
    """Give a benchmark the ``--against REV`` option: the git revision whose ``rulelab`` is
    timed beside this tree's."""
    parser.add_argument(
        "--against",
        default=default,
        metavar="REV",
        help="git revision whose rulelab is timed beside this tree's"
        + (f" (default {default})" if default else " (default: this tree alone)"),
    )


def revision_package(revision: str, where: Path, package: str = "rulelab") -> ModuleType:
    """``package`` as of git ``revision``, extracted under ``where`` and imported as
    ``<package>_<revision>``, so that it runs beside this tree's in one process (``rulelab``
    imports its own modules relatively, so the old copy runs its own code throughout)."""
    archive = subprocess.run(
        ["git", "archive", revision, package], cwd=ROOT, capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(where, filter="data")
    name = package + "_" + re.sub(r"\W", "_", revision)
    (where / package).rename(where / name)
    sys.path.insert(0, str(where))
    return importlib.import_module(name)
