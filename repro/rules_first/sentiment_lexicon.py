"""Rule stems scored against a published sentiment lexicon.

Cohen et al. (2019, §7.2) say the stems their greedy algorithm chose as rules on Twitter
"carry clear sentiment". Rather than judge that by eye, we look every stem up in VADER's
lexicon: C. J. Hutto and E. Gilbert, "VADER: A parsimonious rule-based model for sentiment
analysis of social media text", ICWSM 2014. Ten raters scored each of its 7,520 entries
(words, slang, emoticons) from -4 (extremely negative) to +4 (extremely positive); it was
built for microblog text, as the tweets are. It is third-party data under the MIT licence
(copyright C. J. Hutto), read from the installed PyPI package ``vaderSentiment`` (file
``vader_lexicon.txt``, version 3.3.2) and never copied into this repository.

The lexicon's words are stemmed as the tweets are (:func:`repro.rules_first.tweets.stem_tokens`); a
stem's valence is the mean over the lexicon words that map to it ("disappoint" gets those
of disappoint, disappointed, disappointing, ...). A stem carries *clear* sentiment when
that mean is at least :data:`CLEAR_VALENCE` from 0: our threshold, not the paper's.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

import numpy as np
import pandas as pd

from repro.core.verdicts import ShareTest, share_above_chance
from repro.rules_first.tweets import stem_tokens

__all__ = [
    "CLEAR_VALENCE",
    "LEXICON",
    "vader_lexicon",
    "stem_lexicon",
    "score_stems",
    "READINGS",
    "agreement_test",
    "stems_claims",
]

LEXICON = (
    "VADER lexicon (Hutto & Gilbert 2014; MIT licence), vader_lexicon.txt of the "
    "vaderSentiment package"
)
CLEAR_VALENCE = 1.0
"""A stem's mean valence must be at least this far from 0 (on VADER's -4..+4 scale) to
count as clear sentiment (ours): it sets aside the lexicon's faintest fifth (22% of its
tokens, e.g. "okay" 0.9, "fine" 0.8, "want" 0.3)."""

#: What a scored stem can be: its lexicon sentiment is clear and that of the rule's label,
#: clear and the other label's, in the lexicon but faint, or not in the lexicon at all.
AGREEMENT = ("agrees", "opposite", "faint", "absent")


@lru_cache(maxsize=1)
def vader_lexicon() -> pd.Series:
    """VADER's mean valence per token (-4..+4), as the installed package ships it; the few
    tokens listed twice ("lol", "ok", ...) get the mean of their two entries."""
    from importlib.resources import files

    try:
        text = (files("vaderSentiment") / "vader_lexicon.txt").read_text(encoding="utf-8")
    except ModuleNotFoundError as err:
        raise ModuleNotFoundError(
            "the sentiment lexicon comes with the vaderSentiment package: "
            'pip install vaderSentiment (or pip install ".[repro]")'
        ) from err
    # one token per line: token, mean valence, its SD, the ten ratings (tab-separated)
    rows = [line.split("\t")[:2] for line in text.splitlines() if line.strip()]
    valence = pd.Series(
        [float(v) for _, v in rows], index=pd.Index([w for w, _ in rows], name="word")
    )
    return valence.groupby(level="word", sort=False).mean().rename("valence")


@lru_cache(maxsize=1)
def stem_lexicon() -> pd.DataFrame:
    """Mean valence per stem (index), with the lexicon ``words`` behind it.

    Tokens are cleaned and stemmed as tweets are; emoticons (nothing left after cleaning)
    and phrases ("fed up": more than one stem) have no single stem and are left out.
    """
    lex = vader_lexicon()
    stems = [stem_tokens(word) for word in lex.index]
    keep = np.array([len(s) == 1 for s in stems])
    words = pd.DataFrame(
        {
            "stem": [s[0] for s, k in zip(stems, keep) if k],
            "word": lex.index[keep],
            "valence": lex.to_numpy()[keep],
        }
    )
    return words.groupby("stem").agg(
        valence=("valence", "mean"), words=("word", lambda w: ", ".join(sorted(w)))
    )


def score_stems(
    stems: Iterable[str], labels: Iterable[str], clear: float = CLEAR_VALENCE
) -> pd.DataFrame:
    """One row per rule: its stem, the label it predicts, the stem's lexicon valence and
    words, and whether the valence ``agrees`` with the label (clear and of its sign), is
    ``opposite``, ``faint`` (``|valence| < clear``) or ``absent`` from the lexicon.

    Labels must be "positive" or "negative" (:data:`repro.rules_first.text.LABELS`).
    """
    stems, labels = [str(s) for s in stems], [str(lab) for lab in labels]
    if len(stems) != len(labels):
        raise ValueError(f"one label per stem: got {len(stems)} stems and {len(labels)} labels")
    odd = sorted(set(labels) - {"positive", "negative"})
    if odd:
        raise ValueError(f"labels must be 'positive' or 'negative', got {odd}")
    lex = stem_lexicon().reindex(stems)
    valence = lex["valence"].to_numpy()
    sign = np.where(np.array(labels) == "positive", 1.0, -1.0)
    agreement = np.select(
        [np.isnan(valence), np.abs(valence) < clear, sign * valence > 0],
        ["absent", "faint", "agrees"],
        "opposite",
    )
    scored = pd.DataFrame(
        {
            "stem": stems,
            "label": labels,
            "valence": valence.round(2),
            "agreement": agreement,
            "lexicon words": lex["words"].fillna("").to_numpy(),
        }
    )
    scored.attrs["clear"] = clear  # for the evidence of stems_claims
    return scored


#: The two readings of "the stems carry clear sentiment" that we test: among the stems the
#: lexicon knows (a stem it lacks is no evidence either way), and among all the rule stems
#: (a stem the lexicon lacks, a name or topic such as "hebdo", carries no clear sentiment).
READINGS = {
    "found": "stems found in the lexicon",
    "all": "all rule stems, those not in the lexicon counted as not agreeing",
}


def agreement_test(scored: pd.DataFrame, among: str = "found") -> ShareTest:
    """Share of the stems whose lexicon valence agrees with their rule, against chance
    (1/2: a sign guessed at random; :func:`repro.core.verdicts.share_above_chance`).

    ``among="found"`` counts the stems in the lexicon (faint ones as not agreeing);
    ``"all"`` every stem (:data:`READINGS`).
    """
    if among not in READINGS:
        raise ValueError(f"among must be one of {list(READINGS)}, got {among!r}")
    agree = int((scored["agreement"] == "agrees").sum())
    n = int((scored["agreement"] != "absent").sum()) if among == "found" else len(scored)
    return share_above_chance(agree, n)


def stems_claims(corpus: str, scored: pd.DataFrame, note: str = "") -> list[dict]:
    """The claim "the selected stems carry clear sentiment" decided on ``scored``
    (:func:`score_stems`), one row per reading (:data:`READINGS`); ``note`` is added to the
    evidence."""
    counts = scored["agreement"].value_counts().reindex(AGREEMENT, fill_value=0)
    found = len(scored) - counts["absent"]
    tally = (
        f"{LEXICON}: of {len(scored)} rule stems, {found} are in the lexicon and "
        f"{counts['absent']} not; of those in it, {counts['agrees']} agree with their rule's "
        f"label at |valence| >= {scored.attrs.get('clear', CLEAR_VALENCE):g} (threshold ours), {counts['opposite']} "
        f"oppose it and {counts['faint']} are faint"
    )
    out = []
    for among, reading in READINGS.items():
        test = agreement_test(scored, among)
        out.append(
            {
                "claim": f"{corpus}: the selected stems carry clear sentiment ({reading})",
                "verdict": test.verdict,
                "evidence": f"{tally}; agreeing: {test.short()}, confidence ours"
                + (f"; {note}" if note else ""),
            }
        )
    return out
