"""Table 1 of the GRAB paper (section 5.3) as a protocol: the data sets and methods a run
fits, the rows it keeps from an earlier run, and the views the notebook shows.

A FULL Table 1 takes days, so a run can cover some data sets or methods
(``TABLE1_SETS``, ``TABLE1_METHODS``) and keep the other rows of an earlier run of the
same protocol (:func:`with_earlier`, through :func:`repro.core.runner.merge_runs`).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from repro.core.reference import LOST
from repro.core.runner import merge_runs
from repro.grab import experiments as ex

__all__ = [
    "PAPER_SETS",
    "TABLE_FILE",
    "SPLITS_FILE",
    "Protocol",
    "for_set",
    "all_sets",
    "method_names",
    "run",
    "with_earlier",
    "wide",
    "provenance",
    "capped",
    "split_se",
    "side_by_side",
]

#: Table 1's seven data sets, in the paper's order.
PAPER_SETS = ("a1a", "phishing", "diabetes", "fourclass", "german.numer", "madelon", "ijcnn1")
#: The results files of Table 1: one row per (set, method), and one per (set, method, split).
TABLE_FILE = "grab_table1_accuracy.csv"
SPLITS_FILE = "grab_table1_splits.csv"


def for_set(setting: Any, name: str) -> Any:
    """A Table 1 setting given for every set, or as ``{set: value}`` (None for a set not
    named)."""
    return setting.get(name) if isinstance(setting, dict) else setting


@dataclass(frozen=True)
class Protocol:
    """The settings every row of Table 1 is computed under (the notebook's parameters).

    Parameters
    ----------
    folds : int
        Cross-validation folds of the grid search (``TABLE1_FOLDS``).
    seed : int
        Seed of the first 80/20 split and of the folds (``SEED``).
    max_train : int, dict of str to int, or None
        Training rows kept, for every set or per set (``TABLE1_MAX_TRAIN``); None: all.
    fit_time_limit : float or None
        Seconds per fit before a combination is excluded (``TABLE1_FIT_TIME_LIMIT``).
    top_k : int
        GRAB's conjunctions per grafting iteration (``TOP_K``).
    splits : dict of str to int
        Repeated 80/20 splits per set (``TABLE1_SPLITS``); a set not named has one.
    grids : str, default="paper"
        The hyper-parameter grids, ``"paper"`` or ``"quick"`` (``TABLE1_GRIDS``;
        :func:`repro.grab.experiments.table1_methods`).
    lrfim_max_size : dict of str to int
        LRFIM's longest itemset per set; 5 (the paper's) for a set not named.
    """

    folds: int
    seed: int
    max_train: int | dict[str, int] | None
    fit_time_limit: float | None
    top_k: int
    splits: Mapping[str, int]
    grids: str = "paper"
    lrfim_max_size: Mapping[str, int] = field(default_factory=dict)

    def max_train_of(self, name: str) -> int | None:
        """The training rows kept of set ``name`` (None: all)."""
        return for_set(self.max_train, name)

    def methods(self, name: str, m: int) -> dict:
        """Table 1's methods for set ``name`` with ``m`` training rows: name -> (estimator,
        grid)."""
        return ex.table1_methods(
            name,
            m,
            grids=self.grids,
            top_k=self.top_k,
            seed=self.seed,
            lrfim_max_size=self.lrfim_max_size.get(name, 5),
        )

    def frame(self, sets: Sequence[str]) -> pd.DataFrame:
        """Each set's protocol, one row per set: an earlier row is kept only under its own
        (the ``protocol`` of :func:`repro.core.runner.merge_runs`)."""
        return pd.DataFrame(
            [
                {
                    "dataset": d,
                    "folds": self.folds,
                    "seed": self.seed,
                    "max_train": self.max_train_of(d),
                    "fit_time_limit": self.fit_time_limit,
                    "top_k": self.top_k,
                    "splits": self.splits.get(d, 1),
                }
                for d in sets
            ]
        )


def all_sets(sets: Sequence[str], *, quick: bool) -> list[str]:
    """The data sets Table 1 is read over: the paper's seven in a FULL run, which keeps the
    earlier rows of the sets it does not run (:func:`with_earlier`); a QUICK run keeps no
    earlier row, so its table is the sets it runs."""
    return list(sets) if quick else list(PAPER_SETS)


def method_names() -> list[str]:
    """Table 1's seven methods, in the table's column order."""
    return list(ex.table1_methods("x", 1))


def _chosen(methods: dict, chosen: Sequence[str] | None) -> dict:
    """``methods`` restricted to the names in ``chosen`` (all where None)."""
    if chosen is None:
        return methods
    unknown = sorted(set(chosen) - set(methods))
    if unknown:
        raise ValueError(
            f"TABLE1_METHODS names unknown methods {unknown}; Table 1's are {list(methods)}"
        )
    return {k: v for k, v in methods.items() if k in chosen}


def _report(row: dict, folds: int) -> None:
    """Print one finished (set, method) row of Table 1 as it comes."""
    n_fits = row["n_combinations"] * folds
    read = (
        f"; {row['n_cached']} of {n_fits} fits read from the cache, their times measured "
        "when computed"
        if row["n_cached"]
        else ""
    )
    print(
        f"{row['dataset']:>13} {row['method']:<16} {row['accuracy']:6.2f} % (seed {row['seed']}) "
        f"({row['seconds']:.0f} s of fits, {row['n_excluded']} of {row['n_combinations']} "
        f"combinations excluded{read})",
        flush=True,
    )


def run(
    sets: Sequence[str],
    protocol: Protocol,
    *,
    methods: Sequence[str] | dict[str, Sequence[str]] | None = None,
    n_jobs: int = 1,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Table 1 over ``sets``: every method tuned by cross-validation, refitted and scored
    on the test part, over each set's repeated splits
    (:func:`repro.grab.experiments.tuned_accuracy_splits`); a line is printed per
    finished (set, method).

    Parameters
    ----------
    sets : sequence of str
        The data sets to run (``TABLE1_SETS``).
    protocol : Protocol
        The settings of every row.
    methods : list of str, dict of str to list of str, or None
        The methods to run: all seven (None), these on every set (a list), or these on the
        sets named (a dict; all seven on the others).
    n_jobs : int, default=1
        Parallel fits.

    Returns
    -------
    (table, per_split) : tuple of DataFrame
        One row per (set, method), with ``top_k``; and one per (set, method, split).
    """
    parts, split_parts = [], []
    for name in sets:
        m = len(ex.load_split(name, protocol.seed)[0])
        cap = protocol.max_train_of(name)
        m = m if cap is None else min(m, cap)
        chosen = _chosen(protocol.methods(name, m), for_set(methods, name))
        summary, per_split = ex.tuned_accuracy_splits(
            name,
            chosen,
            splits=protocol.splits.get(name, 1),
            folds=protocol.folds,
            seed=protocol.seed,
            max_train=cap,
            n_jobs=n_jobs,
            fit_time_limit=protocol.fit_time_limit,
            progress=functools.partial(_report, folds=protocol.folds),
        )
        parts.append(summary)
        split_parts.append(per_split)
    table = pd.concat(parts, ignore_index=True).assign(top_k=protocol.top_k)
    return table, pd.concat(split_parts, ignore_index=True)


def with_earlier(
    table: pd.DataFrame,
    splits: pd.DataFrame,
    results: Path,
    *,
    run: str,
    protocol: pd.DataFrame,
    keep_earlier: bool,
    quick: bool,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """This run's Table 1 rows, with an earlier run's rows of the other (set, method) pairs.

    A FULL run with ``keep_earlier`` keeps, from the files in ``results``, the rows of
    every (set, method) it did not compute that were computed under ``protocol`` (one row
    per set: :meth:`Protocol.frame`), and the per-split rows go with them. A QUICK run, or
    one without ``keep_earlier``, keeps nothing. Every row is labelled with the ``run``
    that computed it.

    Returns
    -------
    (table, splits) : tuple of DataFrame
        The rows to write to :data:`TABLE_FILE` and :data:`SPLITS_FILE`.
    """
    if not keep_earlier or quick:
        return table.assign(run=run), splits
    table = merge_runs(table, Path(results) / TABLE_FILE, run=run, protocol=protocol)
    # the per-split rows of every (set, method) kept from an earlier run stay with it
    kept = table.loc[table.run != run, ["dataset", "method"]]
    splits_file = Path(results) / SPLITS_FILE
    if len(kept) and splits_file.is_file():
        splits = pd.concat([splits, pd.read_csv(splits_file).merge(kept)], ignore_index=True)
    return table, splits


def wide(table: pd.DataFrame, sets: Sequence[str]) -> tuple[pd.DataFrame, list[str]]:
    """Table 1 as the paper prints it, one row per set and a column per method, and the
    sets of ``sets`` that lack a method's row (not, or not all, run under this protocol)."""
    present = set(table.dataset)
    shown = table.pivot(index="dataset", columns="method", values="accuracy").reindex(
        index=[d for d in sets if d in present], columns=method_names()
    )
    complete = set(shown.dropna().index)
    return shown, [d for d in sets if d not in complete]


def provenance(table: pd.DataFrame, run: str) -> str:
    """One line per run that computed rows of ``table``: its sets and their methods."""
    lines = []
    for label, part in table.groupby("run", sort=False):
        who = "this run" if label == run else f"the run of {label}"
        lines.append(
            f"computed by {who}: "
            + "; ".join(
                f"{d} ({', '.join(g.method)})" for d, g in part.groupby("dataset", sort=False)
            )
        )
    return "\n".join(lines)


def capped(table: pd.DataFrame) -> pd.Series:
    """The sets trained on a sample of their rows, as the rows themselves record it: set ->
    training rows."""
    return table.dropna(subset=["max_train"]).groupby("dataset").max_train.max().astype(int)


def split_se(table: pd.DataFrame) -> pd.DataFrame:
    """The standard error of each method's mean accuracy over the repeated splits, one row
    per set repeated (empty where no set is)."""
    return table[table.get("splits", 1) > 1].pivot(
        index="dataset", columns="method", values="accuracy_se"
    )


def side_by_side(wide: pd.DataFrame, paper: pd.DataFrame) -> pd.DataFrame:
    """Our best method per set beside the one the paper's text names, and GRAB against the
    trees and LRFIM (the comparisons the claims judge).

    Parameters
    ----------
    wide : DataFrame
        Table 1 over the sets with every method's row (:func:`wide`, without missing rows).
    paper : DataFrame
        The paper's Table 1 as recorded (``paper_table("paper4_table1_accuracy")``); its
        accuracies are lost.
    """
    best_ours = wide.idxmax(axis=1).rename("best (ours)")
    best_paper = (
        paper[paper.best_in_text == "yes"].set_index("dataset").method.rename("best (paper text)")
    )
    side = pd.concat([best_ours, best_paper], axis=1).loc[wide.index]
    side["paper accuracies"] = LOST
    grab_best = wide[["GRAB (logistic)", "GRAB (L2-hinge)"]].max(axis=1)
    side["GRAB >= DT"] = grab_best >= wide["DT"]
    side["GRAB >= RF"] = grab_best >= wide["RF"]
    side["GRAB(log) >= LRFIM"] = wide["GRAB (logistic)"] >= wide["LRFIM"]
    return side
