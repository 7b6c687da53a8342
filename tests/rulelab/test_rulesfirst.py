"""Rules-first classifiers (Cohen et al. 2019): planted rules found, rules decide first."""

import itertools
import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from scipy import optimize
from sklearn.model_selection import GridSearchCV
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer

from repro.rules_first.tweets import clean_text, make_stem_vectorizer, stem_tokens
from rulelab import BoostRule, RulesFirstClassifier, make_rules_first
from rulelab.rulesfirst import GreedyRule, rule_probability, truncate_rules
from rulelab.rulesfirst._base import make_linear
from rulelab.rulesfirst.candidates import select_candidates
from rulelab.rulesfirst.rules import coverage_matrix
from rulelab.rulesfirst.theory import hinge_ball


@pytest.fixture(autouse=True, scope="module")
def one_blas_thread():
    """One BLAS thread: many small logistic regressions run faster without threading."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1):
        yield


@pytest.fixture(scope="module")
def realizable():
    """The paper's synthetic setting (d=400, k=20, p=1/60) with enough samples."""
    X, y, planted = make_rules_first(2000, random_state=0)
    Xt, yt, _ = make_rules_first(2000, random_state=1)
    return X, y, Xt, yt, planted


def test_generator_labels_follow_rules_then_the_halfspace():
    X, y, planted = make_rules_first(3000, d=50, k=5, p=0.05, random_state=3)
    assert X.shape == (3000, 55) and list(planted) == list(range(50, 55))
    fired = X[:, planted].any(axis=1)
    assert (y[fired] == 1).all()
    assert (y[~fired] == (X[~fired, :50].sum(axis=1) > 0)).all()
    assert abs(fired.mean() - (1 - 0.95**5)) < 0.03
    assert abs(1 - (1 - rule_probability(20, 0.285)) ** 20 - 0.285) < 1e-12


@pytest.mark.slow
def test_greedy_l2_finds_planted_rules_and_beats_plain_l2(realizable):
    X, y, Xt, yt, planted = realizable
    model = RulesFirstClassifier(penalty="l2", early_stopping=False, random_state=0).fit(X, y)
    chosen = set(model.rules_.feature_indices)
    # Every rule it picks is planted, and it finds at least 18 of the 20.
    assert chosen <= set(planted.tolist())
    assert len(chosen) >= 18
    assert all(r.label == 1 and r.purity == 1.0 for r in model.rules_)
    plain = make_linear("l2").fit(X, y)
    assert model.score(Xt, yt) >= plain.score(Xt, yt) + 0.03


@pytest.mark.slow
def test_greedy_l1_finds_planted_rules_and_beats_plain_l1(realizable):
    X, y, Xt, yt, planted = realizable
    model = RulesFirstClassifier(penalty="l1", early_stopping=False, random_state=0).fit(X, y)
    assert set(model.rules_.feature_indices) <= set(planted.tolist())
    assert len(model.rules_) >= 18
    assert model.score(Xt, yt) > make_linear("l1").fit(X, y).score(Xt, yt)


@pytest.mark.parametrize("seed", range(4))
def test_predictions_on_covered_samples_follow_the_first_rule(seed):
    rng = np.random.default_rng(seed)
    X = (rng.random((300, 12)) < 0.15).astype(float)
    y = rng.integers(0, 2, 300)  # noise: rules are impure, the rule must still decide
    model = RulesFirstClassifier(
        min_purity=0.0, max_rules=6, early_stopping=False, random_state=seed
    ).fit(X, y)
    Xt = (rng.random((500, 12)) < 0.15).astype(float)
    first = model.apply_rules(Xt)
    pred = model.predict(Xt)
    labels = np.array([r.label for r in model.rules_])
    assert len(model.rules_) == 6
    assert (pred[first >= 0] == labels[first[first >= 0]]).all()
    proba = model.predict_proba(Xt)
    assert np.allclose(proba.sum(axis=1), 1.0)


def test_rules_print_in_words_for_text():
    texts = (
        [
            "so disappointed",
            "disappointing day",
            "disappointed by work",
            "a disappointment",
            "disappointed again",
            "I am disappointed",
        ]
        + ["great day"] * 6
        + ["a day at work"] * 6
        + ["work is work"] * 4
        + ["great work"] * 2
    )
    y = ["negative"] * 6 + ["positive"] * 6 + ["positive"] * 6 + ["negative"] * 4 + ["positive"] * 2
    vec = make_stem_vectorizer()
    X = vec.fit_transform(texts)
    model = RulesFirstClassifier(
        eval_fraction=0,
        rule_labels=["negative"],
        max_rules=1,
        min_support=3,
        feature_names=vec.get_feature_names_out(),
        condition='"{feature}" in tweet',
    ).fit(X, y)
    assert str(model.rules_) == (
        'IF "disappoint" in tweet THEN negative\nELSE LogisticRegression on the other features'
    )
    assert model.predict(vec.transform(["disappointed again"]))[0] == "negative"


def test_candidates_match_brute_force_support_purity_and_score():
    rng = np.random.default_rng(0)
    X = (rng.random((200, 30)) < 0.2).astype(float)
    y = rng.integers(0, 2, 200)
    cand = select_candidates(
        coverage_matrix(X),
        y,
        [0, 1],
        min_support=[5, 8],
        min_purity=[0.6, 0.55],
        threshold=[2.0, None],
    )
    expected = set()
    for j in range(30):
        on = X[:, j] > 0
        for c, (s, p, t) in enumerate([(5, 0.6, 2.0), (8, 0.55, None)]):
            purity = (y[on] == c).mean() if on.any() else 0
            # Support counts the samples of the rule's own label (§7.2: "4 negative tweets").
            if (
                (y[on] == c).sum() >= s
                and purity >= p
                and (t is None or np.sqrt(on.sum()) * purity >= t)
            ):
                expected.add((j, c))
    assert set(zip(cand.feature.tolist(), cand.label.tolist())) == expected
    assert (np.diff(cand.score) <= 1e-12).all()  # ranked by sqrt(M) * p


def test_exact_and_fast_search_find_the_same_planted_rules():
    X, y, planted = make_rules_first(600, d=30, k=4, p=0.05, mu=0.0, random_state=5)
    fast = RulesFirstClassifier(search="fast", early_stopping=False, random_state=0).fit(X, y)
    exact = RulesFirstClassifier(early_stopping=False, random_state=0).fit(X, y)
    assert (
        set(fast.rules_.feature_indices)
        == set(exact.rules_.feature_indices)
        == set(planted.tolist())
    )


def test_truncated_search_equals_a_search_with_fewer_rules():
    X, y, _ = make_rules_first(500, d=40, k=6, p=0.05, random_state=2)
    long = RulesFirstClassifier(
        max_rules=10, min_purity=0.0, early_stopping=False, random_state=0
    ).fit(X, y)
    short = RulesFirstClassifier(
        max_rules=4, min_purity=0.0, early_stopping=False, random_state=0
    ).fit(X, y)
    cut = truncate_rules(long, 4, X, y)
    assert cut.rules_.feature_indices == short.rules_.feature_indices
    assert (cut.predict(X) == short.predict(X)).all()


def test_fit_is_deterministic_and_accepts_sparse_input():
    X, y, _ = make_rules_first(400, d=30, k=5, p=0.05, random_state=1)
    a = RulesFirstClassifier(random_state=7).fit(X, y)
    b = RulesFirstClassifier(random_state=7).fit(sp.csr_matrix(X), y)
    assert a.rules_.feature_indices == b.rules_.feature_indices
    assert (a.predict(X) == b.predict(sp.csr_matrix(X))).all()


def test_pluggable_mlp_base_and_grid_search_in_a_pipeline():
    X, y, planted = make_rules_first(400, d=20, k=4, p=0.05, random_state=4)
    mlp = RulesFirstClassifier(
        base_estimator=MLPClassifier(hidden_layer_sizes=(5, 2), max_iter=100, random_state=0),
        random_state=0,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mlp.fit(X, y)
    assert type(mlp.base_estimator_).__name__ == "MLPClassifier"
    assert set(mlp.rules_.feature_indices) <= set(planted.tolist())
    pipe = make_pipeline(FunctionTransformer(), RulesFirstClassifier(random_state=0))
    grid = GridSearchCV(pipe, {"rulesfirstclassifier__penalty": ["l1", "l2"]}, cv=3).fit(X, y)
    assert grid.best_score_ > 0.6


@pytest.mark.parametrize(
    "kwargs, X, y, match",
    [
        ({}, [[0.0, 1.0], [1.0, np.nan]], [0, 1], "NaN"),
        ({}, [[0.0, 1.0], [1.0, 0.0]], [1, 1], "one class"),
        ({"penalty": "l3"}, [[0.0, 1.0], [1.0, 0.0]], [0, 1], "penalty"),
        ({"eval_fraction": 1.5}, [[0.0, 1.0], [1.0, 0.0]], [0, 1], "eval_fraction"),
        ({"min_purity": {"spam": 0.9}}, [[0.0, 1.0], [1.0, 0.0], [1.0, 1.0]], [0, 1, 0], "spam"),
    ],
)
def test_bad_input_raises_a_clear_value_error(kwargs, X, y, match):
    with pytest.raises(ValueError, match=match):
        RulesFirstClassifier(**kwargs).fit(np.asarray(X), y)


def test_hinge_ball_respects_the_norm_and_beats_random_feasible_points():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 5))
    y = np.sign(X[:, 0] + 0.3 * rng.normal(size=80))
    w, _ = hinge_ball(X, y, B=0.5)
    loss = lambda v: np.maximum(0, 1 - y * (X @ v)).mean()  # noqa: E731
    assert np.linalg.norm(w) <= 0.5 + 1e-6
    for _ in range(300):
        v = rng.normal(size=5)
        v *= 0.5 * rng.random() / np.linalg.norm(v)
        assert loss(w) <= loss(v) + 1e-6


def test_greedy_rule_of_fig1_recovers_planted_rules_and_boostrule_improves_on_it():
    X, y, planted = make_rules_first(800, d=30, k=6, p=0.04, mu=0.0, random_state=0)
    Xt, yt, _ = make_rules_first(1000, d=30, k=6, p=0.04, mu=0.0, random_state=1)
    weak = GreedyRule(k=6, B=1.0).fit(X, y)
    assert set(weak.rules_.feature_indices) == set(planted.tolist())
    assert np.linalg.norm(weak.coef_) <= 1.0 + 1e-6
    boosted = BoostRule(k=6, B=1.0, n_estimators=5).fit(X, y)
    assert boosted.score(Xt, yt) >= weak.score(Xt, yt) - 0.01
    # round 1 sees uniform weights: it is GreedyRule itself, printed as the vote's first list
    assert boosted.rules_.members[0].feature_indices == weak.rules_.feature_indices
    # the vote's features: every member's, each once, in order of first use
    used = [j for m in boosted.rules_.members for j in m.feature_indices]
    assert boosted.rules_.feature_indices == list(dict.fromkeys(used))
    assert set(boosted.rules_.feature_indices) >= set(planted.tolist())
    assert str(boosted).splitlines()[2] == "  " + str(weak).splitlines()[0]


@pytest.fixture(scope="module")
def small_planted():
    X, y, planted = make_rules_first(300, d=4, k=2, p=0.1, mu=0.0, random_state=0)
    assert list(planted) == [4, 5]
    return X, y


HALF = "the halfspace <w, x> + b > 0 (coef_, intercept_)"


def test_printouts_are_the_learned_rules_in_words(small_planted):
    X, y = small_planted
    models = [
        RulesFirstClassifier(random_state=0),
        GreedyRule(k=2),
        BoostRule(k=2, n_estimators=2),
    ]
    for model in models:
        model.fit(X, y)
        assert str(model) == str(model.rules_)
    assert str(models[0]) == "IF x4 > 0 THEN 1\nELSE LogisticRegression on the other features"
    assert str(models[1]) == f"IF x4 > 0 THEN 1\nELSE IF x5 > 0 THEN 1\nELSE {HALF}"
    assert str(models[2]) == (
        "IF score > 0 THEN 1, where score adds each round's vote: its weight where its "
        "list gives 1, minus its weight elsewhere\n"
        "round 1, weight +1.799:\n"
        f"  IF x4 > 0 THEN 1\n  ELSE IF x5 > 0 THEN 1\n  ELSE {HALF}\n"
        "round 2, weight +1.132:\n"
        f"  IF x4 > 0 THEN 1\n  ELSE IF x5 > 0 THEN 1\n  ELSE {HALF}"
    )


def test_predictions_come_from_the_rule_list_and_the_link_its_fallback_declares(small_planted):
    X, y = small_planted
    model = RulesFirstClassifier(random_state=0).fit(X, y)
    first = model.apply_rules(X)
    proba = model.predict_proba(X)
    base = model.base_estimator_.predict_proba(X[first < 0][:, model.keep_])
    assert np.array_equal(proba[first >= 0, 1], np.ones((first >= 0).sum()))
    assert np.array_equal(proba[first < 0], base)
    assert np.array_equal(model.predict(X), model.classes_[proba.argmax(axis=1)])
    score = model.decision_function(X)
    assert np.isinf(score[first >= 0]).all()
    assert np.array_equal(score > 0, model.predict(X) == 1)

    weak = GreedyRule(k=2).fit(X, y)
    assert not hasattr(weak, "predict_proba")  # a hinge-loss halfspace has no probability
    score = weak.decision_function(X)
    covered = weak.apply_rules(X) >= 0
    assert np.isinf(score[covered]).all()
    assert np.array_equal(score[~covered], (X @ weak.coef_ + weak.intercept_)[~covered])

    boosted = BoostRule(k=2, n_estimators=2).fit(X, y)
    F = boosted.decision_function(X)
    votes = sum(
        a * np.where(est.predict(X) == 1, 1.0, -1.0)
        for a, est in zip(boosted.estimator_weights_, boosted.estimators_)
    )
    assert np.array_equal(F, votes)
    assert np.allclose(boosted.predict_proba(X)[:, 1], 1 / (1 + np.exp(-2 * F)))


def test_explain_names_the_deciding_rule_or_the_fallback_on_the_callers_rows(small_planted):
    X, y = small_planted
    frame = pd.DataFrame(X, columns=[f"x{j}" for j in range(X.shape[1])], index=range(7, 307))
    for model in (RulesFirstClassifier(random_state=0), GreedyRule(k=2)):
        why = model.fit(frame, y).explain(frame)
        assert list(why.index) == list(frame.index)
        assert np.array_equal(why.prediction, model.predict(frame))
        covered = model.apply_rules(frame) >= 0
        assert why.reason[covered].str.startswith("rule 1: IF x4 > 0").any()
        assert why.reason[~covered].str.startswith("no rule fires:").all()


def test_json_keeps_the_rules_and_names_the_fitted_fallback(small_planted):
    from rulelab.rules import rule_from_dict

    X, y = small_planted
    model = RulesFirstClassifier(random_state=0).fit(X, y)
    again = rule_from_dict(model.rules_.to_json())
    assert again.clauses == model.rules_.clauses and not again.has_fallback_model
    assert again.otherwise == "LogisticRegression on the other features"
    frame = pd.DataFrame(X, columns=[f"x{j}" for j in range(X.shape[1])])
    assert np.array_equal(again.apply(frame), model.rules_.apply(X))
    with pytest.raises(ValueError, match="neither a default nor its fallback model"):
        again.decide(frame)
    boosted = BoostRule(k=2, n_estimators=2).fit(X, y)
    vote = rule_from_dict(boosted.rules_.to_json())
    assert vote.clauses == boosted.rules_.clauses and vote.weights == boosted.rules_.weights
    with pytest.raises(ValueError, match="no SQL form.*fitted model"):
        boosted.rules_.to_sql()


def test_text_cleaning_drops_links_and_special_characters_then_stems():
    assert clean_text("Soooo DISAPPOINTED!!! http://t.co/abc #fail") == "soooo disappointed fail"
    # Mentions are accounts and digits are numbers, not words (the paper's 6.5K stems).
    assert clean_text("@JohnDoe lost 3-0 at 10pm, don't care #fail2day") == "lost at dont care"
    assert stem_tokens("Dustin Johnson dealt with another major disappointment") == [
        "dustin",
        "johnson",
        "dealt",
        "with",
        "anoth",
        "major",
        "disappoint",
    ]


def test_score_selection_takes_the_top_candidates_by_sqrt_m_times_purity():
    rng = np.random.default_rng(1)
    X = (rng.random((400, 15)) < 0.2).astype(float)
    y = rng.integers(0, 2, 400)
    model = RulesFirstClassifier(
        selection="score", eval_fraction=0, min_purity=0.5, max_rules=3
    ).fit(X, y)
    cand = select_candidates(
        coverage_matrix(X),
        y,
        [0, 1],
        min_support=[1, 1],
        min_purity=[0.5, 0.5],
        threshold=[None, None],
    )
    top, seen = [], set()
    for j in cand.feature.tolist():
        if j not in seen and len(top) < 3:
            top.append(j)
            seen.add(j)
    assert model.rules_.feature_indices == top


@pytest.mark.parametrize("base_rows", ["all", "uncovered"])
def test_base_classifier_is_fit_after_removing_the_rule_features(base_rows):
    """§7: "a regularized linear classifier is trained after removing the rule features",
    on S_non-covered as in Fig. 1 (default) or on every training sample (the other
    reading, whose class prior is the data's)."""
    from sklearn.dummy import DummyClassifier

    X, y, planted = make_rules_first(900, d=30, k=4, p=0.05, mu=0.0, random_state=3)
    model = RulesFirstClassifier(
        base_estimator=DummyClassifier(strategy="prior"), base_rows=base_rows, random_state=0
    ).fit(X, y)
    base = model.base_estimator_
    assert base.n_features_in_ == X.shape[1] - len(model.rules_)
    assert not set(model.rules_.feature_indices) & set(model.keep_.tolist())
    covered = model.apply_rules(X) >= 0
    assert covered.any()
    rows = np.ones(len(y), bool) if base_rows == "all" else ~covered
    expected = np.bincount(np.searchsorted(model.classes_, y[rows]), minlength=2) / rows.sum()
    assert np.allclose(base.class_prior_, expected)
    if base_rows == "all":  # the covered samples are all positive: the prior is not shifted
        assert base.class_prior_[1] > (y[~covered] == model.classes_[1]).mean()


def test_a_candidate_threshold_binds_only_above_the_bound_the_filters_set():
    """Support s of the rule's label and purity q force sqrt(M) * p >= sqrt(s * q): a
    threshold t below it changes nothing, one above it removes candidates."""
    rng = np.random.default_rng(1)
    X = (rng.random((3000, 400)) < rng.uniform(0.001, 0.05, 400)).astype(float)
    y = rng.integers(0, 2, 3000)
    B = coverage_matrix(X)

    def n(t):
        return len(
            select_candidates(
                B, y, [1], min_support=[None, 4], min_purity=[None, 0.6], threshold=[None, t]
            )
        )

    bound = np.sqrt(4 * 0.6)
    assert n(None) == n(0.5) == n(bound - 1e-9) > 0
    assert n(bound + 1.0) < n(None)


def test_on_the_tweets_every_threshold_binds_and_only_the_score_reading_moves_negatives():
    """§7.2 at its 4:1 balance: 4 negative / 16 positive tweets, purity 0.75 / 0.9, t for
    negative rules and 4t for positive ones. After the support floors ("filters") each
    step of the notebook's grid removes candidates, but below t = 1.73 only positive ones;
    with t in place of the floors ("score") negative candidates change there too."""
    from repro.rules_first import text as tx

    try:
        s = tx._splits("semeval2017_task4a", 0, pos_per_neg=4.0)
    except Exception as err:  # pragma: no cover - data not available
        pytest.skip(f"benchmark data not available: {err}")
    X = make_stem_vectorizer().fit_transform(s.dev_text.iloc[:3000])
    y = (s.dev_y[:3000] == "positive").astype(int)
    cfg = tx.CORPORA["semeval2017_task4a"]

    def cand(t, support):
        return select_candidates(
            coverage_matrix(X),
            y,
            [0, 1],
            min_support=support,
            min_purity=list(cfg["min_purity"]),
            threshold=[t, cfg["pos_ratio"] * t],
        )

    grid = (1.0, 1.3, 1.5, 1.7, 2.0, 2.5)
    for support in (list(cfg["min_support"]), [1, 1]):
        counts = [len(cand(t, support)) for t in grid]
        assert all(a > b for a, b in itertools.pairwise(counts)), counts
    neg = {
        support: [int((cand(t, list(support)).label == 0).sum()) for t in (1.0, 1.5)]
        for support in (cfg["min_support"], (1, 1))
    }
    assert neg[cfg["min_support"]][0] == neg[cfg["min_support"]][1]
    assert neg[(1, 1)][0] > neg[(1, 1)][1]


def test_exact_search_picks_a_planted_rule_where_the_fast_search_picks_noise():
    """With every feature a candidate and a base that overfits (100 features, 200 training
    samples), the current base makes a noise feature look best; refitting the base for each
    candidate, as §7 does, shows the planted rule is."""
    X, y, planted = make_rules_first(300, d=100, k=4, p=0.06, random_state=0)
    kw = {"min_purity": 0.0, "max_rules": 1, "early_stopping": False, "random_state": 0}
    fast = RulesFirstClassifier(search="fast", **kw).fit(X, y)
    exact = RulesFirstClassifier(**kw).fit(X, y)
    assert exact.search == "exact"  # the paper's protocol is the default
    assert fast.rules_.feature_indices[0] not in planted
    assert exact.rules_.feature_indices[0] in planted


def test_exact_search_takes_the_candidate_a_brute_force_refit_finds_best():
    """Every candidate refitted from scratch: the first rule's evaluation-error change is the
    smallest there is (the bound that skips refits, and the shared refit per feature, lose
    nothing)."""
    from sklearn.utils import check_random_state

    X, y, _ = make_rules_first(240, d=30, k=3, p=0.08, random_state=4)
    model = RulesFirstClassifier(
        min_purity=0.0, max_rules=1, early_stopping=False, warm_start=False, random_state=0
    ).fit(X, y)
    perm = check_random_state(0).permutation(len(y))
    n_ev = round(len(y) / 3)
    ev, tr = np.sort(perm[:n_ev]), np.sort(perm[n_ev:])
    template = model._template()

    def eval_errors(rule=None):
        keep = [f for f in range(X.shape[1]) if rule is None or f != rule[0]]
        free_tr = np.ones(len(tr), bool) if rule is None else X[tr, rule[0]] <= 0
        free_ev = np.ones(len(ev), bool) if rule is None else X[ev, rule[0]] <= 0
        base = (
            make_linear("l2")
            .set_params(tol=template.tol)
            .fit(X[tr][free_tr][:, keep], y[tr][free_tr])
        )
        errors = int((base.predict(X[ev][free_ev][:, keep]) != y[ev][free_ev]).sum())
        return errors if rule is None else errors + int((y[ev][~free_ev] != rule[1]).sum())

    now = eval_errors()
    best = min(
        eval_errors((j, c)) - now
        for j in range(X.shape[1])
        for c in (0, 1)
        if (X[tr, j] > 0).any() or (X[ev, j] > 0).any()
    )
    assert model.history_[0]["delta_eval_loss"] == best


def test_warm_and_cold_refits_choose_the_same_rules():
    X, y, _ = make_rules_first(600, d=60, k=6, p=0.04, random_state=1)
    kw = {"min_purity": 0.0, "max_rules": 4, "early_stopping": False, "random_state": 0}
    warm = RulesFirstClassifier(**kw).fit(X, y)
    cold = RulesFirstClassifier(warm_start=False, **kw).fit(X, y)
    assert warm.rules_.feature_indices == cold.rules_.feature_indices
    assert warm.eval_error_ == cold.eval_error_


def _fake_tweets(n_pos=1300, n_neg=400):
    import pandas as pd

    n = n_pos + n_neg
    X = pd.DataFrame({"text": [f"tweet {i}" for i in range(n)]})
    y = pd.Series([1] * n_pos + [0] * n_neg)
    meta = pd.DataFrame({"split": ["train"] * (n - 50) + ["test"] * 50})
    return lambda name, with_meta: (X, y, meta)


def test_a_four_to_one_draw_has_four_positives_per_negative_in_each_split():
    from repro.rules_first.tweets import text_splits

    s = text_splits("fake", 400, 800, seed=3, pos_per_neg=4.0, loader=_fake_tweets())
    for labels, n in ((s.dev_y, 400), (s.test_y, 800)):
        assert len(labels) == n and (labels == "positive").sum() == 4 * (labels == "negative").sum()
    assert not set(s.dev_text) & set(s.test_text)
    assert "4 label-1 rows per label-0 row" in s.description
    with pytest.raises(ValueError, match="needs 1066 and 534"):  # the pool has 350 negatives
        text_splits("fake", 800, 800, pos_per_neg=2.0, loader=_fake_tweets())


def test_threshold_is_chosen_on_the_evaluation_accuracy_of_the_linear_greedy():
    import pandas as pd

    from repro.rules_first.summary import chosen_threshold

    rows = [
        {
            "method": "greedy",
            "variant": v,
            "fold": -1,
            "threshold": t,
            "seed": s,
            "accuracy": acc,
            "eval_accuracy": ev,
        }
        for v, t, s, acc, ev in [
            ("linear", 1.5, 0, 0.9, 0.80),
            ("linear", 1.7, 0, 0.8, 0.84),
            ("linear", 1.5, 1, 0.9, 0.82),
            ("linear", 1.7, 1, 0.8, 0.80),
            ("nn", 1.5, 0, 0.9, 0.99),
        ]
    ]
    sweep = pd.DataFrame(rows)
    assert chosen_threshold(sweep) == 1.7  # mean evaluation accuracy 0.82 vs 0.81
    assert np.isnan(chosen_threshold(sweep, "cv"))  # no cross-validation rows


@pytest.mark.parametrize("sparse", [False, True])
def test_lean_refit_is_the_estimators_fit(sparse):
    """The exact search's refit without one column and some rows reaches the coefficients
    ``LogisticRegression.fit`` reaches from the same start."""
    from rulelab.rulesfirst._refit import LogisticRefit
    from rulelab.rulesfirst._search import fit_warm

    X, y, _ = make_rules_first(500, d=40, k=4, p=0.05, random_state=3)
    X = sp.csr_matrix(X) if sparse else X
    template = make_linear("l2").set_params(tol=1e-8)
    keep = np.arange(1, X.shape[1])  # the current base already lost column 0
    current = template.fit(X[:, keep], y)
    lean = LogisticRefit(X, y, keep, current)
    assert LogisticRefit.applies(current, X)
    j = 5  # the candidate: its rows leave the base, its column is held at zero
    col = X[:, keep[j]]
    rows = ~(np.asarray(col.todense() if sparse else col).ravel() > 0)
    w = lean.refit(j, rows)
    keep_j = np.delete(keep, j)
    init = (current.classes_, np.delete(current.coef_, j, axis=1), current.intercept_)
    ref = fit_warm(template, X[rows][:, keep_j], y[rows], 0, init)
    assert w[j] == 0.0
    np.testing.assert_allclose(np.delete(w[:-1], j), ref.coef_.ravel(), atol=1e-5)
    np.testing.assert_allclose(w[-1], ref.intercept_[0], atol=1e-5)
    A = lean.design(X[~rows])
    np.testing.assert_allclose(
        lean.proba(A, w, 2), ref.predict_proba(X[~rows][:, keep_j]), atol=1e-6
    )


def test_lean_and_estimator_refits_choose_the_same_rules(monkeypatch):
    from rulelab.rulesfirst._refit import LogisticRefit

    X, y, _ = make_rules_first(600, d=60, k=6, p=0.04, random_state=1)
    kw = {"min_purity": 0.0, "max_rules": 4, "early_stopping": False, "random_state": 0}
    lean = RulesFirstClassifier(**kw).fit(X, y)
    monkeypatch.setattr(LogisticRefit, "applies", staticmethod(lambda model, X: False))
    plain = RulesFirstClassifier(**kw).fit(X, y)
    assert lean.rules_.feature_indices == plain.rules_.feature_indices
    assert [h["delta_eval_loss"] for h in lean.history_] == [
        h["delta_eval_loss"] for h in plain.history_
    ]


def _l1_objective(coef, intercept, X, y, C=1.0):
    """liblinear's l1 problem: |w|_1 + |b| + C sum log(1 + exp(-s <w, x>)), s = +-1."""
    s = np.where(y == 1, 1.0, -1.0)
    z = X @ coef + intercept
    return np.abs(coef).sum() + abs(intercept) + C * np.logaddexp(0, -s * z).sum()


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_warm_l1_refit_reaches_liblinears_optimum():
    """Started from the current l1 base, the refit without a column and its rows reaches
    the optimum liblinear reaches from zero at a tight tolerance."""
    from rulelab.rulesfirst._l1 import L1LogisticRefit

    X, y, _ = make_rules_first(500, d=40, k=4, p=0.05, random_state=3)
    keep = np.arange(1, X.shape[1])
    current = make_linear("l1").fit(X[:, keep], y)
    assert L1LogisticRefit.applies(current, X)
    refit = L1LogisticRefit(X, y, keep, current)
    for j in (3, len(keep) - 1):  # a noise feature, a planted rule feature
        rows = ~(X[:, keep[j]] > 0)
        w = refit.refit(j, rows)
        kj = np.delete(keep, j)
        tight = make_linear("l1").set_params(tol=1e-10, max_iter=10_000)
        tight.fit(X[rows][:, kj], y[rows])
        ours = _l1_objective(np.delete(w[:-1], j), w[-1], X[rows][:, kj], y[rows])
        best = _l1_objective(tight.coef_.ravel(), tight.intercept_[0], X[rows][:, kj], y[rows])
        assert w[j] == 0.0
        assert ours <= best + 1e-6 * abs(best)
        np.testing.assert_allclose(np.delete(w[:-1], j), tight.coef_.ravel(), atol=1e-3)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_warm_l1_search_chooses_what_a_tight_liblinear_chooses(monkeypatch):
    """The warm l1 refits stop nearer the optimum than liblinear's default tolerance, so
    the search takes the rules that refits from zero at a tight tolerance take."""
    from rulelab.rulesfirst._l1 import L1LogisticRefit

    X, y, _ = make_rules_first(600, d=60, k=6, p=0.04, random_state=1)
    kw = {"min_purity": 1.0, "max_rules": 5, "early_stopping": False, "random_state": 0}
    warm = RulesFirstClassifier(penalty="l1", **kw).fit(X, y)
    monkeypatch.setattr(L1LogisticRefit, "applies", staticmethod(lambda model, X: False))
    tight = make_linear("l1").set_params(tol=1e-7, max_iter=10_000)
    cold = RulesFirstClassifier(base_estimator=tight, **kw).fit(X, y)
    assert warm.rules_.feature_indices == cold.rules_.feature_indices


@pytest.mark.parametrize("sparse", [False, True])
def test_the_direct_lbfgsb_loop_returns_scipys_minimiser_bit_for_bit(sparse):
    """The exact search's refits drive scipy's L-BFGS-B step routine themselves; on a logistic
    problem with a held coefficient (dense and sparse designs) they must give what
    ``scipy.optimize.minimize`` gives, to the last bit, from a cold and a warm start."""
    from rulelab.rulesfirst import _refit

    assert _refit._step_routine() is not None  # this scipy's routine is the one driven
    rng = np.random.default_rng(3)
    A = (rng.random((300, 25)) < 0.2).astype(float)
    A[:, -1] = 1.0
    t = (A[:, :5].sum(axis=1) + rng.normal(0, 0.7, 300) > 1).astype(float)
    if sparse:
        A = sp.csr_matrix(A)
    args = (A, A.T.tocsr() if sparse else A.T, t, 0.05, 3)
    for x0 in (np.zeros(25), rng.normal(0, 0.3, 25)):
        x0[3] = 0.0
        options = dict(maxiter=100, maxls=50, gtol=1e-4, ftol=64 * np.finfo(float).eps)
        ours = _refit.lbfgsb(_refit._loss_grad, x0, args, **options)
        theirs = optimize.minimize(
            _refit._loss_grad, x0, args=args, method="L-BFGS-B", jac=True, options=options
        ).x
        assert np.array_equal(ours, theirs)
        assert ours[3] == 0.0  # the held coefficient stays where it started


def test_a_refit_within_the_steps_rows_is_the_refit_on_its_own_rows_bit_for_bit():
    """On a sparse design a step's refits may share one slice of the rows they can use
    (``restrict``); each refit must still be the fit on its own rows, to the last bit."""
    from sklearn.linear_model import LogisticRegression

    from rulelab.rulesfirst._refit import LogisticRefit

    rng = np.random.default_rng(5)
    X = sp.csr_matrix((rng.random((400, 30)) < 0.1).astype(float))
    y = (np.asarray(X[:, :4].sum(axis=1)).ravel() + rng.normal(0, 0.5, 400) > 0.5).astype(int)
    keep = np.arange(1, 30)
    model = LogisticRegression().fit(X[:, keep], y)
    step = rng.random(400) < 0.8  # the rows of this step's base
    plain, shared = LogisticRefit(X, y, keep, model), LogisticRefit(X, y, keep, model)
    shared.restrict(step)
    for column in (0, 7, 19):
        rows = step & (rng.random(400) < 0.9)  # a candidate covers some of them
        w = shared.refit(column, rows)
        assert np.array_equal(w, plain.refit(column, rows)) and w[column] == 0.0
    outside = ~step  # rows beyond the step's: the refit slices them itself
    assert np.array_equal(shared.refit(3, outside | step), plain.refit(3, outside | step))


def _choice(cand, alive, d_ev, d_tr, new):
    """The candidate the greedy step takes (its lexsort of rounded changes)."""
    idx = np.flatnonzero(alive & (new > 0))
    r_ev, r_tr = np.round(d_ev, 9), np.round(d_tr, 9)
    order = np.lexsort((idx, -cand.score[idx], -cand.purity[idx], r_tr[idx], r_ev[idx]))
    return idx[order[0]]


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(("penalty", "sparse"), [("l2", True), ("l2", False), ("l1", False)])
def test_each_step_takes_the_candidate_an_evaluation_of_every_candidate_takes(
    monkeypatch, penalty, sparse, seed
):
    """The exact step skips work for candidates that cannot be chosen (no refit above the
    best bound, no training change above the best evaluation change); at every step its
    choice is the one every candidate evaluated in full gives: each feature evaluated
    alone, from the same start, so that nothing is skipped."""
    X, y, _ = make_rules_first(300, d=30, k=4, p=0.08, random_state=seed)
    X = sp.csr_matrix(X) if sparse else X
    plain = RulesFirstClassifier._exact_deltas
    steps = []

    def checked(self, cand, q, alive, split, chosen, template, log, current):
        d_ev, d_tr, new = plain(self, cand, q, alive, split, chosen, template, log, current)
        full_ev, full_tr, full_new = np.zeros(len(cand)), np.zeros(len(cand)), new.copy()
        for j in np.unique(cand.feature[alive]):
            one = alive & (cand.feature == j)
            e, t, n = plain(self, cand, q, one, split, chosen, template, log, current)
            full_ev[one], full_tr[one], full_new[one] = e[one], t[one], n[one]
        assert np.array_equal(new, full_new)
        if (alive & (new > 0)).any():
            steps.append(_choice(cand, alive, d_ev, d_tr, new))
            assert steps[-1] == _choice(cand, alive, full_ev, full_tr, full_new)
            assert d_ev[steps[-1]] == full_ev[steps[-1]]
            assert d_tr[steps[-1]] == full_tr[steps[-1]]
        return d_ev, d_tr, new

    monkeypatch.setattr(RulesFirstClassifier, "_exact_deltas", checked)
    kw = {"min_purity": 0.0, "max_rules": 4, "early_stopping": False, "random_state": seed}
    RulesFirstClassifier(penalty=penalty, **kw).fit(X, y)
    assert len(steps) == 4


def test_a_sparse_refits_products_are_scipys_bit_for_bit():
    """The lean refit multiplies a CSR design by scipy's own kernel, called directly, and
    reads a slice of rows' margins from all the rows': both are ``A[rows] @ w``, bit for
    bit."""
    from sklearn.linear_model import LogisticRegression

    from rulelab.rulesfirst._refit import _CSR, LogisticRefit

    rng = np.random.default_rng(7)
    A = sp.csr_matrix((rng.random((200, 40)) < 0.15) * rng.normal(size=(200, 40)))
    w = rng.normal(size=40)
    assert isinstance(_CSR.of(A), _CSR)
    assert np.array_equal(_CSR.of(A) @ w, A @ w)
    r = rng.normal(size=200)
    assert np.array_equal(_CSR.of(A.T.tocsr()) @ r, A.T @ r)
    X, y = sp.csr_matrix((rng.random((200, 12)) < 0.3).astype(float)), rng.integers(0, 2, 200)
    keep = np.arange(1, 12)
    lean = LogisticRefit(X, y, keep, LogisticRegression().fit(X[:, keep], y))
    rows, coef = rng.random(200) < 0.6, rng.normal(size=12)
    D = lean.design(X)
    assert np.array_equal(lean.proba(D, coef, 2, rows=rows), lean.proba(D[rows], coef, 2))


@pytest.mark.parametrize("name", ["RulesFirstClassifier", "GreedyRule", "BoostRule"])
def test_a_boolean_column_reads_flag_is_true_in_print_and_in_every_sql_dialect(name):
    """A rule on a boolean column is ``flag == True``: the same rows as ``flag > 0``, and
    PostgreSQL, which refuses a boolean compared with an integer, reads it too."""
    import pandas as pd

    import rulelab

    rng = np.random.default_rng(0)
    X = pd.DataFrame({"flag": rng.random(300) < 0.3, "x": rng.random(300)})
    y = (X.flag | (X.x > 0.9)).astype(int)
    model = getattr(rulelab, name)().fit(X, y)
    numbers = getattr(rulelab, name)().fit(X.astype({"flag": float}), y)
    assert np.array_equal(model.predict(X), numbers.predict(X.astype({"flag": float})))
    text = str(model.rules_)
    assert "flag == True" in text and "flag > 0" not in text
    lists = model.rules_.members if name == "BoostRule" else [model.rules_]  # a vote: each round
    sql = " ".join(rules.to_sql(dialect="postgresql") for rules in lists)
    assert '"flag" = TRUE' in sql and '"flag" > 0' not in sql
