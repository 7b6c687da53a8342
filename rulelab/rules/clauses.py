"""The AND or the OR of terms (:class:`Clause`), and what every rule of clauses reports."""

from __future__ import annotations

import json
import math
import numbers
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .query import _QUERY_FALSE, _QUERY_TRUE
from .sql import _check_dialect
from .terms import Term, _distinct_texts, _term, clashing_features, evaluate_terms

__all__ = ["Clause", "simplify_clause", "simplify_rules"]


@dataclass(frozen=True)
class Clause:
    """The AND (``op="and"``) or OR (``op="or"``) of terms.

    An empty AND-clause is always true; an empty OR-clause is always false.
    """

    terms: tuple[Term, ...]
    op: str = "and"

    def __post_init__(self):
        if self.op not in ("and", "or"):
            raise ValueError(f"a clause is an 'and' or an 'or', not {self.op!r}")
        object.__setattr__(self, "terms", tuple(self.terms))

    def evaluate(self, X: pd.DataFrame) -> np.ndarray:
        if not self.terms:
            return np.full(len(X), self.op == "and")
        parts = evaluate_terms(self.terms, X)
        return np.logical_and.reduce(parts) if self.op == "and" else np.logical_or.reduce(parts)

    @property
    def n_terms(self) -> int:
        return len(self.terms)

    def __len__(self) -> int:
        return len(self.terms)

    def __str__(self) -> str:
        return self.describe()

    def describe(self, exact_features: frozenset = frozenset()) -> str:
        """The clause in words; the thresholds of the features in ``exact_features`` (a
        rule's other clauses cut them so close that they would print alike) in full."""
        if not self.terms:
            return "TRUE" if self.op == "and" else "FALSE"
        return f" {self.op.upper()} ".join(_distinct_texts(self.terms, exact_features))

    def to_dict(self) -> dict:
        return {"type": "clause", "op": self.op, "terms": [t.to_dict() for t in self.terms]}

    def to_query(self) -> str:
        """A ``DataFrame.query(..., engine="python")`` string selecting the rows it holds on."""
        if not self.terms:
            return _QUERY_TRUE if self.op == "and" else _QUERY_FALSE
        joiner = " & " if self.op == "and" else " | "
        return "(" + joiner.join(t.to_query() for t in self.terms) + ")"

    def to_json(self) -> str:
        """The clause as strict JSON (no NaN or infinity literals)."""
        return json.dumps(self.to_dict(), allow_nan=False)

    def to_sql(self, table: str | None = None, *, dialect: str = "standard") -> str:
        """A SQL boolean expression (``1 = 1`` / ``1 = 0`` for the empty clause); ``dialect``
        is one of :data:`SQL_DIALECTS`."""
        _check_dialect(dialect)
        if not self.terms:
            return "(1 = 1)" if self.op == "and" else "(1 = 0)"
        joiner = " AND " if self.op == "and" else " OR "
        return "(" + joiner.join(t.to_sql(table, dialect=dialect) for t in self.terms) + ")"

    def to_pandas_query(self) -> str:
        """Alias of :meth:`to_query`."""
        return self.to_query()

    def simplified(self) -> Clause:
        """The same clause without redundant terms: true on exactly the same rows.

        Binarisation gives every numeric feature nested half-spaces (``x > t`` for ten
        thresholds ``t``), and an LP that rounds a fractional solution often keeps several
        of them. Within an AND-clause only the tightest bound of each feature and direction
        matters (``x > 1 AND x > 2`` is ``x > 2``, ``x <= 5 AND x <= 3`` is ``x <= 3``);
        within an OR-clause only the loosest (``x > 1 OR x > 2`` is ``x > 1``). Both hold
        on missing values too, where every comparison is False. Repeated terms are dropped;
        everything else (other operators, non-numeric or NaN thresholds) is kept, in the
        order of first appearance.
        """
        keep_larger = {">": self.op == "and", "<=": self.op == "or"}
        best: dict = {}
        for term in self.terms:
            bound = (
                term.op in keep_larger
                and isinstance(term.value, numbers.Real)
                and not math.isnan(term.value)
            )
            key = (term.feature, term.op) if bound else (term.feature, term.op, term.value)
            old = best.get(key)
            if old is None or (
                bound
                and term.value != old.value
                and (term.value > old.value) == keep_larger[term.op]
            ):
                best[key] = term  # a dict keeps the position of the key's first term
        return Clause(tuple(best.values()), self.op)


class _ClauseCollection:
    """What every rule made of several clauses reports: its size and the features it reads."""

    clauses: tuple

    @property
    def n_terms(self) -> int:
        """Number of terms over all clauses."""
        return sum(c.n_terms for c in self.clauses)

    def features(self) -> set[str]:
        """The distinct features the rule reads."""
        return {t.feature for c in self.clauses for t in c.terms}

    def __len__(self) -> int:
        return len(self.clauses)

    @property
    def n_rules(self) -> int:
        """Number of clauses (rules)."""
        return len(self.clauses)

    def exact_features(self) -> frozenset:
        """The features whose thresholds the printout gives in full: distinct cuts on them,
        in one clause or in two, would otherwise print alike."""
        return clashing_features([t for c in self.clauses for t in c.terms])

    def clause_texts(self) -> list[str]:
        """Each clause in words, distinct cuts across the whole rule printed apart."""
        exact = self.exact_features()
        return [c.describe(exact) for c in self.clauses]

    def to_json(self, **kwargs) -> str:
        """The rule as strict JSON (no NaN or infinity literals); ``kwargs`` go to
        :func:`json.dumps`."""
        return json.dumps(self.to_dict(), **{"allow_nan": False, **kwargs})


def _and_clauses_with(clauses, values, what: str, kind: str) -> tuple[tuple, tuple]:
    """``clauses`` and ``values`` as tuples, one value (a weight, a label) per AND-clause."""
    clauses, values = tuple(clauses), tuple(values)
    if len(clauses) != len(values):
        raise ValueError(f"{len(clauses)} clauses but {len(values)} {what}s: one {what} per clause")
    for c in clauses:
        if not isinstance(c, Clause) or c.op != "and":
            raise ValueError(f"a {kind} holds AND-clauses")
    return clauses, values


def _clause(d: dict) -> Clause:
    return Clause(tuple(_term(t) for t in d["terms"]), d["op"])


def simplify_clause(clause: Clause) -> Clause:
    """``clause.simplified()``: the same clause without redundant nested thresholds."""
    return clause.simplified()


def simplify_rules(rules):
    """``rules.simplified()`` for a Clause, DNF, CNF or WeightedRuleSet (the same
    predictions, shorter to read)."""
    return rules.simplified()
