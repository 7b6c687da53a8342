"""The one verdict rule: a difference within its standard error is a tie."""

from __future__ import annotations

import numpy as np
import pytest

from repro.core import verdicts as v
from repro.core.report import VERDICTS


def test_a_difference_inside_one_se_is_a_tie_outside_it_a_verdict():
    assert v.decide(0.0008, 0.004) == v.TIE
    assert v.decide(-0.004, 0.004) == v.TIE  # the boundary belongs to the tie
    assert v.decide(0.0081, 0.004) == v.HOLDS
    assert v.decide(-0.0081, 0.004) == v.DOES_NOT_HOLD
    assert v.decide(np.nan, 0.01) == v.NOT_TESTABLE
    assert v.decide(np.inf, np.nan) == v.HOLDS  # one side never reached the target


def test_every_verdict_of_the_rule_is_one_the_report_accepts():
    assert {v.HOLDS, v.DOES_NOT_HOLD, v.TIE, v.NOT_TESTABLE} == set(VERDICTS)


def test_paired_se_is_that_of_the_per_fold_differences():
    ours = np.array([0.80, 0.70, 0.90, 0.60, 0.75])
    theirs = ours - np.array([0.02, 0.03, 0.01, 0.02, 0.02])  # ours better on every fold
    c = v.compare(ours, theirs, paired=True)
    d = ours - theirs
    assert c.diff == pytest.approx(d.mean())
    assert c.se == pytest.approx(d.std(ddof=1) / np.sqrt(d.size))
    assert c.verdict == v.HOLDS


def test_the_same_numbers_unpaired_are_a_tie_because_the_folds_vary_more_than_the_gap():
    ours = np.array([0.80, 0.70, 0.90, 0.60, 0.75])
    theirs = ours - np.array([0.02, 0.03, 0.01, 0.02, 0.02])
    c = v.compare(ours, theirs, paired=False)
    assert c.se == pytest.approx(np.hypot(ours.std(ddof=1), theirs.std(ddof=1)) / np.sqrt(5))
    assert c.verdict == v.TIE


def test_lower_is_better_flips_the_direction():
    errors_ours, errors_theirs = [0.10, 0.11, 0.12], [0.20, 0.21, 0.22]
    assert v.compare(errors_ours, errors_theirs, higher_is_better=False).verdict == v.HOLDS
    assert v.compare(errors_theirs, errors_ours, higher_is_better=False).verdict == v.DOES_NOT_HOLD


def test_paired_comparison_refuses_unequal_lengths():
    with pytest.raises(ValueError, match="paired=False"):
        v.compare([1.0, 2.0], [1.0], paired=True)


def test_against_a_published_number_the_se_is_that_of_our_mean():
    folds = np.array([0.20, 0.24, 0.22, 0.26, 0.18])
    se = folds.std(ddof=1) / np.sqrt(5)
    assert v.compare_to_number(folds, 0.22 + 0.5 * se, higher_is_better=False).verdict == v.TIE
    assert v.compare_to_number(folds, 0.22 + 2 * se, higher_is_better=False).verdict == v.HOLDS
    c = v.compare_to_number(folds, 0.22 - 2 * se, higher_is_better=False)
    assert c.verdict == v.DOES_NOT_HOLD and c.se == pytest.approx(se)


def test_a_margin_moves_the_line_the_claim_must_clear():
    # ours 1.5 points below theirs, "within 1 point" fails by 0.5; with SE 0.2 it does not hold
    c = v.compare_to_number(80.0, 81.5, margin=1.0, se=0.2)
    assert c.diff == pytest.approx(-0.5) and c.verdict == v.DOES_NOT_HOLD
    assert v.compare_to_number(80.0, 81.5, margin=1.0, se=1.0).verdict == v.TIE


def test_equal_accuracies_on_one_test_set_are_a_tie():
    c = v.compare_proportions(55.83, 55.83, 600, percent=True)
    assert c.diff == 0 and c.verdict == v.TIE
    big = v.compare_proportions(0.90, 0.80, 1000)
    assert big.se == pytest.approx(np.sqrt((0.9 * 0.1 + 0.8 * 0.2) / 1000))
    assert big.verdict == v.HOLDS


def test_a_single_draw_has_no_spread_so_the_sign_decides():
    assert v.compare([0.82], [0.81]).verdict == v.HOLDS
    assert v.compare([0.81], [0.81]).verdict == v.TIE


@pytest.mark.parametrize(
    "verdicts, every, two",
    [
        (["holds", "holds", "holds"], "holds", "holds"),
        (["holds", "tie", "tie"], "tie", "tie"),
        (["holds", "tie", "does not hold"], "does not hold", "tie"),
        (["does not hold", "does not hold", "tie"], "does not hold", "does not hold"),
    ],
)
def test_every_and_at_least_count_ties_as_undecided(verdicts, every, two):
    assert v.all_of(verdicts) == every
    assert v.at_least(verdicts, 2) == two


def test_the_tally_names_ties():
    assert v.tally(["holds", "tie", "does not hold", "tie"]) == "1 better, 2 within 1 SE, 1 worse"


def test_better_or_equal_claims_leave_a_tie_a_tie():
    assert v.all_of(["holds", "tie", "tie"]) == v.TIE
    assert v.all_of(["holds", "tie", "does not hold"]) == v.DOES_NOT_HOLD
    assert v.all_of([]) == v.NOT_TESTABLE


def test_time_ratios_within_the_timing_noise_are_ties():
    assert v.compare_ratio(1.2).verdict == v.TIE
    assert v.compare_ratio(1 / 1.4).verdict == v.TIE
    assert v.compare_ratio(168.0).verdict == v.HOLDS
    assert v.compare_ratio(0.5).verdict == v.DOES_NOT_HOLD
    assert v.compare_ratio(np.inf).verdict == v.HOLDS
    assert v.compare_ratio(np.nan).verdict == v.NOT_TESTABLE


def test_a_share_is_above_chance_only_when_its_wilson_interval_is():
    assert v.share_above_chance(2, 2).verdict == v.TIE  # two items cannot tell
    assert v.share_above_chance(5, 5).verdict == v.HOLDS
    assert v.share_above_chance(5, 10).verdict == v.TIE
    assert v.share_above_chance(0, 6).verdict == v.DOES_NOT_HOLD
    assert v.share_above_chance(0, 0).verdict == v.NOT_TESTABLE


def test_the_wilson_interval_holds_the_share_and_narrows_with_more_items():
    few, many = v.share_above_chance(6, 10), v.share_above_chance(60, 100)
    assert few.low < few.share < few.high and many.low < many.share < many.high
    assert many.high - many.low < few.high - few.low
    assert v.share_above_chance(59, 100).verdict == v.TIE  # 0.59, interval 0.492-0.681
    assert v.share_above_chance(60, 100).verdict == v.HOLDS  # 0.60, interval 0.502-0.691


def test_a_share_test_refuses_impossible_counts():
    with pytest.raises(ValueError, match="0..n"):
        v.share_above_chance(3, 2)
    with pytest.raises(ValueError, match="strictly between"):
        v.share_above_chance(1, 2, chance=1.0)


def _c(diff, se=1.0):
    return v.Comparison(diff, se, v.decide(diff, se))


def test_a_family_of_one_is_the_single_rule_and_the_bound_grows_with_its_size():
    assert v.family_bound(1) == pytest.approx(1.0)
    assert 1.0 < v.family_bound(2) < v.family_bound(11) < v.family_bound(20)
    assert v.family_bound(11) == pytest.approx(2.1856, abs=1e-4)
    with pytest.raises(ValueError, match="at least one"):
        v.family_bound(0)


@pytest.mark.parametrize(
    "diffs, every",
    [
        ([2.0] * 11, v.HOLDS),  # every set clears 1 SE
        ([2.0] * 10 + [0.5], v.TIE),  # one inside its SE
        ([0.3] * 10 + [-1.5], v.TIE),  # 1.5 SE short: one of eleven, within the family's bound
        ([0.3] * 10 + [-2.7], v.DOES_NOT_HOLD),  # beyond 2.19 SE: it counts against
        ([-1.5], v.DOES_NOT_HOLD),  # alone, 1 SE decides
    ],
)
def test_every_set_claims_read_their_comparisons_as_one_family(diffs, every):
    assert v.all_of([_c(d) for d in diffs]) == every


def test_at_least_reads_the_family_alike():
    members = [_c(2.0)] * 8 + [_c(-1.5)] * 3  # 8 clear wins; 3 shortfalls within the bound
    assert v.at_least(members, 9) == v.TIE
    assert v.at_least([_c(2.0)] * 8 + [_c(-3.0)] * 3, 9) == v.DOES_NOT_HOLD


def test_a_tolerance_band_is_not_widened_and_decided_verdicts_stay():
    # timing ratios carry our noise band, not a standard error: 1/1.6 is slower, whatever m
    ratios = [v.compare_ratio(3.0)] * 10 + [v.compare_ratio(1 / 1.6)]
    assert v.all_of(ratios) == v.DOES_NOT_HOLD
    assert v.all_of([v.HOLDS, v.DOES_NOT_HOLD, _c(2.0)]) == v.DOES_NOT_HOLD


def test_eleven_harmless_comparisons_fail_as_rarely_as_one():
    """Under no difference at all, the family rule calls an 11-set claim "does not hold"
    about as often as the single rule calls one comparison so (15.9 %), where eleven
    separate 1-SE tests would fail about 85 % of the time."""
    rng = np.random.default_rng(0)
    draws = rng.standard_normal((4000, 11))
    family = np.mean([v.all_of([_c(d) for d in row]) == v.DOES_NOT_HOLD for row in draws])
    separate = np.mean((draws < -1).any(axis=1))
    assert 0.13 < family < 0.18
    assert separate > 0.8


@pytest.mark.parametrize(
    "diffs, verdict",
    [
        ([0.2, -0.5, 0.0], v.HOLDS),  # all within the noise: what "equal" looks like
        ([2.0, 2.0], v.HOLDS),
        ([0.3] * 10 + [-1.5], v.HOLDS),  # a shortfall inside the family's bound
        ([0.3] * 10 + [-2.7], v.DOES_NOT_HOLD),
        ([-1.5], v.DOES_NOT_HOLD),
    ],
)
def test_no_worse_claims_hold_unless_a_member_falls_short_beyond_the_bound(diffs, verdict):
    assert v.no_worse([_c(d) for d in diffs]) == verdict
    assert v.no_worse([]) == v.NOT_TESTABLE


def test_a_likeness_holds_inside_its_margin_fails_outside_and_ties_in_the_noise():
    from repro.core.verdicts import similar

    base = np.array([0.80, 0.82, 0.81, 0.79])
    assert similar(base + 0.002, base, margin=0.01).verdict == "holds"
    assert similar(base + 0.05, base, margin=0.01).verdict == "does not hold"
    # differences that swing across the margin: the data cannot tell
    noisy = base + np.array([0.03, -0.01, 0.02, -0.02])
    assert similar(noisy, base, margin=0.01).verdict == "tie"
    with pytest.raises(ValueError, match="paired"):
        similar(base, base[:3], margin=0.01)


def test_about_half_holds_inside_its_band_fails_outside_and_ties_when_ties_straddle_it():
    from repro.core.verdicts import about_share

    better, worse, even = (v.Comparison(d, 0.1, v.decide(d, 0.1)) for d in (1.0, -1.0, 0.0))
    assert about_share([better, better, worse, worse], 1 / 3, 2 / 3) == "holds"
    assert about_share([better] * 4, 1 / 3, 2 / 3) == "does not hold"
    assert about_share([worse] * 4, 1 / 3, 2 / 3) == "does not hold"
    assert about_share([better, even, even, worse], 1 / 3, 2 / 3) == "tie"
    assert about_share([], 1 / 3, 2 / 3) == "not testable"


def test_repeated_splits_widen_the_se_by_the_overlap_of_their_training_sets():
    rng = np.random.default_rng(1)
    ours, theirs = 0.80 + rng.normal(0, 0.01, 10), np.full(10, 0.80)
    plain = v.compare(ours, theirs)
    corrected = v.compare_resampled(ours, theirs, test_share=0.2)
    assert corrected.diff == plain.diff
    # (1/J + n_test/n_train) against 1/J: sqrt(1 + 10 * 0.25)
    assert corrected.se == pytest.approx(plain.se * np.sqrt(3.5))
    clear = v.compare_resampled(ours + 0.05, theirs, test_share=0.2)
    assert clear.verdict == "holds"
    assert v.compare_resampled(ours - 0.05, theirs, test_share=0.2).verdict == "does not hold"
    with pytest.raises(ValueError, match="test_share"):
        v.compare_resampled(ours, theirs, test_share=1.0)
