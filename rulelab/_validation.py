"""One place for input checks, so every learner fails early with a message that names the fix."""

from __future__ import annotations

import numpy as np
import pandas as pd


def check_binary_labels(y, n_samples: int | None = None, *, allow_one_class: bool = False) -> np.ndarray:
    """Return ``y`` as a 0/1 int8 array, or raise a ValueError that names the problem.

    Accepts {0, 1}, {False, True} and {-1, +1} (mapped to 0/1). The ``classes_`` of a
    learner keep the original labels; this function is for the internal 0/1 view.
    """
    y = np.asarray(y)
    if y.ndim != 1:
        if y.ndim == 2 and y.shape[1] == 1:
            y = y.ravel()
        else:
            raise ValueError(f"y must be one-dimensional, got shape {y.shape}")
    if n_samples is not None and y.shape[0] != n_samples:
        raise ValueError(f"X has {n_samples} rows but y has {y.shape[0]}: they must match")
    if y.shape[0] == 0:
        raise ValueError("y is empty: a rule needs at least one positive and one negative sample")
    if y.dtype.kind == "f" and np.isnan(y).any():
        raise ValueError("y contains NaN: drop or impute the unlabelled rows first")
    values = set(np.unique(y).tolist())
    if values <= {0, 1}:
        out = y.astype(np.int8)
    elif values <= {-1, 1}:
        out = (y == 1).astype(np.int8)
    else:
        shown = sorted(map(str, values))[:5]
        raise ValueError(
            f"y must be binary (0/1, -1/+1 or boolean), got values {shown}: "
            "map your classes to 0/1 or wrap the learner in OneVsRestClassifier")
    if not allow_one_class and len(values) < 2:
        only = next(iter(values))
        raise ValueError(
            f"y has one class (all {only}): a rule needs both positive and negative samples")
    return out


def check_binary_matrix(A, name: str = "A") -> np.ndarray:
    """Return a 2-D 0/1 matrix as uint8 (dense), or raise a clear ValueError."""
    if hasattr(A, "toarray"):
        A = A.toarray()
    A = np.asarray(A)
    if A.ndim != 2:
        raise ValueError(f"{name} must be a 2-D matrix, got {A.ndim} dimension(s)")
    if A.shape[0] == 0 or A.shape[1] == 0:
        raise ValueError(f"{name} is empty (shape {A.shape}): it needs rows and columns")
    if A.dtype.kind == "f" and np.isnan(A).any():
        raise ValueError(f"{name} contains NaN: a Boolean design matrix must be all 0/1")
    # Unsigned integers only need a max check; np.isin is slow on large designs.
    if A.dtype.kind == "u":
        ok = A.max(initial=0) <= 1
    else:
        ok = A.dtype == np.bool_ or bool(((A == 0) | (A == 1)).all())
    if not ok:
        raise ValueError(f"{name} must contain only 0/1 values; binarise it first "
                         "(rulelab.FeatureBinarizer)")
    return A.astype(np.uint8, copy=False)


def check_frame(X) -> pd.DataFrame:
    """Return X as a DataFrame with string column names, or raise for an empty input."""
    if isinstance(X, pd.DataFrame):
        frame = X
    else:
        arr = X.toarray() if hasattr(X, "toarray") else np.asarray(X)
        if arr.ndim == 1:
            raise ValueError("X is one-dimensional: pass a 2-D array or DataFrame "
                             "(reshape(-1, 1) for a single feature)")
        if arr.ndim != 2:
            raise ValueError(f"X must be 2-D, got {arr.ndim} dimensions")
        frame = pd.DataFrame(arr, columns=[f"x{i}" for i in range(arr.shape[1])])
    if frame.shape[0] == 0:
        raise ValueError("X has no rows: a rule needs data to be learned from")
    if frame.shape[1] == 0:
        raise ValueError("X has no columns: a rule needs at least one feature")
    frame = frame.copy() if not all(isinstance(c, str) for c in frame.columns) else frame
    frame.columns = [str(c) for c in frame.columns]
    return frame


def is_binary_frame(X: pd.DataFrame) -> bool:
    """True when every column holds only 0/1 (or booleans) and no NaN."""
    for col in X.columns:
        s = X[col]
        if s.dtype == bool:
            continue
        if not pd.api.types.is_numeric_dtype(s) or s.isna().any():
            return False
        if not s.isin((0, 1)).all():
            return False
    return True
