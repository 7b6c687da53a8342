"""Paper 4 (GRAB): the claims of notebook 05, each with its verdict and evidence.

Kept apart from :mod:`repro.grab.experiments` on purpose: the result caches of the experiments are
keyed by the source of the modules behind them, and the wording of a verdict is not one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from repro.core.verdicts import (
    HOLDS,
    NOT_TESTABLE,
    TIMING_NOISE,
    Comparison,
    all_of,
    at_least,
    compare_proportions,
    compare_ratio,
    compare_resampled,
    compare_to_number,
    tally,
    tolerance_note,
)
from repro.grab.timing import REPEAT_BELOW

__all__ = ["naive_ratio", "liblinear_ratio", "best_degree", "claims", "TIMING_NOISE"]


def _verdict(ok: bool) -> str:
    return "holds" if ok else "does not hold"


def _ratio(ratio: float) -> Comparison:
    """ "The first method is faster" from a time ratio (slower / faster > 1 favours it)."""
    return compare_ratio(ratio)


#: the largest tolerance at which the text describes how much Table 2's features change
NAMED_EPS = 1e-5


def _accuracy(
    wide: pd.DataFrame,
    n_test: Mapping[str, int],
    ours: str | Sequence[str],
    theirs: str | Sequence[str],
    margin: float = 0.0,
    splits: pd.DataFrame | None = None,
    chooser: pd.DataFrame | None = None,
) -> dict[str, Comparison]:
    """Per data set: accuracy of ``ours`` against ``theirs`` (a column of ``wide``, or the
    best of several on that set), in percent.

    Where ``splits`` (one row per data set, method and ``split``) holds several splits of
    a set, the two are compared paired over them, with the SE corrected for the overlap of
    their training sets (:func:`repro.core.verdicts.compare_resampled`). A set of one split is compared on its test rows with the
    binomial SE (:func:`repro.core.verdicts.compare_proportions`).
    """

    def pick(names, d):
        # the best of several by their cross-validation accuracy on the training rows when
        # it is given (held out from the judged test rows), else by the test accuracy
        names = [names] if isinstance(names, str) else list(names)
        by = chooser if chooser is not None and d in chooser.index else wide
        return max(names, key=lambda m: by.loc[d, m])

    out = {}
    for d in wide.index:
        a, b = pick(ours, d), pick(theirs, d)
        per = None
        if splits is not None:
            part = splits[splits["dataset"] == d]
            per = part.pivot_table(index="split", columns="method", values="accuracy")
        if per is not None and len(per) > 1 and {a, b} <= set(per.columns):
            # repeated 80/20 splits of one set (repro.grab.experiments.load_split): overlapping training
            # sets, so the corrected SE
            out[d] = compare_resampled(per[a], per[b], test_share=0.2, margin=margin)
        else:
            out[d] = compare_proportions(
                float(wide.loc[d, a]),
                float(wide.loc[d, b]),
                int(n_test[d]),
                percent=True,
                margin=margin,
            )
    return out


def _gaps(comps: Mapping[str, Comparison]) -> str:
    return ", ".join(f"{d}: {c.short(1)}" for d, c in comps.items())


def naive_ratio(tto: pd.DataFrame) -> pd.Series:
    """Naive grafting / GRAB time to the common objective by (C, degree), named
    "naive / GRAB".

    A naive grafting run that never reached the objective counts as infinitely slow.
    """

    def seconds(method: str) -> pd.Series:
        return tto[tto.method == method].set_index(["C", "degree"]).seconds_to_target

    return (seconds("Grafting").fillna(np.inf) / seconds("GRAB")).rename("naive / GRAB")


def liblinear_ratio(tto: pd.DataFrame, degree: int) -> float:
    """LIBLINEAR / GRAB time to the common objective at ``degree``, the mean over C.

    A LIBLINEAR run that never reached the objective (it stopped above it) counts as
    infinitely slow where GRAB reached it, as naive grafting does;
    NaN where GRAB did not reach it either.
    """
    part = tto[tto.degree == degree].set_index(["C", "method"]).seconds_to_target.unstack()
    grab, lib = part.get("GRAB"), part.get("LIBLINEAR")
    return float((lib.where(lib.notna() | grab.isna(), np.inf) / grab).mean())


def _times(ratio: float) -> str:
    return "LIBLINEAR never reached it" if ratio == np.inf else f"{ratio:.2f}"


def best_degree(curves: pd.DataFrame, which: str) -> pd.DataFrame:
    """The most accurate degree of each data set at its smallest (``"min"``) or largest
    (``"max"``) training size: columns dataset, m, degree."""
    part = curves[curves.m == curves.groupby("dataset").m.transform(which)]
    return part.loc[part.groupby("dataset").accuracy.idxmax(), ["dataset", "m", "degree"]]


def _fig3_verdict(curves: pd.DataFrame) -> dict:
    """Fig. 3's verdict and evidence: see the comment where it is called."""
    if "n_test" not in curves:
        return {
            "verdict": NOT_TESTABLE,
            "evidence": "the accuracy table has no test-row counts to give its accuracies an SE",
        }
    per, shown = {}, []
    for d, part in curves.groupby("dataset", sort=False):
        acc = part.set_index(["m", "degree"]).accuracy / 100
        lo, hi = part.m.min(), part.m.max()
        k1, kk = part.degree.min(), part.degree.max()
        n = float(part.n_test.iloc[0])
        four = [acc[hi, kk], acc[hi, k1], acc[lo, kk], acc[lo, k1]]
        gain_hi, gain_lo = four[0] - four[1], four[2] - four[3]
        se = float(np.sqrt(sum(p * (1 - p) / n for p in four)))
        se_hi = float(np.sqrt(sum(p * (1 - p) / n for p in four[:2])))
        rise = compare_to_number(gain_hi - gain_lo, 0.0, se=se)
        # the paper's evidence is a crossover: the largest degree best at the largest m
        ahead = compare_to_number(gain_hi, 0.0, se=se_hi)
        per[d] = all_of([rise, ahead])
        shown.append(
            f"{d}: k={kk} minus k={k1} {100 * gain_lo:+.2f} points at m={lo}, "
            f"{100 * gain_hi:+.2f} at m={hi} (ahead {ahead.short(4)}); the rise "
            f"{rise.short(4)} ({int(n)} test rows): {per[d]}"
        )
    return {
        "verdict": at_least(per.values(), len(per) // 2 + 1),
        "evidence": "covtype.binary and SUSY are not available, and the SUSY half (degrees "
        "alike) is not tested; on the stand-in sets, "
        + "; ".join(shown)
        + f"; holds on {sum(v == HOLDS for v in per.values())} of {len(per)} "
        "(binomial SE of the accuracies as if independent; reading ours: 'more useful as "
        "the data grow' as the largest degree ahead of k = 1 at the largest m and its gain "
        "rising with m, on a strict majority of the stand-in sets)",
    }


def claims(
    texts: pd.Series,
    *,
    naive_ratio: pd.Series,
    tto: pd.DataFrame,
    degrees,
    full_rows: bool,
    n_rows: int,
    naive_limit: float,
    curves: pd.DataFrame,
    fig3_degrees,
    side: pd.DataFrame,
    wide: pd.DataFrame,
    tol: pd.DataFrame,
    spread: pd.Series,
    counts: pd.DataFrame,
    table1_missing: Sequence[str] = (),
    table1_capped: Mapping[str, int] | None = None,
    fig2_repeats: int = 1,
    naive_search_from: int = 4,
    phi_sizes: Mapping[int, int] | None = None,
    n_test: Mapping[str, int] | None = None,
    best_in_text: Mapping[str, str] | None = None,
    splits: pd.DataFrame | None = None,
    top_weights: pd.DataFrame | None = None,
    cv_wide: pd.DataFrame | None = None,
) -> list[dict]:
    """Notebook 05's claims: one dict (claim, verdict, evidence) per claim.

    Parameters
    ----------
    texts : Series
        The paper's claim texts by key (``paper_table("paper4_claims")``).
    naive_ratio : Series
        Naive grafting / GRAB time to the common objective by (C, degree); infinite where
        naive grafting never reached it.
    tto : DataFrame
        Time to the common objective of every method (Fig. 2).
    degrees : list of int
        Fig. 2's degrees.
    full_rows : bool
        Fig. 2 ran on all of a1a (the paper's size).
    n_rows : int
        Rows Fig. 2 ran on.
    naive_limit : float
        Conjunctions naive grafting may evaluate in one Fig. 2 run (a count of work).
    fig2_repeats : int, default=1
        Timings of each short Fig. 2 run, the median kept
        (:func:`repro.grab.timing.time_methods_repeated`); the evidence says so.
    naive_search_from : int, default=4
        The smallest degree at which GRAB's speed against naive grafting is judged: where
        the paper's evidence is (Fig. 2's caption: naive grafting ran out of its day from
        k = 4; §5.1: WFIM selects features "even when exhaustive search is impractical").
        The paper's times at k <= 3 are lost. Below k = 4 Phi(d, k) is small enough (on
        a1a 124, 7,627 and 310,248 conjunctions) that a scan of all of it costs what
        the itemset search does, and the two runs take seconds, so their ratio moves with
        the machine's load (at C = 1, k = 3 it read 0.8x, 0.7x and 0.6x in three FULL runs
        of one code, across the 0.67 edge of the timing tie band). The verdict judged
        from k = 3 is reported beside it, as the other reading; the ratios below
        ``naive_search_from`` are reported, not judged.
    phi_sizes : mapping of int to int, optional
        |Phi(d, k)| by degree, quoted in the evidence.
    curves : DataFrame
        Fig. 3's accuracy against training size.
    fig3_degrees : list of int
    side : DataFrame
        Table 1's best methods and the GRAB-against-trees columns.
    wide : DataFrame
        Table 1's accuracy, one column per method.
    tol : DataFrame
        Table 2's runs; ``spread`` its accuracy range per data set.
    counts : DataFrame
        Occurring conjunctions, ours against the paper's.
    table1_missing : sequence of str, default=()
        Table 1's data sets not (yet) run under its protocol; ``side`` and ``wide`` hold
        the others, and each Table 1 verdict says it is drawn from them only.
    table1_capped : mapping of str to int, optional
        Table 1's data sets trained on fewer rows than they have (the paper: all), with the
        rows used; each Table 1 verdict names them.
    n_test : mapping of str to int
        Test rows of each Table 1 data set: two accuracies on one test set differ within
        noise when the gap is inside their binomial standard error
        (:func:`repro.core.verdicts.compare_proportions`), a tie.
    best_in_text : mapping of str to str, optional
        The method the paper's text names best per data set (``paper4_table1_accuracy``'s
        ``best_in_text``); the L2-hinge claim is tested on the sets where it is GRAB
        (L2-hinge).
    splits : DataFrame, optional
        Table 1's accuracy per data set, method and ``split``: a set averaged over several
        splits is compared paired over them rather than on one split's test rows.
    top_weights : DataFrame, optional
        Our a1a model's largest weights (``weight``, ``conjunction``), for Table 3's top row.
    cv_wide : DataFrame, optional
        Table 1's cross-validation accuracy on the training rows, one column per method:
        where a claim takes the better of several methods (the two GRAB variants, SVC or
        XGB), it is chosen by these, not by the test accuracy it is judged on.
    """
    if n_test is None or set(side.index) - set(n_test):
        raise ValueError(
            "n_test must give the test rows of every Table 1 data set "
            f"({sorted(side.index)}): the verdicts compare accuracies within "
            "their binomial standard error"
        )
    n_sets = len(side)
    capped = {d: n for d, n in (table1_capped or {}).items() if d in side.index}
    partial = (
        f"; {', '.join(table1_missing)} not yet run under this protocol, the verdict "
        f"is over the other {n_sets}"
        if table1_missing
        else ""
    )
    partial += (
        "; trained on a sample of the training rows (the paper: all): "
        + ", ".join(f"{d} {n:,}" for d, n in capped.items())
        if capped
        else ""
    )
    k_max = max(degrees)
    timed = (
        f" (runs under {REPEAT_BELOW:g} s: the median of {fig2_repeats} timings)"
        if fig2_repeats > 1
        else ""
    )
    rows = []
    # Fig. 2: naive grafting, as §5.1 and Fig. 2's caption state it: naive grafting does not
    # finish in the time limit from k = 4 (one day), while GRAB finishes every degree, and
    # GRAB is faster where the search matters (k >= naive_search_from); a naive run that
    # never reached the common objective counts as infinitely slow (ratio inf)
    naive = tto[tto.method == "Grafting"]
    grab = tto[tto.method == "GRAB"]
    stuck = naive[naive.stopped.astype(bool)].groupby("C").degree.min()
    first_out = {C: (int(stuck[C]) if C in stuck.index else None) for C in sorted(naive.C.unique())}
    grab_all = (
        bool(grab.reached.all())
        if "reached" in grab
        else bool(grab.seconds_to_target.notna().all())
    )
    naive_stops = all(k is not None for k in first_out.values())

    def faster_from(k0: int) -> str:
        # GRAB faster where the search matters, a time ratio within the timing noise a tie
        cells = naive_ratio[[k >= k0 for _, k in naive_ratio.index]].dropna()
        if not len(cells):
            return "does not hold"
        return (
            all_of(_ratio(v) for v in cells.values) if naive_stops and grab_all else "does not hold"
        )

    judged = naive_ratio[[k >= naive_search_from for _, k in naive_ratio.index]].dropna()
    faster = faster_from(naive_search_from)
    # the other reading: judged from the degree below (the paper's times there are lost)
    other_from = naive_search_from - 1
    other = (
        f"; judged from k = {other_from} instead (the paper's times at k <= 3 are lost): "
        f"{faster_from(other_from)}"
        if other_from >= 1 and any(k == other_from for _, k in naive_ratio.index)
        else ""
    )
    sizes = (
        " (|Phi(d, k)| = "
        + ", ".join(f"{phi_sizes[k]:,}" for k in sorted(phi_sizes) if k < naive_search_from)
        + ")"
        if phi_sizes
        else ""
    )
    rows.append(
        {
            "claim": texts["fig2_naive"],
            # the paper's evidence starts at k = 4 on all of a1a
            "verdict": (faster if k_max >= 4 and full_rows else "not testable"),
            "evidence": "naive grafting did not finish within our limit of "
            f"{naive_limit:.3g} conjunctions evaluated per run, a count of work (the paper: "
            "one day, from k = 4) from "
            + ", ".join(
                f"C={c}: " + (f"k = {k}" if k is not None else "no degree")
                for c, k in first_out.items()
            )
            + (
                "; GRAB finished and reached the common objective at every degree"
                if grab_all
                else "; GRAB did not reach the common objective everywhere"
            )
            + f"; naive / GRAB time to the same objective on {n_rows:,} a1a rows"
            f"{timed}, judged at k >= {naive_search_from}: "
            + ", ".join(
                f"C={c} k={k}: " + ("never reached" if not np.isfinite(v) else f"{v:.1f}x")
                for (c, k), v in judged.items()
            )
            + f"; at k < {naive_search_from}{sizes} a scan of all of Phi costs what the "
            "itemset search does, the runs take seconds, and their ratios are reported, "
            "not judged: "
            + ", ".join(
                f"C={c} k={k}: " + ("never reached" if not np.isfinite(v) else f"{v:.1f}x")
                for (c, k), v in naive_ratio.dropna().items()
                if k < naive_search_from
            )
            + other
            + ("" if k_max >= 4 and full_rows else f" (QUICK: {n_rows:,} rows, k <= {k_max})")
            + "; "
            + tolerance_note(
                f"a time ratio within {1 / TIMING_NOISE:.2f}-{TIMING_NOISE:g} is a tie"
            ),
        }
    )
    # Fig. 2: Expansion + LIBLINEAR
    r = {k: liblinear_ratio(tto, k) for k in degrees}
    # LIBLINEAR faster at k = 1, 2 (GRAB / LIBLINEAR > 1), GRAB faster at the largest k
    parts = [
        _ratio(1 / r[k] if r[k] > 0 else np.inf) for k in (1, 2) if k in r and not np.isnan(r[k])
    ]
    parts += [] if np.isnan(r[k_max]) else [_ratio(r[k_max])]
    testable = k_max >= 5 and full_rows
    rows.append(
        {
            "claim": texts["fig2_liblinear"],
            "verdict": all_of(parts) if testable else "not testable",
            "evidence": f"LIBLINEAR / GRAB time to the same objective{timed} (mean over C in "
            "{0.1, 1}): "
            + ", ".join(f"k={k}: {_times(v)}" for k, v in r.items())
            + "; "
            + tolerance_note(
                f"a time ratio within {1 / TIMING_NOISE:.2f}-{TIMING_NOISE:g} is a tie"
            )
            + ("" if testable else " (QUICK: 2,000 rows, k <= 3)"),
        }
    )
    # Fig. 3: larger degrees pay off as m grows (stand-in data sets). Per set, the largest
    # degree must be ahead of k = 1 at the largest m (the paper's crossover: k = 1 best at
    # small m, k = 4 at large m) and its gain over k = 1 must rise from the smallest m (no
    # degree chosen by its test accuracy), each against the binomial SE of the accuracies
    # taken as independent (they share one test set, so the paired SE is smaller: this
    # errs towards a tie); "helps" read as holding on most sets (ours: the paper shows it
    # on one set and says the degrees differ little on another).
    rows.append(
        {
            "claim": texts["fig3"],
            **_fig3_verdict(curves),
        }
    )
    # Table 1: accuracies on one test set each; a gap within the binomial SE is a tie.
    se_note = (
        "; accuracy gaps in points ± SE (within 1 SE: a tie): paired over the splits where a "
        "set has several, the binomial SE on the test rows where it has one"
    )
    # trees ("nearly consistently": at most one data set not better, against each)
    grab = ["GRAB (logistic)", "GRAB (L2-hinge)"]
    dt = _accuracy(wide, n_test, grab, "DT", splits=splits, chooser=cv_wide)
    rf = _accuracy(wide, n_test, grab, "RF", splits=splits, chooser=cv_wide)
    rows.append(
        {
            "claim": texts["table1_trees"],
            "verdict": all_of(
                [at_least(dt.values(), n_sets - 1), at_least(rf.values(), n_sets - 1)]
            ),
            "evidence": f"the better GRAB variant against DT: {tally(dt.values())}; against RF: "
            f"{tally(rf.values())} of {n_sets} data sets (paper's accuracies lost; "
            f"'nearly consistently' read as all but one, tolerance ours); gaps to RF "
            f"{_gaps(rf)}{se_note}{partial}",
        }
    )
    # competitive with SVC and XGBoost: "very competitive" read as within 1 point of the
    # better of the two on most sets (the paper gives no number: the tolerance is ours)
    close = _accuracy(
        wide, n_test, grab, ["SVC", "XGB"], margin=1.0, splits=splits, chooser=cv_wide
    )
    rows.append(
        {
            "claim": texts["table1_competitive"],
            "verdict": at_least(close.values(), n_sets // 2 + 1),
            "evidence": f"the better GRAB variant against max(SVC, XGB) less 1 point: "
            f"{tally(close.values())} of {n_sets} data sets ("
            + tolerance_note("'very competitive' read as within 1 point on most sets")
            + f"); gaps + 1 point: {_gaps(close)}{se_note}{partial}",
        }
    )
    # the paper's second claim of the sentence: L2-hinge best on 4 of its 10 sets, of which
    # our sets hold those the text names (each tested against the best other method)
    named = [
        d
        for d, m in (dict(best_in_text) if best_in_text is not None else {}).items()
        if m == "GRAB (L2-hinge)" and d in wide.index
    ]
    others = [m for m in wide.columns if m != "GRAB (L2-hinge)"]
    # "best": against the strongest rival on the test rows, the comparison that binds
    all_hinge = _accuracy(wide, n_test, "GRAB (L2-hinge)", others, splits=splits)
    hinge = {d: c for d, c in all_hinge.items() if d in named}
    rows.append(
        {
            "claim": texts["table1_hinge_best"],
            "verdict": all_of(hinge.values()) if hinge else "not testable",
            "evidence": f"GRAB (L2-hinge) more accurate than every other method on "
            f"{sum(c.verdict == 'holds' for c in all_hinge.values())} of {n_sets} "
            f"(within 1 SE of the best on "
            f"{sum(c.verdict == 'tie' for c in all_hinge.values())}); on the sets the "
            f"paper names ({', '.join(named) or 'none of ours'}), its gap to the best "
            f"other method: {_gaps(hinge) or '-'}{se_note}{partial}",
        }
    )
    # LRFIM: 7 of 10 in the paper, read as more than half of ours
    lrfim = _accuracy(wide, n_test, "GRAB (logistic)", "LRFIM", splits=splits, chooser=cv_wide)
    rows.append(
        {
            "claim": texts["table1_lrfim"],
            "verdict": at_least(lrfim.values(), n_sets // 2 + 1),
            "evidence": f"GRAB (logistic) against LRFIM: {tally(lrfim.values())} of {n_sets} data "
            f"sets (cod-rna and covtype.binary not available; the paper's 7 of 10 read "
            f"as more than half of ours); gaps {_gaps(lrfim)}{se_note}{partial}",
        }
    )
    # Table 2: tolerance
    ref_size = tol[tol.eps == tol.eps.min()].set_index("dataset")["|Phi_eps|"]
    changed = (tol["|Phi \\ Phi_eps|"] + tol["|Phi_eps \\ Phi|"]).groupby(tol.dataset).max()
    stable = bool((spread <= 1.0).all())
    # the features half: they change little on ijcnn1 and a lot on phishing, at the
    # tolerances the text describes (1e-6 and 1e-5: "very small" on ijcnn1), a contrast of
    # the share of the reference set that changes, exact counts
    named = tol[(tol.eps > tol.eps.min()) & (tol.eps <= NAMED_EPS)]
    named = named if len(named) else tol
    moved = (named["|Phi \\ Phi_eps|"] + named["|Phi_eps \\ Phi|"]).groupby(named.dataset).max()
    share = moved / ref_size.reindex(moved.index)
    if {"ijcnn1", "phishing"} <= set(share.index):
        contrast = bool(share["phishing"] > share["ijcnn1"])
        features = (
            f"; changed share of |Phi| up to eps = {NAMED_EPS:g}: phishing "
            f"{share['phishing']:.2f} against ijcnn1 {share['ijcnn1']:.2f}"
        )
    else:
        contrast, features = bool((changed > 0).any()), "; ijcnn1 or phishing not run"
    rows.append(
        {
            "claim": texts["table2"],
            "verdict": _verdict(stable and contrast),
            "evidence": tolerance_note("'stays stable' read as a range of at most 1 point")
            + features
            + "; test accuracy range over eps: "
            + ", ".join(f"{d}: {v:.2f} points" for d, v in spread.items())
            + "; largest |Phi \\ Phi_eps| + |Phi_eps \\ Phi| against the tightest eps: "
            + ", ".join(
                f"{d}: {int(changed[d])} (|Phi| = {int(ref_size[d])})" for d in changed.index
            )
            + (
                ""
                if tol.converged.all()
                else f"; {int((~tol.converged).sum())} fit(s) stopped by the time limit"
            ),
        }
    )
    # the other winners the text names (its L2-hinge sets are the claim above)
    winners = {
        d: m
        for d, m in (dict(best_in_text) if best_in_text is not None else {}).items()
        if m != "GRAB (L2-hinge)" and d in wide.index and m in wide.columns
    }
    named_best = {
        d: _accuracy(
            wide.loc[[d]],
            n_test,
            m,
            [o for o in wide.columns if o != m],
            splits=splits,
        )[d]
        for d, m in winners.items()
    }
    rows.append(
        {
            "claim": "The other winners Table 1's text names (GRAB (logistic) on diabetes, SVC on "
            "fourclass and ijcnn1, RF on german.numer) are the most accurate there",
            "verdict": all_of(named_best.values()) if named_best else "not testable",
            "evidence": "the named method against the best other, per set: "
            + (", ".join(f"{winners[d]} on {d} {c.short(1)}" for d, c in named_best.items()) or "-")
            + f"{se_note}; cod-rna and covtype.binary not available",
        }
    )
    if top_weights is not None and len(top_weights):
        top = top_weights.iloc[top_weights["weight"].abs().argmax()]
        paper_top = ("Married-AF-spouse", "United-States")
        same = all(part in top["conjunction"] for part in paper_top) and top["weight"] > 0
        rows.append(
            {
                "claim": "On a1a the largest weight is (marital-status = Married-AF-spouse) AND "
                "(native-country = United-States), positive",
                "verdict": _verdict(same),
                "evidence": f"our largest |weight|: {top['conjunction']} ({top['weight']:+.3f})",
            }
        )
    for claim, why in (
        (
            "On a1a the model keeps 682 non-zero weights",
            "the count depends on the number of features K the search keeps per round, which "
            "the paper does not give for Table 3",
        ),
        (
            "On a1a (education-num = 1/5) has a negative weight and (education-num = 5/5) AND "
            "(marital-status = Married-civ-spouse) a positive one",
            "only our ten largest weights are kept, and neither conjunction is among them",
        ),
        (
            "Table 2's representative sets: 688 features on ijcnn1 and 74 on phishing at the "
            "tightest tolerance, and at eps = 1e-2 about 75% kept and 40% new on ijcnn1",
            "our Table 2 fits each model on 5,000 training rows (TABLE2_MAX_TRAIN), not on all "
            "rows as the paper does, so its set sizes are not comparable",
        ),
    ):
        rows.append({"claim": claim, "verdict": "not testable", "evidence": why})
    # counts of occurring conjunctions (the three numbers the text keeps)
    a1a = counts.set_index("dataset").loc["a1a"]
    rows.append(
        {
            "claim": "a1a (all 32,561 rows) has 5,439 conjunctions of size <= 2 that occur",
            "verdict": _verdict(int(a1a.ours) == int(a1a.paper)),
            "evidence": f"ours {int(a1a.ours):,}, paper {int(a1a.paper):,}",
        }
    )
    others = counts[counts.dataset != "a1a"]
    rows.append(
        {
            "claim": "ijcnn1 has 15,203,016 occurring conjunctions of size <= 4 and phishing "
            "8,222,207 of size <= 5",
            "verdict": "not testable",
            "evidence": (
                "; ".join(
                    f"{r['dataset']}: ours {int(r['ours']):,} on {r['rows counted']}"
                    for r in others.to_dict("records")
                )
                or "not counted in QUICK mode"
            )
            + "; the rows the paper counted are not recoverable (see the counts section)",
        }
    )
    return rows
