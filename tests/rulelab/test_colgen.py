"""Column generation (ColumnGenerationRules): exact pricing, certificates, recovery."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import GridSearchCV, RepeatedStratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import check_estimator

from rulelab import ColumnGenerationRules, FeatureBinarizer, SetCoverRules
from rulelab.colgen import ColumnGenerator, column_generation, price_beam, price_exact, price_milp
from rulelab.colgen._inner_cv import _race_forms
from rulelab.colgen._options import IntegerOptions, PricingOptions
from rulelab.colgen._rows import BitMatrix, FoldArrangement
from rulelab.colgen.master import RuleSetMaster
from rulelab.colgen.pricing import reduced_costs
from rulelab.itemsets import pack_bit_rows, pack_rows
from rulelab.rules import DNF, Clause

EXACT = dict(form="dnf", columns_per_round=10, integer_time_limit=30, pricing_time_limit=None)


# ---- planted rule sets ------------------------------------------------------------------------
def planted_problem(n_samples: int, n_clauses: int, seed: int):
    """Categorical and integer columns, and a DNF of ``n_clauses`` clauses of 2-4 terms over
    them whose thresholds are cut points of the default binariser (so it is learnable)."""
    r = np.random.default_rng(seed)
    levels = ["red", "green", "blue", "grey"]
    X = pd.DataFrame({f"c{j}": r.choice(levels, n_samples) for j in range(4)})
    for j in range(4):
        X[f"n{j}"] = r.integers(0, 8, n_samples)
    binarizer = FeatureBinarizer().fit(X)
    by_feature: dict = {}
    for term in binarizer.terms_:
        if term.op in ("==", "<=", ">"):
            by_feature.setdefault(term.feature, []).append(term)
    clauses: list[Clause] = []
    while len(clauses) < n_clauses:
        size = int(r.integers(2, 5))
        features = r.choice(sorted(by_feature), size=size, replace=False)
        terms = tuple(by_feature[f][r.integers(len(by_feature[f]))] for f in features)
        clause = Clause(terms, "and")
        share = clause.evaluate(X).mean()
        # every clause must cover enough rows to be identifiable, and some of its own
        others = DNF(clauses).evaluate(X) if clauses else np.zeros(n_samples, bool)
        if share >= 0.03 and (clause.evaluate(X) & ~others).sum() >= 15:
            clauses.append(clause)
    rule = DNF(clauses, then="1")
    return X, pd.Series(rule.evaluate(X).astype(int), name="y"), rule


@pytest.mark.parametrize("n_clauses", [4, 7, 10])
@pytest.mark.parametrize("seed", range(3))
def test_recovers_planted_dnf_of_several_clauses(n_clauses, seed):
    X, y, rule = planted_problem(3000, n_clauses, seed)
    model = ColumnGenerationRules(complexity=1e-4, max_terms=4, **EXACT).fit(X, y)
    print("planted:", rule, "learned:", model, model.certificate(), sep="\n")
    fresh = planted_problem(20000, n_clauses, seed + 100)[0]  # same columns, new rows
    assert model.score(X, y) == 1.0
    assert np.array_equal(model.predict(fresh), rule.evaluate(fresh).astype(int))
    assert model.lower_bound_ is not None and model.lower_bound_ <= model.objective_ + 1e-6


def test_recovers_equality_of_two_categorical_attributes():
    r = np.random.default_rng(0)
    X = pd.DataFrame(
        {
            "a": r.choice(list("pqrs"), 1500),
            "b": r.choice(list("pqrs"), 1500),
            "c": r.choice(list("pqrs"), 1500),
        }
    )
    y = (X.a == X.b).astype(int)
    model = ColumnGenerationRules(complexity=1e-4, max_terms=2, **EXACT).fit(X, y)
    print(model)
    assert model.score(X, y) == 1.0
    assert len(model.rules_.clauses) == 4
    assert {
        frozenset((t.feature, t.op, t.value) for t in c.terms) for c in model.rules_.clauses
    } == {frozenset({("a", "==", v), ("b", "==", v)}) for v in "pqrs"}


def test_printout_is_the_rule_that_predicts():
    X, y, _ = planted_problem(800, 3, seed=5)
    model = ColumnGenerationRules(complexity=0.002).fit(X, y)
    assert str(model) == str(model.rules_)
    assert str(model).startswith("IF ") and str(model).endswith("THEN 1")
    assert np.array_equal(model.predict(X), model.rules_.evaluate(X).astype(int))
    assert len(model.explain(X)) == len(X)


# ---- pricing ----------------------------------------------------------------------------------
def random_duals(seed: int, n: int = 120, m: int = 9):
    r = np.random.default_rng(seed)
    A = (r.random((n, m)) < r.uniform(0.3, 0.8, m)).astype(np.uint8)
    y = r.random(n) < 0.4
    mu = np.where(y, r.choice([0.0, 0.3, 1.0, 1.0], n), 0.0)
    cost_neg = np.where(y, 0.0, r.choice([0.5, 1.0], n))
    return A, y, mu, cost_neg


def brute_force(A, mu, cost_neg, fixed, per_term, max_terms):
    items = range(A.shape[1])
    sets = [s for k in range(1, max_terms + 1) for s in itertools.combinations(items, k)]
    values = reduced_costs(A, sets, mu, cost_neg, fixed, per_term)
    return sets, values


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("screening", [True, False])
def test_exact_pricing_matches_brute_force(seed, screening):
    A, _, mu, cost_neg = random_duals(seed)
    fixed, per_term, max_terms = [(1.0, 0.5, 3), (0.2, 2.0, 2), (3.0, 0.0, 4)][seed % 3]
    sets, values = brute_force(A, mu, cost_neg, fixed, per_term, max_terms)
    found = price_exact(
        A,
        mu,
        cost_neg,
        fixed=fixed,
        per_term=per_term,
        max_terms=max_terms,
        n_columns=5,
        screening=screening,
    )
    assert found.exact
    best = values.min()
    if best < 0:
        assert found.best == pytest.approx(best)
        # the five lowest reduced costs, in order
        below = np.sort(values[values < 0])[:5]
        assert np.allclose(found.reduced_costs, below)
        # and each reported value is the itemset's true reduced cost
        assert np.allclose(
            reduced_costs(A, found.itemsets, mu, cost_neg, fixed, per_term), found.reduced_costs
        )
    else:
        assert found.itemsets == []


@pytest.mark.parametrize("seed", range(4))
def test_exact_pricing_enumerates_everything_below_a_positive_threshold(seed):
    A, y, mu, cost_neg = random_duals(seed)
    sets, values = brute_force(A, mu, cost_neg, 1.0, 0.5, 3)
    found = price_exact(
        A,
        mu,
        cost_neg,
        fixed=1.0,
        per_term=0.5,
        max_terms=3,
        n_columns=10**4,
        threshold=2.0,
        merge_equal=False,
        positives=y,
    )
    covers = {s: tuple(A[:, list(s)].all(axis=1)) for s in sets}
    # every conjunction below the threshold is found, or one covering the same rows for less
    got = {covers[s]: v for s, v in zip(found.itemsets, found.reduced_costs)}
    for s, v in zip(sets, values):
        if v < 2.0 and any(covers[s]):
            assert covers[s] in got and got[covers[s]] <= v + 1e-9


@pytest.mark.parametrize("seed", range(4))
def test_milp_and_beam_pricing_agree_with_the_exact_search(seed):
    A, _, mu, cost_neg = random_duals(seed)
    exact = price_exact(A, mu, cost_neg, fixed=0.5, per_term=0.5, max_terms=3)
    milp = price_milp(A, mu, cost_neg, fixed=0.5, per_term=0.5, max_terms=3)
    beam = price_beam(A, mu, cost_neg, fixed=0.5, per_term=0.5, max_terms=3)
    assert milp.exact and milp.best == pytest.approx(min(exact.best, milp.best))
    if exact.itemsets:
        assert milp.best == pytest.approx(exact.best)
        assert beam.best >= exact.best - 1e-9  # beam search proves nothing, finds no less


@pytest.mark.parametrize("seed", range(4))
def test_beam_pricing_reports_true_reduced_costs_and_is_exhaustive_when_wide(seed):
    A, _, mu, cost_neg = random_duals(seed)
    mu = 3 * mu  # duals large enough that many conjunctions price out
    beam = price_beam(A, mu, cost_neg, fixed=0.1, per_term=0.1, max_terms=3, n_columns=20)
    assert beam.itemsets and len(set(beam.itemsets)) == len(beam.itemsets)
    assert all(0 < len(s) <= 3 and list(s) == sorted(s) for s in beam.itemsets)
    assert np.allclose(reduced_costs(A, beam.itemsets, mu, cost_neg, 0.1, 0.1), beam.reduced_costs)
    assert np.all(np.diff(beam.reduced_costs) >= -1e-9) and np.all(beam.reduced_costs < 0)
    # a beam as wide as the items extends every item by every item: all pairs are met
    _, values = brute_force(A, mu, cost_neg, 0.1, 0.1, 2)
    wide = price_beam(
        A, mu, cost_neg, fixed=0.1, per_term=0.1, max_terms=2, width=A.shape[1], screening=False
    )
    if values.min() < 0:
        assert wide.best == pytest.approx(values.min())
    else:
        assert wide.itemsets == []


def test_screening_never_drops_an_item_of_an_improving_column():
    for seed in range(10):
        A, _, mu, cost_neg = random_duals(seed)
        sets, values = brute_force(A, mu, cost_neg, 1.0, 0.5, 3)
        with_screening = price_exact(
            A,
            mu,
            cost_neg,
            fixed=1.0,
            per_term=0.5,
            max_terms=3,
            n_columns=10**4,
            merge_equal=False,
        )
        improving = {s for s, v in zip(sets, values) if v < -1e-12}

        def covers(s, A=A):
            return tuple(A[:, list(s)].all(axis=1))

        assert {covers(s) for s in improving} <= {covers(s) for s in with_screening.itemsets}


# ---- the master problem and the certificate ------------------------------------------------
def dnf_objective(A, y, itemsets, fixed, per_term):
    """Uncovered positives + covered negatives counted once per clause + complexity."""
    covered = np.zeros(len(y), bool)
    cost = 0.0
    for s in itemsets:
        fires = A[:, list(s)].all(axis=1)
        covered |= fires
        cost += fixed + per_term * len(s) + (fires & ~y).sum()
    return cost + (y & ~covered).sum()


@pytest.mark.parametrize("seed", range(8))
def test_rule_set_is_the_brute_force_optimum_and_the_bound_holds(seed):
    r = np.random.default_rng(seed)
    A = (r.random((60, 5)) < 0.5).astype(np.uint8)
    y = r.random(60) < 0.45
    fixed, per_term = [(1.0, 1.0), (2.0, 0.5), (0.5, 0.5), (3.0, 1.0)][seed % 4]
    conj = [s for k in (1, 2) for s in itertools.combinations(range(5), k)]
    best = min(
        dnf_objective(A, y, sub, fixed, per_term)
        for n in range(0, 6)
        for sub in itertools.combinations(conj, n)
    )
    res = column_generation(
        A, y, clause_cost=fixed, term_cost=per_term, max_terms=2, integer_time_limit=30
    )
    chosen = [res.pool[k] for k in np.flatnonzero(res.chosen)]
    assert res.lower_bound is not None and res.lower_bound <= best + 1e-6
    assert res.objective == pytest.approx(dnf_objective(A, y, chosen, fixed, per_term))
    assert res.proved_optimal
    assert res.objective == pytest.approx(best)


@pytest.mark.parametrize("seed", range(3))
def test_the_order_of_beam_and_exact_pricing_does_not_change_the_certified_lp(seed):
    A, y, _, _ = random_duals(seed, n=300, m=10)
    runs = {
        order: column_generation(
            A,
            y,
            clause_cost=0.5,
            term_cost=0.5,
            max_terms=3,
            heuristic_first=order,
            integer_time_limit=30,
        )
        for order in ("auto", True, False)
    }
    values = [r.lower_bound for r in runs.values()]
    assert None not in values and np.ptp(values) < 1e-6  # every order certifies one LP
    # "auto" prices exactly first (no exact search measured yet), as False does
    assert runs["auto"].history[0]["pricing"] == runs[False].history[0]["pricing"] == "exact"
    # ... and decides by work counts, not the clock: a second run takes the same path
    again = column_generation(
        A,
        y,
        clause_cost=0.5,
        term_cost=0.5,
        max_terms=3,
        heuristic_first="auto",
        integer_time_limit=30,
    )
    assert again.pool == runs["auto"].pool
    assert [h["pricing"] for h in again.history] == [h["pricing"] for h in runs["auto"].history]
    with pytest.raises(ValueError, match="heuristic_first"):
        column_generation(A, y, clause_cost=0.5, term_cost=0.5, heuristic_first="beam")


@pytest.mark.parametrize("seed", range(4))
def test_an_early_stop_keeps_a_valid_lagrangian_bound(seed):
    A, y, _, _ = random_duals(seed, n=300, m=10)
    options = dict(
        clause_cost=0.5,
        term_cost=0.5,
        max_terms=3,
        columns_per_round=1,
        heuristic_first=False,
        integer_time_limit=30,
    )
    full = column_generation(A, y, **options)
    assert full.lower_bound is not None and full.stop_reason == "no improving column (proved)"
    bounds = []
    for rounds in range(1, 6):
        early = column_generation(A, y, max_rounds=rounds, **options)
        assert early.lower_bound is not None  # every round priced exactly
        assert early.lower_bound <= full.lower_bound + 1e-7 <= early.objective + 1e-7
        bounds.append(early.lower_bound)
    assert max(bounds) > 0  # a bound that says something


def test_the_exact_budget_hands_the_rounds_to_beam_search_and_says_so():
    A, y, _, _ = random_duals(1, n=400, m=12)
    run = dict(
        clause_cost=0.2, term_cost=0.2, max_terms=3, heuristic_first=False, integer_time_limit=30
    )
    res = column_generation(A, y, exact_budget=1e-9, **run)
    history = pd.DataFrame(res.history)
    assert set(history["pricing"]) == {"beam fallback"}
    assert history["note"].str.contains("budget").all()
    assert res.lower_bound is None  # no exact round, no bound
    # a budget that runs out part way: exact rounds first, then beam search
    history = pd.DataFrame(column_generation(A, y, exact_budget=2e-5, **run).history)
    kinds = history["pricing"].tolist()
    assert kinds[0] == "exact" and kinds[-1] == "beam fallback"
    assert kinds == sorted(kinds, key=lambda k: k != "exact")  # never exact again
    with pytest.raises(ValueError, match="exact_budget"):
        ColumnGenerationRules(exact_budget=0).fit(A, y)


def test_the_exact_budget_is_counted_not_timed():
    # the same budget stops the exact search at the same itemset however busy the machine
    A, y, _, _ = random_duals(3, n=400, m=14)
    runs = [
        pd.DataFrame(
            column_generation(
                A,
                y,
                clause_cost=0.2,
                term_cost=0.2,
                max_terms=3,
                heuristic_first=False,
                exact_budget=2e-5,
                integer_time_limit=30,
            ).history
        )
        for _ in range(2)
    ]
    same = ["lp_value", "n_columns", "pricing", "exact", "nodes"]
    pd.testing.assert_frame_equal(runs[0][same], runs[1][same])
    assert (runs[0]["pricing"] == "beam fallback").any()


def test_a_path_on_one_live_master_reaches_the_lps_of_fresh_runs():
    A, y, _, _ = random_duals(2, n=300, m=10)
    generator = ColumnGenerator(A, y)
    pools = []
    for cost in (2.0, 1.0, 0.5, 0.25):
        along = generator.run(
            clause_cost=cost,
            term_cost=cost,
            pricing=PricingOptions(max_terms=3),
            integer=IntegerOptions(time_limit=30),
        )
        fresh = column_generation(
            A, y, clause_cost=cost, term_cost=cost, max_terms=3, integer_time_limit=30
        )
        # the certified LP value is the LP over all conjunctions: the start cannot change it
        assert along.lower_bound == pytest.approx(fresh.lower_bound, abs=1e-6)
        assert along.objective == pytest.approx(fresh.objective, abs=1e-6)
        pools.append(list(along.pool))
    # each cost starts from every column of the costs before it
    assert all(b[: len(a)] == a for a, b in zip(pools, pools[1:]))


def test_master_lp_is_warm_started_and_grouped():
    A, y, _, _ = random_duals(0, n=200, m=8)
    res = column_generation(A, y, clause_cost=0.5, term_cost=0.5, max_terms=3)
    master = RuleSetMaster(np.ones(int(y.sum())))
    covers = [np.flatnonzero(A[y][:, list(s)].all(axis=1)) for s in res.pool]
    master.add_columns(covers[:5], np.ones(5))
    v1, _, mu1 = master.solve()
    master.add_columns(covers[5:], np.ones(len(covers) - 5))
    v2, x, mu = master.solve()
    assert v2 <= v1 + 1e-9
    # the grouped duals are optimal duals of the row-per-positive LP: feasible (no column
    # or slack prices out) and with the LP's value (every right-hand side is 1)
    assert np.all(mu >= -1e-12) and np.all(mu <= 1 + 1e-12)
    assert all(c - mu[cov].sum() >= -1e-7 for c, cov in zip(master.costs, master.covers))
    assert mu.sum() == pytest.approx(v2)
    assert master.n_groups <= int(y.sum()) and master.n_rows == master.n_columns
    # the objective path of a fit never rises
    path = [h["lp_value"] for h in res.history if h["pricing"] != "gap enumeration"]
    assert all(b <= a + 1e-7 for a, b in zip(path, path[1:]))


def test_cnf_is_the_complement_of_the_dnf_of_the_complemented_problem():
    X, y, _ = planted_problem(1200, 3, seed=2)
    cnf = ColumnGenerationRules(form="cnf", complexity=0.002).fit(X, y)
    dnf = ColumnGenerationRules(form="dnf", complexity=0.002).fit(X, 1 - y)
    assert np.array_equal(cnf.predict(X), 1 - dnf.predict(X))
    assert str(cnf).startswith("IF (") and " OR " in str(cnf)
    assert cnf.objective_ == pytest.approx(dnf.objective_)


# ---- complexity chosen for the user -----------------------------------------------------------
def test_auto_complexity_chooses_from_the_path_by_inner_cv():
    X, y, _ = planted_problem(1500, 4, seed=3)
    model = ColumnGenerationRules(selection="one_se", random_state=0).fit(X, y)
    table = model.cv_results_
    assert set(table["form"]) == {"dnf", "cnf"} and table["chosen"].sum() == 1
    chosen = table.loc[table["chosen"]].iloc[0]
    assert chosen["form"] == model.form_ == "dnf"  # a four-clause DNF is no short CNF
    table = table[table["form"] == model.form_]
    best = table.loc[table["error"].idxmin()]
    # one standard error: the simplest within one SE of the best
    assert chosen["error"] <= best["error"] + best["error_se"] + 1e-12
    simpler = table[table["complexity"] > chosen["complexity"]]
    assert (simpler["error"] > best["error"] + best["error_se"]).all()
    assert model.chosen_complexity_ == chosen["complexity"]
    again = ColumnGenerationRules(selection="one_se", random_state=0).fit(X, y)
    assert str(again) == str(model)  # deterministic given random_state


def test_bit_matrix_reads_as_the_dense_design_it_packs():
    r = np.random.default_rng(1)
    A = (r.random((700, 37)) < 0.4).astype(np.uint8)  # 37 items: the last byte is partial
    bits = BitMatrix.from_dense(A, block_rows=256)
    assert bits.shape == A.shape and bits.packed.nbytes == 700 * 5
    np.testing.assert_array_equal(bits.dense(), A)
    np.testing.assert_array_equal(bits.dense([5, 3, 699]), A[[5, 3, 699]])
    np.testing.assert_array_equal(bits.column_sums, A.sum(axis=0))
    for items in [(), (0,), (36,), (2, 9, 10), (7, 8, 15, 16, 31, 32)]:
        np.testing.assert_array_equal(bits.all_of(items), A[:, list(items)].all(axis=1))
    order = np.concatenate([r.permutation(700)[:400], [-1, -1]])
    expected = np.zeros((37, (order.size + 63) // 64), dtype=np.uint64)
    for p, row in enumerate(order):  # bit p of item j: cell (order[p], j); -1 pads
        if row >= 0:
            expected[A[row] == 1, p >> 6] |= np.uint64(1) << np.uint64(p & 63)
    np.testing.assert_array_equal(pack_bit_rows(bits.packed, 37, order), expected)
    np.testing.assert_array_equal(pack_rows(A, order), expected)
    with pytest.raises(IndexError, match="outside"):
        bits.all_of([37])


@pytest.mark.parametrize("seed", range(3))
def test_pricing_on_packed_rows_is_pricing_on_the_dense_design(seed):
    r = np.random.default_rng(seed)
    A = (r.random((400, 19)) < 0.5).astype(np.uint8)
    y = r.random(400) < 0.4
    mu = np.where(y, r.random(400), 0.0)
    neg = np.where(y, 0.0, r.random(400) * 0.3)
    bits = BitMatrix.from_dense(A)
    options = dict(fixed=0.2, per_term=0.05, max_terms=3, n_columns=8)
    dense, packed = price_exact(A, mu, neg, **options), price_exact(bits, mu, neg, **options)
    assert dense.itemsets == packed.itemsets
    np.testing.assert_array_equal(dense.reduced_costs, packed.reduced_costs)
    beam = dict(fixed=0.2, per_term=0.05, max_terms=3, n_columns=8, width=5)
    assert price_beam(A, mu, neg, **beam).itemsets == price_beam(bits, mu, neg, **beam).itemsets
    np.testing.assert_allclose(
        reduced_costs(A, dense.itemsets, mu, neg, 0.2, 0.05),
        reduced_costs(bits, dense.itemsets, mu, neg, 0.2, 0.05),
    )


def test_fold_arrangement_gives_each_folds_rows_as_views_and_restores_the_order():
    r = np.random.default_rng(0)
    A = r.integers(0, 2, (500, 9)).astype(np.uint8)
    original = A.copy()
    arrangement = FoldArrangement(A)
    for _ in range(4):
        rows = r.permutation(500)
        train, valid = np.sort(rows[:300]), np.sort(rows[300:450])  # 50 rows in neither
        A_tr, A_va = arrangement.split(train, valid)
        assert np.shares_memory(A_tr, A) and np.shares_memory(A_va, A)
        np.testing.assert_array_equal(A_tr, original[train])
        np.testing.assert_array_equal(A_va, original[valid])
    overlapping = arrangement.split(np.arange(300), np.arange(200, 500))  # copies, then
    np.testing.assert_array_equal(overlapping[1], original[200:])
    arrangement.restore()
    np.testing.assert_array_equal(A, original)


def test_inner_cv_on_rearranged_rows_learns_what_fold_copies_learn(monkeypatch):
    X, y, _ = planted_problem(1500, 4, seed=3)
    A = np.ascontiguousarray(FeatureBinarizer().fit_transform(X), dtype=np.uint8)
    caller = A.copy()
    model = ColumnGenerationRules(complexity_path=(0.01, 0.002), random_state=0).fit(A, y)
    np.testing.assert_array_equal(A, caller)  # the caller's 0/1 matrix is left as it was

    class Copies(FoldArrangement):  # the former way: each fold's rows copied
        def split(self, train, valid):
            return self._wrap(self.rows[train]), self._wrap(self.rows[valid])

    monkeypatch.setattr("rulelab.colgen._inner_cv.FoldArrangement", Copies)
    copied = ColumnGenerationRules(complexity_path=(0.01, 0.002), random_state=0).fit(A, y)
    pd.testing.assert_frame_equal(model.cv_results_, copied.cv_results_)
    assert str(model) == str(copied)


def test_auto_form_races_out_a_clearly_losing_form_after_the_first_split():
    X, y, _ = planted_problem(1500, 4, seed=3)
    model = ColumnGenerationRules(complexity_path=(0.01, 0.002), random_state=0).fit(X, y)
    folds = model.cv_results_.groupby("form")["folds"].max()
    # a four-clause DNF is no short CNF: the CNF path is fitted on the first split only
    assert folds["dnf"] == 3 and folds["cnf"] == 1 and model.form_ == "dnf"
    first = model.cv_results_[model.cv_results_["form"] == "cnf"]
    assert len(first) == 2  # its whole path on that split, then no more


def test_race_keeps_a_form_within_the_paired_standard_error():
    cost = np.ones(400)
    base = np.arange(400) < 80  # 80 errors
    other = base.copy()
    other[[100, 101, 102]] = True
    other[0] = False  # 2 more errors, 4 rows disagree: z = 1
    wrong = {("dnf", 1.0): base, ("cnf", 1.0): other}
    assert _race_forms(wrong, cost, ["dnf", "cnf"], [1.0]) == ["dnf", "cnf"]
    worse = base.copy()
    worse[100:130] = True  # 30 more errors, 30 disagree: z = 5.5
    wrong = {("dnf", 1.0): worse, ("cnf", 1.0): base}
    assert _race_forms(wrong, cost, ["dnf", "cnf"], [1.0]) == ["cnf"]


@pytest.mark.parametrize("seed", range(2))
def test_auto_form_learns_a_cnf_when_the_complement_is_a_short_dnf(seed):
    X, y, rule = planted_problem(1500, 3, seed=seed)
    exact = {**EXACT, "form": "auto"}
    model = ColumnGenerationRules(complexity=1e-4, max_terms=4, random_state=0, **exact).fit(
        X, 1 - y
    )
    print(model.cv_results_, model, sep="\n")
    assert model.form_ == "cnf" and str(model).startswith("IF (")
    table = model.cv_results_
    assert table.loc[table["chosen"], "error"].iloc[0] == table["error"].min()
    fresh = planted_problem(5000, 3, seed + 100)[0]
    assert np.array_equal(model.predict(fresh), 1 - rule.evaluate(fresh).astype(int))


def test_auto_cv_repeats_the_split_on_small_data_only():
    kw = dict(form="dnf", complexity_path=(0.02, 0.005), random_state=0)
    X, y, _ = planted_problem(300, 2, seed=1)  # 1500 / 300: five repeats of 3 folds
    repeated = RepeatedStratifiedKFold(n_splits=3, n_repeats=5, random_state=0)
    pd.testing.assert_frame_equal(
        ColumnGenerationRules(**kw).fit(X, y).cv_results_,
        ColumnGenerationRules(cv=repeated, **kw).fit(X, y).cv_results_,
    )
    X, y, _ = planted_problem(1600, 2, seed=1)  # one split, as cv=3
    pd.testing.assert_frame_equal(
        ColumnGenerationRules(**kw).fit(X, y).cv_results_,
        ColumnGenerationRules(cv=3, **kw).fit(X, y).cv_results_,
    )
    with pytest.raises(ValueError, match="'cv' parameter"):
        ColumnGenerationRules(cv="repeated", **kw).fit(X, y)


def test_min_selection_takes_the_lowest_validation_error():
    X, y, _ = planted_problem(800, 3, seed=6)
    model = ColumnGenerationRules(form="dnf", selection="min", random_state=0).fit(X, y)
    table = model.cv_results_
    assert table.loc[table["chosen"], "error"].iloc[0] == table["error"].min()


# ---- scikit-learn conventions and bad input ---------------------------------------------------
@pytest.mark.parametrize("complexity", [0.01, "auto"])
def test_passes_sklearn_check_estimator(complexity):
    results = check_estimator(ColumnGenerationRules(complexity=complexity), on_fail=None)
    failed = [r["check_name"] for r in results if r["status"] == "failed"]
    assert failed == []


def test_works_in_pipeline_and_grid_search():
    X, y, _ = planted_problem(600, 3, seed=4)
    grid = GridSearchCV(
        make_pipeline(ColumnGenerationRules()),
        {"columngenerationrules__complexity": [0.2, 0.002]},
        cv=3,
    )
    grid.fit(X, y)
    assert grid.best_params_["columngenerationrules__complexity"] == 0.002


BAD_INPUTS = [
    ("one class", lambda X, y: (X, np.zeros(len(X)))),
    ("NaN label", lambda X, y: (X, np.where(np.arange(len(X)) == 0, np.nan, y))),
    ("rows mismatch", lambda X, y: (X.iloc[:-1], y)),
    ("continuous y", lambda X, y: (X, np.linspace(0, 1, len(X)))),
]


@pytest.mark.parametrize("case", BAD_INPUTS, ids=[c[0] for c in BAD_INPUTS])
def test_bad_input_gets_the_same_error_as_the_other_rule_learners(case):
    X, y, _ = planted_problem(200, 2, seed=0)
    Xb, yb = case[1](X, y.to_numpy())
    with pytest.raises(Exception) as theirs:
        SetCoverRules().fit(Xb, yb)
    with pytest.raises(type(theirs.value)) as ours:
        ColumnGenerationRules(complexity=0.01).fit(Xb, yb)
    assert str(ours.value) == str(theirs.value)


def test_predict_refuses_missing_columns_and_bad_parameters():
    X, y, _ = planted_problem(300, 2, seed=1)
    model = ColumnGenerationRules(complexity=0.01).fit(X, y)
    with pytest.raises(ValueError, match="features"):
        model.predict(X.drop(columns=["c0"]))
    with pytest.raises(ValueError, match="order"):
        model.predict(X[X.columns[::-1]])
    for bad in (
        dict(form="xor"),
        dict(selection="best"),
        dict(pricing="guess"),
        dict(max_terms=0),
        dict(complexity=-1),
        dict(complexity="fast"),
    ):
        with pytest.raises(ValueError, match=next(iter(bad))):
            ColumnGenerationRules(**bad).fit(X, y)


def test_the_fit_says_how_long_it_spent_choosing_its_own_parameters():
    X, y, _ = planted_problem(600, 2, 0)
    fixed = ColumnGenerationRules(complexity=1e-3, form="dnf", max_terms=3).fit(X, y)
    assert fixed.tuning_seconds_ < 0.01  # nothing to choose: no inner cross-validation
    tuned = ColumnGenerationRules(max_terms=3, cv=3).fit(X, y)
    assert tuned.cv_results_ is not None and tuned.tuning_seconds_ > 0
    three = y + (X["n0"] > 5).astype(int) * (y == 0) * 2  # a third class
    ordered = ColumnGenerationRules(max_terms=3, cv=3).fit(X, three)
    assert ordered.tuning_seconds_ == pytest.approx(ordered.class_fits_["tuning_seconds"].sum())
