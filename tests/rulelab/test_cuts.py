"""Refined cut points: exact, never worse on the training objective, NaN-safe."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from rulelab import ColumnGenerationRules
from rulelab.cuts import refine_cuts, rule_objective
from rulelab.rules import CNF, DNF, Clause, Term


def _frame(n, seed, n_features=3, nan_share=0.0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(
        rng.standard_normal((n, n_features)), columns=[f"x{j}" for j in range(n_features)]
    )
    if nan_share:
        X = X.mask(rng.random(X.shape) < nan_share)
    return X


def _gap_around(values, cut):
    """The largest training value at or below ``cut`` and the smallest above it."""
    values = values[~np.isnan(values)]
    return values[values <= cut].max(), values[values > cut].min()


@pytest.mark.parametrize("op", ["<=", ">"])
def test_refining_recovers_an_off_grid_cut_within_the_datas_resolution(op):
    X = _frame(2000, seed=1)
    truth = DNF([Clause((Term("x0", op, 0.37), Term("x1", ">", -0.2)))])
    y = truth.evaluate(X)
    grid = DNF([Clause((Term("x0", op, 0.604), Term("x1", ">", -0.113)))])
    refined = refine_cuts(grid, X, y)
    # a cut can only be placed between the values of the rows where it matters: those
    # where the clause's other term holds
    lo, hi = _gap_around(X["x0"].to_numpy()[X["x1"].to_numpy() > -0.2], 0.37)
    lo1, hi1 = _gap_around(X["x1"].to_numpy()[truth.clauses[0].terms[0].evaluate(X)], -0.2)
    ((t0, t1),) = [c.terms for c in refined.clauses]
    assert (t0.feature, t0.op) == ("x0", op) and lo <= t0.value < hi
    assert (t1.feature, t1.op) == ("x1", ">") and lo1 <= t1.value < hi1
    assert np.array_equal(refined.evaluate(X), y)


def test_a_cnf_is_refined_through_its_dual_and_recovers_its_cuts():
    X = _frame(2000, seed=2)
    truth = CNF([Clause((Term("x0", "<=", 0.37), Term("x1", ">", 0.8)), "or")])
    y = truth.evaluate(X)
    grid = CNF([Clause((Term("x0", "<=", 0.1), Term("x1", ">", 1.2)), "or")])
    refined = refine_cuts(grid, X, y)
    assert isinstance(refined, CNF)
    assert np.array_equal(refined.evaluate(X), y)
    ((t0, t1),) = [c.terms for c in refined.clauses]
    lo, hi = _gap_around(X["x0"].to_numpy()[X["x1"].to_numpy() <= 0.8], 0.37)
    assert (t0.op, t1.op) == ("<=", ">") and lo <= t0.value < hi


def _random_rule(rng, n_clauses=3, n_features=3):
    clauses = []
    for _ in range(n_clauses):
        features = rng.choice(n_features, size=rng.integers(1, 4), replace=True)
        clauses.append(
            Clause(
                tuple(
                    Term(f"x{f}", rng.choice(["<=", ">"]), float(np.round(rng.normal(), 2)))
                    for f in features
                )
            )
        )
    return DNF(clauses)


@pytest.mark.parametrize("seed", range(8))
def test_the_objective_never_increases(seed):
    rng = np.random.default_rng(seed)
    X = _frame(600, seed, nan_share=0.1 if seed % 2 else 0.0)
    y = (_random_rule(rng).evaluate(X) ^ (rng.random(len(X)) < 0.15)).astype(int)
    w = rng.uniform(0.5, 2.0, len(X))
    rule = _random_rule(rng)
    if seed >= 4:
        rule = CNF([Clause(tuple(t.negate() for t in c.terms), "or") for c in rule.clauses])
    costs = {
        "clause_cost": float(rng.uniform(0, 10)),
        "term_cost": float(rng.uniform(0, 5)),
        "negative_weight": float(rng.uniform(0.5, 2.0)),
    }
    before = rule_objective(rule, X, y, w, **costs)
    refined = refine_cuts(rule, X, y, w, **costs)
    assert rule_objective(refined, X, y, w, **costs) <= before + 1e-9


@pytest.mark.parametrize("seed", range(4))
def test_one_cut_is_the_brute_force_best_over_every_observed_cut(seed):
    # a one-term rule: the sweep must find the best of all cuts between observed values
    # (missing values counted, never covered), or no clause at all if that is better
    X = _frame(300, seed, nan_share=0.1)
    rng = np.random.default_rng(seed)
    y = ((X["x0"] > 0.2).to_numpy() ^ (rng.random(len(X)) < 0.2)).astype(int)
    w = rng.uniform(0.5, 2.0, len(X))
    refined = refine_cuts(DNF([Clause((Term("x0", ">", 1.5),))]), X, y, w, max_rounds=1)
    values = np.unique(X["x0"].dropna())
    cuts = (values[:-1] + values[1:]) / 2
    rules = [DNF([Clause((Term("x0", ">", c),))]) for c in cuts] + [DNF([])]
    best = min(rule_objective(r, X, y, w) for r in rules)
    assert rule_objective(refined, X, y, w) == pytest.approx(best)


def test_redundant_terms_are_merged_and_the_rule_is_unchanged_on_training_data():
    X = _frame(500, seed=3)
    rule = DNF(
        [
            Clause(
                (
                    Term("x0", ">", -1.34),
                    Term("x0", ">", 0.604),
                    Term("x1", "<=", -0.113),
                    Term("x1", "<=", 1.34),
                )
            )
        ]
    )
    y = rule.evaluate(X)
    merged = refine_cuts(rule, X, y, max_rounds=0)
    assert str(merged.clauses[0]) == "x0 > 0.604 AND x1 <= -0.113"
    assert np.array_equal(merged.evaluate(X), rule.evaluate(X))


def test_of_an_interval_only_the_binding_side_is_kept():
    X = _frame(500, seed=4)
    y = (X["x0"] > 0.3).to_numpy()
    above_all = float(X["x0"].max()) + 1.0  # x0 <= this binds on no training row
    rule = DNF([Clause((Term("x0", ">", 0.3), Term("x0", "<=", above_all)))])
    refined = refine_cuts(rule, X, y, term_cost=1.0)
    assert [(t.feature, t.op) for t in refined.clauses[0].terms] == [("x0", ">")]
    assert np.array_equal(refined.evaluate(X), y)


def test_missing_values_keep_their_meaning():
    # the positives are x0 > 0 and every row where x0 is missing: no cut takes the missing
    # rows in (a comparison with a missing value is False), so the refined term stays a
    # comparison that leaves them out, and the objective counts them as uncovered
    X = _frame(1000, seed=5)
    X.loc[X.index[:100], "x0"] = np.nan
    y = ((X["x0"] > 0) | X["x0"].isna()).to_numpy()
    rule = DNF([Clause((Term("x0", ">", 0.5), Term("x1", "is not missing")))])
    refined = refine_cuts(rule, X, y)
    term = refined.clauses[0].terms[0]
    assert term.op == ">" and not refined.evaluate(X)[X["x0"].isna().to_numpy()].any()
    assert rule_objective(refined, X, y) == 100  # exactly the missing rows
    # only dropping the term takes the missing rows in: priced, and taken when it pays
    y_all = np.ones(len(X), dtype=bool)
    dropped = refine_cuts(rule, X, y_all, clause_cost=1.0, term_cost=1.0)
    assert str(dropped.clauses[0]) == "x1 is not missing"
    assert rule_objective(dropped, X, y_all, clause_cost=1.0, term_cost=1.0) == 2.0


def test_an_integer_feature_gets_an_observed_integer_cut():
    rng = np.random.default_rng(6)
    X = pd.DataFrame({"age": rng.integers(18, 90, 800), "x": rng.standard_normal(800)})
    y = (X["age"] > 41).to_numpy()
    refined = refine_cuts(DNF([Clause((Term("age", ">", 50.0),))]), X, y)
    assert str(refined.clauses[0]) == "age > 41"


def test_bad_input_is_named():
    X = _frame(50, seed=7)
    rule = DNF([Clause((Term("z", ">", 0.0),))])
    with pytest.raises(ValueError, match="'z'"):
        refine_cuts(rule, X, np.zeros(50))
    with pytest.raises(ValueError, match="0/1"):
        refine_cuts(DNF([Clause((Term("x0", ">", 0.0),))]), X, np.full(50, 2))
    with pytest.raises(TypeError, match="DNF or a CNF"):
        refine_cuts(Clause((Term("x0", ">", 0.0),)), X, np.zeros(50))


@pytest.mark.parametrize("form", ["dnf", "cnf"])
def test_the_estimator_refines_under_its_own_objective(form):
    X = _frame(1500, seed=8, n_features=4)
    rng = np.random.default_rng(8)
    truth = DNF(
        [Clause((Term("x0", ">", 0.45), Term("x1", "<=", 0.1))), Clause((Term("x2", ">", 1.05),))]
    )
    y = truth.evaluate(X).astype(int)
    if form == "cnf":
        y = 1 - y
    y = y ^ (rng.random(len(X)) < 0.03)
    model = ColumnGenerationRules(form=form, complexity=0.005).fit(X, y)
    clause = term = 0.005 * len(X)
    costs = {"clause_cost": clause, "term_cost": term}
    # the grid rule scores exactly as column generation's integer program counted it
    assert rule_objective(model.grid_rules_, X, y, **costs) == pytest.approx(model.objective_)
    assert model.refined_objective_ == pytest.approx(rule_objective(model.rules_, X, y, **costs))
    assert model.refined_objective_ <= model.objective_ + 1e-9
    plain = ColumnGenerationRules(form=form, complexity=0.005, refine_cuts=False).fit(X, y)
    assert str(plain.rules_) == str(model.grid_rules_) and plain.refined_objective_ is None


def test_a_cut_at_the_end_of_a_free_stretch_moves_to_its_middle_and_frees_a_term():
    """Setosa's rule on the grid read ``sepal width > 2.80 AND petal length <= 3.52``: no
    grid cut lies between setosa's petals (below 1.9) and the next class's (from 3.0), and
    at 3.52 the sepal-width term keeps out versicolor, so moving the cut alone gained
    nothing. Centred in its stretch, the cut lets the other term go: one term, no error."""
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True, as_frame=True)
    setosa = (y == 0).astype(int)
    grid = DNF(
        [Clause((Term("sepal width (cm)", ">", 2.8), Term("petal length (cm)", "<=", 3.52)))]
    )
    refined = refine_cuts(grid, X, setosa, clause_cost=1.0, term_cost=1.0)
    (clause,) = refined.clauses
    (term,) = clause.terms
    assert term.feature == "petal length (cm)" and 1.9 < term.value < 3.0
    assert np.array_equal(refined.evaluate(X), setosa.to_numpy(bool))
    assert rule_objective(refined, X, setosa, clause_cost=1.0, term_cost=1.0) < rule_objective(
        grid, X, setosa, clause_cost=1.0, term_cost=1.0
    )
    # a threshold the user gave moves only to a strictly better cut, never for a tie
    kept = refine_cuts(
        grid, X, setosa, clause_cost=1.0, term_cost=1.0, given={"petal length (cm)": [3.52]}
    )
    assert "petal length (cm) <= 3.52" in str(kept)


def test_the_ordered_list_refines_each_classs_cuts():
    """The multiclass list skipped the refinement (refine_cuts=True and False gave the same
    list); setosa's rule is now one term that separates it exactly."""
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True, as_frame=True)
    refined = ColumnGenerationRules(random_state=0).fit(X, y)
    grid = ColumnGenerationRules(random_state=0, refine_cuts=False).fit(X, y)
    first = refined.rules_.clauses[0]
    assert refined.rules_.labels[0] == 0 and len(first.terms) == 1
    assert np.array_equal(first.evaluate(X), (y == 0).to_numpy())
    assert str(refined.rules_) != str(grid.rules_)
    assert refined.score(X, y) >= grid.score(X, y)
