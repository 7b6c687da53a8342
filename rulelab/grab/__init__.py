"""GRAB: grafting with weighted frequent itemset mining for combinatorial binary models.

Lee, Matsushima & Yamanishi (2020), "Grafting for combinatorial binary model using
frequent itemset mining", Data Mining and Knowledge Discovery 34.

- :class:`CBMClassifier`  the learner (scikit-learn classifier)
- :mod:`.wfim`            weighted frequent itemset mining, counting, expansion
- :func:`graft`           the grafting loop (GRAB or naive grafting)
- :class:`SharedFirstSearch`  its first search, shared by fits over a grid of max_terms
- :class:`CellBinarizer`  the paper's 50 equal-width cells per quantitative attribute
- :mod:`.baselines`       expansion + LIBLINEAR and LRFIM
"""

from .binarize import CellBinarizer
from .classifier import CBMClassifier
from .grafting import GraftResult, SharedFirstSearch, graft
from .wfim import (
    ExhaustiveSearch,
    Itemsets,
    TopKMiner,
    TransactionMatrix,
    count_itemsets,
    expand,
    first_searches,
    frequent_itemsets,
    itemset_keys,
    wfim,
    wfim_bruteforce,
)

__all__ = [
    "CBMClassifier",
    "CellBinarizer",
    "graft",
    "GraftResult",
    "SharedFirstSearch",
    "wfim",
    "count_itemsets",
    "frequent_itemsets",
    "expand",
    "TopKMiner",
    "first_searches",
    "ExhaustiveSearch",
    "TransactionMatrix",
    "Itemsets",
    "itemset_keys",
    "wfim_bruteforce",
]
