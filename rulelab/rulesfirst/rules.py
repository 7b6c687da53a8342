"""Single-feature rules and the ordered rule list of a rules-first classifier.

A rule of Cohen et al. (2019) is one feature: it *covers* a sample when the feature is
positive (``x(j) > 0``), and then it decides the label. The list is ordered: the first rule
that fires decides, so a sample covered by rules of both labels gets the earlier rule's label.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import pandas as pd
import scipy.sparse as sp

from ..rules import Clause, DecisionList, Term

DEFAULT_CONDITION = "{feature} > 0"


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
    term : rulelab.rules.Term, optional
        The test the rule feature stands for on the data the learner was given: ``name > 0``
        by default, ``colour == red`` for a category the learner one-hot encoded.
    """

    feature: int
    label: object
    name: str
    support: int = 0
    purity: float = float("nan")
    term: Term | None = None

    @property
    def test(self) -> Term:
        """The rule's condition as a :class:`rulelab.rules.Term`."""
        return self.term if self.term is not None else Term(self.name, ">", 0)

    def describe(self, condition: str = DEFAULT_CONDITION) -> str:
        """The rule in words, e.g. ``IF "disappoint" in tweet THEN negative``."""
        text = self.test if condition == DEFAULT_CONDITION else condition.format(feature=self.name)
        return f"IF {text} THEN {self.label}"


class RuleList(DecisionList):
    """The ordered rules of a rules-first classifier: a :class:`rulelab.rules.DecisionList`
    that also keeps each rule's column index and statistics.

    ``apply`` takes the learner's numeric matrix (rules by column index) or a DataFrame (rules
    by their terms); ``str()`` prints one rule per line and what decides the rest.

    Parameters
    ----------
    rules : list of Rule
    condition : str
        Template of a rule's condition in print, ``{feature}`` standing for the feature name
        (e.g. ``'"{feature}" in tweet'``); the default prints the rule's term.
    otherwise : str
        What decides the samples no rule covers, in words.
    fallback : fitted model, optional
        That model (:class:`~rulelab.rulesfirst._base.BaseModel`, a base classifier, or
        :class:`~rulelab.rulesfirst._base.Halfspace`), with its declared link; the learner's
        ``predict``, ``predict_proba`` and ``decision_function`` come from it and the rules.
    """

    def __init__(
        self,
        rules=(),
        condition: str = DEFAULT_CONDITION,
        otherwise: str = "the base classifier",
        *,
        fallback=None,
    ):
        self.rules = list(rules)
        self.condition = condition
        super().__init__(
            [Clause((r.test,)) for r in self.rules],
            [r.label for r in self.rules],
            otherwise=otherwise,
            fallback=fallback,
        )

    def __iter__(self) -> Iterator[Rule]:
        return iter(self.rules)

    def __getitem__(self, item):
        # a slice holds the rules only: the fallback model was fitted for the whole list
        if isinstance(item, slice):
            return RuleList(self.rules[item], self.condition, self.otherwise)
        return self.rules[item]

    def _conditions(self) -> list[str]:
        # a custom template prints the rule's feature in it ('"disappoint" in tweet')
        if self.condition == DEFAULT_CONDITION:
            return super()._conditions()
        return [self.condition.format(feature=r.name) for r in self.rules]

    def __repr__(self) -> str:
        return f"RuleList({len(self.rules)} rules)"

    @property
    def feature_indices(self) -> list[int]:
        """Column indices of the rule features, in order."""
        return [r.feature for r in self.rules]

    def simplified(self) -> RuleList:
        """The list itself: a rule of one term has nothing to simplify."""
        return self

    def to_frame(self) -> pd.DataFrame:
        """One row per rule: order, feature name and index, label, support, purity, text."""
        return pd.DataFrame(
            {
                "order": range(1, len(self.rules) + 1),
                "feature": [r.name for r in self.rules],
                "index": [r.feature for r in self.rules],
                "label": [r.label for r in self.rules],
                "support": [r.support for r in self.rules],
                "purity": [r.purity for r in self.rules],
                "rule": [r.describe(self.condition) for r in self.rules],
            }
        )

    def apply(self, X) -> np.ndarray:
        """Index of the first rule that fires on each row of ``X``, -1 where none does: by
        column index on a matrix, by the rules' terms on a DataFrame."""
        if isinstance(X, pd.DataFrame):
            return super().apply(X)
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
