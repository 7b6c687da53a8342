"""Column generation for DNF rule sets: the master LP, exact pricing, an integer solve.

:func:`column_generation` is the algorithm; :class:`~rulelab.ColumnGenerationRules` is the
estimator around it. Round by round the master LP (:class:`~.master.RuleSetMaster`) is
solved over the conjunctions generated so far, its duals price every other conjunction
(:mod:`.pricing`), and the conjunctions of most negative reduced cost join the live LP.
When exact pricing proves that no conjunction of at most ``max_terms`` items has a
negative reduced cost, the LP value is a lower bound on the objective of *every* DNF with
clauses of at most ``max_terms`` terms. The integer program over the generated columns
then gives the rule set; when its value is above the bound, every conjunction whose
reduced cost is below the gap is enumerated (only those can be in a better rule set: for
any rule set, objective >= bound + the sum of its clauses' reduced costs) and the integer
program is solved again, which proves the rule set optimal.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ._options import PRICING_METHODS, IntegerOptions, PricingOptions
from ._rows import all_of, as_bit_matrix
from .master import RuleSetMaster
from .pricing import MAX_NODES, _searched_rows, price_beam, price_exact, price_milp

__all__ = [
    "ColumnGenerationResult",
    "ColumnGenerator",
    "column_generation",
    "PRICING_METHODS",
    "EXACT_WORK_PER_SECOND",
    "GAP_BUDGET_FACTOR",
]

_TOL = 1e-7  # below HiGHS's dual feasibility tolerance: a column this close to 0 is not improving
# The cost of a simplex iteration per group of positives (the LP's variables) over the cost
# of an itemset per 64-row word of the exact search (benchmarks/library/bench_colgen.py measures
# both). Work counts, not clock times, decide the pricing order, so a fit does not depend
# on the load.
_LP_WORK_PER_SEARCH_WORK = 100.0
EXACT_WORK_PER_SECOND = 6e8
"""Exact-search work in about a second of one current core (``benchmarks/library/bench_colgen.py``
measures it). An itemset's work is the 64-row words it measures plus
``_NODE_OVERHEAD_WORDS`` for its bookkeeping."""
_NODE_OVERHEAD_WORDS = 32
GAP_BUDGET_FACTOR = 10
"""The enumeration that closes the gap after a certified LP may do this many times
``exact_budget``'s work: it is one search, run once, and proves the rule set optimal."""


@dataclass
class ColumnGenerationResult:
    """What :func:`column_generation` found.

    Attributes
    ----------
    pool : list of tuple of int
        Every generated conjunction (item indices).
    chosen : ndarray of bool
        The conjunctions of the rule set, as a mask over ``pool``.
    objective : float
        The rule set's training objective (see :mod:`.master`).
    lp_value : float
        The last master LP value.
    lower_bound : float or None
        A lower bound on the objective of every DNF with clauses of at most ``max_terms``
        terms: ``lp_value`` when exact pricing proved no improving conjunction exists, else
        the best Lagrangian bound of the exact pricing rounds, else None.
    proved_optimal : bool
        The rule set was proved optimal among all DNFs of the clause length.
    history : list of dict
        One entry per round: LP value, columns, best reduced cost, pricing method.
    limits_hit : tuple of str
        The limits that stopped something in the run, by parameter name (each once, in
        the order they first bound): ``"exact_budget"`` (an exact search cut short or
        skipped), ``"pricing_time_limit"``, ``"max_rounds"``, ``"time_limit"``,
        ``"integer_node_limit"``, ``"integer_solution_limit"``, ``"integer_time_limit"``.
        Empty: nothing was cut short.
    """

    pool: list
    chosen: np.ndarray
    objective: float
    lp_value: float
    lower_bound: float | None
    proved_optimal: bool
    history: list = field(default_factory=list)
    integer_status: str = "optimal"
    stop_reason: str = ""
    seconds: float = 0.0
    limits_hit: tuple = ()

    @property
    def gap(self) -> float | None:
        """Relative gap of the rule set's objective to the lower bound (None without one)."""
        if self.lower_bound is None:
            return None
        if self.proved_optimal:
            return 0.0
        return max(self.objective - self.lower_bound, 0.0) / max(abs(self.objective), 1e-12)


def fires_any(A, itemsets) -> np.ndarray:
    """Where the OR of the AND-conjunctions ``itemsets`` of ``A``'s columns holds (``A`` a
    0/1 array or a :class:`~rulelab.colgen._rows.BitMatrix`)."""
    out = np.zeros(A.shape[0], dtype=bool)
    for s in itemsets:
        out |= all_of(A, s)
    return out


def column_generation(
    A: np.ndarray,
    y: np.ndarray,
    sample_weight: np.ndarray | None = None,
    *,
    clause_cost: float,
    term_cost: float,
    max_terms: int = 3,
    negative_weight: float = 1.0,
    columns_per_round: int = 10,
    max_rounds: int = 200,
    pricing: str = "exact",
    screening: bool = True,
    beam_width: int = 10,
    exact_max_items: int | None = None,
    pricing_time_limit: float | None = None,
    exact_budget: float | None = None,
    integer: str = "milp",
    integer_time_limit: float | None = None,
    integer_node_limit: int | None = None,
    integer_solution_limit: int | None = None,
    integer_gap: float = 1e-6,
    time_limit: float | None = None,
    initial_pool=(),
    heuristic_first: bool | str = "auto",
    close_gap: bool = True,
    max_gap_columns: int = 2000,
) -> ColumnGenerationResult:
    """Learn a DNF (a set of AND-clauses over the columns of ``A``) by column generation.

    Parameters
    ----------
    A : ndarray of shape (n_samples, n_items), 0/1, or BitMatrix
        The binarised features (items); an array is packed to one bit per cell.
    y : ndarray of shape (n_samples,), 0/1
    sample_weight : ndarray, optional
        Weight of each sample (default 1).
    clause_cost, term_cost : float
        Complexity cost of a clause and of each term, in the units of the objective (one
        uncovered positive of weight 1 costs 1).
    max_terms : int, default=3
        Most terms in a clause.
    negative_weight : float, default=1
        Cost of covering a negative relative to missing a positive of the same weight.
    columns_per_round : int, default=10
        Conjunctions added to the master LP per round (those of lowest reduced cost).
    max_rounds : int, default=200
    pricing : {"exact", "beam", "milp"}, default="exact"
        The exact itemset search, beam search, or a HiGHS MILP (one column per round).
    screening : bool, default=True
        Drop items that cannot price out before each search.
    beam_width : int, default=10
    exact_max_items : int, optional
        Above this many items the exact search is replaced by beam search (the result
        says so in ``history``); None: always exact.
    pricing_time_limit : float, optional
        Seconds per exact search (and per MILP pricing call), never more than what is left
        of ``time_limit``; once a search is cut short,
        the rest of the run is priced by beam search (and ends without a certified bound).
        A clock limit: where it binds, the run depends on the machine's speed and load.
    exact_budget : float, optional
        Seconds of exact search in the whole run, counted in work (itemsets evaluated,
        weighted by the words they measure) at ``EXACT_WORK_PER_SECOND`` per second, so
        that the run does not depend on the machine's speed or load; once spent, the
        rounds go on by beam search (the LP's slow tail, where each exact search proves
        little more). The run then keeps the best Lagrangian bound of its exact rounds as
        ``lower_bound``. The enumeration that closes the gap (``close_gap``) gets
        ``GAP_BUDGET_FACTOR`` times this much work of its own.
    integer : {"milp", "greedy"}, default="milp"
        The rule set from the generated columns: HiGHS's MILP (started from the greedy
        rounding), or the greedy rounding of the LP solution alone (fast, no proof).
    integer_time_limit : float, optional
        Seconds for each integer solve (a clock limit).
    integer_node_limit : int, optional
        Branch-and-bound nodes for each integer solve (HiGHS's ``mip_max_nodes``): a
        count of work, so the rule set does not depend on the machine where it binds.
    integer_solution_limit : int, optional
        Improving solutions each integer solve may find beyond its start (HiGHS's
        ``mip_max_improving_sols``), also a count. HiGHS's root node (cuts, heuristics)
        is not limited by the node count and can run for minutes on wide data; the
        solution count ends it once it has improved on the start.
    integer_gap : float, default=1e-6
        Relative optimality gap at which HiGHS may stop the integer solve.
    time_limit : float, optional
        Seconds for the whole run; column generation stops early (without a bound).
    initial_pool : iterable of tuple, optional
        Conjunctions to start the master with (e.g. from a neighbouring complexity cost).
    heuristic_first : bool or "auto", default="auto"
        With exact pricing, try beam search first each round and search exactly only when
        it finds no improving column (the certificate is the same, the rounds cheaper).
        ``"auto"``: beam first only while the last exact search did more work than the
        last LP solve (itemsets times words of searched rows against simplex iterations
        times groups of positives, scaled by their cost per unit; counts, so the fit is
        deterministic). Exact columns are the most improving ones, so where the search is
        cheap and the LP is not (many rows, few columns) they reach the same LP value in
        far fewer rounds; on wide data the search is the dearer part.
    close_gap : bool, default=True
        After a certified LP, enumerate the conjunctions whose reduced cost is below the
        gap and solve again, to prove the rule set optimal (skipped when more than
        ``max_gap_columns`` qualify).
    """
    generator = ColumnGenerator(A, y, sample_weight, negative_weight=negative_weight)
    generator.add(list(initial_pool))
    return generator.run(
        clause_cost=clause_cost,
        term_cost=term_cost,
        pricing=PricingOptions(
            max_terms=max_terms,
            columns_per_round=columns_per_round,
            max_rounds=max_rounds,
            method=pricing,
            screening=screening,
            beam_width=beam_width,
            exact_max_items=exact_max_items,
            time_limit=pricing_time_limit,
            exact_budget=exact_budget,
            heuristic_first=heuristic_first,
        ),
        integer=IntegerOptions(
            method=integer,
            time_limit=integer_time_limit,
            node_limit=integer_node_limit,
            solution_limit=integer_solution_limit,
            gap=integer_gap,
            close_gap=close_gap,
            max_gap_columns=max_gap_columns,
        ),
        time_limit=time_limit,
    )


class ColumnGenerator:
    """Column generation on one problem, its master LP kept live across runs.

    :meth:`run` solves the problem at one complexity cost; a later :meth:`run` at another
    cost (the next point of a complexity path) changes the costs of the columns already
    generated in the live LP and goes on from its basis, instead of building the master
    again from the pool: the path's LPs are warm-started too.

    Parameters
    ----------
    A, y, sample_weight, negative_weight
        As for :func:`column_generation`.
    """

    def __init__(
        self,
        A: np.ndarray,
        y: np.ndarray,
        sample_weight: np.ndarray | None = None,
        *,
        negative_weight: float = 1.0,
    ):
        # one bit per cell: the design is read by every pricing round, and at millions of
        # rows a byte per cell is most of a fit's memory
        self.A = as_bit_matrix(A)
        self.y = np.asarray(y).astype(bool)
        w = np.ones(self.y.size) if sample_weight is None else np.asarray(sample_weight, float)
        self.pos_rows = np.flatnonzero(self.y)
        self.cost_neg = np.where(self.y, 0.0, negative_weight * w)
        self.master = RuleSetMaster(w[self.pos_rows])
        self.pool: list[tuple] = []
        self.seen: set[tuple] = set()
        self._negative_cost: list[float] = []  # v(N ∩ cover) of each column
        self.clause_cost = self.term_cost = 0.0

    def _column_costs(self, lengths, negative_cost):
        return (
            self.clause_cost
            + self.term_cost * np.asarray(lengths, float)
            + np.asarray(negative_cost, float)
        )

    def add(self, itemsets) -> int:
        """Add the conjunctions not in the pool yet; return how many were new."""
        new = [tuple(s) for s in itemsets if tuple(s) not in self.seen and len(s)]
        if not new:
            return 0
        # one column at a time: a pool of hundreds of clauses over millions of rows would
        # make a large coverage matrix
        negative, covers = np.empty(len(new)), []
        for t, s in enumerate(new):
            cov = all_of(self.A, s)
            negative[t] = self.cost_neg @ cov
            covers.append(np.flatnonzero(cov[self.pos_rows]))
        self.master.add_columns(covers, self._column_costs([len(s) for s in new], negative))
        self.pool.extend(new)
        self.seen.update(new)
        self._negative_cost.extend(negative.tolist())
        return len(new)

    def set_costs(self, clause_cost: float, term_cost: float) -> None:
        """Price every column at a new complexity cost (the live LP keeps its basis)."""
        self.clause_cost, self.term_cost = float(clause_cost), float(term_cost)
        if self.pool:
            self.master.set_costs(
                self._column_costs([len(s) for s in self.pool], self._negative_cost)
            )

    def run(
        self,
        *,
        clause_cost: float,
        term_cost: float,
        pricing: PricingOptions | None = None,
        integer: IntegerOptions | None = None,
        time_limit: float | None = None,
    ) -> ColumnGenerationResult:
        """Column generation at this complexity cost from the columns generated so far.

        Parameters
        ----------
        clause_cost, term_cost : float
            As for :func:`column_generation`; they change from run to run along a path.
        pricing : PricingOptions, optional
            How each round finds columns and its budgets (the defaults of
            :func:`column_generation` when None).
        integer : IntegerOptions, optional
            How the rule set is chosen among the columns (likewise).
        time_limit : float, optional
            Seconds for this run.
        """
        pricing = PricingOptions() if pricing is None else pricing
        integer = IntegerOptions() if integer is None else integer
        start = time.perf_counter()
        self.set_costs(clause_cost, term_cost)
        A, y, master, seen = self.A, self.y, self.master, self.seen
        pos_rows, cost_neg = self.pos_rows, self.cost_neg
        history: list[dict] = []
        hit: dict[str, None] = {}  # the limits that bound, in order (an ordered set)
        certified, stop = False, "max_rounds"
        timed_out = False  # an exact search hit its time limit: beam search from then on
        exact_work = 0.0  # work of the exact searches so far (EXACT_WORK_PER_SECOND)
        budget = (
            None if pricing.exact_budget is None else pricing.exact_budget * EXACT_WORK_PER_SECOND
        )
        # Lagrangian bound of an exact round: every column costs at least c_min, so an
        # optimal LP solution selects at most z / c_min columns, and the full LP's value is
        # at least z + (z / c_min) * (the most negative reduced cost)
        c_min = clause_cost + term_cost
        bound = None
        mu_pos = np.zeros(y.size)
        options = dict(fixed=clause_cost, per_term=term_cost, max_terms=pricing.max_terms)
        search_work = None  # the last exact search's itemsets x words of searched rows
        for rnd in range(pricing.max_rounds):
            value, x, mu = master.solve()
            mu_pos[:] = 0.0
            mu_pos[pos_rows] = mu
            if pricing.heuristic_first == "auto":
                lp_work = _LP_WORK_PER_SEARCH_WORK * master.last_iterations * master.n_groups
                beam_first = search_work is not None and search_work > lp_work
            else:
                beam_first = pricing.heuristic_first
            spent = budget is not None and exact_work >= budget
            words = (_searched_rows(mu_pos, cost_neg).size + 63) // 64
            node_work = words + _NODE_OVERHEAD_WORDS
            # the budget limits the exact search only (not a MILP), by its itemset count
            max_nodes = (
                MAX_NODES
                if budget is None
                else int(min(max((budget - exact_work) // node_work, 1), MAX_NODES))
            )
            # a search never runs past the whole run's time limit either
            call_limit = _min_limit(pricing.time_limit, _left(time_limit, start))
            clock = "pricing_time_limit" if call_limit == pricing.time_limit else "time_limit"
            found = _price(
                pricing,
                A,
                mu_pos,
                cost_neg,
                seen,
                options,
                call_limit,
                beam_first,
                timed_out,
                spent,
                max_nodes,
            )
            timed_out = timed_out or (found.method == "exact" and not found.exact)
            if found.method == "exact" and not found.exact:
                # cut short by its node count (the budget) or else by the clock
                hit[
                    "exact_budget" if found.nodes >= max_nodes and budget is not None else clock
                ] = None
            elif found.method == "beam fallback" and (spent or found.note == _CUT_BY_BUDGET):
                hit["exact_budget"] = None
            elif found.method == "beam fallback" and found.note == _CUT_BY_CLOCK:
                hit[clock] = None
            elif found.method == "milp" and not found.exact and call_limit is not None:
                hit[clock] = None
            if found.method == "exact":
                exact_work += found.nodes * node_work
                if found.exact and c_min > 0:
                    # (the objective is never negative: a bound below 0 says only that)
                    lagrangian = max(value + value / c_min * min(found.best, 0.0), 0.0)
                    bound = lagrangian if bound is None else max(bound, lagrangian)
                search_work = found.nodes * words
            improving = [
                s
                for s, r in zip(found.itemsets, found.reduced_costs)
                if r < -_TOL and s not in seen
            ]
            history.append(
                {
                    "round": rnd,
                    "lp_value": value,
                    "n_columns": len(self.pool),
                    "best_reduced_cost": (min(found.best, 0.0) if improving else found.best),
                    "pricing": found.method,
                    "exact": found.exact,
                    "items_searched": found.items_searched,
                    "nodes": found.nodes,
                    "pricing_seconds": found.seconds,
                    "note": found.note,
                }
            )
            if not improving:
                certified = found.exact
                stop = "no improving column (proved)" if certified else "no improving column found"
                break
            if self.add(improving) == 0:
                stop = "pricing repeated known columns"
                break
            if time_limit is not None and time.perf_counter() - start > time_limit:
                stop = "time_limit"
                break
        if stop in ("max_rounds", "time_limit"):
            hit[stop] = None
        # the LP over every column added (a time limit or max_rounds stops right after adding)
        lp_value, x_lp, _ = master.solve()
        remaining = _left(time_limit, start)
        limit = _min_limit(integer.time_limit, remaining)
        if integer.method == "greedy":
            chosen = master.greedy(x_lp)
            objective, status = master.objective(chosen), "greedy"
        else:
            chosen, objective, status = master.solve_integer(
                limit,
                start=master.greedy(x_lp),
                mip_gap=integer.gap,
                node_limit=integer.node_limit,
                solution_limit=integer.solution_limit,
            )
            _note_integer(hit, status, integer.time_limit, time_limit)
        proved = False
        lower = lp_value if certified else (None if bound is None else min(bound, lp_value))
        if certified and status == "optimal":
            if objective <= lp_value + 1e-6 * max(1.0, abs(lp_value)):
                proved = True
            elif integer.close_gap:
                gap = objective - lp_value
                # its own allowance of work (the rounds may have spent theirs), counted
                # per itemset and word of all the rows it may search
                gap_nodes = (
                    MAX_NODES
                    if budget is None
                    else int(
                        min(
                            GAP_BUDGET_FACTOR
                            * budget
                            // ((y.size + 63) // 64 + _NODE_OVERHEAD_WORDS),
                            MAX_NODES,
                        )
                    )
                )
                found = price_exact(
                    A,
                    mu_pos,
                    cost_neg,
                    n_columns=integer.max_gap_columns,
                    threshold=gap - 1e-9,
                    screening=True,
                    merge_equal=False,
                    positives=y,
                    time_limit=_min_limit(pricing.time_limit, _left(time_limit, start)),
                    max_nodes=gap_nodes,
                    enumerate_all=True,
                    **options,
                )
                if not found.exact and len(found.itemsets) < integer.max_gap_columns:
                    # cut short by a limit, not by finding too many columns to enumerate
                    hit[
                        "exact_budget"
                        if found.nodes >= gap_nodes and budget is not None
                        else "pricing_time_limit"
                    ] = None
                if found.exact:
                    self.add(found.itemsets)
                    remaining = _left(time_limit, start)
                    before = chosen.tolist() + [False] * (master.n_columns - chosen.size)
                    chosen, objective, status = master.solve_integer(
                        _min_limit(integer.time_limit, remaining),
                        start=np.array(before),
                        mip_gap=integer.gap,
                        node_limit=integer.node_limit,
                        solution_limit=integer.solution_limit,
                    )
                    _note_integer(hit, status, integer.time_limit, time_limit)
                    proved = status == "optimal"
                history.append(
                    {
                        "round": len(history),
                        "lp_value": lp_value,
                        "n_columns": len(self.pool),
                        "best_reduced_cost": found.best,
                        "pricing": "gap enumeration",
                        "exact": found.exact,
                        "items_searched": found.items_searched,
                        "nodes": found.nodes,
                        "pricing_seconds": found.seconds,
                        "note": f"{len(found.itemsets)} columns below the gap {gap:.4g}",
                    }
                )
        return ColumnGenerationResult(
            list(self.pool),
            np.asarray(chosen, bool),
            float(objective),
            lp_value,
            lower,
            proved,
            history,
            status,
            stop,
            time.perf_counter() - start,
            tuple(hit),
        )


def _price(
    pricing: PricingOptions,
    A,
    mu_pos,
    cost_neg,
    seen,
    options,
    time_limit,
    beam_first,
    timed_out=False,
    spent=False,
    max_nodes=MAX_NODES,
):
    """One round's pricing, as ``pricing`` says (see :func:`column_generation`); ``options``
    are the search's costs and clause length. After an exact search has hit its time limit
    (``timed_out``) or the exact budget is ``spent``, the rest is priced by beam search."""
    n_columns, screening = pricing.columns_per_round, pricing.screening
    exact_max_items = pricing.exact_max_items
    beam = dict(n_columns=n_columns, width=pricing.beam_width, screening=screening, **options)
    if pricing.method == "milp":
        return price_milp(A, mu_pos, cost_neg, time_limit=time_limit, **options)
    if pricing.method == "beam":
        return price_beam(A, mu_pos, cost_neg, **beam)
    if timed_out or spent or (exact_max_items is not None and A.shape[1] > exact_max_items):
        found = price_beam(A, mu_pos, cost_neg, **beam)
        found.method = "beam fallback"
        # the budget first: a search it cut short also counts as timed out
        found.note = (
            "the exact search's budget is spent"
            if spent
            else "an earlier exact search hit its time limit"
            if timed_out
            else f"{A.shape[1]} items, more than exact_max_items"
        )
        return found
    if beam_first:
        # Beam search is cheap; the exact search runs only when it finds nothing new, so
        # the round that ends column generation (the certificate) is always exact.
        found = price_beam(A, mu_pos, cost_neg, **beam)
        if any(r < -_TOL and s not in seen for s, r in zip(found.itemsets, found.reduced_costs)):
            return found
    found = price_exact(
        A,
        mu_pos,
        cost_neg,
        n_columns=n_columns,
        screening=screening,
        time_limit=time_limit,
        max_nodes=max_nodes,
        **options,
    )
    if not found.exact and found.best >= -_TOL:
        by_nodes = found.nodes >= max_nodes
        found = price_beam(A, mu_pos, cost_neg, **beam)
        found.method = "beam fallback"
        found.note = _CUT_BY_BUDGET if by_nodes else _CUT_BY_CLOCK
    return found


_CUT_BY_BUDGET = "exact search cut short by the exact budget"
_CUT_BY_CLOCK = "exact search cut short by its time limit"


def _note_integer(hit: dict, status: str, integer_time_limit, time_limit) -> None:
    """Record which limit, if any, stopped an integer solve."""
    if status in ("node_limit", "solution_limit"):
        hit[f"integer_{status}"] = None
    elif status == "time_limit":
        # the solve's clock limit is the smaller of its own and what is left of the run's
        hit["integer_time_limit" if integer_time_limit is not None else "time_limit"] = None


def _left(time_limit, start: float):
    """Seconds left of ``time_limit`` since ``start`` (at least 1), or None."""
    return None if time_limit is None else max(time_limit - (time.perf_counter() - start), 1.0)


def _min_limit(a, b):
    limits = [v for v in (a, b) if v is not None]
    return min(limits) if limits else None
