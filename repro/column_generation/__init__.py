"""Notebook 08, column generation: exact recovery, pricing, certificates and the path.

Its face, the same in every paper's package: ``PARAMETERS`` (the notebook's parameters with
their QUICK and FULL values), ``claims`` (the verdicts from the result tables), ``FIGURES``
(each figure from the result files) and ``run`` (the notebook, through the pipeline).
"""

from repro.column_generation.experiments import claims
from repro.column_generation.figures import FIGURES
from repro.column_generation.parameters import PARAMETERS
from repro.core.pipeline import run_notebook

__all__ = ["FIGURES", "PARAMETERS", "claims", "run"]


def run(mode: str = "quick", jobs: int = 2, **params) -> int:
    """Run notebook 08_column_generation (``mode`` "quick" or "full", ``params`` overriding its
    parameters); 0 when it ran. Where it writes follows from its parameters
    (:func:`repro.core.runs.start_run`)."""
    return run_notebook("08_column_generation", mode, jobs, params)
