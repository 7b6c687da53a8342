"""How theta is tuned: :class:`ThetaSearchCV`, the paper's "second cross-validation inside
the training partition", optionally on a stratified subsample of a large training fold,
with the chosen estimator refitted on the whole fold."""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.model_selection import GridSearchCV, StratifiedKFold, train_test_split
from sklearn.utils.validation import check_is_fitted

__all__ = ["ThetaSearchCV"]


class ThetaSearchCV(ClassifierMixin, BaseEstimator):
    """Choose a parameter by an inner stratified CV, then refit on the whole training set.

    Parameters
    ----------
    estimator : estimator
        The learner whose parameter is tuned.
    param_grid : dict
        Passed to :class:`~sklearn.model_selection.GridSearchCV` (e.g. ``{"complexity": [...]}``).
    cv : int, default=3
        Inner folds.
    max_samples : int, optional
        Tune on a stratified subsample of at most this many training samples (for the
        large data sets, where the inner CV would dominate the run time); the refit uses
        every sample. None tunes on all of them.
    random_state : int, default=0
        Seed of the inner folds and of the subsample.

    Attributes
    ----------
    best_params_ : dict
    best_estimator_ : estimator
        Refitted on all of ``X``.
    classes_ : ndarray
    """

    def __init__(
        self,
        estimator=None,
        param_grid=None,
        cv: int = 3,
        max_samples: int | None = None,
        random_state: int = 0,
    ):
        self.estimator = estimator
        self.param_grid = param_grid
        self.cv = cv
        self.max_samples = max_samples
        self.random_state = random_state

    def fit(self, X, y):
        y_arr = np.asarray(y)
        Xs, ys = X, y
        if self.max_samples is not None and len(y_arr) > self.max_samples:
            Xs, _, ys, _ = train_test_split(
                X,
                y,
                train_size=int(self.max_samples),
                stratify=y_arr,
                random_state=self.random_state,
            )
        folds = StratifiedKFold(self.cv, shuffle=True, random_state=self.random_state)
        search = GridSearchCV(
            self.estimator, self.param_grid, cv=folds, refit=False, error_score="raise"
        ).fit(Xs, ys)
        self.best_params_ = search.best_params_
        self.cv_results_ = search.cv_results_
        self.best_estimator_ = clone(self.estimator).set_params(**self.best_params_).fit(X, y)
        self.classes_ = self.best_estimator_.classes_
        return self

    def predict(self, X) -> np.ndarray:
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.predict(X)

    def complexity_(self) -> tuple[float, float]:
        """(rules, terms) of the refitted estimator, as :func:`repro.core.model_size.complexity`."""
        from repro.core.model_size import complexity

        return complexity(self.best_estimator_)

    def __str__(self) -> str:
        if not hasattr(self, "best_estimator_"):
            return repr(self)
        return str(self.best_estimator_)
