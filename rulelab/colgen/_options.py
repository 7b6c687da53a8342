"""The options of one column-generation run, bundled by the part of the solver they steer.

:meth:`~.solver.ColumnGenerator.run` takes two small frozen records instead of a score of
keywords: :class:`PricingOptions` (how each round finds new conjunctions, and the budgets
of that search) and :class:`IntegerOptions` (how the rule set is chosen among the columns
generated). :class:`FitOptions` is what an estimator builds once from its parameters: the
problem's costs and both records, with the few steps every fit of the estimator and of its
inner cross-validation shares. Internal: the public surfaces are the estimators'
parameters and :func:`~.solver.column_generation`'s keywords.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

__all__ = ["PricingOptions", "IntegerOptions", "CutOptions", "FitOptions", "PRICING_METHODS"]

PRICING_METHODS = ("exact", "beam", "milp")
INTEGER_METHODS = ("milp", "greedy")


@dataclass(frozen=True)
class PricingOptions:
    """How each round prices the conjunctions, and how much it may spend doing so.

    The fields are :func:`~.solver.column_generation`'s keywords of the same meaning
    (``method`` is its ``pricing``, ``time_limit`` its ``pricing_time_limit``); the
    defaults are that function's.
    """

    max_terms: int = 3
    columns_per_round: int = 10
    max_rounds: int = 200
    method: str = "exact"
    screening: bool = True
    beam_width: int = 10
    exact_max_items: int | None = None
    time_limit: float | None = None
    exact_budget: float | None = None
    heuristic_first: bool | str = "auto"

    def __post_init__(self):
        if self.method not in PRICING_METHODS:
            raise ValueError(f"pricing must be one of {PRICING_METHODS}, not {self.method!r}")
        if self.heuristic_first not in ("auto", True, False):
            raise ValueError(
                f"heuristic_first must be 'auto', True or False, not {self.heuristic_first!r}"
            )


@dataclass(frozen=True)
class IntegerOptions:
    """How the rule set is chosen among the generated columns, and the limits of that solve.

    The fields are :func:`~.solver.column_generation`'s keywords of the same meaning
    (``method`` is its ``integer``, ``time_limit`` its ``integer_time_limit``, ``node_limit``
    and ``solution_limit`` its ``integer_node_limit`` and ``integer_solution_limit``,
    ``gap`` its ``integer_gap``); the defaults are that function's.
    """

    method: str = "milp"
    time_limit: float | None = None
    node_limit: int | None = None
    solution_limit: int | None = None
    gap: float = 1e-6
    close_gap: bool = True
    max_gap_columns: int = 2000

    def __post_init__(self):
        if self.method not in INTEGER_METHODS:
            raise ValueError(f"integer must be 'milp' or 'greedy', not {self.method!r}")


@dataclass(frozen=True)
class FitOptions:
    """One estimator's problem and solver settings, built once per fit.

    The problem: a clause costs ``complexity`` times the training weight and each of its
    terms ``term_cost`` times that; a covered negative costs ``negative_weight`` times its
    weight. A CNF is learned as the DNF of the complemented problem (De Morgan), whose
    weights are arranged so that ``negative_weight`` still prices a false positive.
    """

    term_cost: float = 1.0
    negative_weight: float = 1.0
    pricing: PricingOptions = field(default_factory=PricingOptions)
    integer: IntegerOptions = field(default_factory=IntegerOptions)

    @classmethod
    def of(cls, estimator) -> FitOptions:
        """The options a column-generation estimator's parameters give."""
        return cls(
            term_cost=float(estimator.term_cost),
            negative_weight=float(estimator.negative_weight),
            pricing=PricingOptions(
                max_terms=estimator.max_terms,
                columns_per_round=estimator.columns_per_round,
                max_rounds=estimator.max_rounds,
                method=estimator.pricing,
                screening=estimator.screening,
                beam_width=estimator.beam_width,
                exact_max_items=estimator.exact_max_items,
                time_limit=estimator.pricing_time_limit,
                exact_budget=estimator.exact_budget,
            ),
            integer=IntegerOptions(
                time_limit=estimator.integer_time_limit,
                node_limit=estimator.integer_node_limit,
                solution_limit=estimator.integer_solution_limit,
            ),
        )

    def inner(self) -> FitOptions:
        """The options of a fit of the inner cross-validation, which only needs a good rule
        set to validate: beam pricing instead of exact, greedy rounding, no proof."""
        method = "beam" if self.pricing.method == "exact" else self.pricing.method
        return replace(
            self,
            pricing=replace(self.pricing, method=method),
            integer=replace(self.integer, method="greedy", close_gap=False),
        )

    def problem(self, y01: np.ndarray, w: np.ndarray, form: str) -> tuple:
        """The DNF problem solved for ``form``: (target, weight)."""
        if form == "dnf":
            return y01.astype(bool), w
        target = ~y01.astype(bool)
        return target, np.where(target, self.negative_weight * w, w)

    def negative_weight_of(self, form: str) -> float:
        """The cost of a covered negative in ``form``'s DNF problem (a CNF's weights carry
        ``negative_weight`` already, see :meth:`problem`)."""
        return self.negative_weight if form == "dnf" else 1.0

    def costs(self, complexity: float, weight: np.ndarray) -> tuple[float, float]:
        """(clause cost, term cost) in the objective's units at ``complexity``."""
        clause = complexity * float(weight.sum())
        return clause, clause * self.term_cost

    def cuts(self, complexity: float, weight: np.ndarray) -> CutOptions:
        """The objective :func:`rulelab.cuts.refine_cuts` moves the cut points under: the
        fit's own, at the chosen ``complexity``."""
        clause, term = self.costs(complexity, weight)
        return CutOptions(clause, term, self.negative_weight)


@dataclass(frozen=True)
class CutOptions:
    """The objective of the cut-point refinement (:func:`rulelab.cuts.refine_cuts`'s
    keywords): a clause's and a term's cost in the objective's units, and the cost of a
    covered negative relative to a missed positive."""

    clause_cost: float
    term_cost: float
    negative_weight: float
