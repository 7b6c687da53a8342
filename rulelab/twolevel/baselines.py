"""What the two-level experiments compare against and how theta is tuned.

* :class:`RipperClassifier`: RIPPER (Cohen 1995) from ``wittgenstein`` as a scikit-learn
  classifier, the open stand-in for the paper's rule learners from commercial packages.
* :class:`ThetaSearchCV`: the paper's "second cross-validation inside the training
  partition", optionally on a stratified subsample of a large training fold, with the
  chosen estimator refitted on the whole fold.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.model_selection import GridSearchCV, StratifiedKFold, train_test_split
from sklearn.utils.validation import check_is_fitted

__all__ = ["RipperClassifier", "ThetaSearchCV"]


class RipperClassifier(ClassifierMixin, BaseEstimator):
    """RIPPER rule set (``wittgenstein.RIPPER``) with the scikit-learn interface.

    As in Cohen's RIPPER, rules are learned for the *minority* class and the majority
    class is the default; the rule set is ``ruleset_`` (its conditions are what
    :func:`rulelab.evaluate.complexity` counts).

    Parameters
    ----------
    k : int, default=2
        Optimisation passes.
    prune_size : float, default=0.33
        Share of the training data held out for pruning.
    n_discretize_bins : int, default=10
        Bins per numeric feature (wittgenstein's own discretisation).
    random_state : int, default=0
    """

    def __init__(self, k: int = 2, prune_size: float = 0.33, n_discretize_bins: int = 10,
                 random_state: int = 0):
        self.k = k
        self.prune_size = prune_size
        self.n_discretize_bins = n_discretize_bins
        self.random_state = random_state

    @staticmethod
    def _frame(X) -> pd.DataFrame:
        frame = X if isinstance(X, pd.DataFrame) else pd.DataFrame(np.asarray(X))
        frame = frame.reset_index(drop=True)
        frame.columns = [str(c) for c in frame.columns]
        return frame

    def fit(self, X, y):
        """Learn rules for the minority class of ``y``."""
        try:
            import wittgenstein
        except ImportError as exc:  # optional heavy dependency
            raise ImportError("RipperClassifier needs wittgenstein: pip install wittgenstein") from exc
        y = np.asarray(y)
        self.classes_, counts = np.unique(y, return_counts=True)
        if self.classes_.size != 2:
            raise ValueError(f"RipperClassifier is binary; y has {self.classes_.size} classes")
        self.minority_ = self.classes_[int(np.argmin(counts))]
        self.model_ = wittgenstein.RIPPER(k=self.k, prune_size=self.prune_size,
                                          n_discretize_bins=self.n_discretize_bins,
                                          random_state=self.random_state)
        self.model_.fit(self._frame(X), (y == self.minority_).astype(int), pos_class=1)
        self.ruleset_ = self.model_.ruleset_
        return self

    def predict(self, X) -> np.ndarray:
        check_is_fitted(self, "model_")
        fired = np.asarray(self.model_.predict(self._frame(X)), dtype=bool)
        majority = self.classes_[self.classes_ != self.minority_][0]
        return np.where(fired, self.minority_, majority)


class ThetaSearchCV(ClassifierMixin, BaseEstimator):
    """Choose a parameter by an inner stratified CV, then refit on the whole training set.

    Parameters
    ----------
    estimator : estimator
        The learner whose parameter is tuned.
    param_grid : dict
        Passed to :class:`~sklearn.model_selection.GridSearchCV` (e.g. ``{"theta": [...]}``).
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

    def __init__(self, estimator=None, param_grid=None, cv: int = 3, max_samples: int | None = None,
                 random_state: int = 0):
        self.estimator = estimator
        self.param_grid = param_grid
        self.cv = cv
        self.max_samples = max_samples
        self.random_state = random_state

    def fit(self, X, y):
        y_arr = np.asarray(y)
        Xs, ys = X, y
        if self.max_samples is not None and len(y_arr) > self.max_samples:
            Xs, _, ys, _ = train_test_split(X, y, train_size=int(self.max_samples),
                                            stratify=y_arr, random_state=self.random_state)
        folds = StratifiedKFold(self.cv, shuffle=True, random_state=self.random_state)
        search = GridSearchCV(self.estimator, self.param_grid, cv=folds, refit=False,
                              error_score="raise").fit(Xs, ys)
        self.best_params_ = search.best_params_
        self.cv_results_ = search.cv_results_
        self.best_estimator_ = clone(self.estimator).set_params(**self.best_params_).fit(X, y)
        self.classes_ = self.best_estimator_.classes_
        return self

    def predict(self, X) -> np.ndarray:
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.predict(X)

    def complexity_(self) -> tuple[float, float]:
        """(rules, terms) of the refitted estimator, as :func:`rulelab.evaluate.complexity`."""
        from ..evaluate import complexity

        return complexity(self.best_estimator_)

    def __str__(self) -> str:
        if not hasattr(self, "best_estimator_"):
            return repr(self)
        return str(self.best_estimator_)
