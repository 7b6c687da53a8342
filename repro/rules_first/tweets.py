"""Short-text sentiment with rules-first classifiers (Cohen et al. 2019, §7.2).

Pipeline: remove links, user mentions, numbers and special characters, Snowball-stem
every token, binary bag of stems (dictionary built on the development data). Splits are
sampled with stated seeds: the paper's 3K training + 1K evaluation (together the 4K
*development* set; the greedy holds out the evaluation quarter itself) and 8K held-out
test tweets, optionally at a stated class balance (the paper's is 4 positive tweets per
negative one).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd
from sklearn.feature_extraction.text import CountVectorizer

__all__ = ["clean_text", "stem_tokens", "make_stem_vectorizer", "TextSplits", "text_splits"]

_LINK = re.compile(r"(https?://|www\.)\S+")
_ENTITY = re.compile(r"&[a-z]+;|&#\d+;")
_APOSTROPHE = re.compile(r"['’`]")
_MENTION = re.compile(r"@\w+")
_NUMBER = re.compile(r"\b\w*\d\w*\b")
_SPECIAL = re.compile(r"[^a-z]+")


def clean_text(text: str) -> str:
    """Lower-case; drop links, HTML entities, user mentions (``@name``: an account, not a
    word) and tokens holding a digit (numbers, times, scores); turn every other special
    character into a space.

    Apostrophes are removed rather than split on, so "don't" stays one token ("dont").
    Without mentions and numbers the SemEval dictionary of 4,000 development tweets has
    about 8.2K stems (10.0K with them; the paper reports about 6.5K).
    """
    text = _LINK.sub(" ", str(text).lower())
    text = _ENTITY.sub(" ", text)
    text = _MENTION.sub(" ", text)
    text = _APOSTROPHE.sub("", text)
    text = _NUMBER.sub(" ", text)
    return _SPECIAL.sub(" ", text).strip()


@lru_cache(maxsize=1)
def _stemmer():
    import snowballstemmer

    return snowballstemmer.stemmer("english")


@lru_cache(maxsize=200_000)
def _stem(word: str) -> str:
    # The pure-Python stemmer is slow; words repeat a lot, so memoise them.
    return _stemmer().stemWord(word)


def stem_tokens(text: str) -> list[str]:
    """Snowball (Porter 2) stems of the cleaned text's tokens, e.g. "disappointed" -> "disappoint"."""
    return [_stem(w) for w in clean_text(text).split()]


def make_stem_vectorizer(min_df: int = 1) -> CountVectorizer:
    """Binary bag of stems: 1 where the stem occurs in the text.

    ``get_feature_names_out()`` gives the stems, so rules print as
    ``IF "disappoint" in tweet THEN negative``.
    """
    return CountVectorizer(analyzer=stem_tokens, binary=True, min_df=min_df, dtype=np.float64)


@dataclass
class TextSplits:
    """Development (train + evaluation) and test texts with labels, and how they were drawn."""

    dev_text: pd.Series
    dev_y: np.ndarray
    test_text: pd.Series
    test_y: np.ndarray
    description: str
    dev_rows: np.ndarray | None = None
    """The development rows' positions in the dataset (to keep them out of other draws'
    test samples)."""


def text_splits(
    name: str,
    n_dev: int,
    n_test: int,
    seed: int = 0,
    pool_split: str | None = "train",
    label_names=("negative", "positive"),
    pos_per_neg: float | None = None,
    loader=None,
    held_out: np.ndarray | None = None,
) -> TextSplits:
    """Disjoint random development and test samples of a text dataset.

    Parameters
    ----------
    name : str
        ``"semeval2017_task4a"`` or ``"sentiment_labelled_sentences"``.
    n_dev, n_test : int
        Sizes of the development (training + evaluation) and test samples.
    seed : int
        Seed of the draw (``numpy.random.default_rng(seed)``).
    pool_split : str or None
        Draw from the rows whose meta ``split`` equals this value (SemEval's training
        tweets); None draws from all rows.
    label_names : (str, str)
        Names of labels 0 and 1, used as the classes so rules print in words.
    pos_per_neg : float, optional
        Draw each sample with this many label-1 rows per label-0 row (Cohen et al. 2019,
        §7.2: "four times more positive than negative training examples"); None draws
        at the pool's own balance.
    held_out : array of int, optional
        Rows the test sample never holds: the development rows of the draw on which a
        choice was made (a threshold by cross-validation), so that no draw judges that
        choice on rows it saw. The development sample is drawn as without it, and the
        test sample from the rest in the same random order, skipping these rows; a draw's
        own development rows change nothing.
    """
    if loader is None:
        from rulelab.data import load_dataset as loader
    X, y, meta = loader(name, with_meta=True)
    pool = np.arange(len(X))
    if pool_split is not None and "split" in meta:
        pool = pool[(meta["split"] == pool_split).to_numpy()]
    if n_dev + n_test > len(pool):
        raise ValueError(f"{name} has {len(pool)} rows to draw from; asked for {n_dev} + {n_test}")
    rng = np.random.default_rng(seed)
    keep = None if held_out is None else np.asarray(held_out)
    if pos_per_neg is None:
        draw = rng.permutation(pool)
        dev, rest = draw[:n_dev], draw[n_dev:]
        test = _first(rest, n_test, keep, name)
    else:
        dev, test = _balanced_draw(
            pool, y.to_numpy()[pool], n_dev, n_test, pos_per_neg, rng, name, keep
        )
    names = np.asarray(label_names, dtype=object)
    text = X["text"].astype(str)
    return TextSplits(
        text.iloc[dev].reset_index(drop=True),
        names[y.to_numpy()[dev]],
        text.iloc[test].reset_index(drop=True),
        names[y.to_numpy()[test]],
        f"{name}: {n_dev} development + {n_test} test rows drawn with seed {seed} "
        f"from {len(pool)} rows"
        + (f" (split == {pool_split!r})" if pool_split and "split" in meta else "")
        + (f", {pos_per_neg:g} label-1 rows per label-0 row" if pos_per_neg else "")
        + (", test rows outside the held-out development rows" if keep is not None else ""),
        dev,
    )


def _first(rows: np.ndarray, n: int, held_out: np.ndarray | None, name: str) -> np.ndarray:
    """The first ``n`` of ``rows`` (in their random order) not among ``held_out``."""
    if held_out is not None:
        rows = rows[~np.isin(rows, held_out)]
    if len(rows) < n:
        raise ValueError(
            f"{name} has {len(rows)} rows left for a test sample of {n} outside the "
            "development rows and the held-out rows: draw fewer rows"
        )
    return rows[:n]


def _balanced_draw(
    pool: np.ndarray,
    labels: np.ndarray,
    n_dev: int,
    n_test: int,
    ratio: float,
    rng,
    name: str,
    held_out: np.ndarray | None = None,
):
    """Development and test rows, each with ``ratio`` label-1 rows per label-0 row."""
    if not ratio > 0:
        raise ValueError(f"pos_per_neg must be positive, got {ratio!r}")
    ones = rng.permutation(pool[labels == 1])
    zeros = rng.permutation(pool[labels == 0])
    n1 = [round(n * ratio / (1 + ratio)) for n in (n_dev, n_test)]
    n0 = [n_dev - n1[0], n_test - n1[1]]
    if sum(n1) > len(ones) or sum(n0) > len(zeros):
        raise ValueError(
            f"{name} has {len(ones)} label-1 and {len(zeros)} label-0 rows; "
            f"a {ratio:g}:1 draw of {n_dev} + {n_test} needs {sum(n1)} and "
            f"{sum(n0)}: draw fewer rows or lower pos_per_neg"
        )
    dev = rng.permutation(np.concatenate([ones[: n1[0]], zeros[: n0[0]]]))
    test = rng.permutation(
        np.concatenate(
            [
                _first(ones[n1[0] :], n1[1], held_out, name),
                _first(zeros[n0[0] :], n0[1], held_out, name),
            ]
        )
    )
    return dev, test
