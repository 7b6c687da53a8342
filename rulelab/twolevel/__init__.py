"""Two-level Boolean rules (CNF/DNF) by block coordinate descent and alternating
minimisation (Su, Wei, Varshney & Malioutov 2016).

Modules: :mod:`~rulelab.twolevel.objective` (the regularised Hamming loss, eqs. 3-5),
:mod:`~rulelab.twolevel.optimize` (set-cover initialisation, BCD, AM on a 0/1 design),
:mod:`~rulelab.twolevel.starts` (the set-cover starts a process has computed, by content),
:mod:`~rulelab.twolevel.estimator` (the scikit-learn classifier :class:`TwoLevelRules`).
"""

from .estimator import TwoLevelRules, format_rule
from .objective import hamming_objective

__all__ = ["TwoLevelRules", "format_rule", "hamming_objective"]
