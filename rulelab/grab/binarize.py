"""The GRAB paper's binarisation: equal-width cells between min and max, one-hot by cell.

Section 5.2: "We divided the interval from the minimum value to the maximum value into 50
cells of equal length. We expressed each attribute in a binary form by indicating which
section its value fell into." A column that is already 0/1 stays one item (``binary="keep"``)
or becomes the two items ``x = 0`` and ``x = 1`` (``binary="onehot"``). A discrete column
with a few values (phishing's -1/0/1 codes) gets one cell per value, which is exactly the
one-hot expansion (LIBSVM's 68-feature phishing).

Each output column keeps its meaning, so a conjunction prints in words:
``url_length = -1``, ``f11 in [0.12, 0.16)``, ``f3``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from .._validation import category_values, check_frame, check_not_dates

__all__ = ["CellBinarizer"]


def _fmt(v: float) -> str:
    return f"{v:.4g}"


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
    feature_names_out_ : ndarray of str
        Readable name of each output column.
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
        # per input column: (name, lo, width, cells kept or category values, kind)
        self.specs_ = []
        names, columns = [], []
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
                self.specs_.append((col, None, None, values, "category"))
                names += [f"{col} = {v}" for v in values]
                columns += [(col, "category", k) for k in range(len(values))]
                continue
            v = pd.to_numeric(s).to_numpy(dtype=float)
            uniq = np.unique(v)
            if self.binary == "keep" and set(uniq.tolist()) <= {0.0, 1.0}:
                self.specs_.append((col, None, None, None, "binary"))
                names.append(str(col))
                columns.append((col, "binary", 1))
                continue
            # cells span the finite values; -inf and +inf fall in the first and last cell
            finite = v[np.isfinite(v)]
            lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 0.0)
            width = (hi - lo) / self.n_bins if hi > lo else 1.0
            cells = self._cells(v, lo, width)
            kept = np.unique(cells) if self.drop_empty else np.arange(self.n_bins)
            self.specs_.append((col, lo, width, kept, "cells"))
            for c in kept:
                inside = uniq[self._cells(uniq, lo, width) == c]
                if inside.size == 1:
                    names.append(f"{col} = {_fmt(inside[0])}")
                else:
                    a = "-inf" if c == 0 and np.isneginf(inside).any() else _fmt(lo + c * width)
                    b = ("inf" if c == self.n_bins - 1 and np.isposinf(inside).any()
                         else _fmt(lo + (c + 1) * width))
                    close = "]" if c == self.n_bins - 1 else ")"
                    names.append(f"{col} in [{a}, {b}{close}")
                columns.append((col, "cell", int(c)))
        self.feature_names_out_ = np.asarray(names, dtype=object)
        self.columns_ = columns
        return self

    def _cells(self, v, lo, width):
        # values outside the training range (infinities included) go to the first / last cell
        c = np.floor((np.clip(v, lo, lo + self.n_bins * width) - lo) / width)
        return np.clip(c, 0, self.n_bins - 1).astype(np.int64)

    def transform(self, X) -> np.ndarray:
        check_is_fitted(self, "specs_")
        frame = check_frame(X)
        if frame.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {frame.shape[1]} columns, the binariser was fitted on "
                             f"{self.n_features_in_}")
        blocks = []
        for i, (col, lo, width, kept, kind) in enumerate(self.specs_):
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
            else:
                cells = self._cells(v, lo, width)
                blocks.append(cells[:, None] == kept[None, :])
        return np.hstack(blocks).astype(np.uint8)

    def get_feature_names_out(self, input_features=None):
        check_is_fitted(self, "feature_names_out_")
        return self.feature_names_out_.copy()
