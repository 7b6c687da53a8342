"""Notebook 02's protocol: the line-up of paper 1's rule learners, the paper's error column
they are judged against, and the tables of the gap analysis, of RuSC's stopping rule and of
the scale of eq. (11), each cross-validated on the same folds as Table 1."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from repro.core.reference import paper_table
from repro.core.runner import cross_validate, summarize
from rulelab import BoostedLPRules, OneRule, SetCoverRules

__all__ = [
    "BASELINES",
    "GAP",
    "OURS",
    "gap_analysis",
    "gap_readings",
    "paper_errors",
    "rule_learners",
    "stopping_table",
    "weight_scale_table",
]

#: Our rule learners, in the order of the tables (RuSC-rr: RuSC with randomized rounding).
OURS = ["1Rule", "RuSC", "RuSC-rr", "RuB"]
#: The open baselines (``repro.peers.baselines.paper1_baselines``), in the order of the tables.
BASELINES = ["CART", "TrBag", "kNN", "Discr", "SVM", "RIPPER"]
#: A rule learner this much worse than the paper on a dataset calls for the gap analysis.
GAP = 0.05


def rule_learners(lam: float, n_thresholds: int, n_rounds: int) -> dict[str, object]:
    """Paper 1's learners with its settings: 1Rule, RuSC (threshold rounding, the paper's),
    RuSC-rr (randomized rounding, footnote 2's alternative) and RuB (``n_rounds`` rounds of
    Algorithm 1), all with lambda ``lam`` (``complexity = 1 / lam``) and ``n_thresholds``
    quantile thresholds per feature in both directions."""
    return {
        "1Rule": OneRule(complexity=1 / lam, n_thresholds=n_thresholds),
        "RuSC": SetCoverRules(complexity=1 / lam, n_thresholds=n_thresholds),
        "RuSC-rr": SetCoverRules(
            complexity=1 / lam, n_thresholds=n_thresholds, rounding="randomized", random_state=0
        ),
        "RuB": BoostedLPRules(n_estimators=n_rounds, complexity=1 / lam, n_thresholds=n_thresholds),
    }


def paper_errors() -> pd.DataFrame:
    """The paper's Table 1 (long: dataset, method, error), with its one RuSC column repeated
    as RuSC-rr's: it is the reference for both of our roundings."""
    paper = paper_table("paper1_table1_error")
    return pd.concat([paper, paper[paper.method == "RuSC"].assign(method="RuSC-rr")])


def gap_analysis(
    comparison: pd.DataFrame,
    paper: pd.DataFrame,
    learners: dict[str, object],
    *,
    lam: float,
    n_thresholds: int,
    repeat_seeds: Sequence[int],
    exact_time_limit: float,
    n_splits: int,
    random_state: int,
    max_folds: int | None,
    n_jobs: int,
) -> tuple[list[str], pd.DataFrame, pd.DataFrame | None]:
    """Where one of :data:`OURS` is more than :data:`GAP` worse than the paper, is it the fold
    split or the LP solution?

    Parameters
    ----------
    comparison : pandas.DataFrame
        Table 1 beside the paper (:func:`repro.rule_sets.experiments.compare_to_paper`).
    paper : pandas.DataFrame
        The paper's errors (:func:`paper_errors`).
    learners : dict
        :func:`rule_learners`, rerun on other fold splits.
    lam, n_thresholds : float, int
        The learners' settings, for the exact 0/1 and randomized-rounding variants.
    repeat_seeds : sequence of int
        Fold-split seeds beside ``random_state`` for the split spread.
    exact_time_limit : float
        Seconds per exact 0/1 solve.
    n_splits, random_state, max_folds, n_jobs
        As in :func:`repro.core.runner.cross_validate` (Table 1's folds).

    Returns
    -------
    gap_sets : list of str
        The datasets with a gap, sorted.
    spread : pandas.DataFrame
        Per (dataset, method): min, mean and max error over the fold splits, the paper's
        error and ``paper - best split`` (empty without a gap).
    exact : pandas.DataFrame or None
        Mean error and terms of the LP-rounded, randomized-rounding and exact 0/1 variants on
        Table 1's folds (None without a gap).
    """
    gapped = comparison[comparison.method.isin(OURS) & (comparison["diff"] > GAP)]
    gap_sets = sorted(set(gapped.dataset))
    if not gap_sets:
        return gap_sets, pd.DataFrame(), None
    cv = dict(n_splits=n_splits, n_jobs=n_jobs, max_folds=max_folds)
    repeats = pd.concat(
        [
            cross_validate(learners, gap_sets, random_state=s, **cv).assign(split_seed=s)
            for s in [random_state] + list(repeat_seeds)
        ]
    )
    per_split = repeats.groupby(["dataset", "method", "split_seed"]).error.mean().reset_index()
    spread = (
        per_split.groupby(["dataset", "method"]).error.agg(["min", "mean", "max"]).reset_index()
    )
    spread = spread.merge(
        paper[["dataset", "method", "error"]].rename(columns={"error": "paper"}),
        on=["dataset", "method"],
    )
    spread["paper - best split"] = spread.paper - spread["min"]
    variants = {
        "1Rule": learners["1Rule"],
        "1Rule exact 0/1": OneRule(
            complexity=1 / lam,
            n_thresholds=n_thresholds,
            exact=True,
            lp_time_limit=exact_time_limit,
        ),
        "RuSC": learners["RuSC"],
        "RuSC randomized rounding": SetCoverRules(
            complexity=1 / lam, n_thresholds=n_thresholds, rounding="randomized", random_state=0
        ),
        "RuSC exact 0/1": SetCoverRules(
            complexity=1 / lam,
            n_thresholds=n_thresholds,
            exact=True,
            lp_time_limit=exact_time_limit,
        ),
    }
    exact_runs = cross_validate(variants, gap_sets, random_state=random_state, **cv)
    exact = summarize(exact_runs).merge(
        summarize(exact_runs, "n_terms")[["dataset", "method", "n_terms"]],
        on=["dataset", "method"],
    )
    return gap_sets, spread, exact


def gap_readings(
    gap_sets: Sequence[str], spread: pd.DataFrame, exact: pd.DataFrame | None, paper: pd.DataFrame
) -> list[str]:
    """One sentence per dataset of :func:`gap_analysis`: where the paper's RuSC lies against
    our split-seed range, and what the rounding-free 0/1 optimum of the same objective gives."""
    lines = []
    for ds in gap_sets:
        e = exact[exact.dataset == ds].set_index("method")
        p = paper[paper.dataset == ds].set_index("method").error
        rusc = spread[(spread.dataset == ds) & (spread.method == "RuSC")]
        low, high = rusc["min"].item(), rusc["max"].item()
        where = "lies below our whole" if p["RuSC"] < low else "lies inside our"
        lines.append(
            f"{ds}: the paper's RuSC {p['RuSC']:.3f} {where} split-seed range "
            f"[{low:.3f}, {high:.3f}]; "
            f"rounding-free, the same objective gives 1Rule {e.loc['1Rule exact 0/1', 'error']:.3f} "
            f"({e.loc['1Rule exact 0/1', 'n_terms']:.1f} terms, LP-rounded "
            f"{e.loc['1Rule', 'error']:.3f} with {e.loc['1Rule', 'n_terms']:.1f}) and RuSC "
            f"{e.loc['RuSC exact 0/1', 'error']:.3f} (LP-rounded {e.loc['RuSC', 'error']:.3f}, "
            f"randomized rounding {e.loc['RuSC randomized rounding', 'error']:.3f})."
        )
    return lines


def stopping_table(
    rusc: object,
    datasets: Sequence[str],
    paper: pd.DataFrame,
    *,
    lam: float,
    n_thresholds: int,
    **cv,
) -> pd.DataFrame:
    """RuSC's error and clauses per dataset under its stopping rule and under the no-gain stop
    (``stop_on_no_gain=True``, an earlier reading of ours), beside the paper's RuSC error
    (``paper``: :func:`paper_errors`) and clause count (Table 2). ``rusc`` is the RuSC of
    :func:`rule_learners`; ``cv`` are :func:`repro.core.runner.cross_validate`'s keywords."""
    no_gain = SetCoverRules(complexity=1 / lam, n_thresholds=n_thresholds, stop_on_no_gain=True)
    runs = cross_validate({"RuSC": rusc, "RuSC (no-gain stop)": no_gain}, datasets, **cv)
    stopping = (
        summarize(runs)
        .pivot(index="dataset", columns="method", values="error")
        .join(
            summarize(runs, "n_rules")
            .pivot(index="dataset", columns="method", values="n_rules")
            .add_suffix(" clauses")
        )
    )
    paper_clauses = (
        paper_table("paper1_table2_clauses").query("method == 'RuSC'").set_index("dataset").n_rules
    )
    stopping["paper RuSC"] = paper[paper.method == "RuSC"].set_index("dataset").error
    stopping["paper RuSC clauses"] = paper_clauses
    return stopping


def weight_scale_table(
    rub: object,
    datasets: Sequence[str],
    paper: pd.DataFrame,
    *,
    lam: float,
    n_thresholds: int,
    n_rounds: int,
    **cv,
) -> pd.DataFrame:
    """RuB's error and terms per dataset with the sample weights scaled by m (``rub``, our
    default of :func:`rule_learners`) and as eq. (11) writes them (``weight_scale="sum1"``),
    beside the paper's RuB error; ``cv`` are :func:`repro.core.runner.cross_validate`'s
    keywords."""
    literal = BoostedLPRules(
        n_estimators=n_rounds, complexity=1 / lam, n_thresholds=n_thresholds, weight_scale="sum1"
    )
    runs = cross_validate({"RuB (scale m)": rub, "RuB (eq. 11 literal)": literal}, datasets, **cv)
    scale = summarize(runs).pivot(index="dataset", columns="method", values="error")
    terms = summarize(runs, "n_terms").pivot(index="dataset", columns="method", values="n_terms")
    return scale.join(terms.add_suffix(" terms")).join(
        paper[paper.method == "RuB"].set_index("dataset").error.rename("paper RuB")
    )
