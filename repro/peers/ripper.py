"""RIPPER (Cohen 1995) from the ``wittgenstein`` package, the Python alternative to Weka's
JRip (:mod:`repro.peers.jrip`) for paper 1's baselines."""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin

__all__ = ["RipperClassifier"]


class RipperClassifier(ClassifierMixin, BaseEstimator):
    """RIPPER (Cohen 1995) from the ``wittgenstein`` package as a scikit-learn classifier.

    RIPPER learns rules for one class and predicts the other by default; as in Cohen's
    implementation the rules are learned for the *less frequent* class of the training
    labels (learning them for the majority class is far worse, e.g. on ILPD). Numeric
    features are discretised by wittgenstein itself (``n_discretize_bins`` bins).

    Parameters
    ----------
    k : int, default=2
        Optimisation passes.
    n_discretize_bins : int, default=10
    random_state : int, optional
    """

    def __init__(self, k: int = 2, n_discretize_bins: int = 10, random_state=None):
        self.k = k
        self.n_discretize_bins = n_discretize_bins
        self.random_state = random_state

    def fit(self, X, y):
        try:
            import wittgenstein as lw
        except ImportError as err:  # pragma: no cover - optional dependency
            raise ImportError(
                "RipperClassifier needs the 'wittgenstein' package: pip install wittgenstein"
            ) from err
        X = _as_frame(X)
        y = np.asarray(y)
        self.classes_, counts = np.unique(y, return_counts=True)
        if self.classes_.size != 2:
            raise ValueError(f"RipperClassifier is binary; y has {self.classes_.size} classes")
        self.rule_class_ = self.classes_[int(np.argmin(counts))]
        target = (y == self.rule_class_).astype(int)
        self.ripper_ = lw.RIPPER(
            k=self.k, n_discretize_bins=self.n_discretize_bins, random_state=self.random_state
        )
        self.ripper_.fit(X.reset_index(drop=True), target, pos_class=1)
        self.ruleset_ = self.ripper_.ruleset_
        self.n_features_in_ = X.shape[1]
        return self

    def predict(self, X):
        X = _as_frame(X)
        fired = np.asarray(self.ripper_.predict(X.reset_index(drop=True)), dtype=bool)
        other = self.classes_[self.classes_ != self.rule_class_][0]
        return np.where(fired, self.rule_class_, other)

    def __str__(self) -> str:
        return str(getattr(self, "ruleset_", repr(self)))


def _as_frame(X) -> pd.DataFrame:
    return X if isinstance(X, pd.DataFrame) else pd.DataFrame(np.asarray(X))
