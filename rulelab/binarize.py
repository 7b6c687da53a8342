"""FeatureBinarizer: turn numeric and categorical columns into readable Boolean terms.

Numeric columns get thresholds in both directions (``x <= t`` and ``x > t``, paper 1
§3.5): the columns are nested half-spaces, not bins. Categorical (object, string,
category, bool) columns get ``== v`` and ``!= v`` for every value seen in training, and
numeric columns with at most two values are treated the same way (``smoker == 1`` reads
better than ``smoker > 0.5``). Missing values are handled explicitly: by default a column
with NaN in training gets an ``is missing`` term, and every comparison with a missing
value is False (see :mod:`rulelab.rules`).
"""

from __future__ import annotations

import math
import numbers

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from ._validation import (
    category_values,
    check_frame,
    check_not_complex,
    check_not_dates,
    integers_beyond_float,
)
from .rules import Term, evaluate_terms

__all__ = ["FeatureBinarizer", "quantile_thresholds"]

_EVAL_ROWS = 65536  # rows whose terms are evaluated together (memory: rows x terms bools)
_WRITE_ROWS = 8192  # rows written to the 0/1 matrix at once (a slab that stays in cache)


def quantile_thresholds(
    values: np.ndarray, n_thresholds: int, strategy: str = "quantile"
) -> np.ndarray:
    """Thresholds for one numeric column (NaN ignored), sorted, unique and finite.

    ``"quantile"`` uses the empirical quantiles at levels 1/(n+1), ..., n/(n+1) (each
    threshold splits off an equal share of the training values); ``"uniform"`` uses
    ``n`` equally spaced cut points strictly between the finite minimum and maximum.
    Thresholds at or above the maximum are dropped: ``x <= max`` is always true.
    Infinite values count at the finite extremes when quantiles are taken (a quantile
    between ``-inf`` and a number has no value), and a range wider than the largest float
    (``-1e308`` to ``1e308``) is handled without overflow.
    """
    values = values[~np.isnan(values)]
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return np.empty(0)
    lo, hi = finite.min(), finite.max()
    # a range that overflows is measured on halved values (halving is exact); every other
    # range is computed as it always was
    with np.errstate(over="ignore"):
        wide = not np.isfinite(hi - lo)
    if strategy == "quantile":
        levels = np.arange(1, n_thresholds + 1) / (n_thresholds + 1)
        counted = values if finite.size == values.size else np.clip(values, lo, hi)
        cuts = np.quantile(counted / 2, levels) * 2 if wide else np.quantile(counted, levels)
    elif strategy == "uniform":
        levels = np.arange(1, n_thresholds + 1) / (n_thresholds + 1)
        cuts = (
            (lo / 2 + (hi / 2 - lo / 2) * levels) * 2
            if wide
            else lo + (hi - lo) * np.arange(1, n_thresholds + 1) / (n_thresholds + 1)
        )
    else:
        raise ValueError(f"strategy must be 'quantile' or 'uniform', not {strategy!r}")
    cuts = np.unique(cuts[np.isfinite(cuts)])
    return cuts[cuts < values.max()]


def integer_thresholds(values: np.ndarray, n_thresholds: int, strategy: str = "quantile") -> list:
    """:func:`quantile_thresholds` for an integer column beyond 2**53, in exact integers.

    float64 rounds such integers (an id column's values become equal, a cut moves between
    them), so the cuts are computed on the integers themselves: a quantile is the data value
    at its level (no interpolation), a uniform cut the integer part of its point. For an
    integer ``x``, ``x <= t`` holds where ``x <= floor(t)``, so no cut is lost.
    """
    ordered = np.sort(values)
    levels = np.arange(1, n_thresholds + 1) / (n_thresholds + 1)
    if strategy == "quantile":
        cuts = {int(ordered[math.floor(q * (ordered.size - 1))]) for q in levels}
    elif strategy == "uniform":
        lo, hi = int(ordered[0]), int(ordered[-1])  # Python integers: no overflow, no rounding
        cuts = {lo + (hi - lo) * k // (n_thresholds + 1) for k in range(1, n_thresholds + 1)}
    else:
        raise ValueError(f"strategy must be 'quantile' or 'uniform', not {strategy!r}")
    return sorted(c for c in cuts if c < int(ordered[-1]))


class FeatureBinarizer(TransformerMixin, BaseEstimator):
    """Binarise a table into Boolean terms that keep their meaning.

    Parameters
    ----------
    n_thresholds : int, default=10
        Thresholds per numeric column (fewer when the column has fewer distinct values).
    strategy : {"quantile", "uniform"}, default="quantile"
        Empirical quantiles (paper 1) or equally spaced cut points.
    negations : bool, default=True
        Include both directions (``<=`` and ``>``; ``==`` and ``!=``). Without negations only
        ``<=`` and ``==`` columns are produced.
    missing : {"indicator", "error"}, default="indicator"
        ``"indicator"`` adds ``is missing`` (and with negations ``is not missing``) for
        every column with NaN in training; ``"error"`` refuses NaN with a ValueError.
    categorical : list of str, optional
        Columns to treat as categorical even if numeric; text, category and bool columns
        are categorical anyway.
    thresholds : dict, optional
        Column -> thresholds to use *in addition to* the computed ones (e.g. a published
        rule's cut points, or domain knowledge such as ``{"age": [18, 65]}``). A numeric
        column with two values gets these cuts besides its ``==`` terms; a categorical
        column has no order to cut, and thresholds for one are refused.

    Attributes
    ----------
    terms_ : list of Term
        The meaning of every output column, in order.
    thresholds_ : dict
        Numeric column -> array of thresholds.
    feature_names_in_ : ndarray of str
    constant_features_ : ndarray of str
        Columns that gave no term: a single value in training (missing values aside, which
        give ``is missing`` terms). When no column gives a term, ``fit`` raises.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X = load_iris(as_frame=True).data
    >>> fb = FeatureBinarizer(n_thresholds=3).fit(X)
    >>> fb.get_feature_names_out()[:2].tolist()
    ['sepal length (cm) <= 5.10', 'sepal length (cm) <= 5.80']
    """

    def __init__(
        self,
        n_thresholds: int = 10,
        strategy: str = "quantile",
        negations: bool = True,
        missing: str = "indicator",
        categorical=None,
        thresholds=None,
    ):
        self.n_thresholds = n_thresholds
        self.strategy = strategy
        self.negations = negations
        self.missing = missing
        self.categorical = categorical
        self.thresholds = thresholds

    def fit(self, X, y=None):
        X = check_frame(X)
        if self.missing not in ("indicator", "error"):
            raise ValueError(f"missing must be 'indicator' or 'error', not {self.missing!r}")
        if not isinstance(self.n_thresholds, (int, np.integer)) or self.n_thresholds < 1:
            raise ValueError(f"n_thresholds must be a positive integer, got {self.n_thresholds!r}")
        forced = set(self.categorical or ())
        unknown = forced - set(X.columns)
        if unknown:
            raise ValueError(
                f"categorical columns {sorted(unknown)} are not in X; its columns "
                f"are {list(X.columns)[:20]}"
            )
        extra = dict(self.thresholds or {})
        unknown = set(extra) - set(X.columns)
        if unknown:
            raise ValueError(f"thresholds given for columns {sorted(unknown)}, which are not in X")
        self.feature_names_in_ = np.asarray(X.columns, dtype=object)
        self.n_features_in_ = X.shape[1]
        self.thresholds_, terms, silent = {}, [], []
        for col in X.columns:
            s = X[col]
            has_nan = bool(s.isna().any())
            if has_nan and self.missing == "error":
                raise ValueError(
                    f"column {col!r} has missing values; impute them or use missing='indicator'"
                )
            check_not_dates(col, s)
            check_not_complex(col, s)
            before = len(terms)
            categorical = (
                col in forced
                or not pd.api.types.is_numeric_dtype(s)
                or pd.api.types.is_bool_dtype(s)  # bool and nullable boolean alike
            )
            if categorical and col in extra:
                raise ValueError(
                    f"thresholds given for column {col!r}, which is categorical (text, "
                    "category, bool or listed in categorical=): it is tested with == and != "
                    "terms, which take no threshold; drop it from thresholds=, or pass the "
                    "column as numbers (and not in categorical=) to cut it"
                )
            if categorical:
                terms += self._categorical_terms(col, s)
            else:
                exact = integers_beyond_float(s)  # None: float64 reads the column exactly
                values = s.to_numpy(dtype=float) if exact is None else exact
                distinct = np.unique(values[~np.isnan(values)] if exact is None else exact)
                if distinct.size <= 2:
                    terms += self._two_valued_terms(col, distinct)
                    if col in extra:  # the == terms, and the cuts asked for besides
                        cuts = self._given_cuts(col, extra[col], exact)
                        self.thresholds_[col] = np.asarray(cuts, dtype=object)
                        terms += [Term(col, "<=", t) for t in cuts]
                        if self.negations:
                            terms += [Term(col, ">", t) for t in cuts]
                else:
                    n = int(self.n_thresholds)
                    if exact is None:
                        cuts = quantile_thresholds(values, n, self.strategy)
                    else:
                        cuts = integer_thresholds(exact, n, self.strategy)
                    if col in extra:
                        given = self._given_cuts(col, extra[col], exact)
                        if exact is None:
                            cuts = np.unique(np.concatenate([cuts, given]))
                        else:  # on integers x <= t is x <= floor(t): the cut kept exact
                            cuts = sorted(set(cuts) | set(given))
                    if exact is None:
                        self.thresholds_[col] = cuts
                        cuts = [float(t) for t in cuts]
                    else:
                        self.thresholds_[col] = np.asarray(cuts, dtype=object)
                    terms += [Term(col, "<=", t) for t in cuts]
                    if self.negations:
                        terms += [Term(col, ">", t) for t in cuts]
            if has_nan and not s.isna().all():  # all missing is constant too
                terms.append(Term(col, "is missing"))
                if self.negations:
                    terms.append(Term(col, "is not missing"))
            if len(terms) == before:
                silent.append(col)  # one value (or none): a constant says nothing
        if not terms:
            one = " (X has one sample)" if len(X) == 1 else ""
            raise ValueError(
                f"no column of X gives a Boolean term: every column holds a single "
                f"value ({silent[:10]}){one}; a rule needs a column that varies"
            )
        self.constant_features_ = np.asarray(silent, dtype=object)
        self.terms_ = terms
        return self

    @staticmethod
    def _given_cuts(col, given, exact) -> list:
        """The thresholds given for ``col``, checked finite: floats, or on integers beyond
        2**53 (``exact`` not None) the integers ``floor(t)``, which cut them alike."""
        values = np.asarray(given, dtype=object).ravel().tolist()
        if not all(isinstance(t, numbers.Real) and math.isfinite(t) for t in values):
            raise ValueError(f"thresholds for column {col!r} must be finite numbers, got {values}")
        if exact is not None:
            return sorted({math.floor(t) for t in values})
        return sorted({float(t) for t in values})

    def _categorical_terms(self, col, s: pd.Series) -> list[Term]:
        values = category_values(s)
        if len(values) <= 1:
            return []  # a constant column says nothing
        if len(values) == 2:
            # One of ==a / ==b is the negation of the other: keep both only with negations.
            return [Term(col, "==", v) for v in (values if self.negations else values[1:])]
        terms = [Term(col, "==", v) for v in values]
        if self.negations:
            terms += [Term(col, "!=", v) for v in values]
        return terms

    def _two_valued_terms(self, col, distinct: np.ndarray) -> list[Term]:
        if distinct.size < 2:
            return []
        # whole numbers print as integers; an infinite value stays a float (int(inf) fails)
        lo, hi = (int(v) if np.isfinite(v) and v == int(v) else float(v) for v in distinct)
        return [Term(col, "==", hi)] + ([Term(col, "==", lo)] if self.negations else [])

    def transform(self, X) -> np.ndarray:
        """The 0/1 matrix (uint8), one column per term in ``terms_``."""
        check_is_fitted(self, "terms_")
        X = check_frame(X)
        missing_cols = [c for c in self.feature_names_in_ if c not in X.columns]
        if missing_cols:
            raise ValueError(
                f"X lacks columns seen in fit: {missing_cols[:5]} (columns are "
                "matched by name, whatever their order)"
            )
        for c in self.feature_names_in_:
            check_not_complex(c, X[c])
        if self.missing == "error":
            bad = [c for c in self.feature_names_in_ if X[c].isna().any()]
            if bad:
                raise ValueError(f"columns {bad[:5]} have missing values (missing='error')")
        out = np.empty((len(X), len(self.terms_)), dtype=np.uint8)
        # Row blocks: writing one term's column at a time strides through the whole matrix,
        # and at a million rows that was most of the binarising time; a block of rows is
        # evaluated at once and written a cache-sized slab at a time.
        for start in range(0, len(X), _EVAL_ROWS):
            fired = evaluate_terms(self.terms_, X.iloc[start : start + _EVAL_ROWS])
            for at in range(0, fired[0].size, _WRITE_ROWS):
                out[start + at : start + at + _WRITE_ROWS] = np.stack(
                    [f[at : at + _WRITE_ROWS] for f in fired], axis=1
                )
        return out

    def get_feature_names_out(self, input_features=None) -> np.ndarray:
        check_is_fitted(self, "terms_")
        return np.asarray([str(t) for t in self.terms_], dtype=object)
