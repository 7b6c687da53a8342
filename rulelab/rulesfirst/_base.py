"""The base classifier of a rules-first model, its learners' shared base and input checks.

A rules-first model is a :class:`~rulelab.rules.DecisionList` whose fallback is a fitted
model: :class:`BaseModel` (a base classifier, link "probability") or :class:`Halfspace`
(GreedyRule's norm-bounded halfspace, link "score"). The learners' ``predict``,
``predict_proba``, ``decision_function``, ``explain`` and printout all come from that list
through :class:`~rulelab._base.RuleClassifierBase`; :class:`RulesFirstBase` only says which
rows the list reads: the learner's numeric design (:func:`check_X`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.linear_model import LogisticRegression
from sklearn.utils import check_array
from sklearn.utils.validation import check_is_fitted

from .._base import RuleClassifierBase, fit_binarizer
from .._validation import category_values, check_frame, check_not_dates, check_target
from ..rules import Term

PENALTIES = ("l1", "l2")


def make_linear(
    penalty: str = "l2", C: float = 1.0, random_state=None, max_iter: int = 1000
) -> LogisticRegression:
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
        return LogisticRegression(
            C=C, l1_ratio=1.0, solver="liblinear", max_iter=max_iter, random_state=random_state
        )
    return LogisticRegression(
        C=C, l1_ratio=0.0, solver="lbfgs", max_iter=max_iter, random_state=random_state
    )


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


class RulesFirstBase(RuleClassifierBase):
    """Base of the rules-first learners (not used directly).

    ``rules_`` is a :class:`~rulelab.rulesfirst.RuleList` (or a vote of them) whose
    fallback model reads the learner's numeric design: numeric columns as they are,
    categories one-hot, or a binariser's terms (:func:`check_X`). That design is what the
    shared ``predict``, ``predict_proba``, ``decision_function`` and ``explain`` hand to
    ``rules_``; the rules read it by column index, so a sparse bag of words stays sparse.
    """

    _sparse = True  # sparse designs (bags of words, LIBSVM files) are common here

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False  # only a binariser takes missing values
        return tags

    def _check_X(self, X):
        check_is_fitted(self, "rules_")
        return check_X(X, self)[0]

    def apply_rules(self, X) -> np.ndarray:
        """Index (into ``rules_``) of the first rule that fires on each sample, -1 if none."""
        return self.rules_.apply(self._check_X(X))


class _Fallback:
    """A fitted model deciding the rows a rules-first list leaves: it reads the learner's
    design, and a table through the learner's own encoding (:func:`check_X`)."""

    link: str
    learner = None

    def _design(self, X):
        if not isinstance(X, pd.DataFrame):
            return X
        if self.learner is None:
            raise TypeError(
                f"this {type(self).__name__} reads a numeric design, not a table: pass the "
                "matrix the learner was fitted on"
            )
        return check_X(X, self.learner)[0]


class BaseModel(_Fallback):
    """The base classifier of a rules-first model as its list's fallback (link
    "probability"): fitted on the samples no rule covers, without the rule features.

    Parameters
    ----------
    model : fitted classifier
        Fitted on class indices (:func:`fit_base`).
    keep : ndarray of int
        The design's columns it reads (all but the rule features).
    classes : ndarray
        The learner's classes; the probability columns follow them.
    learner : estimator, optional
        The learner whose encoding turns a table into the design.
    """

    link = "probability"

    def __init__(self, model, keep, classes, learner=None):
        self.model = model
        self.keep = np.asarray(keep)
        self.classes_ = np.asarray(classes)
        self.learner = learner

    def predict_proba(self, X) -> np.ndarray:
        """The base classifier's probabilities on all the classes (:func:`base_proba`)."""
        X = self._design(X)
        return base_proba(self.model, X[:, self.keep], len(self.classes_))


class Halfspace(_Fallback):
    """``<w, x> + b``, positive for ``classes[1]`` (link "score"): GreedyRule's fallback,
    fitted by a hinge loss, which gives it no probability."""

    link = "score"

    def __init__(self, coef, intercept: float, classes, learner=None):
        self.coef = np.asarray(coef)
        self.intercept = intercept
        self.classes_ = np.asarray(classes)
        self.learner = learner

    def decision_function(self, X) -> np.ndarray:
        """``<w, x> + b`` on every row of the design."""
        X = self._design(X)
        return np.asarray(X @ self.coef).ravel() + self.intercept


def check_X(X, estimator, *, reset: bool = False):
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
    if isinstance(X, pd.DataFrame):
        X, names = _numeric_features(estimator, X, spec, reset)
    _check_magnitude(X, names)
    return X, names


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


def _numeric_features(estimator, X: pd.DataFrame, spec, reset: bool):
    """A DataFrame's columns as a float matrix and their names (categories one-hot)."""
    if spec == "passthrough":
        bad = [
            c
            for c in X.columns
            if not (pd.api.types.is_numeric_dtype(X[c]) or pd.api.types.is_bool_dtype(X[c]))
        ]
        if bad:
            raise ValueError(
                f"binarizer='passthrough' takes numeric columns, and "
                f"{bad[:5]} are not: binarizer='auto' one-hot encodes them"
            )
    X = _encode_categories(estimator, X, reset)
    bad = [
        c
        for c in X.columns
        if not (pd.api.types.is_numeric_dtype(X[c]) or pd.api.types.is_bool_dtype(X[c]))
    ]
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
            if not (pd.api.types.is_numeric_dtype(s) or pd.api.types.is_bool_dtype(s)):
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


def feature_terms(estimator, names) -> list[Term]:
    """The test each feature column stands for on the caller's data: ``x > 0`` (a rule's
    feature covers a sample where it is positive), or ``colour == red`` for a category that
    :func:`check_X` one-hot encoded."""
    if getattr(estimator, "binarizer_", None) is not None:
        return list(estimator.binarizer_.terms_)
    categories = getattr(estimator, "categories_", None) or {}
    encoded = {
        f"{col} = {v}": Term(str(col), "==", v)
        for col, values in categories.items()
        for v in values
    }
    return [encoded.get(name, Term(name, ">", 0)) for name in names]


def check_y(y, n_samples: int):
    """Return (classes, class indices) for a label vector with at least two classes (a
    learner's own fit uses :meth:`~rulelab._base.LearnerBase._check_target`)."""
    y = check_target(y, n_samples)
    classes, yi = np.unique(y, return_inverse=True)
    if len(classes) < 2:
        raise ValueError(f"y has one class (all {classes[0]!r}): a classifier needs two")
    return classes, yi.astype(np.int64)


def per_label(value, classes, name: str) -> list:
    """Expand a scalar or a {label: value} mapping to one value per class index."""
    if isinstance(value, dict):
        unknown = set(value) - set(classes.tolist())
        if unknown:
            raise ValueError(
                f"{name} names labels {sorted(map(str, unknown))} that are not "
                f"classes of y ({list(classes)})"
            )
        return [value.get(c) for c in classes.tolist()]
    return [value] * len(classes)
