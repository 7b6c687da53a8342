"""OneRule (1Rule): scikit-learn conventions, the iris rule, clear errors."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.multiclass import OneVsRestClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer
from sklearn.utils.estimator_checks import check_estimator

from rulelab import OneRule
from tests.conftest import planted_design


def iris_versicolor():
    iris = load_iris(as_frame=True)
    return iris.data, (iris.target == 1).astype(int)


def test_passes_scikit_learn_estimator_checks():
    # The estimator declares itself binary-only through its tags. scikit-learn itself skips
    # one check, check_array_api_input, unless SCIPY_ARRAY_API is set: it concerns array-API
    # inputs (e.g. torch tensors), which rule learners do not take.
    results = check_estimator(OneRule(), on_fail=None)
    failed = [r["check_name"] for r in results if r["status"] == "failed"]
    skipped = {r["check_name"] for r in results if r["status"] == "skipped"}
    assert failed == []
    assert skipped <= {"check_array_api_input"}


def test_iris_versicolor_rule_prints_exactly():
    X, y = iris_versicolor()
    model = OneRule().fit(X, y)
    assert str(model) == (
        "IF sepal width (cm) <= 3.70 AND petal length (cm) <= 4.78 AND "
        "petal length (cm) > 1.60 AND petal width (cm) > 0.200\nTHEN 1"
    )
    assert model.score(X, y) > 0.94


def test_predictions_follow_the_printed_rule():
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    model = OneRule().fit(X, y)
    by_query = np.zeros(len(X), dtype=int)
    by_query[X.query(model.rules_.to_query(), engine="python").index] = 1
    assert np.array_equal(model.predict(X), by_query)


def test_or_form_learns_a_disjunction():
    A, truth = planted_design(500, 30, 3, seed=1)
    X = pd.DataFrame(A, columns=[f"f{j}" for j in range(30)])
    y = A[:, truth].any(axis=1).astype(int)
    model = OneRule(form="or").fit(X, y)
    assert str(model.rule_) == " OR ".join(f"f{j} == 1" for j in truth)
    assert model.score(X, y) == 1.0


def test_binary_matrix_is_used_as_is_and_numpy_input_works():
    A, truth = planted_design(400, 20, 2, seed=3)
    y = A[:, truth].all(axis=1)
    model = OneRule().fit(A, y)
    assert model.binarizer_ is None
    assert [t.feature for t in model.rule_.terms] == [f"x{j}" for j in truth]
    assert model.predict(A).tolist() == y.tolist()


def test_string_labels_keep_their_classes():
    X, y = iris_versicolor()
    labels = np.where(y == 1, "versicolor", "other")
    model = OneRule().fit(X, labels)
    assert set(model.predict(X)) <= {"versicolor", "other"}
    assert str(model).endswith("THEN versicolor")


def test_works_in_pipeline_cross_val_score_and_grid_search():
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    pipe = make_pipeline(FunctionTransformer(lambda f: f.iloc[:, :10]), OneRule())
    assert cross_val_score(pipe, X, y, cv=3).mean() > 0.8
    grid = GridSearchCV(OneRule(), {"complexity": [1, 0.001], "n_thresholds": [5, 10]}, cv=3).fit(
        X, y
    )
    assert grid.best_score_ > 0.85


def test_multiclass_through_one_vs_rest():
    iris = load_iris(as_frame=True)
    model = OneVsRestClassifier(OneRule()).fit(iris.data, iris.target)
    assert model.score(iris.data, iris.target) > 0.8


def test_exact_milp_is_never_worse_than_rounding_on_training_objective():
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    X = X.iloc[:, :6]
    lp = OneRule(complexity=1 / 5).fit(X, y)
    milp = OneRule(complexity=1 / 5, exact=True).fit(X, y)
    assert milp.lp_.objective <= lp.lp_.objective + 1e-9


@pytest.mark.parametrize(
    "X, y, message",
    [
        (np.ones((4, 2)), [0, 0, 0, 0], "one class"),
        (np.ones((4, 2)), [0, 1, 2, 1], "3 classes"),
        (np.ones((4, 2)), [0, 1, 0], "must match"),
        (np.ones((4, 2)), [0, 1, np.nan, 1], "missing values"),
        (pd.DataFrame(), [], "no rows"),
        (np.ones(4), [0, 1, 0, 1], "Reshape your data"),
    ],
)
def test_bad_input_gets_a_clear_error(X, y, message):
    with pytest.raises(ValueError, match=message):
        OneRule().fit(X, y)


def test_predict_refuses_a_different_number_of_features():
    X, y = iris_versicolor()
    model = OneRule().fit(X.to_numpy(), y)
    with pytest.raises(ValueError, match="4"):
        model.predict(X.to_numpy()[:, :3])


def test_bad_parameters_are_named():
    X, y = iris_versicolor()
    with pytest.raises(ValueError, match="form"):
        OneRule(form="xor").fit(X, y)
    with pytest.raises(ValueError, match="complexity"):
        OneRule(complexity=-1).fit(X, y)
