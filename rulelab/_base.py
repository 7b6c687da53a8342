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
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, column_or_1d, validate_data

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
        if y is None:
            raise ValueError(f"{type(self).__name__} requires y to be passed, but the target y is None")
        frame = self._as_frame(X, reset=True)
        y_arr = column_or_1d(np.asarray(y), warn=True)
        if y_arr.shape[0] != frame.shape[0]:
            raise ValueError(f"X has {frame.shape[0]} rows but y has {y_arr.shape[0]}: they must match")
        if pd.isna(pd.Series(y_arr)).any():
            raise ValueError("y contains missing values: drop or impute the unlabelled rows first")
        check_classification_targets(y_arr)
        classes = np.unique(y_arr)
        if classes.size > 2:
            raise ValueError(f"Only binary classification is supported: y has {classes.size} "
                             "classes; wrap the learner in sklearn's OneVsRestClassifier for more")
        if classes.size < 2:
            raise ValueError(f"y has one class (all {classes[0]!r}): a rule needs both positive "
                             "and negative samples")
        self.classes_ = classes
        y01 = check_binary_labels((y_arr == classes[1]).astype(np.int8))
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
    def _as_frame(self, X, reset: bool) -> pd.DataFrame:
        """X as a DataFrame with the fitted column names; numeric arrays go through
        scikit-learn's own validation (shape, sparse, complex, 1-D and empty input)."""
        if isinstance(X, pd.DataFrame):
            frame = check_frame(X)
            validate_data(self, X, reset=reset, skip_check_array=True)
            if reset:  # kept even for non-string column names: rules print these names
                self.feature_names_in_ = np.asarray(frame.columns, dtype=object)
            else:
                missing = [c for c in self.feature_names_in_ if c not in frame.columns]
                if missing:
                    raise ValueError(f"X lacks the columns {missing[:5]} seen in fit")
            return frame
        arr = validate_data(self, X, reset=reset, ensure_all_finite="allow-nan")
        names = [f"x{i}" for i in range(arr.shape[1])] if reset else list(self.feature_names_in_)
        if reset:
            self.feature_names_in_ = np.asarray(names, dtype=object)
        return pd.DataFrame(arr, columns=names)

    def _check_X(self, X) -> pd.DataFrame:
        check_is_fitted(self, "rules_")
        return self._as_frame(X, reset=False)

    def decision_function(self, X) -> np.ndarray:
        """1.0 where the rule fires, 0.0 elsewhere (rule learners are not scored)."""
        frame = self._check_X(X)
        return self.rules_.evaluate(frame).astype(float)

    def predict(self, X) -> np.ndarray:
        """The positive class where the printed rule holds, the other class elsewhere."""
        frame = self._check_X(X)
        fired = self.rules_.evaluate(frame)
        return self.classes_[fired.astype(int)]

    def __str__(self) -> str:
        if not hasattr(self, "rules_"):
            return repr(self)
        return str(self.rules_)
