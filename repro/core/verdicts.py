"""One rule for every verdict that compares numbers: a difference within its standard
error is a tie.

A claim of the form "A is better than B" holds when A's advantage exceeds one standard
error of the difference, does not hold when A's disadvantage exceeds it, and is a **tie**
otherwise: the data cannot tell the two apart, and a verdict either way would be noise.

Where the standard error comes from:

- :func:`compare`: both sides measured by us over the same folds, seeds or draws. Paired
  (the default, when the i-th value of each side comes from the same fold or draw), the SE
  is that of the mean of the per-fold differences; unpaired, the two SEs of the means
  combined in quadrature.
- :func:`compare_to_number`: against a paper's single published number, which has no
  spread we can see. The SE is that of **our** mean only; the paper's number is taken as
  exact (its own noise would only widen the tie).
- :func:`compare_resampled`: both sides over repeated random train/test splits of one data
  set; the splits' training sets overlap, so the SE is Nadeau and Bengio's corrected one.
- :func:`compare_proportions`: two accuracies on one test set of ``n`` rows where only the
  accuracies were kept (no per-row predictions to pair). The SE is the binomial one of
  each accuracy combined in quadrature, which ignores the positive correlation of two
  classifiers on the same rows: it errs towards calling a tie.

A ``margin`` moves the line the claim must clear: a claim "within 1 point of B" is "A > B
- 1". Where the margin is ours and not the paper's, the evidence must say "tolerance
ours" (:func:`tolerance_note`).

- :func:`compare_ratio`: a ratio of two times (slower / faster) from runs timed once or
  a few times: no standard error exists, so a ratio within 1/``noise`` to ``noise``
  (:data:`TIMING_NOISE`, ours) is a tie.

- :func:`share_above_chance`: a count of hits out of ``n`` items (stems whose lexicon
  sentiment agrees with their rule) against a chance rate: no per-fold spread exists, so
  the Wilson score interval of the share at :data:`SHARE_CONFIDENCE` (95%, ours) is the
  noise; an interval that holds the chance rate is a tie.

A single value per side (one fold, one draw) has no measurable spread: the SE is taken as
0, so the sign decides and an exact equality is a tie.

**"No worse" claims** ("never raises the error", "no less accurate", "at least as
accurate") have one reading, :func:`no_worse`: they hold unless a member falls short
beyond the family's bound, since a difference within the noise is what "equal" looks like.
Claims of "better" keep the tie.

**Claims over a family** ("on every data set", "on at least 8 of 11"): :func:`all_of` and
:func:`at_least` read their comparisons as one family of ``m`` tests. A member holds when
its advantage exceeds its SE, as alone. It counts *against* the claim only when its
disadvantage exceeds :func:`family_bound` ``(m)`` SEs: the bound at which ``m`` harmless
comparisons together are as likely to show a false failure as one comparison is at one SE
(one-sided, 15.9 %; Bonferroni). For ``m = 1`` the bound is 1 SE, the single rule; for 11
sets it is 2.18 SE. Between the two the member is a tie. Without this, eleven 1-SE tests
of a change that does no harm would fail somewhere 85 % of the time. The bound widens only
standard errors; a tolerance of our own (a timing ratio's noise band) stays as it is.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

__all__ = [
    "DOES_NOT_HOLD",
    "HOLDS",
    "NOT_TESTABLE",
    "TIE",
    "TIMING_NOISE",
    "SHARE_CONFIDENCE",
    "MANY_FEWER",
    "Comparison",
    "ShareTest",
    "all_of",
    "at_least",
    "about_share",
    "compare",
    "compare_resampled",
    "similar",
    "compare_proportions",
    "compare_ratio",
    "compare_to_number",
    "decide",
    "family",
    "family_bound",
    "family_note",
    "no_worse",
    "rows_of",
    "share_above_chance",
    "tally",
    "tolerance_note",
]

HOLDS, DOES_NOT_HOLD, TIE, NOT_TESTABLE = "holds", "does not hold", "tie", "not testable"


@dataclass(frozen=True)
class Comparison:
    """A claim's comparison: ``diff`` is the advantage in the claim's direction (positive
    favours the claim, the margin included), ``se`` its standard error."""

    diff: float
    se: float
    verdict: str
    #: ``se`` is a standard error (False: a tolerance band, e.g. a timing ratio's noise)
    standard_error: bool = True

    def __str__(self) -> str:
        return f"{self.diff:+.4g} ± {self.se:.2g} (SE): {self.verdict}"

    def short(self, digits: int = 4) -> str:
        """``+0.0123 ± 0.0045``: the advantage and its standard error."""
        return f"{self.diff:+.{digits}f} ± {self.se:.{digits}f}"


def decide(diff: float, se: float) -> str:
    """holds if ``diff > se``, does not hold if ``diff < -se``, tie in between (both ends
    included); not testable if either is NaN. An infinite ``diff`` (one side never
    reached the target) decides by its sign."""
    if np.isnan(diff) or (np.isnan(se) and np.isfinite(diff)):
        return NOT_TESTABLE
    if np.isinf(diff):
        return HOLDS if diff > 0 else DOES_NOT_HOLD
    if abs(diff) <= se:
        return TIE
    return HOLDS if diff > 0 else DOES_NOT_HOLD


def _values(x, name: str) -> np.ndarray:
    a = np.asarray(x, dtype=float).ravel()
    a = a[~np.isnan(a)]
    if a.size == 0:
        raise ValueError(f"{name} holds no number: a comparison needs at least one value")
    return a


def _sem(a: np.ndarray) -> float:
    return float(a.std(ddof=1) / np.sqrt(a.size)) if a.size > 1 else 0.0


def _sign(higher_is_better: bool) -> float:
    return 1.0 if higher_is_better else -1.0


def compare(
    ours: Sequence[float],
    theirs: Sequence[float],
    *,
    paired: bool = True,
    higher_is_better: bool = True,
    margin: float = 0.0,
) -> Comparison:
    """Ours against theirs, both measured over folds, seeds or draws.

    Parameters
    ----------
    ours, theirs : sequence of float
        One value per fold (or draw); with ``paired`` the i-th values come from the same
        fold and must be as many.
    paired : bool, default=True
        SE of the mean per-fold difference (paired) or of the difference of the two means
        (independent samples).
    higher_is_better : bool, default=True
        False for errors, sample sizes and times: then lower is the claim's direction.
    margin : float, default=0.0
        How far ours may fall short of theirs and the claim still hold (``diff`` includes
        it).
    """
    a, b = np.asarray(ours, dtype=float).ravel(), np.asarray(theirs, dtype=float).ravel()
    if paired:
        if a.shape != b.shape:
            raise ValueError(
                f"paired comparison needs one value per fold on each side, got "
                f"{a.size} and {b.size}; pass paired=False for independent samples"
            )
        keep = ~(np.isnan(a) | np.isnan(b))
        d = _values(a[keep] - b[keep], "ours - theirs")
        diff, se = _sign(higher_is_better) * float(d.mean()), _sem(d)
    else:
        a, b = _values(a, "ours"), _values(b, "theirs")
        diff = _sign(higher_is_better) * float(a.mean() - b.mean())
        se = float(np.hypot(_sem(a), _sem(b)))
    diff += margin
    return Comparison(diff, se, decide(diff, se))


def compare_resampled(
    ours: Sequence[float],
    theirs: Sequence[float],
    *,
    test_share: float,
    higher_is_better: bool = True,
    margin: float = 0.0,
) -> Comparison:
    """:func:`compare`, paired, for values from repeated random train/test splits of one data
    set: their training sets overlap, so the per-split differences are correlated and the
    plain SE is too small. The corrected SE of Nadeau & Bengio (2003) takes the variance of
    the mean difference as ``(1/J + n_test/n_train)`` times the variance of the differences
    over the ``J`` splits (``test_share``: the test rows' share of each split)."""
    if not 0 < test_share < 1:
        raise ValueError(f"test_share is a share of the rows in (0, 1), got {test_share!r}")
    plain = compare(ours, theirs, higher_is_better=higher_is_better, margin=margin)
    a = np.asarray(ours, dtype=float).ravel()
    b = np.asarray(theirs, dtype=float).ravel()
    d = (a - b)[~(np.isnan(a) | np.isnan(b))]
    if d.size < 2:
        return plain
    ratio = test_share / (1 - test_share)
    se = float(np.sqrt((1 / d.size + ratio) * d.var(ddof=1)))
    return Comparison(plain.diff, se, decide(plain.diff, se))


def similar(ours: Sequence[float], theirs: Sequence[float], *, margin: float) -> Comparison:
    """A claim of "behaves like": ours and theirs, paired over folds or draws, differ by
    less than ``margin``.

    It holds when the mean difference is inside the margin by more than its SE, does not
    hold when it is outside by more than its SE, and is a tie otherwise, so noise can
    neither prove nor refute a likeness. ``diff`` is the room left: ``margin - |mean|``.
    """
    a, b = np.asarray(ours, dtype=float).ravel(), np.asarray(theirs, dtype=float).ravel()
    if a.shape != b.shape:
        raise ValueError(f"similar needs paired values, got {a.size} and {b.size}")
    keep = ~(np.isnan(a) | np.isnan(b))
    d = _values(a[keep] - b[keep], "ours - theirs")
    room, se = float(margin) - abs(float(d.mean())), _sem(d)
    return Comparison(room, se, decide(room, se))


def compare_to_number(
    ours: Sequence[float] | float,
    published: float,
    *,
    higher_is_better: bool = True,
    margin: float = 0.0,
    se: float | None = None,
) -> Comparison:
    """Our per-fold values against a paper's single published number: the SE is that of
    our mean (the paper's number has no spread we can see).

    ``se`` gives our mean's SE directly when only the mean was kept (``ours`` then a
    single number).
    """
    a = _values(ours, "ours")
    own = _sem(a) if se is None else float(se)
    diff = _sign(higher_is_better) * float(a.mean() - published) + margin
    return Comparison(diff, own, decide(diff, own))


def compare_proportions(
    ours: float,
    theirs: float,
    n: int,
    *,
    higher_is_better: bool = True,
    margin: float = 0.0,
    percent: bool = False,
) -> Comparison:
    """Two proportions (accuracies) on the same ``n`` test rows, per-row results not kept.

    SE ``sqrt(p1 (1 - p1) / n + p2 (1 - p2) / n)``; ``percent`` when the proportions (and
    the margin, and so ``diff`` and ``se``) are in percent.
    """
    if n < 1:
        raise ValueError(f"n must be the number of test rows (at least 1), got {n}")
    scale = 100.0 if percent else 1.0
    p, q = ours / scale, theirs / scale
    se = scale * float(np.sqrt((p * (1 - p) + q * (1 - q)) / n))
    diff = _sign(higher_is_better) * (ours - theirs) + margin
    return Comparison(diff, se, decide(diff, se))


TIMING_NOISE = 1.5
"""Time ratios within 1/1.5-1.5 are ties (our tolerance): the same short run on a shared
machine can take half again as long a minute later."""


def compare_ratio(ratio: float, *, noise: float = TIMING_NOISE) -> Comparison:
    """ "The first is faster" from a time ratio (its rival's time over its own: above 1
    favours it), compared on the log scale: a tie within 1/``noise`` to ``noise``. An
    infinite ratio (the rival never finished) holds; 0 (it never finished) does not."""
    if noise <= 1:
        raise ValueError(f"noise must be a ratio above 1, got {noise}")
    if np.isnan(ratio):
        return Comparison(np.nan, np.nan, NOT_TESTABLE)
    diff = float(np.log(ratio)) if ratio > 0 else -np.inf
    se = float(np.log(noise))
    return Comparison(diff, se, decide(diff, se), standard_error=False)


SHARE_CONFIDENCE = 0.95
"""Confidence of the Wilson interval :func:`share_above_chance` puts around a share (ours):
a share is "clearly" above chance only when the interval's lower end is."""


@dataclass(frozen=True)
class ShareTest:
    """``hits`` of ``n`` items against the rate ``chance``: the Wilson score interval
    ``low``-``high`` of the share at ``confidence``, and the verdict."""

    hits: int
    n: int
    chance: float
    low: float
    high: float
    confidence: float
    verdict: str

    @property
    def share(self) -> float:
        """``hits / n`` (NaN when ``n`` is 0)."""
        return self.hits / self.n if self.n else float("nan")

    def short(self, digits: int = 2) -> str:
        """``8 of 9 = 0.89 (95% Wilson interval 0.57-0.98; chance 0.5)``."""
        if not self.n:
            return f"0 items (chance {self.chance:g})"
        return (
            f"{self.hits} of {self.n} = {self.share:.{digits}f} ({self.confidence:.0%} Wilson "
            f"interval {self.low:.{digits}f}-{self.high:.{digits}f}; chance {self.chance:g})"
        )


def share_above_chance(
    hits: int, n: int, *, chance: float = 0.5, confidence: float = SHARE_CONFIDENCE
) -> ShareTest:
    """ "Most of these items are hits", for ``hits`` of ``n`` independent items against a
    rate ``chance`` (1/2 for a guessed sign).

    Holds when the Wilson score interval of ``hits / n`` at ``confidence`` lies above
    ``chance``, does not hold when it lies below, and is a tie when it holds ``chance``;
    not testable with no items. The Wilson interval, unlike ``p ± SE``, stays honest at
    shares of 0 and 1 and on a handful of items (2 of 2 is a tie).
    """
    from scipy.stats import binomtest

    if not 0 < chance < 1:
        raise ValueError(f"chance must be a rate strictly between 0 and 1, got {chance!r}")
    if not 0 <= hits <= n:
        raise ValueError(f"hits must lie in 0..n, got {hits} of {n}")
    if n == 0:
        return ShareTest(0, 0, chance, float("nan"), float("nan"), confidence, NOT_TESTABLE)
    ci = binomtest(int(hits), int(n)).proportion_ci(confidence_level=confidence, method="wilson")
    low, high = float(ci.low), float(ci.high)
    verdict = HOLDS if low > chance else DOES_NOT_HOLD if high < chance else TIE
    return ShareTest(int(hits), int(n), chance, low, high, confidence, verdict)


#: The chance that one comparison of a harmless difference falls below -1 SE (one-sided):
#: the false-failure rate of the single rule, kept for a whole family.
_SINGLE_FALSE_FAILURE = 0.15865525393145707


#: "many fewer" (rules, clauses, features): at most this share of the other's count, the one
#: reading of every such claim (ours; paper 1's own Table 2 meets it: RuB 5.0 of C5.0's 9.6)
MANY_FEWER = 0.6


def family_bound(m: int) -> float:
    """The SEs a member of a family of ``m`` comparisons must fall short by to count against
    the claim: the one-sided normal quantile at ``0.159 / m`` (1 for ``m = 1``)."""
    from scipy.stats import norm

    if m < 1:
        raise ValueError(f"a family has at least one comparison, got {m}")
    return float(norm.isf(_SINGLE_FALSE_FAILURE / m))


def family(comparisons: Iterable[Comparison | str]) -> list[str]:
    """Each member's verdict read within its family (see the module docstring): a
    disadvantage counts against the claim only beyond :func:`family_bound` of the family's
    size. Members given as verdict strings (sub-claims already decided) stay as they are."""
    members = list(comparisons)
    bound = family_bound(max(1, len(members)))
    out = []
    for c in members:
        if not isinstance(c, Comparison):
            out.append(str(c))
        elif c.verdict == DOES_NOT_HOLD and c.standard_error and c.diff >= -bound * c.se:
            out.append(TIE)
        else:
            out.append(c.verdict)
    return out


def family_note(m: int) -> str:
    """The words that say how a family of ``m`` comparisons was read."""
    return (
        f"read as one family of {m}: a shortfall counts against the claim only beyond "
        f"{family_bound(m):.2f} SE"
    )


def rows_of(table) -> list[Comparison]:
    """The comparisons a table keeps one per row as ``gain``, ``gain_se`` and ``verdict``
    (the form the per-set tables take), ready to be read as one family."""
    return [Comparison(r.gain, r.gain_se, r.verdict) for r in table.itertuples()]


def _verdicts(comparisons: Iterable[Comparison | str]) -> list[str]:
    return [c.verdict if isinstance(c, Comparison) else str(c) for c in comparisons]


def all_of(comparisons: Iterable[Comparison | str]) -> str:
    """A claim that must hold in every comparison ("on every data set"): does not hold if
    one member counts against it within its family (:func:`family`), holds if all hold, a
    tie otherwise; not testable when there are none.

    A claim of "no worse" has its own reading, :func:`no_worse`."""
    v = [x for x in family(comparisons) if x != NOT_TESTABLE]
    if not v:
        return NOT_TESTABLE
    if DOES_NOT_HOLD in v:
        return DOES_NOT_HOLD
    return HOLDS if all(x == HOLDS for x in v) else TIE


def no_worse(comparisons: Iterable[Comparison | str]) -> str:
    """A claim of "no worse" ("never raises the error", "no less accurate", "at least as
    accurate", "at or below"), the one reading used for every such claim: it holds unless
    some member counts against it within its family (:func:`family`), because a difference
    inside the noise is what "equal" looks like; it does not hold when one does. Not
    testable when there are no members."""
    v = [x for x in family(comparisons) if x != NOT_TESTABLE]
    if not v:
        return NOT_TESTABLE
    return DOES_NOT_HOLD if DOES_NOT_HOLD in v else HOLDS


def at_least(comparisons: Iterable[Comparison | str], needed: float) -> str:
    """A claim that must hold in at least ``needed`` of the comparisons ("on 7 of 10"):
    holds if that many hold, does not hold if that many cannot be reached even counting
    every tie (members read within their family, :func:`family`), a tie otherwise."""
    v = family(comparisons)
    won, tied = v.count(HOLDS), v.count(TIE)
    if won >= needed:
        return HOLDS
    return TIE if won + tied >= needed else DOES_NOT_HOLD


def about_share(comparisons: Iterable[Comparison | str], low: float, high: float) -> str:
    """A claim that one side is better on "about half" (a share between ``low`` and
    ``high``) of the comparisons: the share better lies between the members that hold and
    those that hold or tie (read within their family). Holds when that whole range is
    inside [low, high], does not hold when it misses it, a tie otherwise."""
    v = [x for x in family(comparisons) if x != NOT_TESTABLE]
    if not v:
        return NOT_TESTABLE
    least, most = v.count(HOLDS) / len(v), (v.count(HOLDS) + v.count(TIE)) / len(v)
    if low <= least and most <= high:
        return HOLDS
    if most < low or least > high:
        return DOES_NOT_HOLD
    return TIE


def tally(comparisons: Iterable[Comparison | str]) -> str:
    """``"3 better, 1 tie, 2 worse"`` for a claim's evidence."""
    v = _verdicts(comparisons)
    return f"{v.count(HOLDS)} better, {v.count(TIE)} within 1 SE, {v.count(DOES_NOT_HOLD)} worse"


def tolerance_note(value: str) -> str:
    """The words every verdict with a tolerance of our own choosing carries."""
    return f"tolerance ours: {value}"
