"""ColumnGenerationRulesCV: column generation's form and complexity chosen by inner CV.

scikit-learn's split between ``Lasso`` and ``LassoCV``: :class:`~rulelab.ColumnGenerationRules`
fits the settings it is given, :class:`ColumnGenerationRulesCV` searches them. Both run
one engine (:mod:`._inner_cv`), so ``ColumnGenerationRulesCV()`` learns what
``ColumnGenerationRules()`` learns with its ``"auto"`` defaults.
"""

from __future__ import annotations

from ._inner_cv import COMPLEXITY_PATH, FORMS
from .estimator import FIT_CONSTRAINTS, SEARCH_CONSTRAINTS, ColumnGenerationRules
from .estimator import _ColumnGenerationBase as _Base

__all__ = ["ColumnGenerationRulesCV"]


class ColumnGenerationRulesCV(_Base):
    """A column-generation rule set whose form and clause cost are chosen by inner CV.

    Every form of ``form`` and every clause cost of ``complexity_path`` is validated on the
    ``cv`` folds of the training rows: each fold carries one live master LP along the path,
    from the largest cost (the simplest rule sets) to the smallest, so each cost goes on
    from the last one's columns and LP basis; the folds' fits price by beam search and
    round the LP greedily, as they only need a good rule set to validate. The pair the
    records pick by ``selection`` is then fitted on all the training rows, exactly (the
    fit of :class:`~rulelab.ColumnGenerationRules` at that form and cost, started from the
    clauses the folds chose at that and nearby costs, which shortens it). The fitted model
    is that refit: it predicts, prints and certifies as a ``ColumnGenerationRules`` does.
    A single candidate (one form, a path of one cost) leaves nothing to choose: it is
    fitted as it is, and ``cv_results_`` is None, as in ``ColumnGenerationRules``.

    Why a class of its own: the search has parameters (the candidates, the folds, the rule
    of choice) and records (``cv_results_``) that a fit at given settings has not, and a
    caller who wants the search said so by choosing it. ``ColumnGenerationRules()`` still
    searches by default (its ``form`` and ``complexity`` default to ``"auto"``), through
    this same engine.

    More than two classes: as :class:`~rulelab.ColumnGenerationRules`, one DNF per class
    but the most frequent, each class's form fixed to DNF and its clause cost chosen by its
    own inner cross-validation (``class_fits_`` records each).

    Parameters
    ----------
    form : {"auto", "dnf", "cnf"}, default="auto"
        The forms validated: ``"auto"`` both (a form that loses the first split clearly,
        by ``RACE_Z`` standard errors of the paired difference, is not validated further),
        else that one.
    complexity_path : sequence of float, optional
        The clause costs validated, as fractions of the training weight; None:
        :data:`~rulelab.colgen.COMPLEXITY_PATH`.
    cv : "auto", int, cross-validation generator or iterable, default="auto"
        The inner folds, as ``ColumnGenerationRules``' ``cv``: ``"auto"`` is 3 stratified
        folds repeated ``round(AUTO_CV_SAMPLES / n_samples)`` times (1 to 5).
    selection : {"min", "one_se"}, default="min"
        ``"min"``: the lowest mean validation error (a tie goes to the simpler rule sets);
        ``"one_se"``: the largest cost within one standard error of it (Breiman et al.
        1984).
    term_cost, max_terms, negative_weight, columns_per_round, max_rounds, pricing, \
screening, beam_width, exact_max_items, pricing_time_limit, exact_budget, \
integer_node_limit, integer_solution_limit, integer_time_limit, n_thresholds, binarizer, \
refine_cuts, class_order
        As for :class:`~rulelab.ColumnGenerationRules`, with the same defaults; they hold
        for every fit of the search and for the refit.
    time_limit : float, optional
        Seconds for the whole fit, the search included; a clock limit, off by default.
    random_state : int, optional
        Seed of the inner folds' shuffles.

    Attributes
    ----------
    form_ : {"dnf", "cnf"}
        The form chosen.
    chosen_complexity_ : float
        The clause cost chosen. (Not ``complexity_``: elsewhere in this project
        ``complexity_()`` is a method giving a fitted model's size.)
    best_params_ : dict
        ``{"form": form_, "complexity": chosen_complexity_}``: the settings of the
        :class:`~rulelab.ColumnGenerationRules` this search chose.
    cv_results_ : DataFrame or None
        One row per form and complexity validated: its mean validation error, its standard
        error over the folds, the mean size, the number of folds it was validated on (one
        for a form raced out after the first split) and which was chosen.
    tuning_seconds_ : float
        Seconds spent on the search, apart from the refit.
    rules_, grid_rules_, refined_objective_, objective_, lower_bound_, gap_, \
proved_optimal_, itemsets_, history_, limits_hit_, class_fits_, classes_
        The refit's, as for :class:`~rulelab.ColumnGenerationRules`.

    Examples
    --------
    >>> from rulelab import load_dataset
    >>> from rulelab.colgen import ColumnGenerationRulesCV
    >>> X, y = load_dataset("pima")
    >>> model = ColumnGenerationRulesCV(form="dnf", random_state=0).fit(X, y)  # doctest: +SKIP
    >>> model.best_params_                                    # doctest: +SKIP
    """

    _parameter_constraints = {**FIT_CONSTRAINTS, **SEARCH_CONSTRAINTS}

    def __init__(
        self,
        form: str = "auto",
        complexity_path=None,
        cv="auto",
        selection: str = "min",
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
        n_thresholds: int = 10,
        binarizer="auto",
        random_state=None,
        refine_cuts: bool = True,
        class_order: str = "difficulty",
    ):
        self.form = form
        self.complexity_path = complexity_path
        self.cv = cv
        self.selection = selection
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
        self.n_thresholds = n_thresholds
        self.binarizer = binarizer
        self.random_state = random_state
        self.refine_cuts = refine_cuts
        self.class_order = class_order

    def _candidates(self) -> tuple[tuple, list]:
        forms = FORMS if self.form == "auto" else (self.form,)
        return forms, sorted(self.complexity_path or COMPLEXITY_PATH, reverse=True)

    def _class_template(self) -> ColumnGenerationRules:
        # each class's rule set is a ColumnGenerationRules with this search's settings and
        # complexity="auto": its own inner cross-validation, as in ColumnGenerationRules()
        return ColumnGenerationRules(complexity="auto", **self.get_params())

    @property
    def best_params_(self) -> dict:
        """``{"form": form_, "complexity": chosen_complexity_}`` of a two-class fit."""
        if not hasattr(self, "form_"):
            raise AttributeError(
                "best_params_ needs a fit on two classes: fit the model first (on more "
                "classes each class has its own, in class_fits_)"
            )
        return {"form": self.form_, "complexity": self.chosen_complexity_}
