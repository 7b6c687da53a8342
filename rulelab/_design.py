"""The design a learner fits on, from any accepted ``X``: one module for both kinds.

* **0/1** (:func:`binarize_frame`): the rule learners' items, from ``binarizer=`` (the
  learner's own binariser, a 0/1 matrix used as it is, or a binariser given), each column
  one :class:`~rulelab.rules.Term`.
* **numeric** (:func:`numeric_design`): the rules-first learners' features, whose fallback
  is a linear model: numeric columns as they are, categories one-hot, or a binariser's
  terms; :func:`numeric_terms` says which test each column stands for.

Both start from the estimator's :meth:`~rulelab._base.LearnerBase._check_names` (names,
order, dtypes, empty input), so every learner's input passes one set of checks.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.utils import check_array

from ._validation import (
    EXACT_FLOAT_INTEGERS,
    category_values,
    check_frame,
    check_not_dates,
    column_kind,
    integers_beyond_float,
    is_binary_frame,
)
from .rules import Term

__all__ = [
    "LARGEST_VALUE",
    "binarize_frame",
    "fit_binarizer",
    "numeric_design",
    "numeric_terms",
    "resolve_binarizer",
]


# ---- the 0/1 design ---------------------------------------------------------------------------
def resolve_binarizer(estimator, default):
    """``estimator.binarizer`` with the deprecated ``binarize=`` folded in: ``"auto"``,
    ``"passthrough"`` or an unfitted binariser (``default()`` builds the learner's own)."""
    spec = estimator.binarizer
    old = getattr(estimator, "binarize", None)
    if old is not None:
        warnings.warn(
            "binarize= is deprecated and will be removed: use binarizer='auto', "
            "binarizer='passthrough' (was binarize=False) or a binariser such as "
            "FeatureBinarizer() (was binarize=True)",
            FutureWarning,
            stacklevel=4,
        )
        if spec == "auto":
            spec = {True: default(), False: "passthrough"}.get(old, "auto")
    return spec


def binarize_frame(estimator, frame: pd.DataFrame, default):
    """Fit the binarisation ``estimator.binarizer`` names on ``frame``; set ``binarizer_``
    (None when the input is used as it is) and return (0/1 matrix, one Term per column)."""
    spec = resolve_binarizer(estimator, default)
    binary = is_binary_frame(frame)
    # a learner that reads a 0/1 column both ways under "auto" (x == 1 and x == 0) gets
    # the default binariser for binary input too
    both_ways = getattr(estimator, "_binary_columns_both_ways", False)
    if spec == "passthrough" or (spec == "auto" and binary and not both_ways):
        if not binary:
            raise ValueError(
                "binarizer='passthrough' needs a 0/1 matrix without NaN: pass "
                "binarizer='auto' to binarise the raw columns"
            )
        estimator.binarizer_ = None
        return (frame.to_numpy(dtype=np.uint8), [Term(str(c), "==", 1) for c in frame.columns])
    fit_binarizer(estimator, default() if spec == "auto" else spec, frame)
    A = np.asarray(estimator.binarizer_.transform(frame), dtype=np.uint8)
    return A, list(estimator.binarizer_.terms_)


def fit_binarizer(estimator, binarizer, frame: pd.DataFrame) -> None:
    """Set ``estimator.binarizer_`` to a clone of ``binarizer`` fitted on ``frame`` (the
    caller's binariser stays unfitted); refuse one without ``terms_``, since rules need the
    test each binary column stands for."""
    estimator.binarizer_ = clone(binarizer).fit(frame)
    if not hasattr(estimator.binarizer_, "terms_"):
        raise TypeError(
            f"binarizer {type(binarizer).__name__} has no terms_ after fit: rules "
            "need the test each binary column stands for (use FeatureBinarizer "
            "or CellBinarizer)"
        )


# ---- the numeric design -----------------------------------------------------------------------
def numeric_design(X, estimator, *, reset: bool = False):
    """Return (X as float ndarray or CSR matrix, feature names or None), or raise ValueError.

    The column names are recorded on ``estimator`` (a :class:`~rulelab._base.LearnerBase`)
    at fit (``reset``) and checked at predict. ``estimator.binarizer`` says what becomes a
    feature: ``"auto"`` takes numeric columns as they are and the categorical columns of a
    DataFrame as one 0/1 feature per category (``colour = red``); ``"passthrough"`` takes
    numeric columns only; a binariser (``FeatureBinarizer(...)``, ``CellBinarizer(...)``)
    makes every feature one of its terms, so a rule is ``glucose > 127``.
    """
    names = None
    spec = getattr(estimator, "binarizer", "auto")
    if isinstance(spec, str):  # a binariser's terms keep integers exact; float64 does not
        _refuse_rounded_integers(X)
    if not isinstance(X, pd.DataFrame):
        # scikit-learn's own checks and messages: 1-D, empty, complex, NaN/inf, sparse
        X = check_array(
            X, accept_sparse="csr", dtype=np.float64, ensure_all_finite=isinstance(spec, str)
        )
    X = estimator._check_names(X, reset=reset)  # empty frames refused there
    if not isinstance(spec, str):
        frame = X if isinstance(X, pd.DataFrame) else check_frame(X)
        if reset:
            fit_binarizer(estimator, spec, frame)
        terms = estimator.binarizer_.terms_
        return (
            np.asarray(estimator.binarizer_.transform(frame), dtype=np.float64),
            [str(t) for t in terms],
        )
    if reset:
        estimator.binarizer_ = None
        estimator.categories_ = {}  # an array has none; a table's are found below
        # a table's boolean columns: their rules read ``flag == True`` (numbers to the
        # model), which every SQL dialect can compare, where ``flag > 0`` is refused by
        # PostgreSQL (boolean against integer)
        estimator.boolean_columns_ = (
            [str(c) for c in X.columns if column_kind(X[c]) == "boolean"]
            if isinstance(X, pd.DataFrame)
            else []
        )
    if isinstance(X, pd.DataFrame):
        X, names = _numeric_features(estimator, X, spec, reset)
    _check_magnitude(X, names)
    return X, names


def _refuse_rounded_integers(X) -> None:
    """Refuse integer columns beyond 2**53, naming them: the numeric design is float64, which
    rounds them (distinct ids become one value), so the model would learn from other data."""
    if isinstance(X, pd.DataFrame):
        bad = [  # by position: duplicated names are refused later, by name
            c
            for j, (c, dtype) in enumerate(zip(X.columns, X.dtypes))
            if pd.api.types.is_integer_dtype(dtype)
            and integers_beyond_float(X.iloc[:, j]) is not None
        ]
    elif not hasattr(X, "toarray") and np.asarray(X).dtype.kind in "iu" and np.asarray(X).size:
        peak = np.abs(np.asarray(X).astype(object)).max(axis=0)
        bad = [f"x{j}" for j in np.flatnonzero(peak > EXACT_FLOAT_INTEGERS)]
    else:
        return
    if bad:
        raise ValueError(
            f"columns {list(map(str, bad))[:5]} hold integers beyond 2**53, which the numeric "
            "design reads as float64 and so rounds (neighbouring values become equal): subtract "
            "a reference value first (e.g. X[col] - X[col].min()), or pass "
            "binarizer=FeatureBinarizer(), whose terms compare the exact integers"
        )


#: Values past this size overflow float64 when squared, which the linear base models do.
LARGEST_VALUE = 1e150


def _check_magnitude(X, names) -> None:
    """Refuse features so large that the base model's arithmetic overflows, naming them."""
    values = X.data if hasattr(X, "toarray") else X
    if values.size == 0 or np.abs(values).max() <= LARGEST_VALUE:
        return
    peak = np.asarray(
        abs(X).max(axis=0).todense() if hasattr(X, "toarray") else np.abs(X).max(axis=0)
    ).ravel()
    bad = [names[j] if names else f"x{j}" for j in np.flatnonzero(peak > LARGEST_VALUE)]
    raise ValueError(
        f"columns {bad[:5]} hold values beyond {LARGEST_VALUE:.0e} in size, which "
        "overflow the linear model's arithmetic: rescale them (e.g. divide by "
        "their largest value, or take a logarithm)"
    )


def _is_numeric(s: pd.Series) -> bool:
    """A column the numeric design takes as it is (numbers or booleans)."""
    return pd.api.types.is_numeric_dtype(s) or pd.api.types.is_bool_dtype(s)


def _numeric_features(estimator, X: pd.DataFrame, spec, reset: bool):
    """A DataFrame's columns as a float matrix and their names (categories one-hot)."""
    if spec == "passthrough":
        bad = [c for c in X.columns if not _is_numeric(X[c])]
        if bad:
            raise ValueError(
                f"binarizer='passthrough' takes numeric columns, and "
                f"{bad[:5]} are not: binarizer='auto' one-hot encodes them"
            )
    X = _encode_categories(estimator, X, reset)
    # a column numeric in fit may come as Python booleans in an object column (after a
    # concat or a fillna): True and False are 1 and 0 to it, as to every other learner
    bad = [c for c in X.columns if not _is_numeric(X[c]) and column_kind(X[c]) != "boolean"]
    if bad:
        raise ValueError(
            f"X has non-numeric columns {bad[:5]}: rules-first learners need "
            "numeric features (binarise or vectorise text first)"
        )
    names = [str(c) for c in X.columns]
    X = X.to_numpy(dtype=np.float64)
    if not np.isfinite(X).all():
        bad = [names[j] for j in np.flatnonzero(~np.isfinite(X).all(axis=0))]
        raise ValueError(
            f"X contains NaN or infinity (columns {bad[:5]}): impute or drop those values first"
        )
    return X, names


def _encode_categories(estimator, X: pd.DataFrame, reset: bool) -> pd.DataFrame:
    """Categorical and text columns as one 0/1 column per category seen in fit (a value
    not seen in fit is 0 in all of them); numeric and boolean columns as they are."""
    if reset:
        categories = {}
        for col in X.columns:
            s = X[col]
            check_not_dates(col, s)
            if not _is_numeric(s):
                if s.isna().any():
                    raise ValueError(
                        f"column {col!r} has missing values: impute or drop them first"
                    )
                categories[col] = category_values(s)
        estimator.categories_ = categories
    categories = estimator.categories_
    if not categories:
        return X
    parts = {}
    for col in X.columns:
        if col in categories:
            s = X[col].to_numpy(dtype=object)
            for v in categories[col]:
                parts[f"{col} = {v}"] = (s == v).astype(np.float64)
        else:
            parts[col] = X[col]
    return pd.DataFrame(parts, index=X.index)


def numeric_terms(estimator, names) -> list[Term]:
    """The test each feature column stands for on the caller's data: ``x > 0`` (a rule's
    feature covers a sample where it is positive), ``flag == True`` for a boolean column, or
    ``colour == red`` for a category that :func:`numeric_design` one-hot encoded."""
    if getattr(estimator, "binarizer_", None) is not None:
        return list(estimator.binarizer_.terms_)
    categories = getattr(estimator, "categories_", None) or {}
    encoded = {
        f"{col} = {v}": Term(str(col), "==", v)
        for col, values in categories.items()
        for v in values
    }
    encoded.update(
        {col: Term(col, "==", True) for col in getattr(estimator, "boolean_columns_", [])}
    )
    return [encoded.get(name, Term(name, ">", 0)) for name in names]
