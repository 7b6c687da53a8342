"""Notebook 01's verdict rules (:func:`repro.exact_recovery.experiments.claims`): each comes out holds,
does not hold and, where the rule has them, tie or not testable on trial tables made to
decide it."""

from __future__ import annotations

import pandas as pd
import pytest

from repro.exact_recovery.experiments import claims, recovery_rates, union_bound

N = 20  # columns of the designs
DESIGNS = 10  # designs per (K, m)

LARGE = "LP recovers a planted K-term rule at large m (every design, every K)"
LEMMA1 = "Lemma 1: a K-disjunct design means exact LP recovery"
LEMMA2 = "Lemma 2: all (K+1)-patterns present means K-disjunct"
BOUND = (
    "Section 3.3: the union bound C(n, K) 2^K (1 - 2^-K)^m, offered to read Lemma 2, bounds "
    "the probability that Lemma 2's (K+1)-pattern condition fails"
)
SAMPLES = "LP needs no more samples than zero-row elimination"
NOISE = "Slack LP (eq. 10) recovers the rule under label noise up to 5%"
CONTINUOUS = "Continuous features: recovery up to threshold resolution"


def _trials(ks=(1, 2), ms=(40, 200)) -> pd.DataFrame:
    """Checked trials in the layout of :func:`repro.exact_recovery.experiments.recovery_experiment`: every
    design meets Lemma 2's condition and is K-disjunct, the LP recovers every rule, zero-row
    elimination only at the largest m."""
    rows = []
    for k in ks:
        for m in ms:
            for seed in range(DESIGNS):
                for method in ("lp", "zero-row", "greedy"):
                    rows.append(
                        {
                            "m": m,
                            "k": k,
                            "seed": seed,
                            "method": method,
                            "exact": method == "lp" or m == max(ms),
                            "hamming": 0,
                            "k_disjunct": True,
                            "patterns": True,
                        }
                    )
    return pd.DataFrame(rows)


def _noise(at_5_percent: float = 0.9) -> pd.DataFrame:
    rows = [
        ("lp", 0.0, 1.0),
        ("lp", 0.02, 1.0),
        ("lp", 0.05, at_5_percent),
        ("lp", 0.1, 0.2),  # beyond the claim's 5%: not judged
        ("zero-row", 0.02, 0.0),  # another decoder: not judged
    ]
    return pd.DataFrame(rows, columns=["method", "noise", "p_exact"])


def _thresholds(recovered: int, of: int = 10) -> pd.DataFrame:
    return pd.DataFrame({"recovered": [True] * recovered + [False] * (of - recovered)})


def _where(trials, method=None, k=None, m=None, seeds=None):
    sel = pd.Series(True, index=trials.index)
    if method is not None:
        sel &= trials.method == method
    if k is not None:
        sel &= trials.k == k
    if m is not None:
        sel &= trials.m == m
    if seeds is not None:
        sel &= trials.seed.isin(seeds)
    return sel


def _claims(trials=None, noise=None, thresholds=None) -> dict[str, dict]:
    trials = _trials() if trials is None else trials
    rows = claims(
        trials,
        recovery_rates(trials),
        _noise() if noise is None else noise,
        _thresholds(10) if thresholds is None else thresholds,
        N,
    )
    return {r["claim"]: r for r in rows}


def _verdict(claim, **inputs) -> str:
    return _claims(**inputs)[claim]["verdict"]


def test_every_rule_holds_on_trials_that_meet_it():
    out = _claims()
    assert list(out) == [LARGE, LEMMA1, LEMMA2, BOUND, SAMPLES, NOISE, CONTINUOUS]
    assert {c: r["verdict"] for c, r in out.items()} == dict.fromkeys(out, "holds")
    assert out[LARGE]["evidence"] == "min rate at m=200: 1.00"
    assert out[LEMMA1]["evidence"] == "40 K-disjunct designs"
    assert out[SAMPLES]["evidence"] == "m for 95%: K=1: 40 vs 200, K=2: 40 vs 200"
    assert out[CONTINUOUS]["evidence"].startswith("100% of 10 trials; tolerance ours")


def test_one_missed_rule_at_the_largest_m_fails_the_large_m_claim():
    trials = _trials()
    trials.loc[_where(trials, "lp", k=2, m=200, seeds=[0]), "exact"] = False
    out = _claims(trials)
    assert out[LARGE]["verdict"] == "does not hold"
    assert out[LARGE]["evidence"] == "min rate at m=200: 0.90"
    # a miss below the largest m is not this claim's business
    early = _trials()
    early.loc[_where(early, "lp", k=2, m=40, seeds=[0]), "exact"] = False
    assert _verdict(LARGE, trials=early) == "holds"


def test_lemma1_fails_on_a_k_disjunct_design_the_lp_misses_and_ignores_other_designs():
    trials = _trials()
    miss = _where(trials, "lp", k=1, m=40, seeds=[3])
    trials.loc[miss, "exact"] = False
    assert _verdict(LEMMA1, trials=trials) == "does not hold"
    # the same miss on a design that is not K-disjunct says nothing about Lemma 1
    trials.loc[_where(trials, k=1, m=40, seeds=[3]), ["k_disjunct", "patterns"]] = False
    out = _claims(trials)
    assert out[LEMMA1]["verdict"] == "holds"
    assert out[LEMMA1]["evidence"] == "39 K-disjunct designs"


def test_lemma2_fails_on_a_design_with_all_patterns_that_is_not_k_disjunct():
    trials = _trials()
    trials.loc[_where(trials, k=2, m=200, seeds=[1]), "k_disjunct"] = False
    assert _verdict(LEMMA2, trials=trials) == "does not hold"
    # without the patterns the design is outside the lemma
    trials.loc[_where(trials, k=2, m=200, seeds=[1]), "patterns"] = False
    out = _claims(trials)
    assert out[LEMMA2]["verdict"] == "holds"
    assert out[LEMMA2]["evidence"] == "39 designs met Lemma 2"


def test_the_printed_bound_fails_where_the_failure_rate_clearly_exceeds_it():
    trials = _trials()
    trials.loc[_where(trials, k=2, m=40), "patterns"] = False  # every design fails there
    out = _claims(trials)
    assert out[BOUND]["verdict"] == "does not hold"
    bound = float(union_bound(40, N, 2))
    assert bound < 0.01
    assert f"worst K=2, m=40: rate 1.00 vs bound {bound:.2g}" in out[BOUND]["evidence"]
    assert "3 better, 0 within 1 SE, 1 worse" in out[BOUND]["evidence"]


def test_the_printed_bound_is_a_tie_where_the_excess_is_within_the_rates_se():
    trials = _trials()
    # one failing design of ten: rate 0.1 above a bound of 0.008, SE of the rate 0.1
    trials.loc[_where(trials, k=2, m=40, seeds=[0]), "patterns"] = False
    out = _claims(trials)
    assert out[BOUND]["verdict"] == "tie"
    assert "3 better, 1 within 1 SE, 0 worse" in out[BOUND]["evidence"]
    assert "worst none" in out[BOUND]["evidence"]


def test_the_printed_bound_is_not_testable_where_it_is_never_below_one():
    # K = 3 at m = 40: C(20, 3) 2^3 (7/8)^40 is about 44, a bound that says nothing
    assert float(union_bound(40, N, 3)) >= 1
    trials = _trials(ks=(3,), ms=(40,))
    assert _verdict(BOUND, trials=trials) == "not testable"


def test_lp_against_zero_row_fails_when_the_lp_needs_more_samples():
    trials = _trials()
    trials.loc[_where(trials, "lp", k=2, m=40), "exact"] = False
    trials.loc[_where(trials, "zero-row", k=2, m=40), "exact"] = True
    out = _claims(trials)
    assert out[SAMPLES]["verdict"] == "does not hold"
    assert out[SAMPLES]["evidence"] == "m for 95%: K=1: 40 vs 200, K=2: 200 vs 40"
    # as many samples on both sides is no more
    trials.loc[_where(trials, "lp", k=2, m=40), "exact"] = True
    assert _verdict(SAMPLES, trials=trials) == "holds"


def test_the_95_percent_level_decides_the_samples_needed():
    trials = _trials()
    # zero-row elimination at 90% from m = 40 has not reached the level there
    trials.loc[_where(trials, "zero-row", m=40, seeds=range(1, DESIGNS)), "exact"] = True
    assert _claims(trials)[SAMPLES]["evidence"] == "m for 95%: K=1: 40 vs 200, K=2: 40 vs 200"
    trials.loc[_where(trials, "zero-row", m=40), "exact"] = True
    assert _claims(trials)[SAMPLES]["evidence"] == "m for 95%: K=1: 40 vs 40, K=2: 40 vs 40"


@pytest.mark.parametrize(("rate", "verdict"), [(0.9, "holds"), (0.85, "does not hold")])
def test_the_slack_lp_must_recover_90_percent_at_every_noise_up_to_5_percent(rate, verdict):
    out = _claims(noise=_noise(at_5_percent=rate))
    assert out[NOISE]["verdict"] == verdict
    assert out[NOISE]["evidence"].startswith(f"min exact rate {rate:.2f}; tolerance ours")


@pytest.mark.parametrize(("recovered", "verdict"), [(9, "holds"), (8, "does not hold")])
def test_continuous_features_must_be_recovered_in_90_percent_of_trials(recovered, verdict):
    out = _claims(thresholds=_thresholds(recovered))
    assert out[CONTINUOUS]["verdict"] == verdict
    assert out[CONTINUOUS]["evidence"].startswith(f"{recovered / 10:.0%} of 10 trials")


def test_a_decoder_that_never_reaches_95_percent_needs_more_than_the_largest_m():
    trials = _trials()
    trials.loc[_where(trials, "zero-row", k=2), "exact"] = False
    out = _claims(trials)
    assert out[SAMPLES]["verdict"] == "holds"
    assert out[SAMPLES]["evidence"] == "m for 95%: K=1: 40 vs 200, K=2: 40 vs >max"
    # the LP that never gets there against zero-row elimination that does
    trials = _trials()
    trials.loc[_where(trials, "lp", k=2), "exact"] = False
    out = _claims(trials)
    assert out[SAMPLES]["verdict"] == "does not hold"
    assert out[SAMPLES]["evidence"] == "m for 95%: K=1: 40 vs 200, K=2: >max vs 200"


def test_samples_needed_is_not_testable_where_neither_decoder_reaches_95_percent():
    trials = _trials()
    trials.loc[_where(trials, k=2, method="lp"), "exact"] = False
    trials.loc[_where(trials, k=2, method="zero-row"), "exact"] = False
    out = _claims(trials)
    assert out[SAMPLES]["verdict"] == "not testable"
    assert out[SAMPLES]["evidence"] == "m for 95%: K=1: 40 vs 200, K=2: >max vs >max"
    # ... unless another K refutes it
    trials.loc[_where(trials, k=1, method="zero-row", m=40), "exact"] = True
    trials.loc[_where(trials, k=1, method="lp", m=40), "exact"] = False
    assert _verdict(SAMPLES, trials=trials) == "does not hold"


def test_a_lemma_no_design_meets_the_premise_of_is_not_testable():
    trials = _trials()
    trials[["k_disjunct", "patterns"]] = False
    out = _claims(trials)
    assert out[LEMMA1]["verdict"] == out[LEMMA2]["verdict"] == "not testable"
    assert out[LEMMA1]["evidence"] == "0 K-disjunct designs"
    assert out[LEMMA2]["evidence"] == "0 designs met Lemma 2"
    # Lemma 2's premise unmet, Lemma 1's met: only Lemma 2 is untested
    trials["k_disjunct"] = True
    out = _claims(trials)
    assert (out[LEMMA1]["verdict"], out[LEMMA2]["verdict"]) == ("holds", "not testable")
