"""The tables the peers run as external programs (Weka's JRip, Quinlan's C5.0) are given:
a named frame, and each column as numbers or as its nominal values, with a clear error for
what neither program can read."""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["as_frame", "nominal_values"]


def as_frame(X) -> pd.DataFrame:
    """``X`` as a DataFrame (an array gets the names x0, x1, ...)."""
    if isinstance(X, pd.DataFrame):
        return X
    arr = np.asarray(X)
    if arr.ndim != 2:
        raise ValueError(f"X must be 2-D (samples x features), got shape {arr.shape}")
    return pd.DataFrame(arr, columns=[f"x{j}" for j in range(arr.shape[1])])


def nominal_values(column: pd.Series, name, program: str) -> list | None:
    """None for a numeric column, else its sorted distinct values (as strings).

    Dates, durations and infinite numbers are refused by name: ``program`` could only read
    them as something they are not.
    """
    kind = column.dtype
    if pd.api.types.is_datetime64_any_dtype(kind) or pd.api.types.is_timedelta64_dtype(kind):
        raise TypeError(
            f"column {name!r} holds dates or durations: turn it into numbers "
            f"(e.g. days since a date) before fitting {program}"
        )
    if pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column):
        values = column.to_numpy(dtype=float, na_value=np.nan)
        if np.isinf(values).any():
            raise ValueError(
                f"column {name!r} has infinite values: replace them by "
                "finite numbers or NaN (missing)"
            )
        return None
    return sorted({str(v) for v in column.dropna()})


def training_table(X, y) -> tuple[pd.DataFrame, np.ndarray, np.ndarray, np.ndarray]:
    """``X`` and ``y`` checked for a fit: returns the frame, the labels, the classes and the
    column names (as text), or a ValueError naming what is wrong."""
    X = as_frame(X)
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise ValueError(
            f"y must be 1-D with one label per row of X ({X.shape[0]}), got shape {y.shape}"
        )
    if pd.isna(y).any():
        raise ValueError("y has missing labels: drop those rows before fitting")
    classes = np.unique(y)
    if classes.size < 2:
        raise ValueError(f"y has one class ({classes[0]!r}): a rule needs samples of two classes")
    names = np.asarray([str(c) for c in X.columns], dtype=object)
    if len(set(names)) != len(names):
        raise ValueError("X has duplicate column names: give every column its own name")
    return X, y, classes, names


def coded_cells(X: pd.DataFrame, nominal: list) -> list[list[str]]:
    """Each column of ``X`` as the text the programs read: numbers in full precision,
    categories under the neutral names ``v0``, ``v1``, ... of ``nominal`` (a column's values
    from :func:`nominal_values`, None for a numeric one), ``?`` for a missing value and for
    a category not seen in fit (unknown to the model)."""
    cols = []
    for j, col in enumerate(X.columns):
        values = nominal[j]
        if values is None:
            num = X[col].to_numpy(dtype=float, na_value=np.nan)
            cols.append(["?" if np.isnan(v) else repr(float(v)) for v in num])
        else:
            index = {v: f"v{i}" for i, v in enumerate(values)}
            cols.append(["?" if pd.isna(v) else index.get(str(v), "?") for v in X[col]])
    return cols
