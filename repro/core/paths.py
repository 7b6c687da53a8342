"""Where a run writes its tables and figures.

A FULL run with a notebook's default parameters (the main command) writes ``results/`` and
``figures/`` at the project root, the outputs the repository commits. Any other run writes
under ``runs/<its parameters>/``, ``runs/quick/`` for a QUICK one: :func:`repro.core.runs.start_run`
decides this from the notebook's parameters and sets this process's output root. Before
a notebook has decided (a script, a test), ``RULELAB_QUICK=1`` means ``runs/quick/``.
``RULELAB_OUTPUT`` points every run somewhere else.
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_run_root: Path | None = None  # set by repro.core.runs.start_run (or the pipeline) for this process


def quick_mode() -> bool:
    """True when ``RULELAB_QUICK=1`` (the test command's request for QUICK settings)."""
    return os.environ.get("RULELAB_QUICK", "0") == "1"


def use_output_root(path: Path | None) -> None:
    """Make ``path`` this process's output root (None: back to the environment's choice)."""
    global _run_root
    _run_root = None if path is None else Path(path)


def output_root() -> Path:
    """``RULELAB_OUTPUT`` if set; else the folder ``repro.core.runs.start_run`` chose; else
    ``runs/quick`` in QUICK mode (``RULELAB_QUICK=1``) and the project root otherwise."""
    env = os.environ.get("RULELAB_OUTPUT")
    if env:
        return Path(env)
    if _run_root is not None:
        return _run_root
    return ROOT / "runs" / "quick" if quick_mode() else ROOT


def output_dir(kind: str) -> Path:
    """``<output_root>/<kind>`` (``"results"`` or ``"figures"``), created on demand."""
    path = output_root() / kind
    path.mkdir(parents=True, exist_ok=True)
    return path
