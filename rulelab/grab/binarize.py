"""The GRAB paper's binarisation: equal-width cells between min and max, one-hot by cell.

Section 5.2: "We divided the interval from the minimum value to the maximum value into 50
cells of equal length. We expressed each attribute in a binary form by indicating which
section its value fell into." A column that is already 0/1 stays one item (``binary="keep"``)
or becomes the two items ``x = 0`` and ``x = 1`` (``binary="onehot"``). A column of integer
codes spanning fewer than ``n_bins`` units (phishing's -1/0/1) has cells narrower than 1, so
each occupied cell holds one value: it becomes one item per value, ``x == v``, which is the
same items on integer data and the one-hot expansion (LIBSVM's 68-feature phishing).

Each output column is a :class:`rulelab.rules.Term` that holds exactly where the column is 1
(``terms_``), so a conjunction prints in words and evaluates on the raw data:
``url_length < -0.96``, ``f11 in [0.12, 0.16)``, ``f3 == 1``, ``workclass == Private``.
"""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from .._validation import (
    category_values,
    check_frame,
    check_not_complex,
    check_not_dates,
    integers_beyond_float,
)
from ..rules import Term, evaluate_terms

__all__ = ["CellBinarizer"]


class CellBinarizer(TransformerMixin, BaseEstimator):
    """Equal-width cells per quantitative column, one 0/1 column per occupied cell.

    Parameters
    ----------
    n_bins : int, default=50
        Cells between each column's training minimum and maximum (the paper: 50).
    binary : {"keep", "onehot"}, default="keep"
        What to do with columns that are already 0/1: keep them as one item, or one-hot
        them into ``x = 0`` / ``x = 1`` like any other column.
    drop_empty : bool, default=True
        Leave out cells no training value falls into (they are all-zero columns).

    Attributes
    ----------
    terms_ : list of rulelab.rules.Term
        The test each output column stands for (a cell is the half-open interval between
        its edges; the first and last cells are open-ended, so values outside the training
        range fall in them).
    feature_names_out_ : ndarray of str
        Each output column's term in words.
    columns_ : list of (column, kind, cell) describing each output column.
    constant_features_ : ndarray of str
        Columns that gave no item: a single value in training (a 0/1 column kept with
        ``binary="keep"`` is kept even then, as the data's own item). When no column gives
        an item, ``fit`` raises.
    """

    def __init__(self, n_bins: int = 50, binary: str = "keep", drop_empty: bool = True):
        self.n_bins = n_bins
        self.binary = binary
        self.drop_empty = drop_empty

    def fit(self, X, y=None):
        if self.binary not in ("keep", "onehot"):
            raise ValueError(f"binary must be 'keep' or 'onehot', got {self.binary!r}")
        if (
            not isinstance(self.n_bins, numbers.Integral)
            or isinstance(self.n_bins, (bool, np.bool_))
            or self.n_bins < 1
        ):
            raise ValueError(
                f"n_bins must be a whole number of cells >= 1, got {self.n_bins!r}: "
                "pass an integer such as n_bins=50"
            )
        frame = check_frame(X)
        self.feature_names_in_ = np.asarray(frame.columns, dtype=object)
        self.n_features_in_ = frame.shape[1]
        # per input column: (name, inner cell edges, cells kept or category values, kind)
        self.specs_ = []
        terms, columns, constant = [], [], []
        for col in frame.columns:
            s = frame[col]
            if s.isna().any():
                raise ValueError(f"column {col!r} has missing values: impute or drop them first")
            check_not_dates(col, s)
            check_not_complex(col, s)
            numeric_codes = isinstance(
                s.dtype, pd.CategoricalDtype
            ) and pd.api.types.is_numeric_dtype(s.cat.categories)
            if not (pd.api.types.is_numeric_dtype(s) or numeric_codes) or (
                pd.api.types.is_bool_dtype(s)  # bool and nullable boolean alike
            ):
                # categories, text and booleans: one item per value (one-hot)
                values = category_values(s)
                if len(values) < 2:  # an item true on every row says nothing
                    constant.append(col)
                    continue
                self.specs_.append((col, None, values, "category"))
                terms += [Term(str(col), "==", v) for v in values]
                columns += [(col, "category", k) for k in range(len(values))]
                continue
            exact = integers_beyond_float(s)
            if exact is not None:
                spec, items = self._integer_items(col, exact)
                if spec is None:
                    constant.append(col)
                    continue
                self.specs_.append(spec)
                terms += items
                columns += [(col, spec[3], k) for k in range(len(items))]
                continue
            v = pd.to_numeric(s).to_numpy(dtype=float)
            uniq = np.unique(v)
            if self.binary == "keep" and set(uniq.tolist()) <= {0.0, 1.0}:
                # the data's own item, kept as given even when constant (a1a's columns that
                # are all 0 in training are among the d items the GRAB paper counts)
                self.specs_.append((col, None, None, "binary"))
                terms.append(Term(str(col), "==", 1))
                columns.append((col, "binary", 1))
                continue
            if uniq.size < 2:
                constant.append(col)
                continue
            # equal-width cells between the finite extremes; the outer cells are open-ended,
            # so -inf, +inf and values beyond the training range fall in them
            finite = v[np.isfinite(v)]
            lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 0.0)
            if lo == hi or (
                self.drop_empty
                and finite.size == v.size
                and np.all(v == np.round(v))
                and hi - lo < self.n_bins
            ):
                # integer codes: cells under 1 wide hold one value each, so say which; one
                # finite value besides infinities has no width to cut, so the same
                self.specs_.append((col, None, uniq, "values"))
                terms += [Term(str(col), "==", _number(u)) for u in uniq]
                columns += [(col, "value", _number(u)) for u in uniq]
                continue
            edges = _equal_width_edges(lo, hi, int(self.n_bins))
            kept = np.unique(self._cells(v, edges)) if self.drop_empty else np.arange(self.n_bins)
            self.specs_.append((col, edges, kept, "cells"))
            bounds = np.concatenate([[-np.inf], edges, [np.inf]])
            terms += [Term(str(col), "in", (bounds[c], bounds[c + 1])) for c in kept]
            columns += [(col, "cell", int(c)) for c in kept]
        if not terms:
            one = " (X has one sample)" if len(frame) == 1 else ""
            raise ValueError(
                f"no column of X gives an item: every column holds a single value "
                f"({constant[:10]}){one}; a rule needs a column that varies"
            )
        self.constant_features_ = np.asarray(constant, dtype=object)
        self.terms_ = terms
        self.feature_names_out_ = np.asarray([str(t) for t in terms], dtype=object)
        self.columns_ = columns
        return self

    def _integer_items(self, col, values: np.ndarray):
        """The spec and terms of an integer column beyond 2**53, in exact integers.

        float64 would round its values (distinct ids become one value, a cell's edge moves
        between them), so cells are cut on the integers themselves: one item per value when
        the column spans fewer than ``n_bins`` units, else equal-width cells whose edges are
        whole numbers. Such a column is read through its terms, which compare exactly.
        """
        uniq = np.unique(values)
        if uniq.size < 2:
            return None, []
        lo, hi, n_bins = int(uniq[0]), int(uniq[-1]), int(self.n_bins)
        if self.drop_empty and hi - lo < n_bins:
            items = [Term(str(col), "==", int(u)) for u in uniq]
            return (col, None, items, "exact values"), items
        # an integer is below the edge lo + (hi - lo) k / n exactly when it is below that
        # edge's ceiling: the cells hold the values the real edges would give them
        edges = sorted({lo - (-(hi - lo) * k // n_bins) for k in range(1, n_bins)} - {lo})
        bounds = [-np.inf, *edges, np.inf]
        cells = np.searchsorted(np.asarray(edges, dtype=values.dtype), values, side="right")
        kept = np.unique(cells) if self.drop_empty else np.arange(len(bounds) - 1)
        items = [Term(str(col), "in", (bounds[c], bounds[c + 1])) for c in kept]
        return (col, None, items, "exact cells"), items

    @staticmethod
    def _cells(v, edges):
        # cell c holds edges[c-1] <= v < edges[c]: the very comparisons of its Term
        return np.searchsorted(edges, v, side="right")

    def transform(self, X) -> np.ndarray:
        """The 0/1 matrix (uint8), one column per term in ``terms_``; the columns of ``X``
        are found by name, whatever their order."""
        check_is_fitted(self, "specs_")
        frame = check_frame(X)
        absent = [c for c in self.feature_names_in_ if c not in frame.columns]
        if absent:
            raise ValueError(
                f"X lacks columns seen in fit: {absent[:5]} (columns are matched "
                f"by name; X has {list(frame.columns)[:10]})"
            )
        blocks = []
        for col, edges, kept, kind in self.specs_:
            s = frame[col]
            if s.isna().any():
                raise ValueError(f"column {col!r} has missing values: impute or drop them first")
            check_not_complex(col, s)
            if kind.startswith("exact"):  # integers beyond 2**53: their terms compare exactly
                blocks.append(np.column_stack(evaluate_terms(kept, frame)))
                continue
            if kind == "category":
                # a value not seen in fit falls in no item
                values = np.asarray(kept, dtype=object)
                blocks.append(s.to_numpy(dtype=object)[:, None] == values[None, :])
                continue
            v = pd.to_numeric(s, errors="coerce").to_numpy(dtype=float)
            if np.isnan(v).any():
                raise ValueError(f"column {col!r} is not numeric as it was in fit")
            if kind == "binary":
                blocks.append((v == 1)[:, None])
            elif kind == "values":
                blocks.append(v[:, None] == kept[None, :])
            else:
                blocks.append(self._cells(v, edges)[:, None] == kept[None, :])
        return np.hstack(blocks).astype(np.uint8)

    def get_feature_names_out(self, input_features=None):
        """Each output column's term in words."""
        check_is_fitted(self, "feature_names_out_")
        return self.feature_names_out_.copy()


def _number(u: float):
    """A cell value as it prints: whole numbers as integers, infinities as floats."""
    return int(u) if np.isfinite(u) and u == int(u) else float(u)


def _equal_width_edges(lo: float, hi: float, n_bins: int) -> np.ndarray:
    """The ``n_bins - 1`` inner edges of equal-width cells between ``lo`` and ``hi``.

    A range wider than the largest float (``-1e308`` to ``1e308``) would make the width
    infinite and put every value in one cell; it is measured on halved bounds instead
    (halving is exact), which leaves every other range's edges as they were.
    """
    with np.errstate(over="ignore"):
        wide = not np.isfinite(hi - lo)
    if not wide:
        return lo + (hi - lo) / n_bins * np.arange(1, n_bins)
    half = (hi / 2 - lo / 2) / n_bins * np.arange(1, n_bins)
    return (lo / 2 + half) * 2
