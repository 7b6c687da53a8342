"""Today's rule learners as scikit-learn classifiers on rulelab's raw frames, for the benchmark.

Every peer is a small adapter: it imputes and encodes our raw DataFrames inside a
:class:`~sklearn.pipeline.Pipeline` (median for numbers, most frequent value and one-hot
for categories such as ILPD's ``Gender``), fits the peer on the 0/1 target, and reports
the size of what it learned through ``complexity_()`` -> ``(n_rules, n_terms)``, which
:func:`repro.core.model_size.complexity` honours. A rule is one conjunction (or one tree leaf,
or one weighted rule of an ensemble); its terms are its conditions.

The peers are an optional extra (``pip install rulelab[bench]``): IBM AIX360's Boolean
rules by column generation (BRCG, Dash, Günlük & Wei 2018) and imodels' rule models
(SkopeRules, RuleFit, boosted rules). :func:`peer_learners` leaves out those whose package
is missing and says why, so a notebook runs with whatever is installed.
"""

from __future__ import annotations

import importlib.util
import re
import time
import warnings

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin
from sklearn.compose import ColumnTransformer, make_column_selector
from sklearn.impute import SimpleImputer
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

from repro.peers.jrip import RIPPERS, make_ripper, weka_missing
from repro.peers.program_io import as_frame

__all__ = [
    "BRCGClassifier",
    "RipperRules",
    "SkopeRulesPeer",
    "RuleFitPeer",
    "BoostedStumpsPeer",
    "TreePeer",
    "ForestPeer",
    "SVMPeer",
    "ThresholdRulesFirst",
    "peer_learners",
    "rulelab_learners",
    "OURS",
    "CEILING",
    "HYBRID",
]

NAN = (float("nan"), float("nan"))


def _prep(scale: bool = False) -> ColumnTransformer:
    """Median-impute numbers (optionally standardise), one-hot the categories; keep names."""
    numeric = [SimpleImputer(strategy="median")] + ([StandardScaler()] if scale else [])
    prep = ColumnTransformer(
        [
            ("num", make_pipeline(*numeric), make_column_selector(dtype_include="number")),
            (
                "cat",
                make_pipeline(
                    SimpleImputer(strategy="most_frequent"),
                    OneHotEncoder(handle_unknown="ignore", drop="if_binary", sparse_output=False),
                ),
                make_column_selector(dtype_exclude="number"),
            ),
        ],
        verbose_feature_names_out=False,
    )
    # Named columns all the way, so that the peers' rules print with the data's names.
    return prep.set_output(transform="pandas")


def _needs(module: str, package: str) -> None:
    if importlib.util.find_spec(module) is None:
        raise ImportError(f"this peer needs the '{package}' package: pip install rulelab[bench]")


class _Peer(ClassifierMixin, BaseEstimator):
    """What the adapters share: binary labels, the preprocessing pipeline, predict."""

    _scale = False

    def _steps(self) -> list:
        raise NotImplementedError

    def _target(self, y01: np.ndarray) -> np.ndarray:
        return y01

    def fit(self, X, y):
        """Fit the preprocessing and the peer on ``X`` and binary ``y``."""
        X = as_frame(X)
        y = np.asarray(y).ravel()
        if len(y) != len(X):
            raise ValueError(f"X has {len(X)} rows but y has {len(y)} labels")
        self.classes_ = np.unique(y)
        if self.classes_.size != 2:
            raise ValueError(
                f"the benchmark peers are binary classifiers; y has {self.classes_.size} classes"
            )
        y01 = (y == self.classes_[1]).astype(int)
        self.pipeline_ = Pipeline([("prep", _prep(self._scale))] + self._steps())
        with warnings.catch_warnings():
            # The peers' own deprecation noise (cvxpy's ``*``, pandas idioms), not ours.
            warnings.simplefilter("ignore", FutureWarning)
            warnings.simplefilter("ignore", DeprecationWarning)
            warnings.filterwarnings("ignore", category=UserWarning, module="cvxpy")
            warnings.filterwarnings("ignore", message="Inconsistent values: penalty")
            self.pipeline_.fit(X.reset_index(drop=True), self._target(y01))
        self.n_features_in_ = X.shape[1]
        return self

    def _predict01(self, X: pd.DataFrame) -> np.ndarray:
        # Step by step rather than Pipeline.predict: BRCG keeps no fitted ``*_`` attribute,
        # so the pipeline's fitted-check would reject it.
        return np.asarray(self.model_.predict(self.pipeline_[:-1].transform(X))).astype(int)

    def predict(self, X):
        """Predicted labels (``classes_``)."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            warnings.simplefilter("ignore", DeprecationWarning)
            return self.classes_[self._predict01(as_frame(X).reset_index(drop=True))]

    @property
    def model_(self):
        """The fitted peer (the pipeline's last step)."""
        return self.pipeline_.steps[-1][1]

    def complexity_(self) -> tuple[float, float]:
        """(number of rules, number of terms); NaN for a model that is not made of rules."""
        return NAN


class _AixBinarizer(TransformerMixin, BaseEstimator):
    """AIX360's ``FeatureBinarizer`` (thresholds and their negations) as a pipeline step;
    its own ``fit`` takes no ``y``, which a scikit-learn pipeline passes."""

    def __init__(self, n_thresholds: int = 9):
        self.n_thresholds = n_thresholds

    def fit(self, X, y=None):
        from aix360.algorithms.rbm import FeatureBinarizer

        self.binarizer_ = FeatureBinarizer(numThresh=self.n_thresholds, negations=True).fit(X)
        return self

    def transform(self, X):
        return self.binarizer_.transform(X)


class BRCGClassifier(_Peer):
    """IBM AIX360's Boolean rules by column generation (BRCG) on AIX360's own binariser.

    A DNF (or CNF) whose conjunctions are generated by column generation and chosen by a
    final integer beam search (Dash, Günlük & Wei, NeurIPS 2018). The LP runs through
    cvxpy with HiGHS, since cvxpy no longer ships the ECOS default of ``aix360``.

    Parameters
    ----------
    lambda0, lambda1 : float, default=1e-3
        Cost of a conjunction and of each of its literals.
    cnf : bool, default=False
        Learn a CNF (a DNF for the negative class).
    iter_max : int, default=100
        Column-generation iterations (``aix360``'s default): the limit that counts work.
    time_max : float, optional
        Seconds allowed to column generation (the final beam search comes on top). None,
        the default, sets no clock limit, so that a fit does not depend on the machine's
        speed; ``aix360``'s own default is 100 s.
    beam_width, max_degree, columns_per_iter : int
        ``B``, ``D`` and ``K`` of ``BooleanRuleCG``.
    n_thresholds : int, default=9
        Quantile thresholds per numeric feature of ``aix360``'s ``FeatureBinarizer``.
    solver : str, default="HIGHS"
        cvxpy solver of the master LP.
    """

    def __init__(
        self,
        lambda0: float = 1e-3,
        lambda1: float = 1e-3,
        cnf: bool = False,
        iter_max: int = 100,
        time_max: float | None = None,
        beam_width: int = 5,
        max_degree: int = 10,
        columns_per_iter: int = 10,
        n_thresholds: int = 9,
        solver: str = "HIGHS",
    ):
        self.lambda0 = lambda0
        self.lambda1 = lambda1
        self.cnf = cnf
        self.iter_max = iter_max
        self.time_max = time_max
        self.beam_width = beam_width
        self.max_degree = max_degree
        self.columns_per_iter = columns_per_iter
        self.n_thresholds = n_thresholds
        self.solver = solver

    def _steps(self) -> list:
        _needs("aix360", "aix360")
        from aix360.algorithms.rbm import BooleanRuleCG

        return [
            ("binarize", _AixBinarizer(self.n_thresholds)),
            (
                "model",
                BooleanRuleCG(
                    lambda0=self.lambda0,
                    lambda1=self.lambda1,
                    CNF=self.cnf,
                    iterMax=self.iter_max,
                    timeMax=np.inf if self.time_max is None else self.time_max,
                    K=self.columns_per_iter,
                    D=self.max_degree,
                    B=self.beam_width,
                    solver=self.solver,
                    silent=True,
                ),
            ),
        ]

    def fit(self, X, y):
        """Fit, and note whether the iteration or the clock limit stopped column generation."""
        start = time.perf_counter()
        super().fit(X, y)
        elapsed = time.perf_counter() - start
        hit = []
        if self.model_.it >= self.iter_max:
            hit.append("iter_max")
        if self.time_max is not None and elapsed >= self.time_max:
            hit.append("time_max")
        self.limits_hit_ = tuple(hit)
        return self

    def _predict01(self, X: pd.DataFrame) -> np.ndarray:
        # aix360's own predict multiplies the binarised rows by every generated conjunction
        # in integer arithmetic (minutes on Musk); only the selected ones decide, and a
        # float product gives the same 0/1 answer.
        model = self.model_
        chosen = model.z.loc[:, np.asarray(model.w) > 0].to_numpy(dtype=float)
        missing = 1.0 - self.pipeline_[:-1].transform(X).to_numpy(dtype=float)
        fires = ((missing @ chosen) == 0).any(axis=1)
        return (~fires if model.CNF else fires).astype(int)

    def complexity_(self) -> tuple[float, float]:
        """Selected conjunctions and their literals (``z`` columns where ``w`` is one)."""
        model = self.model_
        chosen = model.z.loc[:, np.asarray(model.w) > 0.5]
        return float(chosen.shape[1]), float(chosen.to_numpy().sum())

    def rules(self) -> list[str]:
        """The learned conjunctions as AIX360 prints them."""
        return list(self.model_.explain()["rules"])


class RipperRules(_Peer):
    """RIPPER (``wittgenstein``) learning rules for the minority class, on imputed data.

    Wraps :class:`repro.peers.ripper.RipperClassifier`; ``k`` optimisation passes,
    ``n_discretize_bins`` bins per numeric feature.
    """

    def __init__(self, k: int = 2, n_discretize_bins: int = 10, random_state=None):
        self.k = k
        self.n_discretize_bins = n_discretize_bins
        self.random_state = random_state

    def _steps(self) -> list:
        _needs("wittgenstein", "wittgenstein")
        from repro.peers.ripper import RipperClassifier

        return [
            (
                "model",
                RipperClassifier(
                    k=self.k,
                    n_discretize_bins=self.n_discretize_bins,
                    random_state=self.random_state,
                ),
            )
        ]

    def complexity_(self) -> tuple[float, float]:
        rules = self.model_.ruleset_.rules
        return float(len(rules)), float(sum(len(r.conds) for r in rules))


def _imodels_rule_terms(rule) -> int:
    """Distinct (feature, direction) conditions of an imodels ``Rule`` (its printed terms)."""
    return len(getattr(rule, "agg_dict", None) or rule.terms)


class SkopeRulesPeer(_Peer):
    """imodels' SkopeRules read as the original Skope-rules: a DNF for the minority class.

    Skope-rules (Goix et al.) keeps the depth-limited tree paths of a bagged forest whose
    precision and recall pass thresholds, deduplicated; a sample is predicted positive when
    *any* kept rule fires, as in the original package (imodels' own ``predict`` takes a
    weighted majority of the rules, which predicts one class on most of our data sets).
    The rules are learned for the less frequent training class, as for RIPPER.
    """

    def __init__(
        self,
        precision_min: float = 0.5,
        recall_min: float = 0.01,
        n_estimators: int = 10,
        max_depth: int = 3,
        random_state=None,
    ):
        self.precision_min = precision_min
        self.recall_min = recall_min
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.random_state = random_state

    def _target(self, y01):
        self.rule_class_ = int(y01.mean() > 0.5) ^ 1  # 1 if positives are the minority
        return (y01 == self.rule_class_).astype(int)

    def _steps(self) -> list:
        _needs("imodels", "imodels")
        from imodels import SkopeRulesClassifier

        return [
            (
                "model",
                SkopeRulesClassifier(
                    precision_min=self.precision_min,
                    recall_min=self.recall_min,
                    n_estimators=self.n_estimators,
                    max_depth=self.max_depth,
                    random_state=self.random_state,
                ),
            )
        ]

    def _predict01(self, X):
        Xp = self.pipeline_[:-1].transform(X)
        fired = np.zeros(len(Xp), dtype=bool)
        for rule in self.model_.rules_:
            fired |= _rule_fires(rule.agg_dict, Xp)
        return np.where(fired, self.rule_class_, 1 - self.rule_class_)

    def complexity_(self) -> tuple[float, float]:
        rules = self.model_.rules_
        return float(len(rules)), float(sum(_imodels_rule_terms(r) for r in rules))


def _rule_fires(conditions: dict, X: pd.DataFrame) -> np.ndarray:
    """Evaluate an imodels rule ``{(feature, op): value}`` (an AND) on a frame."""
    ops = {
        "<=": np.less_equal,
        ">": np.greater,
        "<": np.less,
        ">=": np.greater_equal,
        "==": np.equal,
    }
    out = np.ones(len(X), dtype=bool)
    for (feature, op), value in conditions.items():
        out &= ops[op](X[feature].to_numpy(dtype=float), float(value))
    return out


class RuleFitPeer(_Peer):
    """imodels' RuleFit: an L1 logistic model over tree-path rules and linear terms.

    Complexity counts the rules and linear terms with a non-zero coefficient; a rule's
    terms are its conditions, a linear term is one term.
    """

    def __init__(
        self, max_rules: int = 30, n_estimators: int = 100, tree_size: int = 4, random_state=None
    ):
        self.max_rules = max_rules
        self.n_estimators = n_estimators
        self.tree_size = tree_size
        self.random_state = random_state

    def _steps(self) -> list:
        _needs("imodels", "imodels")
        from imodels import RuleFitClassifier

        return [
            (
                "model",
                RuleFitClassifier(
                    max_rules=self.max_rules,
                    n_estimators=self.n_estimators,
                    tree_size=self.tree_size,
                    random_state=self.random_state,
                ),
            )
        ]

    def complexity_(self) -> tuple[float, float]:
        table = self.model_._get_rules()
        used = table[table["coef"] != 0]
        terms = used["rule"].map(lambda r: len(re.split(r"\s+and\s+", str(r))))
        return float(len(used)), float(terms.sum())


class BoostedStumpsPeer(_Peer):
    """imodels' BoostedRulesClassifier: AdaBoost over depth-limited trees (stumps by default);
    each tree is read as one weighted rule per leaf path, so a stump is two one-term rules
    sharing a threshold; complexity counts one rule and its split conditions per tree."""

    def __init__(self, n_estimators: int = 15, max_depth: int = 1, random_state=None):
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.random_state = random_state

    def _steps(self) -> list:
        _needs("imodels", "imodels")
        from imodels import BoostedRulesClassifier
        from sklearn.tree import DecisionTreeClassifier

        return [
            (
                "model",
                BoostedRulesClassifier(
                    estimator=DecisionTreeClassifier(max_depth=self.max_depth),
                    n_estimators=self.n_estimators,
                    random_state=self.random_state,
                ),
            )
        ]

    def complexity_(self) -> tuple[float, float]:
        trees = [
            t for t, w in zip(self.model_.estimators_, self.model_.estimator_weights_) if w != 0
        ]
        splits = sum(int((t.tree_.children_left != -1).sum()) for t in trees)
        return float(len(trees)), float(splits)


class TreePeer(_Peer):
    """Depth-limited CART; every leaf is a rule, its path's conditions the rule's terms."""

    def __init__(self, max_depth: int = 3, random_state=None):
        self.max_depth = max_depth
        self.random_state = random_state

    def _steps(self) -> list:
        from sklearn.tree import DecisionTreeClassifier

        return [
            (
                "model",
                DecisionTreeClassifier(max_depth=self.max_depth, random_state=self.random_state),
            )
        ]

    def complexity_(self) -> tuple[float, float]:
        from repro.core.model_size import complexity

        return complexity(self.model_)


class ForestPeer(_Peer):
    """Random forest: the accuracy ceiling, not a rule model (complexity NaN)."""

    def __init__(self, n_estimators: int = 100, random_state=None):
        self.n_estimators = n_estimators
        self.random_state = random_state

    def _steps(self) -> list:
        from sklearn.ensemble import RandomForestClassifier

        return [
            (
                "model",
                RandomForestClassifier(
                    n_estimators=self.n_estimators, n_jobs=1, random_state=self.random_state
                ),
            )
        ]


class SVMPeer(_Peer):
    """RBF support vector machine on standardised features: the other accuracy ceiling."""

    _scale = True

    def __init__(self, C: float = 1.0):
        self.C = C

    def _steps(self) -> list:
        from sklearn.svm import SVC

        return [("model", SVC(kernel="rbf", C=self.C))]


class ThresholdRulesFirst(_Peer):
    """rulelab's rules-first classifier (Cohen et al. 2019) on threshold features.

    :class:`rulelab.RulesFirstClassifier` is meant for sparse binary data (words); here it
    sees the 0/1 threshold features of :class:`rulelab.FeatureBinarizer`, picks exact
    single-threshold rules first and leaves the other samples to an L1 logistic
    regression. Its complexity counts the rules (one term each) plus the logistic model as
    one more rule whose terms are its non-zero weights, since it is part of the decision.
    """

    def __init__(
        self, max_rules: int = 10, C: float = 1.0, n_thresholds: int = 10, random_state=None
    ):
        self.max_rules = max_rules
        self.C = C
        self.n_thresholds = n_thresholds
        self.random_state = random_state

    def _steps(self) -> list:
        from sklearn.linear_model import LogisticRegression

        from rulelab.binarize import FeatureBinarizer
        from rulelab.rulesfirst import RulesFirstClassifier

        # The L1 model is passed whole (``l1_ratio=1``), the current scikit-learn spelling.
        base = LogisticRegression(
            C=self.C,
            l1_ratio=1.0,
            solver="liblinear",
            max_iter=1000,
            random_state=self.random_state,
        )
        return [
            ("binarize", FeatureBinarizer(n_thresholds=self.n_thresholds)),
            (
                "model",
                RulesFirstClassifier(
                    base_estimator=base, max_rules=self.max_rules, random_state=self.random_state
                ),
            ),
        ]

    def complexity_(self) -> tuple[float, float]:
        model = self.model_
        n_rules = len(model.rules_)
        coef = getattr(model.base_estimator_, "coef_", None)
        weights = int(np.count_nonzero(coef)) if coef is not None else 0
        return float(n_rules + (weights > 0)), float(n_rules + weights)


# ---- the two line-ups ---------------------------------------------------------------------
OURS = ("1Rule", "RuSC", "RuB", "BCD", "AM", "GRAB", "GreedyRule", "CG")
"""rulelab's learners, in the order of the papers."""
CEILING = ("RF", "SVM")
"""Accuracy references that are not rule models."""
HYBRID = ("GreedyRule",)
"""rulelab learners whose decision is not rules alone (rules, then a logistic model): shown
in every table, but not counted as rulelab's rule learners in :func:`winners` and
:func:`moonshot`."""


def peer_learners(
    *,
    brcg_iter_max: int = 100,
    brcg_time_max: float | None = None,
    cart_depth: int = 3,
    random_state: int = 0,
    include: tuple[str, ...] | None = None,
    ripper: str = "jrip",
) -> tuple[dict, dict]:
    """The peers of the benchmark, and a note for each one left out.

    Parameters
    ----------
    brcg_iter_max, brcg_time_max : int, float or None
        Column-generation limits of BRCG: iterations (small in QUICK mode) and seconds
        (None: no clock limit, so the benchmark does not depend on the machine).
    cart_depth : int, default=3
        Depth of the CART peer (at most 2**depth rules).
    random_state : int, default=0
    include : tuple of str, optional
        Keep only these peers (names as returned).
    ripper : {"jrip", "wittgenstein"}, default="jrip"
        RIPPER as Cohen ran it (Weka's JRip on the raw values, :mod:`repro.peers.jrip`; left out
        with the install command when Java or Weka is missing) or wittgenstein's, which
        bins every numeric feature first (:class:`RipperRules`).

    Returns
    -------
    methods : dict of name -> estimator
    skipped : dict of name -> why it was left out (a package is missing)
    """
    candidates = {
        "BRCG": ("aix360", lambda: BRCGClassifier(iter_max=brcg_iter_max, time_max=brcg_time_max)),
        "RIPPER": (
            ("weka", lambda: make_ripper("jrip"))
            if ripper == "jrip"
            else ("wittgenstein", lambda: RipperRules(random_state=random_state))
        ),
        "SkopeRules": ("imodels", lambda: SkopeRulesPeer(random_state=random_state)),
        "RuleFit": ("imodels", lambda: RuleFitPeer(random_state=random_state)),
        "imodels-Boosted": ("imodels", lambda: BoostedStumpsPeer(random_state=random_state)),
        f"CART-d{cart_depth}": (None, lambda: TreePeer(cart_depth, random_state=random_state)),
        "RF": (None, lambda: ForestPeer(random_state=random_state)),
        "SVM": (None, lambda: SVMPeer()),
    }
    if ripper not in RIPPERS:
        raise ValueError(f"unknown RIPPER implementation {ripper!r}: use one of {RIPPERS}")
    methods, skipped = {}, {}
    for name, (module, make) in candidates.items():
        if include is not None and name not in include:
            continue
        if module == "weka" and weka_missing() is not None:
            skipped[name] = weka_missing()
            continue
        if module not in (None, "weka") and importlib.util.find_spec(module) is None:
            skipped[name] = f"package '{module}' is not installed (pip install rulelab[bench])"
            continue
        methods[name] = make()
    return methods, skipped


def rulelab_learners(
    *,
    max_rules: int = 10,
    theta: float = 1.0,
    max_iter: int = 10,
    grab_degree: int = 2,
    random_state: int = 0,
    include: tuple[str, ...] | None = None,
) -> tuple[dict, dict]:
    """rulelab's learners with the settings of the benchmark, and a note for any left out.

    1Rule, RuSC (``max_rules`` clauses), RuB (5 rounds), BCD and AM (DNF, at most 5
    clauses, sparsity cost ``theta``), GRAB (``CBMClassifier`` of degree ``grab_degree``)
    when the installed rulelab has it, the rules-first classifier on threshold
    features (see :class:`ThresholdRulesFirst`), and column generation
    (``ColumnGenerationRules`` with its defaults: ``complexity="auto"``, so its fit time
    includes choosing the complexity).
    """
    from rulelab import rulesets
    from rulelab.colgen import ColumnGenerationRules
    from rulelab.twolevel import TwoLevelRules

    two = dict(
        form="dnf", max_rules=5, complexity=theta, max_iter=max_iter, random_state=random_state
    )
    makers = {
        "1Rule": lambda: rulesets.OneRule(),
        "RuSC": lambda: rulesets.SetCoverRules(max_rules=max_rules),
        "RuB": lambda: rulesets.BoostedLPRules(n_estimators=5),
        "BCD": lambda: TwoLevelRules(method="bcd", **two),
        "AM": lambda: TwoLevelRules(method="am", **two),
        "GRAB": _grab_maker(grab_degree),
        "GreedyRule": lambda: ThresholdRulesFirst(max_rules=max_rules, random_state=random_state),
        "CG": lambda: ColumnGenerationRules(random_state=random_state),
    }
    methods, skipped = {}, {}
    for name, make in makers.items():
        if include is not None and name not in include:
            continue
        if make is None:
            skipped[name] = "rulelab.CBMClassifier (GRAB) is not in this version of rulelab"
            continue
        methods[name] = make()
    return methods, skipped


class GrabOnPrepared(_Peer):
    """rulelab's GRAB (``CBMClassifier``) behind the benchmark's preprocessing.

    GRAB refuses missing values (its equal-width cells have no place for them), so it gets
    the same median imputation and one-hot encoding as the peers; its complexity counts the
    non-zero weights (each a conjunction) and their items.
    """

    def __init__(self, degree: int = 2):
        self.degree = degree

    def _steps(self) -> list:
        from rulelab.grab import CBMClassifier

        return [("model", CBMClassifier(max_terms=self.degree))]

    def complexity_(self) -> tuple[float, float]:
        rules = self.model_.rules_  # a WeightedRuleSet: one clause per non-zero weight
        return float(rules.n_rules), float(rules.n_terms)


def _grab_maker(degree: int):
    try:
        from rulelab.grab import CBMClassifier  # noqa: F401
    except ImportError:
        return None
    return lambda: GrabOnPrepared(degree=degree)


# ---- the benchmark's tables ---------------------------------------------------------------
