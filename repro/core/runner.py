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

import time
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from sklearn.base import clone
from sklearn.model_selection import StratifiedKFold

from repro.core.cache import (
    TALLY_ENV,
    Unit,
    cache_dir,
    cache_path,
    cached,
    earlier_reads,
    load,
    params_key,
    read_cached,
    store,
    unit,
    write_record,
)
from repro.core.model_size import complexity
from rulelab.data import load_dataset

__all__ = [
    "cross_validate",
    "run_units",
    "side_by_side",
    "cached",
    "cache_path",
    "cache_dir",
    "params_key",
    "summarize",
    "merge_runs",
    "keep_earlier",
    "run_label",
    "run_provenance",
    "earlier_reads",
    "read_cached",
    "write_record",
    "TALLY_ENV",
]


def _run_task(
    dataset: str, method: str, estimator, fold: int, train, test, X, y, u: Unit | None
) -> dict:
    from rulelab.twolevel.starts import SETCOVER_STARTS

    model = clone(estimator)
    reused = SETCOVER_STARTS.reused_seconds
    start = time.perf_counter()
    model.fit(X.iloc[train], y.iloc[train])
    # a start another fit of this task computed is charged at what it cost then: fit_time
    # is the time of this fit alone, whether or not it ran beside that one
    fit_time = time.perf_counter() - start + (SETCOVER_STARTS.reused_seconds - reused)
    pred = np.asarray(model.predict(X.iloc[test]))
    n_rules, n_terms = complexity(model)
    record = {
        "dataset": dataset,
        "method": method,
        "fold": fold,
        "error": float(np.mean(pred != y.iloc[test].to_numpy())),
        "train_error": float(
            np.mean(np.asarray(model.predict(X.iloc[train])) != y.iloc[train].to_numpy())
        ),
        "n_rules": n_rules,
        "n_terms": n_terms,
        "fit_time": fit_time,
        "tuning_time": _tuning_time(model),
        "limits_hit": _limits_hit(model),
    }
    if u is not None:
        store(u, record)
    return record


def _run_tasks(fits: list[tuple]) -> list[dict]:
    """:func:`_run_task` for each of ``fits`` in turn, in this one process."""
    return [_run_task(*fit) for fit in fits]


def _order_in(together: Sequence[Sequence[str]], method: str) -> int:
    """Where ``method`` stands in its group of ``together`` (0 outside every group)."""
    return next((list(names).index(method) for names in together if method in names), 0)


def _tuning_time(model) -> float:
    """Seconds of the fit spent choosing the learner's own parameters (an inner
    cross-validation; the learner's ``tuning_seconds_``), NaN for a learner that does not
    say: so that fit times compare like with like."""
    final = model.steps[-1][1] if hasattr(model, "steps") else model
    return float(getattr(final, "tuning_seconds_", np.nan))


def _limits_hit(model) -> str | None:
    """The work or clock limits that stopped something in the fit (the learner's
    ``limits_hit_``, comma-separated; "" for none); None for a learner that does not say."""
    final = model.steps[-1][1] if hasattr(model, "steps") else model
    hit = getattr(final, "limits_hit_", None)
    return None if hit is None else ", ".join(hit)


def cross_validate(
    methods: Mapping[str, object],
    datasets: Sequence[str],
    *,
    n_splits: int = 10,
    random_state: int = 0,
    n_jobs: int = 1,
    cache: bool = True,
    loader: Callable = load_dataset,
    max_folds: int | None = None,
    progress: bool = True,
    tag: str = "",
    together: Sequence[Sequence[str]] = (),
) -> pd.DataFrame:
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
        behind the estimator (:func:`repro.core.codekey.source_key`).
    max_folds : int, optional
        Run only the first ``max_folds`` folds (QUICK mode); the split stays the same.
    progress : bool, default=True
        Show a tqdm progress bar over tasks.
    tag : str, default=""
        Extra text folded into the cache key (e.g. the data version).
    together : sequence of sequences of method names, default=()
        Methods whose fits on one (dataset, fold) run in one task, one after the other in
        the order given, so that what their fits compute alike and keep in the process
        (the two-level learners' set-covering starts, :mod:`rulelab.twolevel.starts`) is
        computed once; each still has its own record, cache entry and ``fit_time`` (a kept
        start charged at the seconds it took to compute). The results are the same either
        way.

    Returns
    -------
    pandas.DataFrame
        One row per (dataset, method, fold): error, train_error, n_rules, n_terms,
        fit_time, ``limits_hit`` (which of the learner's limits bound, see
        :func:`_limits_hit`), and ``cached`` (True where the record was read from the cache; its
        fit_time is then the time measured when it was computed, never the read).
    """
    group_of = {m: g for g, names in enumerate(together) for m in names}
    tasks, records = {}, []  # (dataset, group or method, fold) -> the fits of one task
    for dataset in datasets:
        X, y = loader(dataset)
        splitter = StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=random_state)
        folds = list(splitter.split(X, y))[: max_folds or n_splits]
        for method, estimator in methods.items():
            params = params_key(estimator)
            for fold, (train, test) in enumerate(folds):
                u = None
                if cache:
                    key = {
                        "dataset": dataset,
                        "method": method,
                        "estimator": params,
                        "n_splits": n_splits,
                        "random_state": random_state,
                        "fold": fold,
                        "tag": tag,
                    }
                    # the record is made by _run_task as well as by the estimator
                    u = unit("cv", key, (estimator, _run_task, complexity))
                    record = load(u)
                    if record is not None:
                        records.append({**record, "cached": True})
                        continue
                fits = tasks.setdefault((dataset, group_of.get(method, method), fold), [])
                fits.append((dataset, method, estimator, fold, train, test, X, y, u))
    if tasks:
        # a task's fits in the order the methods were given: a group's in ``together``'s
        for fits in tasks.values():
            fits.sort(key=lambda f: _order_in(together, f[1]))
        runner = Parallel(n_jobs=n_jobs, return_as="generator_unordered")
        results = runner(delayed(_run_tasks)(fits) for fits in tasks.values())
        if progress:
            from tqdm.auto import tqdm

            results = tqdm(results, total=len(tasks), desc="cross-validation", leave=False)
        records.extend({**r, "cached": False} for done in results for r in done)
    order = {m: i for i, m in enumerate(methods)}
    frame = pd.DataFrame(records)
    frame = frame.sort_values(
        ["dataset", "method", "fold"], key=lambda s: s.map(order) if s.name == "method" else s
    )
    return frame.reset_index(drop=True)


def _run_unit(func: Callable, task: dict, u: Unit | None) -> list[dict]:
    from threadpoolctl import threadpool_limits

    from repro.core.cache import roundtrip

    with threadpool_limits(1):  # the parallelism is over units
        records = func(**task)
    if isinstance(records, dict):
        records = [records]
    if u is not None:
        store(u, records)
        records = roundtrip(records)
    return records


def run_units(
    func: Callable,
    tasks: Sequence[dict],
    kind: str,
    *,
    n_jobs: int = 1,
    cache: bool = True,
    progress: bool = True,
    cost: Sequence[float] | None = None,
) -> list[dict]:
    """Run ``func(**task)`` for every task, each one a cached unit (:func:`cache_path`
    under ``kind``, keyed by the task and ``func``'s code); return all records in task order.

    ``cost`` (one estimate per task, any scale) sends the costliest units to the workers
    first, so that a long unit does not start last and leave the other workers idle; it
    changes only the order in which units run, never their records or the order returned.

    ``func`` must be importable (a module-level function) so that joblib workers can run it,
    and return a dict or a list of dicts of JSON-able values. An interrupted run resumes
    where it stopped; a rerun of the same code with the same tasks only reads the cache.
    """
    results: list[list[dict] | None] = [None] * len(tasks)
    todo = []
    for i, task in enumerate(tasks):
        u = unit(kind, {"func": func.__qualname__, **task}, func) if cache else None
        record = load(u) if u is not None else None
        if record is not None:
            results[i] = record
        else:
            todo.append((i, task, u))
    if todo:
        done = side_by_side(
            [partial(_run_unit, func, task, path) for _, task, path in todo],
            n_jobs,
            cost=None if cost is None else [cost[i] for i, _, _ in todo],
            desc=kind if progress else None,
        )
        for (i, _, _), records in zip(todo, done):
            results[i] = records
    return [r for recs in results for r in recs]


def side_by_side(
    units: Sequence[Callable[[], object]],
    n_jobs: int = 1,
    *,
    cost: Sequence[float] | None = None,
    desc: str | None = None,
) -> list:
    """Run single-core timed units (callables without arguments, each usually a
    :func:`cached` call) ``n_jobs`` at a time; return their results in the given order.

    Each unit is one process on one core, its solvers single-threaded. Beside another
    unit a long unit's seconds move by a few per cent (the shared cache and memory bus),
    a sub-second one's by up to 1.8x (``benchmarks/repro/bench_side_by_side.py``
    measures each unit's seconds both ways): use it where the times that decide a
    verdict are long, or where the limits are counts of work. ``cost`` (one estimate per
    unit) starts the costliest first, so that a long unit does not start last; it changes
    only the order in which units run.
    """
    order = list(range(len(units)))
    if cost is not None:  # stable: equal estimates keep the given order
        order.sort(key=lambda i: -cost[i])
    stream = Parallel(n_jobs=n_jobs, return_as="generator")(delayed(units[i])() for i in order)
    if desc:
        from tqdm.auto import tqdm

        stream = tqdm(stream, total=len(units), desc=desc, leave=False)
    results: list = [None] * len(units)
    for i, result in zip(order, stream):
        results[i] = result
    return results


def merge_runs(
    results: pd.DataFrame, previous: str | Path, run: str, *, protocol: pd.DataFrame | None = None
) -> pd.DataFrame:
    """Add to this run's records the other (dataset, method) records of an earlier run.

    A reproduction over all datasets can take hours; running some datasets, or some
    methods (a new learner), alone and keeping the rest from the results file of an earlier
    run of the same notebook lets a long table be finished in parts. A (dataset, method)
    pair this run computed always comes from this run. Every row carries a ``run`` label
    (``run`` for this run's rows; earlier rows keep theirs, or ``"earlier"`` where the file
    had none), so a table says where each number came from.

    Parameters
    ----------
    results : pandas.DataFrame
        This run's records: per fold from :func:`cross_validate` (a ``fold`` column), or
        one per (dataset, method).
    previous : str or Path
        The results file (CSV) an earlier run wrote; a missing file adds nothing.
    run : str
        Label of this run, e.g. its date.
    protocol : pandas.DataFrame, optional
        One row per dataset: a ``dataset`` column and the protocol columns (folds, row cap,
        time limit, ...) with the values this configuration uses for it. An earlier row is
        kept only where it has these columns with its dataset's values (as a CSV gives them
        back: None as NaN, 3600 as 3600.0), so rows computed under another protocol are
        never mixed into the table; a dataset not in ``protocol`` keeps no earlier row.

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
    needed = {"dataset", "method"} | ({"fold"} if "fold" in results else set())
    missing = needed - set(earlier.columns)
    if missing:
        raise ValueError(
            f"{previous} is not a records file of this kind: it lacks {sorted(missing)}"
        )
    if "run" not in earlier.columns:
        earlier["run"] = "earlier"
    done = pd.MultiIndex.from_frame(results[["dataset", "method"]].drop_duplicates())
    keep = ~pd.MultiIndex.from_frame(earlier[["dataset", "method"]]).isin(done)
    if protocol is not None:
        if protocol["dataset"].duplicated().any():
            raise ValueError("protocol must have one row per dataset")
        columns = [c for c in protocol.columns if c != "dataset"]
        if not set(columns) <= set(earlier.columns):
            keep &= False
        else:

            def written(frame):
                return frame[["dataset", *columns]].astype(object).map(_as_written)

            expected = pd.MultiIndex.from_frame(written(protocol))
            keep &= pd.MultiIndex.from_frame(written(earlier)).isin(expected)
    return pd.concat([results, earlier[keep]], ignore_index=True)


def _as_written(value) -> str:
    """A protocol value as a CSV round trip leaves it: None and NaN alike, 5 and 5.0 alike."""
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return "None"
    if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool):
        return repr(float(value))
    return str(value)


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
        lines.append(
            f"computed {who}: {', '.join(part['method'].unique())} on "
            f"{part['dataset'].nunique()} data sets"
        )
    mine = results[results["run"] == run]
    cached = (
        mine["cached"].astype("boolean").fillna(False).astype(bool)
        if "cached" in mine
        else pd.Series(False, index=mine.index)
    )
    if cached.any():
        lines.append(
            f"{int(cached.sum())} of this run's {len(mine)} fold fits were read from "
            "the cache (same code, same parameters); every fit time is the one "
            "measured when the fit was computed"
        )
    return "\n".join(lines)


def summarize(results: pd.DataFrame, value: str = "error") -> pd.DataFrame:
    """Mean and standard error over folds of ``value``, one row per (dataset, method)."""
    grouped = results.groupby(["dataset", "method"], sort=False)[value]
    out = grouped.agg(["mean", "std", "count"]).reset_index()
    out["se"] = out["std"] / np.sqrt(out["count"])
    return out.drop(columns="std").rename(
        columns={"mean": value, "se": f"{value}_se", "count": "folds"}
    )


def run_label() -> str:
    """This run's label in the ``run`` column: the time it started, to the minute, in UTC."""
    return pd.Timestamp.now(tz="UTC").strftime("%Y-%m-%d %H:%M UTC")


def keep_earlier(
    results: pd.DataFrame, folds_file: str | Path, run: str, *, keep: bool, quick: bool
) -> pd.DataFrame:
    """This run's fold rows labelled ``run``, followed, for a FULL run with ``keep``
    (``KEEP_EARLIER``), by the earlier run's rows in ``folds_file`` of the (dataset, method)
    pairs this run did not compute (:func:`repro.core.runner.merge_runs`). A QUICK run keeps
    nothing: its folds are not the FULL protocol's."""
    if keep and not quick:
        return merge_runs(results, folds_file, run=run)
    return results.assign(run=run)
