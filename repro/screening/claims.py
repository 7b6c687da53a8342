"""Paper 3 (screening): the claims of notebook 04, each with its verdict and evidence.

Kept apart from :mod:`repro.screening.experiments` on purpose: its result caches are keyed by the
source of that module, and the wording of a verdict is not part of an experiment.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from repro.core.verdicts import all_of, compare_ratio

__all__ = ["claims"]


def claims(t1: pd.DataFrame, t2: pd.DataFrame, t3: pd.DataFrame) -> pd.DataFrame:
    """The paper's claims, each judged from our results: holds / does not hold / tie / not
    testable (:mod:`repro.core.verdicts`; the column counts are exact, the times single runs).

    ``t1``, ``t2`` are :func:`beside_counts` tables (basic, enhanced), ``t3`` a :func:`table3`.
    """
    rows = []

    def add(claim, ours, verdict):
        rows.append({"claim": claim, "ours": ours, "verdict": verdict})

    both = pd.concat([t1.assign(level="basic"), t2.assign(level="enhanced")])
    low = both.fraction_ours.min()
    add(
        "the tests screen a very large fraction of columns (paper: 0.80-0.99)",
        f"fraction {low:.3f}-{both.fraction_ours.max():.3f}",
        "holds" if low >= 0.8 else "does not hold",
    )
    ge = t2.total_ours.to_numpy() >= t1.total_ours.to_numpy()
    add(
        "enhanced tests screen at least as many columns as basic",
        f"{ge.sum()} of {ge.size} rows",
        "holds" if ge.all() else "does not hold",
    )
    if both.thresholds.nunique() > 1:
        by = both.groupby(["level", "dataset"])
        spread = by.fraction_ours.agg(lambda f: f.max() - f.min())
        # 'stable' as stable as the paper's own tables: its largest spread is the tolerance
        paper_spread = by.fraction_paper.agg(lambda f: f.max() - f.min()).max()
        up = (
            both.sort_values("thresholds")
            .groupby(["level", "dataset"])
            .fraction_ours.agg(lambda f: f.iloc[-1] >= f.iloc[0])
        )
        add(
            "the fraction is stable across thresholds and tends to improve with more",
            f"largest spread {spread.max():.3f} against the paper's own largest "
            f"{paper_spread:.3f}; higher at the most thresholds in {up.sum()} of {up.size}; "
            "'stable' read as a spread no larger than the paper's tables show, 'tends to' "
            "as at least half the groups (readings ours)",
            "holds" if spread.max() <= paper_spread and up.mean() >= 0.5 else "does not hold",
        )
    else:
        add(
            "the fraction is stable across thresholds and tends to improve with more",
            "one threshold count run",
            "not testable",
        )
    # per row: the columns both tests screen, as a share of the smaller test's
    both_tests = both.simple_ours + both.duality_ours - both.total_ours
    overlap = both_tests / np.minimum(both.simple_ours, both.duality_ours).clip(lower=1)
    neither = (both.total_ours > both.simple_ours) & (both.total_ours > both.duality_ours)
    add(
        "simple and duality tests overlap, neither is a superset of the other",
        f"in each row, the columns both screen as a share of the smaller test's: "
        f"{overlap.min():.2f}-{overlap.max():.2f}; neither test screens all the union's "
        f"columns in {int(neither.sum())} of {len(both)} rows; 'a good deal of overlap' read "
        "as at least half of the smaller test's columns in every row (tolerance ours)",
        "holds" if (overlap >= 0.5).all() and neither.mean() > 0.5 else "does not hold",
    )
    # the same data as the screening sees it: the simple (counting) test depends on the
    # binarised data alone, so a row whose simple count differs from the paper's has other
    # columns, whatever the data set's name
    same = both[both.same_data]
    alike = same[same.simple_ours == same.simple_paper]
    ok = alike.total_ours >= alike.total_paper
    add(
        "our tests screen at least the paper's columns where the data are the same",
        f"{ok.sum()} of {ok.size} rows whose simple-test count equals the paper's ("
        + ", ".join(f"{r.dataset} {r.thresholds}" for r in alike.itertuples())
        + f"); on the other {len(same) - len(alike)} rows of Ionosphere, Banknote and MAGIC "
        "the simple count, which depends only on the binarised data, already differs from the "
        "paper's (the paper's quantile placement is not stated), so the columns are not the "
        "same",
        ("holds" if ok.all() else "does not hold") if len(alike) else "not testable",
    )
    # times are single runs: a ratio within 1/1.5-1.5 of its target is timing noise (ours)
    add(
        "screening + reduced problem is much faster than the full problem",
        f"speed-up (enhanced) {t3.ratio_b.min():.1f}x-{t3.ratio_b.max():.1f}x; tolerance ours: "
        "'much faster' read as more than 2x, within a factor 1.5 of it a tie",
        all_of(compare_ratio(r / 2) for r in t3.ratio_b),
    )
    # the paper times gas only: judged there at every threshold count, MAGIC shown beside
    gas = t3[t3.dataset == "Gas"]
    other = t3[t3.dataset != "Gas"]
    add(
        "enhanced screening gives a lower total time than basic on gas, at every threshold count",
        "Gas (enhanced vs basic): "
        + ", ".join(
            f"{r.thresholds}: {r.b_total:.2f} vs {r.a_total:.2f} s" for r in gas.itertuples()
        )
        + "; tolerance ours: a time ratio within 1/1.5-1.5 is timing noise, a tie; not judged "
        "(the paper timed gas only): "
        + (
            ", ".join(
                f"{r.dataset} {r.thresholds}: {r.b_total:.2f} vs {r.a_total:.2f} s"
                for r in other.itertuples()
            )
            or "none"
        ),
        all_of(compare_ratio(r.a_total / r.b_total) for r in gas.itertuples())
        if len(gas)
        else "not testable",
    )
    gas100 = t3[(t3.dataset == "Gas") & (t3.thresholds == 100) & t3["rows"].ge(6000)]
    if len(gas100):
        r = gas100.iloc[0]
        bound = ">= " if r.full_status != "optimal" else ""
        add(
            "14.6x speed-up on gas at 100 thresholds with the enhanced tests",
            f"{bound}{r.ratio_b:.1f}x, {r.ratio_b / 14.6:.0f} times the paper's: read as 'at least "
            "14.6x' (a ratio within a factor 1.5 of it is a tie, tolerance ours); the size is "
            f"not reproduced: our gas has {int(r['rows'])} of the paper's 13,910 rows and "
            "another solver times the full problem",
            compare_ratio(r.ratio_b / 14.6).verdict,
        )
    else:
        add(
            "14.6x speed-up on gas at 100 thresholds with the enhanced tests",
            "gas at 100 thresholds not timed in this mode",
            "not testable",
        )
    # the gain of the enhanced tests, by data set (mean over the threshold counts)
    gain = (
        (
            t2.set_index(["dataset", "thresholds"]).fraction_ours
            - t1.set_index(["dataset", "thresholds"]).fraction_ours
        )
        .groupby(level="dataset")
        .mean()
    )
    if "Gas" in gain.index and len(gain) > 1:
        add(
            "the gain of the enhanced over the basic tests is largest on gas",
            "enhanced minus basic fraction screened, mean over the threshold counts: "
            + ", ".join(f"{d} {g:+.3f}" for d, g in gain.sort_values(ascending=False).items())
            + "; exact counts",
            "holds" if gain.idxmax() == "Gas" else "does not hold",
        )
    add(
        "on gas the basic tests screen 81% of the columns and the enhanced tests 93%",
        "our gas is not the paper's: 8 of its 10 batches, 6,697 of 13,910 rows, and the paper "
        "does not say how its six gases became two classes; across random splits of ours the "
        "fraction ranges widely (screening_gas_splits.csv), so the paper's two numbers cannot "
        "be compared with ours",
        "not testable",
    )
    big = t3[(t3.dataset == "Gas") & (t3.thresholds == 100)]
    if len(big):
        r = big.iloc[0]
        solved = r.full_status == "optimal" and bool(r.same_value)
        add(
            "with 100 thresholds on gas the 25,600-variable binary problem is solved to "
            "optimality in under 15 s",
            f"{int(r.columns)} columns: screening and the reduced problem {r.b_total:.2f} s "
            f"(one run), {'the full optimum reached' if solved else 'the full optimum not checked'}"
            f"; our gas has {int(r['rows'])} of the paper's 13,910 rows and HiGHS solves it",
            "holds" if solved and r.b_total < 15 else "does not hold",
        )
    checked = t3[t3.same_value.notna()]
    add(
        "the screened and the full problem have the same optimum (screening is safe)",
        f"same optimal value in {int(checked.same_value.sum())} of {len(checked)}; among tied "
        f"optima the solver may return another clause: the same rule in "
        f"{int(checked.same_rule.sum())} of {len(checked)} solved runs",
        "not testable"
        if checked.empty
        else ("holds" if checked.same_value.all() else "does not hold"),
    )
    return pd.DataFrame(rows)
