"""Rule learners of Malioutov & Varshney (2013): one clause (1Rule), set covering (RuSC)
and boosting (RuB).

All three learn AND-clauses with the Boolean compressed-sensing LP (eq. 10, through De
Morgan) over the binarised features; they differ in how clauses are combined:

* :class:`OneRule` -- a single clause;
* :class:`SetCoverRules` -- separate-and-conquer: learn a clause, remove the training samples
  it fires on, repeat; the result is a DNF (paper 1, section 4);
* :class:`BoostedLPRules` -- confidence-rated boosting (Cohen & Singer 1999) with the weighted
  LP objective of eq. (11), exactly as Algorithm 1; the result is a weighted vote.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
import pandas as pd
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from ._base import (
    BINARIZER,
    DEPRECATED,
    DEPRECATED_BINARIZE,
    RuleClassifierBase,
    fit_context,
    is_unset,
    renamed,
)
from .lp import learn_clause
from .rules import CNF, DNF, Clause, WeightedRuleSet

__all__ = ["OneRule", "SetCoverRules", "BoostedLPRules"]


#: The parameters every clause-LP learner shares (scikit-learn's declaration).
LP_PARAMETERS = {
    "complexity": [Interval(Real, 0, None, closed="neither"), None],
    "lam": [Interval(Real, 0, None, closed="neither"), StrOptions({DEPRECATED}), None],
    "n_thresholds": [Interval(Integral, 1, None, closed="left")],
    "binarizer": BINARIZER,
    "binarize": DEPRECATED_BINARIZE,
    "exact": ["boolean"],
    "rounding": [StrOptions({"threshold", "randomized"})],
    "solver": [str],
    "lp_time_limit": [Interval(Real, 0, None, closed="neither"), None],
    "time_limit": [Interval(Real, 0, None, closed="neither"), StrOptions({DEPRECATED}), None],
    "random_state": ["random_state"],
    "screening": [StrOptions({"basic", "enhanced"}), None],
}


def lp_lambda(estimator) -> float | None:
    """Paper 1's lambda (the weight of one training error against one term) of a learner,
    ``1 / complexity``; None (the noiseless LP) when ``complexity`` is None."""
    if not is_unset(estimator.lam):
        return renamed(estimator, "lam", "complexity", note="complexity = 1 / lam")
    return None if estimator.complexity is None else 1.0 / estimator.complexity


def lp_options(estimator) -> dict:
    """Keyword arguments of :func:`rulelab.lp.learn_clause` shared by every clause."""
    return dict(
        exact=estimator.exact,
        rounding=estimator.rounding,
        solver=estimator.solver,
        time_limit=renamed(estimator, "time_limit", "lp_time_limit"),
        random_state=estimator.random_state,
        screening=estimator.screening,
    )


class OneRule(RuleClassifierBase):
    """One AND- or OR-clause learned by the Boolean compressed-sensing LP (1Rule).

    The clause solves the LP relaxation of Malioutov & Varshney (2013, eq. 10) over the
    binarised features (10 quantile thresholds per numeric feature in both directions),
    an AND-clause through De Morgan's law; non-zero LP weights are rounded to one.

    Parameters
    ----------
    form : {"and", "or"}, default="and"
        Learn a conjunction (``IF a AND b THEN positive``) or a disjunction.
    complexity : float or None, default=0.001
        Cost of one term of the clause, in units of one training error: larger gives
        shorter clauses. Paper 1's lambda (eq. 10) is ``1 / complexity``, so the default
        is the paper's lambda = 1000. None: the noiseless LP of eq. (9), no training
        error allowed.
    n_thresholds : int, default=10
        Quantile thresholds per numeric feature, used in both directions.
    binarizer : {"auto", "passthrough"} or binariser, default="auto"
        ``"auto"``: a 0/1 matrix is used as it is, anything else goes through
        ``FeatureBinarizer(n_thresholds)``; ``"passthrough"``: 0/1 input used as it is; or
        an unfitted binariser with ``terms_`` (``FeatureBinarizer(...)``,
        ``CellBinarizer(...)``), fitted on the training data.
    exact : bool, default=False
        Solve the 0/1 problem exactly (MILP) instead of rounding the LP.
    rounding : {"threshold", "randomized"}, default="threshold"
        How a fractional LP solution becomes a clause (see :func:`rulelab.lp.solve_or_lp`).
    solver : str, default="highs"
        ``"highs"`` (HiGHS directly) or the name of an installed cvxpy solver.
    lp_time_limit : float, optional
        Seconds allowed to each LP/MILP solve (not the whole fit). A clock limit, off by
        default: where it binds the clause depends on the machine, and ``limits_hit_``
        says so.
    random_state : int, optional
        Seed of randomized rounding.
    screening : {None, "basic", "enhanced"}, default=None
        Screen out columns that cannot be in an optimal clause before solving (paper 3;
        see :func:`rulelab.lp.solve_or_lp`).
    binarize : deprecated
        Use ``binarizer``: ``binarize=False`` is ``binarizer="passthrough"``.
    lam, time_limit : deprecated in 0.2, removed in 0.3
        Use ``complexity = 1 / lam`` and ``lp_time_limit``.

    Attributes
    ----------
    rule_ : Clause
        The learned clause, simplified (:meth:`~rulelab.rules.Clause.simplified`: of nested
        thresholds on one feature only the tightest is kept, which changes no prediction);
        ``str(model)`` prints it as ``IF ... THEN ...``.
    rules_ : DNF or CNF
        The same clause as a one-clause rule set (``n_rules``, ``n_terms``, ``to_query``).
    lp_ : ClauseLP
        The LP result (fractional weights, LP value, solver status); ``lp_.selected`` holds
        the binarised columns the LP chose, before simplification.
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

    _parameter_constraints = {**LP_PARAMETERS, "form": [StrOptions({"and", "or"})]}

    def __init__(
        self,
        form: str = "and",
        complexity: float | None = 0.001,
        n_thresholds: int = 10,
        binarizer="auto",
        exact: bool = False,
        rounding: str = "threshold",
        solver: str = "highs",
        lp_time_limit: float | None = None,
        random_state=None,
        screening: str | None = None,
        binarize=None,
        lam=DEPRECATED,
        time_limit=DEPRECATED,
    ):
        self.form = form
        self.complexity = complexity
        self.lam = lam
        self.n_thresholds = n_thresholds
        self.binarizer = binarizer
        self.exact = exact
        self.rounding = rounding
        self.solver = solver
        self.lp_time_limit = lp_time_limit
        self.time_limit = time_limit
        self.random_state = random_state
        self.screening = screening
        self.binarize = binarize

    @fit_context
    def fit(self, X, y):
        """Learn the clause from ``X`` and binary ``y``."""
        A, y01, _ = self._validate_fit(X, y)
        self.lp_ = learn_clause(A, y01, self.form, lp_lambda(self), **lp_options(self))
        if self.lp_.status not in ("optimal", "time_limit"):
            raise RuntimeError(f"the clause LP ended with status {self.lp_.status!r}")
        terms = tuple(self.terms_[j] for j in np.sort(self.lp_.selected))
        self.rule_ = Clause(terms, self.form).simplified()
        wrapper = DNF if self.form == "and" else CNF
        self.rules_ = wrapper([self.rule_], then=self.positive_label_)
        return self

    @property
    def limits_hit_(self) -> tuple:
        """``("lp_time_limit",)`` when that clock limit stopped the solve, else ``()``."""
        return _limits_hit([self.lp_])


def _limits_hit(lps) -> tuple:
    """The limits that stopped any of the clause solves ``lps`` (their statuses say)."""
    return ("lp_time_limit",) if any(lp.status == "time_limit" for lp in lps) else ()


def _sklearn_input_checks(X) -> None:
    """Reject what scikit-learn's estimator checks expect a classifier to reject, with the
    messages they look for, before the rule-specific checks of :mod:`rulelab._base` run.

    DataFrames pass through (their categorical columns are binarised later); any other
    input must be a dense, real, numeric 2-D array (``y`` is checked by the base class).
    """
    if hasattr(X, "toarray"):
        raise TypeError(
            "sparse input is not supported by the rule learners: pass a dense "
            "array or a DataFrame (X.toarray())"
        )
    if not isinstance(X, pd.DataFrame):
        arr = np.asarray(X)
        if np.iscomplexobj(arr):
            raise ValueError("Complex data not supported: rules compare real-valued features")
        if arr.ndim == 1:
            raise ValueError(
                "Expected 2D array, got 1D array instead. Reshape your data using "
                "array.reshape(-1, 1) if it has a single feature or "
                "array.reshape(1, -1) if it holds a single sample."
            )
        if arr.ndim == 2 and arr.shape[1] == 0:
            raise ValueError(f"0 feature(s) (shape={arr.shape}) while a minimum of 1 is required.")
        if arr.ndim == 2 and arr.shape[0] == 0:
            raise ValueError(f"0 sample(s) (shape={arr.shape}) while a minimum of 1 is required.")
        if arr.dtype == object:
            arr.astype(float)  # numpy input must be numeric: categories belong in a DataFrame


class _RuleSetBase(RuleClassifierBase):
    """What the rule-set learners share: LP options, one clause LP, scikit-learn input checks."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = False
        return tags

    def _learn_and_clause(self, A, y01, sample_weight=None):
        lp = learn_clause(
            A, y01, "and", lp_lambda(self), sample_weight=sample_weight, **lp_options(self)
        )
        # An interior-point solver may stop a little short of its tolerances: its answer is
        # still a valid clause (rounding makes it 0/1), so only a failed solve is an error.
        if lp.status not in ("optimal", "time_limit", "optimal_inaccurate"):
            raise RuntimeError(f"the clause LP ended with status {lp.status!r}")
        return lp

    def _clause(self, selected) -> Clause:
        return Clause(tuple(self.terms_[j] for j in np.sort(selected)), "and")

    def _validate_fit(self, X, y):
        _sklearn_input_checks(X)
        return super()._validate_fit(X, y)

    def _check_X(self, X):
        check_is_fitted(self, "rules_")
        _sklearn_input_checks(X)
        shape = X.shape if isinstance(X, pd.DataFrame) else np.asarray(X).shape
        n_features = shape[1] if len(shape) == 2 else None
        if n_features is not None and n_features != self.n_features_in_:
            raise ValueError(
                f"X has {n_features} features, but {type(self).__name__} is "
                f"expecting {self.n_features_in_} features as input"
            )
        return super()._check_X(X)


def _fires(A: np.ndarray, selected) -> np.ndarray:
    """Where the AND of the ``selected`` columns holds (everywhere for the empty clause)."""
    selected = np.asarray(selected, dtype=int)
    if selected.size == 0:
        return np.ones(A.shape[0], dtype=bool)
    return A[:, selected].all(axis=1).astype(bool)


class SetCoverRules(_RuleSetBase):
    """DNF rule set learned by set covering over Boolean compressed-sensing clauses (RuSC).

    Separate-and-conquer (Malioutov & Varshney 2013, section 4): the first AND-clause is
    learned by the LP of eq. (10) on all training samples (it is the 1Rule clause); the
    samples it fires on are removed, the next clause is learned on the rest, and so on. The
    prediction is the OR of the clauses.

    Learning stops when no positive is left, when ``max_rules`` clauses are learned, or when
    the new clause covers no positive that the earlier clauses missed (it would then be
    learned again on the same samples in every later round; the first clause is always
    kept, so the DNF contains the 1Rule clause). These are the paper's stopping rules: the
    text learns clause after clause on what the earlier ones left ("the process
    continues") and names no other criterion. ``stop_on_no_gain=True`` (our option, off by
    default) also stops before a clause that fires on at least as many uncovered negatives
    as uncovered positives: such a clause cannot lower the training error of the DNF, so
    the training error then never exceeds that of the first clause (1Rule).

    Parameters
    ----------
    complexity : float or None, default=0.001
        Cost of one term of the clause, in units of one training error: larger gives
        shorter clauses. Paper 1's lambda (eq. 10) is ``1 / complexity``, so the default
        is the paper's lambda = 1000. None: the noiseless LP of eq. (9), no training
        error allowed.
    max_rules : int, default=10
        Most clauses in the DNF.
    remove : {"covered", "positives"}, default="covered"
        Which samples a clause removes from the training set: every sample it fires on (the
        paper's wording; a negative already covered is an error whatever later clauses do,
        so it should no longer count against them) or only the positives it covers.
    stop_on_no_gain : bool, default=False
        Stop before a clause that does not lower the training error (see above; not in
        the paper).
    n_thresholds : int, default=10
        Quantile thresholds per numeric feature, used in both directions.
    binarizer : {"auto", "passthrough"} or binariser, default="auto"
        ``"auto"``: a 0/1 matrix is used as it is, anything else goes through
        ``FeatureBinarizer(n_thresholds)``; ``"passthrough"``: 0/1 input used as it is; or
        an unfitted binariser with ``terms_`` (``FeatureBinarizer(...)``,
        ``CellBinarizer(...)``), fitted on the training data.
    exact, rounding, solver, lp_time_limit, random_state, screening
        Passed to :func:`rulelab.lp.learn_clause` for every clause (see :class:`OneRule`).

    Attributes
    ----------
    rules_ : DNF
        The learned rule set, every clause simplified (nested thresholds on one feature
        merged, which changes no prediction); ``str(model)`` prints it in words.
    clauses_ : list of Clause
        The clauses of ``rules_`` in the order they were learned.
    lps_ : list of ClauseLP
        The LP result of every accepted clause (``lps_[k].selected``: the binarised
        columns clause ``k`` was learned with, before simplification).
    coverage_ : list of (int, int)
        (new positives, new negatives) each clause covered when it was added.
    stop_reason_ : str
        Why learning stopped.
    classes_ : ndarray of shape (2,)

    Examples
    --------
    >>> from rulelab import load_dataset
    >>> X, y = load_dataset("pima")
    >>> print(SetCoverRules(max_rules=3).fit(X, y))                  # doctest: +SKIP
    """

    _parameter_constraints = {
        **LP_PARAMETERS,
        "max_rules": [Interval(Integral, 1, None, closed="left")],
        "remove": [StrOptions({"covered", "positives"})],
        "stop_on_no_gain": ["boolean"],
    }

    def __init__(
        self,
        complexity: float | None = 0.001,
        max_rules: int = 10,
        remove: str = "covered",
        stop_on_no_gain: bool = False,
        n_thresholds: int = 10,
        binarizer="auto",
        exact: bool = False,
        rounding: str = "threshold",
        solver: str = "highs",
        lp_time_limit: float | None = None,
        random_state=None,
        screening: str | None = None,
        binarize=None,
        lam=DEPRECATED,
        time_limit=DEPRECATED,
    ):
        self.complexity = complexity
        self.lam = lam
        self.max_rules = max_rules
        self.remove = remove
        self.stop_on_no_gain = stop_on_no_gain
        self.n_thresholds = n_thresholds
        self.binarizer = binarizer
        self.exact = exact
        self.rounding = rounding
        self.solver = solver
        self.lp_time_limit = lp_time_limit
        self.time_limit = time_limit
        self.random_state = random_state
        self.screening = screening
        self.binarize = binarize

    @fit_context
    def fit(self, X, y):
        """Learn the DNF from ``X`` and binary ``y``."""
        A, y01, _ = self._validate_fit(X, y)
        pos = y01.astype(bool)
        active = np.ones(len(y01), dtype=bool)  # samples still in the training set
        covered = np.zeros(len(y01), dtype=bool)  # where the DNF learned so far fires
        learned, self.lps_, self.coverage_ = [], [], []
        self.stop_reason_ = "max_rules"
        for _ in range(self.max_rules):
            if not (active & pos).any():
                self.stop_reason_ = "no positives left"
                break
            lp = self._learn_and_clause(A[active], y01[active])
            fires = _fires(A, lp.selected)
            new_pos = int((fires & ~covered & pos).sum())
            new_neg = int((fires & ~covered & ~pos).sum())
            if new_pos == 0 and learned:
                # The first clause is kept whatever it covers: it is the 1Rule clause, so
                # RuSC always contains 1Rule (and counts one clause where 1Rule does).
                self.stop_reason_ = "clause covers no new positive"
                break
            if self.stop_on_no_gain and learned and new_pos <= new_neg:
                self.stop_reason_ = "clause would not lower the training error"
                break
            learned.append(self._clause(lp.selected))
            self.lps_.append(lp)
            self.coverage_.append((new_pos, new_neg))
            covered |= fires
            active &= ~(fires if self.remove == "covered" else fires & pos)
            if new_pos == 0:
                self.stop_reason_ = "clause covers no positive"
                break
        self.rules_ = DNF(learned, then=self.positive_label_).simplified()
        self.clauses_ = list(self.rules_.clauses)
        return self

    @property
    def limits_hit_(self) -> tuple:
        """``("lp_time_limit",)`` when that clock limit stopped any clause's solve, else
        ``()``."""
        return _limits_hit(self.lps_)


class BoostedLPRules(_RuleSetBase):
    """Weighted vote of AND-clauses learned by boosting (RuB; paper 1, Algorithm 1).

    Round ``t`` learns a clause with the weighted LP of eq. (11) (sample weights ``d_t``),
    then makes the SLIPPER choice (Cohen & Singer 1999) between the clause and the default
    rule (always true): the clause is kept if
    ``(sqrt(s_TP) - sqrt(s_FP))^2 > (sqrt(s_T) - sqrt(s_F))^2``, with confidence
    ``C_t = 1/2 ln((s_TP + eps) / (s_FP + eps))``; otherwise the default rule gets
    ``C_t = 1/2 ln((s_T + eps) / (s_F + eps))``. Weights are updated as
    ``d_{t+1,i} = d_{t,i} / exp((2 y_i - 1) yhat_t(x_i))`` and renormalised to sum to one.
    The prediction is 1 where ``sum_t yhat_t(x) > 0``.

    The scale of eq. (11): ``d_t`` sums to one, so with ``lambda = 1000`` an error costs
    ``1000 d_{t,i}`` (about ``1000 / m`` in round 1) against 1 per term, not 1000 as in
    eq. (10). ``weight_scale="m"`` (default) multiplies the weights by ``m`` inside the LP so
    that a sample of average weight costs ``lambda`` as in eq. (10) and round 1 learns the
    1Rule clause; ``weight_scale="sum1"`` follows eq. (11) literally. Only the LP sees the
    scale; the boosting statistics always use the normalised ``d_t``.

    Parameters
    ----------
    n_estimators : int, default=5
        Boosting rounds ``T``.
    complexity : float or None, default=0.001
        Cost of one term, in units of one training error (``1 / lambda`` of eq. 11).
    weight_scale : {"m", "sum1"}, default="m"
        Scale of the sample weights inside the LP (see above).
    epsilon : float, optional
        Smoothing of the confidences; default ``1 / (2m)`` as in SLIPPER (the paper does not
        state its value).
    n_thresholds, binarizer, exact, rounding, solver, lp_time_limit, random_state, screening
        As in :class:`SetCoverRules`.
    n_rounds : deprecated
        The former name of ``n_estimators`` (BoostRule's and scikit-learn's name for the
        rounds of boosting).

    Attributes
    ----------
    rules_ : WeightedRuleSet
        One clause per round (the empty clause ``TRUE`` for a default rule) with its ``C_t``,
        every clause simplified (nested thresholds merged, which changes no vote).
    history_ : list of dict
        Per round: ``s_TP``, ``s_FP``, ``s_T``, ``s_F``, ``confidence``, ``default_rule``.
    sample_weights_ : ndarray of shape (n_estimators + 1, n_samples)
        ``d_1, ..., d_{T+1}``, each summing to one.
    lps_ : list of ClauseLP
        The LP of every round (``lps_[t].selected``: the binarised columns before
        simplification; a default-rule round ignores its LP).
    classes_ : ndarray of shape (2,)
    """

    _parameter_constraints = {
        **LP_PARAMETERS,
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "n_rounds": [Interval(Integral, 1, None, closed="left"), None],
        "weight_scale": [StrOptions({"m", "sum1"})],
        "epsilon": [Interval(Real, 0, None, closed="neither"), None],
    }

    def __init__(
        self,
        n_estimators: int = 5,
        complexity: float | None = 0.001,
        weight_scale: str = "m",
        epsilon: float | None = None,
        n_thresholds: int = 10,
        binarizer="auto",
        exact: bool = False,
        rounding: str = "threshold",
        solver: str = "highs",
        lp_time_limit: float | None = None,
        random_state=None,
        screening: str | None = None,
        binarize=None,
        n_rounds=None,
        lam=DEPRECATED,
        time_limit=DEPRECATED,
    ):
        self.n_estimators = n_estimators
        self.complexity = complexity
        self.lam = lam
        self.weight_scale = weight_scale
        self.epsilon = epsilon
        self.n_thresholds = n_thresholds
        self.binarizer = binarizer
        self.exact = exact
        self.rounding = rounding
        self.solver = solver
        self.lp_time_limit = lp_time_limit
        self.time_limit = time_limit
        self.random_state = random_state
        self.screening = screening
        self.binarize = binarize
        self.n_rounds = n_rounds

    @fit_context
    def fit(self, X, y):
        """Run ``n_estimators`` rounds of Algorithm 1 on ``X`` and binary ``y``."""
        A, y01, _ = self._validate_fit(X, y)
        m = len(y01)
        pos = y01.astype(bool)
        sign = np.where(pos, 1.0, -1.0)  # 2 y_i - 1
        eps = 1.0 / (2 * m) if self.epsilon is None else float(self.epsilon)
        scale = float(m) if self.weight_scale == "m" else 1.0
        d = np.full(m, 1.0 / m)
        weights, clauses, confidences = [d], [], []
        self.history_, self.lps_ = [], []
        for _ in range(renamed(self, "n_rounds", "n_estimators")):
            lp = self._learn_and_clause(A, y01, sample_weight=d * scale)
            fires = _fires(A, lp.selected)
            s_tp, s_fp = d[fires & pos].sum(), d[fires & ~pos].sum()
            s_t, s_f = d[pos].sum(), d[~pos].sum()
            use_clause = (np.sqrt(s_tp) - np.sqrt(s_fp)) ** 2 > (np.sqrt(s_t) - np.sqrt(s_f)) ** 2
            if use_clause:
                conf = 0.5 * np.log((s_tp + eps) / (s_fp + eps))
                clause, vote = self._clause(lp.selected), conf * fires
            else:
                conf = 0.5 * np.log((s_t + eps) / (s_f + eps))
                clause, vote = Clause((), "and"), np.full(m, conf)
            d = d / np.exp(sign * vote)
            d = d / d.sum()
            weights.append(d)
            clauses.append(clause)
            confidences.append(float(conf))
            self.lps_.append(lp)
            self.history_.append(
                {
                    "s_TP": float(s_tp),
                    "s_FP": float(s_fp),
                    "s_T": float(s_t),
                    "s_F": float(s_f),
                    "confidence": float(conf),
                    "default_rule": not use_clause,
                }
            )
        self.sample_weights_ = np.vstack(weights)
        self.rules_ = WeightedRuleSet(clauses, confidences, then=self.positive_label_).simplified()
        return self

    @property
    def limits_hit_(self) -> tuple:
        """``("lp_time_limit",)`` when that clock limit stopped any clause's solve, else
        ``()``."""
        return _limits_hit(self.lps_)
