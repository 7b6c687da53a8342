"""BoostRule: AdaBoost with GreedyRule as the weak learner (Cohen et al. 2019, Theorem 3)."""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import check_is_fitted

from .._base import LearnerBase, fit_context
from ._base import check_X, feature_terms
from .rules import RuleList
from .theory import GreedyRule

__all__ = ["BoostRule"]


class BoostRule(LearnerBase):
    """Boosted GreedyRule: a weighted vote of rules-first weak learners.

    Theorem 3: boosting turns GreedyRule (error <= 1/4 with Omega~(kB + B^2) samples) into a
    learner of (k, B)-realizable distributions with sample complexity O~((kB + B^2)/eps).
    This is discrete AdaBoost (Freund & Schapire, 1997) with sample weights passed to
    GreedyRule.

    Parameters
    ----------
    k, B, threshold_scale, fit_intercept, solver : see :class:`GreedyRule`
    n_estimators : int, default=10
        Boosting rounds (stops early when a weak learner is perfect or no better than chance).
    feature_names : sequence of str, optional
    condition : str, default="{feature} > 0"
    binarizer : {"auto", "passthrough"} or binariser, default="auto"
        What becomes a feature, as in :class:`RulesFirstClassifier`.

    Attributes
    ----------
    estimators_ : list of GreedyRule
    estimator_weights_ : ndarray
        AdaBoost weights alpha_t = 0.5 log((1 - err_t) / err_t).
    estimator_errors_ : ndarray
        Weighted training error of each round.
    rules_ : RuleList
        Every distinct rule used by some round, in order of first use. Unlike the other
        rules-first learners, these rules do not decide alone: a firing rule is its rounds'
        +1 vote in the weighted vote of :meth:`decision_function`, which decides every
        sample (the list's ``otherwise`` says so).
    """

    _sparse = True  # sparse designs (bags of words, LIBSVM files) are common here
    # GreedyRule's parameters (its rounds' learner) and the number of rounds
    _parameter_constraints = {
        **GreedyRule._parameter_constraints,
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
    }

    def __init__(
        self,
        k=20,
        B=1.0,
        n_estimators=10,
        threshold_scale=100.0,
        fit_intercept=False,
        solver=None,
        feature_names=None,
        condition="{feature} > 0",
        binarizer="auto",
    ):
        self.k = k
        self.B = B
        self.n_estimators = n_estimators
        self.threshold_scale = threshold_scale
        self.fit_intercept = fit_intercept
        self.solver = solver
        self.feature_names = feature_names
        self.condition = condition
        self.binarizer = binarizer

    @fit_context
    def fit(self, X, y):
        """Run AdaBoost rounds of GreedyRule on reweighted samples."""
        X, names = check_X(X, self, reset=True)
        yi = self._check_target(y, X.shape[0])
        names = list(self.feature_names) if self.feature_names is not None else names
        n = X.shape[0]
        sign = np.where(yi == 1, 1.0, -1.0)
        weights = np.full(n, 1.0 / n)
        self.estimators_, alphas, errors = [], [], []
        for _ in range(self.n_estimators):
            weak = GreedyRule(
                k=self.k,
                B=self.B,
                threshold_scale=self.threshold_scale,
                fit_intercept=self.fit_intercept,
                solver=self.solver,
                feature_names=names,
                condition=self.condition,
            )
            weak.fit(X, yi, sample_weight=weights)
            h = np.where(weak.predict(X) == 1, 1.0, -1.0)
            err = float(weights[h != sign].sum())
            if err >= 0.5:  # no better than chance: boosting cannot use it
                if not self.estimators_:
                    self.estimators_, alphas, errors = [weak], [1.0], [err]
                break
            self.estimators_.append(weak)
            errors.append(err)
            if err <= 1e-12:  # perfect on the weighted sample: it decides alone
                alphas.append(1.0)
                break
            alpha = 0.5 * np.log((1 - err) / err)
            alphas.append(alpha)
            weights *= np.exp(-alpha * sign * h)
            weights /= weights.sum()
        self.estimator_weights_ = np.asarray(alphas)
        self.estimator_errors_ = np.asarray(errors)
        seen, rules = set(), []
        for est in self.estimators_:
            for r in est.rules_:
                if r.feature not in seen:
                    seen.add(r.feature)
                    rules.append(r)
        terms = feature_terms(self, names or [f"x{j}" for j in range(X.shape[1])])
        for r_i, r in enumerate(rules):  # labels in the caller's classes
            rules[r_i] = type(r)(
                r.feature, self.classes_[1], r.name, r.support, r.purity, terms[r.feature]
            )
        self.rules_ = RuleList(
            rules,
            self.condition,
            otherwise="(not a decision list: each rule is a +1 vote of its "
            "rounds, and the weighted vote of the rounds decides "
            "every sample)",
        )
        return self

    def decision_function(self, X) -> np.ndarray:
        """Weighted vote sum_t alpha_t h_t(x) with h_t in {-1, +1}."""
        check_is_fitted(self, "estimators_")
        X, _ = check_X(X, self)
        votes = np.zeros(X.shape[0])
        for alpha, est in zip(self.estimator_weights_, self.estimators_):
            votes += alpha * np.where(est.predict(X) == 1, 1.0, -1.0)
        return votes

    def predict(self, X) -> np.ndarray:
        """Sign of the weighted vote."""
        score = self.decision_function(X)  # checks the fit first
        return self.classes_[(score > 0).astype(int)]
