"""Cached, parallel map over experiment units: one JSON file per finished unit.

An interrupted notebook resumes where it stopped; a rerun with the same settings only
reads the cache. Units run through joblib with a tqdm bar; each worker uses one BLAS
thread, since the parallelism is over units.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

from joblib import Parallel, delayed

from .._codekey import source_key
from ..evaluate import cache_dir, params_key


def unit_path(name: str, task: dict) -> Path:
    """Cache file of one unit of experiment ``name`` with parameters ``task``."""
    return cache_dir() / "rulesfirst" / name / f"{params_key(task)}.json"


def _run_one(func: Callable, task: dict, path: Path | None) -> list[dict]:
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1):
        records = func(**task)
    if isinstance(records, dict):
        records = [records]
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(records, default=float))
        tmp.replace(path)  # atomic: an interrupted write never leaves half a record
    return records


def run_units(func: Callable, tasks: Sequence[dict], name: str, *, n_jobs: int = 1,
              cache: bool = True, progress: bool = True) -> list[dict]:
    """Run ``func(**task)`` for every task (cached); return all records, in task order.

    ``func`` must be importable (a module-level function) so joblib workers can run it,
    and return a dict or a list of dicts of JSON-able values.
    """
    results: list[list[dict] | None] = [None] * len(tasks)
    todo = []
    for i, task in enumerate(tasks):
        # The code behind ``func`` is part of the key: results of older code are not reused.
        key = {"func": func.__name__, "code": source_key(func), **task}
        path = unit_path(name, key) if cache else None
        if path is not None and path.is_file():
            results[i] = json.loads(path.read_text())
        else:
            todo.append((i, task, path))
    if todo:
        runner = Parallel(n_jobs=n_jobs, return_as="generator")
        stream = runner(delayed(_run_one)(func, task, path) for _, task, path in todo)
        if progress:
            from tqdm.auto import tqdm

            stream = tqdm(stream, total=len(todo), desc=name, leave=False)
        for (i, _, _), records in zip(todo, stream):
            results[i] = records
    return [r for recs in results for r in recs]
