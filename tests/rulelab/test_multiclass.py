"""More than two classes: ColumnGenerationRules' ordered per-class rule sets (RIPPER's
scheme, in the order of difficulty or of frequency) as a DecisionList with a default, and
its exports; two classes exactly as before."""

import sqlite3

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris, load_wine
from sklearn.model_selection import train_test_split

from rulelab import ColumnGenerationRules, FeatureBinarizer
from rulelab.rules import Clause, DecisionList, Term, rule_from_dict


def fit(X, y, **params):
    return ColumnGenerationRules(random_state=0, **params).fit(X, y)


def planted_bits(n=2000, seed=0):
    """Four classes over 12 fair bits, noise-free, each class (in RIPPER's order, rarest
    first) a DNF of the bits on the rows the earlier classes leave: A (1/8), B (about
    0.22), C (about 0.29) and the most frequent D (about 0.37) as the default."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.integers(0, 2, size=(n, 12)), columns=[f"b{i}" for i in range(12)])
    y = np.full(n, "D", dtype=object)
    y[((X.b5 & X.b6) | (X.b7 & X.b8)).to_numpy(bool)] = "C"
    y[(X.b3 & X.b4).to_numpy(bool)] = "B"
    y[(X.b0 & X.b1 & X.b2).to_numpy(bool)] = "A"
    return X, pd.Series(y, name="label")


def bits(*names):
    return Clause(tuple(Term(f"b{i}", "==", 1) for i in names))


PLANTED = {"A": {bits(0, 1, 2)}, "B": {bits(3, 4)}, "C": {bits(5, 6), bits(7, 8)}}


def clauses_by_label(rules: DecisionList) -> dict:
    out: dict = {}
    for clause, label in zip(rules.clauses, rules.labels):
        out.setdefault(label, set()).add(clause)
    return out


@pytest.mark.parametrize("seed", range(3))
def test_planted_four_class_rules_are_recovered_exactly(seed):
    X, y = planted_bits(seed=seed)
    model = fit(X, y)
    assert clauses_by_label(model.rules_) == PLANTED
    assert model.rules_.default == "D"
    assert list(dict.fromkeys(model.rules_.labels)) == ["A", "B", "C"]  # rarest first
    assert (model.predict(X) == y).all()


def test_planted_four_class_rules_print_as_an_ordered_list():
    X, y = planted_bits(seed=0)
    assert str(fit(X, y)) == (
        "IF b0 == 1 AND b1 == 1 AND b2 == 1 THEN A\n"
        "ELSE IF b3 == 1 AND b4 == 1 THEN B\n"
        "ELSE IF b5 == 1 AND b6 == 1 THEN C\n"
        "ELSE IF b7 == 1 AND b8 == 1 THEN C\n"
        "ELSE D"
    )


@pytest.mark.parametrize("seed", range(3))
def test_planted_thresholds_on_gaussian_features_are_recovered_exactly(seed):
    """Three classes cut from Gaussian features at known points, given to the binariser as
    domain thresholds: each rule uses exactly those cuts, in both directions."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(1500, 5)), columns=[f"x{i}" for i in range(5)])
    y = np.where((X.x1 <= -0.5) & (X.x2 > 0.5), "low", np.where(X.x0 > 1.0, "high", "mid"))
    counts = pd.Series(y).value_counts()
    assert counts["low"] < counts["high"] < counts["mid"]  # the order the rules follow
    binarizer = FeatureBinarizer(thresholds={"x0": [1.0], "x1": [-0.5], "x2": [0.5]})
    model = fit(X, y, binarizer=binarizer)
    assert str(model) == (
        "IF x1 <= -0.500 AND x2 > 0.500 THEN low\nELSE IF x0 > 1 THEN high\nELSE mid"
    )


def test_classes_go_from_the_rarest_to_the_default_the_most_frequent():
    X, y = load_wine(return_X_y=True, as_frame=True)
    model = fit(X, y, class_order="frequency")
    order = model.class_fits_["class"].tolist()
    counts = y.value_counts()
    assert order == sorted(counts.index, key=lambda c: counts[c])
    assert model.rules_.default == order[-1] == counts.idxmax()
    # each class is learned on the rows the earlier classes' rules left uncovered
    first = model.class_fits_.iloc[0]
    assert first["rows"] == len(y) and first["positives"] == counts[order[0]]
    assert model.class_fits_.iloc[1]["rows"] < len(y)


def two_rules_and_two_coins(n=3000, seed=0):
    """P = b0 AND (b1 OR b2) and Q = NOT b0 AND (b1 OR b2), 3/8 of the rows each; the
    rows where b1 and b2 are both 0 are R or S by a fair coin, 1/8 each, which no rule
    can tell apart."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.integers(0, 2, size=(n, 8)), columns=[f"b{i}" for i in range(8)])
    b0, either = X.b0.to_numpy(bool), (X.b1 | X.b2).to_numpy(bool)
    coin = np.where(rng.random(n) < 0.5, "R", "S")
    y = np.where(either, np.where(b0, "P", "Q"), coin)
    return X, pd.Series(y, name="label")


def test_classes_go_from_the_best_described_to_the_default_the_worst():
    X, y = two_rules_and_two_coins()
    model = fit(X, y)
    fits = model.class_fits_
    scores = fits.set_index("class")["difficulty"]
    # P and Q each have a rule set that separates them from every other class without
    # error (their scores are the cost of two short clauses); a coin class's best rule set
    # misses its rows or covers the other coin's
    from rulelab.colgen.multiclass import DIFFICULTY_COMPLEXITY

    cost = DIFFICULTY_COMPLEXITY * len(y)  # a clause's, and each of its terms'
    assert scores["P"] == pytest.approx(2 * 3 * cost) and scores["Q"] == pytest.approx(2 * 3 * cost)
    assert min(scores["R"], scores["S"]) > len(y) / 16
    # learned from the lowest score to the highest, the highest the default
    assert fits["difficulty"].is_monotonic_increasing
    assert model.rules_.default == fits["class"].iloc[-1]
    assert scores[model.rules_.default] == scores.max()
    assert set(fits["class"].iloc[:2]) == {"P", "Q"}
    # the list loses only the coin flips between R and S: half of their quarter of the rows
    X_test, y_test = two_rules_and_two_coins(seed=1)
    assert np.mean(model.predict(X_test) != y_test) < 0.14


def test_the_difficulty_score_is_the_one_vs_rest_rule_set_s_objective():
    from rulelab.colgen.multiclass import difficulty_order

    X, y = two_rules_and_two_coins(n=1500)
    classes, y_index = np.unique(y, return_inverse=True)
    A = np.asarray(FeatureBinarizer().fit_transform(X), dtype=bool)
    template = ColumnGenerationRules(complexity=0.01)
    order, scores = difficulty_order(template, A, y_index, np.ones(len(y)), classes.size)
    assert sorted(order) == list(range(classes.size))
    assert list(scores[order]) == sorted(scores)
    # P and Q both score the cost of two clauses of two terms: a tie goes to the rarer, as
    # in RIPPER's order
    cost = 0.01 * len(y)
    assert np.allclose(scores[:2], 2 * (cost + 2 * cost))
    counts = y.value_counts()
    assert list(classes[order[:2]]) == sorted(["P", "Q"], key=lambda c: (counts[c], c))
    # a row's weight counts: doubling every weight doubles every score, not the order
    again, doubled = difficulty_order(template, A, y_index, np.full(len(y), 2.0), classes.size)
    assert list(again) == list(order) and np.allclose(doubled, 2 * scores)


def test_ten_digits_of_noisy_segments_get_a_rule_list_not_if_true():
    """0/1 columns taken as items could only say "segment on": the list was IF TRUE THEN
    one digit (error 0.90) where CART reached 0.27. Each 0/1 column now gives both terms."""
    from sklearn.tree import DecisionTreeClassifier

    from repro.benchmark.multiclass import led_digits

    X, y = led_digits(1000, seed=0)
    X_te, y_te = led_digits(2000, seed=1)
    model = fit(X, y)
    tree = DecisionTreeClassifier(min_samples_leaf=5, random_state=0).fit(X, y)
    assert model.rules_.n_rules >= 9
    assert any(t.value == 0 for c in model.rules_.clauses for t in c.terms)  # "segment off"
    assert model.score(X_te, y_te) >= tree.score(X_te, y_te) - 0.02


def test_a_binary_concept_with_a_negated_column_is_recovered():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.integers(0, 2, size=(800, 6)), columns=[f"b{i}" for i in range(6)])
    y = ((X.b0 == 1) & (X.b1 == 0)).astype(int)
    model = ColumnGenerationRules(complexity=0.01, form="dnf").fit(X, y)
    assert str(model.rules_.clauses[0]) in ("b0 == 1 AND b1 == 0", "b1 == 0 AND b0 == 1")
    assert model.score(X, y) == 1.0
    # taken as items, the 0/1 columns cannot state b1 == 0
    items = ColumnGenerationRules(complexity=0.01, form="dnf", binarizer="passthrough")
    assert all(t.value == 1 for c in items.fit(X, y).rules_.clauses for t in c.terms)


@pytest.fixture(scope="module", params=["iris", "wine"])
def split(request):
    load = {"iris": load_iris, "wine": load_wine}[request.param]
    X, y = load(return_X_y=True, as_frame=True)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)
    return fit(X_tr, y_tr), X_tr, X_te, y_tr, y_te


def test_public_multiclass_sets_are_predicted_well_above_chance(split):
    model, _, X_te, _, y_te = split
    assert isinstance(model.rules_, DecisionList) and model.rules_.n_rules >= 2
    assert model.score(X_te, y_te) > 0.8  # chance is about 1/3 on both


def test_probabilities_are_each_rules_laplace_smoothed_training_frequencies(split):
    model, X_tr, X_te, y_tr, _ = split
    proba = model.predict_proba(X_te)
    assert proba.shape == (len(X_te), 3) and np.allclose(proba.sum(axis=1), 1)
    # brute force: the training rows each rule decided (the default: those no rule covers)
    decided_tr, decided_te = model.rules_.apply(X_tr), model.rules_.apply(X_te)
    for rule in np.unique(decided_te):
        rows = y_tr[decided_tr == rule]
        want = [(np.sum(rows == c) + 1) / (len(rows) + 3) for c in model.classes_]
        assert np.allclose(proba[decided_te == rule], want)


def test_explain_gives_the_deciding_rule_or_the_default_for_every_row(split):
    model, _, X_te, _, _ = split
    table = model.explain(X_te)
    assert len(table) == len(X_te) and (table["prediction"] == model.predict(X_te)).all()
    for first, reason in zip(model.rules_.apply(X_te), table["reason"]):
        if first < 0:
            assert reason == f"no rule fires: default {model.rules_.default}"
        else:
            assert reason.startswith(f"rule {first + 1}: IF {model.rules_.clauses[first]} THEN")


def test_decision_function_is_the_decided_class_in_the_multiclass_shape(split):
    model, _, X_te, _, _ = split
    score = model.decision_function(X_te)
    assert score.shape == (len(X_te), 3)
    assert (model.classes_[score.argmax(axis=1)] == model.predict(X_te)).all()


def test_json_round_trip_predicts_the_same(split):
    model, _, X_te, _, _ = split
    again = rule_from_dict(model.rules_.to_json())
    assert again == model.rules_
    assert (again.evaluate(X_te).astype(model.classes_.dtype) == model.predict(X_te)).all()


def test_sql_gives_the_labels_predict_gives(split):
    model, _, X_te, _, _ = split
    con = sqlite3.connect(":memory:")
    X_te.to_sql("t", con, index=False)
    labels = [r[0] for r in con.execute(f"SELECT {model.rules_.to_sql()} FROM t ORDER BY rowid")]
    assert labels == model.predict(X_te).tolist()


def test_query_selects_the_rows_a_rule_decides_and_each_labels_rows(split):
    model, _, X_te, _, _ = split
    frame = X_te.reset_index(drop=True)
    rules, predicted = model.rules_, model.predict(frame)
    picked = frame.query(rules.to_query(), engine="python").index
    assert picked.tolist() == np.flatnonzero(rules.apply(frame) >= 0).tolist()
    for label in model.classes_:  # the default's rows include those no rule covers
        picked = frame.query(rules.to_query(label), engine="python").index
        assert picked.tolist() == np.flatnonzero(predicted == label).tolist()


def test_string_labels_travel_through_sql_and_json():
    X, y = planted_bits(n=600, seed=1)
    model = fit(X, y, complexity=0.01)
    con = sqlite3.connect(":memory:")
    X.to_sql("t", con, index=False)
    labels = [r[0] for r in con.execute(f"SELECT {model.rules_.to_sql('t')} FROM t ORDER BY rowid")]
    assert labels == model.predict(X).tolist() == y.tolist()
    assert rule_from_dict(model.rules_.to_json()).evaluate(X).tolist() == y.tolist()


def test_a_class_too_small_for_the_inner_cross_validation_still_fits():
    X, y = load_iris(return_X_y=True, as_frame=True)
    keep = np.r_[0, 50:150]  # one setosa: no inner split holds two of it
    model = fit(X.iloc[keep], y.iloc[keep])
    assert model.class_fits_["class"].iloc[0] == 0
    assert model.score(X.iloc[keep], y.iloc[keep]) > 0.9


def test_a_refit_on_other_classes_replaces_what_the_last_fit_learned():
    X, y = load_iris(return_X_y=True, as_frame=True)
    model = fit(X, y)
    assert hasattr(model, "class_fits_") and not hasattr(model, "form_")
    model.fit(X, (y == 2).astype(int))
    assert not hasattr(model, "class_fits_") and model.form_ in ("dnf", "cnf")
    assert model.decision_function(X).shape == (len(X),)
    model.fit(X, y)
    assert not hasattr(model, "form_") and not hasattr(model, "lower_bound_")


def test_a_decision_list_with_a_default_decides_every_row_in_every_export():
    rules = DecisionList(
        [Clause((Term("a", ">", 1),)), Clause((Term("b", "==", "x"),))],
        ["hi", "bx"],
        default="rest",
    )
    frame = pd.DataFrame({"a": [2.0, 0.0, np.nan, 0.5], "b": ["x", "x", "y", None]})
    assert str(rules) == "IF a > 1 THEN hi\nELSE IF b == x THEN bx\nELSE rest"
    assert rules.evaluate(frame).tolist() == ["hi", "bx", "rest", "rest"]
    assert rules.explain(frame)[2] == "no rule fires: default rest"
    con = sqlite3.connect(":memory:")
    frame.to_sql("t", con, index=False)
    assert [r[0] for r in con.execute(f"SELECT {rules.to_sql()} FROM t")] == [
        "hi",
        "bx",
        "rest",
        "rest",
    ]
    assert frame.query(rules.to_query("rest"), engine="python").index.tolist() == [2, 3]
    assert frame.query(rules.to_query(), engine="python").index.tolist() == [0, 1]
    assert rule_from_dict(rules.to_json()) == rules
    assert rule_from_dict(rules.to_json()) != DecisionList(rules.clauses, rules.labels)
    assert str(DecisionList(default="rest")) == "IF TRUE THEN rest"
    assert DecisionList(default=0).evaluate(frame).tolist() == [0, 0, 0, 0]


# ---- two classes: the same rules as before the multiclass scheme ---------------------------
def binary_problem(seed):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(300, 5)), columns=[f"f{i}" for i in range(5)])
    y = ((X.f0 > 0.3) & (X.f1 <= 0.5)) | (X.f2 > 1.0)
    return X, (y ^ (rng.random(300) < 0.05)).astype(int)


# printed by the binary learner before more than two classes were handled
BINARY_RULES = {
    (0, "auto"): "IF (f0 > 0.270 AND f1 <= 0.482)\n   OR f2 > 0.952\nTHEN 1",
    (0, "cnf"): "IF (f0 > 0.270 OR f2 > 0.952)\n   AND (f1 <= 0.482 OR f2 > 0.952)\nTHEN 1",
    (0, "dnf"): "IF (f0 > 0.270 AND f1 <= 0.482)\n   OR f2 > 0.952\nTHEN 1",
    (1, "auto"): "IF (f0 > 0.315 AND f1 <= 0.277)\n   OR f2 > 0.829\nTHEN 1",
    (1, "cnf"): "IF (f0 > 0.315 OR f2 > 0.829)\n   AND (f1 <= 0.277 OR f2 > 0.829)\nTHEN 1",
    (1, "dnf"): "IF (f0 > 0.315 AND f1 <= 0.277)\n   OR (f0 <= 1.30 AND f2 > 0.829)\nTHEN 1",
    (2, "auto"): "IF (f0 > 0.285 AND f1 <= 0.509)\n   OR f2 > 0.924\nTHEN 1",
    (2, "cnf"): "IF (f0 > 0.285 OR f2 > 0.924)\n   AND (f0 <= 0.285 OR f1 <= 0.509)\nTHEN 1",
    (2, "dnf"): "IF (f0 > 0.285 AND f1 <= 0.509)\n   OR f2 > 0.924\nTHEN 1",
}
SETTINGS = {
    "auto": {},
    "cnf": {"form": "cnf", "complexity": 0.01},
    "dnf": {"form": "dnf", "complexity": 0.005},
}


@pytest.mark.parametrize("seed, setting", sorted(BINARY_RULES))
def test_two_classes_learn_the_same_rules_as_before(seed, setting):
    """The rule sets on the binariser's grid (``grid_rules_``, before cut refinement) are
    those the learner gave before it learned more than two classes."""
    X, y = binary_problem(seed)
    model = fit(X, y, **SETTINGS[setting])
    assert str(model.grid_rules_) == BINARY_RULES[seed, setting]
    assert not hasattr(model, "class_fits_")
    assert np.array_equal(model.predict(X), model.rules_.evaluate(X).astype(int))


def test_integer_weights_give_the_objectives_of_repeated_rows():
    """A weight of k is k copies of the row: the same class order, and each class's rule set
    proved optimal with the same objective (a tie between two optimal DNFs may be broken
    either way, as in the binary learner)."""
    X, y = planted_bits(n=400, seed=3)
    noisy = y.where(np.arange(len(y)) % 17 > 0, "D")  # some noise, so errors cost
    weight = np.random.default_rng(0).integers(0, 4, len(y))
    weighted = ColumnGenerationRules(complexity=0.01).fit(X, noisy, sample_weight=weight)
    repeated = ColumnGenerationRules(complexity=0.01).fit(
        X.loc[X.index.repeat(weight)], noisy.loc[noisy.index.repeat(weight)]
    )
    a, b = weighted.class_fits_, repeated.class_fits_
    assert a["class"].tolist() == b["class"].tolist()
    assert a["proved_optimal"].iloc[:-1].all() and b["proved_optimal"].iloc[:-1].all()
    assert np.allclose(a["objective"].iloc[:-1], b["objective"].iloc[:-1])


def test_inner_folds_given_as_index_pairs_are_restricted_to_each_class():
    from sklearn.model_selection import StratifiedKFold

    X, y = load_iris(return_X_y=True, as_frame=True)
    folds = list(StratifiedKFold(3, shuffle=True, random_state=0).split(X, y))
    model = fit(X, y, cv=folds)
    assert model.class_fits_["complexity"].notna().sum() == 2
    assert model.score(X, y) > 0.9
