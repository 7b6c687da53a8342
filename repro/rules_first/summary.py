"""Tables, figures and claim checks for the rules-first notebook (kept out of the notebook)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from repro.core.verdicts import (
    NOT_TESTABLE,
    all_of,
    compare,
    family_note,
    no_worse,
    similar,
    tally,
    tolerance_note,
)

#: how close greedy NN's gain over its baseline must be to greedy l2's for "behaves
#: similarly" (accuracy; ours)
LIKE = 0.01

__all__ = [
    "mean_se",
    "plot_fig2",
    "plot_sample_complexity",
    "plot_fig3",
    "growth_exponents",
    "claims_synthetic",
    "fig2_right_shape",
    "chosen_threshold",
    "sweep_table",
    "candidates_per_threshold",
    "about_the_choice",
    "claims_not_run",
    "claims_text",
]

# "CN" colours follow the style's colour cycle (see repro.core.plotting)
STYLE = {
    "greedy l1": ("C0", "-"),
    "greedy l2": ("C3", "-"),
    "l1 logistic": ("C0", "--"),
    "l2 logistic": ("C3", "--"),
    "ERM stand-in (rules known)": ("C2", ":"),
    "convex relaxation (l2 logistic)": ("C7", "--"),
    "greedy l2 ": ("C3", "-"),
}


def mean_se(df: pd.DataFrame, by, value: str = "accuracy") -> pd.DataFrame:
    """Mean, standard error and count of ``value`` per group."""
    g = df.groupby(list(by), sort=True, dropna=False)[value]
    out = g.agg(["mean", "std", "count"]).reset_index()
    out["se"] = out["std"].fillna(0) / np.sqrt(out["count"])
    return out.drop(columns="std").rename(columns={"mean": value, "count": "n"})


def plot_fig2(left: pd.DataFrame, right: pd.DataFrame):
    """Fig. 2: accuracy vs m (left) and vs |K| (right), mean +- standard error."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    s = mean_se(left, ["method", "m"])
    for method, grp in s.groupby("method"):
        color, ls = STYLE[method]
        axes[0].errorbar(
            grp["m"],
            grp["accuracy"],
            yerr=grp["se"],
            color=color,
            ls=ls,
            marker="o",
            ms=3,
            capsize=2,
            label=method,
        )
    axes[0].set(
        xscale="log",
        xlabel="training samples m",
        ylabel="test accuracy",
        title="accuracy vs training size (k = 20)",
    )
    axes[0].legend()
    s = mean_se(right, ["method", "candidates", "n_rules"])
    for (method, cands), grp in s.groupby(["method", "candidates"]):
        color, _ = STYLE[method]
        ls = "-" if cands == "all features" else ":"
        axes[1].errorbar(
            grp["n_rules"],
            grp["accuracy"],
            yerr=grp["se"],
            color=color,
            ls=ls,
            marker="o",
            ms=3,
            capsize=2,
            label=f"{method} ({cands})",
        )
    axes[1].axvline(20, color="0.5", lw=0.8)
    axes[1].set(
        xlabel="rules allowed |K|",
        ylabel="test accuracy",
        title=f"accuracy vs |K| (m = {int(right['m'].iloc[0])}, true k = 20)",
    )
    axes[1].legend(fontsize=8)
    fig.tight_layout()
    return fig


def growth_exponents(crossing: pd.DataFrame, vary: str, fixed: dict) -> pd.DataFrame:
    """Slope of log(m needed) against log(vary) per method, the others held at ``fixed``."""
    sel = crossing
    for col, val in fixed.items():
        sel = sel[sel[col] == val]
    rows = []
    for method, grp in sel.groupby("method", sort=False):
        grp = grp.dropna(subset=["m_needed"])
        slope = (
            np.polyfit(np.log(grp[vary]), np.log(grp["m_needed"]), 1)[0]
            if grp[vary].nunique() >= 2
            else np.nan
        )
        rows.append({"method": method, "varying": vary, "exponent": slope, "points": len(grp)})
    return pd.DataFrame(rows)


def plot_sample_complexity(crossing: pd.DataFrame, target: float, k_fixed: int, d_fixed: int):
    """Table 1 measured: m needed for the target error vs k (B fixed) and vs B (k fixed)."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, vary, fixed, label in (
        (axes[0], "k", {"d": d_fixed}, "rule features k"),
        (axes[1], "B", {"k": k_fixed}, "B = sqrt(d)"),
    ):
        sel = crossing
        for col, val in fixed.items():
            sel = sel[sel[col] == val]
        for method, grp in sel.groupby("method", sort=False):
            color, ls = STYLE[method]
            grp = grp.sort_values(vary)
            ax.plot(grp[vary], grp["m_needed"], color=color, ls=ls, marker="o", label=method)
        what = f"B = {np.sqrt(d_fixed):g}" if vary == "k" else f"k = {k_fixed}"
        ax.set(
            xscale="log",
            yscale="log",
            xlabel=label,
            ylabel=f"samples to reach test error {target:g}",
            title=f"{what}",
        )
        if ax.lines:
            ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def chosen_threshold(sweep: pd.DataFrame, how: str = "evaluation") -> float:
    """The threshold with the best mean accuracy of greedy l2 (ties: the larger t).

    ``how="evaluation"``: accuracy on the greedy's own evaluation quarter, mean over draws
    (§7.2: "cross-validation on the evaluation data yields a threshold of 1.7");
    ``"cv"``: the cross-validation rows (fold >= 0) inside the development set.
    """
    greedy = sweep[sweep["method"] == "greedy"]
    if how == "cv":
        rows, col = greedy[greedy["fold"] >= 0], "accuracy"
    elif how == "evaluation":
        rows = greedy[(greedy["fold"] < 0) & (greedy["variant"] == "linear")]
        col = "eval_accuracy"
        rows = rows[rows[col].notna()] if col in rows else rows.iloc[:0]
    else:
        raise ValueError(f"how must be 'evaluation' or 'cv', got {how!r}")
    if rows.empty:
        return float("nan")
    acc = rows.groupby("threshold")[col].mean()
    best = acc[acc >= acc.max() - 1e-12]
    return float(best.index.max())


def sweep_table(sweep: pd.DataFrame) -> pd.DataFrame:
    """Test accuracy of a threshold sweep, mean over the draws: one row per threshold (the
    baseline's row named "baseline"), a column per (variant, method)."""
    tab = mean_se(sweep[sweep["fold"] < 0], ["variant", "method", "threshold"]).round(4)
    tab["threshold"] = tab["threshold"].astype(object).where(tab["threshold"].notna(), "baseline")
    return tab.pivot(index="threshold", columns=["variant", "method"], values="accuracy")


def candidates_per_threshold(sweep: pd.DataFrame) -> pd.Series:
    """The candidate rules greedy searched at each threshold, mean over the draws."""
    test = sweep[sweep["fold"] < 0]
    return test[test["method"] == "greedy"].groupby("threshold")["n_candidates"].mean()


def plot_fig3(sweeps: dict[str, pd.DataFrame], paper_t: float | None = None):
    """Fig. 3: test accuracy vs the candidate threshold, greedy and baseline, per corpus."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(sweeps), figsize=(5.5 * len(sweeps), 4), squeeze=False)
    colors = {"linear": "C3", "nn": "C4"}
    for ax, (corpus, sweep) in zip(axes[0], sweeps.items()):
        test = sweep[sweep["fold"] < 0]
        for variant, grp in test.groupby("variant"):
            name = "l2" if variant == "linear" else "NN"
            g = mean_se(grp[grp["method"] == "greedy"], ["threshold"])
            ax.errorbar(
                g["threshold"],
                g["accuracy"],
                yerr=g["se"],
                color=colors[variant],
                marker="o",
                ms=3,
                capsize=2,
                label=f"greedy {name}",
            )
            b = grp[grp["method"] == "baseline"]["accuracy"]
            ax.axhline(b.mean(), color=colors[variant], ls="--", label=f"{name} baseline")
        t = chosen_threshold(sweep)
        if np.isfinite(t):
            ax.axvline(t, color="0.3", lw=0.8, ls=":", label=f"chosen t: {t:g}")
        if paper_t is not None:
            ax.axvspan(1.5, 1.7, color="0.85", zorder=0, label="paper's best (1.5-1.7)")
        ax.set(
            xlabel="candidate threshold t (negative; positive uses ratio x t)",
            ylabel="test accuracy",
            title=corpus,
        )
        ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def _gap_table(left: pd.DataFrame) -> pd.DataFrame:
    piv = left.pivot_table(index=["m", "seed"], columns="method", values="accuracy")
    rows = []
    for pen in ("l1", "l2"):
        d = piv[f"greedy {pen}"] - piv[f"{pen} logistic"]
        g = d.groupby(level="m")
        rows.append(
            pd.DataFrame(
                {"penalty": pen, "gap": g.mean(), "se": g.std().fillna(0) / np.sqrt(g.count())}
            ).reset_index()
        )
    return pd.concat(rows, ignore_index=True)


def claims_synthetic(left, right, crossing, exps_k) -> list[dict]:
    """The paper's synthetic claims, decided on our runs."""
    out = []
    gaps = _gap_table(left)
    piv = left.pivot_table(index=["m", "seed"], columns="method", values="accuracy")
    for pen in ("l1", "l2"):
        # paired over the seeds: both methods see the same draw at each (m, seed)
        per_m = {
            m: compare(part[f"greedy {pen}"], part[f"{pen} logistic"])
            for m, part in piv.groupby(level="m")
        }
        out.append(
            {
                "claim": f"Fig. 2 left: greedy {pen} beats plain {pen} logistic regression",
                "verdict": all_of(per_m.values()),
                "evidence": "mean accuracy gap per m ± SE paired over seeds: "
                + ", ".join(f"m={int(m)}: {c.short(3)}" for m, c in per_m.items())
                + f" ({tally(per_m.values())})",
            }
        )
    small = gaps.groupby("m")["gap"].mean()
    both = (
        piv[["greedy l1", "greedy l2"]].to_numpy() - piv[["l1 logistic", "l2 logistic"]].to_numpy()
    ).mean(axis=1)
    both = pd.Series(both, index=piv.index)
    m_lo, m_hi = small.index[0], small.index[-1]
    # different m are different draws: unpaired
    wider = compare(both.loc[m_lo], both.loc[m_hi], paired=False)
    peak_small = bool(small.idxmax() <= np.median(small.index))
    out.append(
        {
            "claim": "Fig. 2 left: the gap to plain regularisation is greater when m is smaller",
            "verdict": wider.verdict if peak_small or wider.verdict != "holds" else "does not hold",
            "evidence": f"mean gap (both penalties) {small.iloc[0]:+.3f} at m={int(m_lo)}, "
            f"largest {small.max():+.3f} at m={int(small.idxmax())}, "
            f"{small.iloc[-1]:+.3f} at m={int(m_hi)}; smallest minus largest m "
            f"{wider.short(3)} (SE over seeds); the largest gap must fall in "
            "the smaller half of m",
        }
    )
    out += _claims_fig2_right(right)
    piv = crossing.pivot_table(index=["k", "d"], columns="method", values="m_needed")
    conv, greedy, erm = (
        piv["convex relaxation (l2 logistic)"],
        piv["greedy l2"],
        piv["ERM stand-in (rules known)"],
    )
    both = conv.notna() & greedy.notna()
    ok = bool(((conv > greedy) | (conv.isna() & greedy.notna())).all())
    ratio = (conv[both] / greedy[both]).round(1).to_dict()
    out.append(
        {
            "claim": "Table 1: the convex relaxation needs more samples than the greedy algorithm",
            "verdict": "holds" if ok else "does not hold",
            "evidence": f"m(convex)/m(greedy) per (k, d): {ratio}; convex never reaches the "
            f"target in {int((conv.isna() & greedy.notna()).sum())} settings",
        }
    )
    e = exps_k.set_index("method")["exponent"]
    ok = bool(e["greedy l2"] <= e["convex relaxation (l2 logistic)"])
    out.append(
        {
            "claim": "Table 1: samples needed grow faster in k for the convex relaxation "
            "(kB^2) than for greedy (kB + B^2)",
            "verdict": "holds" if ok else "does not hold",
            "evidence": "log-log slope in k at fixed B: "
            + ", ".join(f"{m}: {v:.2f}" for m, v in e.items()),
        }
    )
    # The stand-in is told which features make the rules, so it searches nothing: greedy
    # cannot need fewer samples than it except by chance. ERM itself (a search over all
    # rule sets) is not computable, so the paper's comparison cannot be run.
    out.append(
        {
            "claim": "Table 1: the greedy algorithm needs at least as many samples as ERM "
            "(k + B^2)",
            "verdict": NOT_TESTABLE,
            "evidence": "ERM over all rule sets is not computable; the stand-in we ran is "
            "told the rule features, a comparison greedy cannot lose, so it is "
            "no test: m(greedy)/m(stand-in) per (k, d) "
            f"{(greedy / erm).round(2).to_dict()}",
        }
    )
    return out


def _at(greedy: pd.DataFrame, t: float) -> pd.Series:
    """Greedy test accuracy at threshold ``t``, one value per draw."""
    return greedy[np.isclose(greedy["threshold"], t)].groupby("seed")["accuracy"].mean()


K_TRUE = 20  # planted rules of the synthetic data (make_rules_first's k)
SHAPE_ARM = "all features"  # the candidate arm on which accuracy can both rise and fall


def fig2_right_shape(right: pd.DataFrame, k: int = K_TRUE, arm: str = SHAPE_ARM):
    """The two halves of Fig. 2 (right)'s sentence on one candidate arm, paired over seeds.

    Rise ("increasing |K| towards the true k improves the performance"): every step of the
    |K| grid up to k, the larger |K| against the smaller. Fall ("values beyond k decrease
    accuracy"): |K| = k against every |K| of the grid above k. Returns two dicts of
    :class:`~repro.core.verdicts.Comparison`, keyed (method, smaller |K|, larger |K|) and
    (method, |K|); empty when the arm or k is missing.
    """
    rises, falls = {}, {}
    sel = right[right["candidates"] == arm]
    for method, part in sel.groupby("method", sort=True):
        acc = part.pivot_table(index="seed", columns="n_rules", values="accuracy")
        grid = sorted(int(x) for x in acc.columns)
        if k not in grid:
            continue
        up = [x for x in grid if x <= k]
        for lo, hi in zip(up, up[1:]):
            rises[(method, lo, hi)] = compare(acc[hi], acc[lo])
        for x in grid:
            if x > k:
                falls[(method, x)] = compare(acc[k], acc[x])
    return rises, falls


def _non_rules_before_k(right: pd.DataFrame, method: str, k: int, arm: str) -> str:
    """How many seeds took a feature that is not a planted rule among the first k rules."""
    if "planted_found" not in right:
        return ""
    at_k = right[
        (right["method"] == method) & (right["candidates"] == arm) & (right["n_rules"] == k)
    ]
    if at_k.empty:
        return ""
    short = int((at_k["planted_found"] < k).sum())
    return f"; a non-rule among the first {k} in {short} of {len(at_k)} seeds"


def _claims_fig2_right(right: pd.DataFrame, k: int = K_TRUE) -> list[dict]:
    """Fig. 2 (right): the rise towards k and the fall beyond it, both judged on the arm
    where every feature is a candidate (with exact rules as the only candidates nothing is
    left to add beyond the planted rules, so accuracy there cannot fall: it is shown as
    context only). Each half is one family over penalties and |K| (:func:`all_of`)."""
    rises, falls = fig2_right_shape(right, k)
    context, _ = fig2_right_shape(right, k, arm="exact rules")
    methods = sorted({key[0] for key in [*rises, *falls]})

    def steps(method):
        return ", ".join(
            f"{lo}->{hi}: {c.short(3)}" for (m, lo, hi), c in rises.items() if m == method
        )

    def beyond(method):
        return ", ".join(f"{k} vs {x}: {c.short(3)}" for (m, x), c in falls.items() if m == method)

    def exact_rise(method):
        cs = [c for (m, _, _), c in context.items() if m == method]
        return f"{sum(c.verdict == 'holds' for c in cs)} of {len(cs)} steps up"

    where = "every feature a candidate, test accuracy paired over seeds (± SE)"
    rise_ev = (
        f"{where}, each step of the |K| grid up to k = {k}: "
        + "; ".join(
            f"{m}: {steps(m)}{_non_rules_before_k(right, m, k, SHAPE_ARM)}" for m in methods
        )
        + f" ({family_note(len(rises))}"
        + "; exact-rule candidates, not judged: "
        + ", ".join(f"{m} {exact_rise(m)}" for m in methods)
        + ")"
        if rises
        else "no |K| grid up to k on the all-feature arm"
    )
    fall_ev = (
        f"{where}, |K| = k = {k} against each |K| beyond it: "
        + "; ".join(f"{m}: {beyond(m)}" for m in methods)
        + f" ({family_note(len(falls))}; with exact-rule candidates nothing is left to add "
        "beyond the planted rules, so accuracy there cannot fall)"
        if falls
        else "no |K| beyond k on the all-feature arm"
    )
    return [
        {
            "claim": "Fig. 2 right: accuracy rises as |K| increases towards the true k = 20",
            "verdict": all_of(rises.values()),
            "evidence": rise_ev,
        },
        {
            "claim": "Fig. 2 right: values of |K| beyond k decrease accuracy",
            "verdict": all_of(falls.values()),
            "evidence": fall_ev,
        },
    ]


def claims_text(
    sweep: pd.DataFrame, corpus: str, paper_t: float = 1.7, how: str = "evaluation"
) -> list[dict]:
    """The paper's sentiment claims, decided on our runs of one corpus (t chosen ``how``:
    see :func:`chosen_threshold`)."""
    test = sweep[sweep["fold"] < 0]
    t = chosen_threshold(sweep, how)
    chosen_by = "the evaluation data" if how == "evaluation" else "cross-validation"
    # the paper chose t on the greedy's own evaluation quarter, which the search fitted:
    # with t chosen by cross-validation, that reading is reported beside, not judged
    t_eval = chosen_threshold(sweep, "evaluation") if how == "cv" else t
    beside = (
        f"; the paper's way, t chosen on the evaluation quarter the search fitted: t={t_eval:g}"
        if how == "cv" and np.isfinite(t_eval)
        else ""
    )
    out = []
    gains = {}
    for variant in ("linear", "nn"):
        v = test[test["variant"] == variant]
        if v.empty:
            continue
        base = v[v["method"] == "baseline"].groupby("seed")["accuracy"].mean()
        greedy = v[v["method"] == "greedy"]
        g = greedy.groupby("threshold")["accuracy"].mean()
        at_t = t if np.isfinite(t) else float(g.idxmax())
        ours = _at(greedy, at_t)
        # paired over the draws of the splits: both are scored on the same test tweets
        c = compare(ours, base.reindex(ours.index))
        gains[variant] = ours - base.reindex(ours.index)
        name = "l2" if variant == "linear" else "NN"
        evidence = (
            f"greedy {name} {ours.mean():.4f} at t={at_t:g} vs {name} baseline "
            f"{base.mean():.4f}: {c.short()} (SE paired over {len(ours)} draws); best over t "
            f"{g.max():.4f} at t={g.idxmax():g}"
        )
        if how == "cv" and np.isfinite(t_eval):
            at_eval = _at(greedy, t_eval)
            evidence += (
                f"; at the paper's way's t={t_eval:g}: "
                f"{compare(at_eval, base.reindex(at_eval.index)).short()}"
            )
        if variant == "linear":
            out.append(
                {
                    "claim": f"{corpus}: greedy l2 beats the l2 baseline "
                    f"(at the threshold chosen by {chosen_by})",
                    "verdict": c.verdict,
                    "evidence": evidence,
                }
            )
        elif "linear" in gains:
            # the paper's claim for the NN variant is a likeness: it "behaves similarly"
            like = similar(gains["nn"], gains["linear"].reindex(gains["nn"].index), margin=LIKE)
            out.append(
                {
                    "claim": f"{corpus}: greedy NN behaves like greedy l2 (its gain over the "
                    f"NN baseline within {LIKE:g} of greedy l2's over the l2 baseline, at the "
                    f"threshold chosen by {chosen_by})",
                    "verdict": like.verdict,
                    "evidence": f"{evidence}; NN gain minus l2 gain "
                    f"{(gains['nn'] - gains['linear']).mean():+.4f}, room to the margin "
                    f"{like.short()} (SE paired over draws); "
                    + tolerance_note(f"'similarly' read as gains within {LIKE:g}"),
                }
            )
    lin = test[(test["variant"] == "linear") & (test["method"] == "greedy")]
    g = lin.groupby("threshold")["accuracy"].mean()
    by_seed = lin.pivot_table(index="seed", columns="threshold", values="accuracy")
    # the paper's shape: its best thresholds (1.5-1.7) above both ends of the sweep
    inside = [x for x in g.index if 1.4 <= x <= 1.8]
    if inside and len(g) >= 3:
        # the paper's own best threshold (nearest grid point), not one picked by test accuracy
        peak = min(inside, key=lambda x: abs(x - paper_t))
        ends = {x: compare(by_seed[peak], by_seed[x]) for x in (g.index[0], g.index[-1])}
        verdict = all_of(ends.values())
        lo, hi = g.index[0], g.index[-1]
        shape = (
            f"; t={peak:g} against t={lo:g}: {ends[lo].short()}, "
            f"against t={hi:g}: {ends[hi].short()}"
        )
        # candidates are nested in t (a lower t admits more): the same count at the low end
        # as at the peak, on every draw, means the same candidates, so no drop can show
        if "n_candidates" in lin:
            counts = lin.pivot_table(index="seed", columns="threshold", values="n_candidates")
            if (counts[lo] == counts[peak]).all():
                verdict = NOT_TESTABLE
                shape += (
                    f"; not testable: t={lo:g} admits the same candidates as t={peak:g} on "
                    "every draw, so the sweep cannot show a drop below the peak"
                )
    else:
        verdict, shape = NOT_TESTABLE, "; the sweep does not hold 1.5-1.7 and both ends"
    out.append(
        {
            "claim": f"{corpus}: accuracy rises as the threshold falls to about 1.5-1.7 "
            "and drops below it",
            "verdict": verdict,
            "evidence": "greedy l2 test accuracy by t: "
            + ", ".join(f"{k:g}: {val:.4f}" for k, val in g.items())
            + shape
            + " (± SE paired over draws)",
        }
    )
    if np.isfinite(t):
        out.append(
            {
                "claim": f"{corpus}: cross-validation on the evaluation data chooses "
                f"t = {paper_t:g}",
                "verdict": "holds" if abs(t - paper_t) < 1e-9 else "does not hold",
                "evidence": f"t = {t:g}, chosen by {chosen_by} inside the development set" + beside,
            }
        )
        # "... which corresponds to the highest accuracy in the test set as well": no other t
        # of the sweep ahead of the chosen one, one family, paired over the draws. "Highest"
        # is read as no rival ahead beyond the noise (repro.core.verdicts.no_worse), not as
        # ahead of every rival: neighbouring thresholds often admit the same candidates and
        # score alike, which no threshold could beat.
        if t in by_seed.columns and len(by_seed.columns) > 1:
            rivals = {x: compare(by_seed[t], by_seed[x]) for x in by_seed.columns if x != t}
            out.append(
                {
                    "claim": f"{corpus}: the chosen threshold is also the most accurate on the "
                    "test set",
                    "verdict": no_worse(rivals.values()),
                    "evidence": f"greedy l2 test accuracy at t = {t:g} minus at each other t: "
                    + ", ".join(f"t={x:g}: {c.short()}" for x, c in rivals.items())
                    + f" (SE paired over draws); {family_note(len(rivals))}; 'highest' read "
                    "as no other t ahead (repro.core.verdicts.no_worse)" + beside,
                }
            )
    else:  # no rows to choose t by (a sweep without them): said, not left out
        for claim in (
            f"{corpus}: cross-validation on the evaluation data chooses t = {paper_t:g}",
            f"{corpus}: the chosen threshold is also the most accurate on the test set",
        ):
            out.append(
                {
                    "claim": claim,
                    "verdict": NOT_TESTABLE,
                    "evidence": f"no threshold could be chosen by {chosen_by}: the sweep has "
                    "no rows to choose it by",
                }
            )
    return out


def claims_not_run() -> list[dict]:
    """The paper's sentiment claims about experiments this notebook does not run."""
    return [
        {
            "claim": "Twitter: adding token pairs as features does not improve GreedyRule",
            "verdict": NOT_TESTABLE,
            "evidence": "not run: the candidates are single stems (repro.rules_first.tweets), as in the "
            "paper's main experiment; the paper gives no numbers for its pair features",
        },
        {
            "claim": "Twitter: three-way classification (with neutral tweets) is similar in trend",
            "verdict": NOT_TESTABLE,
            "evidence": "not run: the neutral tweets are dropped when the corpus loads, as in "
            "the paper's two-way experiment; the paper shows no three-way numbers",
        },
    ]


def about_the_choice(claim: dict) -> bool:
    """A claim about which threshold is chosen: the paper makes it of its Twitter run only,
    so the other readings and corpora report the choice without judging it."""
    return "chooses t =" in claim["claim"] or "chosen threshold is also" in claim["claim"]
