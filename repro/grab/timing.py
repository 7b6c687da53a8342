"""Fig. 2's times, with the short runs repeated so that one noisy run does not decide.

A run of a few seconds on a shared machine can take half again as long as the same run a
minute later. Fig. 2's verdicts compare such runs at k = 1 and 2 (ratios near 1), and
they flipped between FULL runs with the same code. Here every run shorter than
``repeat_below`` seconds is timed ``repeats`` times and the run of median time is kept,
trace and all; the long runs (the large degrees, the runs stopped at their limit) are timed once, as their
ratios are far from 1.

Each (C, method) series over the degrees is one unit of the result cache: the timings a
FULL run measured are its results, read back by any rerun whose code computes them alike.
Series may run side by side, one per core, each single-threaded
(:func:`repro.core.runner.side_by_side`, which says what that costs a unit's seconds).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from repro.core.cache import cached, digest
from repro.core.runner import side_by_side
from repro.grab.experiments import time_methods

__all__ = ["time_methods_repeated", "REPEAT_BELOW"]

REPEAT_BELOW = 30.0
"""Seconds under which a Fig. 2 run is timed more than once."""


def time_methods_repeated(
    X,
    y,
    *,
    repeats: int = 3,
    repeat_below: float = REPEAT_BELOW,
    cache: bool = True,
    n_jobs: int = 1,
    **options,
) -> pd.DataFrame:
    """:func:`repro.grab.experiments.time_methods`, each finished run shorter than ``repeat_below``
    seconds repeated until it has been timed ``repeats`` times; the run of median time is
    kept (with its trace).

    Parameters
    ----------
    X, y, **options
        As for :func:`repro.grab.experiments.time_methods` (``Cs``, ``degrees``, ``methods``, ``top_k``,
        ``tol``, ``liblinear_tol``, ``naive_limit``, ``trace_limit``, ``time_limit``,
        ``skip_after_limit``, ``progress``).
    repeats : int, default=3
        Timings of each short run (1: :func:`~repro.grab.experiments.time_methods` as it is).
    repeat_below : float, default=REPEAT_BELOW (30)
        Seconds under which a run is repeated.
    cache : bool, default=True
        Keep and reuse each (C, method) series as a unit of the result cache, keyed by the
        data's bytes, the options and the code.
    n_jobs : int, default=1
        Series timed side by side, one per core, each single-threaded
        (:func:`repro.core.runner.side_by_side`); a series' runs stay one after another.

    Returns
    -------
    DataFrame
        The rows of :func:`~repro.grab.experiments.time_methods`, plus ``repeats`` (timings of the
        run) and ``seconds_range`` (the slowest minus the fastest of them, 0 for one).
    """
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, not {repeats}")
    progress = options.pop("progress", None)
    data = digest(X, y)
    Cs = options.pop("Cs", (0.1, 1.0))
    methods = options.pop("methods", ("GRAB", "Grafting", "LIBLINEAR"))
    units, cost = [], []
    for C in Cs:
        for method in methods:
            series = dict(options, Cs=(C,), methods=(method,))
            key = dict(data=data, repeats=repeats, repeat_below=repeat_below, **series)
            units.append(
                lambda key=key, series=series: cached(
                    "grab/fig2",
                    key,
                    lambda: _series(X, y, repeats, repeat_below, series).to_dict("records"),
                    code=_series,
                    cache=cache,
                )
            )
            cost.append(C)  # a larger C runs longer, for every method
    parts = [pd.DataFrame(records) for records in side_by_side(units, n_jobs, cost=cost)]
    if progress:
        for part in parts:
            for _, row in part.iterrows():
                progress(row)
    return pd.concat(parts, ignore_index=True)


def _series(X, y, repeats: int, repeat_below: float, options: dict) -> pd.DataFrame:
    """One series of :func:`time_methods_repeated`, its short runs repeated."""
    first = time_methods(X, y, **options)
    rows = []
    for _, row in first.iterrows():
        runs = [row]
        short = (
            row["attempted"]
            and not row["stopped"]
            and np.isfinite(row["seconds"])
            and row["seconds"] < repeat_below
        )
        for _ in range(repeats - 1 if short else 0):
            again = time_methods(
                X,
                y,
                **{
                    **options,
                    "Cs": (row["C"],),
                    "degrees": (int(row["degree"]),),
                    "methods": (row["method"],),
                },
            )
            runs.append(again.iloc[0])
        seconds = np.array([r["seconds"] for r in runs])
        # the median run (the lower of the two middle ones for an even count)
        kept = runs[int(np.argsort(seconds, kind="stable")[(len(runs) - 1) // 2])].copy()
        kept["repeats"] = len(runs)
        kept["seconds_range"] = float(seconds.max() - seconds.min())
        rows.append(kept)
    return pd.DataFrame(rows).reset_index(drop=True)
