"""Rule stems scored against VADER's lexicon (Hutto & Gilbert 2014), read from the
installed vaderSentiment package: the verdict on "the selected stems carry clear sentiment"."""

from __future__ import annotations

import pytest

from repro.core.reference import paper_table
from repro.core.verdicts import DOES_NOT_HOLD, HOLDS, TIE
from repro.rules_first import sentiment_lexicon as lx
from repro.rules_first.tweets import stem_tokens

POSITIVE = ["love", "great", "happi", "amaz", "thank", "perfect", "glad", "excit"]
NEGATIVE = ["disappoint", "hate", "worst", "terribl", "stupid", "blame", "fail", "ruin"]


def _verdicts(stems, labels):
    return {
        c["claim"].split("(")[-1]: c["verdict"]
        for c in lx.stems_claims("T", lx.score_stems(stems, labels))
    }


def test_disappointed_stems_to_a_clearly_negative_stem_of_the_lexicon():
    (stem,) = stem_tokens("disappointed")
    row = lx.stem_lexicon().loc[stem]
    assert stem == "disappoint"
    assert row["valence"] <= -lx.CLEAR_VALENCE
    assert "disappointed" in row["words"].split(", ")


def test_a_stems_valence_is_the_mean_of_the_lexicon_words_that_stem_to_it():
    lex = lx.vader_lexicon()
    words = lx.stem_lexicon().loc["love", "words"].split(", ")
    assert {"love", "loved", "loving"} <= set(words)
    assert all(stem_tokens(w) == ["love"] for w in words)
    assert lx.stem_lexicon().loc["love", "valence"] == pytest.approx(lex[words].mean())


def test_emoticons_and_phrases_have_no_stem():
    lex = lx.vader_lexicon()
    assert ":)" in lex.index and "fed up" in lex.index  # the whole file was read
    assert "" not in lx.stem_lexicon().index
    assert "fed up" not in lx.stem_lexicon().index


def test_clearly_positive_stems_of_positive_rules_hold_in_both_readings():
    verdicts = _verdicts(POSITIVE, ["positive"] * len(POSITIVE))
    assert set(verdicts.values()) == {HOLDS}


def test_the_same_stems_predicting_negative_do_not_hold():
    scored = lx.score_stems(POSITIVE, ["negative"] * len(POSITIVE))
    assert set(scored["agreement"]) == {"opposite"}
    assert set(_verdicts(POSITIVE, ["negative"] * len(POSITIVE)).values()) == {DOES_NOT_HOLD}


def test_a_mixed_list_is_a_tie():
    # half the rules predict the sentiment of their stem, half the opposite one
    stems = POSITIVE[:4] + NEGATIVE[:4]
    labels = ["positive", "positive", "negative", "negative"] * 2
    scored = lx.score_stems(stems, labels)
    assert (scored["agreement"] == "agrees").sum() == 4
    assert set(_verdicts(stems, labels).values()) == {TIE}


def test_stems_not_in_the_lexicon_count_against_the_claim_only_over_all_stems():
    topics = ["hebdo", "isi", "ira", "maiden", "tour", "cream", "dunn", "toni", "middl"]
    stems = POSITIVE + topics
    scored = lx.score_stems(stems, ["positive"] * len(stems))
    assert (scored["agreement"] == "absent").sum() == len(topics)
    verdicts = _verdicts(stems, ["positive"] * len(stems))
    assert verdicts["stems found in the lexicon)"] == HOLDS
    assert verdicts["all rule stems, those not in the lexicon counted as not agreeing)"] == TIE


def test_a_faint_stem_neither_agrees_nor_opposes():
    # "fine" is rated 0.8: sentiment, but not clear sentiment at our threshold of 1
    scored = lx.score_stems(["fine", "hebdo"], ["positive", "positive"])
    assert scored["agreement"].tolist() == ["faint", "absent"]
    assert lx.agreement_test(scored).n == 1


def test_the_papers_own_stems_with_the_sentiment_of_their_words_hold():
    positive = {"happi", "excit", "thank", "magic", "love", "great"}
    stems = [stem_tokens(s)[0] for s in paper_table("paper5_stems")["stem"]]
    labels = ["positive" if s in positive else "negative" for s in stems]
    scored = lx.score_stems(stems, labels)
    assert (scored["agreement"] == "opposite").sum() == 0
    assert lx.agreement_test(scored, "all").verdict == HOLDS


def test_labels_other_than_positive_and_negative_are_refused():
    with pytest.raises(ValueError, match="'positive' or 'negative'"):
        lx.score_stems(["love"], ["neutral"])
    with pytest.raises(ValueError, match="one label per stem"):
        lx.score_stems(["love", "hate"], ["positive"])
