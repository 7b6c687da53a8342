"""Notebook 03's tuned BCD and AM on one outer fold, each computing its set-cover starts or AM
taking BCD's.

    python -m benchmarks.library.bench_twolevel_shared_start [--datasets musk2] [--fold 0]
                                                              [--rows N]

Notebook 03 fits BCD and AM on every outer training fold as
``ThetaSearchCV(TwoLevelRules(form="dnf", max_rules=5, max_iter=10, n_thresholds=10),
{"complexity": [0.01, 0.1, 1, 10]}, cv=3)``, on MAGIC and Musk tuned on a stratified
subsample of 2,000 rows (``repro.two_level.experiments.paper2_methods``), then refitted on
the whole fold; both methods start every fit from the set-covering rule for its theta and
rows, and ``repro.two_level.protocol.run_folds`` runs a fold's BCD and AM in one process.
This script runs that pair on one outer fold (``StratifiedKFold(10, shuffle=True,
random_state=0)``) two ways in one process: every fit computing its own start (the memo
:data:`rulelab.twolevel.starts.SETCOVER_STARTS` keeping none), and BCD then AM with the
starts kept, so that AM takes those of BCD's fits with the same theta and rows.

It prints the CPU seconds of each method and of the pair both ways, the pair's and AM's
ratios (BCD does the same work both ways: its ratio shows the noise), the starts found kept, and whether the two ways' fits are the same: the chosen complexity, the
inner CV's scores, the refitted weights, objective path and LP count, the printed rule and
the test error (it exits with an error if anything differs). ``--rows N`` fits on a
stratified subsample of N rows of the training fold instead (a smaller run). The package is
warmed up on a small fit first, so loading HiGHS is not timed.
"""

from __future__ import annotations

import argparse

from sklearn.model_selection import StratifiedKFold, train_test_split

import rulelab
from benchmarks.library.bench_twolevel_kept import TWO, tuned
from benchmarks.library.bench_twolevel_kept import summary as kept_summary
from benchmarks.timing import cpu, ratio
from repro.two_level.theta_search import ThetaSearchCV
from rulelab import TwoLevelRules, load_dataset
from rulelab.twolevel.starts import SETCOVER_STARTS


def summary(search: ThetaSearchCV, X_test, y_test) -> tuple:
    """What must be equal between the two ways: what must be equal between two fits, and
    the refit's LP count (a kept start carries the count of LPs it took)."""
    return (*kept_summary(search, X_test, y_test), search.best_estimator_.n_lp_)


def pair(dataset: str, fold, test, kept: int) -> tuple[list[float], list[tuple], int]:
    """BCD then AM on ``fold`` with ``kept`` starts kept: (CPU seconds, summaries, starts
    found kept)."""
    SETCOVER_STARTS.clear()
    SETCOVER_STARTS.maxsize = kept
    times, fits = [], []
    for method in ("bcd", "am"):
        seconds, search = cpu(tuned(rulelab, method, dataset).fit, *fold)
        times.append(seconds)
        fits.append(summary(search, *test))
    return times, fits, SETCOVER_STARTS.hits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=["musk2"])
    parser.add_argument("--fold", type=int, default=0)
    parser.add_argument("--rows", type=int, default=None, help="subsample of the training fold")
    args = parser.parse_args()
    maxsize, all_same = SETCOVER_STARTS.maxsize, True
    TwoLevelRules(method="bcd", **TWO).fit(*load_dataset("sonar"))
    print(f"fold {args.fold}: BCD then AM, each computing its starts / AM taking BCD's")
    for dataset in args.datasets:
        X, y = load_dataset(dataset)
        split = StratifiedKFold(10, shuffle=True, random_state=0).split(X, y)
        train, test = list(split)[args.fold]
        if args.rows is not None and args.rows < len(train):
            train, _ = train_test_split(
                train, train_size=args.rows, stratify=y.iloc[train], random_state=0
            )
        fold, held_out = (X.iloc[train], y.iloc[train]), (X.iloc[test], y.iloc[test])
        # the new way first: whatever a process's first large fit costs more falls on it
        t_kept, kept, hits = pair(dataset, fold, held_out, kept=maxsize)
        t_each, each, _ = pair(dataset, fold, held_out, kept=0)
        same = each == kept
        all_same &= same
        chosen = "/".join(str(s[0]["complexity"]) for s in kept)
        print(
            f"  {dataset:10s} ({len(train)} rows)  each: BCD {t_each[0]:7.1f} + AM "
            f"{t_each[1]:7.1f} s CPU   kept: BCD {t_kept[0]:7.1f} + AM {t_kept[1]:7.1f} s CPU"
            f"   pair {ratio(sum(t_each), sum(t_kept)):4.2f}x, AM {ratio(t_each[1], t_kept[1]):4.2f}x"
            f" (BCD {ratio(t_each[0], t_kept[0]):4.2f}x)"
            f"   starts kept {hits}   theta BCD/AM {chosen}   same fits: {same}"
        )
    SETCOVER_STARTS.maxsize = maxsize
    if not all_same:
        raise SystemExit("the fits differ")


if __name__ == "__main__":
    main()
