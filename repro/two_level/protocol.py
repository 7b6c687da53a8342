"""Notebook 03's protocol: the nested cross-validation of Tables 1 and 2 over the datasets of
a run, the merge of a partial FULL run with the earlier FULL run's rows, and the run-time
table."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from repro.core.runner import cross_validate, keep_earlier, run_label
from repro.two_level.experiments import LARGE_DATASETS, PAPER_NAMES, paper2_methods

__all__ = ["fit_times", "keep_earlier", "provenance", "run_folds", "run_label"]


def run_folds(
    datasets: Sequence[str],
    theta_grid: Sequence[float],
    *,
    n_splits: int,
    max_folds: int | None,
    n_jobs: int,
    large_max_samples: int,
    random_state: int,
    **methods,
) -> pd.DataFrame:
    """Every (dataset, method, fold) of Tables 1 and 2: the methods of
    :func:`repro.two_level.experiments.paper2_methods` (``theta_grid``, ``random_state`` and
    ``methods``, its other keywords), cross-validated on ``n_splits`` stratified folds seeded
    by ``random_state`` (the first ``max_folds`` of them). On MAGIC and Musk
    (``LARGE_DATASETS``) theta is tuned on a stratified subsample of ``large_max_samples``
    training rows. The small datasets come first, then the large ones, each in their order.

    BCD and AM run one after the other in one task per fold: tuned over the same grid on the
    same inner folds, they start from the same set-covering rules, which AM then finds kept
    (:mod:`rulelab.twolevel.starts`; the same fits, and AM's ``fit_time`` charged for the
    kept starts at what they cost BCD, so it is the time of AM's fit alone)."""
    cv = dict(
        n_splits=n_splits,
        random_state=random_state,
        n_jobs=n_jobs,
        max_folds=max_folds,
        together=[("BCD", "AM")],
    )
    methods["random_state"] = random_state
    small = [d for d in datasets if d not in LARGE_DATASETS]
    large = [d for d in datasets if d in LARGE_DATASETS]
    parts = []
    if small:
        parts.append(cross_validate(paper2_methods(theta_grid, **methods), small, **cv))
    if large:
        tuned = paper2_methods(theta_grid, max_samples=large_max_samples, **methods)
        parts.append(cross_validate(tuned, large, **cv))
    return pd.concat(parts, ignore_index=True)


def provenance(results: pd.DataFrame, run: str) -> list[str]:
    """Which run computed which datasets (the paper's names), one line per run, then a note
    naming the paper's datasets no run included."""
    lines = []
    for label, sets in results.groupby("run", sort=False)["dataset"].unique().items():
        who = "by this run" if label == run else "by the " + label
        lines.append(f"  computed {who}: {', '.join(PAPER_NAMES.get(d, d) for d in sets)}")
    not_run = [PAPER_NAMES[d] for d in PAPER_NAMES if d not in set(results["dataset"])]
    if not_run:
        lines.append(f"NOTE: the paper's datasets {not_run} are not included")
    return lines


def fit_times(results: pd.DataFrame, n_splits: int) -> pd.DataFrame:
    """Mean seconds per fit per (dataset, method), in the methods' order, and the seconds of
    all methods on all ``n_splits`` folds (scaled up from the folds run); the datasets by the
    paper's names. AM's seconds include the set-covering starts it finds kept from BCD's
    fit on the same fold, at the seconds they took there (:func:`run_folds`): each method's
    time is its fit's alone."""
    times = results.pivot_table(
        index="dataset", columns="method", values="fit_time", aggfunc="mean"
    )
    times = times[[m for m in pd.unique(results["method"])]]
    per_dataset = results.groupby("dataset")
    times["all methods, 10 folds (s)"] = per_dataset["fit_time"].sum() * (
        n_splits / per_dataset["fold"].nunique()
    )
    times.index = [PAPER_NAMES.get(d, d) for d in times.index]
    return times
