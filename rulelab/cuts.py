"""Cut points that fit the data: move a rule set's thresholds to the best observed cut.

A learner over binarised features can only say ``x > q`` for the binariser's few
quantiles ``q``; a rule whose true cut lies between two of them is learned with the nearest
one. :func:`refine_cuts` takes the chosen rule set and, one threshold term at a time with
the rest of the rule fixed, moves the term's threshold to the cut among the training values
that minimises the rule-set objective of column generation (:mod:`rulelab.colgen.master`)::

    weighted uncovered positives
    + sum over clauses (clause cost + term cost x terms + weighted negatives it covers)

A covered negative is charged once per clause covering it, as in the integer program. The
objective of one term's cut is exact and found by sorting: the only rows whose cost can
change are those where the clause's other terms hold (a positive counts only if no other
clause covers it), so one pass over the feature's sorted values prices every cut point at
once. The terms are visited in turn (coordinate descent) until a round changes nothing; each
move lowers the objective, so the refined rule set's training objective is never above the
original's.

Before that, redundant terms are merged (:meth:`rulelab.rules.Clause.simplified`: ``x > -1.3
AND x > 0.6`` is ``x > 0.6``), and during it a term whose removal does not raise the objective
is dropped (of a ``>`` and a ``<=`` on one feature both stay only if both bind), as is a
clause whose removal lowers it.

Missing values keep their meaning: a threshold term is False where its feature is missing,
whatever its threshold, so those rows never follow a cut; only dropping the term lets them
through, and that is priced too.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
import pandas as pd

from ._validation import integers_beyond_float
from .rules import CNF, DNF, Clause, Term, evaluate_terms

__all__ = ["refine_cuts", "rule_objective"]

_THRESHOLD_OPS = ("<=", ">")


# ---- the problem: a DNF of AND-clauses over (X, target) ------------------------------------


def _check(rule, X, y, sample_weight):
    if not isinstance(rule, (DNF, CNF)):
        raise TypeError(f"rule must be a DNF or a CNF, not {type(rule).__name__}")
    if not isinstance(X, pd.DataFrame):
        raise TypeError("X must be a DataFrame with the columns the rule reads")
    missing = sorted(rule.features() - set(X.columns))
    if missing:
        raise ValueError(f"the rule reads columns {missing[:5]}, which X does not have")
    y = np.asarray(y)
    if y.shape != (len(X),):
        raise ValueError(f"y has shape {y.shape}; it needs one 0/1 label per row of X ({len(X)})")
    if not np.isin(y, (0, 1)).all():
        raise ValueError("y must be 0/1 (or bool): 1 where the rule should predict its class")
    w = np.ones(len(X)) if sample_weight is None else np.asarray(sample_weight, float)
    if w.shape != (len(X),) or not np.all(np.isfinite(w)) or (w < 0).any():
        raise ValueError(
            "sample_weight must be a finite, non-negative array with one weight per row of X"
        )
    return y.astype(bool), w


def _dual(rule, y, w, negative_weight):
    """The DNF problem a rule is scored on: (AND-clauses as term lists, target, weight of an
    uncovered target row, cost of a covered non-target row).

    A CNF is scored as column generation learns it (De Morgan): the DNF of its negated terms
    over the complemented labels, a covered row of class 0 costing ``negative_weight``."""
    if isinstance(rule, DNF):
        clauses = [list(c.terms) for c in rule.clauses]
        return clauses, y, w, negative_weight * w
    clauses = [[t.negate() for t in c.terms] for c in rule.clauses]
    return clauses, ~y, negative_weight * w, w


def _rebuild(rule, clauses):
    if isinstance(rule, DNF):
        return DNF([Clause(tuple(c), "and") for c in clauses], then=rule.then)
    return CNF([Clause(tuple(t.negate() for t in c), "or") for c in clauses], then=rule.then)


def rule_objective(
    rule: DNF | CNF,
    X: pd.DataFrame,
    y,
    sample_weight=None,
    *,
    clause_cost: float = 0.0,
    term_cost: float = 0.0,
    negative_weight: float = 1.0,
) -> float:
    """The rule set's training objective, as column generation's integer program counts it.

    Weighted uncovered positives, plus for every clause its cost (``clause_cost`` +
    ``term_cost`` per term) and the weight of the negatives it covers (``negative_weight``
    times the sample weight; a negative covered by two clauses counts twice). A CNF is scored
    as the DNF of the complemented problem it is learned as (see :func:`refine_cuts`).
    """
    y, w = _check(rule, X, y, sample_weight)
    clauses, target, pos_w, neg_v = _dual(rule, y, w, negative_weight)
    costs = dict(clause_cost=clause_cost, term_cost=term_cost)
    return _objective(clauses, target, pos_w, neg_v, X, costs)


class _Feature:
    """One numeric column sorted once: its distinct values and where each run starts."""

    def __init__(self, series: pd.Series):
        values = pd.to_numeric(series, errors="coerce").to_numpy(dtype=float, na_value=np.nan)
        rows = np.flatnonzero(~np.isnan(values))
        # row numbers as 32-bit integers where they fit: a fit on ten million rows keeps
        # one order per refined feature
        index = np.int32 if values.size < 2**31 else np.int64
        self.order = rows[np.argsort(values[rows], kind="stable")].astype(index)
        ordered = values[self.order]
        first = np.ones(ordered.size, dtype=bool)
        first[1:] = ordered[1:] != ordered[:-1]
        self.starts = np.flatnonzero(first).astype(index)
        self.distinct = ordered[self.starts]
        self.integer = bool(self.distinct.size) and bool(
            np.all(self.distinct == np.round(self.distinct))
        )


def _refinable(term: Term, X: pd.DataFrame) -> bool:
    """A numeric threshold term (``<=``/``>`` with a finite real threshold on a numeric,
    non-boolean column): the terms whose cut can move."""
    if term.op not in _THRESHOLD_OPS:
        return False
    value = term.value
    if (
        not isinstance(value, numbers.Real)
        or isinstance(value, (bool, np.bool_))
        or not math.isfinite(value)
    ):
        return False
    dtype = X[term.feature].dtype
    if not pd.api.types.is_numeric_dtype(dtype) or pd.api.types.is_bool_dtype(dtype):
        return False
    # integers beyond 2**53 would be moved between as float64, which rounds them: their
    # binariser's cuts are exact integers and stay where they are
    return integers_beyond_float(X[term.feature]) is None


def _readable_cut(lo: float, hi: float, integer: bool) -> float:
    """A threshold in ``[lo, hi)`` (both cuts ``x <= t`` and ``x > t`` then split the
    observed values ``lo`` and ``hi`` alike): for integer data the lower value (``age > 28``);
    otherwise the midpoint, rounded to the fewest decimals that keep it in the middle half
    of the gap, so that it prints as it is (``0.5`` rather than ``0.50137``, ``0`` rather
    than ``0.0000040``) and keeps a margin to both neighbours."""
    if integer:
        return float(lo)
    mid = lo + (hi - lo) / 2
    low, high = lo + (hi - lo) / 4, hi - (hi - lo) / 4
    width = high - low
    if not width > 0:
        return float(lo)
    for decimals in range(-math.floor(math.log10(width)) - 1, 18):
        t = round(mid, decimals) + 0.0  # + 0.0: no negative zero
        if low <= t <= high and lo <= t < hi:
            return t
    return mid


def _central_cut(g_now, cost, valid, now, tol, U, integer, m):
    """The readable central cut of the run of gaps around ``g_now`` whose cost is
    ``now`` (None when ``g_now`` is not a valid gap)."""
    good = np.zeros(cost.size, dtype=bool)
    good[valid] = cost[valid] <= now + tol
    if not good[g_now]:
        return None
    g1 = g_now
    while g1 - 1 >= 0 and good[g1 - 1]:
        g1 -= 1
    g2 = g_now
    while g2 + 1 < good.size and good[g2 + 1]:
        g2 += 1
    if g1 == g2:
        return None  # no training value to pass at no cost: the cut (maybe a given one) stays
    if g2 == m:
        return float(U[-1]) if g1 == m else _readable_cut(U[g1 - 1], U[-1], integer)
    return _readable_cut(U[g1 - 1], U[g2], integer)


def _best_cut(op, current, feature: _Feature, delta, tol, keep_ties: bool = False):
    """The cost (relative to covering none of the rows) of the current cut and of the best
    one, and the best one's threshold (None: keep the current one).

    ``delta[i]`` is what covering row ``i`` adds to the objective (0 on rows that do not
    matter). Gap ``g`` lies between the distinct values ``g - 1`` and ``g``; ``x > t`` with
    ``t`` in it covers the values from ``g`` on, ``x <= t`` those before ``g``."""
    U = feature.distinct
    m = U.size
    if m == 0:
        return 0.0, 0.0, None
    S = np.add.reduceat(delta[feature.order], feature.starts)
    cum = np.concatenate([[0.0], np.cumsum(S)])
    if op == ">":
        cost = cum[-1] - cum  # gaps 0..m: x > t covers U[g:]
        valid = np.arange(1, m)  # a cut below the least value is not a cut
    else:
        cost = cum  # x <= t covers U[:g]
        valid = np.arange(1, m + 1)  # gap m: t = the largest value (x <= max)
    g_now = int(np.searchsorted(U, current, side="right"))
    now = float(cost[g_now])
    if valid.size == 0:
        return now, now, None
    best = float(cost[valid].min())
    if best >= now - tol:
        if keep_ties:
            return now, now, None
        # already optimal: a cut that could pass training values at no cost moves to the
        # middle of that run of equally good gaps, the widest margin to the rows on either
        # side (a grid cut may sit at one end of a wide empty stretch, where dropping another
        # term cannot pay until it moves); a cut between its two fixed neighbours stays
        t = _central_cut(g_now, cost, valid, now, tol, U, feature.integer, m)
        return now, now, (None if t is None or t == current else t)
    # every optimal gap, in runs of neighbours; each run's cut is readable and central, and
    # of several runs the one nearest the current cut wins
    good = valid[cost[valid] <= best + tol]
    breaks = np.flatnonzero(np.diff(good) > 1)
    runs = np.split(good, breaks + 1)
    choices = []
    for run in runs:
        g1, g2 = int(run[0]), int(run[-1])
        if g2 == m:  # the gap above the largest value: x <= max
            t = float(U[-1]) if g1 == m else _readable_cut(U[g1 - 1], U[-1], feature.integer)
        else:
            t = _readable_cut(U[g1 - 1], U[g2], feature.integer)
        choices.append(t)
    t = min(choices, key=lambda v: (abs(v - current), v))
    return now, best, t


def refine_cuts(
    rule: DNF | CNF,
    X: pd.DataFrame,
    y,
    sample_weight=None,
    *,
    clause_cost: float = 0.0,
    term_cost: float = 0.0,
    negative_weight: float = 1.0,
    max_rounds: int = 10,
    given: dict | None = None,
) -> DNF | CNF:
    """The rule set with every numeric threshold moved to its best cut on ``(X, y)``.

    Parameters
    ----------
    rule : DNF or CNF
        The rule set, e.g. a learner's ``rules_``; it predicts 1 where it holds.
    X : DataFrame
        Training data with the columns the rule reads.
    y : array-like of shape (n_samples,)
        0/1 labels, 1 for the class the rule predicts.
    sample_weight : array-like of shape (n_samples,), optional
    clause_cost, term_cost : float, default=0
        The complexity costs of the objective (see :func:`rule_objective`), in the units of
        the weights: a term is dropped when it fixes less than ``term_cost``.
    negative_weight : float, default=1
        Cost of a false positive relative to a false negative.
    max_rounds : int, default=10
        Most passes over all the terms (each pass that moves nothing ends the search).
    given : dict, optional
        Column -> thresholds a user chose (``FeatureBinarizer(thresholds=...)``): a term on
        one of them moves only to a strictly better cut, never to re-centre a tie.

    Returns
    -------
    DNF or CNF
        Same type, clauses and order; threshold terms on new cuts, redundant terms merged,
        terms and clauses that do not pay for themselves dropped. Its
        :func:`rule_objective` is never above the input's. A new threshold lies between two
        neighbouring training values (of the rows where it matters): the midpoint of their
        gap, rounded to the fewest decimals that stay in the middle half of the gap; on an
        integer-valued feature, the lower of the two values.

    Notes
    -----
    A CNF is refined as column generation learns it: as the DNF of its negated terms
    (``x <= t`` becomes ``x > t``) on the complemented labels. Where a clause's feature is
    missing both a term and its negation are False, so on those rows the objective is the
    dual DNF's, as in column generation's integer program.
    """
    if not isinstance(max_rounds, numbers.Integral) or max_rounds < 0:
        raise ValueError(f"max_rounds must be a non-negative integer, got {max_rounds!r}")
    y, w = _check(rule, X, y, sample_weight)
    clauses, target, pos_w, neg_v = _dual(rule, y, w, negative_weight)
    # merge nested bounds on one feature: the same rows, fewer terms
    clauses = [list(Clause(tuple(c), "and").simplified().terms) for c in clauses]
    tol = 1e-9 * max(1.0, float(pos_w.sum() + neg_v.sum()))
    features: dict[str, _Feature] = {}
    costs = dict(clause_cost=clause_cost, term_cost=term_cost)
    problem = (X, target, pos_w, neg_v, tol, features, given or {}, max_rounds)
    plain = _search([list(c) for c in clauses], problem, costs, center=False)
    # A cut that is optimal but could pass training values at no cost may sit at one end of
    # a wide empty stretch, where dropping another term cannot pay until it moves (iris's
    # setosa rule kept 'petal length <= 3.52', next to versicolor, and a sepal-width term to
    # keep versicolor out). Searching again with such cuts centred in their stretch is kept
    # only where it then lowers the objective: moving a cut for a tie alone changed no
    # training row and, on notebook 07's sets, did not lower the test error.
    centred = _search([list(c) for c in plain], problem, costs, center=True)
    if _objective(centred, target, pos_w, neg_v, X, costs) < (
        _objective(plain, target, pos_w, neg_v, X, costs) - tol
    ):
        return _rebuild(rule, centred)
    return _rebuild(rule, plain)


def _objective(clauses, target, pos_w, neg_v, X, costs) -> float:
    """The objective of DNF-form ``clauses`` (term lists) on the dual problem (see
    :func:`rule_objective`)."""
    covered = np.zeros(len(X), dtype=bool)
    total = 0.0
    for terms in clauses:
        fires = np.logical_and.reduce(evaluate_terms(terms, X)) if terms else np.ones(len(X), bool)
        covered |= fires
        total += costs["clause_cost"] + costs["term_cost"] * len(terms)
        total += float(neg_v[fires & ~target].sum())
    return total + float(pos_w[target & ~covered].sum())


def _search(clauses, problem, costs, center: bool):
    """Coordinate search over the terms of ``clauses`` (DNF form, term lists), changed in
    place and returned: each threshold to its best cut, each term and clause that does not
    pay dropped, until a pass changes nothing; ``center`` moves a tied cut that could pass
    training values at no cost to the middle of its stretch."""
    X, target, pos_w, neg_v, tol, features, given, max_rounds = problem
    clause_cost, term_cost = costs["clause_cost"], costs["term_cost"]
    n = len(X)
    # the value of every term, and of every clause, on every row
    fires = [[f for f in evaluate_terms(c, X)] for c in clauses]
    cover = [np.logical_and.reduce(f) if f else np.ones(n, dtype=bool) for f in fires]
    count = np.sum(cover, axis=0, dtype=np.int32) if cover else np.zeros(n, dtype=np.int32)
    for _ in range(max_rounds):
        changed = False
        k = 0
        while k < len(clauses):
            j = 0
            while j < len(clauses[k]):
                term = clauses[k][j]
                others = [f for i, f in enumerate(fires[k]) if i != j]
                other = np.logical_and.reduce(others) if others else np.ones(n, dtype=bool)
                alone = (count - cover[k]) == 0
                # what covering a row adds: its cost if negative; minus its weight if a
                # positive no other clause covers; 0 where the other terms fail
                delta = np.where(target, np.where(alone, -pos_w, 0.0), neg_v)
                delta = np.where(other, delta, 0.0)
                now = float(delta[fires[k][j]].sum())
                drop = float(delta.sum()) - term_cost if len(clauses[k]) > 1 else math.inf
                new_term, best = None, now
                if _refinable(term, X):
                    if term.feature not in features:
                        features[term.feature] = _Feature(X[term.feature])
                    keep = not center or float(term.value) in given.get(term.feature, ())
                    _, best, t = _best_cut(
                        term.op, float(term.value), features[term.feature], delta, tol, keep
                    )
                    if t is not None:
                        new_term = Term(term.feature, term.op, t)
                if drop <= best + tol and drop <= now + tol:
                    del clauses[k][j], fires[k][j]
                    value = other
                elif new_term is not None:
                    clauses[k][j] = new_term
                    fires[k][j] = new_term.evaluate(X)
                    value = other & fires[k][j]
                    j += 1
                else:
                    j += 1
                    continue
                changed = True
                count = count - cover[k] + value
                cover[k] = value
            # a clause that no longer pays for itself goes
            saved = (
                clause_cost
                + term_cost * len(clauses[k])
                + float(neg_v[cover[k] & ~target].sum())
                - float(pos_w[cover[k] & target & (count == 1)].sum())
            )
            if saved > tol:
                count = count - cover[k]
                del clauses[k], fires[k], cover[k]
                changed = True
                continue
            k += 1
        if not changed:
            break
    return clauses
