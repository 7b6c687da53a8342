"""The inner cross-validation that chooses a column-generation rule set's form and complexity.

One engine for :class:`~rulelab.ColumnGenerationRules` (``form="auto"`` or
``complexity="auto"``) and :class:`~rulelab.colgen.selection.ColumnGenerationRulesCV`:
each fold carries one live master LP along the complexity path, from the simplest rule
sets to the richest, so each cost goes on from the last one's columns and basis; a form
that loses the first split clearly is raced out; the choice follows the rule
``selection`` names; and the clauses the folds chose near the winning cost start the
final fit.
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral

import numpy as np
import pandas as pd
from sklearn.model_selection import RepeatedStratifiedKFold, StratifiedKFold, check_cv

from ._options import FitOptions
from ._rows import FoldArrangement, as_bit_matrix
from .solver import ColumnGenerationResult, ColumnGenerator, fires_any

__all__ = [
    "COMPLEXITY_PATH",
    "FORMS",
    "AUTO_CV_SAMPLES",
    "RACE_Z",
    "Selection",
    "select",
    "inner_splits",
    "generator",
    "solve",
]

COMPLEXITY_PATH = (0.02, 0.01, 0.005, 0.002, 0.001, 0.0005)
"""Clause costs (fractions of the training weight) tried by ``complexity="auto"``."""

FORMS = ("dnf", "cnf")
"""The rule forms tried by ``form="auto"``."""

AUTO_CV_SAMPLES = 1500
"""``cv="auto"`` repeats its 3-fold split about this many samples' worth (at most 5 times)."""

RACE_Z = 2.0
"""``form="auto"`` stops validating a form that lost the first split by this many standard
errors of the paired difference (see :func:`_race_forms`)."""


@dataclass(frozen=True)
class Selection:
    """What the inner cross-validation chose.

    Attributes
    ----------
    form : {"dnf", "cnf"}
    complexity : float
    pool : list of tuple of int
        The clauses the folds chose at this and nearby costs, to start the final fit from.
    cv_results : DataFrame
        One row per form and complexity tried (see ``ColumnGenerationRules.cv_results_``).
    """

    form: str
    complexity: float
    pool: list
    cv_results: pd.DataFrame


def generator(A, target, weight, form: str, options: FitOptions, pool=()) -> ColumnGenerator:
    """Column generation on one (DNF) problem, started from the clauses ``pool``."""
    out = ColumnGenerator(A, target, weight, negative_weight=options.negative_weight_of(form))
    out.add(list(pool))
    return out


def solve(
    gen: ColumnGenerator, complexity: float, weight: np.ndarray, options: FitOptions, time_limit
) -> ColumnGenerationResult:
    """One column-generation run at ``complexity``, going on from the generator's columns
    and LP basis."""
    clause, term = options.costs(complexity, weight)
    return gen.run(
        clause_cost=clause,
        term_cost=term,
        pricing=options.pricing,
        integer=options.integer,
        time_limit=time_limit,
    )


def inner_splits(cv, y01: np.ndarray, random_state) -> list:
    """The inner folds as (train, validation) index pairs.

    ``cv="auto"``: 3 stratified folds, repeated ``round(AUTO_CV_SAMPLES / n_samples)`` times
    (1 to 5); an int: that many stratified folds, shuffled with ``random_state``; both at
    most as many as the smaller class has samples. Anything else goes through scikit-learn's
    ``check_cv``.
    """
    auto = isinstance(cv, str)  # "auto", the only string the estimators' constraints allow
    if auto or isinstance(cv, Integral):
        # as many stratified folds as the smaller class allows (at least 2)
        smaller = int(min(y01.sum(), (1 - y01).sum()))
        if smaller < 2:
            raise ValueError(
                "complexity='auto' and form='auto' need at least 2 samples "
                "of each class; give a fixed complexity and form instead"
            )
        k = min(3 if auto else cv, smaller)
        repeats = int(np.clip(round(AUTO_CV_SAMPLES / y01.size), 1, 5)) if auto else 1
        folds = (
            StratifiedKFold(k, shuffle=True, random_state=random_state)
            if repeats == 1
            else RepeatedStratifiedKFold(n_splits=k, n_repeats=repeats, random_state=random_state)
        )
    else:
        folds = check_cv(cv, y01, classifier=True)
    # splitters read only the number of rows from X
    return list(folds.split(np.zeros((y01.size, 1)), y01))


def _race_forms(wrong_at: dict, cost: np.ndarray, forms: list, path) -> list:
    """The forms still worth validating after the first split of the inner CV.

    Each form's best complexity on the split is compared with the leading form's on the
    same validation rows: a form whose weighted error is higher by more than ``RACE_Z``
    standard errors of the paired difference (McNemar's test: only the rows on which the
    two rule sets disagree count) is dropped, and its rest of the path is not fitted. A
    close race keeps both forms; a clear loser costs one split instead of all.
    """
    total = float(cost.sum())
    loss = {key: float(cost[wrong].sum()) for key, wrong in wrong_at.items()}
    best = {f: min(path, key=lambda c: loss[f, c]) for f in forms}
    error = {f: loss[f, best[f]] / total for f in forms}
    leader = min(forms, key=lambda f: error[f])  # the first form on a tie
    keep = []
    for f in forms:
        if f == leader:
            keep.append(f)
            continue
        # per-row difference of the two weighted losses; its mean's standard error
        d = (
            (cost * (wrong_at[f, best[f]].astype(float) - wrong_at[leader, best[leader]]))
            / total
            * cost.size
        )
        se = float(np.std(d, ddof=1) / np.sqrt(d.size)) if d.size > 1 else 0.0
        if error[f] - error[leader] <= RACE_Z * se + 1e-12:
            keep.append(f)
    return keep


def _validate_path(A, y01, w, forms, path, splits, options: FitOptions, budget):
    """Every fold's fits along the path: the per-fold records, the forms not raced out,
    and the clauses each (form, complexity) chose on some fold.

    ``budget()`` gives the seconds left of the whole fit (None: no limit); each of the
    ``len(forms) * len(path) * len(splits)`` fits gets half its share of them.
    """
    inner = options.inner()
    # validation errors are priced as the fit prices them: a false positive costs
    # negative_weight, whichever form is learned
    cost = w * np.where(y01 == 1, 1.0, options.negative_weight)
    rows, pools = [], {}
    n_fits = len(forms) * len(path) * len(splits)
    active = list(forms)
    # A's rows are moved fold by fold (see FoldArrangement): the fit's own packed copy
    arrangement = FoldArrangement(as_bit_matrix(A))
    try:
        for fold, (tr, va) in enumerate(splits):
            wrong_at = {}
            # the fold's rows as views of A rearranged in place: a copy per fold would
            # double the memory of a fit on millions of rows
            A_tr, A_va = arrangement.split(tr, va)
            for form in active:
                target, weight = options.problem(y01[tr], w[tr], form)
                # one live master along the path: each cost goes on from the last one's
                # columns and LP basis
                gen = generator(A_tr, target, weight, form, inner)
                for c in path:
                    left = budget()
                    if left is not None:
                        left = left / (2 * n_fits)
                    res = solve(gen, c, weight, inner, left)
                    chosen = [res.pool[k] for k in np.flatnonzero(res.chosen)]
                    pools.setdefault((form, c), set()).update(chosen)
                    fires = fires_any(A_va, chosen)
                    predicted = fires if form == "dnf" else ~fires
                    wrong = predicted != y01[va].astype(bool)
                    wrong_at[form, c] = wrong
                    rows.append(
                        {
                            "fold": fold,
                            "form": form,
                            "complexity": c,
                            "error": float(cost[va][wrong].sum() / cost[va].sum()),
                            "n_rules": len(chosen),
                            "n_terms": int(sum(len(s) for s in chosen)),
                        }
                    )
            if fold == 0 and len(active) > 1 and len(splits) > 1:
                active = _race_forms(wrong_at, cost[va], active, path)
            gen = None  # this fold's master released before the next fold's
    finally:
        gen = A_tr = A_va = None  # the last fold's master and views, released
        arrangement.restore()
    return rows, active, pools


def _choose(rows: list, active: list, selection: str) -> tuple[str, float, pd.DataFrame]:
    """The form and complexity the records pick, and the summary table with ``chosen``."""
    summary = (
        pd.DataFrame(rows)
        .groupby(["form", "complexity"], sort=False)
        .agg(
            error=("error", "mean"),
            error_se=("error", "sem"),
            n_rules=("n_rules", "mean"),
            n_terms=("n_terms", "mean"),
            folds=("fold", "size"),
        )
        .reset_index()
    )
    # The form whose best validation error is lower (the first form on a tie; a form
    # raced out after the first split is not a candidate) ...
    best_by_form = summary[summary["form"].isin(active)].groupby("form", sort=False)["error"].min()
    form = str(best_by_form.index[int(np.argmin(best_by_form.to_numpy()))])
    mine = summary[summary["form"] == form]
    best = mine.loc[mine["error"].idxmin()]
    # ... and along its path the simplest rule set whose validation error is the
    # lowest ("min"; a tie goes to the simpler) or within one standard error of it
    # ("one_se", Breiman et al. 1984: a richer rule set must be clearly better).
    slack = np.nan_to_num(best["error_se"]) if selection == "one_se" else 0.0
    within = mine["error"] <= best["error"] + slack + 1e-12
    chosen = float(mine.loc[within, "complexity"].max())
    summary["chosen"] = (summary["form"] == form) & (summary["complexity"] == chosen)
    return form, chosen, summary


def select(
    A,
    y01: np.ndarray,
    w: np.ndarray,
    *,
    forms,
    path,
    cv,
    selection: str,
    random_state,
    options: FitOptions,
    budget,
) -> Selection:
    """Inner cross-validation over the forms and the complexity path (largest cost first).

    Parameters
    ----------
    A : BitMatrix
        The training design.
    y01, w : ndarray
        The 0/1 labels and the sample weights.
    forms : sequence of {"dnf", "cnf"}
    path : sequence of float
        The clause costs, from the largest (simplest rule sets) to the smallest.
    cv, random_state
        The inner folds (see :func:`inner_splits`).
    selection : {"min", "one_se"}
        How the complexity is picked from the records.
    options : FitOptions
        The estimator's options; the folds' fits use :meth:`FitOptions.inner`.
    budget : callable
        Seconds left of the whole fit, or None.
    """
    splits = inner_splits(cv, y01, random_state)
    rows, active, pools = _validate_path(A, y01, w, forms, path, splits, options, budget)
    form, chosen, summary = _choose(rows, active, selection)
    # Start the final fit from the clauses the folds chose at this and nearby costs.
    near = [c for c in path if chosen / 2.5 <= c <= chosen * 2.5]
    pool = sorted(set().union(*(pools[form, c] for c in near)))
    return Selection(form, chosen, pool, summary)
