"""Rules print in words, evaluate like their query strings, and round-trip through JSON."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from rulelab.rules import CNF, DNF, Clause, Term, format_value, rule_from_dict

FRAME = pd.DataFrame({
    "petal length (cm)": [1.4, 4.5, 5.1, 6.0, np.nan],
    "petal width (cm)": [0.2, 1.5, 1.9, 2.1, 1.0],
    "colour": ["red", "blue", "red", "green", None],
})
IRIS_RULE = Clause((Term("petal length (cm)", "<=", 5.35), Term("petal width (cm)", "<=", 1.70),
                    Term("petal width (cm)", ">", 0.875)), "and")


def test_clause_prints_in_plain_words():
    assert str(IRIS_RULE) == ("petal length (cm) <= 5.35 AND petal width (cm) <= 1.70 "
                              "AND petal width (cm) > 0.875")


@pytest.mark.parametrize("value, text", [(1.7, "1.70"), (5.35, "5.35"), (0.875, "0.875"),
                                         (0.00784, "0.00784"), (12500.0, "12500"), (3, "3"),
                                         (-4.8130, "-4.81"), ("Male", "Male")])
def test_values_print_readably(value, text):
    assert format_value(value) == text


def test_dnf_prints_as_if_then_with_parenthesised_clauses():
    rule = DNF([Clause((Term("colour", "==", "red"),)), IRIS_RULE], then="versicolor")
    assert str(rule) == (
        "IF colour == red\n"
        "   OR (petal length (cm) <= 5.35 AND petal width (cm) <= 1.70 AND petal width (cm) > 0.875)\n"
        "THEN versicolor")
    assert rule.n_rules == 2 and rule.n_terms == 4


def test_missing_values_make_every_comparison_false():
    t = Term("petal length (cm)", "<=", 100.0)
    assert t.evaluate(FRAME).tolist() == [True, True, True, True, False]
    assert t.negate().evaluate(FRAME).tolist() == [False] * 5
    assert Term("colour", "!=", "red").evaluate(FRAME).tolist() == [False, True, False, True, False]
    assert Term("petal length (cm)", "is missing").evaluate(FRAME).tolist() == [False] * 4 + [True]


@pytest.mark.parametrize("rule", [
    IRIS_RULE,
    DNF([IRIS_RULE, Clause((Term("colour", "==", "green"),))]),
    CNF([Clause((Term("colour", "==", "red"), Term("petal width (cm)", ">", 2.0)), "or"),
         Clause((Term("petal length (cm)", "is not missing"),), "or")]),
    DNF([]), CNF([]), Clause((), "or"), Clause((), "and"),
])
def test_query_string_selects_exactly_the_rows_the_rule_fires_on(rule):
    selected = FRAME.query(rule.to_query(), engine="python").index
    assert list(selected) == list(np.flatnonzero(rule.evaluate(FRAME)))


@pytest.mark.parametrize("rule", [IRIS_RULE, DNF([IRIS_RULE], then="1"),
                                  CNF([Clause((Term("colour", "!=", "red"),), "or")])])
def test_json_round_trip_gives_the_same_rule(rule):
    again = rule_from_dict(rule.to_json())
    assert again == rule
    assert str(again) == str(rule)


def test_a_dnf_refuses_or_clauses():
    with pytest.raises(ValueError, match="AND-clauses"):
        DNF([Clause((Term("a", "<=", 1.0),), "or")])


def test_unknown_feature_is_named_in_the_error():
    with pytest.raises(ValueError, match="'sepal'"):
        Term("sepal", "<=", 1.0).evaluate(FRAME)
