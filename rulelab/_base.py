"""What every rule learner shares: input handling, binarisation, prediction from the rule.

A learner takes a raw table (numeric and categorical columns, binarised internally by
:class:`~rulelab.binarize.FeatureBinarizer`) or an already-binary matrix (used as is, one
term ``column == 1`` per column). It predicts by evaluating its printed rule on the raw
input, so what you read is exactly what it does.
"""

from __future__ import annotations

import functools
import inspect
import warnings

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils._param_validation import HasMethods, StrOptions
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_array, check_is_fitted, validate_data

from ._design import binarize_frame
from ._validation import (
    check_frame,
    check_not_constant,
    check_same_columns,
    check_same_kinds,
    check_target,
    column_kinds,
)
from .binarize import FeatureBinarizer
from .rules import DecisionList

#: What ``binarizer=`` takes in every learner: ``"auto"`` (the learner's own binariser, or a
#: 0/1 matrix used as it is), ``"passthrough"`` (0/1 input used as it is) or an unfitted
#: binariser whose fitted ``terms_`` name its output columns (:class:`FeatureBinarizer`,
#: :class:`~rulelab.grab.CellBinarizer`), cloned and fitted on the training data.
BINARIZER = [StrOptions({"auto", "passthrough"}), HasMethods(["fit", "transform"])]
#: The deprecated ``binarize=`` (True, False or "auto"); None when it is not used.
DEPRECATED_BINARIZE = [StrOptions({"auto"}), "boolean", None]


#: Default of a renamed parameter's former name: "not set by the caller".
DEPRECATED = "deprecated"


def is_unset(value) -> bool:
    """Whether a former parameter name was left at its default (None or ``DEPRECATED``)."""
    return value is None or (isinstance(value, str) and value == DEPRECATED)


def renamed(estimator, old: str, new: str, *, convert=None, note: str = "the same meaning"):
    """The value of parameter ``new``, or of its former name ``old`` when a caller still sets
    that one (it then warns, naming the release that removes the old name). ``convert``
    maps an old value to the new parameter's scale."""
    value = getattr(estimator, old, None)
    if is_unset(value):
        return getattr(estimator, new)
    warnings.warn(
        f"{old}= is deprecated in 0.2 and will be removed in 0.3: use {new}= "
        f"({note}; every learner now calls it so)",
        FutureWarning,
        stacklevel=3,
    )
    return value if convert is None else convert(value)


def fit_context(fit):
    """Wrap a learner's ``fit``: check the declared parameters first, finish with
    ``_after_fit(X, y, sample_weight)`` (the training counts behind ``predict_proba``).

    Every learner decorates its own ``fit`` with it (as scikit-learn's ``_fit_context``),
    so what runs around a fit is visible where the fit is written. The after-fit step gets
    the fit's own arguments (``sample_weight`` where the fit takes one), so nothing passes
    from the fit to it through the estimator's attributes.
    """
    signature = inspect.signature(fit)

    @functools.wraps(fit)
    def checked_fit(self, X, y=None, *args, **kw):
        self._validate_params()
        result = fit(self, X, y, *args, **kw)
        bound = signature.bind(self, X, y, *args, **kw).arguments
        self._after_fit(X, y, bound.get("sample_weight"))
        return result

    checked_fit.fit_context = True
    return checked_fit


class LearnerBase(ClassifierMixin, BaseEstimator):
    """The input contract every rulelab learner shares (not used directly).

    * ``X``: a DataFrame (any column types the learner's binarisation takes), a numeric
      array (columns named ``x0, x1, ...``) or, where a learner says so, a sparse matrix.
      The column names seen in fit are checked at predict: a missing, extra or reordered
      column is refused by name (scikit-learn's feature-name check), never matched by
      position. Duplicated names are refused. The caller's data is never modified.
    * ``y``: class labels, binary unless the learner says otherwise; missing, mixed-type
      and continuous labels are refused with a message that names the problem.
    * ``rules_``: the learned model in :mod:`rulelab.rules` types (a DNF, CNF, weighted rule
      set, decision list with a default or a fitted fallback model, or a vote of such lists),
      so ``explain``, the JSON, SQL and pandas exports, ``n_rules`` and ``n_terms`` work
      alike for every learner.
    * ``decision_function(X)``, where a binary learner has one, is a score that is positive
      exactly where ``predict`` gives ``classes_[1]`` and larger where the model is surer
      of it (scikit-learn's convention); each learner documents its scale.
    """

    _multiclass = False  # a learner that handles more than two classes says so
    _sparse = False  # a learner that takes a sparse X says so
    _parameter_constraints: dict = {}  # scikit-learn's declaration, checked before fit

    def _after_fit(self, X, y, sample_weight=None) -> None:
        """Called at the end of every fit with the fit's own arguments (nothing by default)."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = self._multiclass
        tags.input_tags.sparse = self._sparse
        return tags

    def _check_names(self, X, reset: bool):
        """Record (fit) or check (predict) the feature names and their number; return X,
        a DataFrame through :func:`~rulelab._validation.check_frame` (empty input,
        duplicated names and complex values refused, names as strings).

        Every learner's input passes here, so columns are matched by name, never by
        position, whatever the names' type: integer names (``pd.DataFrame(array)``) are
        compared as the strings the rules print.
        """
        if not isinstance(X, pd.DataFrame):
            validate_data(self, X, reset=reset, skip_check_array=True)
            if reset:
                self._column_names = [f"x{i}" for i in range(X.shape[1])]
                self._fitted_on_frame = False
                self._column_kinds = None  # an array's columns are numbers, checked as such
                if not hasattr(X, "toarray"):
                    self._note_constant(pd.DataFrame(np.asarray(X)))
            return X
        frame = check_frame(X)
        if reset:
            self._note_constant(frame)
            self._column_kinds = column_kinds(frame)
        elif getattr(self, "_fitted_on_frame", False):
            check_same_columns(list(frame.columns), self._column_names)
        elif list(frame.columns) != self._column_names:
            # fitted on an array: the rules name its columns x0, x1, ...; a table with other
            # names would be matched by position, which this package never does
            raise ValueError(
                f"X has feature names {list(frame.columns)[:5]}, but the model was fitted on "
                f"an array, whose columns it names {self._column_names[:5]}: pass an array "
                "(X.to_numpy()) or name the columns as the model does"
            )
        if not reset and getattr(self, "_column_kinds", None):
            check_same_kinds(frame, self._column_kinds)  # "True" as text is not True
        validate_data(self, frame, reset=reset, skip_check_array=True)
        if reset:
            self._column_names = list(frame.columns)
            self._fitted_on_frame = True
        return frame

    def _named_frame(self, X, reset: bool) -> pd.DataFrame:
        """X, checked by :meth:`_check_names`, as a DataFrame with the names the rules use:
        its own for a DataFrame, ``x0, x1, ...`` (or the fitted names, in the fitted order)
        for an array."""
        checked = self._check_names(X, reset)
        if isinstance(checked, pd.DataFrame):
            return checked
        if hasattr(checked, "toarray"):
            checked = checked.toarray()
        return pd.DataFrame(np.asarray(checked), columns=self._column_names)

    def _note_constant(self, frame: pd.DataFrame) -> None:
        """Remember whether no column of the training table varies; :meth:`_check_target`
        refuses it once the labels are known good (a bad ``y`` is the first thing to say)."""
        self._constant_error = None
        if frame.shape[0] > 1:
            try:
                check_not_constant(frame)
            except ValueError as error:
                self._constant_error = error

    def _check_target(self, y, n_samples: int) -> np.ndarray:
        """Set ``classes_``; return each sample's class index (0/1 for a binary learner).
        A training table in which no column varies is refused here, after ``y``."""
        if y is None:
            raise ValueError(
                f"{type(self).__name__} requires y to be passed, but the target y is None"
            )
        y_arr = check_target(y, n_samples)
        classes, index = np.unique(y_arr, return_inverse=True)
        if classes.size < 2:
            only = classes[0].item() if isinstance(classes[0], np.generic) else classes[0]
            raise ValueError(
                f"y has one class (all {only!r}): a rule needs both positive and negative samples"
            )
        if classes.size > 2 and not self._multiclass:
            raise ValueError(
                f"Only binary classification is supported: y has {classes.size} "
                "classes; wrap the learner in sklearn's OneVsRestClassifier for more"
            )
        self.classes_ = classes
        constant = self.__dict__.pop("_constant_error", None)
        if constant is not None:
            raise constant
        return index.astype(np.int64)


class RuleClassifierBase(LearnerBase):
    """Base of the rule classifiers (not used directly): the one door out of a fitted model.

    A learner's ``fit`` sets ``rules_`` (a :mod:`rulelab.rules` type: ``evaluate(X)``,
    ``n_rules``, ``n_terms``); ``predict``, ``decision_function``, ``predict_proba``,
    ``explain`` and the printout (``str(model) == str(model.rules_)``) are written here once,
    from ``rules_`` and the link its type declares, and no learner writes its own. A learner
    says only which rows its rules read (:meth:`_check_X`) and, where it has a faster exact
    way to score a weighted vote on its own design, :meth:`_decision_from_design`. A learner
    that handles more than two classes (``_multiclass = True``) sets ``rules_`` to a
    :class:`~rulelab.rules.DecisionList` with a ``default`` label on them: the first
    firing rule's label, the default where none fires.
    """

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags

    # ---- fitting ----------------------------------------------------------------------
    def _validate_fit(self, X, y):
        """Check input, set ``classes_`` and the binarizer; return (A, y01, frame)."""
        frame = self._as_frame(X, reset=True)
        index = self._check_target(y, frame.shape[0])  # y None refused there
        y01 = index.astype(np.int8 if self.classes_.size <= 127 else np.int64)
        self.positive_label_ = self._describe_positive(y, self.classes_[1])
        A, self.terms_ = binarize_frame(
            self, frame, lambda: FeatureBinarizer(n_thresholds=self.n_thresholds)
        )
        return A, y01, frame

    @staticmethod
    def _describe_positive(y, positive) -> str:
        """``diagnosis = M`` for a labelled Series from load_dataset, else the class label."""
        if isinstance(y, pd.Series) and y.attrs.get("positive") and y.name is not None:
            return f"{y.name} = {'/'.join(map(str, y.attrs['positive']))}"
        return str(positive.item() if isinstance(positive, np.generic) else positive)

    # ---- prediction -------------------------------------------------------------------
    def _as_frame(self, X, reset: bool) -> pd.DataFrame:
        """X as a DataFrame with the fitted column names; numeric arrays go through
        scikit-learn's own validation (shape, sparse, complex, 1-D and empty input)."""
        if not isinstance(X, pd.DataFrame):
            X = check_array(X, ensure_all_finite="allow-nan", input_name="X", estimator=self)
        # an array after a fit on a DataFrame is read in the fitted order (scikit-learn warns)
        return self._named_frame(X, reset)

    def _check_X(self, X):
        """The rows ``rules_`` reads: X as a DataFrame with the fitted column names (a
        learner whose rules read another design of its own says so here, once)."""
        check_is_fitted(self, "rules_")
        return self._as_frame(X, reset=False)

    def _is_vote(self) -> bool:
        """Whether ``rules_`` is a weighted vote (its link is its loss's)."""
        return hasattr(self.rules_, "weights")

    def _decision_from_design(self, rows) -> np.ndarray:
        """The vote of a weighted ``rules_`` on ``rows`` (what :meth:`_check_X` gives).

        The one hook a learner may override, for a faster way to the same score on its own
        design: ``CBMClassifier`` scores hundreds of conjunctions with one bitset kernel
        instead of evaluating each clause on the table. ``predict``, ``decision_function``,
        ``predict_proba`` and ``explain`` all read the vote through here.
        """
        return self.rules_.score(rows)

    def _class_index(self, rows) -> np.ndarray:
        """Index into ``classes_`` of the class each row gets from ``rules_``."""
        if isinstance(self.rules_, DecisionList):
            return self.rules_.class_index(rows, self.classes_)
        if self._is_vote():
            return (self._decision_from_design(rows) > 0).astype(int)
        return self.rules_.evaluate(rows).astype(int)

    def predict(self, X) -> np.ndarray:
        """The positive class where the printed rule holds, the other class elsewhere; for
        a decision list, the first firing rule's label, else its default or fallback's;
        for a weighted vote, the positive class where the vote is positive."""
        rows = self._check_X(X)  # unfitted: NotFittedError before classes_ is read
        return self.classes_[self._class_index(rows)]

    # ---- explanations and probabilities -------------------------------------------------
    def explain(self, X) -> pd.DataFrame:
        """Why each row gets its prediction, in words.

        Returns a DataFrame with the ``prediction`` and the ``reason``: for a DNF (an OR of
        AND-clauses) the clauses that fired, for a CNF the clauses that failed, for a
        weighted rule set the clauses that voted with their weights and the total score, for
        a decision list the rule that decided, or the default (or fallback model).
        """
        rows = self._check_X(X)
        index = X.index if isinstance(X, pd.DataFrame) else None  # the caller's rows, named
        prediction = self.classes_[self._class_index(rows)]
        return pd.DataFrame(
            {"prediction": prediction, "reason": self.rules_.explain(rows)}, index=index
        )

    #: Whether an unfitted learner offers ``predict_proba`` (once fitted, ``rules_`` says).
    _probabilistic = True

    def _has_probability(self) -> bool:
        rules = getattr(self, "rules_", None)
        if rules is None:
            return self._probabilistic
        return getattr(rules, "has_probability", True)

    @available_if(_has_probability)
    def predict_proba(self, X) -> np.ndarray:
        """Class probabilities with an honest, documented meaning.

        Offered where the rule type declares a link to probabilities (not for a vote fitted
        with a hinge loss, nor a list whose fallback model has only a score).

        * A weighted rule set or vote (boosting): the margin ``F`` through the link of the
          loss it declares, e.g. ``P(y=1) = 1 / (1 + exp(-2F))`` for the exponential loss
          (Friedman, Hastie & Tibshirani 2000).
        * An OR of AND-clauses (DNF, one clause included): where clauses fire, the training
          precision of the most precise clause that fired; where none fires, the share of
          positives among the training rows no clause covered. A CNF: the training
          precision of the rule where it holds, the positive share where it fails.

        Precisions are Laplace-smoothed, ``(positives + 1) / (rows + 2)`` (rows counted by
        their sample weights when the fit was weighted). They describe the
        training data, so they are optimistic on new data for a rule with many terms; and a
        clause whose training precision is below 1/2 still predicts positive (``predict``
        follows the printed rule), where these probabilities say otherwise.
        * A decision list with a default (more than two classes), shape ``(n_samples,
          n_classes)``: the class frequencies among the training rows the rule that decides
          the row decided (the first rule that fired on them), or, for the default, among
          the training rows no rule covers; Laplace-smoothed, ``(rows of the class + 1) /
          (rows + n_classes)``.
        * A decision list with a fallback model (rules first): 1 for the label of the rule
          that decides the row, the fallback model's probabilities where no rule fires.
        """
        rows = self._check_X(X)
        if isinstance(self.rules_, DecisionList):
            if self.rules_.has_fallback_model:
                return self.rules_.probability(rows, self.classes_)
            counts = self.training_stats_["rule_class_weight"]
            smoothed = (counts + 1.0) / (counts.sum(axis=1, keepdims=True) + counts.shape[1])
            return smoothed[self.rules_.apply(rows)]  # -1: the default's row, the last
        p1 = self._positive_probability(rows)
        return np.column_stack([1 - p1, p1])

    def _positive_probability(self, frame: pd.DataFrame) -> np.ndarray:
        if self._is_vote():  # the link of the vote's loss
            return self.rules_.link(self._decision_from_design(frame))
        stats = self.training_stats_
        if getattr(self.rules_, "outer", "or") == "or" and self.rules_.clauses:
            fired = np.column_stack([c.evaluate(frame) for c in self.rules_.clauses])
            precision = np.where(fired, stats["clause_precision"], -np.inf).max(axis=1)
            return np.where(fired.any(axis=1), precision, stats["uncovered_rate"])
        holds = self.rules_.evaluate(frame)
        return np.where(holds, stats["rule_precision"], stats["uncovered_rate"])

    def decision_function(self, X) -> np.ndarray:
        """A score that is positive exactly where :meth:`predict` gives ``classes_[1]``.

        On more than two classes (a decision list), scikit-learn's multiclass shape
        ``(n_samples, n_classes)``: 1 for the class the deciding rule (or the default or
        fallback model) names, 0 for the others. A list decides by its first firing rule and
        has no graded score beyond that; :meth:`predict_proba` gives the probabilities.

        * A weighted rule set or vote (boosting): the vote ``F`` (``predict_proba`` is its
          link, ``1 / (1 + exp(-2F))`` for the exponential loss).
        * A two-class decision list with a fallback model (rules first): +-inf where a rule
          decides (it is certain), elsewhere the fallback's own score, or the signed
          log-odds of its probabilities (:meth:`rulelab.rules.DecisionList.score`).
        * A Boolean rule (DNF, CNF, one clause): the log-odds of :meth:`predict_proba`, with
          the rule's sign: positive where the rule holds, negative where it fails, and at
          least 1e-6 in size. The two differ only where a clause whose training precision
          is below 1/2 fires: ``predict`` (and this sign) follow the printed rule.
        """
        rows = self._check_X(X)
        if isinstance(self.rules_, DecisionList):
            if self.rules_.has_fallback_model and self.classes_.size == 2:
                return self.rules_.score(rows, self.classes_)
            return np.eye(self.classes_.size)[self.rules_.class_index(rows, self.classes_)]
        if self._is_vote():
            return self._decision_from_design(rows)
        p1 = np.clip(self._positive_probability(rows), 1e-12, 1 - 1e-12)
        size = np.maximum(np.abs(np.log(p1 / (1 - p1))), 1e-6)
        return np.where(self.rules_.evaluate(rows), size, -size)

    def _after_fit(self, X, y, sample_weight=None) -> None:
        # ColumnGenerationRules still leaves its validated weights here for the former
        # hand-off; they are the fit's sample_weight, which now comes as an argument
        self.__dict__.pop("_training_weight", None)
        if self._link_reads_training():
            self._record_training(X, y, sample_weight)

    def _link_reads_training(self) -> bool:
        """Whether the link of ``rules_`` reads training counts: a Boolean rule's (clause
        precisions) and a decision list's with a default (class frequencies); a vote's link
        is its loss's, and a list with a fallback model leaves it to that model."""
        rules = getattr(self, "rules_", None)
        if rules is None or self._is_vote():
            return False
        return not (isinstance(rules, DecisionList) and rules.has_fallback_model)

    def _record_training(self, X, y, sample_weight=None) -> None:
        """Store the training counts behind :meth:`predict_proba` (called after ``fit``
        with its arguments): the rows read as at predict, the labels as class indices."""
        frame = self._as_frame(X, reset=False)
        y01 = np.unique(check_target(y, frame.shape[0]), return_inverse=True)[1]
        weight = (
            np.ones(len(y01)) if sample_weight is None else np.asarray(sample_weight, dtype=float)
        )
        if isinstance(self.rules_, DecisionList):
            # per rule (the default last) the training weight of each class it decided
            counts = np.zeros((self.rules_.n_rules + 1, self.classes_.size))
            np.add.at(counts, (self.rules_.apply(frame), np.asarray(y01, dtype=np.int64)), weight)
            self.training_stats_ = {"rule_class_weight": counts}
            return
        y01 = np.asarray(y01, dtype=bool)

        def laplace(mask):
            return (weight[mask & y01].sum() + 1.0) / (weight[mask].sum() + 2.0)

        holds = self.rules_.evaluate(frame)
        clauses = getattr(self.rules_, "clauses", ())
        self.training_stats_ = {
            "clause_precision": np.array([laplace(c.evaluate(frame)) for c in clauses]),
            "rule_precision": laplace(holds),
            "uncovered_rate": laplace(~holds),
        }

    def __str__(self) -> str:
        if not hasattr(self, "rules_"):
            return repr(self)
        return str(self.rules_)
