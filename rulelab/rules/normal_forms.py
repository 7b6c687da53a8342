"""Two-level Boolean rules: :class:`DNF` (an OR of AND-clauses), :class:`CNF` (an AND of
OR-clauses)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .clauses import Clause, _ClauseCollection
from .query import _QUERY_FALSE, _QUERY_TRUE
from .sql import _check_dialect

__all__ = ["DNF", "CNF"]


class _TwoLevel(_ClauseCollection):
    """Shared body of DNF (OR of AND-clauses) and CNF (AND of OR-clauses).

    ``numbered=True`` prints the rule numbered by clause, one term a line, as paper 2 prints
    its Parkinson's rule (:meth:`numbered_text`); it changes how the rule reads, not what
    it is: equality, JSON, SQL and queries ignore it.
    """

    outer: str = ""
    inner: str = ""

    def __init__(self, clauses=(), *, then: str = "1", numbered: bool = False):
        clauses = tuple(clauses)
        for c in clauses:
            if not isinstance(c, Clause) or c.op != self.inner:
                raise ValueError(f"a {type(self).__name__} holds {self.inner.upper()}-clauses")
        self.clauses = clauses
        self.then = then
        self.numbered = bool(numbered)

    def evaluate(self, X: pd.DataFrame) -> np.ndarray:
        if not self.clauses:
            return np.full(len(X), self.outer == "and")
        parts = [c.evaluate(X) for c in self.clauses]
        return np.logical_or.reduce(parts) if self.outer == "or" else np.logical_and.reduce(parts)

    def simplified(self):
        """The same rule with every clause :meth:`Clause.simplified` (the same predictions,
        fewer terms to read; clauses are neither merged nor dropped)."""
        return type(self)(
            [c.simplified() for c in self.clauses], then=self.then, numbered=self.numbered
        )

    def __eq__(self, other) -> bool:
        return type(self) is type(other) and self.clauses == other.clauses

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.clauses))

    def condition(self) -> str:
        """The rule's condition in words, each clause in parentheses when there are several."""
        if not self.clauses:
            return "TRUE" if self.outer == "and" else "FALSE"
        texts = self.clause_texts()
        if len(self.clauses) == 1:
            return texts[0]
        parts = [f"({t})" if c.n_terms > 1 else t for c, t in zip(self.clauses, texts)]
        return parts[0] + "".join(f"\n   {self.outer.upper()} {p}" for p in parts[1:])

    def __str__(self) -> str:
        if self.numbered:
            return self.numbered_text()
        return f"IF {self.condition()}\nTHEN {self.then}"

    def numbered_text(self, names: dict | None = None, then: str | None = None) -> str:
        """The rule as ``IF 1. ...; OR 2. ... AND ...; THEN ...``, one term a line.

        ``names`` maps column names to descriptions, ``then`` replaces the conclusion.

        >>> from rulelab.rules import Clause, Term
        >>> rule = DNF([Clause((Term("DFA", ">", 0.7),)),
        ...             Clause((Term("Fhi", "<=", 200.0), Term("Flo", ">", 90.0)))], then="sick")
        >>> print(rule.numbered_text())
        IF  1. DFA > 0.700
         OR 2. Fhi <= 200 AND
               Flo > 90
        THEN sick
        """
        names = names or {}
        conclusion = then if then is not None else self.then
        clauses = list(self.clauses)
        if not clauses:
            return f"IF {'TRUE' if self.outer == 'and' else 'FALSE'}\nTHEN {conclusion}"
        inner, outer = self.inner.upper(), self.outer.upper()
        width = len(str(len(clauses)))
        exact = self.exact_features()  # over every clause: close cuts within one clause too
        lines = []
        for k, clause in enumerate(clauses, start=1):
            lead = "IF " if k == 1 else f" {outer}" if len(outer) == 2 else outer
            number = f"{k}.".ljust(width + 1)
            terms = [_term_text(t, names, t.feature in exact) for t in clause.terms] or [
                "TRUE" if clause.op == "and" else "FALSE"
            ]
            pad = " " * (len(lead) + 1 + len(number) + 1)
            first = f"{lead} {number} {terms[0]}"
            rest = [f"{pad}{t}" for t in terms[1:]]
            block = [first] + rest
            block = [line + f" {inner}" for line in block[:-1]] + [block[-1]]
            lines += block
        return "\n".join(lines) + f"\nTHEN {conclusion}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({len(self.clauses)} clauses, {self.n_terms} terms)"

    def to_dict(self) -> dict:
        return {
            "type": type(self).__name__.lower(),
            "then": self.then,
            "clauses": [c.to_dict() for c in self.clauses],
        }

    def to_sql(self, table: str | None = None, *, dialect: str = "standard") -> str:
        """A SQL ``WHERE`` expression that is true exactly on the rows predicted positive
        (``table`` qualifies the column names; ``dialect`` is one of :data:`SQL_DIALECTS`)."""
        _check_dialect(dialect)
        if not self.clauses:
            return "(1 = 1)" if self.outer == "and" else "(1 = 0)"
        joiner = " OR " if self.outer == "or" else " AND "
        return joiner.join(c.to_sql(table, dialect=dialect) for c in self.clauses)

    def to_pandas_query(self) -> str:
        """Alias of :meth:`to_query`."""
        return self.to_query()

    def explain(self, X: pd.DataFrame) -> list[str]:
        """Why each row is predicted as it is, in words.

        A DNF names the clauses that fired (or says none did); a CNF names the clauses that
        failed (or says all hold).
        """
        if not self.clauses:
            return ["empty rule: " + self.condition()] * len(X)
        fired = np.column_stack([c.evaluate(X) for c in self.clauses])
        texts = self.clause_texts()
        out = []
        for row in fired:
            if self.outer == "or":
                hits = [t for t, f in zip(texts, row) if f]
                out.append(
                    "fired: " + " | ".join(f"({h})" for h in hits) if hits else "no clause fired"
                )
            else:
                misses = [t for t, f in zip(texts, row) if not f]
                out.append(
                    "failed: " + " | ".join(f"({m})" for m in misses)
                    if misses
                    else "all clauses hold"
                )
        return out

    def to_query(self) -> str:
        """A ``DataFrame.query(..., engine="python")`` string selecting the rows predicted 1."""
        if not self.clauses:
            return _QUERY_TRUE if self.outer == "and" else _QUERY_FALSE
        joiner = " | " if self.outer == "or" else " & "
        return joiner.join(c.to_query() for c in self.clauses)


class DNF(_TwoLevel):
    """OR of AND-clauses: ``IF (a AND b) OR (c) THEN positive``."""

    outer, inner = "or", "and"


class CNF(_TwoLevel):
    """AND of OR-clauses: ``IF (a OR b) AND (c) THEN positive``."""

    outer, inner = "and", "or"


def _term_text(term, names: dict, exact: bool = False) -> str:
    name = names.get(term.feature)
    if name is not None:
        term = type(term)(name, term.op, term.value)
    return term.describe(exact=exact)
