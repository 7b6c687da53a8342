"""Cross-validation for the papers' tables: parallel (joblib), resumable (cached), tidy.

Every (dataset, method, fold) is one task. A finished task is written to the cache as a
small JSON record, so an interrupted reproduction resumes where it stopped and a rerun
with the same settings costs nothing. Tasks run through joblib, so the same code uses
all local cores or, unchanged, a Dask or Ray cluster through joblib's backends::

    from joblib import parallel_config
    with parallel_config(backend="dask"):
        results = cross_validate(methods, datasets)
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.model_selection import StratifiedKFold

from ._codekey import source_key
from .data import load_dataset

__all__ = ["cross_validate", "complexity", "cache_dir", "params_key", "summarize", "merge_runs",
           "run_provenance",
           "RipperClassifier", "paper1_baselines", "compare_to_paper", "agreement",
           "side_by_side", "plot_comparison"]


def cache_dir() -> Path:
    """Where finished tasks are kept: ``RULELAB_CACHE/results`` (default ``~/.cache/rulelab``)."""
    root = os.environ.get("RULELAB_CACHE") or Path.home() / ".cache" / "rulelab"
    return Path(root).expanduser() / "results"


def params_key(obj) -> str:
    """A short stable hash of an estimator's parameters (or any JSON-able object)."""
    if hasattr(obj, "get_params"):
        obj = {"class": type(obj).__name__, **obj.get_params(deep=True)}
    text = json.dumps(obj, sort_keys=True, default=_jsonable)
    return hashlib.sha1(text.encode()).hexdigest()[:12]


def _jsonable(value):
    if hasattr(value, "get_params"):
        return {"class": type(value).__name__, **value.get_params(deep=False)}
    if isinstance(value, np.generic):
        return value.item()
    text = repr(value)
    if " at 0x" in text and hasattr(value, "__dict__"):
        # A default repr carries a memory address, different in every process, so the
        # cache would never hit (e.g. make_column_selector): hash the attributes instead.
        return {"class": type(value).__name__, **vars(value)}
    return text


def complexity(model) -> tuple[float, float]:
    """(number of rules/clauses, number of terms) of a fitted model, NaN where it has none.

    Every rulelab learner is read from its ``rules_`` (``n_rules``/``n_terms`` of its
    :mod:`rulelab.rules` type); the peers' adapters and the model-selection wrappers from their
    ``complexity_()``; scikit-learn trees as leaves and the conditions on the root-to-leaf
    paths; wittgenstein's RIPPER from its rule set.
    """
    est = model.steps[-1][1] if hasattr(model, "steps") else model
    rules = getattr(est, "rules_", None)
    if rules is not None and hasattr(rules, "n_rules"):
        return float(rules.n_rules), float(rules.n_terms)
    if hasattr(est, "complexity_"):
        return est.complexity_()
    tree = getattr(est, "tree_", None)
    if tree is not None:
        leaves = int((tree.children_left == -1).sum())
        return float(leaves), float(_tree_path_terms(tree))
    ruleset = getattr(est, "ruleset_", None)
    if ruleset is not None and hasattr(ruleset, "rules"):
        return float(len(ruleset.rules)), float(sum(len(r.conds) for r in ruleset.rules))
    return float("nan"), float("nan")


def _tree_path_terms(tree) -> int:
    """Total number of conditions over all root-to-leaf paths (each leaf read as a rule)."""
    total, stack = 0, [(0, 0)]
    while stack:
        node, depth = stack.pop()
        if tree.children_left[node] == -1:
            total += depth
        else:
            stack.append((tree.children_left[node], depth + 1))
            stack.append((tree.children_right[node], depth + 1))
    return total


def _run_task(dataset: str, method: str, estimator, fold: int, train, test, X, y,
              path: Path | None) -> dict:
    model = clone(estimator)
    start = time.perf_counter()
    model.fit(X.iloc[train], y.iloc[train])
    fit_time = time.perf_counter() - start
    pred = np.asarray(model.predict(X.iloc[test]))
    n_rules, n_terms = complexity(model)
    record = {
        "dataset": dataset, "method": method, "fold": fold,
        "error": float(np.mean(pred != y.iloc[test].to_numpy())),
        "train_error": float(np.mean(np.asarray(model.predict(X.iloc[train])) != y.iloc[train].to_numpy())),
        "n_rules": n_rules, "n_terms": n_terms, "fit_time": fit_time,
    }
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(record))
        tmp.replace(path)  # atomic: an interrupted write never leaves a half record
    return record


def cross_validate(methods: Mapping[str, object], datasets: Sequence[str], *, n_splits: int = 10,
                   random_state: int = 0, n_jobs: int = 1, cache: bool = True,
                   loader: Callable = load_dataset, max_folds: int | None = None,
                   progress: bool = True, tag: str = "") -> pd.DataFrame:
    """Stratified k-fold test error of every method on every dataset.

    Parameters
    ----------
    methods : mapping of name -> estimator
        Unfitted scikit-learn estimators (or pipelines), cloned for every fold.
    datasets : sequence of str
        Names for ``loader`` (default :func:`rulelab.load_dataset`).
    n_splits : int, default=10
        Folds of ``StratifiedKFold(shuffle=True, random_state=random_state)``.
    random_state : int, default=0
        Seed of the fold split (the same splits for every method).
    n_jobs : int, default=1
        Parallel tasks through joblib (-1 for all cores).
    cache : bool, default=True
        Reuse finished tasks from :func:`cache_dir` and store new ones there; a task is
        reused only with the same parameters and the same source of the rulelab modules
        behind the estimator (:func:`rulelab._codekey.source_key`).
    max_folds : int, optional
        Run only the first ``max_folds`` folds (QUICK mode); the split stays the same.
    progress : bool, default=True
        Show a tqdm progress bar over tasks.
    tag : str, default=""
        Extra text folded into the cache key (e.g. the data version).

    Returns
    -------
    pandas.DataFrame
        One row per (dataset, method, fold): error, train_error, n_rules, n_terms,
        fit_time, and ``cached`` (True where the record was read from the cache; its
        fit_time is then the time measured when it was computed, never the read).
    """
    tasks, records = [], []
    for dataset in datasets:
        X, y = loader(dataset)
        splitter = StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=random_state)
        folds = list(splitter.split(X, y))[: max_folds or n_splits]
        for method, estimator in methods.items():
            # Parameters and code: a result is reused only by the code that computed it.
            key = f"{params_key(estimator)}-{source_key(estimator)}"
            for fold, (train, test) in enumerate(folds):
                path = None
                if cache:
                    name = f"{dataset}-{method}-{key}-k{n_splits}-s{random_state}-f{fold}{tag}.json"
                    path = cache_dir() / "cv" / _safe(name)
                    if path.is_file():
                        records.append({**json.loads(path.read_text()), "cached": True})
                        continue
                tasks.append(delayed(_run_task)(dataset, method, estimator, fold, train, test,
                                                X, y, path))
    if tasks:
        runner = Parallel(n_jobs=n_jobs, return_as="generator_unordered")
        results = runner(tasks)
        if progress:
            from tqdm.auto import tqdm

            results = tqdm(results, total=len(tasks), desc="cross-validation", leave=False)
        records.extend({**r, "cached": False} for r in results)
    order = {m: i for i, m in enumerate(methods)}
    frame = pd.DataFrame(records)
    frame = frame.sort_values(["dataset", "method", "fold"],
                              key=lambda s: s.map(order) if s.name == "method" else s)
    return frame.reset_index(drop=True)


def merge_runs(results: pd.DataFrame, previous: str | Path, run: str) -> pd.DataFrame:
    """Add to this run's fold records the other (dataset, method) records of an earlier run.

    A reproduction over all datasets can take hours; running some datasets, or some
    methods (a new learner), alone and keeping the rest from the results file of an earlier
    run of the same notebook lets a long table be finished in parts. A (dataset, method)
    pair this run computed always comes from this run. Every row carries a ``run`` label
    (``run`` for this run's rows; earlier rows keep theirs, or ``"earlier"`` where the file
    had none), so a table says where each number came from.

    Parameters
    ----------
    results : pandas.DataFrame
        This run's records from :func:`cross_validate`.
    previous : str or Path
        The results file (CSV) an earlier run wrote; a missing file adds nothing.
    run : str
        Label of this run, e.g. its date.

    Returns
    -------
    pandas.DataFrame
        This run's rows followed by the earlier rows of the other (dataset, method) pairs.
    """
    results = results.assign(run=run)
    previous = Path(previous)
    if not previous.is_file():
        return results
    earlier = pd.read_csv(previous)
    missing = {"dataset", "method", "fold"} - set(earlier.columns)
    if missing:
        raise ValueError(f"{previous} is not a fold-records file: it lacks {sorted(missing)}")
    if "run" not in earlier.columns:
        earlier["run"] = "earlier"
    done = pd.MultiIndex.from_frame(results[["dataset", "method"]].drop_duplicates())
    keep = ~pd.MultiIndex.from_frame(earlier[["dataset", "method"]]).isin(done)
    return pd.concat([results, earlier[keep]], ignore_index=True)


def run_provenance(results: pd.DataFrame, run: str) -> str:
    """Which run computed which rows of :func:`merge_runs`'s table, in words.

    One line per run (its methods and how many data sets), then, when some of this run's
    fold fits were read from :func:`cross_validate`'s cache, how many: a cached fit was
    computed by the same code with the same parameters, and keeps the fit time measured
    when it was computed.

    Parameters
    ----------
    results : pandas.DataFrame
        Fold records with a ``run`` column (and optionally ``cached``).
    run : str
        Label of this run.

    Returns
    -------
    str
    """
    lines = []
    for label, part in results.groupby("run", sort=False):
        who = "by this run" if label == run else f"by the run of {label}"
        lines.append(f"computed {who}: {', '.join(part['method'].unique())} on "
                     f"{part['dataset'].nunique()} data sets")
    mine = results[results["run"] == run]
    cached = (mine["cached"].astype("boolean").fillna(False).astype(bool)
              if "cached" in mine else pd.Series(False, index=mine.index))
    if cached.any():
        lines.append(f"{int(cached.sum())} of this run's {len(mine)} fold fits were read from "
                     "the cache (same code, same parameters); every fit time is the one "
                     "measured when the fit was computed")
    return "\n".join(lines)


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_.=" else "_" for c in name)


def summarize(results: pd.DataFrame, value: str = "error") -> pd.DataFrame:
    """Mean and standard error over folds of ``value``, one row per (dataset, method)."""
    grouped = results.groupby(["dataset", "method"], sort=False)[value]
    out = grouped.agg(["mean", "std", "count"]).reset_index()
    out["se"] = out["std"] / np.sqrt(out["count"])
    return out.drop(columns="std").rename(columns={"mean": value, "se": f"{value}_se",
                                                   "count": "folds"})


# ---- baselines and the comparison with a paper's table ------------------------------------
class RipperClassifier(ClassifierMixin, BaseEstimator):
    """RIPPER (Cohen 1995) from the ``wittgenstein`` package as a scikit-learn classifier.

    RIPPER learns rules for one class and predicts the other by default; as in Cohen's
    implementation the rules are learned for the *less frequent* class of the training
    labels (learning them for the majority class is far worse, e.g. on ILPD). Numeric
    features are discretised by wittgenstein itself (``n_discretize_bins`` bins).

    Parameters
    ----------
    k : int, default=2
        Optimisation passes.
    n_discretize_bins : int, default=10
    random_state : int, optional
    """

    def __init__(self, k: int = 2, n_discretize_bins: int = 10, random_state=None):
        self.k = k
        self.n_discretize_bins = n_discretize_bins
        self.random_state = random_state

    def fit(self, X, y):
        try:
            import wittgenstein as lw
        except ImportError as err:  # pragma: no cover - optional dependency
            raise ImportError("RipperClassifier needs the 'wittgenstein' package: "
                              "pip install wittgenstein") from err
        X = _as_frame(X)
        y = np.asarray(y)
        self.classes_, counts = np.unique(y, return_counts=True)
        if self.classes_.size != 2:
            raise ValueError(f"RipperClassifier is binary; y has {self.classes_.size} classes")
        self.rule_class_ = self.classes_[int(np.argmin(counts))]
        target = (y == self.rule_class_).astype(int)
        self.ripper_ = lw.RIPPER(k=self.k, n_discretize_bins=self.n_discretize_bins,
                                 random_state=self.random_state)
        self.ripper_.fit(X.reset_index(drop=True), target, pos_class=1)
        self.ruleset_ = self.ripper_.ruleset_
        self.n_features_in_ = X.shape[1]
        return self

    def predict(self, X):
        X = _as_frame(X)
        fired = np.asarray(self.ripper_.predict(X.reset_index(drop=True)), dtype=bool)
        other = self.classes_[self.classes_ != self.rule_class_][0]
        return np.where(fired, self.rule_class_, other)

    def __str__(self) -> str:
        return str(getattr(self, "ruleset_", repr(self)))


def _as_frame(X) -> pd.DataFrame:
    return X if isinstance(X, pd.DataFrame) else pd.DataFrame(np.asarray(X))


def paper1_baselines(random_state: int = 0) -> dict:
    """The open stand-ins for the baselines of Malioutov & Varshney (2013), Table 1.

    ``CART`` (decision tree), ``TrBag`` (random forest, for Matlab's TreeBagger), ``kNN``,
    ``Discr`` (linear discriminant analysis, for Matlab's ``classify``), ``SVM`` (RBF) from
    scikit-learn with their default settings, as the paper used its tools' defaults; and
    ``RIPPER`` (wittgenstein) as the open rule-set learner standing in for SPSS's DList and
    C5.0, which have no faithful open implementation. Missing values are imputed (median),
    text/categorical columns one-hot encoded (ILPD's ``Gender``), and the distance- and
    margin-based learners (kNN, Discr, SVM) see standardised features.
    """
    from sklearn.compose import ColumnTransformer, make_column_selector
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.impute import SimpleImputer
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import Pipeline, make_pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler
    from sklearn.svm import SVC
    from sklearn.tree import DecisionTreeClassifier

    def prep(scale: bool):
        numeric = [SimpleImputer(strategy="median")] + ([StandardScaler()] if scale else [])
        return ColumnTransformer([
            ("num", make_pipeline(*numeric), make_column_selector(dtype_include="number")),
            ("cat", make_pipeline(SimpleImputer(strategy="most_frequent"),
                                  OneHotEncoder(handle_unknown="ignore", drop="if_binary")),
             make_column_selector(dtype_exclude="number")),
        ])

    def pipe(model, scale=False):
        return Pipeline([("prep", prep(scale)), ("model", model)])

    return {
        "CART": pipe(DecisionTreeClassifier(random_state=random_state)),
        "TrBag": pipe(RandomForestClassifier(random_state=random_state, n_jobs=1)),
        "kNN": pipe(KNeighborsClassifier(), scale=True),
        "Discr": pipe(LinearDiscriminantAnalysis(), scale=True),
        "SVM": pipe(SVC(kernel="rbf"), scale=True),
        "RIPPER": RipperClassifier(random_state=random_state),
    }


def compare_to_paper(summary: pd.DataFrame, paper: pd.DataFrame, value: str = "error"
                     ) -> pd.DataFrame:
    """Our mean and standard error beside the paper's number for every (dataset, method).

    ``summary`` comes from :func:`summarize`; ``paper`` is a long table with columns
    ``dataset``, ``method`` and ``value`` (e.g. ``rulelab.reference.paper_table``). The
    result has ``ours``, ``ours_se``, ``paper`` (NaN where the paper has no number or lost
    it) and ``diff = ours - paper``; methods only one side has are kept.
    """
    ours = summary.rename(columns={value: "ours", f"{value}_se": "ours_se"})
    keep = ["dataset", "method", "ours"] + (["ours_se"] if "ours_se" in ours else [])
    merged = ours[keep].merge(paper[["dataset", "method", value]].rename(columns={value: "paper"}),
                              on=["dataset", "method"], how="outer")
    merged["diff"] = merged["ours"] - merged["paper"]
    return merged


def agreement(comparison: pd.DataFrame, methods, *, mean_tol: float = 0.01,
              max_tol: float = 0.05) -> pd.DataFrame:
    """The agreement test of a reproduction, one row per method.

    Over the datasets where both numbers exist: our mean must be at most the paper's mean
    + ``mean_tol``, and no dataset worse than the paper's by more than ``max_tol``.
    """
    rows = []
    for method in methods:
        both = comparison[(comparison.method == method) & comparison.ours.notna()
                          & comparison.paper.notna()]
        if both.empty:
            rows.append({"method": method, "datasets": 0, "holds": np.nan})
            continue
        worst = both.loc[both["diff"].idxmax()]
        mean_ok = both.ours.mean() <= both.paper.mean() + mean_tol
        max_ok = worst["diff"] <= max_tol
        rows.append({"method": method, "datasets": len(both), "mean_ours": both.ours.mean(),
                     "mean_paper": both.paper.mean(), "mean_ok": bool(mean_ok),
                     "worst_dataset": worst.dataset, "worst_gap": worst["diff"],
                     "worst_ok": bool(max_ok), "holds": bool(mean_ok and max_ok)})
    return pd.DataFrame(rows)


def side_by_side(comparison: pd.DataFrame, methods, digits: int = 3) -> pd.DataFrame:
    """A printable table: one row per dataset, per method ``ours ± se (paper)``; ``(-)`` where
    the paper has no number for the cell."""
    def cell(row):
        if pd.isna(row.ours):
            return "" if pd.isna(row.paper) else f"paper {row.paper:.{digits}f}"
        se = f" ± {row.ours_se:.{digits}f}" if "ours_se" in row and pd.notna(row.ours_se) else ""
        paper = "(-)" if pd.isna(row.paper) else f"({row.paper:.{digits}f})"
        return f"{row.ours:.{digits}f}{se} {paper}"
    sub = comparison[comparison.method.isin(methods)].copy()
    sub["cell"] = sub.apply(cell, axis=1)
    table = sub.pivot(index="dataset", columns="method", values="cell")
    return table[[m for m in methods if m in table.columns]].fillna("")


def plot_comparison(comparison: pd.DataFrame, methods, ncols: int = 4, value: str = "test error"):
    """One panel per dataset: our mean (± standard error) beside the paper's number for
    every method; methods without a paper number show ours only."""
    import matplotlib.pyplot as plt

    datasets = sorted(comparison.dataset.unique())
    nrows = int(np.ceil(len(datasets) / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.3 * ncols, 2.8 * nrows), squeeze=False)
    x = np.arange(len(methods))
    for ax, ds in zip(axes.ravel(), datasets):
        sub = comparison[comparison.dataset == ds].set_index("method").reindex(methods)
        ax.errorbar(x - 0.12, sub.ours, yerr=sub.get("ours_se"), fmt="o", ms=4, label="ours")
        ax.plot(x + 0.12, sub.paper, "s", ms=4, color="0.45", label="paper")
        ax.set_xticks(x, methods, rotation=60, fontsize=7)
        ax.set_title(ds, fontsize=9)
    for ax in axes.ravel()[len(datasets):]:
        ax.set_visible(False)
    axes[0, 0].set_ylabel(value)
    axes[0, 0].legend(fontsize=7)
    fig.tight_layout()
    return fig
