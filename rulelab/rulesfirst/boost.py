"""BoostRule: AdaBoost with GreedyRule as the weak learner (Cohen et al. 2019, Theorem 3)."""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.utils._param_validation import Interval

from .._base import fit_context
from .._design import numeric_design, numeric_terms
from ..rules import WeightedVote
from ._base import Halfspace, RulesFirstBase
from .rules import RuleList
from .theory import HALFSPACE, GreedyRule

__all__ = ["BoostRule"]


class BoostRule(RulesFirstBase):
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
    rules_ : WeightedVote
        The vote ``F(x) = sum_t alpha_t h_t(x)``, a :class:`rulelab.rules.WeightedVote` of
        the rounds' rule lists (each with its halfspace as fallback): ``h_t`` is +1 where
        round t's list gives ``classes_[1]``, -1 elsewhere. ``decision_function`` is ``F``,
        ``predict`` its sign, ``predict_proba`` AdaBoost's link ``1 / (1 + exp(-2F))``
        (Friedman, Hastie & Tibshirani 2000). ``rules_.clauses`` are the distinct rules of
        the rounds, in order of first use.
    """

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
        X, names = numeric_design(X, self, reset=True)
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
        terms = numeric_terms(self, names or [f"x{j}" for j in range(X.shape[1])])
        members = []
        for est in self.estimators_:  # each round's list in the caller's classes and terms
            rules = [
                type(r)(r.feature, self.classes_[1], r.name, r.support, r.purity, terms[r.feature])
                for r in est.rules_
            ]
            members.append(
                RuleList(
                    rules,
                    self.condition,
                    HALFSPACE,
                    fallback=Halfspace(est.coef_, est.intercept_, self.classes_, self),
                )
            )
        self.rules_ = WeightedVote(
            members, self.estimator_weights_, positive=self.classes_[1], loss="exponential"
        )
        return self
