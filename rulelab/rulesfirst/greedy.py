"""RulesFirstClassifier: the practical rules-first algorithm of Cohen et al. (2019, §7).

Rules are chosen one at a time on held-out *evaluation* data: at each step the candidate
rule that most lowers the evaluation error is added and the base classifier (a regularised
logistic regression, or any scikit-learn classifier such as an MLP) is refitted "after
removing the rule features" (§7) on the samples no rule covers (Fig. 1's S_non-covered; see
``base_rows`` for the other reading). Prediction is rules-first: the first rule that fires
decides; otherwise the base classifier does.
"""

from __future__ import annotations

import copy
from numbers import Integral, Real

import numpy as np
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from .._base import BINARIZER, fit_context
from .._design import numeric_design, numeric_terms
from ._base import (
    PENALTIES,
    BaseModel,
    RulesFirstBase,
    check_y,
    fit_base,
    make_linear,
    per_label,
)
from ._l1 import L1LogisticRefit
from ._refit import LogisticRefit
from ._search import _rule_loss, _State, _warm_init, base_proba, fit_warm
from .candidates import select_candidates
from .rules import Rule, RuleList, coverage_matrix

__all__ = ["RulesFirstClassifier", "truncate_rules"]

SEARCH_TOL = 1e-6  # gradient tolerance of the default lbfgs logistic regression


class RulesFirstClassifier(RulesFirstBase):
    """Rules-first classifier: single-feature rules first, a regularised classifier after.

    The rules are chosen greedily on an evaluation split (``eval_fraction`` of the data,
    Cohen et al. 2019, §7.1 use 1/3); then the base classifier is refitted without the
    rule features on all the samples no chosen rule covers. A rule ``IF x(j) > 0 THEN c``
    is taken from the candidates of §7.2: features covering at least ``min_support``
    samples of the rule's label with purity P(y = c | x(j) > 0) at least ``min_purity``
    and score sqrt(M) * p at least ``candidate_threshold``.

    Parameters
    ----------
    penalty : {"l2", "l1"}, default="l2"
        Regularisation of the logistic regression (eq. 9); ignored with ``base_estimator``.
    C : float, default=1.0
        Inverse regularisation strength of the logistic regression.
    base_estimator : classifier, optional
        Any scikit-learn classifier used instead of the logistic regression (e.g.
        ``MLPClassifier(hidden_layer_sizes=(5, 2))`` for the non-linear variant).
    max_rules : int, default=20
        Largest number of rules (|K| of the paper).
    eval_fraction : float, default=1/3
        Share of the samples held out to choose the rules; 0 chooses them on the training
        data itself.
    rule_labels : sequence of labels, optional
        Labels rules may predict; default every class ("rules for either label").
    min_support : int or dict {label: int}, default=1
        Fewest samples of its own label (in the training split) a candidate rule must
        cover (§7.2: "appear in less than 4 negative (16 positive) training tweets").
    min_purity : float or dict {label: float}, default=1.0
        Smallest purity P(y = label | x(j) > 0) of a candidate; 1.0 admits only exact rules
        (the paper's definition of a rule), lower values near-rules.
    candidate_threshold : float or dict {label: float}, optional
        Smallest score sqrt(M) * p of a candidate (the x-axis of the paper's Fig. 3).
    max_candidates : int, optional
        Keep only the best-scoring candidates (speed on wide data).
    early_stopping : bool, default=True
        Stop when no remaining candidate lowers the evaluation loss (at a tie: lowers the
        training loss, or is an exact rule). ``False`` always adds ``max_rules`` rules, as in the paper's
        sweep over |K|.
    selection : {"greedy", "score"}, default="greedy"
        "greedy" adds rules one at a time by evaluation loss (§7). "score" takes the top
        ``max_rules`` candidates by sqrt(M) * p with no search (the other reading of §7.2,
        "we then choose the top k rules"); the evaluation split is then unused, so set
        ``eval_fraction=0`` to learn from all the data.
    eval_loss : {"error", "log_loss"}, default="error"
        Loss the greedy step minimises on the evaluation split: the number of errors, or
        the log-loss with each rule predicting its label with its Laplace-smoothed
        training purity. The log-loss favours any rule over an overconfident base
        classifier (e.g. logistic regression with more features than samples), so the
        error count is the default.
    search : {"exact", "fast"}, default="exact"
        "exact" (§7: the feature chosen is the one "that minimizes the current evaluation
        loss when added to the rules set", the classifier being trained at each step)
        refits the base classifier for every candidate feature at every step and measures
        the evaluation loss the model would have. "fast" scores candidates with the
        current base classifier (only the newly covered samples change) and refits once
        per added rule: a cheaper approximation, which can prefer a feature that is not a
        rule when every feature is a candidate, since a stale base cannot show what
        removing the rows it covers does to the rest.
    warm_start : bool, default=True
        In the exact search, start each refit of a logistic-regression base from the
        current coefficients: the same optimum, in fewer iterations (an l1 base, which
        liblinear always fits from zero, is then refitted by the same method in a kernel
        of our own that starts warm).
    base_rows : {"uncovered", "all"}, default="uncovered"
        Samples the base classifier is fitted on, always without the rule features. The
        paper is ambiguous: §7 says "a regularized linear classifier is trained after
        removing the rule features" and names the algorithm of §5, whose Fig. 1 fits it on
        S_non-covered. ``"uncovered"`` (default) follows Fig. 1: the samples no rule
        covers. ``"all"``: every training sample (the class prior stays the data's, but
        the covered samples, labelled by their rule, are noise to the base classifier).
    refit_every : int, default=1
        Refit the base classifier after every ``refit_every`` added rules during the search
        (0: only at the end), a speed knob for slow base classifiers.
    feature_names : sequence of str, optional
        Names used to print rules; default the DataFrame's columns or ``x0, x1, ...``.
    condition : str, default="{feature} > 0"
        How a rule's condition is printed, e.g. ``'"{feature}" in tweet'``.
    random_state : int, RandomState or None
        Seed of the train/evaluation split (and of the logistic regression).
    binarizer : {"auto", "passthrough"} or binariser, default="auto"
        What becomes a feature: ``"auto"`` takes numeric columns as they are and one-hot
        encodes the categorical columns of a DataFrame; ``"passthrough"`` numeric columns
        only; a binariser (``FeatureBinarizer(...)``, ``CellBinarizer(...)``) makes every
        feature one of its terms, so a rule reads ``glucose > 127``.

    Attributes
    ----------
    classes_ : ndarray
        The class labels.
    rules_ : RuleList
        The chosen rules in order, a :class:`rulelab.rules.DecisionList` whose fallback is
        the base classifier (:class:`~rulelab.rulesfirst._base.BaseModel`, link
        "probability"); ``print(model.rules_)`` prints them in words, and
        ``rules_.evaluate(X)`` gives the label each rule decides (``None`` where the base
        classifier decides). ``predict_proba`` is 1 for the deciding rule's label and the
        base classifier's probabilities where no rule fires; ``decision_function`` (two
        classes) is +-inf where a rule decides, the signed log-odds elsewhere.
    base_estimator_ : classifier
        The base classifier fitted on the samples no rule covers (``rules_.fallback.model``).
    history_ : list of dict
        One entry per greedy step: the rule, the change in evaluation and training errors
        it was chosen on, and the evaluation error after it.
    n_candidates_ : int
        Candidate rules that passed the pre-selection.
    eval_error_ : float
        Error on the evaluation split of the model the search ends with (rules and a base
        trained on the training split), the quantity the search minimises; it can choose
        a knob such as ``candidate_threshold`` without a test set (§7.2). NaN with
        ``selection="score"``.
    feature_names_ : list of str

    Examples
    --------
    >>> from rulelab.rulesfirst import make_rules_first
    >>> X, y, planted = make_rules_first(1500, random_state=0)
    >>> model = RulesFirstClassifier(random_state=0).fit(X, y)
    >>> sorted(model.rules_.feature_indices) == sorted(planted)     # doctest: +SKIP
    True
    """

    _multiclass = True  # rules may predict any of several labels
    _parameter_constraints = {
        "penalty": [StrOptions(set(PENALTIES))],
        "C": [Interval(Real, 0, None, closed="neither")],
        "base_estimator": [HasMethods(["fit", "predict"]), None],
        "max_rules": [Interval(Integral, 0, None, closed="left")],
        "eval_fraction": [Interval(Real, 0, 1, closed="left")],
        "rule_labels": ["array-like", None],
        "min_support": [Interval(Integral, 0, None, closed="left"), dict],
        "min_purity": [Interval(Real, 0, 1, closed="both"), dict],
        "candidate_threshold": [Real, dict, None],
        "max_candidates": [Interval(Integral, 1, None, closed="left"), None],
        "early_stopping": ["boolean"],
        "selection": [StrOptions({"greedy", "score"})],
        "eval_loss": [StrOptions({"log_loss", "error"})],
        "search": [StrOptions({"fast", "exact"})],
        "warm_start": ["boolean"],
        "base_rows": [StrOptions({"all", "uncovered"})],
        "refit_every": [Interval(Integral, 0, None, closed="left")],
        "feature_names": ["array-like", None],
        "condition": [str],
        "random_state": ["random_state"],
        "binarizer": BINARIZER,
    }

    def __init__(
        self,
        penalty="l2",
        C=1.0,
        base_estimator=None,
        max_rules=20,
        eval_fraction=1 / 3,
        rule_labels=None,
        min_support=1,
        min_purity=1.0,
        candidate_threshold=None,
        max_candidates=None,
        early_stopping=True,
        selection="greedy",
        eval_loss="error",
        search="exact",
        warm_start=True,
        base_rows="uncovered",
        refit_every=1,
        feature_names=None,
        condition="{feature} > 0",
        random_state=None,
        binarizer="auto",
    ):
        self.penalty = penalty
        self.C = C
        self.base_estimator = base_estimator
        self.max_rules = max_rules
        self.eval_fraction = eval_fraction
        self.rule_labels = rule_labels
        self.min_support = min_support
        self.min_purity = min_purity
        self.candidate_threshold = candidate_threshold
        self.max_candidates = max_candidates
        self.early_stopping = early_stopping
        self.selection = selection
        self.eval_loss = eval_loss
        self.search = search
        self.warm_start = warm_start
        self.base_rows = base_rows
        self.refit_every = refit_every
        self.feature_names = feature_names
        self.condition = condition
        self.random_state = random_state
        self.binarizer = binarizer

    # ------------------------------------------------------------------ fitting
    def _template(self):
        if self.base_estimator is not None:
            return self.base_estimator
        model = make_linear(self.penalty, self.C, random_state=self.random_state)
        if model.solver == "lbfgs":
            # scikit-learn's tol=1e-4 bounds the gradient of the *mean* loss and stops
            # lbfgs far enough from the optimum that the evaluation errors the exact search
            # compares move with the starting point; at 1e-6 a warm and a cold refit
            # choose the same rules.
            model.set_params(tol=SEARCH_TOL)
        return model

    @fit_context
    def fit(self, X, y):
        """Choose the rules on the evaluation split, then refit the base on all the data
        (the samples no rule covers, or every sample: ``base_rows``).

        Parameters
        ----------
        X : array-like, sparse matrix or DataFrame, shape (n_samples, n_features)
            Numeric features; a feature covers a sample where it is positive.
        y : array-like, shape (n_samples,)

        Returns
        -------
        self
        """
        X, names = numeric_design(X, self, reset=True)
        yi = self._check_target(y, X.shape[0])
        n, d = X.shape
        if self.feature_names is not None:
            if len(self.feature_names) != d:
                raise ValueError(
                    f"feature_names has {len(self.feature_names)} names for {d} features"
                )
            names = [str(f) for f in self.feature_names]
        self.feature_names_ = names or [f"x{j}" for j in range(d)]
        template = self._template()
        self._default_ = int(np.bincount(yi).argmax())

        rng = check_random_state(self.random_state)
        n_eval = int(round(self.eval_fraction * n))
        if n_eval == 0 or n - n_eval < 2:
            tr = ev = np.arange(n)
        else:
            perm = rng.permutation(n)
            ev, tr = np.sort(perm[:n_eval]), np.sort(perm[n_eval:])
        chosen = self._search(X[tr], yi[tr], X[ev], yi[ev], template)

        # Final model: the rules keep their order; their statistics and the base classifier
        # come from all the data (the paper retrains "on the m training samples").
        B = coverage_matrix(X)
        terms = numeric_terms(self, self.feature_names_)
        rules = []
        for j, c in chosen:
            col = np.asarray(B[:, j].toarray()).ravel() > 0
            sup = int(col.sum())
            rules.append(
                Rule(
                    int(j),
                    self.classes_[c],
                    self.feature_names_[j],
                    sup,
                    float((yi[col] == c).mean()) if sup else float("nan"),
                    terms[j],
                )
            )
        otherwise = f"{type(template).__name__} on the other features"
        rows = _base_rows(self.base_rows, RuleList(rules).apply(X) >= 0)
        self.keep_ = _keep(d, [j for j, _ in chosen])
        self.base_estimator_ = fit_base(template, X[rows][:, self.keep_], yi[rows], self._default_)
        self.rules_ = RuleList(
            rules,
            self.condition,
            otherwise,
            fallback=BaseModel(self.base_estimator_, self.keep_, self.classes_, self),
        )
        return self

    def _search(self, Xtr, ytr, Xev, yev, template):
        """The greedy loop; returns [(feature, class index), ...] in the order chosen."""
        k = len(self.classes_)
        labels = (
            range(k)
            if self.rule_labels is None
            else [_label_index(self.classes_, c) for c in self.rule_labels]
        )
        sup = [
            1 if v is None else v for v in per_label(self.min_support, self.classes_, "min_support")
        ]
        pur = [
            1.0 if v is None else v for v in per_label(self.min_purity, self.classes_, "min_purity")
        ]
        thr = per_label(self.candidate_threshold, self.classes_, "candidate_threshold")
        Btr, Bev = coverage_matrix(Xtr), coverage_matrix(Xev)
        cand = select_candidates(
            Btr,
            ytr,
            labels,
            min_support=sup,
            min_purity=pur,
            threshold=thr,
            n_classes=k,
            max_candidates=self.max_candidates,
        )
        self.n_candidates_ = len(cand)
        self.history_ = []
        self.eval_error_ = float("nan")
        if self.selection == "score":  # candidates are already ranked by sqrt(M) * p
            chosen, seen = [], set()
            for j, c in zip(cand.feature.tolist(), cand.label.tolist()):
                if len(chosen) < self.max_rules and j not in seen:
                    chosen.append((j, c))
                    seen.add(j)
            return chosen
        # A rule's probability of its own label: its Laplace-smoothed training purity.
        q = (cand.purity * cand.support + 1.0) / (cand.support + k)
        split = {"tr": _State(Xtr, ytr, Btr), "ev": _State(Xev, yev, Bev)}
        log = self.eval_loss == "log_loss"
        chosen: list[tuple[int, int]] = []
        current = {}

        def refit():
            keep = _keep(Xtr.shape[1], [j for j, _ in chosen])
            rows = _base_rows(self.base_rows, split["tr"].covered)
            current["base"] = fit_base(template, Xtr[rows][:, keep], ytr[rows], self._default_)
            for st in split.values():
                st.update_base(current["base"], keep, k, log)

        refit()
        used = np.zeros(Xtr.shape[1], bool)
        while len(chosen) < self.max_rules and len(cand):
            alive = ~used[cand.feature]
            if not alive.any():
                break
            if self.search == "fast":
                d_tr, new_tr = split["tr"].fast_deltas(cand, q, k, log)
                d_ev, new_ev = split["ev"].fast_deltas(cand, q, k, log)
                new = new_tr + new_ev
            else:
                d_ev, d_tr, new = self._exact_deltas(
                    cand, q, alive, split, chosen, template, log, current["base"]
                )
            alive &= new > 0  # a rule that covers nothing new changes nothing
            if not alive.any():
                break
            idx = np.flatnonzero(alive)
            # Lowest evaluation loss, then lowest training loss, then exact rules before
            # near-rules, then the best score.
            r_ev, r_tr = np.round(d_ev, 9), np.round(d_tr, 9)
            best = idx[
                np.lexsort((idx, -cand.score[idx], -cand.purity[idx], r_tr[idx], r_ev[idx]))[0]
            ]
            tie = (r_ev[best], r_tr[best]) == (0, 0)
            # Stop when no candidate lowers the evaluation loss (at a tie, the training
            # loss). An exact rule that changes neither is still taken, as GreedyRule of
            # Fig. 1 takes every exact rule: it covers samples neither split has decided.
            if self.early_stopping and (
                (r_ev[best], r_tr[best]) > (0, 0) or (tie and cand.purity[best] < 1)
            ):
                break
            j, c = int(cand.feature[best]), int(cand.label[best])
            chosen.append((j, c))
            used[j] = True
            for st in split.values():
                st.add_rule(j, c, q[best], k, log)
            if self.refit_every and len(chosen) % self.refit_every == 0:
                refit()
            ev = split["ev"]
            self.history_.append(
                {
                    "step": len(chosen),
                    "feature": self.feature_names_[j],
                    "label": self.classes_[c],
                    "delta_eval_loss": float(d_ev[best]),
                    "delta_train_loss": float(d_tr[best]),
                    "eval_error": float(np.mean(ev.pred != ev.y)),
                }
            )
        if not self.refit_every or len(chosen) % self.refit_every:
            refit()  # the base the search ends with, trained on the final rule set
        self.eval_error_ = float(np.mean(split["ev"].pred != split["ev"].y))
        return chosen

    def _exact_deltas(self, cand, q, alive, split, chosen, template, log, current):
        """Change in total losses if each candidate were added and the base refitted.

        The refit depends on the rule's feature, not on its label (the same samples leave
        the base's training set and the same column is removed), so candidates sharing a
        feature share one refit. With ``warm_start`` a logistic-regression base starts
        from the current coefficients: only the newly covered samples leave its training
        set, so it converges in fewer iterations to the same optimum.

        A candidate that cannot be chosen (its evaluation change, rounded, above another's)
        gets the training change ``inf``: that change only breaks ties of the least one.
        """
        tr, ev = split["tr"], split["ev"]
        d = tr.X.shape[1]
        k = len(self.classes_)
        d_ev = np.zeros(len(cand))
        d_tr = np.zeros(len(cand))
        new = np.zeros(len(cand), np.int64)
        keep_now = _keep(d, [f for f, _ in chosen])
        idx = np.flatnonzero(alive)
        now_ev = ev.loss.sum()
        # A lower bound on each candidate's evaluation loss: its rule's loss on the samples
        # it newly covers (the refitted base loses >= 0 on the rest). Features are refitted
        # in order of their bound, and one whose bound exceeds the best exact change so far
        # cannot be chosen (evaluation loss decides first): it is not refitted.
        hits = {}
        lower = np.full(len(cand), np.inf)
        for j in np.unique(cand.feature[idx]):
            hits[j] = {name: st.column(int(j)) & ~st.covered for name, st in split.items()}
            y_hit = ev.y[hits[j]["ev"]]
            for i in idx[cand.feature[idx] == j]:
                lower[i] = _rule_loss(y_hit == cand.label[i], q[i], k, log).sum() - now_ev
        # A logistic base is refitted from the current coefficients by a lean solver: the
        # estimator's own lbfgs optimisation without its per-call overhead, or liblinear's
        # l1 problem solved warm (liblinear itself always starts from zero).
        lean = None
        if self.warm_start:
            for refit in (LogisticRefit, L1LogisticRefit):
                if refit.applies(current, tr.X):
                    lean = refit(tr.X, tr.y, keep_now, current)
                    if hasattr(lean, "restrict"):  # a refit's rows: the base's now, less some
                        lean.restrict(_base_rows(self.base_rows, tr.covered))
                    design = {"tr": lean.A, "ev": lean.design(ev.X)}
                    break
        best = np.inf
        for j in sorted(hits, key=lambda f: lower[idx[cand.feature[idx] == f]].min()):
            members = idx[cand.feature[idx] == j]
            hit = hits[j]
            n_new = int(hit["tr"].sum() + hit["ev"].sum())
            new[members] = n_new
            if not n_new:
                continue
            if np.round(lower[members].min(), 9) > np.round(best, 9):
                d_ev[members] = lower[members]  # a bound above the best: never chosen
                d_tr[members] = np.inf
                continue
            keep = _keep(d, [f for f, _ in chosen] + [int(j)])
            rows = _base_rows(self.base_rows, tr.covered | hit["tr"])
            w = None
            if lean is not None:
                w = lean.refit(int(np.searchsorted(keep_now, j)), rows)
            if w is None:
                init = _warm_init(current, keep_now, keep) if self.warm_start else None
                base = fit_warm(template, tr.X[rows][:, keep], tr.y[rows], self._default_, init)
            # The evaluation split first: the training split's change only breaks ties
            # between candidates of equal (rounded) evaluation change, the least one.
            for name, out in (("ev", d_ev), ("tr", d_tr)):
                st = split[name]
                if name == "tr":
                    best = min(best, d_ev[members].min())
                    if np.round(d_ev[members].min(), 9) > np.round(best, 9):
                        # Above a candidate already evaluated, so above the least change
                        # the search ends with: the lexsort never reaches the training
                        # change of these members, which is not computed.
                        d_tr[members] = np.inf
                        break
                # Samples left to the base: the refitted base's loss; samples the rule
                # newly covers: the rule's loss (per label below).
                free = ~(st.covered | hit[name])
                after = st.loss.copy()
                if free.any():
                    if w is not None:
                        proba = lean.proba(design[name], w, k, rows=free)
                    else:
                        proba = base_proba(base, st.X[free][:, keep], k)
                    p_true = proba[np.arange(len(proba)), st.y[free]]
                    after[free] = (
                        -np.log(np.clip(p_true, 1e-12, 1.0))
                        if log
                        else proba.argmax(axis=1) != st.y[free]
                    )
                rest = after[~hit[name]].sum()
                y_hit = st.y[hit[name]]
                for i in members:
                    c = int(cand.label[i])
                    total = rest + _rule_loss(y_hit == c, q[i], k, log).sum()
                    out[i] = total - st.loss.sum()
        return d_ev, d_tr, new


def truncate_rules(model: RulesFirstClassifier, n_rules: int, X, y) -> RulesFirstClassifier:
    """A fitted copy of ``model`` keeping its first ``n_rules`` rules, base refitted on (X, y).

    The greedy search is incremental: with ``early_stopping=False`` the first n rules of a
    run with ``max_rules=N`` are exactly the rules of a run with ``max_rules=n``. So one
    search gives the whole accuracy-vs-|K| curve of the paper's Fig. 2 (right).
    """
    check_is_fitted(model, "rules_")
    X, _ = numeric_design(X, model)
    classes, yi = check_y(y, X.shape[0])
    out = copy.copy(model)
    kept = model.rules_[:n_rules]
    out.max_rules = n_rules
    rows = _base_rows(model.base_rows, kept.apply(X) >= 0)
    out.keep_ = _keep(X.shape[1], kept.feature_indices)
    yi = np.searchsorted(model.classes_, classes)[yi]
    out.base_estimator_ = fit_base(
        model._template(), X[rows][:, out.keep_], yi[rows], model._default_
    )
    out.rules_ = RuleList(
        kept.rules,
        kept.condition,
        kept.otherwise,
        fallback=BaseModel(out.base_estimator_, out.keep_, model.classes_, out),
    )
    return out


def _base_rows(how: str, covered: np.ndarray) -> np.ndarray:
    """Rows the base classifier is fitted on (see ``base_rows``)."""
    return np.ones_like(covered, dtype=bool) if how == "all" else ~covered


def _keep(d: int, rule_features) -> np.ndarray:
    """Columns the base classifier sees: all but the rule features (§7: "after removing
    the rule features")."""
    keep = np.ones(d, bool)
    keep[list(rule_features)] = False
    return np.flatnonzero(keep)


def _label_index(classes, label) -> int:
    hits = np.flatnonzero(classes == label)
    if not len(hits):
        raise ValueError(f"label {label!r} is not a class of y ({list(classes)})")
    return int(hits[0])
