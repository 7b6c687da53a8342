"""More than two classes for column generation: an ordered list of per-class rule sets.

RIPPER's scheme (Cohen 1995): each class but the last gets a DNF that separates it from
the classes after it, learned on the training rows the earlier classes' rules left
uncovered, and the last class is the default. The result is one
:class:`~rulelab.rules.DecisionList` whose rules are read top to bottom, the first firing
rule deciding. The order is RIPPER's (from the least to the most frequent class,
:func:`class_order`) or, by default, from the class that rules separate best to the one
they separate worst (:func:`difficulty_order`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from numbers import Integral

import numpy as np
import pandas as pd
from sklearn.base import clone

from ..cuts import refine_cuts
from ..rules import DNF, Clause, DecisionList
from ._inner_cv import generator, solve
from ._options import FitOptions

__all__ = [
    "CLASS_ORDERS",
    "DIFFICULTY_COMPLEXITY",
    "class_order",
    "difficulty_order",
    "fit_ordered_rule_sets",
]

CLASS_ORDERS = ("difficulty", "frequency")
"""The orders of the classes in a list: :func:`difficulty_order` or :func:`class_order`."""

DIFFICULTY_COMPLEXITY = 0.002
"""The clause cost (a fraction of the training weight) of the one-vs-rest fits that
:func:`difficulty_order` scores the classes by, when the estimator's own is ``"auto"``:
the middle of :data:`~rulelab.colgen.COMPLEXITY_PATH`."""


def class_order(y_index: np.ndarray, weight: np.ndarray, n_classes: int) -> np.ndarray:
    """Class indices from the least to the most frequent (by training weight; a tie goes
    to the class that comes first in ``classes_``)."""
    totals = np.bincount(y_index, weights=weight, minlength=n_classes)
    return np.argsort(totals, kind="stable")


def difficulty_order(
    template,
    A: np.ndarray,
    y_index: np.ndarray,
    weight: np.ndarray,
    n_classes: int,
    time_limit: float | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Class indices from the class that rules separate best from all the others to the one
    they separate worst, and each class's score.

    Each class's DNF against all the other classes is learned once on all the training
    rows, cheaply (the inner cross-validation's fit: beam pricing and greedy rounding, at
    ``template``'s clause cost, or :data:`DIFFICULTY_COMPLEXITY` for ``"auto"``), and the
    class is scored by that rule set's training objective: its weighted errors (missed rows
    of the class, covered rows of the others at ``negative_weight``) plus the cost of its
    clauses and terms, so that of two classes separated without error the one that needs
    fewer and shorter rules comes first. A tie goes by RIPPER's order
    (:func:`class_order`): the rarer class first.

    Why: the last class is the default and needs no rule, so it should be the one whose
    rules would err most; and a class learned early removes its rows from every later
    problem, so the classes that rules describe well should go first. RIPPER's frequency
    order (:func:`class_order`) does the same only when the rarest classes are also the
    easiest; on classes of equal size it is arbitrary (ten digits: the hardest digit first).

    ``time_limit`` (seconds, None: no limit) is the whole list's: the scoring fits take at
    most half of it, in equal shares.
    """
    options = FitOptions.of(template).inner()
    complexity = template.complexity
    complexity = DIFFICULTY_COMPLEXITY if complexity == "auto" else float(complexity)
    share = None if time_limit is None else time_limit / (2 * n_classes)
    scores = np.zeros(n_classes)
    for k in range(n_classes):
        target = y_index == k
        gen = generator(A, target, weight, "dnf", options)
        scores[k] = solve(gen, complexity, weight, options, share).objective
    rank = np.empty(n_classes, dtype=np.int64)
    rank[class_order(y_index, weight, n_classes)] = np.arange(n_classes)
    return np.lexsort((rank, scores)), scores


@dataclass
class _ClassFit:
    """What one class's binary fit gave: its clauses (as column-index tuples) and summary."""

    itemsets: list
    summary: dict


def _splits_on(rows: np.ndarray, splits: list, n_samples: int) -> list:
    """The caller's inner folds (index pairs over all training rows) restricted to ``rows``
    and renumbered; a fold left without training or validation rows is dropped."""
    position = np.full(n_samples, -1)
    position[rows] = np.arange(rows.size)
    out = []
    for train, test in splits:
        train, test = position[np.asarray(train)], position[np.asarray(test)]
        train, test = train[train >= 0], test[test >= 0]
        if train.size and test.size:
            out.append((train, test))
    return out


def _fit_one_class(
    template,
    A: np.ndarray,
    target: np.ndarray,
    weight: np.ndarray,
    time_limit,
    fallback_complexity: float,
    cv,
) -> _ClassFit:
    """The binary DNF of ``target`` on the 0/1 design ``A`` by a clone of ``template``
    (the same parameters, ``form="dnf"``, the design used as it is, the inner folds
    ``cv``)."""
    positives, negatives = weight[target].sum(), weight[~target].sum()
    n_pos, n_neg = int(target.sum()), int((~target).sum())
    summary = {"rows": int(target.size), "positives": n_pos, "negatives": n_neg}
    if n_pos == 0 or not positives > 0:
        return _ClassFit([], {**summary, "note": "no rows of the class left"})
    if n_neg == 0 or not negatives > 0:
        # every row left is of this class: one rule that always fires decides them
        return _ClassFit([()], {**summary, "note": "only rows of the class left"})
    # refine_cuts off: the class's design is 0/1 items, on which there is no cut to move
    model = clone(template).set_params(
        form="dnf",
        binarizer="passthrough",
        binarize=None,
        time_limit=time_limit,
        cv=cv,
        refine_cuts=False,
    )
    stratified = isinstance(cv, (str, Integral))
    if template.complexity == "auto" and (
        not cv if isinstance(cv, list) else stratified and min(n_pos, n_neg) < 2
    ):
        # too few rows of one side for stratified inner folds (or none of the caller's
        # folds holds rows of this problem on both sides): a fixed cost
        model.set_params(complexity=fallback_complexity)
    design = pd.DataFrame(A, columns=[str(j) for j in range(A.shape[1])])
    model.fit(design, target.astype(np.int8), sample_weight=weight)
    return _ClassFit(
        list(model.itemsets_),
        {
            **summary,
            "complexity": model.chosen_complexity_,
            "objective": model.objective_,
            "lower_bound": model.lower_bound_,
            "proved_optimal": model.proved_optimal_,
            "n_columns": model.n_columns_,
            "limits_hit": model.limits_hit_,
            "tuning_seconds": model.tuning_seconds_,
        },
    )


def _refined(template, clauses: list, frame: pd.DataFrame, target, weight, complexity, given_cuts):
    """A class's clauses with each threshold moved to its best cut on the class's rows, under
    the class's own objective at its chosen complexity (:func:`rulelab.cuts.refine_cuts`, as
    the two-class fit does): the grid of quantile cuts may hold no cut where the classes
    part (setosa's petal length lies below 1.9 and the next class's above 3.0, the grid
    cut at 3.52)."""
    if not clauses:
        return clauses
    clause_cost = float(complexity) * float(weight.sum())
    refined = refine_cuts(
        DNF(clauses),
        frame,
        target.astype(np.int8),
        weight,
        clause_cost=clause_cost,
        term_cost=clause_cost * float(template.term_cost),
        negative_weight=float(template.negative_weight),
        given=given_cuts,
    )
    return list(refined.clauses)


def fit_ordered_rule_sets(
    template,
    A: np.ndarray,
    y_index: np.ndarray,
    weight: np.ndarray,
    classes: np.ndarray,
    terms: list,
    fallback_complexity: float,
    time_limit=None,
    frame: pd.DataFrame | None = None,
    given_cuts: dict | None = None,
):
    """RIPPER's ordered rule sets learned by column generation.

    Parameters
    ----------
    template : ColumnGenerationRules
        Its parameters are used for every class's binary fit (``form`` forced to DNF), and
        its ``class_order`` orders the classes (:func:`difficulty_order` or
        :func:`class_order`).
    A : ndarray of shape (n_samples, n_items)
        The 0/1 design; ``terms[j]`` is the test column ``j`` stands for.
    y_index : ndarray of shape (n_samples,)
        Each row's class index into ``classes``.
    weight : ndarray of shape (n_samples,)
        Sample weights.
    classes : ndarray
        The class labels.
    terms : list of Term
    fallback_complexity : float
        The clause cost of a class whose rows left hold fewer than two positives or two
        negatives, too few for ``complexity="auto"``'s stratified inner folds (or, for
        folds given as index pairs, whose rows no fold splits into training and
        validation rows).
    time_limit : float, optional
        Seconds for all the classes together.
    frame : DataFrame, optional
        The training table ``A`` binarises: given, each class's thresholds are moved to
        their best cuts on its rows (``refine_cuts``), and the rows its rules cover are
        read from the refined rules.
    given_cuts : dict, optional
        Column -> thresholds the user chose, left where they are unless a strictly better
        cut exists (``refine_cuts``' ``given``).

    Returns
    -------
    rules : DecisionList
        The rules, class by class in the order learned, with the most frequent class as
        ``default``.
    summary : DataFrame
        One row per class in the order: its ``difficulty`` score (for that order), rows
        it was learned on, its positives and negatives there, its rules, and its binary
        fit's complexity, objective, bound and the limits that bound it (``limits_hit``).
    """
    start = time.perf_counter()
    cv = template.cv
    # folds given as index pairs over the training rows are restricted to each class's rows
    splits = None if isinstance(cv, (str, Integral)) or hasattr(cv, "split") else list(cv)
    if template.class_order == "difficulty":
        order, difficulty = difficulty_order(template, A, y_index, weight, classes.size, time_limit)
    else:
        order, difficulty = class_order(y_index, weight, classes.size), None
    left = np.ones(y_index.size, dtype=bool)  # rows no earlier class's rule covers
    clauses, labels, rows = [], [], []
    for k in order[:-1]:
        # This class against the classes after it: a row of an earlier class that its own
        # rules missed is misclassified whatever the later rules say, so it is left out.
        later = np.isin(y_index, order[np.flatnonzero(order == k)[0] :])
        rows_k = np.flatnonzero(left & later)
        remaining = (
            None if time_limit is None else max(time_limit - (time.perf_counter() - start), 1.0)
        )
        fit = _fit_one_class(
            template,
            A[rows_k],
            y_index[rows_k] == k,
            weight[rows_k],
            remaining,
            fallback_complexity,
            cv if splits is None else _splits_on(rows_k, splits, y_index.size),
        )
        mine = [Clause(tuple(terms[j] for j in itemset), "and") for itemset in fit.itemsets]
        if frame is not None and mine and "complexity" in fit.summary:
            rows_frame = frame.iloc[rows_k].reset_index(drop=True)
            mine = _refined(
                template,
                mine,
                rows_frame,
                y_index[rows_k] == k,
                weight[rows_k],
                fit.summary["complexity"],
                given_cuts,
            )
        # the rows each rule covers: the refined rules read the table, the grid's their items
        if frame is None:
            covers = [A[:, list(s)].all(axis=1) if s else np.ones(left.size) for s in fit.itemsets]
        else:
            covers = [clause.evaluate(frame) for clause in mine]
        for clause, fires in zip(mine, covers):
            clauses.append(clause)
            labels.append(classes[k])
            left &= ~np.asarray(fires, dtype=bool)
        rows.append(
            {
                "class": classes[k],
                "n_rules": len(mine),
                **({} if difficulty is None else {"difficulty": difficulty[k]}),
                **fit.summary,
            }
        )
        if not left.any():
            break
    last = order[-1]
    rows.append(
        {
            "class": classes[last],
            "n_rules": 0,
            **({} if difficulty is None else {"difficulty": difficulty[last]}),
            "rows": int(left.sum()),
            "note": "default",
        }
    )
    return (DecisionList(clauses, labels, default=classes[last]), pd.DataFrame(rows))
