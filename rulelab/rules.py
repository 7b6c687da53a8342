"""Boolean rules you can read: terms, clauses, DNF and CNF.

A :class:`Term` is one Boolean test on one feature (``petal width (cm) <= 1.70``,
``Gender == Male``). A :class:`Clause` is the AND or the OR of terms; a :class:`DNF` is an
OR of AND-clauses, a :class:`CNF` an AND of OR-clauses. Every rule evaluates on a pandas
DataFrame, prints in plain words, counts its terms, round-trips through a dict/JSON, and
converts to a ``DataFrame.query`` string that selects exactly the rows it predicts 1 for.

Missing values: every comparison with a missing value is False (``x <= t`` and ``x > t``
alike); the terms ``is missing`` / ``is not missing`` test for them explicitly.
"""

from __future__ import annotations

import datetime
import functools
import json
import math
import numbers
from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["Term", "Clause", "DNF", "CNF", "format_value", "rule_from_dict", "SQL_DIALECTS"]

_NEGATE = {
    "<=": ">",
    ">": "<=",
    "==": "!=",
    "!=": "==",
    "in": "not in",
    "not in": "in",
    "is missing": "is not missing",
    "is not missing": "is missing",
}


def format_value(value) -> str:
    """Print a threshold readably: integers as integers, otherwise at least two decimals
    and three significant digits (``1.70``, ``5.35``, ``0.875``, ``0.00784``)."""
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        v = float(value)
        if math.isfinite(v) and v == round(v) and abs(v) < 1e15:
            return str(int(round(v)))
        if v == 0 or not math.isfinite(v):
            return repr(v)
        if abs(v) >= 1e15:  # beyond the whole numbers above: three digits and an exponent
            return f"{v:.3g}"
        decimals = max(2, 2 - math.floor(math.log10(abs(v))))
        return f"{v:.{decimals}f}"
    return str(value)


def _is_datetime(value) -> bool:
    return isinstance(value, (pd.Timestamp, np.datetime64, datetime.date))


def _py(value):
    """A JSON-able value: numpy scalars as Python scalars, dates as ISO-8601 strings."""
    if _is_datetime(value):
        return pd.Timestamp(value).isoformat()
    return value.item() if isinstance(value, np.generic) else value


#: The SQL dialects :meth:`Term.to_sql` writes. All quote a name as an identifier and a
#: string as a literal, so no value is read as SQL; they differ in what needs escaping.
#: ``"standard"``: ISO SQL (double-quoted names, ``''`` in strings), read as such by SQLite,
#: PostgreSQL, DuckDB and most others, but has no literal for infinity. ``"sqlite"`` and
#: ``"postgresql"``: standard, and infinity written the way each reads it. ``"mysql"``:
#: MySQL and MariaDB in their default mode, where a backslash escapes in a string (so it
#: is doubled) and names are quoted with backticks; a server set to read backslashes
#: literally (``NO_BACKSLASH_ESCAPES``) and double quotes as names (``ANSI_QUOTES``) takes
#: ``"standard"``. Neither MySQL nor standard SQL has an infinity: a comparison that needs
#: one is refused there.
SQL_DIALECTS = ("standard", "sqlite", "postgresql", "mysql")

# how each dialect writes +infinity (None: it has no way to)
_SQL_INFINITY = {
    "standard": None,
    "mysql": None,
    "sqlite": "9e999",
    "postgresql": "CAST('Infinity' AS DOUBLE PRECISION)",
}


def _check_dialect(dialect: str) -> str:
    if dialect not in SQL_DIALECTS:
        raise ValueError(f"unknown SQL dialect {dialect!r}; use one of {list(SQL_DIALECTS)}")
    return dialect


def _no_nul(text: str, what: str) -> str:
    if "\x00" in text:
        raise ValueError(
            f"{what} {text!r} holds a NUL character, which SQL cannot write: "
            "rename it or drop the term"
        )
    return text


def _sql_name(name: str, dialect: str = "standard") -> str:
    """A quoted SQL identifier: double quotes (an inner one doubled), MySQL's backticks."""
    name = _no_nul(str(name), "name")
    if dialect == "mysql":
        return "`" + name.replace("`", "``") + "`"
    return '"' + name.replace('"', '""') + '"'


def _nonfinite(value) -> str | None:
    """``"nan"``, ``"inf"`` or ``"-inf"`` for such a real number, else None."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        return None
    v = float(value)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return None


def _sql_value(value, dialect: str = "standard", what: str = "value") -> str:
    value = _py(value)
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (int, float)):
        kind = _nonfinite(value)
        if kind is None:
            return repr(value)
        infinity = _SQL_INFINITY[dialect] if kind != "nan" else None
        if infinity is None:
            raise ValueError(
                f"{what} is {kind}, which {dialect} SQL cannot write"
                + ("" if kind == "nan" else ": use dialect='sqlite' or 'postgresql', or drop it")
            )
        return infinity if kind == "inf" else f"(-{infinity})"
    text = _no_nul(str(value), "value")
    if dialect == "mysql":  # a backslash escapes in MySQL's strings
        text = text.replace("\\", "\\\\")
    return "'" + text.replace("'", "''") + "'"


@functools.lru_cache(maxsize=4096)
def _query_name(name: str) -> str:
    """A backtick-quoted ``DataFrame.query`` name (an inner backtick doubled), or a clear
    error for a name pandas cannot read back (a newline or a tab in it, for one): each
    name is tried once on a one-column frame."""
    quoted = "`" + str(name).replace("`", "``") + "`"
    try:
        picked = pd.DataFrame({name: [1.0, 0.0]}).query(f"{quoted} > 0.5", engine="python")
        ok = picked.index.tolist() == [0]
    except Exception:  # noqa: BLE001 (pandas raises SyntaxError, ValueError, KeyError ...)
        ok = False
    if not ok:
        raise ValueError(
            f"column name {name!r} cannot be written in a pandas query string "
            "(pandas' backtick quoting does not read it back): rename the column, "
            "or select with rule.evaluate(X)"
        )
    return quoted


def _query_value(value) -> str:
    # a date as its ISO string: pandas compares a datetime column with it as a date
    kind = _nonfinite(value)
    if kind in ("inf", "-inf"):  # a literal, not the name inf, which a column could shadow
        return "1e999" if kind == "inf" else "-1e999"
    return repr(_py(value))


# Always true / always false on every row, without a column: pandas' ``index`` names a
# column called "index" when there is one, and either way x == x fails on its NaN,
# so the test holds for x == x or x != x.
_QUERY_TRUE = "((index == index) | (index != index))"
_QUERY_FALSE = "((index == index) & (index != index))"


def _interval(value) -> tuple[float, float]:
    """``(lo, hi)`` of an interval term, ``None`` standing for an open side."""
    try:
        lo, hi = value
    except (TypeError, ValueError):
        raise ValueError(f"an 'in' term needs a value (low, high), got {value!r}") from None
    lo = -math.inf if lo is None else float(lo)
    hi = math.inf if hi is None else float(hi)
    if not lo < hi:
        raise ValueError(f"an interval [low, high) needs low < high, got {value!r}")
    return lo, hi


class _Column:
    """One feature of a frame, converted once (missing mask, numbers, objects, dates) for
    all the terms that test it: binarising evaluates many terms per feature."""

    def __init__(self, values: pd.Series):
        self.values = values
        self.missing = values.isna().to_numpy()

    @functools.cached_property
    def numbers(self) -> np.ndarray:
        return pd.to_numeric(self.values, errors="coerce").to_numpy(dtype=float)

    @functools.cached_property
    def objects(self) -> pd.Series:
        return self.values.astype(object)

    @functools.cached_property
    def dates(self) -> pd.Series:
        return pd.to_datetime(self.values, errors="coerce")


def _column(X: pd.DataFrame, feature: str) -> _Column:
    if feature not in X.columns:
        raise ValueError(f"the rule uses feature {feature!r}, which X does not have")
    return _Column(X[feature])


def evaluate_terms(terms, X: pd.DataFrame) -> list[np.ndarray]:
    """``[t.evaluate(X) for t in terms]``, converting each feature of ``X`` once."""
    columns: dict[str, _Column] = {}
    out = []
    for term in terms:
        if term.feature not in columns:
            columns[term.feature] = _column(X, term.feature)
        out.append(term._evaluate_on(columns[term.feature]))
    return out


@dataclass(frozen=True)
class Term:
    """One Boolean test ``feature op value``.

    ``op`` is one of ``<=``, ``>``, ``==``, ``!=``, ``in``, ``not in``, ``is missing``,
    ``is not missing``. ``in`` tests a half-open interval ``low <= x < high``: its value is
    the pair ``(low, high)``, either side infinite (an equal-width cell of GRAB's
    binarisation, the outer cells open-ended). Values may be numbers, strings, booleans or
    dates (``pandas.Timestamp``).
    """

    feature: str
    op: str
    value: object = None

    def __post_init__(self):
        if self.op not in _NEGATE:
            raise ValueError(f"unknown operator {self.op!r}; use one of {sorted(_NEGATE)}")
        if self.op in ("in", "not in"):
            object.__setattr__(self, "value", _interval(self.value))

    def evaluate(self, X: pd.DataFrame) -> np.ndarray:
        """Boolean array: the test on every row of ``X`` (missing values give False)."""
        return self._evaluate_on(_column(X, self.feature))

    def _evaluate_on(self, column: _Column) -> np.ndarray:
        """The test on a column prepared once for every term of its feature."""
        missing = column.missing
        if self.op == "is missing":
            return missing
        if self.op == "is not missing":
            return ~missing
        if self.op in ("==", "!="):
            eq = (column.objects == self.value).to_numpy(dtype=bool)
            if self.op == "==":
                return eq & ~missing
            return ~eq & ~missing
        if self.op in ("in", "not in"):
            values = column.numbers
            lo, hi = self.value
            with np.errstate(invalid="ignore"):  # an infinite side is open: x = inf is inside
                inside = (values >= lo) & ((values < hi) | (hi == math.inf))
            return (inside if self.op == "in" else ~inside) & ~missing
        if _is_datetime(self.value):
            values, bound = column.dates, pd.Timestamp(self.value)
            out = (values <= bound if self.op == "<=" else values > bound).to_numpy(dtype=bool)
            return out & ~missing
        values = column.numbers
        with np.errstate(invalid="ignore"):
            out = values <= self.value if self.op == "<=" else values > self.value
        return out & ~missing

    def negate(self) -> Term:
        """The complementary test (on rows where the feature is present)."""
        return Term(self.feature, _NEGATE[self.op], self.value)

    def __str__(self) -> str:
        if self.op in ("is missing", "is not missing"):
            return f"{self.feature} {self.op}"
        if self.op in ("in", "not in"):
            lo, hi = self.value
            if self.op == "in" and math.isinf(lo):
                return f"{self.feature} < {format_value(hi)}"
            if self.op == "in" and math.isinf(hi):
                return f"{self.feature} >= {format_value(lo)}"
            return f"{self.feature} {self.op} [{format_value(lo)}, {format_value(hi)})"
        if _is_datetime(self.value):
            return f"{self.feature} {self.op} {pd.Timestamp(self.value).isoformat()}"
        return f"{self.feature} {self.op} {format_value(self.value)}"

    def to_dict(self) -> dict:
        if self.op in ("in", "not in"):  # JSON has no infinity: an open side is null
            value = [None if math.isinf(v) else v for v in self.value]
            return {"feature": self.feature, "op": self.op, "value": value}
        out = {"feature": self.feature, "op": self.op, "value": _py(self.value)}
        if _is_datetime(self.value):
            out["type"] = "datetime"
        elif _nonfinite(self.value):  # JSON has no NaN or infinity: written as text
            out["value"], out["type"] = _nonfinite(self.value), "float"
        return out

    def to_sql(self, table: str | None = None, *, dialect: str = "standard") -> str:
        """A SQL boolean expression for this term (``table`` qualifies the column).

        SQL's NULL semantics match ours: a comparison with NULL is not true, so a missing
        value fails every comparison, and only AND/OR combine terms (never NOT). A NaN
        threshold holds nowhere (``!=`` NaN: wherever the value is present), ``<= inf``
        wherever the value is present and ``> inf`` nowhere, which every dialect writes;
        other comparisons with an infinity need a dialect that has one (see
        :data:`SQL_DIALECTS`, which lists the dialects and what each escapes).
        """
        _check_dialect(dialect)
        name = _sql_name(self.feature, dialect)
        if table is not None:
            name = f"{_sql_name(table, dialect)}.{name}"
        if self.op == "is missing":
            return f"{name} IS NULL"
        if self.op == "is not missing":
            return f"{name} IS NOT NULL"
        if self.op in ("in", "not in"):
            lo, hi = self.value
            sides = ([f"{name} >= {lo!r}"] if math.isfinite(lo) else []) + (
                [f"{name} < {hi!r}"] if math.isfinite(hi) else []
            )
            inside = "(" + " AND ".join(sides or [f"{name} IS NOT NULL"]) + ")"
            return inside if self.op == "in" else f"({name} IS NOT NULL AND NOT {inside})"
        kind = _nonfinite(self.value)
        if kind == "nan" or (kind == "inf" and self.op == ">"):
            return f"{name} IS NOT NULL" if self.op == "!=" else "(1 = 0)"
        if kind == "inf" and self.op == "<=":
            return f"{name} IS NOT NULL"
        op = "<>" if self.op == "!=" else ("=" if self.op == "==" else self.op)
        return f"{name} {op} {_sql_value(self.value, dialect, f'the threshold of {self}')}"

    def to_query(self) -> str:
        """A ``DataFrame.query`` expression (python engine) for this term.

        Any column name pandas' backtick quoting reads back is written; a name it cannot
        read (one holding a newline or a tab) is refused naming it. Two names that pandas
        turns into the same identifier (``a b`` and ``a_b`` do not; pandas' own rules
        decide) cannot be told apart by any query string.
        """
        name = _query_name(self.feature)
        if self.op == "is missing":
            return f"{name}.isna()"
        if self.op == "is not missing":
            return f"{name}.notna()"
        present = f"{name}.notna()"
        if self.op in ("in", "not in"):
            lo, hi = self.value
            sides = ([f"({name} >= {lo!r})"] if math.isfinite(lo) else []) + (
                [f"({name} < {hi!r})"] if math.isfinite(hi) else []
            )
            inside = "(" + " & ".join(sides or [present]) + ")"
            return f"({present} & {inside})" if self.op == "in" else f"({present} & ~{inside})"
        if _nonfinite(self.value) == "nan":  # NaN equals nothing and orders with nothing
            return present if self.op == "!=" else f"({name}.isna() & {present})"
        value = _query_value(self.value)
        if _is_datetime(self.value) and self.op in ("==", "!="):
            # pandas parses a date string in an ordering comparison, not in ==
            same = f"({name} >= {value}) & ({name} <= {value})"
            return f"({present} & ({same}))" if self.op == "==" else f"({present} & ~({same}))"
        return f"({present} & ({name} {self.op} {value}))"


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
        if not self.terms:
            return "TRUE" if self.op == "and" else "FALSE"
        return f" {self.op.upper()} ".join(str(t) for t in self.terms)

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


class _TwoLevel(_ClauseCollection):
    """Shared body of DNF (OR of AND-clauses) and CNF (AND of OR-clauses)."""

    outer: str = ""
    inner: str = ""

    def __init__(self, clauses=(), *, then: str = "1"):
        clauses = tuple(clauses)
        for c in clauses:
            if not isinstance(c, Clause) or c.op != self.inner:
                raise ValueError(f"a {type(self).__name__} holds {self.inner.upper()}-clauses")
        self.clauses = clauses
        self.then = then

    def evaluate(self, X: pd.DataFrame) -> np.ndarray:
        if not self.clauses:
            return np.full(len(X), self.outer == "and")
        parts = [c.evaluate(X) for c in self.clauses]
        return np.logical_or.reduce(parts) if self.outer == "or" else np.logical_and.reduce(parts)

    def simplified(self):
        """The same rule with every clause :meth:`Clause.simplified` (the same predictions,
        fewer terms to read; clauses are neither merged nor dropped)."""
        return type(self)([c.simplified() for c in self.clauses], then=self.then)

    def __eq__(self, other) -> bool:
        return type(self) is type(other) and self.clauses == other.clauses

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.clauses))

    def condition(self) -> str:
        """The rule's condition in words, each clause in parentheses when there are several."""
        if not self.clauses:
            return "TRUE" if self.outer == "and" else "FALSE"
        if len(self.clauses) == 1:
            return str(self.clauses[0])
        parts = [f"({c})" if c.n_terms > 1 else str(c) for c in self.clauses]
        return parts[0] + "".join(f"\n   {self.outer.upper()} {p}" for p in parts[1:])

    def __str__(self) -> str:
        return f"IF {self.condition()}\nTHEN {self.then}"

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
        out = []
        for row in fired:
            if self.outer == "or":
                hits = [str(c) for c, f in zip(self.clauses, row) if f]
                out.append(
                    "fired: " + " | ".join(f"({h})" for h in hits) if hits else "no clause fired"
                )
            else:
                misses = [str(c) for c, f in zip(self.clauses, row) if not f]
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


def _term(d: dict) -> Term:
    value = d.get("value")
    if d.get("type") == "datetime":
        value = pd.Timestamp(value)
    elif d.get("type") == "float":
        value = float(value)
    return Term(d["feature"], d["op"], value)


def _clause(d: dict) -> Clause:
    return Clause(tuple(_term(t) for t in d["terms"]), d["op"])


def rule_from_dict(d: dict | str):
    """Rebuild a :class:`Clause`, :class:`DNF`, :class:`CNF`, :class:`WeightedRuleSet` or
    :class:`DecisionList` from ``to_dict()``/``to_json()``."""
    if isinstance(d, str):
        d = json.loads(d)
    kind = d.get("type")
    if kind == "clause":
        return _clause(d)
    if kind in ("dnf", "cnf"):
        cls = DNF if kind == "dnf" else CNF
        return cls([_clause(c) for c in d["clauses"]], then=d.get("then", "1"))
    if kind == "weighted":
        return weighted_from_dict(d)
    if kind == "decision_list":
        return DecisionList(
            [_clause(c) for c in d["clauses"]],
            d["labels"],
            otherwise=d.get("otherwise", "the base model"),
            default=d.get("default"),
        )
    raise ValueError(f"not a rulelab rule: type {kind!r}")


class WeightedRuleSet(_ClauseCollection):
    """A weighted vote of AND-clauses: predict 1 where ``sum_t C_t [clause_t(x)] > 0``.

    The output of confidence-rated boosting (Cohen & Singer 1999; Malioutov & Varshney
    2013, Algorithm 1). A round that chose the *default rule* holds the empty AND-clause,
    which is true on every sample (it prints as ``TRUE``), so its weight is a constant vote.

    Parameters
    ----------
    clauses : sequence of Clause
        AND-clauses, one per boosting round (the empty clause for the default rule).
    weights : sequence of float
        The confidence ``C_t`` of each clause; a negative weight votes for the negative class.
    then : str, default="1"
        What the rule set predicts when the vote is positive.
    loss : {"exponential", "logistic", "hinge"}, default="exponential"
        The loss the weights minimise, which fixes what the vote means as a probability
        (:meth:`probability`): boosting's exponential loss gives ``1 / (1 + exp(-2F))``
        (Friedman, Hastie & Tibshirani 2000), the logistic loss ``1 / (1 + exp(-F))``, and
        a hinge loss none.
    """

    #: Each loss's link from the vote ``F`` to ``P(y = 1)``: ``1 / (1 + exp(-scale F))``.
    LINK_SCALE = {"exponential": 2.0, "logistic": 1.0, "hinge": None}

    def __init__(self, clauses=(), weights=(), *, then: str = "1", loss: str = "exponential"):
        clauses, weights = _and_clauses_with(
            clauses, (float(w) for w in weights), "weight", "WeightedRuleSet"
        )
        if loss not in self.LINK_SCALE:
            raise ValueError(f"loss must be one of {sorted(self.LINK_SCALE)}, got {loss!r}")
        self.clauses = clauses
        self.weights = weights
        self.then = then
        self.loss = loss

    @property
    def has_probability(self) -> bool:
        """Whether the vote's loss gives it a probability (not for a hinge loss)."""
        return self.LINK_SCALE[self.loss] is not None

    def link(self, score: np.ndarray) -> np.ndarray:
        """``P(y = 1)`` from the vote ``score``, through the link of the vote's loss."""
        if not self.has_probability:
            raise ValueError(
                f"a vote fitted with the {self.loss} loss has no probability "
                "scale: use score() (or fit with the logistic loss)"
            )
        return 1.0 / (1.0 + np.exp(-self.LINK_SCALE[self.loss] * np.asarray(score)))

    def probability(self, X: pd.DataFrame) -> np.ndarray:
        """``P(y = 1)`` on every row: the vote through the link of its loss."""
        return self.link(self.score(X))

    def score(self, X: pd.DataFrame) -> np.ndarray:
        """The weighted vote ``sum_t C_t [clause_t(x)]`` on every row of ``X``."""
        out = np.zeros(len(X))
        for clause, weight in zip(self.clauses, self.weights):
            out += weight * clause.evaluate(X)
        return out

    def evaluate(self, X: pd.DataFrame) -> np.ndarray:
        """Boolean array: the vote is strictly positive (ties go to the negative class)."""
        return self.score(X) > 0

    def simplified(self) -> WeightedRuleSet:
        """The same vote with every clause :meth:`Clause.simplified` (same weights, same
        score on every row)."""
        return WeightedRuleSet(
            [c.simplified() for c in self.clauses], self.weights, then=self.then, loss=self.loss
        )

    def __eq__(self, other) -> bool:
        return (
            type(self) is type(other)
            and self.clauses == other.clauses
            and np.allclose(self.weights, other.weights)
        )

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.clauses))

    def __str__(self) -> str:
        if not self.clauses:
            return f"IF FALSE\nTHEN {self.then}"
        lines = [
            f"  {w:+.3f} * ({c})" if c.n_terms > 1 else f"  {w:+.3f} * {c}"
            for c, w in zip(self.clauses, self.weights)
        ]
        return "IF score > 0 THEN " + self.then + ", where score =\n" + "\n".join(lines)

    def __repr__(self) -> str:
        return f"WeightedRuleSet({len(self.clauses)} clauses, {self.n_terms} terms)"

    def to_dict(self) -> dict:
        weights = [_nonfinite(w) or w for w in self.weights]  # NaN/infinity as text
        return {
            "type": "weighted",
            "then": self.then,
            "loss": self.loss,
            "weights": weights,
            "clauses": [c.to_dict() for c in self.clauses],
        }

    def _finite_weights(self) -> tuple[float, ...]:
        bad = [w for w in self.weights if not math.isfinite(w)]
        if bad:
            raise ValueError(
                f"the rule set has non-finite weights {bad[:3]}: a vote with them "
                "has no value to export"
            )
        return self.weights

    def to_sql(self, table: str | None = None, *, dialect: str = "standard") -> str:
        """A SQL ``WHERE`` expression: the weighted vote is positive (``dialect`` is one of
        :data:`SQL_DIALECTS`)."""
        _check_dialect(dialect)
        if not self.clauses:
            return "(1 = 0)"
        votes = " + ".join(
            f"(CASE WHEN {c.to_sql(table, dialect=dialect)} THEN {w!r} ELSE 0 END)"
            for c, w in zip(self.clauses, self._finite_weights())
        )
        return f"({votes}) > 0"

    def to_query(self) -> str:
        """A ``DataFrame.query(..., engine="python")`` string: the weighted vote is positive."""
        if not self.clauses:
            return _QUERY_FALSE
        votes = " + ".join(
            f"{w!r} * {c.to_query()}" for c, w in zip(self.clauses, self._finite_weights())
        )
        return f"({votes}) > 0"

    def to_pandas_query(self) -> str:
        """Alias of :meth:`to_query`."""
        return self.to_query()

    def explain(self, X: pd.DataFrame) -> list[str]:
        """For each row, the clauses that vote (with their weights) and the total score."""
        if not self.clauses:
            return ["no clauses: score 0"] * len(X)
        fired = np.column_stack([c.evaluate(X) for c in self.clauses])
        out = []
        for row in fired:
            parts = [f"{w:+.3f} ({c})" for c, w, f in zip(self.clauses, self.weights, row) if f]
            score = sum(w for w, f in zip(self.weights, row) if f)
            out.append(
                f"score {score:+.3f} = " + (" ".join(parts) if parts else "0 (no clause fired)")
            )
        return out


def weighted_from_dict(d: dict | str) -> WeightedRuleSet:
    """Rebuild a :class:`WeightedRuleSet` from ``to_dict()``/``to_json()``."""
    if isinstance(d, str):
        d = json.loads(d)
    if d.get("type") != "weighted":
        raise ValueError(f"not a weighted rule set: type {d.get('type')!r}")
    return WeightedRuleSet(
        [_clause(c) for c in d["clauses"]],
        d["weights"],
        then=d.get("then", "1"),
        loss=d.get("loss", "exponential"),
    )


__all__ += ["WeightedRuleSet", "weighted_from_dict"]


class DecisionList(_ClauseCollection):
    """An ordered list of rules ``IF clause THEN label``: the first rule that fires decides.

    Two kinds of list share this type. With ``default`` a label, the list is a complete
    classifier: the rows no rule covers get ``default`` (RIPPER's ordered rule sets, and
    :class:`~rulelab.ColumnGenerationRules` on more than two classes). Without it, rows no
    rule covers are decided by ``otherwise``, a model the list does not hold (the rules of
    a rules-first classifier, Cohen et al. 2019, say a logistic regression on the other
    features), which is why :meth:`evaluate` returns ``None`` for them.

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
    """

    def __init__(self, clauses=(), labels=(), *, otherwise: str = "the base model", default=None):
        clauses, labels = _and_clauses_with(clauses, labels, "label", "DecisionList")
        self.clauses = clauses
        self.labels = labels
        self.otherwise = otherwise
        self.default = default

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

    def _condition(self, i: int) -> str:
        """Rule ``i``'s condition in words."""
        return str(self.clauses[i])

    def __str__(self) -> str:
        lines = [
            f"{'IF' if i == 0 else 'ELSE IF'} {self._condition(i)} THEN {label}"
            for i, label in enumerate(self.labels)
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
        return [
            f"rule {i + 1}: IF {self.clauses[i]} THEN {self.labels[i]}" if i >= 0 else rest
            for i in first
        ]


__all__ += ["DecisionList"]


def simplify_clause(clause: Clause) -> Clause:
    """``clause.simplified()``: the same clause without redundant nested thresholds."""
    return clause.simplified()


__all__ += ["simplify_clause"]


def simplify_rules(rules):
    """``rules.simplified()`` for a Clause, DNF, CNF or WeightedRuleSet (the same
    predictions, shorter to read)."""
    return rules.simplified()


__all__ += ["simplify_rules"]
