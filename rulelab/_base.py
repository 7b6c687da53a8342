"""What every rule learner shares: input handling, binarisation, prediction from the rule.

A learner takes a raw table (numeric and categorical columns, binarised internally by
:class:`~rulelab.binarize.FeatureBinarizer`) or an already-binary matrix (used as is, one
term ``column == 1`` per column). It predicts by evaluating its printed rule on the raw
input, so what you read is exactly what it does.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from ._validation import check_binary_labels, check_frame, is_binary_frame
from .binarize import FeatureBinarizer
from .rules import Term


class RuleClassifierBase(ClassifierMixin, BaseEstimator):
    """Base of the binary rule classifiers (not used directly).

    Subclasses implement ``_fit_binary(A, y)`` on the 0/1 design and set ``rules_``
    (an object with ``evaluate(X)``, ``n_rules``, ``n_terms``).
    """

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        tags.input_tags.allow_nan = True
        return tags

    # ---- fitting ----------------------------------------------------------------------
    def _validate_fit(self, X, y):
        """Check input, set ``classes_`` and the binarizer; return (A, y01, frame)."""
        frame = check_frame(X)
        y_arr = np.asarray(y)
        if y_arr.ndim != 1:
            if y_arr.ndim == 2 and y_arr.shape[1] == 1:
                y_arr = y_arr.ravel()
            else:
                raise ValueError(f"y must be one-dimensional, got shape {y_arr.shape}")
        if y_arr.shape[0] != frame.shape[0]:
            raise ValueError(f"X has {frame.shape[0]} rows but y has {y_arr.shape[0]}: they must match")
        if pd.isna(pd.Series(y_arr)).any():
            raise ValueError("y contains missing values: drop or impute the unlabelled rows first")
        classes = np.unique(y_arr)
        if classes.size > 2:
            raise ValueError(f"y has {classes.size} classes; rule learners here are binary: "
                             "wrap the learner in sklearn's OneVsRestClassifier for more")
        if classes.size < 2:
            raise ValueError(f"y has one class (all {classes[0]!r}): a rule needs both positive "
                             "and negative samples")
        self.classes_ = classes
        y01 = check_binary_labels((y_arr == classes[1]).astype(np.int8))
        self.feature_names_in_ = np.asarray(frame.columns, dtype=object)
        self.n_features_in_ = frame.shape[1]
        self.positive_label_ = self._describe_positive(y, classes[1])
        binarize = getattr(self, "binarize", "auto")
        if binarize not in ("auto", True, False):
            raise ValueError(f"binarize must be 'auto', True or False, not {binarize!r}")
        use_as_is = binarize is False or (binarize == "auto" and is_binary_frame(frame))
        if use_as_is:
            if not is_binary_frame(frame):
                raise ValueError("binarize=False needs a 0/1 matrix without NaN")
            self.binarizer_ = None
            self.terms_ = [Term(c, "==", 1) for c in frame.columns]
            A = frame.to_numpy(dtype=np.uint8)
        else:
            self.binarizer_ = FeatureBinarizer(
                n_thresholds=getattr(self, "n_thresholds", 10)).fit(frame)
            self.terms_ = list(self.binarizer_.terms_)
            A = self.binarizer_.transform(frame)
        return A, y01, frame

    @staticmethod
    def _describe_positive(y, positive) -> str:
        """``diagnosis = M`` for a labelled Series from load_dataset, else the class label."""
        if isinstance(y, pd.Series) and y.attrs.get("positive") and y.name is not None:
            return f"{y.name} = {'/'.join(map(str, y.attrs['positive']))}"
        return str(positive.item() if isinstance(positive, np.generic) else positive)

    # ---- prediction -------------------------------------------------------------------
    def _check_X(self, X) -> pd.DataFrame:
        check_is_fitted(self, "rules_")
        frame = check_frame(X)
        if frame.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {frame.shape[1]} features, but {type(self).__name__} was "
                             f"fitted with {self.n_features_in_}")
        if isinstance(X, pd.DataFrame):
            missing = [c for c in self.feature_names_in_ if c not in frame.columns]
            if missing:
                raise ValueError(f"X lacks the columns {missing[:5]} seen in fit")
        else:
            frame.columns = list(self.feature_names_in_)
        return frame

    def decision_function(self, X) -> np.ndarray:
        """1.0 where the rule fires, 0.0 elsewhere (rule learners are not scored)."""
        return self.rules_.evaluate(self._check_X(X)).astype(float)

    def predict(self, X) -> np.ndarray:
        """The positive class where the printed rule holds, the other class elsewhere."""
        fired = self.rules_.evaluate(self._check_X(X))
        return self.classes_[fired.astype(int)]

    def __str__(self) -> str:
        if not hasattr(self, "rules_"):
            return repr(self)
        return str(self.rules_)
