"""Notebook 08's experiments: multi-clause recovery, the pricing ablation, the path, and
the notebook's claims with their verdicts (:func:`claims`).

Each function returns a tidy DataFrame; the figures are drawn from those tables. Each row
(or, for the MILP timings, each data set's rows) is a unit of the result cache
(:func:`repro.core.cache.cached`), so that a rerun after a change to the claims or the figures
reads the committed fits instead of fitting again.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import asdict
from functools import lru_cache

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold, train_test_split

from repro.core.cache import cached
from repro.core.runner import side_by_side
from repro.core.verdicts import TIMING_NOISE, compare_ratio
from rulelab.binarize import FeatureBinarizer
from rulelab.colgen._options import FitOptions
from rulelab.colgen.estimator import ColumnGenerationRules
from rulelab.colgen.pricing import price_exact, price_milp
from rulelab.colgen.solver import ColumnGenerator, column_generation, fires_any
from rulelab.cuts import rule_objective
from rulelab.data import load_dataset
from rulelab.rules import DNF, Clause

__all__ = [
    "planted_dnf",
    "recovery_curve",
    "recovery_failures",
    "FAILURES",
    "pricing_ablation",
    "milp_pricing_times",
    "MILP_OVER_SEARCH",
    "complexity_path",
    "plot_recovery",
    "plot_path",
    "ABLATION_VARIANTS",
    "claims",
]

_LEVELS = ["red", "green", "blue", "grey"]


def _planted_frame(n_samples: int, rng: np.random.Generator) -> pd.DataFrame:
    """Four categorical columns of four levels and four integer columns in 0..7."""
    X = pd.DataFrame({f"c{j}": rng.choice(_LEVELS, n_samples) for j in range(4)})
    for j in range(4):
        X[f"n{j}"] = rng.integers(0, 8, n_samples)
    return X


def planted_dnf(n_clauses: int, seed: int, min_share: float = 0.03) -> DNF:
    """A random DNF of ``n_clauses`` AND-clauses of 2-4 terms over :func:`_planted_frame`'s
    columns (``c == level``, ``n <= t``, ``n > t`` with ``t`` a cut point of the default
    binariser), each clause covering at least ``min_share`` of the rows on its own."""
    rng = np.random.default_rng(seed)
    reference = _planted_frame(20000, np.random.default_rng(seed + 10**6))
    terms: dict = {}
    for term in FeatureBinarizer().fit(reference).terms_:
        if term.op in ("==", "<=", ">"):
            terms.setdefault(term.feature, []).append(term)
    clauses: list[Clause] = []
    for _ in range(10000):
        if len(clauses) == n_clauses:
            break
        features = rng.choice(sorted(terms), size=int(rng.integers(2, 5)), replace=False)
        clause = Clause(tuple(terms[f][rng.integers(len(terms[f]))] for f in features))
        fires = clause.evaluate(reference)
        others = DNF(clauses).evaluate(reference) if clauses else np.zeros(len(fires), bool)
        if (fires & ~others).mean() >= min_share:
            clauses.append(clause)
    return DNF(clauses, then="1")


def recovery_curve(
    n_clauses: list[int],
    n_samples: list[int],
    n_trials: int,
    *,
    seed: int = 0,
    complexity: float = 1e-4,
    max_terms: int = 4,
    n_test: int = 20000,
    cache: bool = True,
) -> pd.DataFrame:
    """Exact recovery of planted DNFs: one row per (clauses, samples, trial).

    ``recovered`` means the learned rule set predicts exactly as the planted one on
    ``n_test`` fresh rows (the printed rule may use other but equivalent cut points).
    """
    rows = []
    for k in n_clauses:
        for t in range(n_trials):
            for n in n_samples:
                key = dict(
                    n_clauses=k,
                    trial=t,
                    n_samples=n,
                    seed=seed,
                    complexity=complexity,
                    max_terms=max_terms,
                    n_test=n_test,
                )
                rows.append(
                    cached(
                        "colgen/recovery",
                        key,
                        lambda key=key: _recovery_row(**key),
                        code=_recovery_row,
                        cache=cache,
                    )
                )
    return pd.DataFrame(rows)


@lru_cache(maxsize=2)
def _trial(n_clauses: int, trial: int, seed: int, n_test: int) -> tuple[DNF, pd.DataFrame]:
    """A trial's planted rule and fresh test rows, shared by its training sizes."""
    rule = planted_dnf(n_clauses, seed=seed + 1000 * n_clauses + trial)
    return rule, _planted_frame(n_test, np.random.default_rng(seed + 7 + trial))


def _recovery_row(
    n_clauses: int,
    trial: int,
    n_samples: int,
    seed: int,
    complexity: float,
    max_terms: int,
    n_test: int,
) -> dict:
    """One planted DNF learned from ``n_samples`` rows, checked on ``n_test`` fresh rows."""
    rule, test = _trial(n_clauses, trial, seed, n_test)
    X = _planted_frame(n_samples, np.random.default_rng(seed + 31 * n_samples + trial))
    y = rule.evaluate(X).astype(int)
    start = time.perf_counter()
    model = ColumnGenerationRules(form="dnf", complexity=complexity, max_terms=max_terms)
    model.fit(X, y)
    seconds = time.perf_counter() - start
    recovered = bool(np.array_equal(model.predict(test), rule.evaluate(test).astype(int)))
    # Both rule sets scored by the fit's own training objective (its costs at its
    # complexity, as its cut-point refinement scores them), in every trial: a recovered
    # rule set may still carry a term the planted one does without.
    costs = asdict(FitOptions.of(model).cuts(complexity, np.ones(len(y))))
    planted, learned = (rule_objective(r, X, y, **costs) for r in (rule, model.rules_))
    against = _against_planted(planted, learned)
    return {
        "n_clauses": n_clauses,
        "n_samples": n_samples,
        "trial": trial,
        "recovered": recovered,
        "n_rules": len(model.rules_.clauses),
        "proved_optimal": bool(model.proved_optimal_),
        "planted_objective": planted,
        "learned_objective": learned,
        "against_planted": against,
        "failure": "" if recovered else against,
        "planted_rule": "" if recovered else str(rule),
        "learned_rule": "" if recovered else str(model.rules_),
        "seconds": seconds,
    }


FAILURES = {
    "tie": "the planted and the learned rule sets score the same on the training rows: "
    "they cannot tell the two apart",
    "planted not optimal": "the learned rule set scores better than the planted one on the "
    "training rows: at this complexity the objective prefers it",
    "learned worse": "the planted rule set scores better than the learned one: the search "
    "fell short, or the binariser's cut points on these rows lack a planted cut",
}
"""How the learned rule set's training objective compares with the planted one's, which
names why a planted DNF was missed: the first two are not the search's doing (no search on
these rows and at this complexity would return the planted rule), the last one is the
learner's (its search or its grid of cut points)."""


def _against_planted(planted: float, learned: float) -> str:
    """Which of :data:`FAILURES` the two objectives give (equal to a relative 1e-9: a tie)."""
    if abs(planted - learned) <= 1e-9 * max(1.0, abs(planted)):
        return "tie"
    return "planted not optimal" if learned < planted else "learned worse"


def recovery_failures(recovery: pd.DataFrame) -> pd.DataFrame:
    """The trials at the largest training size whose planted DNF was not recovered, with the
    two training objectives, why (:data:`FAILURES`) and both rule sets."""
    largest = recovery[recovery.n_samples == recovery.n_samples.max()]
    columns = ["n_clauses", "trial", "planted_objective", "learned_objective", "failure"]
    rules = ["planted_rule", "learned_rule"]
    return largest.loc[~largest.recovered, [*columns, *rules]].reset_index(drop=True)


ABLATION_VARIANTS = {
    "itemset search (+ screening)": dict(pricing="exact", screening=True, heuristic_first=False),
    "itemset search, no screening": dict(pricing="exact", screening=False, heuristic_first=False),
    "beam first, itemset search to certify": dict(
        pricing="exact", screening=True, heuristic_first=True
    ),
    "beam search only": dict(pricing="beam", screening=True),
}
"""The pricing variants of :func:`pricing_ablation` (options of :func:`column_generation`).
The MILP pricing is timed apart, on the same pricing problems (:func:`milp_pricing_times`)."""


def _fold(dataset: str, max_rows: int | None, seed: int = 0):
    """The first of notebook 07's ten stratified folds (training rows optionally
    subsampled, stratified, to ``max_rows``)."""
    X, y = load_dataset(dataset)
    train, test = next(StratifiedKFold(10, shuffle=True, random_state=seed).split(X, y))
    if max_rows is not None and len(train) > max_rows:
        train, _ = train_test_split(
            train, train_size=max_rows, random_state=seed, stratify=y.iloc[train]
        )
        train = np.sort(train)
    return X.iloc[train], y.iloc[train], X.iloc[test], y.iloc[test]


@lru_cache(maxsize=1)
def _design(dataset: str, max_rows: int | None, seed: int):
    """The fold's binarised training and test rows and their 0/1 labels."""
    X_tr, y_tr, X_te, y_te = _fold(dataset, max_rows, seed)
    positive = np.unique(y_tr)[-1]
    binarizer = FeatureBinarizer().fit(X_tr)
    return (
        binarizer.transform(X_tr),
        y_tr.to_numpy() == positive,
        binarizer.transform(X_te),
        y_te.to_numpy() == positive,
    )


INTEGER_LIMITS = {
    name: ColumnGenerationRules().get_params()[name]
    for name in ("integer_node_limit", "integer_solution_limit")
}
"""The integer solve's limits in :func:`pricing_ablation`: the estimator's, counted in work,
so that the variants differ only in their pricing."""


def pricing_ablation(
    datasets: str | Sequence[str],
    *,
    complexity: float = 0.001,
    max_terms: int = 3,
    variants: dict | None = None,
    exact_budget: float = 120.0,
    max_rows: int | None = None,
    seed: int = 0,
    cache: bool = True,
    n_jobs: int = 1,
) -> pd.DataFrame:
    """Every pricing variant on the first fold of each of ``datasets``, side by side.

    One row per variant: total and pricing seconds, rounds, the last LP value, the lower
    bound (when pricing proved it, or the best Lagrangian bound of the exact rounds), the
    integer rule set's objective, the gap, the rule set's size, its test error and the
    limits that bound (``limits_hit``). Every limit is a count of work, so that every
    column but the seconds is the same on any machine: the exact searches share
    ``exact_budget`` (seconds of search counted in work,
    :data:`rulelab.colgen.solver.EXACT_WORK_PER_SECOND`), after which the rounds go on
    by beam search; the rounds are limited by ``max_rounds``' default and the integer
    solve by :data:`INTEGER_LIMITS`. Since no limit is a clock, the ``n_jobs`` units that
    run side by side (one per core, :func:`repro.core.runner.side_by_side`) change only
    the seconds. One row per (dataset, variant), in that order.
    """
    units = []
    for dataset in [datasets] if isinstance(datasets, str) else datasets:
        for name, options in (variants or ABLATION_VARIANTS).items():
            key = dict(
                dataset=dataset,
                variant=name,
                options=options,
                complexity=complexity,
                max_terms=max_terms,
                exact_budget=exact_budget,
                max_rows=max_rows,
                seed=seed,
            )
            units.append(
                lambda key=key: cached(
                    "colgen/ablation",
                    key,
                    lambda: _ablation_row(**key),
                    code=_ablation_row,
                    cache=cache,
                )
            )
    return pd.DataFrame(side_by_side(units, n_jobs, desc="pricing ablation"))


def _ablation_row(
    dataset: str,
    variant: str,
    options: dict,
    complexity: float,
    max_terms: int,
    exact_budget: float,
    max_rows: int | None,
    seed: int,
) -> dict:
    """One pricing variant's column generation on the fold (see :func:`pricing_ablation`)."""
    A, y, A_te, y_te = _design(dataset, max_rows, seed)
    cost = complexity * len(y)
    res = column_generation(
        A,
        y,
        clause_cost=cost,
        term_cost=cost,
        max_terms=max_terms,
        exact_budget=exact_budget,
        integer_node_limit=INTEGER_LIMITS["integer_node_limit"],
        integer_solution_limit=INTEGER_LIMITS["integer_solution_limit"],
        **options,
    )
    history = pd.DataFrame(res.history)
    chosen = [res.pool[k] for k in np.flatnonzero(res.chosen)]
    return {
        "dataset": dataset,
        "variant": variant,
        "rows": len(y),
        "items": A.shape[1],
        "seconds": res.seconds,
        "pricing_seconds": history["pricing_seconds"].sum(),
        "limits_hit": ", ".join(res.limits_hit),
        "rounds": int((history["pricing"] != "gap enumeration").sum()),
        "lp_value": res.lp_value,
        "lower_bound": np.nan if res.lower_bound is None else res.lower_bound,
        "objective": res.objective,
        "gap": np.nan if res.gap is None else res.gap,
        "proved_optimal": res.proved_optimal,
        "stop": res.stop_reason,
        "n_rules": len(chosen),
        "n_terms": int(sum(len(s) for s in chosen)),
        "test_error": float(np.mean(fires_any(A_te, chosen) != y_te)),
    }


#: a MILP pricing call runs at least this many times the itemset search's time on the same
#: problem: beyond the timing noise (repro.core.verdicts.TIMING_NOISE), so a stopped call decides
MILP_OVER_SEARCH = 2.0


def milp_pricing_times(
    datasets: str | Sequence[str],
    *,
    complexity: float = 0.001,
    max_terms: int = 3,
    rounds: int = 3,
    milp_time_limit: float = 30.0,
    max_rows: int | None = None,
    seed: int = 0,
    cache: bool = True,
    n_jobs: int = 1,
) -> pd.DataFrame:
    """The first ``rounds`` pricing problems of column generation on the first fold of
    each of ``datasets``, each solved twice: by the exact itemset search and by a MILP (HiGHS, the
    way BRCG prices), on the same duals.

    The run goes on with the itemset search's columns, so the problems are the same on
    every machine; the MILP only times them. A MILP call is stopped after
    ``milp_time_limit`` seconds or :data:`MILP_OVER_SEARCH` times the search's time on the
    same problem, whichever is longer (``milp_limit``; a clock limit that touches nothing
    but this table's MILP columns; HiGHS has no count of work that bounds its root node),
    so that a stopped MILP still shows a ratio beyond the timing noise: ``milp_nodes`` is the
    number of branch-and-bound nodes it explored (0: stopped at the root), ``milp_proved``
    says whether it proved its column optimal in that time, and then ``milp_best`` must
    equal the search's ``best`` (the lowest reduced cost).
    A data set's problems are one unit; ``n_jobs`` units run side by side, one per core
    (:func:`repro.core.runner.side_by_side`), so the search and the MILP it is timed
    against run in the same process, one after the other.
    """
    units = []
    for dataset in [datasets] if isinstance(datasets, str) else datasets:
        key = dict(
            dataset=dataset,
            complexity=complexity,
            max_terms=max_terms,
            rounds=rounds,
            milp_time_limit=milp_time_limit,
            max_rows=max_rows,
            seed=seed,
        )
        units.append(
            lambda key=key: cached(
                "colgen/milp", key, lambda: _milp_rows(**key), code=_milp_rows, cache=cache
            )
        )
    return pd.DataFrame([row for rows in side_by_side(units, n_jobs) for row in rows])


def _milp_rows(
    dataset: str,
    complexity: float,
    max_terms: int,
    rounds: int,
    milp_time_limit: float,
    max_rows: int | None,
    seed: int,
) -> list[dict]:
    """The pricing problems of :func:`milp_pricing_times`, each solved both ways."""
    A, y, _, _ = _design(dataset, max_rows, seed)
    cost = complexity * len(y)
    generator = ColumnGenerator(A, y)
    generator.set_costs(cost, cost)
    options = dict(fixed=cost, per_term=cost, max_terms=max_terms)
    mu_pos = np.zeros(len(y))
    rows = []
    for round_ in range(rounds):
        lp_value, _, mu = generator.master.solve()
        mu_pos[:] = 0.0
        mu_pos[generator.pos_rows] = mu
        search = price_exact(generator.A, mu_pos, generator.cost_neg, **options)
        # a MILP stopped before the search's own time beyond the timing noise could not
        # tell which is faster: it gets MILP_OVER_SEARCH times the search's time at least
        limit = max(milp_time_limit, MILP_OVER_SEARCH * search.seconds)
        milp = price_milp(generator.A, mu_pos, generator.cost_neg, time_limit=limit, **options)
        rows.append(
            {
                "dataset": dataset,
                "round": round_,
                "lp_value": lp_value,
                "best": float(search.reduced_costs[0]) if search.itemsets else 0.0,
                "search_seconds": search.seconds,
                "search_nodes": search.nodes,
                "milp_limit": limit,
                "milp_seconds": milp.seconds,
                "milp_nodes": milp.nodes,
                "milp_proved": milp.exact,
                "milp_best": (
                    float(milp.reduced_costs[0]) if milp.exact and milp.itemsets else np.nan
                ),
            }
        )
        if not search.itemsets:  # no column prices out: the LP is optimal
            break
        generator.add(search.itemsets)
    return rows


def complexity_path(
    dataset: str,
    complexities,
    *,
    n_splits: int = 10,
    max_folds: int | None = None,
    seed: int = 0,
    max_terms: int = 3,
    cache: bool = True,
) -> pd.DataFrame:
    """Training and test error and size of the rule set at each complexity (DNF, clauses
    of at most ``max_terms`` terms), per fold."""
    X, y = load_dataset(dataset)
    rows = []
    folds = StratifiedKFold(n_splits, shuffle=True, random_state=seed).split(X, y)
    for fold, (train, test) in enumerate(folds):
        if max_folds is not None and fold >= max_folds:
            break
        for c in sorted(complexities, reverse=True):
            key = dict(
                dataset=dataset,
                n_splits=n_splits,
                fold=fold,
                complexity=c,
                seed=seed,
                max_terms=max_terms,
            )
            rows.append(
                cached(
                    "colgen/path",
                    key,
                    lambda key=key, train=train, test=test: _path_row(X, y, train, test, **key),
                    code=_path_row,
                    cache=cache,
                )
            )
    return pd.DataFrame(rows)


def _path_row(
    X: pd.DataFrame,
    y: pd.Series,
    train: np.ndarray,
    test: np.ndarray,
    *,
    dataset: str,
    n_splits: int,
    fold: int,
    complexity: float,
    seed: int,
    max_terms: int,
) -> dict:
    """One point of the path: the rule set learned on the fold at ``complexity``."""
    start = time.perf_counter()
    model = ColumnGenerationRules(form="dnf", complexity=complexity, max_terms=max_terms)
    model.fit(X.iloc[train], y.iloc[train])
    return {
        "dataset": dataset,
        "fold": fold,
        "complexity": complexity,
        "train_error": 1 - model.score(X.iloc[train], y.iloc[train]),
        "test_error": 1 - model.score(X.iloc[test], y.iloc[test]),
        "n_rules": len(model.rules_.clauses),
        "n_terms": model.rules_.n_terms,
        "gap": model.gap_,
        "seconds": time.perf_counter() - start,
    }


def _times(ratio: float) -> str:
    return f"{ratio:.0f}x" if ratio >= 10 else f"{ratio:.2g}x"


def _strict(parts) -> str:
    """holds only if every part holds; does not hold if one does not; else a tie if one is
    a tie (the most the claim could reach), and not testable if none is."""
    parts = list(parts)
    if "does not hold" in parts:
        return "does not hold"
    if all(p == "holds" for p in parts):
        return "holds"
    return "tie" if "tie" in parts else "not testable"


def claims(
    recovery: pd.DataFrame,
    ablation: pd.DataFrame,
    milp: pd.DataFrame,
    *,
    exact_budget: float,
    milp_time: float,
    quick: bool = False,
) -> list[dict]:
    """Notebook 08's claims, each with its verdict and evidence.

    ``recovery`` is a :func:`recovery_curve` table, ``ablation`` the
    :func:`pricing_ablation` rows and ``milp`` the :func:`milp_pricing_times` rows of the
    ablation's data sets (in the order they are judged); ``exact_budget`` and ``milp_time``
    the budgets they ran with; ``quick`` marks the evidence of a QUICK run.
    """
    datasets = list(pd.unique(ablation.dataset))
    largest = recovery.n_samples.max()
    top = recovery[recovery.n_samples == largest].groupby("n_clauses")["recovered"].mean()
    clauses = recovery.n_clauses
    misses = recovery_failures(recovery)
    short = recovery[recovery.against_planted == "learned worse"]
    why = ", ".join(
        f"K = {k}: " + ", ".join(f"{n} {f}" for f, n in part.failure.value_counts().items())
        for k, part in misses.groupby("n_clauses")
    )
    exact_rows = ablation[ablation.variant == "itemset search (+ screening)"].set_index("dataset")
    # The same pricing problems solved both ways (paired): the MILP's total time over the
    # search's. A MILP call stopped at its time limit has a time that is a lower bound, and so
    # has the ratio: it decides the claim only where even that lower bound clears the timing
    # noise (repro.core.verdicts, tolerance ours).
    timed = milp.groupby("dataset", sort=False).agg(
        search=("search_seconds", "sum"),
        milp=("milp_seconds", "sum"),
        proved=("milp_proved", "all"),
    )
    speed = {d: timed.loc[d, "milp"] / timed.loc[d, "search"] for d in datasets}
    capped = {d: not bool(timed.loc[d, "proved"]) for d in datasets}
    faster = {d: compare_ratio(speed[d]).verdict for d in datasets}
    faster = {d: "not testable" if capped[d] and v != "holds" else v for d, v in faster.items()}
    proved = {d: exact_rows.loc[d, "stop"] == "no improving column (proved)" for d in datasets}
    # The bound claim is about the exact search's work budget; a run that stopped for another
    # reason before spending it was not given the budget, so that set is untested in this run.
    cut_short = {
        d: not proved[d] and "exact_budget" not in str(exact_rows.loc[d, "limits_hit"])
        for d in datasets
    }
    mode = "QUICK" if quick else "FULL"

    def speed_evidence(d: str, ratio: float) -> str:
        shown = _times(ratio)
        if capped[d]:
            shown = (
                f">= {shown} (MILP calls stopped at max({milp_time:g} s, "
                f"{MILP_OVER_SEARCH:g}x the search's time): a lower bound)"
            )
        said = {
            "not testable": ", which does not clear the timing noise: untested",
            "tie": ", within the timing noise: a tie",
        }
        return (
            f"{d}: MILP / itemset time on the same {len(milp[milp.dataset == d])} pricing "
            f"problems = {shown}" + said.get(faster[d], "")
        )

    def bound_evidence(d: str) -> str:
        row = exact_rows.loc[d]
        if proved[d]:
            return f"{d}: bound {row['lower_bound']:.1f}, rule set {row['objective']:.1f}"
        if np.isfinite(row["lower_bound"]):
            return (
                f"{d}: Lagrangian bound {row['lower_bound']:.1f}, rule set "
                f"{row['objective']:.1f} ({row['stop']})"
            )
        return f"{d}: no bound ({row['stop']})"

    return [
        {
            "claim": f"planted DNFs of {clauses.min()}-{clauses.max()} clauses are recovered "
            f"exactly at n = {largest}",
            "verdict": "holds" if (top == 1).all() else "does not hold",
            "evidence": "; ".join(f"K = {k}: {v:.0%}" for k, v in top.items())
            + (f"; the misses: {why}" if why else "")
            + f" ({mode})",
        },
        {
            "claim": "column generation's rule set scores no worse than the planted DNF on its "
            "training rows in every trial",
            "verdict": "does not hold" if len(short) else "holds",
            "evidence": f"{len(short)} of {len(recovery)} trials (every size) with a learned "
            "rule set scoring worse than the planted one under the fit's objective"
            + "".join(
                f"; K = {r.n_clauses}, n = {r.n_samples}, trial {r.trial}: "
                f"{r.learned_objective:.4g} against {r.planted_objective:.4g}"
                + ("" if r.proved_optimal else " (not proved optimal)")
                for r in short.itertuples()
            )
            + f" ({mode})",
        },
        {
            "claim": "a pricing round by the itemset search is faster than by a MILP (MAGIC and "
            "Musk)",
            "verdict": _strict(faster.values()),
            "evidence": "; ".join(speed_evidence(d, v) for d, v in speed.items())
            + f"; tolerance ours: a ratio within 1/{TIMING_NOISE:g}-{TIMING_NOISE:g} is timing "
            f"noise ({mode})",
        },
        {
            "claim": "exact pricing proves the LP bound (no improving column) on MAGIC and Musk "
            "within its work budget",
            "verdict": _strict(
                "holds" if proved[d] else "not testable" if cut_short[d] else "does not hold"
                for d in datasets
            ),
            "evidence": "; ".join(bound_evidence(d) for d in datasets)
            + "".join(
                f"; {d}: stopped ({exact_rows.loc[d, 'stop']}) before its {exact_budget:g} s "
                "work budget was spent, so the claim was not tested there"
                for d in datasets
                if cut_short[d]
            )
            + f"; the budget: {exact_budget:g} s of exact search counted in work ({mode})",
        },
    ]


def plot_recovery(table: pd.DataFrame):
    """Probability of exact recovery against the number of samples, one line per K."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.5, 3.6))
    rate = table.groupby(["n_clauses", "n_samples"])["recovered"].mean().reset_index()
    for k, part in rate.groupby("n_clauses"):
        ax.plot(part["n_samples"], part["recovered"], marker="o", label=f"K = {k} clauses")
    ax.set_xscale("log")
    ax.set_xlabel("training samples")
    ax.set_ylabel("P(exact recovery)")
    ax.set_ylim(-0.03, 1.03)
    ax.legend(frameon=False)
    ax.set_title("Planted DNFs of K clauses (2-4 terms each)")
    fig.tight_layout()
    return fig


def plot_path(table: pd.DataFrame):
    """Test and training error against the number of terms along the complexity path,
    one panel per data set (means over the folds, labelled by complexity)."""
    import matplotlib.pyplot as plt

    sets = list(dict.fromkeys(table["dataset"]))
    fig, axes = plt.subplots(1, len(sets), figsize=(5 * len(sets), 3.6), squeeze=False)
    for ax, name in zip(axes[0], sets):
        mean = table[table["dataset"] == name].groupby("complexity").mean(numeric_only=True)
        mean = mean.sort_values("n_terms")
        ax.plot(mean["n_terms"], mean["test_error"], marker="o", label="test")
        ax.plot(mean["n_terms"], mean["train_error"], marker=".", ls="--", label="training")
        for c, row in mean.iterrows():
            ax.annotate(
                f"{c:g}",
                (row["n_terms"], row["test_error"]),
                fontsize=7,
                textcoords="offset points",
                xytext=(3, 3),
            )
        ax.set_xscale("symlog", linthresh=1)
        ax.set_xlabel("terms in the rule set")
        ax.set_ylabel("error")
        ax.set_title(name)
        ax.legend(frameon=False)
    fig.tight_layout()
    return fig
