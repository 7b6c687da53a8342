"""FeatureBinarizer: thresholds in both directions, categoricals, NaN, readable names."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris

from rulelab import FeatureBinarizer
from rulelab.binarize import quantile_thresholds


def test_numeric_columns_get_nested_thresholds_in_both_directions():
    X = load_iris(as_frame=True).data
    fb = FeatureBinarizer(n_thresholds=10).fit(X)
    A = fb.transform(X)
    names = fb.get_feature_names_out()
    assert len(names) == A.shape[1]
    for col, cuts in fb.thresholds_.items():
        le = [j for j, t in enumerate(fb.terms_) if t.feature == col and t.op == "<="]
        gt = [j for j, t in enumerate(fb.terms_) if t.feature == col and t.op == ">"]
        assert len(le) == len(gt) == len(cuts) <= 10
        # x <= t and x > t are complements, and the <= columns are nested.
        assert np.all(A[:, le] + A[:, gt] == 1)
        assert np.all(np.diff(A[:, le].astype(int), axis=1) >= 0)


def test_names_say_feature_operator_value():
    X = load_iris(as_frame=True).data
    names = FeatureBinarizer(n_thresholds=3).fit(X).get_feature_names_out()
    assert names[0] == "sepal length (cm) <= 5.10"
    assert "petal width (cm) > 0.300" in set(names)


def test_quantile_thresholds_drop_duplicates_and_the_maximum():
    cuts = quantile_thresholds(np.array([0, 0, 0, 0, 1, 2, 2.0]), 10)
    assert list(cuts) == sorted(set(cuts)) and cuts.max() < 2.0


def test_categoricals_two_valued_and_missing_columns():
    X = pd.DataFrame({"colour": ["red", "blue", "green", "red"],
                      "smoker": [0, 1, 1, 0],
                      "age": [30.0, np.nan, 45.0, 60.0]})
    fb = FeatureBinarizer(n_thresholds=2).fit(X)
    names = list(fb.get_feature_names_out())
    assert "colour == red" in names and "colour != blue" in names
    assert names.count("smoker == 1") == 1 and "smoker == 0" in names
    assert "age is missing" in names
    A = pd.DataFrame(fb.transform(X), columns=names)
    assert A["age is missing"].tolist() == [0, 1, 0, 0]
    # a missing age satisfies no threshold term in either direction
    assert A.filter(like="age <=").iloc[1].sum() == 0 and A.filter(like="age >").iloc[1].sum() == 0


def test_missing_error_mode_refuses_nan():
    X = pd.DataFrame({"a": [1.0, np.nan, 3.0]})
    with pytest.raises(ValueError, match="missing values"):
        FeatureBinarizer(missing="error").fit(X)


def test_transform_needs_the_columns_seen_in_fit():
    fb = FeatureBinarizer().fit(pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [1, 2, 3]}))
    with pytest.raises(ValueError, match="lacks columns"):
        fb.transform(pd.DataFrame({"a": [1.0]}))
