"""The experiments behind paper 3's Tables 1-3, one cached unit per (dataset, thresholds).

The problem screened is paper 1's: an AND-clause for the positive class learned through De
Morgan, i.e. the OR-clause LP on ``1 - A`` and ``1 - y`` (paper 3, eq. 3-4), with
``lam = 1000`` (paper 1; paper 3 gives no value). The design is the paper's:
:func:`rulelab.screening.threshold_design` (``2 x features x thresholds`` columns).

Every finished unit is a small JSON file of the one cached runner (:func:`repro.core.cache.cached`),
so an interrupted FULL run resumes where it stopped; units run through joblib with a tqdm
bar. Table 3's timings run one at a time: beside another unit on the other core, its
long times moved by 2-9 % but its sub-second screening times by up to 1.8x
(``benchmarks/repro/bench_side_by_side.py``), and those enter the verdicts.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from repro.core.cache import cached
from repro.core.runner import side_by_side
from rulelab.data import load_dataset
from rulelab.lp import learn_clause
from rulelab.screening import screen, threshold_design

__all__ = [
    "and_problem",
    "design_sweep",
    "count_row",
    "timing_row",
    "screening_counts",
    "screening_timings",
    "beside_counts",
    "table3",
    "plot_times",
    "split_counts",
    "PAPER_NAMES",
]

PAPER_NAMES = {
    "ionosphere": "Ionosphere",
    "banknote": "Banknote",
    "magic": "MAGIC",
    "gas_drift_partial": "Gas",
}


def and_problem(
    dataset: str, n_thresholds: int, positive=None, rows: int | None = None, seed: int = 0, **design
):
    """``A`` (paper design), ``y``, the terms and the nested groups of one dataset.

    ``rows`` draws a random subset of that many samples (seeded) before binarising;
    ``design`` goes to :func:`rulelab.screening.threshold_design` (threshold placement).
    """
    X, y = load_dataset(dataset, positive=positive)
    if rows is not None and rows < len(X):
        keep = np.sort(np.random.default_rng(seed).choice(len(X), rows, replace=False))
        X, y = X.iloc[keep].reset_index(drop=True), y.iloc[keep].reset_index(drop=True)
    A, terms, groups = threshold_design(X, n_thresholds, **design)
    return A, y.to_numpy().astype(np.uint8), terms, groups


def _cached(kind: str, key: dict, compute, use_cache: bool = True) -> dict:
    """One unit's row (``key`` and what ``compute()`` measured) from the one cached runner
    (:func:`repro.core.cache.cached`), keyed by ``key`` and the code of this module and every
    module it imports."""
    return cached(
        f"screening/{kind}", key, lambda: {**key, **compute()}, code=__name__, cache=use_cache
    )


def count_row(
    dataset: str, n_thresholds: int, level: str, lam: float = 1000.0, positive=None
) -> dict:
    """Columns screened on one dataset, counted like the paper: each test alone on all
    columns, then their union; also the total when the duality test follows the simple
    tests (what ``learn_clause(screening=...)`` does)."""
    A, y, terms, groups = and_problem(dataset, n_thresholds, positive)
    # De Morgan: the AND problem is the OR problem on 1 - A, where the chains run backwards.
    flipped = [g[::-1] for g in groups]
    alone = screen(1 - A, 1 - y, lam, level=level, groups=flipped, sequential=False).report
    seq = screen(1 - A, 1 - y, lam, level=level, groups=flipped, sequential=True).report
    return {
        "features": len({t.feature for t in terms}),
        "columns": A.shape[1],
        "rows": A.shape[0],
        "simple": alone["simple"],
        "counting": alone["counting"],
        "pairwise": alone["pairwise"],
        "duality": alone["duality"],
        "total": alone["total"],
        "fraction": alone["fraction"],
        "total_sequential": seq["total"],
        "fraction_sequential": seq["fraction"],
        "time_screen": alone["time"],
        "time_screen_sequential": seq["time"],
    }


def design_sweep(
    dataset: str, n_thresholds: int = 10, level: str = "basic", lam: float = 1000.0, positive=None
) -> pd.DataFrame:
    """Columns screened under every threshold placement :func:`threshold_design` knows.

    The papers say "quantile thresholds" and nothing more. This counts the simple and the
    duality test (each alone, then the union, as in the paper's tables) for each placement
    of the levels, each :func:`numpy.quantile` method that differs on tied data, and both
    inequality conventions, to see whether any of them gives the paper's counts.
    """
    rows = []
    for levels in ("inner", "lower", "mid", "upper", "range"):
        methods = (
            ["linear"]
            if levels == "range"
            else ["linear", "hazen", "weibull", "inverted_cdf", "nearest"]
        )
        for method in methods:
            for strict in (False, True):
                A, y, _, groups = and_problem(
                    dataset,
                    n_thresholds,
                    positive,
                    levels=levels,
                    quantile_method=method,
                    strict=strict,
                )
                rep = screen(
                    1 - A,
                    1 - y,
                    lam,
                    level=level,
                    groups=[g[::-1] for g in groups],
                    sequential=False,
                ).report
                rows.append(
                    {
                        "levels": levels,
                        "quantile": method,
                        "inequality": "x < t" if strict else "x <= t",
                        "columns": A.shape[1],
                        "simple": rep["simple"],
                        "duality": rep["duality"],
                        "total": rep["total"],
                    }
                )
    return pd.DataFrame(rows)


def _rule(terms, selected) -> str:
    return " AND ".join(str(terms[j]) for j in sorted(selected)) or "(empty)"


def timing_row(
    dataset: str,
    n_thresholds: int,
    lam: float = 1000.0,
    time_limit: float | None = None,
    rows: int | None = None,
    seed: int = 0,
    positive=None,
    full_formulations=("reduced",),
    relaxation: bool = False,
) -> dict:
    """Seconds to the optimal 0/1 AND-clause: the full problem vs screening + reduced problem.

    Every time is wall-clock around :func:`rulelab.lp.learn_clause` (De Morgan, checks,
    building the LP and HiGHS), so the ratios compare what a user waits for; ``*_cpu`` is
    the process CPU time of the same call, which other users' load on the machine does not
    inflate. The time limit (HiGHS counts wall-clock seconds) applies to each solve. ``full_<f>``
    is the unscreened MILP in formulation ``f`` (``"reduced"``: paper 3 eq. 4, our default;
    ``"full"``: paper 1 eq. 10 as written). ``relaxation=True`` also times the LP
    relaxation with and without the LP-safe tests (counting and pairwise).
    """
    A, y, terms, groups = and_problem(dataset, n_thresholds, positive, rows, seed)
    out: dict = {"columns": A.shape[1], "rows": A.shape[0]}
    kw = dict(exact=True, time_limit=time_limit)
    for level in ("basic", "enhanced"):
        t0, c0 = time.perf_counter(), time.process_time()
        r = learn_clause(A, y, "and", lam, screening=level, screening_groups=groups, **kw)
        total, cpu = time.perf_counter() - t0, time.process_time() - c0
        out.update(
            {
                f"{level}_screen": r.info["screen_time"],
                f"{level}_lp": total - r.info["screen_time"],
                f"{level}_total": total,
                f"{level}_cpu": cpu,
                f"{level}_kept": r.info["screening"]["kept"],
                f"{level}_objective": r.objective,
                f"{level}_rule": _rule(terms, r.selected),
                f"{level}_status": r.status,
            }
        )
    for form in full_formulations:
        t0, c0 = time.perf_counter(), time.process_time()
        r = learn_clause(A, y, "and", lam, formulation=form, **kw)
        out.update(
            {
                f"full_{form}": time.perf_counter() - t0,
                f"full_{form}_cpu": time.process_time() - c0,
                f"full_{form}_status": r.status,
                f"full_{form}_objective": r.objective,
                f"full_{form}_rule": _rule(terms, r.selected),
            }
        )
    if relaxation:
        t0 = time.perf_counter()
        r = learn_clause(
            A, y, "and", lam, screening="enhanced", screening_groups=groups, time_limit=time_limit
        )
        out.update(
            {
                "lp_screened": time.perf_counter() - t0,
                "lp_screened_value": r.lp_value,
                "lp_kept": r.info["screening"]["kept"],
            }
        )
        t0 = time.perf_counter()
        r = learn_clause(A, y, "and", lam, time_limit=time_limit)
        out.update(
            {
                "lp_full": time.perf_counter() - t0,
                "lp_full_value": r.lp_value,
                "lp_full_status": r.status,
            }
        )
    return out


def screening_counts(
    datasets,
    thresholds,
    level: str,
    lam: float = 1000.0,
    positive=None,
    n_jobs: int = 1,
    use_cache: bool = True,
) -> pd.DataFrame:
    """Table 1 (``level="basic"``) or Table 2 (``"enhanced"``) as a DataFrame."""
    units = []
    for ds in datasets:
        for T in thresholds:
            key = {
                "dataset": ds,
                "thresholds": T,
                "level": level,
                "lam": lam,
                "positive": None if positive is None else list(map(str, positive)),
            }
            units.append(
                lambda key=key: _cached(
                    "count",
                    key,
                    lambda: count_row(
                        key["dataset"], key["thresholds"], key["level"], key["lam"], key["positive"]
                    ),
                    use_cache,
                )
            )
    return pd.DataFrame(side_by_side(units, n_jobs, desc=f"screening counts ({level})"))


def screening_timings(
    datasets,
    thresholds,
    lam: float = 1000.0,
    time_limit: float | None = None,
    rows=None,
    seed: int = 0,
    use_cache: bool = True,
    n_jobs: int = 1,
) -> pd.DataFrame:
    """Table 3 (and the growth with the number of rows) as a DataFrame.

    ``rows``: the rows sampled, a list (every dataset at each count; None: every row) or
    a mapping from dataset to its count. ``n_jobs`` timed units run side by side, one per
    core (:func:`repro.core.runner.side_by_side`), the most thresholds first."""
    units, cost = [], []
    for ds in datasets:
        for T in thresholds:
            for m in [rows[ds]] if isinstance(rows, Mapping) else rows or [None]:
                key = {
                    "dataset": ds,
                    "thresholds": T,
                    "lam": lam,
                    "time_limit": time_limit,
                    "rows_requested": m,
                    "seed": seed,
                }
                cost.append(T)  # the columns grow with the thresholds, and the time faster
                units.append(
                    lambda key=key: _cached(
                        "time",
                        key,
                        lambda: timing_row(
                            key["dataset"],
                            key["thresholds"],
                            key["lam"],
                            key["time_limit"],
                            key["rows_requested"],
                            key["seed"],
                        ),
                        use_cache,
                    )
                )
    return pd.DataFrame(side_by_side(units, n_jobs, cost=cost, desc="screening timings"))


# ------------------------------------------------------------------ tables and figures

SAME_DATA = {"Ionosphere": True, "Banknote": True, "MAGIC": True, "Gas": False}


def beside_counts(ours: pd.DataFrame, paper: pd.DataFrame) -> pd.DataFrame:
    """Our Table 1/2 rows with the paper's numbers beside (``_ours`` / ``_paper``)."""
    ours = ours.assign(dataset=ours.dataset.map(PAPER_NAMES).fillna(ours.dataset))
    cols = ["columns", "simple", "duality", "total", "fraction"]
    merged = ours[["dataset", "thresholds", *cols]].merge(
        paper[["dataset", "thresholds", *cols]],
        on=["dataset", "thresholds"],
        how="left",
        suffixes=("_ours", "_paper"),
    )
    merged["same_data"] = merged.dataset.map(SAME_DATA).fillna(False)
    merged["fraction_ours"] = merged.fraction_ours.round(3)
    order = ["dataset", "thresholds", "same_data"] + [
        f"{c}_{s}" for c in cols for s in ("ours", "paper")
    ]
    return merged[order]


def table3(times: pd.DataFrame, paper: pd.DataFrame | None = None) -> pd.DataFrame:
    """Table 3 in the paper's layout (seconds), the speed-up ratios, and the check that the
    screened and full problems give the same optimal clause."""
    t = pd.DataFrame(
        {
            "dataset": times.dataset.map(PAPER_NAMES).fillna(times.dataset),
            "rows": times["rows"],
            "thresholds": times.thresholds,
            "columns": times["columns"],
            "full": times.full_reduced,
            "full_status": times.full_reduced_status,
            "a_screen": times.basic_screen,
            "a_lp": times.basic_lp,
            "a_total": times.basic_total,
            "b_screen": times.enhanced_screen,
            "b_lp": times.enhanced_lp,
            "b_total": times.enhanced_total,
        }
    )
    t["ratio_a"] = t.full / t.a_total
    t["ratio_b"] = t.full / t.b_total
    t["ratio_b_cpu"] = times.full_reduced_cpu / times.enhanced_cpu
    # A full solve stopped by the time limit proves nothing about the optimum: None there.
    done = times.full_reduced_status == "optimal"
    t["same_value"] = [
        bool(
            np.isclose(r.full_reduced_objective, r.basic_objective)
            and np.isclose(r.full_reduced_objective, r.enhanced_objective)
        )
        if ok
        else None
        for r, ok in zip(times.itertuples(), done)
    ]
    t["same_rule"] = [
        r.full_reduced_rule == r.basic_rule == r.enhanced_rule if ok else None
        for r, ok in zip(times.itertuples(), done)
    ]
    t["rule"] = times.enhanced_rule
    if paper is not None:
        p = paper.rename(columns={c: f"paper_{c}" for c in paper.columns if c != "thresholds"})
        p["paper_ratio_b"] = p.paper_full / p.paper_b_total
        p["dataset"] = "Gas"
        t = t.merge(
            p[["dataset", "thresholds", "paper_full", "paper_b_total", "paper_ratio_b"]],
            on=["dataset", "thresholds"],
            how="left",
        )
    return t


def plot_times(t3: pd.DataFrame, paper: pd.DataFrame | None = None):
    """Seconds vs number of thresholds, full vs screening + reduced, one panel per dataset."""
    import matplotlib.pyplot as plt

    names = list(dict.fromkeys(t3.dataset))
    fig, axes = plt.subplots(1, len(names), figsize=(5.2 * len(names), 3.8), squeeze=False)
    for ax, name in zip(axes[0], names):
        d = t3[t3.dataset == name].sort_values("thresholds")
        ax.plot(d.thresholds, d.full, "o-", label="full (no screening)")
        ax.plot(d.thresholds, d.a_total, "s-", label="basic screening + reduced")
        ax.plot(d.thresholds, d.b_total, "^-", label="enhanced screening + reduced")
        if paper is not None and name == "Gas":
            ax.plot(paper.thresholds, paper.full, "o--", color="0.5", label="paper: full (CPLEX)")
            ax.plot(paper.thresholds, paper.b_total, "^--", color="0.7", label="paper: enhanced")
        ax.set(
            xscale="log",
            yscale="log",
            xlabel="thresholds per feature",
            ylabel="seconds",
            title=f"{name} ({int(d['rows'].iloc[0]):,} rows)",
        )
        ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def split_counts(
    dataset: str,
    thresholds,
    splits: dict,
    lam: float = 1000.0,
    levels=("basic", "enhanced"),
    use_cache: bool = True,
) -> pd.DataFrame:
    """Fraction screened for several choices of the positive class (``splits``: name ->
    labels), each test alone then the union. The design is built at most once per threshold
    count (and not at all when every unit is cached)."""
    out = []
    for T in tqdm(thresholds, desc="positive-class splits"):
        design: dict = {}  # built on first need

        def compute(pos, level, T=T, design=design):
            if not design:
                A, _, _, groups = and_problem(dataset, T)
                design.update(A=1 - A, groups=[g[::-1] for g in groups])  # De Morgan
            y = load_dataset(dataset, positive=pos)[1].to_numpy().astype(np.uint8)
            rep = screen(
                design["A"], 1 - y, lam, level=level, groups=design["groups"], sequential=False
            ).report
            return {
                **{k: rep[k] for k in ("simple", "duality", "total", "fraction", "time")},
                "positives": int(y.sum()),
            }

        for name, pos in splits.items():
            for level in levels:
                key = {
                    "dataset": dataset,
                    "thresholds": T,
                    "level": level,
                    "lam": lam,
                    "positive": list(map(str, pos)),
                }
                row = _cached(
                    "split", key, lambda pos=pos, level=level: compute(pos, level), use_cache
                )
                out.append({**row, "split": name})
    return pd.DataFrame(out)
