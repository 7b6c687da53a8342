"""ColumnGenerationRules: a DNF (or CNF) rule set by column generation with exact pricing."""

from __future__ import annotations

import time
from numbers import Integral, Real

import numpy as np
import pandas as pd
from sklearn.model_selection import RepeatedStratifiedKFold, StratifiedKFold, check_cv
from sklearn.utils._param_validation import Interval, StrOptions

from .._base import fit_context
from ..cuts import refine_cuts as _refine_cuts
from ..cuts import rule_objective
from ..rules import CNF, DNF, Clause
from ..rulesets import LP_PARAMETERS, _RuleSetBase
from ._rows import BitMatrix, FoldArrangement, all_of, as_bit_matrix
from .multiclass import fit_ordered_rule_sets
from .pricing import price_exact  # noqa: F401  (compiled on import of the estimator)
from .solver import PRICING_METHODS, ColumnGenerationResult, ColumnGenerator, fires_any

__all__ = ["ColumnGenerationRules", "COMPLEXITY_PATH", "FORMS", "AUTO_CV_SAMPLES"]

COMPLEXITY_PATH = (0.02, 0.01, 0.005, 0.002, 0.001, 0.0005)
"""Clause costs (fractions of the training weight) tried by ``complexity="auto"``."""

FORMS = ("dnf", "cnf")
"""The rule forms tried by ``form="auto"``."""

AUTO_CV_SAMPLES = 1500
"""``cv="auto"`` repeats its 3-fold split about this many samples' worth (at most 5 times)."""


RACE_Z = 2.0
"""``form="auto"`` stops validating a form that lost the first split by this many standard
errors of the paired difference (see :func:`_race_forms`)."""


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


class ColumnGenerationRules(_RuleSetBase):
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

    **More than two classes** give an ordered list of per-class rule sets, RIPPER's
    (Cohen 1995): the classes are taken from the least to the most frequent (by training
    weight); each class but the last gets a DNF, learned by this same column generation
    (a clone with the same parameters, ``form="dnf"`` whatever ``form`` says, and, for
    ``complexity="auto"``, its own inner cross-validation, on the class's rows of the
    ``cv`` folds when they are given as index pairs) that separates it from the
    classes after it, on the training rows the earlier classes' rules left uncovered; the
    most frequent class is the default (a clause's cost is then a fraction of the weight
    of the rows its class is learned on). ``rules_`` is then a
    :class:`~rulelab.rules.DecisionList` read top to bottom, the first firing rule
    deciding, so every prediction has one reason, unlike one-vs-rest, whose per-class rule
    sets overlap and vote. Why this order: the rare classes get rules of their own, the
    most frequent class is stated by exclusion, and each per-class problem shrinks, as
    the rows already decided are not learned again. A row of an earlier class that its
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
        ``selection`` names.
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
        ``"auto"``: a 0/1 matrix is used as it is, anything else goes through
        ``FeatureBinarizer(n_thresholds)``; ``"passthrough"``: 0/1 input used as it is; or
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
        binariser's cut points, e.g. domain cuts given as ``FeatureBinarizer(thresholds=...)``.
        Binary problems only: a rule list for more than two classes keeps the binariser's
        cuts (each rule is learned against the classes after it, so a cut cannot be moved
        under one class's objective alone).

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
        **{
            k: LP_PARAMETERS[k]
            for k in ("n_thresholds", "binarizer", "binarize", "random_state", "time_limit")
        },
        "form": [StrOptions({"auto", *FORMS})],
        "complexity": [StrOptions({"auto"}), Interval(Real, 0, None, closed="left")],
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
        "complexity_path": ["array-like", None],
        "cv": [StrOptions({"auto"}), "cv_object"],
        "selection": [StrOptions({"one_se", "min"})],
        "refine_cuts": ["boolean"],
    }

    _multiclass = True  # an ordered list of per-class rule sets (see above)

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
            return self._fit_ordered(A, y01, w, start)
        # one bit per cell from here on (the byte-per-cell design is released): at ten
        # million rows it is the difference between 4 GB and 0.5 GB
        A = BitMatrix.from_dense(A)
        forms = FORMS if self.form == "auto" else (self.form,)
        path = (
            sorted(self.complexity_path or COMPLEXITY_PATH, reverse=True)
            if self.complexity == "auto"
            else [float(self.complexity)]
        )
        pool: list = []
        self.cv_results_ = None
        tuning = time.perf_counter()
        if len(forms) * len(path) > 1:
            self.form_, self.chosen_complexity_, pool = self._choose(A, y01, w, forms, path, start)
        else:
            self.form_, self.chosen_complexity_ = forms[0], path[0]
        self.tuning_seconds_ = time.perf_counter() - tuning
        target, weight = self._problem(y01, w, self.form_)
        result = self._solve(
            self._generator(A, target, weight, self.form_, pool),
            self.chosen_complexity_,
            weight,
            self._remaining(start),
        )
        self._store(result, A, target)
        self.grid_rules_, self.refined_objective_ = self.rules_, None
        if self.refine_cuts:
            clause, term = self._costs(self.chosen_complexity_, weight)
            options = {
                "clause_cost": clause,
                "term_cost": term,
                "negative_weight": self.negative_weight,
            }
            self.rules_ = _refine_cuts(self.rules_, frame, y01, w, **options)
            self.refined_objective_ = rule_objective(self.rules_, frame, y01, w, **options)
        return self

    def _fit_ordered(self, A, y_index, w, start):
        """More than two classes: RIPPER's ordered per-class DNFs (see the class docstring)."""
        for stale in (
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
        ):
            # a binary fit's, from an earlier fit (and no class is "the positive" here)
            self.__dict__.pop(stale, None)
        fallback = (
            float(max(self.complexity_path or COMPLEXITY_PATH))
            if self.complexity == "auto"
            else float(self.complexity)
        )
        self.rules_, self.class_fits_ = fit_ordered_rule_sets(
            self,
            A,
            np.asarray(y_index, dtype=np.int64),
            w,
            self.classes_,
            self.terms_,
            fallback,
            self._remaining(start),
        )
        self.tuning_seconds_ = float(
            self.class_fits_.get("tuning_seconds", pd.Series([], dtype=float)).sum()
        )
        hits = self.class_fits_.get("limits_hit", pd.Series([], dtype=object))
        self.limits_hit_ = tuple(
            dict.fromkeys(name for names in hits if isinstance(names, tuple) for name in names)
        )
        return self

    def _problem(self, y01, w, form):
        """The DNF problem solved: (target, weight). CNF: the complemented problem, with
        the weights arranged so that ``negative_weight`` still prices a false positive."""
        if form == "dnf":
            return y01.astype(bool), w
        target = ~y01.astype(bool)
        return target, np.where(target, self.negative_weight * w, w)

    def _costs(self, complexity: float, weight: np.ndarray) -> tuple[float, float]:
        clause = complexity * float(weight.sum())
        return clause, clause * self.term_cost

    def _generator(self, A, target, weight, form, pool=()) -> ColumnGenerator:
        """Column generation on one (DNF) problem, started from the clauses ``pool``."""
        negative_weight = self.negative_weight if form == "dnf" else 1.0
        generator = ColumnGenerator(A, target, weight, negative_weight=negative_weight)
        generator.add(list(pool))
        return generator

    def _solve(
        self,
        generator: ColumnGenerator,
        complexity: float,
        weight: np.ndarray,
        time_limit,
        inner: bool = False,
    ) -> ColumnGenerationResult:
        """One column-generation run at ``complexity``, going on from the generator's
        columns and LP basis. ``inner``: a fit of the complexity search, which only needs a
        good rule set to validate (beam pricing, greedy rounding, no proof)."""
        clause, term = self._costs(complexity, weight)
        pricing = "beam" if inner and self.pricing == "exact" else self.pricing
        return generator.run(
            clause_cost=clause,
            term_cost=term,
            max_terms=self.max_terms,
            columns_per_round=self.columns_per_round,
            max_rounds=self.max_rounds,
            pricing=pricing,
            screening=self.screening,
            beam_width=self.beam_width,
            exact_max_items=self.exact_max_items,
            pricing_time_limit=self.pricing_time_limit,
            exact_budget=self.exact_budget,
            integer="greedy" if inner else "milp",
            integer_time_limit=self.integer_time_limit,
            integer_node_limit=self.integer_node_limit,
            integer_solution_limit=self.integer_solution_limit,
            time_limit=time_limit,
            close_gap=not inner,
        )

    def _remaining(self, start: float) -> float | None:
        if self.time_limit is None:
            return None
        return max(self.time_limit - (time.perf_counter() - start), 1.0)

    def _choose(self, A, y01, w, forms, path, start):
        """Inner cross-validation over the forms and the complexity path, from the simplest
        rule sets to the richest; each fold carries its generated columns along the path.
        Returns (form, complexity, the clauses to start the final fit from)."""
        cv = self.cv
        auto = isinstance(cv, str)  # "auto", the only string _parameter_constraints allow
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
                StratifiedKFold(k, shuffle=True, random_state=self.random_state)
                if repeats == 1
                else RepeatedStratifiedKFold(
                    n_splits=k, n_repeats=repeats, random_state=self.random_state
                )
            )
        else:
            folds = check_cv(cv, y01, classifier=True)
        # validation errors are priced as the fit prices them: a false positive costs
        # negative_weight, whichever form is learned
        cost = w * np.where(y01 == 1, 1.0, self.negative_weight)
        rows, pools = [], {}
        # splitters read only the number of rows from X
        splits = list(folds.split(np.zeros((y01.size, 1)), y01))
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
                    target, weight = self._problem(y01[tr], w[tr], form)
                    # one live master along the path: each cost goes on from the last one's
                    # columns and LP basis
                    generator = self._generator(A_tr, target, weight, form)
                    for c in path:
                        budget = self._remaining(start)
                        if budget is not None:
                            budget = budget / (2 * n_fits)
                        res = self._solve(generator, c, weight, budget, inner=True)
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
                generator = None  # this fold's master released before the next fold's
        finally:
            generator = A_tr = A_va = None  # the last fold's master and views, released
            arrangement.restore()
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
        best_by_form = (
            summary[summary["form"].isin(active)].groupby("form", sort=False)["error"].min()
        )
        form = str(best_by_form.index[int(np.argmin(best_by_form.to_numpy()))])
        mine = summary[summary["form"] == form]
        best = mine.loc[mine["error"].idxmin()]
        # ... and along its path the simplest rule set whose validation error is the
        # lowest ("min"; a tie goes to the simpler) or within one standard error of it
        # ("one_se", Breiman et al. 1984: a richer rule set must be clearly better).
        slack = np.nan_to_num(best["error_se"]) if self.selection == "one_se" else 0.0
        within = mine["error"] <= best["error"] + slack + 1e-12
        chosen = float(mine.loc[within, "complexity"].max())
        summary["chosen"] = (summary["form"] == form) & (summary["complexity"] == chosen)
        self.cv_results_ = summary
        # Start the final fit from the clauses the folds chose at this and nearby costs.
        near = [c for c in path if chosen / 2.5 <= c <= chosen * 2.5]
        return form, chosen, sorted(set().union(*(pools[form, c] for c in near)))

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
