"""TwoLevelRules: CNF/DNF rules by block coordinate descent or alternating minimisation."""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions

from .._base import DEPRECATED, fit_context, renamed
from ..rules import CNF, DNF, Clause
from ..rulesets import LP_PARAMETERS, _RuleSetBase
from .objective import augment, clause_costs
from .optimize import am, bcd, init_weights, lp_kwargs

__all__ = ["TwoLevelRules", "format_rule"]


class TwoLevelRules(_RuleSetBase):
    """Two-level Boolean rule (DNF or CNF) minimising a regularised Hamming loss.

    Su, Wei, Varshney & Malioutov (2016): the rule's training loss is the minimal
    Hamming distance to a rule that classifies each sample correctly (eqs. 3-5), plus
    ``complexity`` (the paper's theta) times the number of terms. It is minimised by block
    coordinate descent (``method="bcd"``, one clause at a time) or alternating minimisation
    (``"am"``,
    ideal clause outputs and all clauses in turn); each clause update is the one-level
    LP of Malioutov & Varshney (2013) with ``lambda = 1/theta``. A clause can be
    disabled through the always-true feature, so ``max_rules`` is a maximum.

    Parameters
    ----------
    form : {"dnf", "cnf"}, default="dnf"
        ``"dnf"``: OR of AND-clauses (the paper's experiments), learned as a CNF on the
        complemented problem (De Morgan). ``"cnf"``: AND of OR-clauses.
    method : {"bcd", "am"}, default="bcd"
        Block coordinate descent or alternating minimisation.
    max_rules : int, default=10
        R, the most clauses the rule may have.
    complexity : float, default=1.0
        Cost of one term, in units of the Hamming loss (one misclassification costs at
        least 1): larger gives shorter rules. It is the paper's theta.
    max_iter : int, default=20
        Most iterations of BCD/AM after the initialisation.
    init : {"setcover", "random", "empty"}, default="setcover"
        Initial clauses: ``"setcover"`` starts from the rule of the set-covering baseline
        (:class:`rulelab.SetCoverRules` with the same ``complexity`` and ``max_rules``
        clauses), as the paper's experiments do, so the final training objective is never
        above SC's (see :func:`rulelab.twolevel.optimize.init_weights`).
    update : {"greedy", "cyclic", "random"}, default="greedy"
        BCD's choice of the clause to update (ignored by AM).
    disable_cost : float, default=0.0
        Cost of disabling a clause, as a multiple of ``complexity``.
    n_thresholds : int, default=10
        Quantile thresholds per numeric feature, both directions.
    binarizer : {"auto", "passthrough"} or binariser, default="auto"
        ``"auto"``: a 0/1 matrix is used as it is, anything else goes through
        ``FeatureBinarizer(n_thresholds)``; ``"passthrough"``: 0/1 input used as it is; or
        an unfitted binariser with ``terms_`` (``FeatureBinarizer(...)``,
        ``CellBinarizer(...)``), fitted on the training data.
    exact : bool, default=False
        Solve every clause subproblem as a 0/1 MILP instead of rounding its LP.
    solver : str, default="highs"
        LP solver for :func:`rulelab.lp.learn_clause`.
    lp_time_limit : float, optional
        Seconds allowed to each clause LP (not the whole fit).
    binarize : deprecated
        Use ``binarizer``: ``binarize=False`` is ``binarizer="passthrough"``.
    max_clauses : deprecated
        The former name of ``max_rules``.
    theta, time_limit : deprecated in 0.2, removed in 0.3
        The former names of ``complexity`` and ``lp_time_limit``.
    n_jobs : int, optional
        Threads for the clause LPs of one iteration (AM's R clauses, greedy BCD's R trials).
    random_state : int, optional
        Seed of ``init="random"`` and ``update="random"``.

    Attributes
    ----------
    rules_ : DNF or CNF
        The learned rule without its disabled clauses, every clause simplified (nested
        thresholds on one feature merged, which changes no prediction), printed numbered
        by clause like the paper's Parkinson's example; ``str(model)`` prints it.
    clauses_ : list of Clause
        The clauses of ``rules_``.
    weights_ : ndarray of bool, shape (max_rules, n_terms + 1)
        Clause weights of the CNF actually optimised (on the complemented problem for a
        DNF); column 0 is the always-true feature that disables a clause. They are the
        columns as optimised, before simplification: ``objective_`` counts these terms.
    active_ : ndarray of bool, shape (max_rules,)
        Which clauses are enabled.
    objective_path_ : list of float
        F(W) after the initialisation and after every iteration.
    objective_ : float
        The final training objective.
    n_iter_ : int
        Iterations run.
    converged_ : bool
        True if the algorithm stopped because no update improved (not at ``max_iter``).
    n_lp_ : int
        Clause LPs solved (initialisation included).
    classes_ : ndarray of shape (2,)

    Examples
    --------
    >>> from rulelab import load_dataset
    >>> X, y = load_dataset("parkinsons")
    >>> print(TwoLevelRules(complexity=5, max_rules=3).fit(X, y))     # doctest: +SKIP
    """

    _parameter_constraints = {
        **{
            k: LP_PARAMETERS[k]
            for k in (
                "n_thresholds",
                "binarizer",
                "binarize",
                "exact",
                "solver",
                "lp_time_limit",
                "time_limit",
                "random_state",
            )
        },
        "form": [StrOptions({"dnf", "cnf"})],
        "method": [StrOptions({"bcd", "am"})],
        "max_rules": [Interval(Integral, 1, None, closed="left")],
        "max_clauses": [Interval(Integral, 1, None, closed="left"), None],
        "complexity": [Interval(Real, 0, None, closed="left")],
        "theta": [Interval(Real, 0, None, closed="left"), StrOptions({DEPRECATED}), None],
        "max_iter": [Interval(Integral, 0, None, closed="left")],
        "init": [StrOptions({"setcover", "random", "empty"})],
        "update": [StrOptions({"greedy", "cyclic", "random"})],
        "disable_cost": [Interval(Real, 0, None, closed="left")],
        "n_jobs": [Integral, None],
    }

    def __init__(
        self,
        form: str = "dnf",
        method: str = "bcd",
        max_rules: int = 10,
        complexity: float = 1.0,
        max_iter: int = 20,
        init: str = "setcover",
        update: str = "greedy",
        disable_cost: float = 0.0,
        n_thresholds: int = 10,
        binarizer="auto",
        exact: bool = False,
        solver: str = "highs",
        lp_time_limit: float | None = None,
        n_jobs: int | None = None,
        random_state=None,
        binarize=None,
        max_clauses=None,
        theta=DEPRECATED,
        time_limit=DEPRECATED,
    ):
        self.form = form
        self.method = method
        self.max_rules = max_rules
        self.complexity = complexity
        self.theta = theta
        self.max_iter = max_iter
        self.init = init
        self.update = update
        self.disable_cost = disable_cost
        self.n_thresholds = n_thresholds
        self.binarizer = binarizer
        self.exact = exact
        self.solver = solver
        self.lp_time_limit = lp_time_limit
        self.time_limit = time_limit
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.binarize = binarize
        self.max_clauses = max_clauses

    @fit_context
    def fit(self, X, y):
        """Learn the rule from ``X`` and binary ``y``."""
        A, y01, _ = self._validate_fit(X, y)
        if self.form == "dnf":
            # De Morgan: OR_r AND_{j in S_r} a_j = NOT AND_r OR_{j in S_r} (1 - a_j), so a
            # CNF over the complemented terms, learned for the complemented labels, gives
            # the DNF's AND-clauses over the original terms, column for column.
            A, y01 = 1 - A, 1 - y01
        Xa = augment(A)
        cost = clause_costs(A.shape[1], renamed(self, "theta", "complexity"), self.disable_cost)
        rng = np.random.default_rng(self.random_state)
        options = lp_kwargs(
            exact=self.exact,
            solver=self.solver,
            time_limit=renamed(self, "time_limit", "lp_time_limit"),
        )
        W0, n_init = init_weights(
            Xa, y01, int(renamed(self, "max_clauses", "max_rules")), cost, self.init, options, rng
        )
        if self.method == "bcd":
            res = bcd(
                Xa,
                y01,
                W0,
                cost,
                max_iter=int(self.max_iter),
                update=self.update,
                lp_options=options,
                rng=rng,
                n_jobs=self.n_jobs,
            )
        else:
            res = am(
                Xa,
                y01,
                W0,
                cost,
                max_iter=int(self.max_iter),
                lp_options=options,
                n_jobs=self.n_jobs,
            )
        self.weights_ = res.W
        self.active_ = ~res.W[:, 0]
        self.objective_path_ = [float(v) for v in res.objective_path]
        self.objective_ = self.objective_path_[-1]
        self.n_iter_ = res.n_iter
        self.converged_ = res.converged
        self.n_lp_ = res.n_lp + n_init
        op = "and" if self.form == "dnf" else "or"
        clauses = [
            Clause(tuple(self.terms_[j - 1] for j in np.flatnonzero(w[1:]) + 1), op)
            for w in res.W[self.active_]
        ]
        wrapper = DNF if self.form == "dnf" else CNF
        self.rules_ = wrapper(clauses, then=self.positive_label_, numbered=True).simplified()
        self.clauses_ = list(self.rules_.clauses)
        return self

    def complexity_(self) -> tuple[float, float]:
        """(enabled clauses, terms over the enabled clauses): the paper's sparsity counts
        every feature of every clause and nothing for a disabled clause; the terms are
        those of the printed (simplified) rule, which is what a reader has to check."""
        return float(self.rules_.n_rules), float(self.rules_.n_terms)

    def to_text(self, names: dict | None = None, then: str | None = None) -> str:
        """The rule in words, numbered by clause like the paper's Parkinson's example;
        ``names`` maps column names to descriptions, ``then`` replaces the conclusion
        (:meth:`rulelab.rules.DNF.numbered_text`)."""
        return self.rules_.numbered_text(names=names, then=then)


def format_rule(rule, names: dict | None = None, then: str | None = None) -> str:
    """Print a DNF/CNF as ``IF 1. ...; OR 2. ... AND ...; THEN ...``, one term a line
    (:meth:`rulelab.rules.DNF.numbered_text`, which ``str`` of the learned rule uses)."""
    return rule.numbered_text(names=names, then=then)
