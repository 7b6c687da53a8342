"""Notebook 07's protocol: which data sets and methods a run fits (what QUICK means here),
the merge of a partial FULL run with the earlier FULL run's rows, and the lines that say
what the run covered and which limits bound."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

import pandas as pd

from repro.core.runner import keep_earlier, run_label, run_provenance
from repro.peers import learners as peers

__all__ = [
    "cut_datasets",
    "keep_earlier",
    "lineup",
    "multiclass_datasets",
    "run_datasets",
    "run_label",
    "run_mode",
    "run_report",
    "wide",
]


def run_datasets(
    datasets: Sequence[str] | None,
    quick: bool,
    quick_datasets: Sequence[str],
    all_datasets: Sequence[str],
) -> list[str]:
    """The data sets a run fits: ``datasets`` (``DATASETS``) when given, else
    ``quick_datasets`` in a QUICK run and ``all_datasets`` in a FULL one."""
    return list(datasets or (quick_datasets if quick else all_datasets))


def multiclass_datasets(quick: bool, sets: Sequence[str], quick_sets: Sequence[str]) -> list[str]:
    """The sets of the multiclass table: ``quick_sets`` in a QUICK run, else ``sets``."""
    return quick_sets if quick else sets


def cut_datasets(cut: Sequence[str] | None, datasets: Sequence[str]) -> list[str]:
    """The data sets of the cut-point comparison: ``cut`` (``CUT_DATASETS``; [] for none),
    or the run's ``datasets`` when it is None."""
    return datasets if cut is None else cut


def lineup(
    *,
    quick: bool,
    quick_peers: Sequence[str],
    exclude: Sequence[str],
    only: Sequence[str] | None,
    max_rules: int,
    theta: float,
    random_state: int,
    brcg_iter_max: int,
    brcg_time_max: float | None,
    cart_depth: int,
    ripper: str,
) -> tuple[dict, dict, dict]:
    """The methods a run fits: rulelab's learners and the peers
    (:func:`repro.peers.learners.rulelab_learners`, :func:`~repro.peers.learners.peer_learners`;
    only ``quick_peers`` in a QUICK run), less those in ``exclude`` and, when ``only`` is
    given, those not in it.

    Returns
    -------
    ours, theirs : dict
        Name -> unfitted estimator, rulelab's and the peers', in the tables' order.
    skipped : dict
        Name -> why it is left out (not installed, or ``exclude``).

    Raises
    ------
    ValueError
        When ``only`` names a method that is neither ours nor a peer's.
    """
    ours, ours_skipped = peers.rulelab_learners(
        max_rules=max_rules, theta=theta, random_state=random_state
    )
    theirs, peers_skipped = peers.peer_learners(
        brcg_iter_max=brcg_iter_max,
        brcg_time_max=brcg_time_max,
        cart_depth=cart_depth,
        random_state=random_state,
        ripper=ripper,
        include=quick_peers if quick else None,
    )
    skipped = {**ours_skipped, **peers_skipped}
    for name in exclude:
        if ours.pop(name, None) or theirs.pop(name, None):
            skipped[name] = "left out by the EXCLUDE parameter of this run"
    if only is not None:
        unknown = set(only) - set(ours) - set(theirs)
        if unknown:
            raise ValueError(f"ONLY names unknown methods: {sorted(unknown)}")
        ours = {k: v for k, v in ours.items() if k in only}
        theirs = {k: v for k, v in theirs.items() if k in only}
    return ours, theirs, skipped


def run_mode(results: pd.DataFrame, quick: bool, all_datasets: Sequence[str]) -> str:
    """ "QUICK", "FULL" (every one of ``all_datasets`` in ``results``) or "partial FULL"."""
    if quick:
        return "QUICK"
    present = set(results["dataset"])
    return "FULL" if all(d in present for d in all_datasets) else "partial FULL"


def run_report(
    results: pd.DataFrame,
    run: str,
    *,
    mode: str,
    all_datasets: Sequence[str],
    max_folds: int | None,
    n_splits: int,
    brcg_iter_max: int,
    brcg_time_max: float | None,
) -> list[str]:
    """What the run covered (folds, data sets, BRCG's limits, the data sets not run), which
    run computed which rows (:func:`repro.core.runner.run_provenance`), and on how many folds
    each limit of a fit bound (counts of work unless a ``*time_limit`` is named)."""
    present = set(results["dataset"])
    covered = [d for d in all_datasets if d in present]
    missing = [d for d in all_datasets if d not in covered]
    limit = f" / {brcg_time_max} s" if brcg_time_max is not None else " (no clock limit)"
    lines = [
        f"{mode} run: {max_folds or n_splits} of {n_splits} folds on {len(covered)} of "
        f"{len(all_datasets)} data sets; BRCG limited to {brcg_iter_max} iterations"
        + limit
        + (f"; not run: {', '.join(missing)}" if missing else ""),
        textwrap.indent(run_provenance(results, run), "  "),
    ]
    if "limits_hit" in results:
        hit = results.assign(limit=results["limits_hit"].fillna("").str.split(", ")).explode(
            "limit"
        )
        hit = hit[hit["limit"] != ""]
        for (method, name), n in hit.groupby(["method", "limit"], sort=False).size().items():
            folds = int((results.method == method).sum())
            lines.append(f"  {method}: {name} bound on {n} of {folds} folds")
    return lines


def wide(table: pd.DataFrame, value: str, methods: Sequence[str]) -> pd.DataFrame:
    """One column of :func:`repro.benchmark.tables.benchmark_table` as methods x data sets,
    the methods in the order given."""
    return table.pivot(index="method", columns="dataset", values=value).loc[list(methods)]
