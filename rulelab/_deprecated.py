"""Former class names, kept for one release: each warns and then works as the new class."""

from __future__ import annotations

import warnings

from .rulesets import BoostedLPRules
from .rulesfirst import RulesFirstClassifier

__all__ = ["BoostedRules", "GreedyRuleClassifier"]


def _renamed_class(new: type, old: str) -> type:
    """A subclass of ``new`` named ``old`` whose fit warns that the name is going."""

    def fit(self, X, y, **kwargs):
        warnings.warn(
            f"{old} is deprecated in 0.2 and will be removed in 0.3: use "
            f"{new.__name__} (the same learner, named for its algorithm)",
            FutureWarning,
            stacklevel=2,
        )
        return new.fit(self, X, y, **kwargs)

    doc = f"Deprecated name of :class:`{new.__name__}` (deprecated in 0.2, removed in 0.3)."
    return type(old, (new,), {"fit": fit, "__doc__": doc, "__module__": __name__})


BoostedRules = _renamed_class(BoostedLPRules, "BoostedRules")
GreedyRuleClassifier = _renamed_class(RulesFirstClassifier, "GreedyRuleClassifier")
