"""Learners with limits give the same rules on a busy machine: their limits count work.

Each learner with a limit is fitted twice on a problem where the limit binds, once as it
is and once while two busy-loop processes compete for the cores; a limit counted in
seconds would stop the second fit elsewhere and print other rules.
"""

from __future__ import annotations

import subprocess
import sys
from contextlib import contextmanager

import numpy as np
import pandas as pd
import pytest

from rulelab import OneRule, SetCoverRules
from rulelab.colgen import ColumnGenerationRules
from rulelab.grab import CBMClassifier
from rulelab.twolevel import TwoLevelRules

pytestmark = pytest.mark.slow


@contextmanager
def busy_machine(n: int = 2):
    """Two processes spinning on the CPU for the duration of the block."""
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]
    try:
        yield
    finally:
        for proc in spinners:
            proc.kill()
        for proc in spinners:
            proc.wait()


def _noisy_dnf_data(seed: int = 0, n: int = 600):
    """A planted two-clause DNF over six numeric columns with 15 % of labels flipped, so
    that the rule-set integer program has a gap for branch and bound to work on."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.random((n, 6)), columns=[f"x{j}" for j in range(6)])
    y = ((X.x0 > 0.6) & (X.x1 < 0.5)) | ((X.x2 > 0.7) & (X.x3 > 0.3))
    flip = rng.random(n) < 0.15
    return X, (y ^ flip).astype(int)


def _fit_twice(make):
    """``make()`` fitted once as it is and once on a busy machine."""
    quiet = make()
    with busy_machine():
        loaded = make()
    return quiet, loaded


def test_column_generation_same_rules_on_a_busy_machine():
    X, y = _noisy_dnf_data()

    def make():
        # a small exact budget and no branching beyond the root: both limits bind
        return ColumnGenerationRules(
            form="dnf",
            complexity=0.002,
            exact_budget=0.05,
            integer_node_limit=0,
            integer_solution_limit=None,
            random_state=0,
        ).fit(X, y)

    quiet, loaded = _fit_twice(make)
    assert {"exact_budget", "integer_node_limit"} <= set(quiet.limits_hit_)
    assert loaded.limits_hit_ == quiet.limits_hit_
    assert str(loaded) == str(quiet)
    assert loaded.objective_ == quiet.objective_
    assert loaded.history_["lp_value"].tolist() == quiet.history_["lp_value"].tolist()


@pytest.mark.parametrize(
    "make",
    [
        # rounds of block coordinate descent and of alternating minimisation (max_iter binds)
        lambda: TwoLevelRules(
            method="bcd", max_rules=3, complexity=0.5, max_iter=2, random_state=0
        ),
        lambda: TwoLevelRules(method="am", max_rules=3, complexity=0.5, max_iter=2, random_state=0),
        # grafting rounds (max_iter binds long before the tolerance)
        lambda: CBMClassifier(max_terms=2, max_iter=3),
        # the exact 0/1 clause by HiGHS's branch and bound, with no clock limit by default
        lambda: OneRule(exact=True),
    ],
    ids=["bcd", "am", "grab", "1rule-exact"],
)
def test_other_learners_same_rules_on_a_busy_machine(make):
    X, y = _noisy_dnf_data()
    quiet, loaded = _fit_twice(lambda: make().fit(X, y))
    assert str(loaded) == str(quiet)
    np.testing.assert_array_equal(loaded.predict(X), quiet.predict(X))


def test_column_generation_defaults_use_no_clock():
    """The defaults stop on counts only: no clock limit is set."""
    params = ColumnGenerationRules().get_params()
    assert all(params[name] is None for name in params if name.endswith("time_limit"))
    assert params["integer_node_limit"] is not None


def test_limits_hit_names_the_limit_that_bound():
    X, y = _noisy_dnf_data(seed=1, n=300)
    free = ColumnGenerationRules(
        form="dnf",
        complexity=0.05,
        exact_budget=None,
        integer_node_limit=None,
        integer_solution_limit=None,
        random_state=0,
    ).fit(X, y)
    # a large clause cost: a short certified run whose integer solve needs no branching
    assert free.limits_hit_ == ()
    assert free.proved_optimal_
    capped = ColumnGenerationRules(
        form="dnf",
        complexity=0.002,
        exact_budget=None,
        integer_node_limit=None,
        integer_solution_limit=None,
        max_rounds=2,
        random_state=0,
    ).fit(X, y)
    assert capped.limits_hit_ == ("max_rounds",)
    assert capped.stop_reason_ == "max_rounds"


def test_clause_learners_say_when_their_clock_limit_bound():
    X, y = _noisy_dnf_data()
    free = OneRule(exact=True).fit(X, y)
    assert free.lp_.status == "optimal" and free.limits_hit_ == ()
    # a limit far below what the MILP needs stops it (the status and limits_hit_ agree)
    cut = OneRule(exact=True, n_thresholds=50, lp_time_limit=1e-3).fit(X, y)
    assert cut.lp_.status == "time_limit"
    assert cut.limits_hit_ == ("lp_time_limit",)
    assert SetCoverRules(max_rules=2).fit(X, y).limits_hit_ == ()
