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

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from .._validation import category_values, check_frame, check_not_dates
from ..rules import Term

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
    """

    def __init__(self, n_bins: int = 50, binary: str = "keep", drop_empty: bool = True):
        self.n_bins = n_bins
        self.binary = binary
        self.drop_empty = drop_empty

    def fit(self, X, y=None):
        if self.binary not in ("keep", "onehot"):
            raise ValueError(f"binary must be 'keep' or 'onehot', got {self.binary!r}")
        if int(self.n_bins) < 1:
            raise ValueError(f"n_bins must be >= 1, got {self.n_bins}")
        frame = check_frame(X)
        self.feature_names_in_ = np.asarray(frame.columns, dtype=object)
        self.n_features_in_ = frame.shape[1]
        # per input column: (name, inner cell edges, cells kept or category values, kind)
        self.specs_ = []
        terms, columns = [], []
        for col in frame.columns:
            s = frame[col]
            if s.isna().any():
                raise ValueError(f"column {col!r} has missing values: impute or drop them first")
            check_not_dates(col, s)
            numeric_codes = (isinstance(s.dtype, pd.CategoricalDtype)
                             and pd.api.types.is_numeric_dtype(s.cat.categories))
            if not (pd.api.types.is_numeric_dtype(s) or numeric_codes) or s.dtype == bool:
                # categories, text and booleans: one item per value (one-hot)
                values = category_values(s)
                self.specs_.append((col, None, values, "category"))
                terms += [Term(str(col), "==", v) for v in values]
                columns += [(col, "category", k) for k in range(len(values))]
                continue
            v = pd.to_numeric(s).to_numpy(dtype=float)
            uniq = np.unique(v)
            if self.binary == "keep" and set(uniq.tolist()) <= {0.0, 1.0}:
                self.specs_.append((col, None, None, "binary"))
                terms.append(Term(str(col), "==", 1))
                columns.append((col, "binary", 1))
                continue
            # equal-width cells between the finite extremes; the outer cells are open-ended,
            # so -inf, +inf and values beyond the training range fall in them
            finite = v[np.isfinite(v)]
            lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 0.0)
            if (self.drop_empty and finite.size == v.size and np.all(v == np.round(v))
                    and hi - lo < self.n_bins):
                # integer codes: cells under 1 wide hold one value each, so say which
                self.specs_.append((col, None, uniq, "values"))
                terms += [Term(str(col), "==", int(u)) for u in uniq]
                columns += [(col, "value", int(u)) for u in uniq]
                continue
            width = (hi - lo) / self.n_bins if hi > lo else 1.0
            edges = lo + width * np.arange(1, self.n_bins)
            kept = (np.unique(self._cells(v, edges)) if self.drop_empty
                    else np.arange(self.n_bins))
            self.specs_.append((col, edges, kept, "cells"))
            bounds = np.concatenate([[-np.inf], edges, [np.inf]])
            terms += [Term(str(col), "in", (bounds[c], bounds[c + 1])) for c in kept]
            columns += [(col, "cell", int(c)) for c in kept]
        self.terms_ = terms
        self.feature_names_out_ = np.asarray([str(t) for t in terms], dtype=object)
        self.columns_ = columns
        return self

    @staticmethod
    def _cells(v, edges):
        # cell c holds edges[c-1] <= v < edges[c]: the very comparisons of its Term
        return np.searchsorted(edges, v, side="right")

    def transform(self, X) -> np.ndarray:
        check_is_fitted(self, "specs_")
        frame = check_frame(X)
        if frame.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {frame.shape[1]} columns, the binariser was fitted on "
                             f"{self.n_features_in_}")
        blocks = []
        for i, (col, edges, kept, kind) in enumerate(self.specs_):
            s = frame.iloc[:, i]
            if s.isna().any():
                raise ValueError(f"column {col!r} has missing values: impute or drop them first")
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
        check_is_fitted(self, "feature_names_out_")
        return self.feature_names_out_.copy()
