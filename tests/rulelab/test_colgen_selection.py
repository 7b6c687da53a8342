"""ColumnGenerationRulesCV: the search of column generation's form and complexity."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.datasets import load_iris
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import check_estimator

from rulelab import ColumnGenerationRules, ColumnGenerationRulesCV, FeatureBinarizer

# a short path and two folds: each test fits in seconds
QUICK = dict(complexity_path=(0.02, 0.005), cv=2, random_state=0)


def planted(n_samples: int, seed: int, noise: float = 0.0):
    """Integer columns and the rule (a >= 5 AND b < 3) OR c >= 6, cut points of the default
    binariser; ``noise`` flips that share of the labels."""
    r = np.random.default_rng(seed)
    X = pd.DataFrame({name: r.integers(0, 8, n_samples) for name in "abcd"})
    y = (((X.a >= 5) & (X.b < 3)) | (X.c >= 6)).to_numpy(copy=True)
    y ^= r.random(n_samples) < noise
    return X, pd.Series(y.astype(int), name="t")


@pytest.mark.parametrize("selection", ["min", "one_se"])
def test_the_chosen_complexity_is_the_one_its_records_say_is_best(selection):
    X, y = planted(600, seed=0, noise=0.1)
    model = ColumnGenerationRulesCV(form="dnf", selection=selection, **QUICK).fit(X, y)
    table = model.cv_results_
    chosen = table.loc[table["chosen"]]
    assert len(chosen) == 1 and chosen["complexity"].iloc[0] == model.chosen_complexity_
    best = table.loc[table["error"].idxmin()]
    slack = best["error_se"] if selection == "one_se" else 0.0
    # the largest cost (simplest rule sets) within the slack of the lowest error
    within = table[table["error"] <= best["error"] + slack + 1e-12]
    assert model.chosen_complexity_ == within["complexity"].max()
    assert model.best_params_ == {"form": "dnf", "complexity": model.chosen_complexity_}


def test_the_refit_is_the_fixed_settings_fit_at_the_chosen_complexity():
    X, y = planted(600, seed=1)
    search = ColumnGenerationRulesCV(**QUICK).fit(X, y)
    fixed = ColumnGenerationRules(**search.best_params_).fit(X, y)
    # the refit starts from the folds' clauses, the fixed fit from none: both prove their
    # rule set optimal, so they reach the same objective and, here, the same rule
    assert search.proved_optimal_ and fixed.proved_optimal_
    assert search.objective_ == pytest.approx(fixed.objective_)
    assert str(search) == str(fixed)
    assert np.array_equal(search.predict(X), fixed.predict(X))


def test_the_estimators_auto_defaults_run_this_search():
    X, y = planted(400, seed=2, noise=0.05)
    search = ColumnGenerationRulesCV(**QUICK).fit(X, y)
    auto = ColumnGenerationRules(**QUICK).fit(X, y)  # form and complexity "auto"
    assert str(search) == str(auto)
    pd.testing.assert_frame_equal(search.cv_results_, auto.cv_results_)
    assert (search.form_, search.chosen_complexity_) == (auto.form_, auto.chosen_complexity_)


def test_a_single_candidate_is_fitted_without_a_search():
    X, y = planted(300, seed=3)
    model = ColumnGenerationRulesCV(form="cnf", complexity_path=(0.01,)).fit(X, y)
    fixed = ColumnGenerationRules(form="cnf", complexity=0.01).fit(X, y)
    assert model.cv_results_ is None and model.tuning_seconds_ >= 0
    assert str(model) == str(fixed) and model.objective_ == fixed.objective_


def test_clone_pipeline_and_grid_search_treat_it_as_an_estimator():
    X, y = planted(300, seed=4, noise=0.05)
    model = ColumnGenerationRulesCV(form="dnf", max_terms=3, **QUICK)
    copy = clone(model)
    assert copy.get_params() == model.get_params() and "complexity" not in copy.get_params()
    pipe = make_pipeline(FeatureBinarizer(), ColumnGenerationRulesCV(form="dnf", **QUICK))
    assert cross_val_score(pipe, X, y, cv=2).min() > 0.9
    grid = GridSearchCV(model, {"max_terms": [1, 2]}, cv=2).fit(X, y)
    assert grid.best_params_ == {"max_terms": 2}  # one term cannot state (a AND b)
    assert grid.best_estimator_.chosen_complexity_ in QUICK["complexity_path"]


def test_more_than_two_classes_learn_what_the_estimators_defaults_learn():
    X, y = load_iris(return_X_y=True, as_frame=True)
    search = ColumnGenerationRulesCV(random_state=0).fit(X, y)
    auto = ColumnGenerationRules(random_state=0).fit(X, y)
    assert str(search) == str(auto)
    drop = ["tuning_seconds"]
    pd.testing.assert_frame_equal(
        search.class_fits_.drop(columns=drop), auto.class_fits_.drop(columns=drop)
    )
    assert not hasattr(search, "best_params_")  # each class has its own, in class_fits_


def test_the_search_parameters_are_checked_before_fit():
    X, y = planted(100, seed=5)
    with pytest.raises(ValueError, match="selection"):
        ColumnGenerationRulesCV(selection="best").fit(X, y)
    with pytest.raises(TypeError):
        ColumnGenerationRulesCV(complexity=0.01)  # the fixed cost is ColumnGenerationRules'


def test_passes_sklearn_check_estimator_with_a_search():
    # the contract tests (tests/rulelab/test_contract.py) run it on one candidate; here it searches
    model = ColumnGenerationRulesCV(complexity_path=(0.02, 0.005))
    results = check_estimator(model, on_fail=None)
    assert [r["check_name"] for r in results if r["status"] == "failed"] == []
