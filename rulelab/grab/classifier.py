"""``CBMClassifier``: a sparse linear model over conjunctions of binary attributes (GRAB)."""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
import pandas as pd
from sklearn.utils import check_array, check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from .._base import (
    BINARIZER,
    DEPRECATED,
    DEPRECATED_BINARIZE,
    RuleClassifierBase,
    fit_context,
    renamed,
)
from .._design import binarize_frame
from .._validation import is_binary_frame
from ..rules import Clause, WeightedRuleSet
from ._bits import decision, flatten, pack_columns
from .binarize import CellBinarizer
from .grafting import LOSSES, graft
from .wfim import TransactionMatrix

__all__ = ["CBMClassifier"]


class CBMClassifier(RuleClassifierBase):
    """Combinatorial binary model learned by GRAB (Lee, Matsushima & Yamanishi 2020).

    Learns ``f(x) = sum_phi w_phi phi(x)`` over every conjunction phi of at most ``max_terms``
    binary attributes by minimising eq. (2), ``C * sum_i loss(f(x_i), y_i) + ||w||_1``, with
    grafting: weighted frequent itemset mining finds the conjunctions whose gradient
    exceeds the L1 threshold (top ``top_k`` per iteration), coordinate descent re-optimises
    the free weights from a warm start, and the run stops when V^t < tol * V^0.

    The bias is the weight of the empty conjunction (the constant feature T of Phi), and
    it is L1-penalised like every other weight, as eq. (2) is written.

    Parameters
    ----------
    max_terms : int or None, default=2
        Largest conjunction size (the paper's degree k); None for every conjunction (k = d).
    C : float, default=1.0
        Weight of the loss against the L1 norm.
    loss : {"logistic", "l2hinge"}, default="logistic"
    tol : float, default=1e-2
        eps of the stopping rule V^t < eps V^0.
    top_k : int, default=100
        Conjunctions added per grafting iteration (the paper's top-K; its value was lost
        from the text).
    binarizer : {"auto", "passthrough"} or binariser, default="auto"
        ``"auto"``: a 0/1 matrix (dense or sparse) is used as it is; anything else is cut
        into ``n_bins`` equal-width cells per column and one-hot encoded
        (``CellBinarizer(n_bins)``, the paper's Section 5.2). ``"passthrough"``: 0/1 input
        used as it is. Or an unfitted binariser with ``terms_`` (``CellBinarizer(...)``,
        ``FeatureBinarizer(...)``), fitted on the training data.
    n_bins : int, default=50
        Cells per numeric column of ``binarizer="auto"``.
    search : {"wfim", "naive", "occurring"}, default="wfim"
        GRAB's mining; the paper's naive grafting (the gradient of every conjunction in
        Phi(d, k), :class:`rulelab.grab.naive.PhiScan`); or grafting over the conjunctions
        that occur in the data, without pruning.
    max_iter : int, default=10000
        Grafting iterations.
    time_limit : float, optional
        Seconds; the fit stops after the iteration that crosses it (``timed_out_``).
    random_state : int, RandomState or None, default=0
        Seeds the coordinate order of the inner solver (None: a fresh seed each fit).
    verbose : bool, default=False
    warm_start : bool, default=False
        When True, a refit on data with the same binary attributes (the same names, as
        after ``set_params(C=...)`` along a grid of C) starts grafting from the previous
        fit's non-zero conjunctions and weights instead of from w = 0 (those longer than
        ``max_terms`` are left out). The problem and the stopping rule are unchanged: V^0 is
        still measured at w = 0 for the new C, so the fit stops at the same criterion as a
        cold fit (see :func:`rulelab.grab.grafting.graft`'s ``init``). Ascending C, the
        sparse solution at the smaller C is a close start and the path costs far fewer
        searches. On data with other attributes the warm start is ignored (a cold fit, as
        scikit-learn's estimators do); ``warm_started_`` says which happened.
    binarize : deprecated
        Use ``binarizer``: ``binarize=False`` is ``binarizer="passthrough"``,
        ``binarize=True`` is ``binarizer=CellBinarizer(n_bins)``.
    degree : deprecated in 0.2, removed in 0.3
        The former name of ``max_terms``.

    Attributes
    ----------
    classes_ : ndarray of the two labels
    itemsets_ : list of tuples
        The non-zero conjunctions, as column indices into ``feature_names_``.
    coef_ : ndarray
        Their weights (same order as ``itemsets_``, sorted by absolute weight).
    intercept_ : float
        The weight of the empty conjunction (0 when it is not selected).
    feature_names_ : ndarray of str
        Names of the binary attributes the model was learned on (each one's term in words).
    terms_ : list of rulelab.rules.Term
        The test each binary attribute stands for on the raw data (``x in [a, b)``,
        ``colour == red``, ``f3 == 1``).
    rules_ : rulelab.rules.WeightedRuleSet
        The model as a weighted vote of AND-clauses, one per non-zero weight, largest first
        (the intercept is the empty clause, ``TRUE``): ``str(model)`` prints it,
        ``rules_.score(X)`` is ``decision_function(X)``, and ``explain``, ``to_json``,
        ``to_sql`` and ``to_pandas_query`` work on the raw data. ``predict``,
        ``decision_function``, ``predict_proba`` (logistic loss only, through the link
        :meth:`rulelab.rules.WeightedRuleSet.link`) and ``explain`` come from it through the
        shared base; only the score is computed faster, on the binary design by one bitset
        kernel (:meth:`_decision_from_design`).
    coef_table_ : pandas.DataFrame
        weight, conjunction in words, size and training support of every non-zero weight,
        sorted by absolute weight.
    objective_ : float
        Eq. (2) at the solution.
    n_iter_, converged_, timed_out_, history_ : how the run went.
    warm_started_ : bool
        Whether this fit started from the previous one's weights (``warm_start``).
    """

    _sparse = True  # sparse designs (bags of words, LIBSVM files) are common here

    @property
    def _probabilistic(self) -> bool:
        # unfitted, predict_proba is offered for the loss with a link (the logistic one)
        return self.loss == "logistic"

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False  # missing values are refused, by name
        return tags

    _parameter_constraints = {
        "max_terms": [Interval(Integral, 0, None, closed="left"), None],
        "degree": [Interval(Integral, 0, None, closed="left"), StrOptions({DEPRECATED}), None],
        "C": [Interval(Real, 0, None, closed="neither")],
        "loss": [StrOptions(set(LOSSES))],
        "tol": [Interval(Real, 0, None, closed="neither")],
        "top_k": [Interval(Integral, 1, None, closed="left")],
        "binarizer": BINARIZER,
        "n_bins": [Interval(Integral, 1, None, closed="left")],
        "search": [StrOptions({"wfim", "naive", "occurring"})],
        "max_iter": [Interval(Integral, 0, None, closed="left")],
        "time_limit": [Interval(Real, 0, None, closed="left"), None],  # 0: one iteration
        "random_state": ["random_state"],
        "verbose": ["verbose"],
        "warm_start": ["boolean"],
        "binarize": DEPRECATED_BINARIZE,
    }

    def __init__(
        self,
        max_terms=2,
        C=1.0,
        loss="logistic",
        tol=1e-2,
        top_k=100,
        binarizer="auto",
        n_bins=50,
        search="wfim",
        max_iter=10_000,
        time_limit=None,
        random_state=0,
        verbose=False,
        warm_start=False,
        binarize=None,
        degree=DEPRECATED,
    ):
        self.max_terms = max_terms
        self.C = C
        self.loss = loss
        self.tol = tol
        self.top_k = top_k
        self.binarizer = binarizer
        self.n_bins = n_bins
        self.search = search
        self.max_iter = max_iter
        self.time_limit = time_limit
        self.random_state = random_state
        self.verbose = verbose
        self.warm_start = warm_start
        self.binarize = binarize
        self.degree = degree

    # ------------------------------------------------------------------ input
    def _frame(self, X, fit: bool) -> pd.DataFrame:
        """``X`` as a table with the names the terms use; the names seen in fit are checked
        at predict, so columns are never matched by position."""
        if not isinstance(X, pd.DataFrame):
            # scikit-learn's own checks and messages (1-D, empty, complex, object input);
            # NaN is refused by name in _design, infinities fall in the first or last cell
            X = check_array(X, accept_sparse="csr", ensure_all_finite=False)
        return self._named_frame(X, reset=fit)

    def _check_X(self, X) -> pd.DataFrame:
        """The rows ``rules_`` reads: the raw table, names checked (scored on its binary
        design by :meth:`_decision_from_design`)."""
        check_is_fitted(self, "rules_")
        return self._frame(X, fit=False)

    def _design(self, frame: pd.DataFrame) -> np.ndarray:
        """The 0/1 design of a checked table at predict, as at fit."""
        if self.binarizer_ is not None:
            return self.binarizer_.transform(frame)
        if frame.isna().to_numpy().any():
            raise ValueError("X contains NaN: impute or drop the missing values first")
        if not is_binary_frame(frame):
            raise ValueError("X must be 0/1 like the data the model was fitted on")
        return frame.to_numpy(dtype=np.uint8)

    # ------------------------------------------------------------------ fit
    @fit_context
    def fit(self, X, y, first_search=None):
        """Learn the model by grafting (GRAB).

        Parameters
        ----------
        X : array-like, sparse matrix or DataFrame of shape (n_samples, n_features)
        y : array-like of shape (n_samples,), two classes
        first_search : rulelab.grab.grafting.SharedFirstSearch, optional
            The first itemset search shared with fits of other ``max_terms`` on the same
            ``X`` and ``y`` with the same other parameters (a grid of ``max_terms``): the
            same model as without it, with one search for all of them where that is exact.

        Returns
        -------
        self
        """
        frame = self._frame(X, fit=True)
        B, terms = binarize_frame(self, frame, lambda: CellBinarizer(n_bins=self.n_bins))
        max_terms = renamed(self, "degree", "max_terms")
        ypm = np.where(self._check_target(y, B.shape[0]) == 1, 1.0, -1.0)
        seed = (
            self.random_state
            if isinstance(self.random_state, (int, np.integer))
            else int(check_random_state(self.random_state).randint(2**31 - 1))
        )
        init = self._warm_init(terms, max_terms)
        db = TransactionMatrix(B)
        res = graft(
            db,
            ypm,
            C=float(self.C),
            loss=self.loss,
            max_size=None if max_terms is None else int(max_terms),
            tol=float(self.tol),
            top_k=int(self.top_k),
            search=self.search,
            max_iter=int(self.max_iter),
            time_limit=self.time_limit,
            random_state=int(seed),
            verbose=self.verbose,
            init=init,
            shared=first_search,
        )
        self.warm_started_ = init is not None
        nz = np.flatnonzero(res.coef)
        order = nz[np.lexsort((np.arange(nz.size), -np.abs(res.coef[nz])))]
        self.itemsets_ = [res.itemsets[i] for i in order]
        self.coef_ = res.coef[order].copy()
        self.terms_ = list(terms)
        self.feature_names_ = np.asarray([str(t) for t in terms], dtype=object)
        self.intercept_ = float(
            next((w for p, w in zip(self.itemsets_, self.coef_) if p == ()), 0.0)
        )
        clauses = [Clause(tuple(terms[j] for j in p)) for p in self.itemsets_]
        self.rules_ = WeightedRuleSet(
            clauses,
            self.coef_,
            then=str(self.classes_[1]),
            loss="logistic" if self.loss == "logistic" else "hinge",
        )
        self.coef_table_ = pd.DataFrame(
            {
                "weight": self.coef_,
                "conjunction": [str(c) if c.terms else "(always)" for c in clauses],
                "size": [len(p) for p in self.itemsets_],
                "support": res.supports[order] if res.supports is not None else np.nan,
            }
        )
        self.objective_ = res.objective
        self.n_iter_ = res.n_iter
        self.converged_ = res.converged
        self.timed_out_ = res.timed_out
        self.history_ = pd.DataFrame(res.history)
        self.n_free_ = len(res.itemsets)
        self.result_ = res
        self._ptr, self._items = flatten(self.itemsets_)
        return self

    def _warm_init(self, terms, max_terms):
        """The previous fit's (itemsets, coef) to start from, or None for a cold start: no
        ``warm_start``, no previous fit, or other binary attributes (then the column
        indices of the previous conjunctions would mean other tests)."""
        if not self.warm_start or not hasattr(self, "coef_"):
            return None
        names = [str(t) for t in terms]
        if len(names) != len(self.feature_names_) or names != list(self.feature_names_):
            return None
        keep = [i for i, p in enumerate(self.itemsets_) if max_terms is None or len(p) <= max_terms]
        if not keep:
            return None  # w = 0: the cold start itself
        return [self.itemsets_[i] for i in keep], self.coef_[keep]

    # ------------------------------------------------------------------ scoring
    def _decision_from_design(self, rows: pd.DataFrame) -> np.ndarray:
        """The model's score ``f(x) = sum_phi w_phi phi(x)``, equal to ``rules_.score`` on the
        raw rows, computed on the binary design by one bitset kernel over the non-zero
        conjunctions (the base's hook: the shared ``predict``, ``decision_function``,
        ``predict_proba`` and ``explain`` read it)."""
        db = TransactionMatrix(self._design(rows))
        return decision(pack_columns(db), db.n_rows, self._ptr, self._items, self.coef_)
