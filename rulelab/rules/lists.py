"""Ordered rules (:class:`DecisionList`): the first firing rule decides, then a default label
or a fitted fallback model."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._values import _py
from .clauses import _and_clauses_with, _ClauseCollection
from .query import _QUERY_FALSE, _QUERY_TRUE
from .sql import _check_dialect, _sql_value

__all__ = ["DecisionList", "FALLBACK_LINKS"]

#: How a decision list's fallback model declares what its output means (see DecisionList).
FALLBACK_LINKS = ("probability", "score")


class DecisionList(_ClauseCollection):
    """An ordered list of rules ``IF clause THEN label``: the first rule that fires decides.

    Two kinds of list share this type. With ``default`` a label, the list is a complete
    classifier: the rows no rule covers get ``default`` (RIPPER's ordered rule sets, and
    :class:`~rulelab.ColumnGenerationRules` on more than two classes). Without it, rows no
    rule covers are decided by ``otherwise``, a fitted model (the rules of a rules-first
    classifier, Cohen et al. 2019, say a logistic regression on the other features):
    :meth:`evaluate` gives the rules' part (``None`` on those rows), :meth:`class_index`,
    :meth:`probability` and :meth:`score` the whole model when the list holds the model
    as ``fallback``.

    The fallback declares its link, which is then the list's: a rule decides its rows for
    certain (probability 1 for its label, score +-inf) and the fallback the others, by
    ``link = "probability"`` (``predict_proba``: the most probable class, the signed
    log-odds as score) or ``link = "score"`` (``decision_function``, a score positive for
    ``classes_[1]``, as a hinge-loss halfspace, with no probability). JSON, SQL and query
    strings hold the rules only, the fallback named by ``otherwise``: a fitted model has
    no portable text form here.

    Parameters
    ----------
    clauses : sequence of Clause
        AND-clauses, in the order they are tried.
    labels : sequence
        The label each rule predicts.
    otherwise : str, default="the base model"
        What decides the rows no rule covers, in words (unused when ``default`` is given).
    default : label, optional
        The label of the rows no rule covers.
    fallback : fitted model, optional
        The model ``otherwise`` names: ``classes_`` (its labels), ``link`` and, by its
        link, ``predict_proba`` (columns in ``classes_`` order) or ``decision_function``;
        it reads the rows no rule covers in the form the list is given them.
    """

    def __init__(
        self,
        clauses=(),
        labels=(),
        *,
        otherwise: str = "the base model",
        default=None,
        fallback=None,
    ):
        clauses, labels = _and_clauses_with(clauses, labels, "label", "DecisionList")
        if fallback is not None and getattr(fallback, "link", None) not in FALLBACK_LINKS:
            raise ValueError(
                f"a fallback model declares its link, one of {FALLBACK_LINKS}: "
                f"{type(fallback).__name__} has link {getattr(fallback, 'link', None)!r}"
            )
        self.clauses = clauses
        self.labels = labels
        self.otherwise = otherwise
        self.default = default
        self.fallback = fallback

    @property
    def has_fallback_model(self) -> bool:
        """Whether a fitted model (``fallback``) decides the rows no rule covers."""
        return self.fallback is not None

    @property
    def has_probability(self) -> bool:
        """Whether the list gives class probabilities: by its fallback's link (a score
        alone gives none); a list with a default by its rules' class frequencies."""
        return self.fallback is None or self.fallback.link == "probability"

    def _lookup(self, classes) -> tuple[dict, np.ndarray]:
        """The index of each class label, and of each rule's label (-1 at the end)."""
        index = {_py(label): k for k, label in enumerate(np.asarray(classes).tolist())}
        try:
            rules = [index[_py(label)] for label in self.labels]
        except KeyError as error:
            raise ValueError(
                f"rule label {error.args[0]!r} is not one of the classes {list(classes)}"
            ) from None
        return index, np.array(rules + [-1], dtype=np.int64)

    def _fallback_rows(self, X, rest: np.ndarray):
        """The rows no rule decides, for the fallback, or a clear error without one."""
        if self.fallback is None:
            raise ValueError(
                f"no rule fires on {int(rest.sum())} rows and the list holds neither a "
                f"default nor its fallback model ({self.otherwise}): a list read back "
                "from JSON keeps only the rules (evaluate() gives their labels)"
            )
        return X.iloc[np.flatnonzero(rest)] if isinstance(X, pd.DataFrame) else X[rest]

    def class_index(self, X, classes) -> np.ndarray:
        """Index into ``classes`` of the class each row gets: the first firing rule's
        label; where none fires, the default, or the fallback's class (its most probable
        one, or ``classes[1]`` where its score is positive)."""
        if self.fallback is not None and self.fallback.link == "probability":
            return self.probability(X, classes).argmax(axis=1)
        if self.fallback is not None:
            return (self.score(X, classes) > 0).astype(np.int64)
        index, lookup = self._lookup(classes)
        out = lookup[self.apply(X)]
        rest = out < 0
        if rest.any():
            if self.default is None:
                self._fallback_rows(X, rest)  # raises: nothing decides these rows
            out[rest] = index[_py(self.default)]
        return out

    def decide(self, X) -> np.ndarray:
        """Object array: the label every row gets (the rules, then the default or the
        fallback model)."""
        if self.fallback is None:
            rest = self.apply(X) < 0
            if self.default is None and rest.any():
                self._fallback_rows(X, rest)  # raises: nothing decides these rows
            return self.evaluate(X)
        classes = np.asarray(self.fallback.classes_, dtype=object)
        return classes[self.class_index(X, classes)]

    def probability(self, X, classes) -> np.ndarray:
        """Class probabilities, shape ``(n_rows, len(classes))``, of a list with a
        fallback model: 1 for the deciding rule's label; the fallback's ``predict_proba``
        where no rule fires."""
        if not self.has_fallback_model or not self.has_probability:
            raise ValueError(
                "probabilities need a fallback model with link 'probability' "
                f"(this list's rows no rule covers go to {self.otherwise!r})"
            )
        index, lookup = self._lookup(classes)
        first = self.apply(X)
        proba = np.zeros((first.size, len(index)))
        rest = first < 0
        if rest.any():
            cols = [index[_py(c)] for c in np.asarray(self.fallback.classes_).tolist()]
            part = np.zeros((int(rest.sum()), len(index)))
            part[:, cols] = self.fallback.predict_proba(self._fallback_rows(X, rest))
            proba[rest] = part
        hit = np.flatnonzero(~rest)
        proba[hit, lookup[first[hit]]] = 1.0
        return proba

    def score(self, X, classes) -> np.ndarray:
        """A two-class score, positive exactly where the list gives ``classes[1]``: +-inf
        where a rule decides (it is certain); where none fires, the fallback's
        ``decision_function`` (link "score") or the signed log-odds of its probabilities
        (link "probability", at least 1e-6 in size so the sign is never lost)."""
        if len(classes) != 2:
            raise ValueError(f"a score needs two classes, got {len(classes)}")
        _, lookup = self._lookup(classes)
        first = self.apply(X)
        out = np.where(lookup[first] == 1, np.inf, -np.inf)
        rest = first < 0
        if not rest.any():
            return out
        rows = self._fallback_rows(X, rest)
        if self.fallback.link == "score":
            # scored on every row and then picked: a matrix product over a subset of the
            # rows can differ in the last bit, and a score should not depend on its batch
            score = np.asarray(self.fallback.decision_function(X), dtype=float).ravel()
            out[rest] = score[rest]
            return out
        proba = self.probability(rows, classes)
        with np.errstate(divide="ignore"):
            size = np.abs(np.log(proba[:, 1]) - np.log(proba[:, 0]))
        size = np.maximum(np.nan_to_num(size, nan=0.0), 1e-6)
        out[rest] = np.where(proba.argmax(axis=1) == 1, size, -size)
        return out

    def apply(self, X: pd.DataFrame) -> np.ndarray:
        """Index of the first rule that fires on each row of ``X``, -1 where none does."""
        first = np.full(len(X), -1, dtype=np.int64)
        for i, clause in enumerate(self.clauses):
            first[(first < 0) & clause.evaluate(X)] = i
        return first

    def evaluate(self, X: pd.DataFrame) -> np.ndarray:
        """Object array: the deciding rule's label; where no rule fires, ``default``
        (``None`` when the list has none: ``otherwise`` decides there)."""
        first = self.apply(X)
        labels = np.empty(len(self.labels) + 1, dtype=object)
        labels[:-1] = self.labels
        labels[-1] = self.default
        return labels[first]  # first == -1 picks the trailing default

    def simplified(self) -> DecisionList:
        """The same list with every clause :meth:`Clause.simplified`."""
        return type(self)(
            [c.simplified() for c in self.clauses],
            self.labels,
            otherwise=self.otherwise,
            default=self.default,
            fallback=self.fallback,
        )

    def __eq__(self, other) -> bool:
        return (
            type(self) is type(other)
            and self.clauses == other.clauses
            and self.labels == other.labels
            and self.default == other.default
        )

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.clauses, self.labels, self.default))

    def _conditions(self) -> list[str]:
        """Each rule's condition in words, distinct cuts across the list printed apart."""
        return self.clause_texts()

    def __str__(self) -> str:
        lines = [
            f"{'IF' if i == 0 else 'ELSE IF'} {text} THEN {label}"
            for i, (text, label) in enumerate(zip(self._conditions(), self.labels))
        ]
        if self.default is not None:
            return "\n".join(
                lines + [f"ELSE {self.default}" if lines else f"IF TRUE THEN {self.default}"]
            )
        return "\n".join(lines + [f"{'ELSE ' if lines else ''}{self.otherwise}"])

    def __repr__(self) -> str:
        return f"DecisionList({len(self.clauses)} rules, {self.n_terms} terms)"

    def to_dict(self) -> dict:
        out = {
            "type": "decision_list",
            "otherwise": self.otherwise,
            "labels": [_py(label) for label in self.labels],
            "clauses": [c.to_dict() for c in self.clauses],
        }
        if self.default is not None:
            out["default"] = _py(self.default)
        return out

    def to_sql(self, table: str | None = None, *, dialect: str = "standard") -> str:
        """A SQL ``CASE`` expression: the deciding rule's label; where no rule fires,
        ``default`` (NULL when the list has none: ``otherwise`` decides there).
        ``dialect`` is one of :data:`SQL_DIALECTS`."""
        _check_dialect(dialect)
        fallback = "NULL" if self.default is None else _sql_value(self.default, dialect, "a label")
        if not self.clauses:
            return fallback
        whens = " ".join(
            f"WHEN {c.to_sql(table, dialect=dialect)} THEN {_sql_value(label, dialect, 'a label')}"
            for c, label in zip(self.clauses, self.labels)
        )
        return f"CASE {whens} ELSE {fallback} END"

    def to_query(self, label=None) -> str:
        """A ``DataFrame.query(..., engine="python")`` string selecting the rows a rule
        decides (``label=None``: not the rows left to ``default`` or ``otherwise``) or the
        rows the list gives ``label`` (with the rows no rule covers when ``label`` is the
        ``default``)."""
        picked = [i for i, lab in enumerate(self.labels) if label is None or lab == label]
        parts = []
        for i in picked:
            earlier = [f"~{c.to_query()}" for c in self.clauses[:i]]
            parts.append("(" + " & ".join(earlier + [self.clauses[i].to_query()]) + ")")
        if label is not None and self.default is not None and label == self.default:
            parts.append(
                "(" + " & ".join(f"~{c.to_query()}" for c in self.clauses) + ")"
                if self.clauses
                else _QUERY_TRUE
            )
        if not parts:
            return _QUERY_FALSE
        return " | ".join(parts)

    def to_pandas_query(self, label=None) -> str:
        """Alias of :meth:`to_query`."""
        return self.to_query(label)

    def explain(self, X: pd.DataFrame) -> list[str]:
        """For each row, the rule that decides it, or that none fires (and what decides)."""
        first = self.apply(X)
        rest = (
            f"no rule fires: {self.otherwise} decides"
            if self.default is None
            else f"no rule fires: default {self.default}"
        )
        texts = self._conditions()
        return [
            f"rule {i + 1}: IF {texts[i]} THEN {self.labels[i]}" if i >= 0 else rest for i in first
        ]
