"""What users of rule learners ask for: explanations, probabilities, SQL/pandas/JSON exports."""

from __future__ import annotations

import sqlite3

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer

import rulelab
from rulelab import BoostedLPRules, OneRule, SetCoverRules
from rulelab._registry import DATASETS
from rulelab.rules import CNF, DNF, Clause, Term, rule_from_dict
from tests.conftest import data_dir

TABULAR = sorted(name for name, info in DATASETS.items() if info.columns != ("text",))


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    return X, 1 - y  # 1 = malignant


def test_explain_names_the_clauses_that_fired(cancer):
    X, y = cancer
    model = SetCoverRules(max_rules=3).fit(X, y)
    table = model.explain(X)
    assert list(table.columns) == ["prediction", "reason"]
    hits = np.column_stack([c.evaluate(X) for c in model.rules_.clauses])
    for row, row_hits in zip(table.itertuples(), hits):
        fired = [str(c) for c, hit in zip(model.rules_.clauses, row_hits) if hit]
        assert row.prediction == (1 if fired else 0)
        assert row.reason == (
            "fired: " + " | ".join(f"({f})" for f in fired) if fired else "no clause fired"
        )


def test_explain_of_a_cnf_names_the_failed_clause():
    X = pd.DataFrame({"a": [0.0, 2.0, 2.0], "b": [5.0, 0.0, 5.0]})
    rule = CNF([Clause((Term("a", ">", 1.0),), "or"), Clause((Term("b", ">", 1.0),), "or")])
    assert rule.explain(X) == ["failed: (a > 1)", "failed: (b > 1)", "all clauses hold"]


def test_one_rule_probability_is_the_laplace_training_precision(cancer):
    X, y = cancer
    model = OneRule().fit(X, y)
    fired = model.rules_.evaluate(X)
    expected_in = (y[fired].sum() + 1) / (fired.sum() + 2)
    expected_out = (y[~fired].sum() + 1) / ((~fired).sum() + 2)
    proba = model.predict_proba(X)
    assert np.allclose(proba.sum(axis=1), 1)
    assert np.allclose(proba[fired, 1], expected_in) and np.allclose(proba[~fired, 1], expected_out)


def test_boosted_probability_is_the_logistic_link_of_the_margin(cancer):
    X, y = cancer
    model = BoostedLPRules().fit(X, y)
    margin = model.rules_.score(X)
    assert np.allclose(model.predict_proba(X)[:, 1], 1 / (1 + np.exp(-2 * margin)))
    assert np.array_equal(model.predict(X), (margin > 0).astype(int))


def _sql_predictions(rules, X: pd.DataFrame) -> np.ndarray:
    with sqlite3.connect(":memory:") as con:
        X.assign(row_id=np.arange(len(X))).to_sql("data", con, index=False)
        hits = pd.read_sql(f"SELECT row_id FROM data WHERE {rules.to_sql('data')}", con)
    out = np.zeros(len(X), dtype=int)
    out[hits["row_id"].to_numpy(dtype=int)] = 1
    return out


def _query_predictions(rules, X: pd.DataFrame) -> np.ndarray:
    out = np.zeros(len(X), dtype=int)
    out[X.reset_index(drop=True).query(rules.to_pandas_query(), engine="python").index] = 1
    return out


@pytest.mark.skipif(data_dir() is None, reason="benchmark data folder not beside the project")
@pytest.mark.data
@pytest.mark.parametrize("name", TABULAR)
def test_sql_query_and_json_exports_predict_like_the_model(name):
    X, y = rulelab.load_dataset(name)
    if len(X) > 600:  # the exports are what is tested, not learning: a slice keeps it fast
        keep = np.sort(np.random.default_rng(0).choice(len(X), 600, replace=False))
        X, y = X.iloc[keep].reset_index(drop=True), y.iloc[keep].reset_index(drop=True)
    model = SetCoverRules(max_rules=3, n_thresholds=3).fit(X, y)
    predicted = model.predict(X).astype(int)
    assert np.array_equal(_sql_predictions(model.rules_, X), predicted)
    assert np.array_equal(_query_predictions(model.rules_, X), predicted)
    again = rule_from_dict(model.rules_.to_json())
    assert np.array_equal(again.evaluate(X).astype(int), predicted)


def test_weighted_rule_set_exports_agree_with_its_vote(cancer):
    X, y = cancer
    model = BoostedLPRules().fit(X, y)
    predicted = model.predict(X).astype(int)
    assert np.array_equal(_sql_predictions(model.rules_, X), predicted)
    assert np.array_equal(_query_predictions(model.rules_, X), predicted)
    assert np.array_equal(rule_from_dict(model.rules_.to_json()).evaluate(X).astype(int), predicted)


def test_sql_treats_missing_values_like_the_rule():
    X = pd.DataFrame({"age": [30.0, np.nan, 70.0], "colour": ["red", None, "blue"]})
    rule = DNF(
        [
            Clause((Term("age", "<=", 50.0),)),
            Clause((Term("colour", "!=", "red"),)),
            Clause((Term("age", "is missing"), Term("colour", "is missing"))),
        ]
    )
    assert _sql_predictions(rule, X).tolist() == rule.evaluate(X).astype(int).tolist()
    assert rule.to_sql() == (
        '("age" <= 50.0) OR ("colour" <> \'red\') OR ("age" IS NULL AND "colour" IS NULL)'
    )


def test_time_limit_stops_the_exact_solve_cleanly(cancer):
    X, y = cancer
    model = OneRule(exact=True, lp_time_limit=0.01, complexity=1 / 5).fit(X, y)
    assert model.lp_.status in ("optimal", "time_limit")
    assert model.predict(X).shape == (len(X),)
