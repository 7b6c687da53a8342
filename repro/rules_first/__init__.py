"""Notebook 06, paper 5's rules-first classifiers: synthetic data and the sentiment corpora.

Its face, the same in every paper's package: ``PARAMETERS`` (the notebook's parameters with
their QUICK and FULL values), ``claims`` (the verdicts from the result tables), ``FIGURES``
(each figure from the result files) and ``run`` (the notebook, through the pipeline).
"""

from repro.core.pipeline import run_notebook
from repro.rules_first.claims import claims
from repro.rules_first.figures import FIGURES
from repro.rules_first.parameters import PARAMETERS

__all__ = ["FIGURES", "PARAMETERS", "claims", "run"]


def run(mode: str = "quick", jobs: int = 2, **params) -> int:
    """Run notebook 06_rules_first (``mode`` "quick" or "full", ``params`` overriding its
    parameters); 0 when it ran. Where it writes follows from its parameters
    (:func:`repro.core.runs.start_run`)."""
    return run_notebook("06_rules_first", mode, jobs, params)
