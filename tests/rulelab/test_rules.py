"""Rules print in words, evaluate like their query strings, round-trip through JSON, and
simplify without changing a prediction."""

from __future__ import annotations

import json
import math
import re
import sqlite3

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulelab.rules import (
    CNF,
    DNF,
    Clause,
    DecisionList,
    Term,
    WeightedRuleSet,
    WeightedVote,
    evaluate_terms,
    format_value,
    rule_from_dict,
)

FRAME = pd.DataFrame(
    {
        "petal length (cm)": [1.4, 4.5, 5.1, 6.0, np.nan],
        "petal width (cm)": [0.2, 1.5, 1.9, 2.1, 1.0],
        "colour": ["red", "blue", "red", "green", None],
    }
)
IRIS_RULE = Clause(
    (
        Term("petal length (cm)", "<=", 5.35),
        Term("petal width (cm)", "<=", 1.70),
        Term("petal width (cm)", ">", 0.875),
    ),
    "and",
)


def test_clause_prints_in_plain_words():
    assert str(IRIS_RULE) == (
        "petal length (cm) <= 5.35 AND petal width (cm) <= 1.70 AND petal width (cm) > 0.875"
    )


@pytest.mark.parametrize(
    "value, text",
    [
        (1.7, "1.70"),
        (5.35, "5.35"),
        (0.875, "0.875"),
        (0.00784, "0.00784"),
        (12500.0, "12500"),
        (3, "3"),
        (-4.8130, "-4.81"),
        ("Male", "Male"),
    ],
)
def test_values_print_readably(value, text):
    assert format_value(value) == text


def test_dnf_prints_as_if_then_with_parenthesised_clauses():
    rule = DNF([Clause((Term("colour", "==", "red"),)), IRIS_RULE], then="versicolor")
    assert str(rule) == (
        "IF colour == red\n"
        "   OR (petal length (cm) <= 5.35 AND petal width (cm) <= 1.70 AND petal width (cm) > 0.875)\n"
        "THEN versicolor"
    )
    assert rule.n_rules == 2 and rule.n_terms == 4


def test_missing_values_make_every_comparison_false():
    t = Term("petal length (cm)", "<=", 100.0)
    assert t.evaluate(FRAME).tolist() == [True, True, True, True, False]
    assert t.negate().evaluate(FRAME).tolist() == [False] * 5
    assert Term("colour", "!=", "red").evaluate(FRAME).tolist() == [False, True, False, True, False]
    assert Term("petal length (cm)", "is missing").evaluate(FRAME).tolist() == [False] * 4 + [True]


@pytest.mark.parametrize(
    "rule",
    [
        IRIS_RULE,
        DNF([IRIS_RULE, Clause((Term("colour", "==", "green"),))]),
        CNF(
            [
                Clause((Term("colour", "==", "red"), Term("petal width (cm)", ">", 2.0)), "or"),
                Clause((Term("petal length (cm)", "is not missing"),), "or"),
            ]
        ),
        DNF([]),
        CNF([]),
        Clause((), "or"),
        Clause((), "and"),
    ],
)
def test_query_string_selects_exactly_the_rows_the_rule_fires_on(rule):
    selected = FRAME.query(rule.to_query(), engine="python").index
    assert list(selected) == list(np.flatnonzero(rule.evaluate(FRAME)))


@pytest.mark.parametrize(
    "rule",
    [IRIS_RULE, DNF([IRIS_RULE], then="1"), CNF([Clause((Term("colour", "!=", "red"),), "or")])],
)
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


# ---- simplification: nested thresholds merged, semantics kept -------------------------------
def test_and_clause_keeps_the_tightest_bound_of_each_feature_and_direction():
    clause = Clause(
        (
            Term("glucose", ">", 94.0),
            Term("bmi", "<=", 40.0),
            Term("glucose", ">", 107.0),
            Term("glucose", ">", 147.55),
            Term("bmi", "<=", 35.5),
            Term("bmi", ">", 20.0),
            Term("bmi", "<=", 35.5),
        )
    )
    assert str(clause.simplified()) == "glucose > 147.55 AND bmi <= 35.50 AND bmi > 20"


def test_or_clause_keeps_the_loosest_bound_and_drops_repeated_terms():
    clause = Clause(
        (
            Term("x", ">", 2.0),
            Term("c", "==", "red"),
            Term("x", ">", 1.0),
            Term("x", "<=", 0.5),
            Term("x", "<=", 0.25),
            Term("c", "==", "red"),
        ),
        "or",
    )
    assert str(clause.simplified()) == "x > 1 OR c == red OR x <= 0.500"


def test_rule_sets_simplify_every_clause_and_keep_weights_and_conclusion():
    nested = Clause((Term("x", ">", 1.0), Term("x", ">", 3.0)))
    assert str(DNF([nested, Clause((Term("y", "<=", 2.0),))], then="sick").simplified()) == (
        "IF x > 3\n   OR y <= 2\nTHEN sick"
    )
    assert str(CNF([Clause((Term("x", ">", 1.0), Term("x", ">", 3.0)), "or")]).simplified()) == (
        "IF x > 1\nTHEN 1"
    )
    weighted = WeightedRuleSet([nested, Clause(())], [0.5, -0.25], then="y").simplified()
    assert str(weighted) == "IF score > 0 THEN y, where score =\n  +0.500 * x > 3\n  -0.250 * TRUE"


FEATURES = ["a", "b", "c"]
terms = st.builds(
    Term,
    st.sampled_from(FEATURES),
    st.sampled_from(["<=", ">", "<=", ">", "==", "!=", "is missing", "is not missing"]),
    st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0, -1.0, 0.3, float("nan")]),
)
clauses = st.builds(Clause, st.lists(terms, max_size=8), st.sampled_from(["and", "or"]))


@st.composite
def rules(draw):
    kind = draw(st.sampled_from(["clause", "dnf", "cnf", "weighted"]))
    if kind == "clause":
        return draw(clauses)
    op = "or" if kind == "cnf" else "and"
    inner = st.builds(Clause, st.lists(terms, max_size=6), st.just(op))
    body = draw(st.lists(inner, max_size=4))
    if kind == "weighted":
        weights = draw(st.lists(st.floats(-2, 2), min_size=len(body), max_size=len(body)))
        return WeightedRuleSet(body, weights)
    return (DNF if kind == "dnf" else CNF)(body)


def _random_frame(seed: int) -> pd.DataFrame:
    r = np.random.default_rng(seed)
    # Values on the threshold grid (ties with a threshold) and about 15% missing values.
    frame = pd.DataFrame(
        r.choice([-1.0, 0.0, 0.25, 0.3, 0.5, 0.75, 1.0, 2.0], size=(200, 3)), columns=FEATURES
    )
    return frame.mask(r.random(frame.shape) < 0.15)


@settings(max_examples=300, deadline=None)
@given(rules(), st.integers(0, 2**32 - 1))
def test_simplified_rule_fires_on_exactly_the_same_rows(rule, seed):
    X = _random_frame(seed)
    simple = rule.simplified()
    assert np.array_equal(simple.evaluate(X), rule.evaluate(X))
    assert simple.n_terms <= rule.n_terms
    assert simple.simplified() == simple  # nothing left to merge
    for clause in getattr(simple, "clauses", (simple,)):
        bounds = [
            (t.feature, t.op) for t in clause.terms if t.op in ("<=", ">") and not np.isnan(t.value)
        ]
        assert len(bounds) == len(set(bounds))  # one bound per direction


# ---- interval terms, awkward names, dates, decision lists --------------------------------
AWKWARD = pd.DataFrame(
    {
        "a`b": [0.5, 1.5, 2.5, np.nan, np.inf, -np.inf],
        'c"d': ["x", "y", "z'", "x", None, "y"],
        "e'f g": [1, 2, 3, 4, 5, 6],
        "when": pd.to_datetime(
            ["2020-01-01", "2021-01-01", "2022-06-30", None, "2023-01-01", "2021-01-01"]
        ),
    }
)
AWKWARD_TERMS = [
    Term("a`b", "in", (1, 2)),
    Term("a`b", "in", (None, 2)),
    Term("a`b", "in", (1.5, math.inf)),
    Term("a`b", "not in", (1, 2)),
    Term('c"d', "==", "z'"),
    Term('c"d', "!=", "x"),
    Term("e'f g", ">", 2),
    Term("when", "<=", pd.Timestamp("2021-01-01")),
    Term("when", "==", pd.Timestamp("2021-01-01")),
    Term("when", "!=", pd.Timestamp("2021-01-01")),
    Term("when", ">", pd.Timestamp("2021-06-01")),
]


def _sqlite_rows(frame: pd.DataFrame, where: str) -> list[int]:
    """Row positions a SQL WHERE expression selects, the frame loaded into SQLite (dates as
    ISO-8601 text, as SQLite keeps them; infinities as SQLite's own)."""
    con = sqlite3.connect(":memory:")
    stored = frame.assign(when=frame["when"].map(lambda t: None if pd.isna(t) else t.isoformat()))
    stored.to_sql("t", con, index=False)
    return [r[0] - 1 for r in con.execute(f"SELECT rowid FROM t WHERE {where} ORDER BY rowid")]


@pytest.mark.parametrize("term", AWKWARD_TERMS, ids=str)
def test_every_export_selects_the_rows_the_term_holds_on(term):
    holds = np.flatnonzero(term.evaluate(AWKWARD))
    assert list(AWKWARD.query(term.to_query(), engine="python").index) == list(holds)
    # SQLite's own dialect: standard SQL's date literal is refused there (see below)
    assert _sqlite_rows(AWKWARD, term.to_sql(dialect="sqlite")) == list(holds)
    again = rule_from_dict(Clause((term,)).to_json()).terms[0]
    assert again == term and str(again) == str(term)


def test_interval_terms_print_their_open_sides_as_comparisons():
    assert [str(t) for t in AWKWARD_TERMS[:4]] == [
        "a`b in [1, 2)",
        "a`b < 2",
        "a`b >= 1.50",
        "a`b not in [1, 2)",
    ]
    # an infinite value lies in the open-ended interval on its side, NaN in none
    assert Term("x", "in", (1, None)).evaluate(AWKWARD.rename(columns={"a`b": "x"})).tolist() == [
        False,
        True,
        True,
        False,
        True,
        False,
    ]
    with pytest.raises(ValueError, match="low < high"):
        Term("x", "in", (2, 1))
    with pytest.raises(ValueError, match=r"value \(low, high\)"):
        Term("x", "in", 3)


def test_decision_list_reads_first_rule_wins_and_exports_alike():
    rules = DecisionList(
        [
            Clause((Term("a`b", "in", (1, 3)),)),
            Clause((Term('c"d', "==", "x"),)),
            Clause((Term("e'f g", ">", 5),)),
        ],
        ["pos", "neg", "pos"],
        otherwise="LogisticRegression",
    )
    assert str(rules) == (
        'IF a`b in [1, 3) THEN pos\nELSE IF c"d == x THEN neg\n'
        "ELSE IF e'f g > 5 THEN pos\nELSE LogisticRegression"
    )
    assert rules.apply(AWKWARD).tolist() == [1, 0, 0, 1, -1, 2]
    assert rules.evaluate(AWKWARD).tolist() == ["neg", "pos", "pos", "neg", None, "pos"]
    assert rules.n_rules == 3 and rules.n_terms == 3
    for label in (None, "pos", "neg"):
        wanted = [
            i
            for i, v in enumerate(rules.evaluate(AWKWARD))
            if v is not None and (label is None or v == label)
        ]
        assert list(AWKWARD.query(rules.to_query(label), engine="python").index) == wanted
    con = sqlite3.connect(":memory:")
    AWKWARD.drop(columns="when").to_sql("t", con, index=False)
    decided = [r[0] for r in con.execute(f"SELECT {rules.to_sql()} FROM t ORDER BY rowid")]
    assert decided == rules.evaluate(AWKWARD).tolist()
    assert rule_from_dict(rules.to_json()) == rules
    assert rules.explain(AWKWARD)[4] == "no rule fires: LogisticRegression decides"


class _Prior:
    """A fallback model that gives every row the same probabilities (link "probability")."""

    link = "probability"
    classes_ = np.array(["neg", "pos"])

    def predict_proba(self, X):
        return np.tile([0.3, 0.7], (len(X), 1))


class _Sign:
    """A fallback model scoring ``x - 2`` (link "score")."""

    link = "score"
    classes_ = np.array(["neg", "pos"])

    def decision_function(self, X):
        return X["x"].to_numpy() - 2.0


def test_a_list_with_a_fallback_model_decides_every_row_by_the_link_it_declares():
    frame = pd.DataFrame({"x": [0.0, 1.0, 3.0, 5.0], "r": [1, 0, 0, 0]})
    clauses, labels = [Clause((Term("r", "==", 1),))], ["neg"]
    classes = np.array(["neg", "pos"])
    soft = DecisionList(clauses, labels, otherwise="the prior", fallback=_Prior())
    assert soft.probability(frame, classes).tolist() == [[1, 0]] + [[0.3, 0.7]] * 3
    assert soft.class_index(frame, classes).tolist() == [0, 1, 1, 1]
    assert soft.score(frame, classes)[0] == -np.inf
    assert np.allclose(soft.score(frame, classes)[1:], np.log(0.7 / 0.3))
    hard = DecisionList(clauses, labels, otherwise="x > 2", fallback=_Sign())
    assert not hard.has_probability
    assert hard.score(frame, classes).tolist() == [-np.inf, -1.0, 1.0, 3.0]
    assert hard.decide(frame).tolist() == ["neg", "neg", "pos", "pos"]
    assert hard.evaluate(frame).tolist() == ["neg", None, None, None]  # the rules' part
    again = rule_from_dict(hard.to_json())  # the rules, the model named by otherwise
    assert again == hard and again.otherwise == "x > 2" and not again.has_fallback_model
    with pytest.raises(ValueError, match="neither a default nor its fallback model"):
        again.decide(frame)
    with pytest.raises(ValueError, match="declares its link"):
        DecisionList(clauses, labels, fallback=object())


def test_a_vote_of_lists_scores_each_member_plus_or_minus_its_weight():
    frame = pd.DataFrame({"x": [0.0, 1.0, 3.0, 5.0], "r": [1, 0, 0, 0]})
    member = DecisionList([Clause((Term("r", "==", 1),))], ["pos"], fallback=_Sign())
    vote = WeightedVote([member, member], [0.5, -0.25], positive="pos")
    assert vote.score(frame).tolist() == [0.25, -0.25, 0.25, 0.25]
    assert vote.evaluate(frame).tolist() == [True, False, True, True]
    assert np.allclose(vote.probability(frame), 1 / (1 + np.exp(-2 * vote.score(frame))))
    assert vote.n_rules == 1 and vote.has_fallback_model
    assert vote.explain(frame)[1].startswith("score -0.250 = -0.500 (round 1: no rule fires")
    again = rule_from_dict(vote.to_json())
    assert again.members == vote.members and again.weights == vote.weights
    with pytest.raises(ValueError, match="no SQL form"):
        vote.to_sql()


@pytest.mark.parametrize("seed", range(5))
def test_terms_evaluated_together_hold_where_each_holds_alone(seed):
    # evaluate_terms converts each feature once for all its terms (the binariser's path);
    # in any order, no conversion made for one term may change another's answer
    terms = list(AWKWARD_TERMS) + [
        Term("a`b", "is missing"),
        Term("when", "is not missing"),
        Term("e'f g", "<=", 2.5),
        Term('c"d', "==", "x"),
    ]
    order = np.random.default_rng(seed).permutation(len(terms))
    together = evaluate_terms([terms[i] for i in order], AWKWARD)
    for i, fired in zip(order, together):
        assert fired.dtype == bool
        np.testing.assert_array_equal(fired, terms[i].evaluate(AWKWARD.copy()))


# ---- exports of awkward rules: the rows selected, or an error naming the problem ----------
EXTREME = pd.DataFrame(
    {
        "x": [-np.inf, -1.0, 0.0, 2.5, np.inf, np.nan],
        "s": ["a\\b'c", 'q"', "a\\b'c", "plain", None, "x`y"],
    }
)
NONFINITE_TERMS = [
    Term("x", op, v) for op in ("<=", ">", "==", "!=") for v in (math.inf, -math.inf, math.nan)
]


def _sqlite_select(frame: pd.DataFrame, where: str) -> list[int]:
    """Row positions the WHERE expression selects in SQLite (NaN stored as NULL, infinities
    as SQLite's own)."""
    con = sqlite3.connect(":memory:")
    frame.to_sql("t", con, index=False)
    return [r[0] - 1 for r in con.execute(f"SELECT rowid FROM t WHERE {where} ORDER BY rowid")]


@pytest.mark.parametrize("term", NONFINITE_TERMS, ids=str)
def test_nonfinite_thresholds_export_to_the_rows_they_hold_on_or_are_refused(term):
    holds = list(np.flatnonzero(term.evaluate(EXTREME)))
    assert _sqlite_select(EXTREME, term.to_sql(dialect="sqlite")) == holds
    assert list(EXTREME.query(term.to_query(), engine="python").index) == holds
    for dialect in ("standard", "mysql", "postgresql"):
        try:
            sql = term.to_sql(dialect=dialect)
        except ValueError as err:  # only where an infinity literal would be needed
            assert "inf" in str(term) and "cannot write" in str(err) and "dialect" in str(err)
            continue
        assert "inf" not in sql.replace("Infinity", "") and "nan" not in sql
    # strict JSON (no NaN/Infinity literals) that reads back to the same test
    text = Clause((term,)).to_json()
    again = rule_from_dict(json.loads(text, parse_constant=pytest.fail)).terms[0]
    np.testing.assert_array_equal(again.evaluate(EXTREME), term.evaluate(EXTREME))


def test_an_unknown_sql_dialect_is_refused_listing_the_known_ones():
    with pytest.raises(ValueError, match=r"unknown SQL dialect 'oracle'.*'mysql'"):
        DNF([IRIS_RULE]).to_sql(dialect="oracle")


def test_string_values_and_names_are_escaped_per_dialect():
    term = Term('s`"', "==", "a\\b'c")
    assert term.to_sql() == "\"s`\"\"\" = 'a\\b''c'"
    # MySQL compares text as UTF-8 bytes: its default collations ignore case and trailing
    # blanks (test_sql_servers runs it on a server)
    assert term.to_sql(dialect="mysql") == (
        "CAST(CONVERT(`s``\"` USING utf8mb4) AS BINARY) = CAST(_utf8mb4'a\\\\b''c' AS BINARY)"
    )
    # SQLite reads the standard literal back as the very string
    frame = EXTREME.rename(columns={"s": 's`"'})
    rule = Clause((term,))
    assert _sqlite_select(frame, rule.to_sql(dialect="sqlite")) == list(
        np.flatnonzero(rule.evaluate(frame))
    )
    with pytest.raises(ValueError, match="NUL"):
        Term("s", "==", "a\x00").to_sql()


def test_every_rule_type_exports_to_sqlite_selecting_its_rows():
    a = Clause((Term("x", ">", -math.inf), Term("s", "!=", "plain")))
    b = Clause((Term("x", "<=", 0.0),))
    for rule in (
        DNF([a, b]),
        CNF([Clause(a.terms, "or"), Clause(b.terms, "or")]),
        WeightedRuleSet([a, b, Clause(())], [1.0, -0.5, 0.25]),
    ):
        assert _sqlite_select(EXTREME, rule.to_sql(dialect="sqlite")) == list(
            np.flatnonzero(rule.evaluate(EXTREME))
        )
    with pytest.raises(ValueError, match="cannot write"):
        DNF([a]).to_sql()  # -inf has no standard literal
    bad = WeightedRuleSet([a], [math.nan])
    with pytest.raises(ValueError, match="non-finite weights"):
        bad.to_sql(dialect="sqlite")
    with pytest.raises(ValueError, match="non-finite weights"):
        bad.to_query()
    assert math.isnan(rule_from_dict(bad.to_json()).weights[0])


ODD_NAMES = [
    "index",
    "a b",
    "a`b",
    "and",
    "1x",
    "é",
    "x#y",
    "x\\y",
    "True",
    "x.y",
    "x'y",
    'x"y',
    "@x",
    "ilevel_0",
    "nan",
    "",
]


def test_query_strings_select_the_rows_the_rule_holds_on_for_odd_column_names():
    r = np.random.default_rng(0)
    frame = pd.DataFrame(
        r.choice([0.0, 1.0, 2.0, np.nan], size=(40, len(ODD_NAMES))), columns=ODD_NAMES
    )
    for name in ODD_NAMES:
        term = Term(name, "<=", 1.0)
        assert list(frame.query(term.to_query(), engine="python").index) == list(
            np.flatnonzero(term.evaluate(frame))
        ), name
    clauses = [
        Clause((Term(n, ">", 0.0), Term(o, "is not missing")))
        for n, o in zip(ODD_NAMES, ODD_NAMES[1:])
    ]
    for rule in (
        DNF(clauses),
        CNF([Clause(c.terms, "or") for c in clauses]),
        WeightedRuleSet(clauses + [Clause(())], [1.0] * len(clauses) + [-0.5]),
        DNF([]),
        CNF([]),
        DNF([Clause(())]),
        WeightedRuleSet(),
    ):
        assert list(frame.query(rule.to_query(), engine="python").index) == list(
            np.flatnonzero(rule.evaluate(frame))
        ), str(rule)


@pytest.mark.parametrize("name", ["x\ny", "t\tz", "a\rb", "inf"])
def test_a_name_pandas_cannot_read_back_is_refused_naming_it(name):
    with pytest.raises(ValueError, match=f"column name {re.escape(repr(name))} cannot be written"):
        DNF([Clause((Term(name, "<=", 1.0),))]).to_query()


@pytest.mark.parametrize(
    "dialect, written",
    [
        ("standard", '"flag" = (1 = 1)'),
        ("sqlite", '"flag" = 1'),
        ("postgresql", '"flag" = TRUE'),  # reserved words there: never a column
        ("mysql", "`flag` = TRUE"),
    ],
)
def test_a_boolean_is_written_so_that_no_column_named_true_can_take_its_place(dialect, written):
    term = Term("flag", "==", True)
    assert term.to_sql(dialect=dialect) == written
    frame = pd.DataFrame({"flag": [True, False, True, None], "true": [False, True, True, False]})
    if dialect in ("standard", "sqlite"):
        for t in (term, term.negate(), Term("flag", "==", False)):
            holds = list(np.flatnonzero(t.evaluate(frame)))
            assert _sqlite_select(frame, t.to_sql(dialect=dialect)) == holds


BIG = 2**53
INTEGERS = pd.DataFrame(
    {"n": pd.array([BIG - 1, BIG, BIG + 1, BIG + 2, None, 2**62 + 1], dtype="Int64")}
)


@pytest.mark.parametrize(
    "term",
    [
        Term("n", "<=", BIG),
        Term("n", ">", BIG),
        Term("n", "<=", float(BIG)),  # a float threshold: x <= t where x <= floor(t)
        Term("n", ">", BIG + 0.5),
        Term("n", "==", BIG + 1),
        Term("n", "in", (BIG + 1, BIG + 2)),
        Term("n", "not in", (BIG, 2**62 + 1)),
        Term("n", ">", 2**62),
    ],
    ids=str,
)
def test_terms_on_integers_beyond_2_53_compare_the_exact_integers(term):
    """float64 rounds 2**53 + 1 to 2**53: compared as floats, ``n <= 2**53`` held on it, and
    SQL, which compares integers exactly, selected other rows."""
    n = INTEGERS["n"].to_numpy(dtype=object)
    exact = {
        "<=": lambda v: v <= term.value,
        ">": lambda v: v > term.value,
        "==": lambda v: v == term.value,
        "in": lambda v: term.value[0] <= v < term.value[1],
        "not in": lambda v: not term.value[0] <= v < term.value[1],
    }[term.op]
    holds = [i for i, v in enumerate(n) if v is not pd.NA and exact(v)]
    assert list(np.flatnonzero(term.evaluate(INTEGERS))) == holds
    assert _sqlite_select(INTEGERS, term.to_sql(dialect="sqlite")) == holds
    assert rule_from_dict(Clause((term,)).to_json()).terms[0].evaluate(INTEGERS).tolist() == (
        term.evaluate(INTEGERS).tolist()
    )


DATES = pd.DataFrame(
    {
        "when": pd.to_datetime(
            ["2021-01-01", "2021-01-01 05:00", "2020-12-31 23:59:59.5", None, "2022-06-30"],
            format="ISO8601",
        )
    }
)
DATE_TERMS = [
    Term("when", op, pd.Timestamp(v))
    for op in ("==", "!=", "<=", ">")
    for v in ("2021-01-01", "2021-01-01 05:00", "2020-12-31 23:59:59.5")
]


@pytest.mark.parametrize("term", DATE_TERMS, ids=str)
def test_date_terms_in_sqlite_select_the_rows_they_hold_on_however_dates_are_stored(term):
    """SQLite keeps dates as text, ``2021-01-01 00:00:00`` as pandas writes them or ISO's
    ``2021-01-01T00:00:00``: compared as text, ``==`` selected nothing."""
    holds = list(np.flatnonzero(term.evaluate(DATES)))
    assert _sqlite_select(DATES, term.to_sql(dialect="sqlite")) == holds
    iso = DATES.assign(when=DATES.when.map(lambda t: None if pd.isna(t) else t.isoformat()))
    assert _sqlite_select(iso, term.to_sql(dialect="sqlite")) == holds


@pytest.mark.parametrize("term", DATE_TERMS[:3], ids=str)
def test_a_standard_date_literal_is_refused_by_sqlite_never_misread(term):
    """Standard SQL writes a date as ``TIMESTAMP '...'``: PostgreSQL and MySQL read it (see
    test_sql_servers), SQLite stops at it. As a bare string it selected nothing there."""
    sql = term.to_sql(dialect="standard")
    assert "TIMESTAMP '" in sql
    with pytest.raises(sqlite3.OperationalError, match="syntax error"):
        _sqlite_select(DATES, sql)


def test_a_date_finer_than_sqlite_keeps_is_refused_in_sqlite():
    term = Term("when", "==", pd.Timestamp("2021-01-01 00:00:00.000001"))
    with pytest.raises(ValueError, match="fraction of a millisecond.*floor"):
        term.to_sql(dialect="sqlite")
    assert "2021-01-01T00:00:00.000001" in term.to_sql(dialect="postgresql")


@pytest.mark.parametrize(
    "low, high, width",
    [
        (1.7e18, 1.7e18 + 256, 30),  # timestamps in nanoseconds
        (1.7001, 1.7002, 10),
        (1e-300, 2e-300, 10),
        (5e-320, 1e-319, 10),  # subnormal
    ],
)
def test_printed_thresholds_tell_distinct_cuts_apart_in_few_characters(low, high, width):
    """Three significant digits printed ``ts <= 1.7e+18 AND ts > 1.7e+18``, a contradiction
    in words; fixed decimals printed 1e-300 in 320 characters."""
    clause = Clause((Term("x", "<=", high), Term("x", ">", low)))
    lo_text, hi_text = str(clause).split(" AND ")[1], str(clause).split(" AND ")[0]
    assert lo_text.split()[-1] != hi_text.split()[-1]
    assert float(hi_text.split()[-1]) == high and float(lo_text.split()[-1]) == low
    assert all(len(t.split()[-1]) <= width for t in (lo_text, hi_text))
    assert str(Term("x", "<=", 1.7)) == "x <= 1.70"  # ordinary cuts read as before


def _cross_clause_rules():
    low, high = Clause((Term("x", "<=", 1.7001),)), Clause((Term("x", ">", 1.7002), Y_TERM))
    return [
        DNF([low, high]),
        CNF([Clause(low.terms, "or"), Clause(high.terms, "or")]),
        DecisionList([low, high], ["a", "b"], default="c"),
        WeightedRuleSet([low, high], [1.0, -0.5]),
    ]


Y_TERM = Term("y", "<=", 2.0)


@pytest.mark.parametrize("rule", _cross_clause_rules(), ids=lambda r: type(r).__name__)
def test_close_cuts_in_different_clauses_print_apart_in_every_rule_type(rule):
    """``x <= 1.70`` in one clause and ``x > 1.70`` in another read as if they met; the
    cuts are 1.7001 and 1.7002. Printout, numbered text and explanations tell them apart;
    a feature whose cuts do not clash keeps its short form."""
    frame = pd.DataFrame({"x": [1.0, 3.0], "y": [1.0, 1.0]})
    texts = [str(rule), "\n".join(rule.explain(frame))]
    if hasattr(rule, "numbered_text"):
        texts.append(rule.numbered_text())
    for text in texts:
        assert "1.7001" in text and not re.search(r"1\.70(?![0-9])", text), text
    assert "y <= 2" in str(rule)
    alone = DNF([Clause((Term("x", "<=", 1.7001),)), Clause((Term("z", ">", 5.0),))])
    assert str(alone) == "IF x <= 1.70\n   OR z > 5\nTHEN 1"
