"""Column generation: exact itemset pricing against MILP pricing, and the whole fit against BRCG.

On the first of notebook 07's ten stratified folds of MAGIC and Musk, in one run and one
process:

1. pricing at the same duals: a few rounds of column generation (beam pricing) give a
   master LP; its duals are then priced by rulelab's exact itemset search and by the MILP
   of Dash, Günlük & Wei (2018) solved by HiGHS (BRCG's way of pricing). Printed: each
   one's time, best reduced cost and whether it is proved, and the ratio MILP / itemset;
2. the whole fit: ``ColumnGenerationRules()`` (complexity chosen by its inner
   cross-validation, included in its time) against AIX360's BRCG with notebook 07's FULL
   settings, on the same training rows: fit time, test error, rules, and the ratio;
3. with ``--all-rows``: ``ColumnGenerationRules()`` on every row of the data set (Musk:
   6,598), the fit time on one core.

Run: ``python -m benchmarks.library.bench_colgen [--datasets magic musk2] [--rows N]
[--milp-time 120] [--no-brcg] [--all-rows]``.
"""

from __future__ import annotations

import argparse

import numpy as np

from benchmarks.timing import ratio, wall
from repro.column_generation.experiments import _fold
from rulelab import ColumnGenerationRules, FeatureBinarizer, load_dataset
from rulelab.colgen import column_generation, price_exact, price_milp
from rulelab.colgen.master import RuleSetMaster


def duals_after_beam_rounds(A, y, cost, rounds):
    """The master LP's duals after ``rounds`` rounds of beam-priced column generation."""
    res = column_generation(
        A,
        y,
        clause_cost=cost,
        term_cost=cost,
        pricing="beam",
        max_rounds=rounds,
        close_gap=False,
        integer="greedy",
    )
    pos = np.flatnonzero(y)
    master = RuleSetMaster(np.ones(pos.size))
    covers = [np.flatnonzero(A[pos][:, list(s)].all(axis=1)) for s in res.pool]
    costs = [cost * (1 + len(s)) + int((A[~y][:, list(s)].all(axis=1)).sum()) for s in res.pool]
    master.add_columns(covers, np.array(costs, float))
    _, _, mu = master.solve()
    mu_pos = np.zeros(y.size)
    mu_pos[pos] = mu
    return mu_pos, np.where(y, 0.0, 1.0), len(res.pool)


def pricing_at_the_same_duals(A, y, complexity, milp_time, rounds=5):
    cost = complexity * len(y)
    mu_pos, cost_neg, n_cols = duals_after_beam_rounds(A, y, cost, rounds)
    options = dict(fixed=cost, per_term=cost, max_terms=3)
    t_exact, exact = wall(
        price_exact, A, mu_pos, cost_neg, n_columns=1, time_limit=milp_time, **options
    )
    t_milp, milp = wall(price_milp, A, mu_pos, cost_neg, time_limit=milp_time, **options)
    print(f"  duals after {rounds} beam rounds ({n_cols} columns); clause and term cost {cost:.1f}")
    print(
        f"  itemset search: {t_exact:8.2f} s  best reduced cost {exact.best:10.3f}  "
        f"proved {exact.exact}  ({exact.nodes:,} itemsets, {exact.items_searched} items)"
    )
    print(
        f"  MILP (HiGHS):   {t_milp:8.2f} s  best reduced cost {milp.best:10.3f}  "
        f"proved {milp.exact}  ({milp.note})"
    )
    print(
        f"  MILP / itemset time: {ratio(t_milp, t_exact):.1f}x"
        + ("" if milp.exact else f" (the MILP stopped at its {milp_time:g} s limit)")
    )
    if exact.exact and milp.exact:
        print(f"  same optimum: {np.isclose(exact.best, milp.best)}")


def fit_against_brcg(X_tr, y_tr, X_te, y_te, with_brcg):
    t_cg, cg = wall(ColumnGenerationRules(random_state=0).fit, X_tr, y_tr)
    err_cg = 1 - cg.score(X_te, y_te)
    print(
        f"  CG:   {t_cg:8.1f} s  test error {err_cg:.4f}  {len(cg.rules_.clauses)} rules "
        f"(complexity {cg.chosen_complexity_:g}); {cg.certificate()}"
    )
    if not with_brcg:
        return
    from repro.peers import learners as peers

    methods, skipped = peers.peer_learners(include=("BRCG",))
    if "BRCG" not in methods:
        print(f"  BRCG skipped: {skipped.get('BRCG')}")
        return
    t_brcg, brcg = wall(methods["BRCG"].fit, X_tr, y_tr)
    err_brcg = 1 - brcg.score(X_te, y_te)
    print(f"  BRCG: {t_brcg:8.1f} s  test error {err_brcg:.4f}  {brcg.complexity_()[0]:.0f} rules")
    print(f"  BRCG / CG fit time: {ratio(t_brcg, t_cg):.1f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", nargs="*", default=["magic", "musk2"])
    ap.add_argument("--rows", type=int, default=None, help="subsample the training rows")
    ap.add_argument("--complexity", type=float, default=0.001)
    ap.add_argument(
        "--milp-time", type=float, default=120.0, help="seconds allowed to each pricing call"
    )
    ap.add_argument("--no-brcg", action="store_true", help="skip the whole-fit comparison")
    ap.add_argument(
        "--all-rows",
        action="store_true",
        help="also fit on every row of each data set and print the time",
    )
    args = ap.parse_args()
    warm = FeatureBinarizer().fit_transform(_fold("pima", 200)[0])
    price_exact(
        warm, np.ones(len(warm)), np.zeros(len(warm)), fixed=1, per_term=1, max_terms=3
    )  # compile the kernels before timing
    for name in args.datasets:
        X_tr, y_tr, X_te, y_te = _fold(name, args.rows)
        A = FeatureBinarizer().fit_transform(X_tr)
        y = y_tr.to_numpy() == np.unique(y_tr)[-1]
        print(f"\n{name}: {len(y)} training rows, {A.shape[1]} binarised columns")
        print(" pricing at the same duals")
        pricing_at_the_same_duals(A, y, args.complexity, args.milp_time)
        print(" whole fit on the same fold")
        fit_against_brcg(X_tr, y_tr, X_te, y_te, not args.no_brcg)
        if args.all_rows:
            X, y_all = load_dataset(name)
            seconds, model = wall(ColumnGenerationRules(random_state=0).fit, X, y_all)
            print(
                f" all {len(X):,} rows: ColumnGenerationRules() fits in "
                f"{seconds:.1f} s ({model.form_}, "
                f"{len(model.rules_.clauses)} clauses, complexity "
                f"{model.chosen_complexity_:g})"
            )


if __name__ == "__main__":
    main()
