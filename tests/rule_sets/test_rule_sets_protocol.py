"""Notebook 02's protocol: its parameters' QUICK and FULL values, the line-up of paper 1's
learners, the paper's error column and the sentences of the gap analysis."""

import pandas as pd
import pytest

from repro.core.runs import declared
from repro.rule_sets import protocol
from repro.rule_sets.parameters import PARAMETERS
from rulelab import BoostedLPRules, OneRule, SetCoverRules


def resolved(quick: bool) -> dict:
    return {name: p.resolve(name, p.default, quick) for name, p in declared("02_rule_sets").items()}


def test_a_run_left_at_the_defaults_takes_the_paper_settings_or_the_small_ones():
    full, quick = resolved(False), resolved(True)
    assert full["DATASETS"] == [
        "ilpd",
        "ionosphere",
        "bupa",
        "parkinsons",
        "pima",
        "sonar",
        "transfusion",
        "wdbc",
    ]
    assert quick["DATASETS"] == ["bupa"]
    assert (full["MAX_FOLDS"], quick["MAX_FOLDS"]) == (None, 2)
    assert (full["REPEAT_SEEDS"], quick["REPEAT_SEEDS"]) == ([1, 2, 3, 4], [])
    # the time limit enters the exact learners' cache keys: the integers as they always were
    assert repr((full["EXACT_TIME_LIMIT"], quick["EXACT_TIME_LIMIT"])) == "(20, 2)"


def test_a_value_the_run_sets_is_kept_in_quick_mode():
    p = PARAMETERS["DATASETS"]
    assert p.resolve("DATASETS", ["sonar"], True) == ["sonar"]
    assert PARAMETERS["REPEAT_SEEDS"].resolve("REPEAT_SEEDS", [7], True) == [7]


def test_the_rule_learners_are_paper_one_s_with_its_settings():
    learners = protocol.rule_learners(1000.0, 10, 5)
    assert list(learners) == protocol.OURS
    assert isinstance(learners["1Rule"], OneRule)
    assert isinstance(learners["RuSC"], SetCoverRules) and learners["RuSC"].rounding != "randomized"
    assert learners["RuSC-rr"].get_params()["rounding"] == "randomized"
    assert isinstance(learners["RuB"], BoostedLPRules) and learners["RuB"].n_estimators == 5
    assert all(m.get_params()["complexity"] == 1 / 1000.0 for m in learners.values())


def test_the_paper_s_rusc_column_is_the_reference_of_both_roundings():
    paper = protocol.paper_errors()
    rusc = paper[paper.method == "RuSC"].set_index("dataset").error
    rr = paper[paper.method == "RuSC-rr"].set_index("dataset").error
    pd.testing.assert_series_equal(rusc, rr)


def test_without_a_gap_the_gap_analysis_fits_nothing():
    comparison = pd.DataFrame(
        {"dataset": ["pima", "pima"], "method": ["RuSC", "SVM"], "diff": [0.05, 0.3]}
    )
    # a baseline's gap does not count, and 0.05 is not more than 0.05
    gap_sets, spread, exact = protocol.gap_analysis(
        comparison,
        protocol.paper_errors(),
        {},
        lam=1000.0,
        n_thresholds=10,
        repeat_seeds=[1],
        exact_time_limit=20,
        n_splits=10,
        random_state=0,
        max_folds=None,
        n_jobs=1,
    )
    assert gap_sets == [] and spread.empty and exact is None


@pytest.mark.parametrize(
    "paper_rusc, where", [(0.10, "lies below our whole"), (0.25, "lies inside our")]
)
def test_gap_reading_places_the_paper_s_rusc_against_our_split_range(paper_rusc, where):
    spread = pd.DataFrame({"dataset": ["sonar"], "method": ["RuSC"], "min": [0.2], "max": [0.3]})
    paper = pd.DataFrame({"dataset": ["sonar"], "method": ["RuSC"], "error": [paper_rusc]})
    methods = ["1Rule", "1Rule exact 0/1", "RuSC", "RuSC exact 0/1", "RuSC randomized rounding"]
    exact = pd.DataFrame(
        {
            "dataset": "sonar",
            "method": methods,
            "error": [0.3, 0.2, 0.35, 0.25, 0.28],
            "n_terms": 4.0,
        }
    )
    (line,) = protocol.gap_readings(["sonar"], spread, exact, paper)
    assert line.startswith(f"sonar: the paper's RuSC {paper_rusc:.3f} {where} split-seed range ")
    assert "[0.200, 0.300]" in line and "1Rule 0.200 (4.0 terms, LP-rounded 0.300 with 4.0)" in line
    assert line.endswith("and RuSC 0.250 (LP-rounded 0.350, randomized rounding 0.280).")
