"""Rules-first classifiers (Cohen, Daniely, Globerson & Elidan, AISTATS 2019).

A rules-first classifier predicts with a few single-feature rules where one fires and with
a regularised (linear, or any) classifier elsewhere.

- :class:`RulesFirstClassifier` — the practical greedy algorithm of §7 (rules chosen on
  held-out data, logistic regression or any base classifier on the uncovered samples).
- :class:`GreedyRule` and :class:`BoostRule` — the algorithm of Fig. 1 (coverage threshold,
  norm-bounded hinge loss) and boosting on top of it (Theorem 3).
- :func:`make_rules_first` — the (k, B)-realizable synthetic data of §7.1.
"""

from .boost import BoostRule
from .greedy import RulesFirstClassifier, truncate_rules
from .rules import Rule, RuleList
from .synthetic import make_rules_first, rule_probability
from .theory import GreedyRule

__all__ = [
    "RulesFirstClassifier",
    "GreedyRule",
    "BoostRule",
    "make_rules_first",
    "rule_probability",
    "truncate_rules",
    "Rule",
    "RuleList",
]
