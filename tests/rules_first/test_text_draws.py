"""Notebook 06's text draws: a threshold chosen inside one draw's development set is never
judged on test rows from it."""

import numpy as np
import pandas as pd
import pytest

from repro.rules_first.tweets import text_splits


def _fake_tweets(n_pos=1300, n_neg=400):
    n = n_pos + n_neg
    X = pd.DataFrame({"text": [f"tweet {i}" for i in range(n)]})
    y = pd.Series([1] * n_pos + [0] * n_neg)
    meta = pd.DataFrame({"split": ["train"] * n})
    return lambda name, with_meta: (X, y, meta)


@pytest.mark.parametrize("pos_per_neg", [None, 3.0])
def test_held_out_development_rows_never_enter_another_draws_test_sample(pos_per_neg):
    kw = dict(pos_per_neg=pos_per_neg, loader=_fake_tweets())
    first = text_splits("fake", 400, 500, seed=0, **kw)
    plain = text_splits("fake", 400, 500, seed=1, **kw)
    held = text_splits("fake", 400, 500, seed=1, held_out=first.dev_rows, **kw)
    # without the hold-out the draws overlap, as independent draws from one pool do
    assert set(plain.test_text) & set(first.dev_text)
    assert not set(held.test_text) & set(first.dev_text)
    # the development sample and the balance are the draw's own either way
    assert held.dev_text.equals(plain.dev_text)
    assert len(held.test_text) == 500
    if pos_per_neg:
        assert (held.test_y == "positive").sum() == 3 * (held.test_y == "negative").sum()
    # a draw's own development rows held out change nothing
    again = text_splits("fake", 400, 500, seed=0, held_out=first.dev_rows, **kw)
    assert again.test_text.equals(first.test_text)
    assert np.array_equal(again.dev_rows, first.dev_rows)


def test_a_hold_out_that_leaves_too_few_rows_is_refused():
    kw = dict(loader=_fake_tweets(n_pos=600, n_neg=400))
    first = text_splits("fake", 500, 400, seed=0, **kw)
    with pytest.raises(ValueError, match="rows left for a test sample of 450"):
        text_splits("fake", 500, 450, seed=1, held_out=first.dev_rows, **kw)
