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
from sklearn.base import clone
from sklearn.model_selection import StratifiedKFold

from .data import load_dataset

__all__ = ["cross_validate", "complexity", "cache_dir", "params_key", "summarize"]


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
    return repr(value)


def complexity(model) -> tuple[float, float]:
    """(number of rules/clauses, number of terms) of a fitted model, NaN where it has none.

    Understands rulelab learners (``rules_`` with ``n_rules``/``n_terms``), scikit-learn
    trees (leaves, and internal nodes on the root-to-leaf paths), and wittgenstein's RIPPER.
    """
    est = model.steps[-1][1] if hasattr(model, "steps") else model
    if hasattr(est, "complexity_"):
        return est.complexity_()
    rules = getattr(est, "rules_", None)
    if rules is not None and hasattr(rules, "n_rules"):
        return float(rules.n_rules), float(rules.n_terms)
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
        Reuse finished tasks from :func:`cache_dir` and store new ones there.
    max_folds : int, optional
        Run only the first ``max_folds`` folds (QUICK mode); the split stays the same.
    progress : bool, default=True
        Show a tqdm progress bar over tasks.
    tag : str, default=""
        Extra text folded into the cache key (e.g. the data version).

    Returns
    -------
    pandas.DataFrame
        One row per (dataset, method, fold): error, train_error, n_rules, n_terms, fit_time.
    """
    tasks, records = [], []
    for dataset in datasets:
        X, y = loader(dataset)
        splitter = StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=random_state)
        folds = list(splitter.split(X, y))[: max_folds or n_splits]
        for method, estimator in methods.items():
            key = params_key(estimator)
            for fold, (train, test) in enumerate(folds):
                path = None
                if cache:
                    name = f"{dataset}-{method}-{key}-k{n_splits}-s{random_state}-f{fold}{tag}.json"
                    path = cache_dir() / "cv" / _safe(name)
                    if path.is_file():
                        records.append(json.loads(path.read_text()))
                        continue
                tasks.append(delayed(_run_task)(dataset, method, estimator, fold, train, test,
                                                X, y, path))
    if tasks:
        runner = Parallel(n_jobs=n_jobs, return_as="generator_unordered")
        results = runner(tasks)
        if progress:
            from tqdm.auto import tqdm

            results = tqdm(results, total=len(tasks), desc="cross-validation", leave=False)
        records.extend(results)
    order = {m: i for i, m in enumerate(methods)}
    frame = pd.DataFrame(records)
    frame = frame.sort_values(["dataset", "method", "fold"],
                              key=lambda s: s.map(order) if s.name == "method" else s)
    return frame.reset_index(drop=True)


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_.=" else "_" for c in name)


def summarize(results: pd.DataFrame, value: str = "error") -> pd.DataFrame:
    """Mean and standard error over folds of ``value``, one row per (dataset, method)."""
    grouped = results.groupby(["dataset", "method"], sort=False)[value]
    out = grouped.agg(["mean", "std", "count"]).reset_index()
    out["se"] = out["std"] / np.sqrt(out["count"])
    return out.drop(columns="std").rename(columns={"mean": value, "se": f"{value}_se",
                                                   "count": "folds"})
