"""Notebook 06's claims, gathered from its result tables: the synthetic claims, Lemma 1
and Theorem 3, and the sentiment claims under every threshold reading and corpus run.

The verdict rules themselves live in :mod:`repro.rules_first.summary` and
:mod:`repro.rules_first.sentiment_lexicon`; this module adds the two about GreedyRule and
BoostRule and says under which reading each sentiment claim is made.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from repro.core.reference import LOST
from repro.core.verdicts import compare_proportions, compare_to_number
from repro.rules_first import sentiment_lexicon as lx
from repro.rules_first import summary as rp

__all__ = ["claims_boostrule", "claims"]


def claims_boostrule(fig1: pd.DataFrame, n_test: int) -> list[dict]:
    """Lemma 1 (GreedyRule is a weak learner: test error <= 1/4) and Theorem 3 (boosting it
    improves on it), judged with binomial standard errors on the same ``n_test`` rows.

    Parameters
    ----------
    fig1 : DataFrame
        The section-5 table: GreedyRule's row first, BoostRule's second, with their
        ``test error``.
    n_test : int
        The test rows both errors were measured on.
    """
    weak_err, boost_err = fig1["test error"].iloc[0], fig1["test error"].iloc[1]
    lemma = compare_to_number(
        weak_err, 0.25, higher_is_better=False, se=np.sqrt(weak_err * (1 - weak_err) / n_test)
    )
    boosted = compare_proportions(boost_err, weak_err, n_test, higher_is_better=False)
    return [
        {
            "claim": "Lemma 1: GreedyRule (Fig. 1) is a weak learner, test error <= 1/4",
            "verdict": lemma.verdict,
            "evidence": f"GreedyRule test error {weak_err:.3f} (d=50, k=10, B=1, m=1000; "
            f"{n_test} test rows): margin to 1/4 {lemma.short(3)}",
        },
        {
            "claim": "Theorem 3: boosting GreedyRule (BoostRule) improves on the weak learner",
            "verdict": boosted.verdict,
            "evidence": f"BoostRule {boost_err:.3f} vs GreedyRule {weak_err:.3f}: "
            f"{boosted.short(3)} (binomial SE on {n_test} test rows)",
        },
    ]


def claims(
    *,
    left: pd.DataFrame,
    right: pd.DataFrame,
    crossing: pd.DataFrame,
    exps_k: pd.DataFrame,
    fig1: pd.DataFrame,
    n_test: int,
    sweeps_tw: Mapping[str, pd.DataFrame],
    sweep_all: pd.DataFrame,
    stems_scored: pd.DataFrame,
    stems_note: str,
    sweeps_sls: Mapping[str, pd.DataFrame],
    how: str,
    reading: str,
) -> list[dict]:
    """Every claim of notebook 06: one dict (claim, verdict, evidence) each.

    The threshold reading is lost (section 6), so each Twitter claim is judged under every
    reading run (``sweeps_tw``: reading -> sweep); the other reading of section 7 (the
    base classifier on all tweets, ``sweep_all``, under ``reading``) and the second corpus
    (``sweeps_sls``) report the choice of t without judging it
    (:func:`repro.rules_first.summary.about_the_choice`).

    Parameters
    ----------
    left, right, crossing, exps_k : DataFrame
        Fig. 2 (left and right), the measured Table 1 and its growth exponents in k
        (:func:`repro.rules_first.summary.claims_synthetic`).
    fig1 : DataFrame
        GreedyRule and BoostRule's test errors on ``n_test`` rows (:func:`claims_boostrule`).
    stems_scored : DataFrame
        The chosen stems scored against the lexicon; ``stems_note`` says how many of the
        paper's stems are among them.
    how : str
        How t is chosen: ``"cv"`` or ``"evaluation"``
        (:func:`repro.rules_first.summary.chosen_threshold`).
    reading : str
        The threshold reading of ``sweep_all``.
    """
    out = rp.claims_synthetic(left, right, crossing, exps_k)
    out += claims_boostrule(fig1, n_test)
    for r, sw in sweeps_tw.items():
        out += [
            c | {"claim": c["claim"] + f" (threshold reading: {r})"}
            for c in rp.claims_text(sw, "Twitter", how=how)
        ]
    out += [
        c
        | {
            "claim": c["claim"]
            + f" (threshold reading: {reading}; other reading of §7: base on all tweets)"
        }
        for c in rp.claims_text(sweep_all, "Twitter", how=how)
        if not rp.about_the_choice(c)
    ]
    out += lx.stems_claims("Twitter", stems_scored, note=stems_note)
    for r, sw in sweeps_sls.items():
        out += [
            c | {"claim": c["claim"] + f" (second corpus; threshold reading: {r})"}
            for c in rp.claims_text(sw, "Sentiment sentences", how=how)
            if not rp.about_the_choice(c)
        ]
    out += rp.claims_not_run()
    out.append(
        {
            "claim": "Figs. 2 and 3: the plotted accuracies",
            "verdict": "not testable",
            "evidence": LOST,
        }
    )
    return out
