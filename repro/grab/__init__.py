"""Notebook 05, paper 4's GRAB: the time to an objective, accuracy against size, Tables 1-2.

Its face, the same in every paper's package: ``PARAMETERS`` (the notebook's parameters with
their QUICK and FULL values), ``claims`` (the verdicts from the result tables), ``FIGURES``
(each figure from the result files) and ``run`` (the notebook, through the pipeline).
"""

from repro.core.pipeline import run_notebook
from repro.grab.claims import claims
from repro.grab.figures import FIGURES
from repro.grab.parameters import PARAMETERS

__all__ = ["FIGURES", "PARAMETERS", "claims", "run"]


def run(mode: str = "quick", jobs: int = 2, **params) -> int:
    """Run notebook 05_grab (``mode`` "quick" or "full", ``params`` overriding its
    parameters); 0 when it ran. Where it writes follows from its parameters
    (:func:`repro.core.runs.start_run`)."""
    return run_notebook("05_grab", mode, jobs, params)
