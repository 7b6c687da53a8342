"""Boolean rules you can read: terms, clauses, DNF and CNF.

A :class:`Term` is one Boolean test on one feature (``petal width (cm) <= 1.70``,
``Gender == Male``). A :class:`Clause` is the AND or the OR of terms; a :class:`DNF` is an
OR of AND-clauses, a :class:`CNF` an AND of OR-clauses. Every rule evaluates on a pandas
DataFrame, prints in plain words, counts its terms, round-trips through a dict/JSON, and
converts to a ``DataFrame.query`` string that selects exactly the rows it predicts 1 for.
The models built from them: :class:`WeightedRuleSet` (a weighted vote of clauses),
:class:`DecisionList` (ordered rules, then a default label or a fitted fallback model) and
:class:`WeightedVote` (a weighted vote of such lists); each declares the link from what it
evaluates to a probability, which the learners' ``predict_proba`` reads.

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


def format_value(value, exact: bool = False) -> str:
    """Print a threshold readably: integers as integers, otherwise at least two decimals
    and three significant digits (``1.70``, ``5.35``, ``0.875``, ``0.00784``).

    Beyond that range (at or above 1e15, below 1e-4 in size) three digits would print
    distinct cuts alike (``ts <= 1.7e+18 AND ts > 1.7e+18``) and fixed decimals would run to
    hundreds of digits, so such a float prints as the shortest text that reads back as it
    (``1.7000000000000001e+18``, ``1e-300``); ``exact=True`` prints every float so (a
    clause whose terms on one feature would otherwise read alike asks for it).
    """
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        v = float(value)
        if math.isfinite(v) and v == round(v) and abs(v) < 1e15:
            return str(int(round(v)))
        if v == 0 or not math.isfinite(v) or exact or not 1e-4 <= abs(v) < 1e15:
            return repr(v)
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
#: one is refused there. A boolean is never a bare ``TRUE``, which SQLite reads as a column
#: named ``true`` when the table has one: ``1``/``0`` in SQLite, ``TRUE``/``FALSE`` where
#: they are reserved words (PostgreSQL, MySQL), ``(1 = 1)``/``(1 = 0)`` in standard SQL.
SQL_DIALECTS = ("standard", "sqlite", "postgresql", "mysql")

# how each dialect writes +infinity (None: it has no way to)
_SQL_INFINITY = {
    "standard": None,
    "mysql": None,
    "sqlite": "9e999",
    "postgresql": "CAST('Infinity' AS DOUBLE PRECISION)",
}


# how each dialect writes True and False: never a bare TRUE where a column could take its
# place. SQLite reads TRUE and FALSE as the names of columns "true" and "false" when a table
# has them (they are not keywords there), so it gets 1 and 0, how it stores booleans;
# PostgreSQL and MySQL reserve TRUE and FALSE (a column so named must be quoted); standard
# SQL gets comparisons, which every engine reads as a boolean and no name can shadow
_SQL_BOOLEAN = {
    "standard": ("(1 = 1)", "(1 = 0)"),
    "sqlite": ("1", "0"),
    "postgresql": ("TRUE", "FALSE"),
    "mysql": ("TRUE", "FALSE"),
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
        return _SQL_BOOLEAN[dialect][0 if value else 1]
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


def _sqlite_date_comparison(name: str, op: str, value, term: str) -> str:
    """A date comparison SQLite makes as a comparison of instants.

    SQLite has no date type: a date is text, written ``2021-01-01 00:00:00`` by pandas and
    ``2021-01-01T00:00:00`` by ISO-8601, so comparing the texts selected nothing for ``==``
    and misordered times within a day. ``julianday`` reads either form as one instant,
    to the millisecond (SQLite keeps no finer time): a finer threshold is refused.
    """
    stamp = pd.Timestamp(value)
    if stamp.microsecond % 1000 or stamp.nanosecond:
        raise ValueError(
            f"the threshold of {term} has a fraction of a millisecond, which SQLite's date "
            "functions do not keep: round it to milliseconds (Timestamp.floor('ms')), or "
            "use dialect='postgresql'"
        )
    text = stamp.tz_convert("UTC").tz_localize(None) if stamp.tzinfo else stamp
    return f"julianday({name}) {op} julianday('{text.isoformat(timespec='milliseconds')}')"


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
    """``(lo, hi)`` of an interval term, ``None`` standing for an open side; an integer
    bound stays an integer (a float cannot hold every integer beyond 2**53)."""
    try:
        lo, hi = value
    except (TypeError, ValueError):
        raise ValueError(f"an 'in' term needs a value (low, high), got {value!r}") from None
    lo = -math.inf if lo is None else _real(lo)
    hi = math.inf if hi is None else _real(hi)
    if not lo < hi:
        raise ValueError(f"an interval [low, high) needs low < high, got {value!r}")
    return lo, hi


def _real(value):
    """A bound as a Python int when it is an integer, else as a float."""
    if isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)):
        return int(value)
    return float(value)


def _integers_at_most(ints: np.ndarray, bound) -> np.ndarray:
    """``ints <= bound``, exactly, for a real ``bound``: an integer is at most ``t`` exactly
    when it is at most ``floor(t)``, and comparing integers with a Python integer is exact
    whatever their size (float64 rounds integers beyond 2**53, so ``2**53 + 1 <= 2**53``
    would hold there)."""
    bound = _real(bound)
    if isinstance(bound, float):
        if math.isnan(bound):
            return np.zeros(ints.shape, dtype=bool)
        if math.isinf(bound):
            return np.full(ints.shape, bound > 0)
        bound = math.floor(bound)
    return ints <= bound


def _compare_integers(ints: np.ndarray, op: str, value) -> np.ndarray:
    """A threshold or interval term on an integer column, exactly (missing values aside)."""
    if op in ("in", "not in"):
        lo, hi = value
        inside = np.ones(ints.shape, dtype=bool)
        if lo != -math.inf:  # x >= lo exactly when x > ceil(lo) - 1
            inside &= ~_integers_at_most(ints, math.ceil(lo) - 1)
        if hi != math.inf:  # x < hi exactly when x <= ceil(hi) - 1
            inside &= _integers_at_most(ints, math.ceil(hi) - 1)
        return inside if op == "in" else ~inside
    if isinstance(value, (float, np.floating)) and math.isnan(value):
        return np.zeros(ints.shape, dtype=bool)  # NaN orders with nothing
    at_most = _integers_at_most(ints, value)
    return at_most if op == "<=" else ~at_most


def _is_real(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


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
    def integers(self) -> np.ndarray | None:
        """An integer column's values in its own integer dtype (missing ones as 0), else
        None: thresholds are compared with these, exactly at any size."""
        dtype = self.values.dtype
        if isinstance(dtype, pd.CategoricalDtype) or not pd.api.types.is_integer_dtype(dtype):
            return None
        return self.values.to_numpy(dtype=getattr(dtype, "numpy_dtype", dtype), na_value=0)

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
        if column.integers is not None and (
            self.op in ("in", "not in") or (self.op in ("<=", ">") and _is_real(self.value))
        ):
            return _compare_integers(column.integers, self.op, self.value) & ~missing
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
        return self.describe()

    def describe(self, exact: bool = False) -> str:
        """The term in words; ``exact=True`` prints every float threshold in full (the
        shortest text that reads back as it), so that close cuts read apart."""
        if self.op in ("is missing", "is not missing"):
            return f"{self.feature} {self.op}"
        if self.op in ("in", "not in"):
            lo, hi = (format_value(v, exact) for v in self.value)
            if self.op == "in" and math.isinf(self.value[0]):
                return f"{self.feature} < {hi}"
            if self.op == "in" and math.isinf(self.value[1]):
                return f"{self.feature} >= {lo}"
            return f"{self.feature} {self.op} [{lo}, {hi})"
        if _is_datetime(self.value):
            return f"{self.feature} {self.op} {pd.Timestamp(self.value).isoformat()}"
        return f"{self.feature} {self.op} {format_value(self.value, exact)}"

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
        if dialect == "sqlite" and _is_datetime(self.value):
            return _sqlite_date_comparison(name, op, self.value, str(self))
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


def _distinct_texts(terms) -> list[str]:
    """Each term in words; a feature whose distinct float cuts would print alike
    (``x <= 1.70 AND x > 1.70`` for 1.7001 and 1.7002) has its thresholds printed in full."""
    shown: dict[str, dict[str, set]] = {}  # feature -> printed cut -> the cuts printed so
    for t in terms:
        if t.op in ("<=", ">", "==", "!=", "in", "not in") and not _is_datetime(t.value):
            for v in t.value if t.op in ("in", "not in") else (t.value,):
                if isinstance(v, (float, np.floating)):
                    shown.setdefault(t.feature, {}).setdefault(format_value(v), set()).add(v)
    clash = {f for f, cuts in shown.items() if any(len(v) > 1 for v in cuts.values())}
    return [t.describe(exact=True) if t.feature in clash else str(t) for t in terms]


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
        return f" {self.op.upper()} ".join(_distinct_texts(self.terms))

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
    """Rebuild a :class:`Clause`, :class:`DNF`, :class:`CNF`, :class:`WeightedRuleSet`,
    :class:`DecisionList` or :class:`WeightedVote` from ``to_dict()``/``to_json()`` (a
    fallback model, which JSON does not hold, is named by ``otherwise`` only)."""
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
    if kind == "vote":
        return WeightedVote(
            [rule_from_dict(m) for m in d["members"]],
            [float(w) for w in d["weights"]],
            positive=d.get("positive", 1),
            then=d.get("then"),
            loss=d.get("loss", "exponential"),
        )
    if kind == "decision_list":
        return DecisionList(
            [_clause(c) for c in d["clauses"]],
            d["labels"],
            otherwise=d.get("otherwise", "the base model"),
            default=d.get("default"),
        )
    raise ValueError(f"not a rulelab rule: type {kind!r}")


class _VoteLink:
    """What a vote's loss says its score means: ``P(y = 1) = 1 / (1 + exp(-scale F))``.

    Shared by :class:`WeightedRuleSet` and :class:`WeightedVote`, so that every weighted
    vote states its probability the same way: the link follows from the loss the weights
    minimise, and a hinge loss declares none.
    """

    #: Each loss's link from the vote ``F`` to ``P(y = 1)``: ``1 / (1 + exp(-scale F))``.
    LINK_SCALE = {"exponential": 2.0, "logistic": 1.0, "hinge": None}

    loss: str

    def _check_loss(self, loss: str) -> str:
        if loss not in self.LINK_SCALE:
            raise ValueError(f"loss must be one of {sorted(self.LINK_SCALE)}, got {loss!r}")
        return loss

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

    def probability(self, X) -> np.ndarray:
        """``P(y = 1)`` on every row: the vote through the link of its loss."""
        return self.link(self.score(X))

    def evaluate(self, X) -> np.ndarray:
        """Boolean array: the vote is strictly positive (ties go to the negative class)."""
        return self.score(X) > 0


class WeightedRuleSet(_VoteLink, _ClauseCollection):
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

    def __init__(self, clauses=(), weights=(), *, then: str = "1", loss: str = "exponential"):
        clauses, weights = _and_clauses_with(
            clauses, (float(w) for w in weights), "weight", "WeightedRuleSet"
        )
        self.clauses = clauses
        self.weights = weights
        self.then = then
        self.loss = self._check_loss(loss)

    def score(self, X: pd.DataFrame) -> np.ndarray:
        """The weighted vote ``sum_t C_t [clause_t(x)]`` on every row of ``X``."""
        out = np.zeros(len(X))
        for clause, weight in zip(self.clauses, self.weights):
            out += weight * clause.evaluate(X)
        return out

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


#: How a decision list's fallback model declares what its output means (see DecisionList).
FALLBACK_LINKS = ("probability", "score")

__all__ += ["DecisionList", "FALLBACK_LINKS"]


class WeightedVote(_VoteLink, _ClauseCollection):
    """A weighted vote of rule lists, each voting +1 or -1 on every row: predict ``then``
    where ``F(x) = sum_t w_t h_t(x) > 0``.

    Discrete AdaBoost (Freund & Schapire 1997) over learners that are rules themselves
    (:class:`~rulelab.rulesfirst.BoostRule`: each round a rules-first list, Cohen et al.
    2019, Theorem 3): ``h_t(x) = +1`` where member ``t`` gives ``positive``, ``-1``
    elsewhere. Unlike a :class:`WeightedRuleSet`, whose clauses vote only where they hold,
    every member votes on every row. Its rules (``clauses``, ``n_rules``, ``n_terms``) are
    the distinct rules of the members, in order of first use.

    Parameters
    ----------
    members : sequence of DecisionList
        One list per round, each deciding every row (a default or a fallback model).
    weights : sequence of float
        The weight ``w_t`` of each round.
    positive : label, default=1
        The label a member votes +1 for.
    then : str, optional
        What the vote predicts when it is positive, in words (default ``positive``).
    loss : {"exponential", "logistic", "hinge"}, default="exponential"
        The loss the weights minimise, which fixes the link to a probability, as in
        :class:`WeightedRuleSet` (AdaBoost's exponential loss: ``1 / (1 + exp(-2F))``).
    """

    def __init__(self, members=(), weights=(), *, positive=1, then=None, loss="exponential"):
        members, weights = tuple(members), tuple(float(w) for w in weights)
        if len(members) != len(weights):
            raise ValueError(
                f"{len(members)} members but {len(weights)} weights: one weight per member"
            )
        for m in members:
            if not isinstance(m, DecisionList):
                raise ValueError(f"a WeightedVote holds decision lists, not {type(m).__name__}")
        self.members = members
        self.weights = weights
        self.positive = positive
        self.then = str(positive) if then is None else then
        self.loss = self._check_loss(loss)

    @property
    def has_fallback_model(self) -> bool:
        """Whether a member leaves rows to a fitted model (then there is no SQL or query
        form, and JSON keeps the rules with the model named)."""
        return any(m.has_fallback_model for m in self.members)

    @property
    def clauses(self) -> tuple:
        """The members' distinct rules, in order of first use."""
        return tuple(dict.fromkeys(c for m in self.members for c in m.clauses))

    @property
    def feature_indices(self) -> list[int]:
        """The columns the members' rules test (rules-first lists), in order of first use."""
        return list(
            dict.fromkeys(j for m in self.members for j in getattr(m, "feature_indices", ()))
        )

    def votes(self, X) -> np.ndarray:
        """Each member's vote, +1 or -1, shape ``(n_rows, n_members)``."""
        if not self.members:
            return np.zeros((X.shape[0], 0))
        return np.column_stack(
            [np.where(m.decide(X) == self.positive, 1.0, -1.0) for m in self.members]
        )

    def score(self, X) -> np.ndarray:
        """The weighted vote ``sum_t w_t h_t(x)`` on every row of ``X``."""
        out = np.zeros(X.shape[0])
        for member, weight in zip(self.members, self.weights):
            out += weight * np.where(member.decide(X) == self.positive, 1.0, -1.0)
        return out

    def simplified(self) -> WeightedVote:
        """The vote itself: its members' rules are read as learned."""
        return self

    def __eq__(self, other) -> bool:
        return (
            type(self) is type(other)
            and self.members == other.members
            and np.allclose(self.weights, other.weights)
            and self.positive == other.positive
        )

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.members))

    def __str__(self) -> str:
        lines = [
            f"IF score > 0 THEN {self.then}, where score adds each round's vote: its "
            f"weight where its list gives {self.positive}, minus its weight elsewhere"
        ]
        for t, (member, weight) in enumerate(zip(self.members, self.weights)):
            lines.append(f"round {t + 1}, weight {weight:+.3f}:")
            lines.extend("  " + line for line in str(member).splitlines())
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"WeightedVote({len(self.members)} members, {self.n_rules} rules)"

    def to_dict(self) -> dict:
        """The members' rules and the weights; a member's fallback model is named by its
        ``otherwise`` only (a vote read back gives its rules, not its scores)."""
        return {
            "type": "vote",
            "then": self.then,
            "positive": _py(self.positive),
            "loss": self.loss,
            "weights": [_nonfinite(w) or w for w in self.weights],
            "members": [m.to_dict() for m in self.members],
        }

    def _no_text_form(self, what: str):
        raise ValueError(
            f"a vote of rule lists has no {what}: each round's list leaves the rows no rule "
            f"covers to a fitted model ({self.members[0].otherwise if self.members else ''}); "
            f"export a round's rules with members[t].to_sql() or members[t].to_query()"
        )

    def to_sql(self, table: str | None = None, *, dialect: str = "standard") -> str:
        """Refused with a clear error: the members' fallback models have no SQL form."""
        self._no_text_form("SQL form")

    def to_query(self) -> str:
        """Refused with a clear error: the members' fallback models have no query form."""
        self._no_text_form("pandas query form")

    def to_pandas_query(self) -> str:
        """Alias of :meth:`to_query`."""
        return self.to_query()

    def explain(self, X) -> list[str]:
        """For each row, each round's vote with the rule (or the fallback) behind it."""
        score = self.score(X)
        votes = self.votes(X)
        reasons = [m.explain(X) for m in self.members]
        return [
            f"score {score[i]:+.3f} = "
            + " ".join(
                f"{v * w:+.3f} (round {t + 1}: {reasons[t][i]})"
                for t, (v, w) in enumerate(zip(votes[i], self.weights))
            )
            for i in range(len(score))
        ]


__all__ += ["WeightedVote"]


def simplify_clause(clause: Clause) -> Clause:
    """``clause.simplified()``: the same clause without redundant nested thresholds."""
    return clause.simplified()


__all__ += ["simplify_clause"]


def simplify_rules(rules):
    """``rules.simplified()`` for a Clause, DNF, CNF or WeightedRuleSet (the same
    predictions, shorter to read)."""
    return rules.simplified()


__all__ += ["simplify_rules"]
