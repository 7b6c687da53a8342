"""The base classifier of a rules-first model and input checks shared by its learners."""

from __future__ import annotations

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.linear_model import LogisticRegression

PENALTIES = ("l1", "l2")


def make_linear(penalty: str = "l2", C: float = 1.0, random_state=None,
                max_iter: int = 1000) -> LogisticRegression:
    """Regularised logistic regression of Cohen et al. (2019, eq. 9) on the current API.

    scikit-learn 1.9 expresses the penalty through ``l1_ratio`` (0 = l2, 1 = l1) rather than
    the deprecated ``penalty=`` argument. liblinear is the solver for l1: saga needs many
    more iterations on unscaled data; lbfgs is the fast default for l2.
    """
    if penalty not in PENALTIES:
        raise ValueError(f"penalty must be 'l1' or 'l2', got {penalty!r}")
    if not C > 0:
        raise ValueError(f"C must be positive (inverse regularisation strength), got {C!r}")
    if penalty == "l1":
        return LogisticRegression(C=C, l1_ratio=1.0, solver="liblinear", max_iter=max_iter,
                                  random_state=random_state)
    return LogisticRegression(C=C, l1_ratio=0.0, solver="lbfgs", max_iter=max_iter,
                              random_state=random_state)


class ConstantModel:
    """Predicts one class: the base model when the uncovered samples hold a single label."""

    def __init__(self, label_index: int):
        self.classes_ = np.array([label_index])

    def predict(self, X) -> np.ndarray:
        return np.full(X.shape[0], self.classes_[0])

    def predict_proba(self, X) -> np.ndarray:
        return np.ones((X.shape[0], 1))


def fit_base(template, X, y: np.ndarray, default: int, sample_weight=None):
    """Clone and fit ``template`` on (X, y); a constant model if y holds fewer than 2 labels.

    ``y`` holds class indices; ``default`` is the class predicted when there is no data.
    """
    if len(y) == 0:
        return ConstantModel(default)
    values = np.unique(y)
    if len(values) < 2:
        return ConstantModel(int(values[0]))
    model = clone(template)
    if sample_weight is None:
        return model.fit(X, y)
    return model.fit(X, y, sample_weight=sample_weight)


def base_proba(model, X, n_classes: int) -> np.ndarray:
    """``model.predict_proba`` spread onto all ``n_classes`` class indices."""
    out = np.zeros((X.shape[0], n_classes))
    if X.shape[0] == 0:
        return out
    cols = np.asarray(model.classes_, dtype=np.int64)
    if hasattr(model, "predict_proba"):
        out[:, cols] = model.predict_proba(X)
    else:  # a base classifier without probabilities: one-hot of its prediction
        out[np.arange(X.shape[0]), np.asarray(model.predict(X), dtype=np.int64)] = 1.0
    return out


def check_X(X, n_features: int | None = None):
    """Return (X as float ndarray or CSR matrix, feature names or None), or raise ValueError."""
    names = None
    if isinstance(X, pd.DataFrame):
        bad = [c for c in X.columns if not (pd.api.types.is_numeric_dtype(X[c])
                                              or pd.api.types.is_bool_dtype(X[c]))]
        if bad:
            raise ValueError(f"X has non-numeric columns {bad[:5]}: rules-first learners need "
                             "numeric features (binarise or vectorise text first)")
        names = [str(c) for c in X.columns]
        X = X.to_numpy(dtype=np.float64)
    elif sp.issparse(X):
        X = sp.csr_matrix(X, dtype=np.float64)
    else:
        X = np.asarray(X)
        if X.dtype.kind not in "biuf":
            raise ValueError(f"X must be numeric, got dtype {X.dtype}")
        X = X.astype(np.float64, copy=False)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D, got {X.ndim} dimension(s); reshape(-1, 1) for one feature")
    if X.shape[0] == 0 or X.shape[1] == 0:
        raise ValueError(f"X is empty (shape {X.shape}): it needs rows and columns")
    data = X.data if sp.issparse(X) else X
    if not np.isfinite(data).all():
        raise ValueError("X contains NaN or infinity: impute or drop those values first")
    if n_features is not None and X.shape[1] != n_features:
        raise ValueError(f"X has {X.shape[1]} features but the model was fitted on {n_features}")
    return X, names


def check_y(y, n_samples: int):
    """Return (classes, class indices) for a label vector with at least two classes."""
    y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:
        y = y.ravel()
    if y.ndim != 1:
        raise ValueError(f"y must be one-dimensional, got shape {y.shape}")
    if len(y) != n_samples:
        raise ValueError(f"X has {n_samples} rows but y has {len(y)}: they must match")
    if y.dtype.kind == "f" and np.isnan(y).any():
        raise ValueError("y contains NaN: drop the unlabelled rows first")
    classes, yi = np.unique(y, return_inverse=True)
    if len(classes) < 2:
        raise ValueError(f"y has one class (all {classes[0]!r}): a classifier needs two")
    return classes, yi.astype(np.int64)


def per_label(value, classes, name: str) -> list:
    """Expand a scalar or a {label: value} mapping to one value per class index."""
    if isinstance(value, dict):
        unknown = set(value) - set(classes.tolist())
        if unknown:
            raise ValueError(f"{name} names labels {sorted(map(str, unknown))} that are not "
                             f"classes of y ({list(classes)})")
        return [value.get(c) for c in classes.tolist()]
    return [value] * len(classes)
