"""Single-feature rules and the ordered rule list of a rules-first classifier.

A rule of Cohen et al. (2019) is one feature: it *covers* a sample when the feature is
positive (``x(j) > 0``), and then it decides the label. The list is ordered: the first rule
that fires decides, so a sample covered by rules of both labels gets the earlier rule's label.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import scipy.sparse as sp


@dataclass(frozen=True)
class Rule:
    """``IF feature > 0 THEN label``, with the statistics it was chosen on.

    Parameters
    ----------
    feature : int
        Column index of the rule feature.
    label : object
        The class the rule predicts (one of the classifier's ``classes_``).
    name : str
        The feature's name, used when printing.
    support : int
        Samples of the fitting data the rule covers.
    purity : float
        Fraction of those samples whose label is ``label``.
    """

    feature: int
    label: object
    name: str
    support: int = 0
    purity: float = float("nan")

    def describe(self, condition: str = "{feature} > 0") -> str:
        """The rule in words, e.g. ``IF "disappoint" in tweet THEN negative``."""
        return f"IF {condition.format(feature=self.name)} THEN {self.label}"


@dataclass
class RuleList:
    """An ordered list of :class:`Rule`; ``str()`` prints one rule per line.

    Parameters
    ----------
    rules : list of Rule
    condition : str
        Template of a rule's condition, ``{feature}`` standing for the feature name.
    """

    rules: list[Rule] = field(default_factory=list)
    condition: str = "{feature} > 0"

    def __len__(self) -> int:
        return len(self.rules)

    def __iter__(self) -> Iterator[Rule]:
        return iter(self.rules)

    def __getitem__(self, item):
        if isinstance(item, slice):
            return RuleList(self.rules[item], self.condition)
        return self.rules[item]

    def __str__(self) -> str:
        if not self.rules:
            return "(no rules: every sample goes to the base classifier)"
        return "\n".join(r.describe(self.condition) for r in self.rules)

    def __repr__(self) -> str:
        return f"RuleList({len(self.rules)} rules)"

    @property
    def n_rules(self) -> int:
        """Number of rules (for :func:`rulelab.evaluate.complexity`)."""
        return len(self.rules)

    @property
    def n_terms(self) -> int:
        """Number of conditions: one per rule."""
        return len(self.rules)

    @property
    def features(self) -> list[int]:
        """Column indices of the rule features, in order."""
        return [r.feature for r in self.rules]

    def to_frame(self) -> pd.DataFrame:
        """One row per rule: order, feature name and index, label, support, purity, text."""
        return pd.DataFrame({
            "order": range(1, len(self.rules) + 1),
            "feature": [r.name for r in self.rules],
            "index": [r.feature for r in self.rules],
            "label": [r.label for r in self.rules],
            "support": [r.support for r in self.rules],
            "purity": [r.purity for r in self.rules],
            "rule": [r.describe(self.condition) for r in self.rules],
        })

    def apply(self, X) -> np.ndarray:
        """Index of the first rule that fires on each row of ``X``, -1 where none does."""
        first = np.full(X.shape[0], -1, dtype=np.int64)
        for i, rule in enumerate(self.rules):
            fires = covers(X, rule.feature)
            first[(first < 0) & fires] = i
        return first


def covers(X, j: int) -> np.ndarray:
    """Boolean mask of the rows where feature ``j`` is positive (works for sparse ``X``)."""
    col = X[:, j]
    if sp.issparse(col):
        col = col.toarray()
    return np.asarray(col).ravel() > 0


def coverage_matrix(X) -> sp.csc_matrix:
    """``X > 0`` as a sparse 0/1 float matrix, so rule statistics are matrix products."""
    if sp.issparse(X):
        B = sp.csc_matrix(X, copy=True)
        B.data = (B.data > 0).astype(np.float64)
        B.eliminate_zeros()
        return B
    return sp.csc_matrix((np.asarray(X) > 0).astype(np.float64))
