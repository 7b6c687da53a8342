"""Boolean rules you can read: terms, clauses, DNF and CNF, and the models built from them.

A :class:`Term` is one Boolean test on one feature (``petal width (cm) <= 1.70``,
``Gender == Male``). A :class:`Clause` is the AND or the OR of terms; a :class:`DNF` is an
OR of AND-clauses, a :class:`CNF` an AND of OR-clauses. Every rule evaluates on a pandas
DataFrame, prints in plain words, counts its terms, round-trips through a dict/JSON, and
converts to a ``DataFrame.query`` string that selects exactly the rows it predicts 1 for.
The models built from them: :class:`WeightedRuleSet` (a weighted vote of clauses),
:class:`DecisionList` (ordered rules, then a default label or a fitted fallback model) and
:class:`WeightedVote` (a weighted vote of such lists); each declares the link from what it
evaluates to a probability, which the learners' ``predict_proba`` reads.

Missing values: every comparison with a missing value is False (``x <= t`` and ``x > t``
alike); the terms ``is missing`` / ``is not missing`` test for them explicitly.

One idea per module: :mod:`~rulelab.rules.terms` (the test on one feature),
:mod:`~rulelab.rules.clauses` (AND / OR of terms), :mod:`~rulelab.rules.normal_forms` (DNF,
CNF), :mod:`~rulelab.rules.weighted` (a weighted vote of clauses and a vote's link),
:mod:`~rulelab.rules.lists` (decision lists), :mod:`~rulelab.rules.votes` (a vote of
lists), :mod:`~rulelab.rules.from_dict` (reading JSON back); the exports' quoting lives in
:mod:`~rulelab.rules.sql` and :mod:`~rulelab.rules.query`.
"""

from __future__ import annotations

from .clauses import Clause, simplify_clause, simplify_rules
from .from_dict import rule_from_dict
from .lists import FALLBACK_LINKS, DecisionList
from .normal_forms import CNF, DNF
from .sql import SQL_DIALECTS
from .terms import Term, format_value
from .terms import evaluate_terms as evaluate_terms  # the binarisers' (not in __all__)
from .votes import WeightedVote
from .weighted import WeightedRuleSet, weighted_from_dict

__all__ = [
    "Term",
    "Clause",
    "DNF",
    "CNF",
    "format_value",
    "rule_from_dict",
    "SQL_DIALECTS",
    "WeightedRuleSet",
    "weighted_from_dict",
    "DecisionList",
    "FALLBACK_LINKS",
    "WeightedVote",
    "simplify_clause",
    "simplify_rules",
]
