"""Notebook 07, the benchmark: rulelab's learners against the peers on public tables.

Its face, the same in every paper's package: ``PARAMETERS`` (the notebook's parameters with
their QUICK and FULL values), ``claims`` (the verdicts from the result tables), ``FIGURES``
(each figure from the result files) and ``run`` (the notebook, through the pipeline).
"""

from repro.benchmark.figures import FIGURES
from repro.benchmark.parameters import PARAMETERS
from repro.benchmark.tables import benchmark_claims as claims
from repro.core.pipeline import run_notebook

__all__ = ["FIGURES", "PARAMETERS", "claims", "run"]


def run(mode: str = "quick", jobs: int = 2, **params) -> int:
    """Run notebook 07_benchmark (``mode`` "quick" or "full", ``params`` overriding its
    parameters); 0 when it ran. Where it writes follows from its parameters
    (:func:`repro.core.runs.start_run`)."""
    return run_notebook("07_benchmark", mode, jobs, params)
