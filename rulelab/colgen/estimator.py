"""ColumnGenerationRules: a DNF (or CNF) rule set by column generation with exact pricing.

:class:`ColumnGenerationRules` is the estimator at given settings; ``form="auto"`` and
``complexity="auto"`` (its defaults) choose them by the inner cross-validation of
:mod:`._inner_cv`, the engine :class:`~rulelab.colgen.selection.ColumnGenerationRulesCV`
exposes as a model-selection estimator of its own.
"""

from __future__ import annotations

import time
from dataclasses import asdict
from numbers import Integral, Real

import numpy as np
import pandas as pd
from sklearn.utils._param_validation import Interval, StrOptions

from .._base import fit_context
from ..cuts import refine_cuts as _refine_cuts
from ..cuts import rule_objective
from ..rules import CNF, DNF, Clause
from ..rulesets import LP_PARAMETERS, _RuleSetBase
from ._inner_cv import (
    AUTO_CV_SAMPLES,
    COMPLEXITY_PATH,
    FORMS,
    RACE_Z,
    _race_forms,  # noqa: F401  (where tests and older callers find it)
    generator,
    select,
    solve,
)
from ._options import PRICING_METHODS, FitOptions
from ._rows import BitMatrix, all_of
from .multiclass import CLASS_ORDERS, fit_ordered_rule_sets
from .pricing import price_exact  # noqa: F401  (compiled on import of the estimator)
from .solver import ColumnGenerationResult

__all__ = ["ColumnGenerationRules", "COMPLEXITY_PATH", "FORMS", "AUTO_CV_SAMPLES", "RACE_Z"]

#: The parameters of one column-generation fit at given settings, shared by
#: :class:`ColumnGenerationRules` and ``ColumnGenerationRulesCV`` (scikit-learn's
#: declaration; the search's parameters are in SEARCH_CONSTRAINTS).
FIT_CONSTRAINTS = {
    **{k: LP_PARAMETERS[k] for k in ("n_thresholds", "binarizer", "random_state", "time_limit")},
    "form": [StrOptions({"auto", *FORMS})],
    "term_cost": [Interval(Real, 0, None, closed="left")],
    "max_terms": [Interval(Integral, 1, None, closed="left")],
    "negative_weight": [Interval(Real, 0, None, closed="left")],
    "columns_per_round": [Interval(Integral, 1, None, closed="left")],
    "max_rounds": [Interval(Integral, 1, None, closed="left")],
    "pricing": [StrOptions(set(PRICING_METHODS))],
    "screening": ["boolean"],
    "beam_width": [Interval(Integral, 1, None, closed="left")],
    "exact_max_items": [Interval(Integral, 1, None, closed="left"), None],
    "pricing_time_limit": [Interval(Real, 0, None, closed="neither"), None],
    "exact_budget": [Interval(Real, 0, None, closed="neither"), None],
    "integer_time_limit": [Interval(Real, 0, None, closed="neither"), None],
    "integer_node_limit": [Interval(Integral, 0, None, closed="left"), None],
    "integer_solution_limit": [Interval(Integral, 1, None, closed="left"), None],
    "refine_cuts": ["boolean"],
    "class_order": [StrOptions(set(CLASS_ORDERS))],
}

#: The search's parameters (``form="auto"`` is declared with the form above).
SEARCH_CONSTRAINTS = {
    "complexity_path": ["array-like", None],
    "cv": [StrOptions({"auto"}), "cv_object"],
    "selection": [StrOptions({"one_se", "min"})],
}

#: A binary fit's attributes, dropped by a fit on more than two classes (no class is "the
#: positive" there).
_BINARY_ATTRIBUTES = (
    "form_",
    "chosen_complexity_",
    "objective_",
    "lp_value_",
    "lower_bound_",
    "gap_",
    "proved_optimal_",
    "n_columns_",
    "history_",
    "pricing_used_",
    "stop_reason_",
    "integer_status_",
    "cv_results_",
    "itemsets_",
    "positive_label_",
    "grid_rules_",
    "refined_objective_",
)


class _ColumnGenerationBase(_RuleSetBase):
    """The fit both column-generation estimators share (not used directly).

    A subclass says which forms and clause costs are candidates
    (:meth:`_candidates`) and which estimator learns each class's rule set on more than
    two classes (:meth:`_class_template`); the fit validates them by the inner
    cross-validation when there is a choice to make, then fits the chosen settings on all
    the training rows, started from the clauses the folds chose.
    """

    _multiclass = True  # an ordered list of per-class rule sets (see ColumnGenerationRules)
    # A clause is a conjunction of items, so on 0/1 columns taken as they are it can say
    # "x is 1" but never "x is 0": ten digits of seven noisy segments got IF TRUE THEN one
    # class. Under binarizer="auto" a 0/1 column gives both terms (BRCG reads a binary
    # feature and its negation alike); binarizer="passthrough" still takes the items as
    # they are.
    _binary_columns_both_ways = True

    def _candidates(self) -> tuple[tuple, list]:
        """(forms, clause costs from the largest to the smallest) to choose among."""
        raise NotImplementedError

    def _class_template(self):
        """The estimator each class's rule set is learned by a clone of."""
        raise NotImplementedError

    # ---- fitting ----------------------------------------------------------------------
    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Learn the rule set from ``X`` and ``y`` (optionally weighted samples): a DNF or
        CNF on two classes, an ordered list of per-class DNFs on more."""
        start = time.perf_counter()
        A, y01, frame = self._validate_fit(X, y)
        w = np.ones(y01.size) if sample_weight is None else np.asarray(sample_weight, float)
        if w.shape != (y01.size,) or not np.all(np.isfinite(w)) or (w < 0).any():
            raise ValueError(
                "sample_weight must be a finite, non-negative array with one weight per sample"
            )
        if not w.sum() > 0:
            raise ValueError("sample_weight sums to zero: no sample would count")
        self._training_weight = w  # predict_proba's training counts are weighted too
        self.__dict__.pop("class_fits_", None)
        if self.classes_.size > 2:
            return self._fit_ordered(A, y01, w, start, frame)
        # one bit per cell from here on (the byte-per-cell design is released): at ten
        # million rows it is the difference between 4 GB and 0.5 GB
        A = BitMatrix.from_dense(A)
        forms, path = self._candidates()
        options = FitOptions.of(self)  # built once: the folds' fits and the final one
        pool: list = []
        self.cv_results_ = None
        tuning = time.perf_counter()
        if len(forms) * len(path) > 1:
            chosen = select(
                A,
                y01,
                w,
                forms=forms,
                path=path,
                cv=self.cv,
                selection=self.selection,
                random_state=self.random_state,
                options=options,
                budget=lambda: self._remaining(start),
            )
            self.form_, self.chosen_complexity_ = chosen.form, chosen.complexity
            self.cv_results_, pool = chosen.cv_results, chosen.pool
        else:
            self.form_, self.chosen_complexity_ = forms[0], path[0]
        self.tuning_seconds_ = time.perf_counter() - tuning
        target, weight = options.problem(y01, w, self.form_)
        result = solve(
            generator(A, target, weight, self.form_, options, pool),
            self.chosen_complexity_,
            weight,
            options,
            self._remaining(start),
        )
        self._store(result, A, target)
        self.grid_rules_, self.refined_objective_ = self.rules_, None
        if self.refine_cuts:
            cuts = asdict(options.cuts(self.chosen_complexity_, weight))
            self.rules_ = _refine_cuts(self.rules_, frame, y01, w, **cuts, given=self._given_cuts())
            self.refined_objective_ = rule_objective(self.rules_, frame, y01, w, **cuts)
        return self

    def _fit_ordered(self, A, y_index, w, start, frame):
        """More than two classes: RIPPER's ordered per-class DNFs (see
        :class:`ColumnGenerationRules`)."""
        for stale in _BINARY_ATTRIBUTES:
            # a binary fit's, from an earlier fit (and no class is "the positive" here)
            self.__dict__.pop(stale, None)
        # the cost of a class too small for the inner folds: the simplest on the path
        fallback = float(max(self._candidates()[1]))
        self.rules_, self.class_fits_ = fit_ordered_rule_sets(
            self._class_template(),
            A,
            np.asarray(y_index, dtype=np.int64),
            w,
            self.classes_,
            self.terms_,
            fallback,
            self._remaining(start),
            frame if self.refine_cuts else None,
            self._given_cuts(),
        )
        self.tuning_seconds_ = float(
            self.class_fits_.get("tuning_seconds", pd.Series([], dtype=float)).sum()
        )
        hits = self.class_fits_.get("limits_hit", pd.Series([], dtype=object))
        self.limits_hit_ = tuple(
            dict.fromkeys(name for names in hits if isinstance(names, tuple) for name in names)
        )
        return self

    def _given_cuts(self) -> dict:
        """The thresholds the user gave the binariser (column -> cuts), which the cut-point
        refinement leaves where they are unless a strictly better cut exists."""
        given = getattr(getattr(self, "binarizer_", None), "thresholds", None)
        return {k: [float(t) for t in np.ravel(v)] for k, v in (given or {}).items()}

    def _remaining(self, start: float) -> float | None:
        if self.time_limit is None:
            return None
        return max(self.time_limit - (time.perf_counter() - start), 1.0)

    def _store(self, result: ColumnGenerationResult, A, target) -> None:
        itemsets = [result.pool[k] for k in np.flatnonzero(result.chosen)]
        # the clauses by the number of samples they cover, most first, to read in order
        covered = [int(all_of(A, s).sum()) for s in itemsets]
        itemsets = [s for _, s in sorted(zip(covered, itemsets), key=lambda t: -t[0])]
        self.itemsets_ = itemsets
        if self.form_ == "dnf":
            clauses = [Clause(tuple(self.terms_[j] for j in s), "and") for s in itemsets]
            self.rules_ = DNF(clauses, then=self.positive_label_)
        else:
            clauses = [Clause(tuple(self.terms_[j].negate() for j in s), "or") for s in itemsets]
            self.rules_ = CNF(clauses, then=self.positive_label_)
        self.objective_ = result.objective
        self.lp_value_ = result.lp_value
        self.lower_bound_ = result.lower_bound
        self.gap_ = result.gap
        self.proved_optimal_ = result.proved_optimal
        self.n_columns_ = len(result.pool)
        self.history_ = pd.DataFrame(result.history)
        self.pricing_used_ = (
            tuple(dict.fromkeys(self.history_["pricing"])) if len(self.history_) else ()
        )
        self.stop_reason_ = result.stop_reason
        self.integer_status_ = result.integer_status
        self.limits_hit_ = result.limits_hit

    def certificate(self) -> str:
        """One paragraph: the rule set's objective, the bound and what proves it."""
        if not hasattr(self, "rules_"):
            raise AttributeError("fit the model first")
        if hasattr(self, "class_fits_"):
            raise AttributeError(
                "a model of more than two classes has one certificate per "
                "class's rule set: see class_fits_ (objective, lower_bound)"
            )
        rounds = int((self.history_["pricing"] != "gap enumeration").sum())
        beam = int((self.history_["pricing"] == "beam fallback").sum())
        text = (
            f"{len(self.rules_.clauses)} clauses, {self.rules_.n_terms} terms; training "
            f"objective {self.objective_:.4g} after {rounds} rounds and "
            f"{self.n_columns_} generated conjunctions (complexity "
            f"{self.chosen_complexity_:g})."
        )
        if self.proved_optimal_:
            text += (
                " Proved optimal: no rule set with clauses of at most "
                f"{self.max_terms} terms has a lower objective."
            )
        elif self.lower_bound_ is not None:
            how = (
                "exact pricing found no improving conjunction"
                if self.stop_reason_ == "no improving column (proved)"
                else "Lagrangian bound of the exact pricing rounds"
            )
            text += f" Lower bound {self.lower_bound_:.4g} ({how}): gap {100 * self.gap_:.2f} %."
        else:
            text += f" No bound: {self.stop_reason_}."
        if beam:
            text += (
                f" {beam} round(s) fell back to beam search (wider than exact_max_items, "
                "past pricing_time_limit or past exact_budget)."
            )
        return text


class ColumnGenerationRules(_ColumnGenerationBase):
    """A DNF (OR of AND-clauses) or CNF rule set learned by column generation.

    The rule-set integer program — weighted uncovered positives, plus weighted covered
    negatives, plus a complexity cost for every clause — has one column per conjunction.
    Its LP relaxation (papers 1-2) is solved by HiGHS over the conjunctions generated so
    far; the duals price every other conjunction, and an exact depth-first itemset search
    with a branch-and-bound (GRAB's weighted itemset search, paper 4) returns the
    conjunctions of most negative reduced cost, after screening out the items that cannot
    price out (paper 3). When the search proves that no improving conjunction exists, the
    LP value is a lower bound (``lower_bound_``) on the training objective of every rule
    set with clauses of at most ``max_terms`` terms. An integer solve over the generated
    conjunctions gives the rule set; if it is above the bound, every conjunction whose
    reduced cost is below the gap is added and the integer program solved again, which
    proves optimality (``proved_optimal_``).

    The objective charges a covered negative once per clause covering it (as BRCG, Dash,
    Günlük & Wei 2018, does), so it is an upper bound on the weighted training errors,
    equal to them when the clauses do not overlap on negatives.

    **Settings and their search.** This estimator fits the form and clause cost it is
    given; their search by inner cross-validation is
    :class:`~rulelab.colgen.selection.ColumnGenerationRulesCV` (scikit-learn's
    ``Lasso``/``LassoCV`` split). ``form="auto"`` and ``complexity="auto"``, the defaults,
    run that same search, so that ``ColumnGenerationRules()`` learns a good rule set with
    no tuning and learns what it always has; a fixed ``form`` and ``complexity`` skip it.

    **More than two classes** give an ordered list of per-class rule sets, RIPPER's
    (Cohen 1995), in the order ``class_order`` names: by default from the class that rules
    separate best from the others to the one they separate worst, RIPPER's own from the
    least to the most frequent; each class but the last gets a DNF, learned by this same column generation
    (a clone with the same parameters, ``form="dnf"`` whatever ``form`` says, and, for
    ``complexity="auto"``, its own inner cross-validation, on the class's rows of the
    ``cv`` folds when they are given as index pairs) that separates it from the
    classes after it, on the training rows the earlier classes' rules left uncovered; the
    last class is the default (a clause's cost is then a fraction of the weight
    of the rows its class is learned on). ``rules_`` is then a
    :class:`~rulelab.rules.DecisionList` read top to bottom, the first firing rule
    deciding, so every prediction has one reason, unlike one-vs-rest, whose per-class rule
    sets overlap and vote. Why a list: the default class is stated by exclusion, and each
    per-class problem shrinks, as the rows already decided are not learned again. A row of an earlier class that its
    rules missed is left out of the later classes' problems: it is misclassified
    whatever they say, so it should not shape them. The forced DNF keeps each rule an
    ``IF clause THEN class`` line (a CNF has no first-firing clause to read). Each class's
    DNF is certified as in the binary case, on its own problem (``class_fits_``); the list
    as a whole carries no bound. ``predict_proba`` gives, for each rule, the class
    frequencies among the training rows it decided (and for the default those among the
    rows no rule covers), Laplace-smoothed; ``decision_function`` the decided class, one-hot
    (scikit-learn's multiclass shape: a list has no graded score beyond its rules).

    Parameters
    ----------
    form : {"auto", "dnf", "cnf"}, default="auto"
        ``"cnf"`` learns the DNF of the complemented problem and negates it (De Morgan):
        an AND of OR-clauses. ``"auto"`` chooses between the two by the inner
        cross-validation (the form whose best validation error is lower; see
        ``complexity``): a class that is the union of a few regions is a short DNF, a class
        whose complement is, a short CNF. A form that loses the first inner split clearly
        (by ``RACE_Z`` standard errors of the paired difference) is not validated further.
    complexity : "auto" or float, default="auto"
        Cost of one clause as a fraction of the total training weight (0.001: a clause
        must fix 0.1 % of the training samples to pay for itself). ``"auto"`` chooses it
        from :data:`COMPLEXITY_PATH` (or ``complexity_path``) by an inner ``cv``-fold
        cross-validation that reuses the columns generated along the path (its fits price
        by beam search and round the LP greedily; the final fit is exact), by the rule
        ``selection`` names: the search of ``ColumnGenerationRulesCV``.
    term_cost : float, default=1.0
        Cost of each term, as a multiple of the clause cost.
    max_terms : int, default=4
        Most terms in a clause. Fixed rather than chosen by the inner cross-validation,
        whose validation errors on a few hundred samples do not tell the lengths apart
        (the comparison is in ``benchmarks/library/bench_colgen.py`` and the CHANGELOG).
    negative_weight : float, default=1.0
        Cost of a false positive relative to a false negative.
    columns_per_round : int, default=10
        Conjunctions added to the master LP per round.
    max_rounds : int, default=100
    pricing : {"exact", "beam", "milp"}, default="exact"
        Exact itemset search, beam search, or a HiGHS MILP per round (BRCG's pricing).
    screening : bool, default=True
        Drop the items that cannot price out before each search.
    beam_width : int, default=10
    exact_max_items : int, optional
        Wider data than this many binarised columns is priced by beam search (the fit
        says so in ``pricing_used_``); None: always exact.
    pricing_time_limit : float or None, default=None
        Seconds per exact search; a search cut short falls back to beam search, and the
        fit then has no certified bound. A clock limit, off by default: ``exact_budget``
        already bounds the exact search by its count of work, and a clock limit would make
        the rule set depend on the machine's speed and load wherever it bound.
    exact_budget : float or None, default=1
        Seconds of exact search in the final fit, counted in work rather than on the
        clock (see :data:`~.solver.EXACT_WORK_PER_SECOND`), so that the fit does not
        depend on the machine's speed or load. Column generation's last rounds improve
        the LP by little while each exact search grows dearer; once the budget is spent
        the rounds go on by beam search, and the bound is the best Lagrangian bound of the
        exact rounds (see ``lower_bound_``). None: exact to the end.
    integer_node_limit : int or None, default=1000
        Branch-and-bound nodes for each integer solve (HiGHS's ``mip_max_nodes``). HiGHS
        starts from the greedy rounding of the LP, so the rule set is never worse than
        that. A count of work, not of seconds, so that where it binds the rule set is the
        same on every machine and under any load. None: no limit.
    integer_solution_limit : int or None, default=2
        Improving solutions each integer solve may find beyond its start (HiGHS's
        ``mip_max_improving_sols``), also a count. The node count does not limit HiGHS's
        root node (its cuts and heuristics), which on wide data can run long after its
        heuristics found their best solutions; this limit ends the solve there. A solve it stops on a solution whose gap is closed
        still counts as optimal. None: no limit.
    integer_time_limit : float or None, default=None
        Seconds for each integer solve, on top of the counts above. A clock limit: where
        it binds, the rule set depends on how far HiGHS got, and so on the machine's speed
        and load. None: no clock limit.
    time_limit : float, optional
        Seconds for the whole fit (the complexity search included); a clock limit, off by
        default.
    complexity_path : sequence of float, optional
        The path of ``complexity="auto"``.
    cv : "auto", int, cross-validation generator or iterable, default="auto"
        Inner folds of ``complexity="auto"``. An int: that many stratified folds, shuffled
        with ``random_state``, at most as many as the smaller class has samples.
        ``"auto"``: 3 such folds, repeated with new shuffles ``round(AUTO_CV_SAMPLES /
        n_samples)`` times (1 to 5): on a few hundred samples the validation errors of one
        split differ by more than the complexities they compare, so their minimum would
        pick noise; from about 2,000 samples one split is enough and the expensive fits
        are not repeated. (Repeated splits overlap, so ``error_se`` then understates the
        uncertainty, which makes ``"one_se"`` a little less conservative.)
    selection : {"min", "one_se"}, default="min"
        How the inner cross-validation picks the complexity: ``"min"`` the lowest mean
        validation error (a tie goes to the simpler rule sets); ``"one_se"`` the largest
        cost whose validation error is within one standard error of the lowest (Breiman
        et al. 1984), which favours fewer clauses at some cost in accuracy.
    n_thresholds : int, default=10
        Quantile thresholds per numeric feature, both directions.
    binarizer : {"auto", "passthrough"} or binariser, default="auto"
        ``"auto"``: ``FeatureBinarizer(n_thresholds)``, which gives a 0/1 column both
        terms (``x == 1`` and ``x == 0``: a clause must be able to say either);
        ``"passthrough"``: 0/1 input used as it is, each column an item; or
        an unfitted binariser with ``terms_`` (``FeatureBinarizer(...)``,
        ``CellBinarizer(...)``), fitted on the training data.
    random_state : int, optional
        Seed of the inner cross-validation's folds.
    binarize : deprecated
        Use ``binarizer``: ``binarize=False`` is ``binarizer="passthrough"``.
    refine_cuts : bool, default=True
        After the rule set is chosen, move each numeric threshold to the best cut among the
        training values under the same objective, one term at a time with the rest fixed,
        merge nested terms on one feature and drop terms and clauses that no longer pay for
        themselves (:func:`rulelab.cuts.refine_cuts`): the binariser's quantiles only
        offer a few cut points, and a rule whose cut lies between two of them is learned
        with the nearest. The complexity search itself runs on the grid. On by
        default because it lowers the out-of-sample error on planted rules with cuts off
        the grid (to the noise floor) and, on average, on notebook 07's eleven data sets,
        with no more terms (``benchmarks/library/bench_cuts.py`` prints both). ``False`` keeps the
        binariser's cut points; domain cuts given as ``FeatureBinarizer(thresholds=...)``
        move only where a strictly better cut exists. A cut already optimal but free to pass
        training values at no cost is tried in the middle of that stretch, and kept there
        where that then lets a term or clause go (on the grid, setosa's petal-length cut sat
        at 3.52, next to the next class, with a sepal-width term to keep that class out). On
        more than two classes each class's rules are refined on its own problem (its rows
        left, against the classes after it) before the next class is learned, which then
        starts from the rows the refined rules leave.
    class_order : {"difficulty", "frequency"}, default="difficulty"
        The order of the classes in a list on more than two classes (two classes ignore
        it). ``"difficulty"``: each class's DNF against all the others is first learned
        cheaply (beam pricing, greedy rounding, at the clause cost or, for ``"auto"``, at
        :data:`~rulelab.colgen.multiclass.DIFFICULTY_COMPLEXITY`) and scored by its
        training objective (weighted errors plus the cost of its clauses and terms); the
        classes go from the lowest score to the highest, and the class whose rules would
        err most becomes the default, which needs none (``class_fits_["difficulty"]``). ``"frequency"``: RIPPER's, from the least to the
        most frequent class by training weight. The default because on classes of equal
        size RIPPER's order is arbitrary and may learn the hardest class first, against
        every other class (``benchmarks/repro/bench_multiclass_lists.py`` compares both).

    Attributes
    ----------
    rules_ : DNF or CNF
        The rule set; ``str(model)`` prints it in words.
    grid_rules_ : DNF or CNF
        The rule set on the binariser's cut points, as column generation chose it
        (``rules_`` when ``refine_cuts=False``).
    refined_objective_ : float or None
        The training objective of ``rules_`` after ``refine_cuts`` (never above
        ``objective_``, which with ``lower_bound_``, ``gap_`` and ``itemsets_`` describes
        ``grid_rules_``); None without it.
    form_ : {"dnf", "cnf"}
        The form learned (chosen by the inner cross-validation for ``form="auto"``).
    chosen_complexity_ : float
        The clause cost used (chosen by the inner cross-validation for ``"auto"``).
    objective_ : float
        The rule set's training objective, in samples (weights).
    lower_bound_ : float or None
        No rule set with clauses of at most ``max_terms`` terms has a lower training
        objective: the final LP value when exact pricing proved that no improving
        conjunction exists; else, when ``exact_budget`` ended the exact search first, the
        best Lagrangian bound of its rounds (LP value + (LP value / the cheapest clause's
        cost) x the most negative reduced cost); None without an exact round.
    gap_ : float or None
        ``(objective_ - lower_bound_) / objective_``; 0 when proved optimal.
    proved_optimal_ : bool
    n_columns_ : int
        Conjunctions generated.
    history_ : DataFrame
        Per round of the final fit: LP value, columns, best reduced cost, pricing method.
    pricing_used_ : tuple of str
        The pricing methods the final fit used: with exact pricing, ``"beam"`` rounds are
        the cheap first try of each round (the certificate is still exact), and
        ``"beam fallback"`` rounds are those where the data was wider than
        ``exact_max_items`` or the exact search hit ``exact_budget`` or
        ``pricing_time_limit``.
    limits_hit_ : tuple of str
        The limits that stopped something in the final fit, by parameter name, each once:
        ``"exact_budget"``, ``"pricing_time_limit"``, ``"max_rounds"``, ``"time_limit"``,
        ``"integer_node_limit"``, ``"integer_solution_limit"``,
        ``"integer_time_limit"``. Empty when nothing was cut short. The clock limits
        (``*time_limit``) are the ones that make a fit depend on the machine. More than
        two classes: every class's limits together.
    cv_results_ : DataFrame or None
        For ``"auto"``: every form and complexity tried with its mean validation error,
        its standard error over the folds, the mean size, the number of folds it was
        validated on (one for a form raced out after the first split) and which was chosen.
    tuning_seconds_ : float
        Seconds the fit spent choosing its form and complexity (the inner
        cross-validation; 0 when both are given), so that its fit time can be compared with
        a learner run at fixed parameters. More than two classes: the sum over the classes.
    class_fits_ : DataFrame
        More than two classes only: one row per class in the order learned (the default
        last), with the rows it was learned on, its positives and negatives there, its
        rules, and its binary fit's complexity, objective and lower bound. The binary
        fit's attributes above (``form_`` to ``cv_results_``) are then not set.
    classes_ : ndarray of shape (n_classes,)

    Examples
    --------
    >>> from rulelab import ColumnGenerationRules, load_dataset
    >>> X, y = load_dataset("pima")
    >>> print(ColumnGenerationRules().fit(X, y))                     # doctest: +SKIP
    """

    _parameter_constraints = {
        **FIT_CONSTRAINTS,
        **SEARCH_CONSTRAINTS,
        "binarize": LP_PARAMETERS["binarize"],
        "complexity": [StrOptions({"auto"}), Interval(Real, 0, None, closed="left")],
    }

    def __init__(
        self,
        form: str = "auto",
        complexity="auto",
        term_cost: float = 1.0,
        max_terms: int = 4,
        negative_weight: float = 1.0,
        columns_per_round: int = 10,
        max_rounds: int = 100,
        pricing: str = "exact",
        screening: bool = True,
        beam_width: int = 10,
        exact_max_items: int | None = None,
        pricing_time_limit: float | None = None,
        exact_budget: float | None = 1.0,
        integer_node_limit: int | None = 1000,
        integer_solution_limit: int | None = 2,
        integer_time_limit: float | None = None,
        time_limit: float | None = None,
        complexity_path=None,
        cv="auto",
        selection: str = "min",
        n_thresholds: int = 10,
        binarizer="auto",
        random_state=None,
        binarize=None,
        refine_cuts: bool = True,
        class_order: str = "difficulty",
    ):
        self.form = form
        self.complexity = complexity
        self.term_cost = term_cost
        self.max_terms = max_terms
        self.negative_weight = negative_weight
        self.columns_per_round = columns_per_round
        self.max_rounds = max_rounds
        self.pricing = pricing
        self.screening = screening
        self.beam_width = beam_width
        self.exact_max_items = exact_max_items
        self.pricing_time_limit = pricing_time_limit
        self.exact_budget = exact_budget
        self.integer_node_limit = integer_node_limit
        self.integer_solution_limit = integer_solution_limit
        self.integer_time_limit = integer_time_limit
        self.time_limit = time_limit
        self.complexity_path = complexity_path
        self.cv = cv
        self.selection = selection
        self.n_thresholds = n_thresholds
        self.binarizer = binarizer
        self.random_state = random_state
        self.binarize = binarize
        self.refine_cuts = refine_cuts
        self.class_order = class_order

    def _candidates(self) -> tuple[tuple, list]:
        forms = FORMS if self.form == "auto" else (self.form,)
        path = (
            sorted(self.complexity_path or COMPLEXITY_PATH, reverse=True)
            if self.complexity == "auto"
            else [float(self.complexity)]
        )
        return forms, path

    def _class_template(self):
        return self
