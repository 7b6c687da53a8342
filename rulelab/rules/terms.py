"""One Boolean test on one feature (:class:`Term`), its evaluation, words and exports.

Missing values: every comparison with a missing value is False (``x <= t`` and ``x > t``
alike); the terms ``is missing`` / ``is not missing`` test for them explicitly.
"""

from __future__ import annotations

import functools
import math
import numbers
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ._values import _is_datetime, _nonfinite, _py
from .query import _query_name, _query_value
from .sql import (
    _check_dialect,
    _mysql_text_comparison,
    _sql_name,
    _sql_value,
    _sqlite_date_comparison,
    _standard_date_literal,
)

__all__ = ["Term", "format_value", "evaluate_terms"]

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
        if dialect == "standard" and _is_datetime(self.value):
            return f"{name} {op} {_standard_date_literal(self.value)}"
        if dialect == "mysql" and isinstance(self.value, str):
            return _mysql_text_comparison(name, op, self.value)
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


def clashing_features(terms) -> frozenset:
    """The features among ``terms`` whose distinct float cuts would print alike
    (``x <= 1.70`` for both 1.7001 and 1.7002): a rule prints their thresholds in full."""
    shown: dict[str, dict[str, set]] = {}  # feature -> printed cut -> the cuts printed so
    for t in terms:
        if t.op in ("<=", ">", "==", "!=", "in", "not in") and not _is_datetime(t.value):
            for v in t.value if t.op in ("in", "not in") else (t.value,):
                if isinstance(v, (float, np.floating)):
                    shown.setdefault(t.feature, {}).setdefault(format_value(v), set()).add(v)
    return frozenset(f for f, cuts in shown.items() if any(len(v) > 1 for v in cuts.values()))


def _distinct_texts(terms, exact_features: frozenset = frozenset()) -> list[str]:
    """Each term in words; a feature in ``exact_features`` (its cuts elsewhere in the rule
    print alike) or whose cuts within ``terms`` print alike has its thresholds in full."""
    clash = clashing_features(terms) | exact_features
    return [t.describe(exact=True) if t.feature in clash else str(t) for t in terms]


def _term(d: dict) -> Term:
    value = d.get("value")
    if d.get("type") == "datetime":
        value = pd.Timestamp(value)
    elif d.get("type") == "float":
        value = float(value)
    return Term(d["feature"], d["op"], value)
