"""GreedyRule, the algorithm of Fig. 1 of Cohen et al. (2019), with its guarantees' settings.

While some exact rule (a feature j with y = 1 wherever x(j) > 0) covers more than
m / (100 k (B + 1)) of the samples not yet covered, add it; then fit w minimising the hinge
loss on the uncovered samples subject to ||w||_2 <= B. Lemma 1: on (k, B)-realizable data
with m = Omega~(kB + B^2) this is a weak learner (error <= 1/4), which BoostRule boosts.
"""

from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.utils._param_validation import Interval

from .._base import BINARIZER, fit_context
from .._design import numeric_design, numeric_terms
from ._base import Halfspace, RulesFirstBase
from .rules import Rule, RuleList, coverage_matrix

__all__ = ["GreedyRule", "hinge_ball"]


class GreedyRule(RulesFirstBase):
    """Rules for the positive class, then a norm-bounded hinge-loss halfspace (Fig. 1).

    Parameters
    ----------
    k : int, default=20
        The number of rules the data are assumed to need.
    B : float, default=1.0
        Norm bound ||w||_2 <= B of the linear part.
    threshold_scale : float, default=100.0
        The constant of the coverage threshold m / (threshold_scale * k * (B + 1)).
    fit_intercept : bool, default=False
        Add an unconstrained bias to the halfspace (the paper's has none).
    solver : str, optional
        cvxpy solver for the hinge-loss problem (default: CLARABEL).
    feature_names : sequence of str, optional
    condition : str, default="{feature} > 0"
    binarizer : {"auto", "passthrough"} or binariser, default="auto"
        What becomes a feature, as in :class:`RulesFirstClassifier`.

    Attributes
    ----------
    classes_ : ndarray
        ``classes_[1]`` is the class the rules predict.
    rules_ : RuleList
        The rules in order, a :class:`rulelab.rules.DecisionList` whose fallback is the
        halfspace (:class:`~rulelab.rulesfirst._base.Halfspace`, link "score": a hinge loss
        gives no probability, so there is no ``predict_proba``). ``decision_function`` is
        +inf where a rule fires, ``<w, x> + b`` elsewhere.
    coef_ : ndarray, shape (n_features,)
    intercept_ : float
    threshold_ : float
        The coverage threshold used, in samples.
    """

    _probabilistic = False  # the hinge-loss halfspace has a score, not a probability
    _parameter_constraints = {
        "k": [Interval(Real, 1, None, closed="left")],
        "B": [Interval(Real, 0, None, closed="left")],
        "threshold_scale": [Interval(Real, 0, None, closed="neither")],
        "fit_intercept": ["boolean"],
        "solver": [str, None],
        "feature_names": ["array-like", None],
        "condition": [str],
        "binarizer": BINARIZER,
    }

    def __init__(
        self,
        k=20,
        B=1.0,
        threshold_scale=100.0,
        fit_intercept=False,
        solver=None,
        feature_names=None,
        condition="{feature} > 0",
        binarizer="auto",
    ):
        self.k = k
        self.B = B
        self.threshold_scale = threshold_scale
        self.fit_intercept = fit_intercept
        self.solver = solver
        self.feature_names = feature_names
        self.condition = condition
        self.binarizer = binarizer

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Add rules greedily above the coverage threshold, then fit the bounded halfspace.

        Parameters
        ----------
        X : array-like or sparse matrix, shape (n_samples, n_features)
        y : array-like of two classes; the larger one (``classes_[1]``) is the rules' label
        sample_weight : array-like, optional
            Non-negative weights (BoostRule's distribution); coverage counts weight mass
            scaled to sum to n_samples.
        """
        X, names = numeric_design(X, self, reset=True)
        yi = self._check_target(y, X.shape[0])
        n, d = X.shape
        names = [str(f) for f in self.feature_names] if self.feature_names is not None else names
        self.feature_names_ = names or [f"x{j}" for j in range(d)]
        sw = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=float)
        if sw.shape != (n,) or (sw < 0).any() or sw.sum() <= 0:
            raise ValueError("sample_weight must be n_samples non-negative weights, not all zero")
        sw = sw * n / sw.sum()
        self.threshold_ = n / (self.threshold_scale * self.k * (self.B + 1))

        Bm = coverage_matrix(X)
        terms = numeric_terms(self, self.feature_names_)
        # An exact rule: no sample of the other class (with weight) where x(j) > 0.
        pure = np.asarray(Bm.T @ ((yi == 0) & (sw > 0)).astype(float)).ravel() == 0
        covered = np.zeros(n, bool)
        rules = []
        while True:
            mass = np.asarray(Bm.T @ (sw * ~covered)).ravel()
            mass[~pure] = 0.0
            j = int(mass.argmax())
            if mass[j] <= self.threshold_:
                break
            col = np.asarray(Bm[:, j].toarray()).ravel() > 0
            rules.append(
                Rule(j, self.classes_[1], self.feature_names_[j], int(col.sum()), 1.0, terms[j])
            )
            covered |= col
            pure[j] = False  # never pick it again
        free = ~covered
        ys = np.where(yi[free] == 1, 1.0, -1.0)
        self.coef_, self.intercept_ = hinge_ball(
            X[free], ys, self.B, sw[free], self.fit_intercept, self.solver
        )
        self.rules_ = RuleList(
            rules,
            self.condition,
            HALFSPACE,
            fallback=Halfspace(self.coef_, self.intercept_, self.classes_, self),
        )
        return self


#: How GreedyRule's list names its fallback.
HALFSPACE = "the halfspace <w, x> + b > 0 (coef_, intercept_)"


def hinge_ball(X, y, B: float, sample_weight=None, fit_intercept: bool = False, solver=None):
    """argmin_w mean_i s_i max(0, 1 - y_i (<w, x_i> + b)) subject to ||w||_2 <= B.

    A second-order cone program, solved exactly with cvxpy. Returns (w, b); (0, 0) when
    there are no samples.
    """
    import cvxpy as cp

    n, d = X.shape
    if n == 0:
        return np.zeros(d), 0.0
    s = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=float)
    w = cp.Variable(d)
    b = cp.Variable() if fit_intercept else 0.0
    margins = cp.multiply(y, X @ w + b)
    problem = cp.Problem(cp.Minimize(s @ cp.pos(1 - margins) / s.sum()), [cp.norm(w, 2) <= B])
    try:
        problem.solve(solver=solver or cp.CLARABEL, verbose=False)
    except cp.error.SolverError as err:
        largest = float(abs(X).max()) if n else 0.0
        raise ValueError(
            f"the hinge-loss problem with ||w|| <= B = {B} could not be solved "
            f"({err}); the features reach {largest:.3g} in size: rescale them "
            "(e.g. sklearn's StandardScaler) or pass another cvxpy solver"
        ) from err
    if w.value is None:
        raise ValueError(f"the hinge-loss problem was not solved (status {problem.status})")
    return np.asarray(w.value).ravel(), float(b.value) if fit_intercept else 0.0
