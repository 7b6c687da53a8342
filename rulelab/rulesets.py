"""Rule learners of Malioutov & Varshney (2013): one clause (1Rule)."""

from __future__ import annotations

import numpy as np

from ._base import RuleClassifierBase
from .lp import learn_clause
from .rules import CNF, DNF, Clause

__all__ = ["OneRule"]


class OneRule(RuleClassifierBase):
    """One AND- or OR-clause learned by the Boolean compressed-sensing LP (1Rule).

    The clause solves the LP relaxation of Malioutov & Varshney (2013, eq. 10) over the
    binarised features (10 quantile thresholds per numeric feature in both directions),
    an AND-clause through De Morgan's law; non-zero LP weights are rounded to one.

    Parameters
    ----------
    form : {"and", "or"}, default="and"
        Learn a conjunction (``IF a AND b THEN positive``) or a disjunction.
    lam : float, default=1000
        Weight of training errors against clause size (lambda in eq. 10).
    n_thresholds : int, default=10
        Quantile thresholds per numeric feature, used in both directions.
    binarize : {"auto", True, False}, default="auto"
        ``"auto"`` uses a 0/1 matrix as is and binarises anything else.
    exact : bool, default=False
        Solve the 0/1 problem exactly (MILP) instead of rounding the LP.
    rounding : {"threshold", "randomized"}, default="threshold"
        How a fractional LP solution becomes a clause (see :func:`rulelab.lp.solve_or_lp`).
    solver : str, default="highs"
        ``"highs"`` (HiGHS directly) or the name of an installed cvxpy solver.
    time_limit : float, optional
        Seconds allowed to each LP/MILP solve.
    random_state : int, optional
        Seed of randomized rounding.

    Attributes
    ----------
    rule_ : Clause
        The learned clause; ``str(model)`` prints it as ``IF ... THEN ...``.
    rules_ : DNF or CNF
        The same clause as a one-clause rule set (``n_rules``, ``n_terms``, ``to_query``).
    lp_ : ClauseLP
        The LP result (fractional weights, LP value, solver status).
    classes_ : ndarray of shape (2,)
        ``classes_[1]`` is the class the rule predicts.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> iris = load_iris(as_frame=True)
    >>> model = OneRule().fit(iris.data, iris.target == 1)
    >>> print(model.rule_)                                   # doctest: +SKIP
    petal length (cm) <= 4.78 AND petal width (cm) > 0.87 ...
    """

    def __init__(self, form: str = "and", lam: float = 1000.0, n_thresholds: int = 10,
                 binarize="auto", exact: bool = False, rounding: str = "threshold",
                 solver: str = "highs", time_limit: float | None = None, random_state=None):
        self.form = form
        self.lam = lam
        self.n_thresholds = n_thresholds
        self.binarize = binarize
        self.exact = exact
        self.rounding = rounding
        self.solver = solver
        self.time_limit = time_limit
        self.random_state = random_state

    def fit(self, X, y):
        """Learn the clause from ``X`` and binary ``y``."""
        if self.form not in ("and", "or"):
            raise ValueError(f"form must be 'and' or 'or', not {self.form!r}")
        A, y01, _ = self._validate_fit(X, y)
        self.lp_ = learn_clause(A, y01, self.form, self.lam, exact=self.exact,
                                rounding=self.rounding, solver=self.solver,
                                time_limit=self.time_limit, random_state=self.random_state)
        if self.lp_.status not in ("optimal", "time_limit"):
            raise RuntimeError(f"the clause LP ended with status {self.lp_.status!r}")
        terms = tuple(self.terms_[j] for j in np.sort(self.lp_.selected))
        self.rule_ = Clause(terms, self.form)
        wrapper = DNF if self.form == "and" else CNF
        self.rules_ = wrapper([self.rule_], then=self.positive_label_)
        return self
