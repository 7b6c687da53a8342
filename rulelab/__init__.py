"""rulelab: interpretable Boolean rule learning, from five papers, in one small package.

The learners are scikit-learn estimators that print what they learned in words::

    >>> from rulelab import OneRule, load_dataset
    >>> X, y = load_dataset("pima")
    >>> print(OneRule().fit(X, y))                     # doctest: +SKIP

See the README for the module map and the notebooks for each paper's reproduction.
"""

from ._deprecated import BoostedRules, GreedyRuleClassifier  # former names, removed in 0.3
from .binarize import FeatureBinarizer
from .colgen import ColumnGenerationRules, ColumnGenerationRulesCV
from .data import list_datasets, load_csv, load_dataset
from .grab import CBMClassifier, CellBinarizer, count_itemsets, expand, wfim
from .rules import CNF, DNF, Clause, Term, WeightedRuleSet, WeightedVote
from .rulesets import BoostedLPRules, OneRule, SetCoverRules
from .rulesfirst import BoostRule, GreedyRule, RulesFirstClassifier, make_rules_first
from .screening import screen
from .twolevel import TwoLevelRules

__version__ = "0.2.0.dev0"

ESTIMATORS = {
    cls.__name__: cls
    for cls in (
        OneRule,
        SetCoverRules,
        BoostedLPRules,
        TwoLevelRules,
        ColumnGenerationRules,
        ColumnGenerationRulesCV,
        CBMClassifier,
        RulesFirstClassifier,
        GreedyRule,
        BoostRule,
    )
}
"""Every public learner by name. All derive from :class:`rulelab._base.LearnerBase` (one
input contract) and are tested together by scikit-learn's estimator checks and one battery
of awkward inputs."""

__all__ = [
    "load_dataset",
    "list_datasets",
    "load_csv",
    "FeatureBinarizer",
    "CellBinarizer",
    "Term",
    "Clause",
    "DNF",
    "CNF",
    "WeightedRuleSet",
    "WeightedVote",
    "OneRule",
    "SetCoverRules",
    "BoostedLPRules",
    "TwoLevelRules",
    "ColumnGenerationRules",
    "ColumnGenerationRulesCV",
    "CBMClassifier",
    "RulesFirstClassifier",
    "GreedyRule",
    "BoostRule",
    "make_rules_first",
    "screen",
    "wfim",
    "count_itemsets",
    "expand",
    "ESTIMATORS",
    "BoostedRules",
    "GreedyRuleClassifier",
]
