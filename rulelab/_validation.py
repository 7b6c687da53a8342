"""One place for input checks, so every learner fails early with a message that names the fix."""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import column_or_1d


def check_binary_labels(
    y, n_samples: int | None = None, *, allow_one_class: bool = False
) -> np.ndarray:
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
            "map your classes to 0/1 or wrap the learner in OneVsRestClassifier"
        )
    if not allow_one_class and len(values) < 2:
        only = next(iter(values))
        raise ValueError(
            f"y has one class (all {only}): a rule needs both positive and negative samples"
        )
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
        raise ValueError(
            f"{name} must contain only 0/1 values; binarise it first (rulelab.FeatureBinarizer)"
        )
    return A.astype(np.uint8, copy=False)


def check_frame(X) -> pd.DataFrame:
    """Return X as a DataFrame with string column names, or raise for an empty input."""
    if isinstance(X, pd.DataFrame):
        frame = X
    else:
        arr = X.toarray() if hasattr(X, "toarray") else np.asarray(X)
        if arr.ndim == 1:
            raise ValueError(
                "X is one-dimensional: pass a 2-D array or DataFrame "
                "(reshape(-1, 1) for a single feature)"
            )
        if arr.ndim != 2:
            raise ValueError(f"X must be 2-D, got {arr.ndim} dimensions")
        frame = pd.DataFrame(arr, columns=[f"x{i}" for i in range(arr.shape[1])])
    if frame.shape[0] == 0:
        raise ValueError("X has no rows: a rule needs data to be learned from")
    if frame.shape[1] == 0:
        raise ValueError("X has no columns: a rule needs at least one feature")
    if frame.columns.duplicated().any():
        repeated = sorted(map(str, frame.columns[frame.columns.duplicated()].unique()))
        raise ValueError(
            f"X has duplicated column names {repeated[:5]}: every column needs "
            "its own name, since rules name the columns they test"
        )
    if not all(isinstance(c, str) for c in frame.columns):
        names = pd.Index([str(c) for c in frame.columns])
        if names.duplicated().any():
            raise ValueError(
                f"X has column names that read the same as text "
                f"{sorted(set(names[names.duplicated()]))[:5]} (e.g. 1 and '1'): "
                "rules name columns by their text, so rename one of them"
            )
        # a shallow copy with string names: the caller's frame is never modified
        frame = frame.set_axis(list(names), axis=1)
    for j, (col, dtype) in enumerate(zip(frame.columns, frame.dtypes)):
        _check_dtype_not_complex(col, dtype)  # dtypes only: no Series per column
        if pd.api.types.is_object_dtype(dtype):
            _check_no_containers(col, frame.iloc[:, j])
    return frame


# a tuple is hashable, so it passed as a category, but it is no more one value than a list:
# its SQL is the text '(1, 2)', and the rules-first encoding compared it item by item
_CONTAINERS = (list, tuple, dict, set, frozenset, np.ndarray)


def _check_no_containers(col, s: pd.Series) -> None:
    """Refuse a column whose cells hold lists, tuples, dicts, sets or arrays, naming it: a
    term compares one value per row, and such cells cannot even be told apart as categories."""
    if pd.api.types.infer_dtype(s, skipna=True) not in ("mixed", "mixed-integer", "unknown-array"):
        return  # text, numbers, booleans, dates: no container in the column
    hit = s.map(lambda v: isinstance(v, _CONTAINERS)).to_numpy(dtype=bool)
    if hit.any():
        first = int(np.flatnonzero(hit)[0])
        raise ValueError(
            f"column {col!r} holds {type(s.iloc[first]).__name__}s (row {first}: "
            f"{s.iloc[first]!r:.40}), but a term compares one value per row: expand it into "
            "columns first, e.g. one 0/1 column per item with "
            f"pd.get_dummies(X[{col!r}].explode()).groupby(level=0).max()"
        )


# what a column's values are, as the rules compare them: a term on a boolean column tests
# True/False, on a number column compares numbers, on a text column compares text
_KIND_OF_INFERRED = {
    "boolean": "boolean",
    "integer": "number",
    "floating": "number",
    "mixed-integer-float": "number",
    "decimal": "number",
    "string": "text",
    "datetime": "date",
    "datetime64": "date",
    "date": "date",
    "timedelta": "date",
    "timedelta64": "date",
}


def column_kind(s: pd.Series) -> str:
    """``"boolean"``, ``"number"``, ``"text"`` or ``"date"``: what a column's values are,
    whatever the dtype that holds them (``bool`` and nullable ``boolean``, ``int64`` and
    ``Float64``, ``object`` and ``str`` text, a categorical's categories); ``""`` when it
    says nothing (every value missing, or values of mixed kinds)."""
    dtype = s.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        return column_kind(pd.Series(dtype.categories)) if len(dtype.categories) else ""
    if pd.api.types.is_bool_dtype(dtype):
        return "boolean"
    if pd.api.types.is_numeric_dtype(dtype):
        return "number"
    if pd.api.types.is_datetime64_any_dtype(dtype) or pd.api.types.is_timedelta64_dtype(dtype):
        return "date"
    if pd.api.types.is_string_dtype(dtype) and not pd.api.types.is_object_dtype(dtype):
        return "text"
    return _KIND_OF_INFERRED.get(pd.api.types.infer_dtype(s, skipna=True), "")


def column_kinds(frame: pd.DataFrame) -> dict[str, str]:
    """:func:`column_kind` of every column of ``frame`` (one dtype look-up per column when
    the dtypes are NumPy's: a wide 0/1 design costs no pass over its values)."""
    kinds = {}
    for col, dtype in zip(frame.columns, frame.dtypes):
        if isinstance(dtype, np.dtype) and dtype.kind in "biuf":
            kinds[col] = "boolean" if dtype.kind == "b" else "number"
        else:
            kinds[col] = column_kind(frame[col])
    return kinds


# how to turn a column back into what it was in fit
_CONVERT = {
    ("boolean", "text"): "X[{col!r}] = X[{col!r}].map({{'True': True, 'False': False}})",
    ("number", "text"): "X[{col!r}] = pd.to_numeric(X[{col!r}])",
    ("text", "number"): "X[{col!r}] = X[{col!r}].astype(str)",
    ("text", "boolean"): "X[{col!r}] = X[{col!r}].astype(str)",
    ("date", "text"): "X[{col!r}] = pd.to_datetime(X[{col!r}])",
}


def check_same_kinds(frame: pd.DataFrame, fitted: dict[str, str]) -> None:
    """Refuse a column whose values are of another kind than in fit, naming it and the fix.

    A column fitted as booleans and given as the text ``"True"``/``"False"`` (a CSV or JSON
    round trip) would be compared as text, so ``flag == True`` would hold nowhere and the
    predictions change silently. Kinds that mean the same are accepted: ``bool`` and
    ``boolean``, any integer or float dtype, booleans and numbers (``True == 1``), text as
    ``object``, ``str`` or categories.
    """
    for col, kind in column_kinds(frame[[c for c in frame.columns if c in fitted]]).items():
        was = fitted[col]
        if not kind or not was or kind == was or {kind, was} == {"boolean", "number"}:
            continue
        fix = _CONVERT.get((was, kind), "convert it to the type it had in fit").format(col=col)
        raise ValueError(
            f"column {col!r} held {was} values in fit but holds {kind} values here "
            f"(dtype {frame[col].dtype}): the rules would compare them as something else and "
            f"change the predictions silently; convert it first: {fix}"
        )


def check_not_dates(col, s: pd.Series) -> None:
    """Refuse a column of dates or durations, naming it: one term per timestamp would say
    nothing, and thresholds and cells need numbers."""
    if pd.api.types.is_datetime64_any_dtype(s) or pd.api.types.is_timedelta64_dtype(s):
        raise ValueError(
            f"column {col!r} holds dates or durations: convert it to numbers "
            "first (e.g. days since a reference date)"
        )


#: float64 holds every integer up to this size; beyond it, neighbouring integers share a float.
EXACT_FLOAT_INTEGERS = 2**53


def integers_beyond_float(s: pd.Series) -> np.ndarray | None:
    """The non-missing values of an integer column, in its own integer dtype, when some are
    beyond 2**53 in size (float64 would round them, making distinct ids equal and moving
    thresholds); None for any other column, which float64 reads exactly."""
    dtype = s.dtype
    if isinstance(dtype, pd.CategoricalDtype) or not pd.api.types.is_integer_dtype(dtype):
        return None
    values = s.dropna().to_numpy(dtype=getattr(dtype, "numpy_dtype", dtype))
    if not values.size:
        return None
    if max(abs(int(values.min())), abs(int(values.max()))) <= EXACT_FLOAT_INTEGERS:
        return None
    return values


def category_values(s: pd.Series) -> list:
    """The distinct non-missing values of a categorical column as Python scalars, sorted
    (by their text when the types do not compare)."""
    values = [v.item() if isinstance(v, np.generic) else v for v in pd.unique(s.dropna())]
    try:
        return sorted(values)
    except TypeError:
        return sorted(values, key=str)


def is_binary_frame(X: pd.DataFrame) -> bool:
    """True when every column holds only 0/1 (or booleans) and no NaN.

    Columns of one NumPy dtype are checked together as one array: a pandas call per column
    costs seconds on a wide 0/1 design (GRAB's cells), more than the fit it guards.
    """
    dtypes = X.dtypes
    if all(isinstance(dt, np.dtype) and dt.kind in "biuf" for dt in dtypes):
        kinds = set(dtypes)
        for dtype in kinds:
            if dtype.kind == "b":
                continue
            # one dtype: the frame's own block, a view (selecting columns would copy it)
            cols = X if len(kinds) == 1 else X.loc[:, (dtypes == dtype).to_numpy()]
            block = cols.to_numpy()
            if dtype.kind == "u":  # no value below 0: one pass, no temporary arrays
                if block.size and block.max() > 1:
                    return False
            elif not ((block == 0) | (block == 1)).all():  # NaN is neither
                return False
        return True
    for col in X.columns:  # extension dtypes (nullable integers, categories, text)
        s = X[col]
        if s.dtype == bool:
            continue
        if not pd.api.types.is_numeric_dtype(s) or s.isna().any():
            return False
        if not s.isin((0, 1)).all():
            return False
    return True


def check_target(y, n_samples: int | None = None) -> np.ndarray:
    """Return class labels ``y`` as a 1-D array, or raise a ValueError naming the problem.

    A one-column DataFrame or (n, 1) array is flattened. Missing labels (NaN, None,
    ``pd.NA``), labels of mixed types (``1`` and ``"a"``) and continuous targets are
    refused; the number of classes is the caller's to check.
    """
    if y is None:
        raise ValueError("y is None: a classifier needs the labels of the training rows")
    if isinstance(y, pd.DataFrame):
        if y.shape[1] != 1:
            raise ValueError(f"y must be one column of labels, got a DataFrame of {y.shape[1]}")
        y = y.iloc[:, 0]
    missing = (
        pd.isna(y).to_numpy() if isinstance(y, pd.Series) else pd.isna(np.asarray(y, dtype=object))
    )
    y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:
        # scikit-learn's conversion, with its DataConversionWarning for a column vector
        y, missing = column_or_1d(y, warn=True), np.asarray(missing).ravel()
    if y.ndim != 1:
        raise ValueError(f"y must be one-dimensional, got shape {y.shape}")
    if n_samples is not None and y.shape[0] != n_samples:
        raise ValueError(f"X has {n_samples} rows but y has {y.shape[0]}: they must match")
    if np.asarray(missing).any():
        raise ValueError(
            f"y has {int(np.sum(missing))} missing values: drop or label those rows first"
        )
    if y.dtype == object:
        kinds = {
            "number" if isinstance(v, (numbers.Number, np.number)) else type(v).__name__ for v in y
        }
        if len(kinds) > 1:
            raise ValueError(
                f"Unknown label type: y mixes label types "
                f"({', '.join(sorted(kinds))}): give every label the same type, "
                "e.g. y.astype(str)"
            )
    kind = type_of_target(y, input_name="y", raise_unknown=True)
    if kind == "continuous":
        raise ValueError(
            "y is continuous (Unknown label type: continuous): a classifier needs "
            "class labels; threshold or bin the target first"
        )
    if kind not in ("binary", "multiclass"):
        raise ValueError(f"y must be class labels, got a {kind} target")
    return y


def check_same_columns(names: list[str], fitted: list[str]) -> None:
    """Refuse columns at predict that differ from those seen in fit, by name or order.

    Rules test columns by name, so a reordered frame is refused rather than silently read
    by position; the message says which names are missing, unexpected or moved.
    """
    if names == fitted:
        return
    missing = [c for c in fitted if c not in set(names)]
    extra = [c for c in names if c not in set(fitted)]
    if missing or extra:
        detail = (f"missing {missing[:5]}" if missing else "") + (
            ("; " if missing else "") + f"not seen in fit {extra[:5]}" if extra else ""
        )
    else:
        detail = f"the same names in another order (fit: {fitted[:5]}, X: {names[:5]})"
    raise ValueError(
        f"The feature names should match those that were passed during fit: "
        f"{detail}. Select the columns in the fitted order, "
        "X[list(model.feature_names_in_)]"
    )


def check_not_constant(frame: pd.DataFrame) -> None:
    """Refuse a design in which no column varies: no rule can separate the classes, and a
    learner would return a rule that holds everywhere or nowhere."""
    for col in frame.columns:
        s = frame[col]
        if s.isna().any() and not s.isna().all():
            return
        values = s.dropna()
        if len(values) and not (values == values.iloc[0]).all():
            return
    raise ValueError(
        f"every column of X is constant ({list(map(str, frame.columns))[:5]}): "
        "no rule can tell the classes apart; pass columns that vary"
    )


def check_not_complex(col, s: pd.Series) -> None:
    """Refuse a column of complex numbers, naming it: a threshold or a cell needs an order,
    and dropping the imaginary part would silently learn from other data."""
    _check_dtype_not_complex(col, s.dtype)


def _check_dtype_not_complex(col, dtype) -> None:
    if isinstance(dtype, pd.CategoricalDtype):
        dtype = dtype.categories.dtype
    if pd.api.types.is_complex_dtype(dtype):
        raise ValueError(
            f"column {col!r} holds complex numbers: split it into real columns "
            "first (e.g. its real and imaginary parts, or modulus and angle)"
        )
