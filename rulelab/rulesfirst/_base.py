"""The base classifier of a rules-first model, its learners' shared base and input checks.

A rules-first model is a :class:`~rulelab.rules.DecisionList` whose fallback is a fitted
model: :class:`BaseModel` (a base classifier, link "probability") or :class:`Halfspace`
(GreedyRule's norm-bounded halfspace, link "score"). The learners' ``predict``,
``predict_proba``, ``decision_function``, ``explain`` and printout all come from that list
through :class:`~rulelab._base.RuleClassifierBase`; :class:`RulesFirstBase` only says which
rows the list reads: the learner's numeric design (:func:`~rulelab._design.numeric_design`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.linear_model import LogisticRegression
from sklearn.utils.validation import check_is_fitted

from .._base import RuleClassifierBase
from .._design import numeric_design
from .._validation import check_target

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
    categories one-hot, or a binariser's terms (:func:`~rulelab._design.numeric_design`). That design is what the
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
        return numeric_design(X, self)[0]

    def apply_rules(self, X) -> np.ndarray:
        """Index (into ``rules_``) of the first rule that fires on each sample, -1 if none."""
        return self.rules_.apply(self._check_X(X))


class _Fallback:
    """A fitted model deciding the rows a rules-first list leaves: it reads the learner's
    design, and a table through the learner's own encoding (:func:`~rulelab._design.numeric_design`)."""

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
        return numeric_design(X, self.learner)[0]


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
