"""Rule sets of paper 1: set covering (RuSC) and boosting (RuB, Algorithm 1)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import check_estimator

from rulelab import BoostedLPRules, OneRule, SetCoverRules, TwoLevelRules, WeightedRuleSet
from rulelab.rules import DNF, Clause, Term, simplify_clause
from tests.conftest import load_or_skip


def planted_dnf(n_samples: int, seed: int, noise: float = 0.0):
    """Binary features a..h; y = (a AND b) OR (c AND d), optionally with flipped labels."""
    r = np.random.default_rng(seed)
    X = pd.DataFrame((r.random((n_samples, 8)) < 0.5).astype(int), columns=list("abcdefgh"))
    y = ((X.a & X.b) | (X.c & X.d)).to_numpy()
    if noise:
        y = np.where(r.random(n_samples) < noise, 1 - y, y)
    return X, pd.Series(y, name="y")


def coverable_positives(A: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Positives that some AND-clause covers without firing on any negative: exactly those
    whose most specific clause (every term true on them) fires on no negative."""
    neg = A[y == 0].astype(bool)
    out = np.zeros(len(y), dtype=bool)
    for i in np.flatnonzero(y == 1):
        true_terms = A[i].astype(bool)
        out[i] = not (neg[:, true_terms].all(axis=1)).any()
    return out


# ---- RuSC ------------------------------------------------------------------------------------
def test_set_cover_recovers_planted_dnf_exactly():
    X, y = planted_dnf(400, seed=0)
    model = SetCoverRules().fit(X, y)
    assert str(model) == "IF (c == 1 AND d == 1)\n   OR (a == 1 AND b == 1)\nTHEN 1"
    assert model.stop_reason_ == "no positives left"
    assert model.score(X, y) == 1.0


def random_planted_dnf(n_samples: int, seed: int):
    """Ten binary features; y is an OR of three random AND-clauses of 1-3 features each."""
    r = np.random.default_rng(seed)
    X = pd.DataFrame(
        (r.random((n_samples, 10)) < 0.5).astype(int), columns=[f"f{j}" for j in range(10)]
    )
    y = np.zeros(n_samples, dtype=bool)
    for size in r.integers(1, 4, size=3):
        y |= X.iloc[:, r.choice(10, size=size, replace=False)].all(axis=1).to_numpy()
    return X, pd.Series(y.astype(int))


@pytest.mark.parametrize("seed", range(6))
def test_set_cover_covers_every_positive_some_clause_can_cover(seed):
    X, y = random_planted_dnf(300, seed)
    model = SetCoverRules(max_rules=20).fit(X, y)
    coverable = coverable_positives(X.to_numpy(), y.to_numpy())
    assert coverable[y == 1].all()  # the planted clauses cover every positive error-free
    fired = model.rules_.evaluate(X)
    assert fired[coverable].all()


@pytest.mark.parametrize("seed", range(6))
def test_set_cover_with_our_early_stop_never_exceeds_one_rule(seed):
    X, y = planted_dnf(200, seed=seed, noise=0.15)
    one = OneRule().fit(X, y)
    cover = SetCoverRules(stop_on_no_gain=True).fit(X, y)
    assert cover.rules_.clauses[0] == one.rule_  # round 1 is the 1Rule clause
    assert 1 - cover.score(X, y) <= 1 - one.score(X, y)


@pytest.mark.parametrize("seed", range(4))
def test_set_cover_is_separate_and_conquer_until_no_positive_is_left(seed):
    """Paper 1, section 4: clause k is the 1Rule clause of the samples no earlier clause
    fires on, and learning goes on while positives remain (up to max_rules), whether or
    not a clause lowers the training error."""
    X, y = planted_dnf(200, seed=seed, noise=0.15)
    cover = SetCoverRules(max_rules=6).fit(X, y)
    left = np.ones(len(y), dtype=bool)
    for clause in cover.rules_.clauses:
        one = OneRule().fit(X[left], y[left])
        assert clause == one.rule_
        left &= ~clause.evaluate(X)
    positives_left = bool((y[left] == 1).any())
    assert (
        cover.stop_reason_ in ("max_rules", "clause covers no new positive")
        if positives_left
        else cover.stop_reason_ == "no positives left"
    )
    # The paper's rule keeps clauses our early stop would have refused.
    early = SetCoverRules(max_rules=6, stop_on_no_gain=True).fit(X, y)
    assert cover.rules_.n_rules >= early.rules_.n_rules


def test_set_cover_training_error_never_exceeds_one_rule_on_real_data():
    pytest.importorskip("highspy")
    X, y = load_or_skip("bupa")
    one, cover = OneRule().fit(X, y), SetCoverRules().fit(X, y)
    assert 1 - cover.score(X, y) <= 1 - one.score(X, y)
    assert cover.rules_.n_rules >= 2


def test_set_cover_stops_at_max_rules():
    X, y = planted_dnf(400, seed=1)
    model = SetCoverRules(max_rules=1).fit(X, y)
    assert model.rules_.n_rules == 1 and model.stop_reason_ == "max_rules"


def test_set_cover_remove_positives_keeps_covered_negatives_in_later_rounds():
    X, y = planted_dnf(300, seed=2, noise=0.1)
    a = SetCoverRules(remove="covered").fit(X, y)
    b = SetCoverRules(remove="positives").fit(X, y)
    assert a.rules_.clauses[0] == b.rules_.clauses[0]


def test_set_cover_rejects_bad_parameters():
    X, y = planted_dnf(50, seed=0)
    with pytest.raises(ValueError, match="'remove' parameter"):
        SetCoverRules(remove="all").fit(X, y)
    with pytest.raises(ValueError, match="'max_rules' parameter"):
        SetCoverRules(max_rules=0).fit(X, y)


def test_screening_does_not_change_the_learned_rule_set():
    X, y = planted_dnf(300, seed=3)
    plain = SetCoverRules().fit(X, y)
    screened = SetCoverRules(screening="basic").fit(X, y)
    assert screened.rules_ == plain.rules_


# ---- RuB -------------------------------------------------------------------------------------
TINY_A = np.array([[1, 1, 0], [1, 1, 1], [1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 1]])
TINY_Y = np.array([1, 1, 0, 0, 1, 0])


def test_boosting_first_round_follows_algorithm_one_by_hand():
    X = pd.DataFrame(TINY_A, columns=["p", "q", "r"])
    model = BoostedLPRules(n_estimators=1).fit(X, TINY_Y)
    # The LP picks p AND q, which fires on rows 0, 1, 4: all positive.
    assert str(model.rules_.clauses[0]) == "p == 1 AND q == 1"
    m, eps = 6, 1 / 12
    s_tp, s_fp, s_t, s_f = 3 / m, 0.0, 3 / m, 3 / m
    # SLIPPER: (sqrt(1/2) - 0)^2 = 1/2 > (sqrt(1/2) - sqrt(1/2))^2 = 0, so the clause wins.
    conf = 0.5 * np.log((s_tp + eps) / (s_fp + eps))
    h = model.history_[0]
    assert (h["s_TP"], h["s_FP"], h["s_T"], h["s_F"]) == pytest.approx((s_tp, s_fp, s_t, s_f))
    assert not h["default_rule"]
    assert model.rules_.weights[0] == pytest.approx(conf)
    # d_{2,i} = d_{1,i} / exp((2y_i - 1) yhat_1(x_i)), normalised: fired positives shrink.
    d = np.full(m, 1 / m) / np.exp(
        np.where(TINY_Y == 1, 1, -1) * conf * np.array([1, 1, 0, 0, 1, 0])
    )
    assert model.sample_weights_[1] == pytest.approx(d / d.sum())
    assert model.sample_weights_[1].sum() == pytest.approx(1.0)


def test_boosting_takes_the_default_rule_when_it_beats_the_clause():
    # 1 positive among 8: no clause separates it better than the default "all negative".
    A = np.array([[1, 0], [1, 0], [1, 0], [1, 0], [0, 1], [0, 1], [0, 1], [1, 1]])
    y = np.array([1, 0, 0, 0, 0, 0, 0, 0])
    model = BoostedLPRules(n_estimators=1).fit(pd.DataFrame(A, columns=["u", "v"]), y)
    h = model.history_[0]
    clause_score = (np.sqrt(h["s_TP"]) - np.sqrt(h["s_FP"])) ** 2
    default_score = (np.sqrt(h["s_T"]) - np.sqrt(h["s_F"])) ** 2
    assert default_score >= clause_score and h["default_rule"]
    eps = 1 / 16
    assert model.rules_.weights[0] == pytest.approx(0.5 * np.log((1 / 8 + eps) / (7 / 8 + eps)))
    assert model.rules_.clauses[0] == Clause((), "and")
    assert (model.predict(pd.DataFrame(A, columns=["u", "v"])) == 0).all()


def test_boosting_weight_scale_m_makes_round_one_the_one_rule_clause():
    X, y = planted_dnf(300, seed=4, noise=0.2)
    one = OneRule().fit(X, y)
    boosted = BoostedLPRules(n_estimators=1, weight_scale="m").fit(X, y)
    assert boosted.lps_[0].selected.tolist() == one.lp_.selected.tolist()


def test_boosting_weight_scale_sum1_is_eq_11_literally():
    X, y = planted_dnf(300, seed=4, noise=0.2)
    m = len(y)
    literal = BoostedLPRules(n_estimators=1, weight_scale="sum1").fit(X, y)
    rescaled = OneRule(complexity=m / 1000.0).fit(X, y)  # lambda * (1/m) per error
    assert literal.lps_[0].selected.tolist() == rescaled.lp_.selected.tolist()


def test_boosting_predicts_by_the_sign_of_the_weighted_vote():
    X, y = planted_dnf(300, seed=5, noise=0.1)
    model = BoostedLPRules().fit(X, y)
    assert model.rules_.n_rules == 5
    score = model.decision_function(X)
    assert np.array_equal(model.predict(X), (score > 0).astype(int))
    assert np.allclose(model.sample_weights_.sum(axis=1), 1.0)


def test_weighted_rule_set_prints_every_clause_with_its_weight():
    rules = WeightedRuleSet(
        [Clause((Term("a", "==", 1), Term("b", "==", 1)), "and"), Clause((), "and")],
        [0.75, -0.25],
        then="y = 1",
    )
    assert str(rules) == (
        "IF score > 0 THEN y = 1, where score =\n  +0.750 * (a == 1 AND b == 1)\n  -0.250 * TRUE"
    )
    X = pd.DataFrame({"a": [1, 1, 0], "b": [1, 0, 1]})
    assert rules.evaluate(X).tolist() == [True, False, False]
    assert rules.n_rules == 2 and rules.n_terms == 2


def test_simplify_clause_keeps_the_tightest_nested_threshold():
    c = Clause(
        (Term("x", ">", 1.0), Term("y", "<=", 5.0), Term("x", ">", 2.0), Term("y", "<=", 3.0)),
        "and",
    )
    assert str(simplify_clause(c)) == "x > 2 AND y <= 3"
    X = pd.DataFrame({"x": np.linspace(0, 4, 21), "y": np.linspace(6, 0, 21)})
    assert np.array_equal(simplify_clause(c).evaluate(X), c.evaluate(X))


def _as_learned(model):
    """The rule exactly as the LPs selected its binarised columns, before simplification."""

    def clause(columns):
        return Clause(tuple(model.terms_[j] for j in np.sort(columns)), "and")

    if isinstance(model, OneRule):
        return DNF([clause(model.lp_.selected)])
    if isinstance(model, SetCoverRules):
        return DNF([clause(lp.selected) for lp in model.lps_])
    if isinstance(model, BoostedLPRules):
        return WeightedRuleSet(
            [
                Clause(()) if h["default_rule"] else clause(lp.selected)
                for lp, h in zip(model.lps_, model.history_)
            ],
            [h["confidence"] for h in model.history_],
        )
    return DNF([clause(np.flatnonzero(w[1:])) for w in model.weights_[model.active_]])


@pytest.mark.parametrize(
    "model",
    [
        OneRule(),
        SetCoverRules(max_rules=5),
        BoostedLPRules(n_estimators=5),
        TwoLevelRules(max_rules=3, complexity=0.01),
    ],
    ids=lambda m: type(m).__name__,
)
def test_simplified_rules_predict_exactly_as_the_rule_as_learned_on_pima(model):
    X, y = load_or_skip("pima")
    model.fit(X, y)
    learned = _as_learned(model)
    # Nested thresholds are merged (1Rule on pima selects glucose > 94 ... glucose > 128).
    assert model.rules_.n_terms < learned.n_terms
    assert model.rules_ == learned.simplified()
    missing = X.mask(np.random.default_rng(0).random(X.shape) < 0.1)  # unseen rows too
    for rows in (X, missing):
        expected = model.classes_[learned.evaluate(rows).astype(int)]
        assert np.array_equal(model.predict(rows), expected)


def test_one_rule_on_pima_prints_one_bound_per_feature():
    X, y = load_or_skip("pima")
    assert str(OneRule().fit(X, y)) == (
        "IF glucose > 128 AND bmi > 29.60 AND age > 24\nTHEN class = 1"
    )


# ---- scikit-learn conventions ------------------------------------------------------------------
@pytest.mark.parametrize(
    "estimator", [SetCoverRules(), BoostedLPRules()], ids=lambda e: type(e).__name__
)
def test_rule_sets_pass_sklearn_check_estimator(estimator):
    results = check_estimator(estimator, on_fail=None)
    failed = [r["check_name"] for r in results if r["status"] == "failed"]
    skipped = {r["check_name"] for r in results if r["status"] == "skipped"}
    assert failed == []
    # the only skipped check needs SCIPY_ARRAY_API, unrelated to rule learners
    assert skipped <= {"check_array_api_input"}


def test_rule_sets_work_in_pipeline_and_grid_search():
    X, y = planted_dnf(200, seed=6, noise=0.05)
    grid = GridSearchCV(make_pipeline(SetCoverRules()), {"setcoverrules__max_rules": [1, 3]}, cv=3)
    grid.fit(X, y)
    assert grid.best_params_["setcoverrules__max_rules"] == 3


def test_rule_sets_name_the_problem_in_bad_input():
    X, y = planted_dnf(50, seed=0)
    with pytest.raises(ValueError, match="one class"):
        SetCoverRules().fit(X, np.zeros(50))
    with pytest.raises(ValueError, match="binary"):
        BoostedLPRules().fit(X, np.arange(50) % 3)
