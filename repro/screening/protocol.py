"""Notebook 04's protocol: the threshold-placement sweep beside the paper's Table 1 counts and
its readings, and Table 3's timings over the timed datasets."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from repro.screening.experiments import design_sweep, screening_timings

__all__ = ["PLACEMENT_SETS", "placement_readings", "placement_sweep", "timings"]

#: The datasets of the placement sweep (the paper's name of each): the two whose counts
#: fall short of the paper's on the same data.
PLACEMENT_SETS = {"banknote": "Banknote", "ionosphere": "Ionosphere"}


def placement_sweep(
    paper: pd.DataFrame, thresholds: Sequence[int], lam: float, level: str = "basic"
) -> pd.DataFrame:
    """The simple, duality and total counts of :func:`design_sweep` per dataset of
    :data:`PLACEMENT_SETS` and threshold count, beside the paper's.

    Parameters
    ----------
    paper : pandas.DataFrame
        The paper's Table 1 (``paper3_table1``: dataset, thresholds, simple, duality, total).
    thresholds : sequence of int
        Thresholds per feature.
    lam : float
        The LP's lambda.
    level : str, default="basic"
        The tests' level.

    Returns
    -------
    pandas.DataFrame
        One row per (dataset, thresholds, test): the paper's count, ours under our default
        placement (the sweep's first: inner levels, linear quantiles, ``x <= t``), the least
        and most over all placements, how many placements give the paper's count, and how
        many placements there are.
    """
    paper_counts = paper.set_index(["dataset", "thresholds"])
    rows = []
    for ds, name in PLACEMENT_SETS.items():
        for T in thresholds:
            sweep = design_sweep(ds, T, level, lam)
            ref = paper_counts.loc[(name, T)]
            default = sweep.iloc[0]
            for test in ("simple", "duality", "total"):
                rows.append(
                    {
                        "dataset": name,
                        "thresholds": T,
                        "test": test,
                        "paper": int(ref[test]),
                        "ours (default)": int(default[test]),
                        "min over placements": int(sweep[test].min()),
                        "max over placements": int(sweep[test].max()),
                        "placements matching the paper": int((sweep[test] == ref[test]).sum()),
                        "placements": len(sweep),
                    }
                )
    return pd.DataFrame(rows)


def placement_readings(placement: pd.DataFrame) -> list[str]:
    """One sentence per (dataset, thresholds) of :func:`placement_sweep`: whether our default
    placement gives the paper's counts, whether some placement reaches the paper's total, and
    how many give its simple count."""
    lines = []
    for (name, T), g in placement.groupby(["dataset", "thresholds"]):
        g = g.set_index("test")
        default_is_paper = (g["ours (default)"] == g["paper"]).all()
        reachable = g.loc["total", "max over placements"] >= g.loc["total", "paper"]
        lines.append(
            f"{name} at {T} thresholds: our default placement "
            f"{'gives' if default_is_paper else 'does not give'} the paper's counts; the "
            f"paper's total is {'within reach of' if reachable else 'above'} all "
            f"{g.placements.iloc[0]} placements; the paper's simple count is matched by "
            f"{g.loc['simple', 'placements matching the paper']} of them"
        )
    return lines


def timings(
    rows: Mapping[str, int | None],
    thresholds: Sequence[int],
    lam: float,
    time_limit: float | None,
    seed: int,
    n_jobs: int = 1,
) -> pd.DataFrame:
    """Table 3's timings (:func:`screening_timings`) of each dataset of ``rows`` on that many
    sampled rows (None: every row), at each threshold count, ``n_jobs`` units side by side
    (one per core); the rows in the order of ``rows``, then of ``thresholds``."""
    return screening_timings(
        list(rows), thresholds, lam, time_limit, rows=dict(rows), seed=seed, n_jobs=n_jobs
    )
