"""Notebook 00, the tour: the iris rule of the Matlab quantile grids and the explorer.

Its face, the same in every paper's package: ``PARAMETERS`` (the notebook's parameters with
their QUICK and FULL values), ``claims`` (the verdicts from the result tables), ``FIGURES``
(each figure from the result files) and ``run`` (the notebook, through the pipeline).
"""

from repro.core.pipeline import run_notebook
from repro.tour.figures import FIGURES
from repro.tour.iris_quantiles import claims
from repro.tour.parameters import PARAMETERS

__all__ = ["FIGURES", "PARAMETERS", "claims", "run"]


def run(mode: str = "quick", jobs: int = 2, **params) -> int:
    """Run notebook 00_tour (``mode`` "quick" or "full", ``params`` overriding its
    parameters); 0 when it ran. Where it writes follows from its parameters
    (:func:`repro.core.runs.start_run`)."""
    return run_notebook("00_tour", mode, jobs, params)
