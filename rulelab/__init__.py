"""rulelab: interpretable Boolean rule learning, from five papers, in one small package.

The learners are scikit-learn estimators that print what they learned in words::

    >>> from rulelab import OneRule, load_dataset
    >>> X, y = load_dataset("pima")
    >>> print(OneRule().fit(X, y))                     # doctest: +SKIP

See the README for the module map and the notebooks for each paper's reproduction.
"""

from .data import list_datasets, load_csv, load_dataset

__version__ = "0.2.0.dev0"

__all__ = ["load_dataset", "list_datasets", "load_csv"]

# --- exports of the method modules (one block per module; keep each block self-contained) ---
from .binarize import FeatureBinarizer
from .rules import CNF, DNF, Clause, Term
from .rulesets import OneRule

__all__ += ["FeatureBinarizer", "Term", "Clause", "DNF", "CNF", "OneRule"]

from .rules import WeightedRuleSet
from .rulesets import BoostedLPRules, SetCoverRules

__all__ += ["SetCoverRules", "BoostedLPRules", "WeightedRuleSet"]

from .rulesfirst import BoostRule, RulesFirstClassifier, make_rules_first

__all__ += ["RulesFirstClassifier", "BoostRule", "make_rules_first"]

from .twolevel import TwoLevelRules

__all__ += ["TwoLevelRules"]

from .screening import screen

__all__ += ["screen"]

from .grab import CBMClassifier, CellBinarizer, count_itemsets, expand, wfim

__all__ += ["CBMClassifier", "CellBinarizer", "wfim", "count_itemsets", "expand"]

from .colgen import ColumnGenerationRules

__all__ += ["ColumnGenerationRules"]

from .rulesfirst import GreedyRule

ESTIMATORS = {cls.__name__: cls for cls in (
    OneRule, SetCoverRules, BoostedLPRules, TwoLevelRules, ColumnGenerationRules, CBMClassifier,
    RulesFirstClassifier, GreedyRule, BoostRule)}
"""Every public learner by name. All derive from :class:`rulelab._base.LearnerBase` (one
input contract) and are tested together by scikit-learn's estimator checks and one battery
of awkward inputs."""

__all__ += ["GreedyRule", "ESTIMATORS"]

from ._deprecated import BoostedRules, GreedyRuleClassifier  # former names, removed in 0.3

__all__ += ["BoostedRules", "GreedyRuleClassifier"]
