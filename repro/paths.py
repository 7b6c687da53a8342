"""Where a run writes its tables and figures.

A FULL run (the main command) writes ``results/`` and ``figures/`` at the project root, the
outputs the repository commits. A QUICK run (the test suite, ``make quick``) writes under
``runs/quick/`` instead, so testing never overwrites a full reproduction's numbers with
small-sample ones. ``RULELAB_OUTPUT`` points both somewhere else.
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def quick_mode() -> bool:
    """True when ``RULELAB_QUICK=1`` (the notebooks' QUICK parameter reads the same)."""
    return os.environ.get("RULELAB_QUICK", "0") == "1"


def set_quick_mode(quick: bool) -> bool:
    """Make a notebook's own QUICK parameter decide where its run writes; returns QUICK.

    A notebook calls this right after its parameters cell: ``QUICK = set_quick_mode(QUICK)``.
    ``RULELAB_QUICK=1`` in the environment (the test command) turns QUICK on whatever the
    parameter says; QUICK is then written back to the environment, so that a QUICK run
    started any way -- papermill ``-p QUICK True``, the pipeline, nbval or JupyterLab --
    writes its tables and figures under ``runs/quick`` and never over the committed ones.
    """
    quick = bool(quick) or quick_mode()
    os.environ["RULELAB_QUICK"] = "1" if quick else "0"
    return quick


def output_root() -> Path:
    """``RULELAB_OUTPUT`` if set; else ``runs/quick`` in QUICK mode; else the project root."""
    env = os.environ.get("RULELAB_OUTPUT")
    if env:
        return Path(env)
    return ROOT / "runs" / "quick" if quick_mode() else ROOT


def output_dir(kind: str) -> Path:
    """``<output_root>/<kind>`` (``"results"`` or ``"figures"``), created on demand."""
    path = output_root() / kind
    path.mkdir(parents=True, exist_ok=True)
    return path
