"""RIPPER through Weka's JRip (repro.peers.jrip): thresholds on raw values, any names, clear errors.

The tests that run JRip need Java and Debian's ``weka``; without them they are skipped
with the reason, unless ``RULELAB_REQUIRE_WEKA=1`` (set by ``.ci/run``), where a missing
Weka is a failure: CI must not skip them silently.
"""

from __future__ import annotations

import os
import pickle

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone

from repro.core.model_size import complexity
from repro.peers import jrip
from repro.peers.jrip import JRipClassifier, make_ripper, weka_missing


@pytest.fixture
def weka():
    """Skip (or, with RULELAB_REQUIRE_WEKA=1, fail) when Java or Weka is missing."""
    reason = weka_missing()
    if reason is None:
        return
    if os.environ.get("RULELAB_REQUIRE_WEKA") == "1":
        pytest.fail(reason + "; RULELAB_REQUIRE_WEKA=1 forbids skipping it")
    pytest.skip(reason)


def _uniform(n: int, seed: int, gap: float = 0.005) -> pd.DataFrame:
    """Three uniform features, no x0 within ``gap`` of 0.37 (so the boundary is observable)."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.random((3 * n, 3)), columns=["x0", "x1", "x2"])
    return X[np.abs(X.x0 - 0.37) > gap].head(n).reset_index(drop=True)


@pytest.mark.parametrize("seed", range(3))
def test_jrip_finds_a_planted_threshold_on_the_raw_values(weka, seed):
    X, X_test = _uniform(500, seed), _uniform(500, seed + 100)
    model = JRipClassifier().fit(X, (X.x0 > 0.37).astype(int))
    *rules, (default, _) = model.rules_
    assert default == [] and all(len(conds) == 1 for conds, _ in rules)
    assert {(conds[0][0], conds[0][1], cls) for conds, cls in rules} == {("x0", "<=", 0)}
    # JRip splits at an observed value: the last training x0 below the planted 0.37.
    threshold = max(conds[0][2] for conds, _ in rules)
    below = X.x0[X.x0 < 0.37].max()
    assert threshold == pytest.approx(below, abs=1e-6) and abs(threshold - 0.37) < 0.01
    sure = X_test[(X_test.x0 <= below) | (X_test.x0 >= 0.37)]
    assert np.array_equal(model.predict(sure), (sure.x0 > 0.37).astype(int))


def test_odd_column_names_and_categories_survive_the_arff_file(weka):
    rng = np.random.default_rng(0)
    values = ['it\'s "red", ok', "blue % {x}", "back\\slash", "  spaced  "]
    name = "colour, \"the\" 'hue'"
    X = pd.DataFrame({name: rng.choice(values, 200), "num x": rng.random(200)})
    y = np.where(X[name] == values[0], "yes", "no")
    model = JRipClassifier().fit(X, y)
    assert model.rules_[0] == ([(name, "=", values[0])], "yes")
    assert np.array_equal(model.predict(X), y)
    assert str(model).splitlines()[0] == f"IF {name} = {values[0]!r} THEN yes"


def test_missing_values_and_unseen_categories_fire_no_rule(weka):
    rng = np.random.default_rng(1)
    X = pd.DataFrame({"c": rng.choice(["a", "b"], 200), "x": rng.random(200)})
    y = ((X.c == "a") & (X.x > 0.5)).astype(int).to_numpy()
    model = JRipClassifier().fit(X, y)
    assert np.array_equal(model.predict(X), y)
    odd = pd.DataFrame({"c": ["a", "zzz", None, "a"], "x": [0.9, 0.9, 0.9, np.nan]})
    assert model.predict(odd).tolist() == [1, 0, 0, 0]


def test_complexity_counts_the_learned_rules_and_their_conditions(weka):
    X = _uniform(400, 5)
    y = ((X.x0 > 0.37) & (X.x1 < 0.5)).astype(int)
    model = JRipClassifier().fit(X, y)
    learned = [conds for conds, _ in model.rules_ if conds]
    assert complexity(model) == (float(len(learned)), float(sum(map(len, learned))))
    assert complexity(model)[1] >= 2  # the planted rule has two conditions


def test_a_fitted_jrip_pickles_and_clones_without_its_files(weka):
    X = _uniform(200, 7)
    y = (X.x2 > 0.6).astype(int)
    model = JRipClassifier().fit(X, y)
    again = pickle.loads(pickle.dumps(model))
    assert np.array_equal(again.predict(X), model.predict(X))
    assert clone(model).get_params() == model.get_params()


def test_make_ripper_pins_the_installed_weka_release(weka):
    model = make_ripper("jrip")
    assert model.get_params()["weka_version"] == jrip.weka_version()
    with pytest.raises(ValueError, match="weka_version='0.0.1' but Weka"):
        JRipClassifier(weka_version="0.0.1").fit(_uniform(50, 0), np.arange(50) % 2)


def test_missing_java_gives_the_install_command(monkeypatch):
    monkeypatch.setattr(jrip, "_java", lambda: None)
    with pytest.raises(RuntimeError, match="apt-get install weka"):
        JRipClassifier().fit(_uniform(50, 0), np.arange(50) % 2)
    with pytest.raises(RuntimeError, match="apt-get install weka"):
        make_ripper("jrip")


def test_missing_weka_jar_gives_the_install_command():
    with pytest.raises(RuntimeError, match="apt-get install weka"):
        JRipClassifier(jar="no/such/weka.jar").fit(_uniform(50, 0), np.arange(50) % 2)


def test_benchmark_leaves_jrip_out_with_the_install_command_when_java_is_missing(monkeypatch):
    from repro.peers.learners import peer_learners

    monkeypatch.setattr(jrip, "_java", lambda: None)
    methods, skipped = peer_learners(include=("RIPPER",))
    assert methods == {} and "apt-get install weka" in skipped["RIPPER"]


def test_unknown_ripper_and_bad_input_are_refused_with_the_reason():
    with pytest.raises(ValueError, match="unknown RIPPER implementation 'cohen'"):
        make_ripper("cohen")
    with pytest.raises(ValueError, match="one class"):
        JRipClassifier().fit(_uniform(20, 0), np.zeros(20))
    X = _uniform(20, 0).assign(x1=np.inf)
    with pytest.raises(ValueError, match="column 'x1' has infinite values"):
        JRipClassifier().fit(X, np.arange(20) % 2)
