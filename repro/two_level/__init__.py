"""Notebook 03, paper 2's two-level rules: BCD, AM and SC against OCRL, C5.0 and Table 1.

Its face, the same in every paper's package: ``PARAMETERS`` (the notebook's parameters with
their QUICK and FULL values), ``claims`` (the verdicts from the result tables), ``FIGURES``
(each figure from the result files) and ``run`` (the notebook, through the pipeline).
"""

from repro.core.pipeline import run_notebook
from repro.two_level.experiments import claims
from repro.two_level.figures import FIGURES
from repro.two_level.parameters import PARAMETERS

__all__ = ["FIGURES", "PARAMETERS", "claims", "run"]


def run(mode: str = "quick", jobs: int = 2, **params) -> int:
    """Run notebook 03_two_level (``mode`` "quick" or "full", ``params`` overriding its
    parameters); 0 when it ran. Where it writes follows from its parameters
    (:func:`repro.core.runs.start_run`)."""
    return run_notebook("03_two_level", mode, jobs, params)
