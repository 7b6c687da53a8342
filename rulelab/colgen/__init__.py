"""Column generation for rule sets: the papers' parts in one learner.

The master LP of the rule-set integer program (papers 1-2), priced exactly by a weighted
itemset search with bounds (paper 4) after screening (paper 3); see :mod:`.solver`.
"""

from .estimator import COMPLEXITY_PATH, ColumnGenerationRules
from .pricing import price_beam, price_exact, price_milp
from .selection import ColumnGenerationRulesCV
from .solver import ColumnGenerationResult, ColumnGenerator, column_generation

__all__ = [
    "ColumnGenerationRules",
    "ColumnGenerationRulesCV",
    "COMPLEXITY_PATH",
    "column_generation",
    "ColumnGenerator",
    "ColumnGenerationResult",
    "price_exact",
    "price_beam",
    "price_milp",
]
