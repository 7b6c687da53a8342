"""The explorer: a static table when headless, live widgets otherwise, refits without a queue."""

from __future__ import annotations

import threading

import pytest

from repro.tour import explorer
from tests.conftest import data_dir

needs_data = pytest.mark.skipif(data_dir() is None, reason="benchmark data not beside the project")

KNOB_VALUES = {
    "complexity": (0.01, 0.001),
    "degree": (2, 3),
    "rules": (5, 3),
    "max_terms": (4, 2),
    "form": ("dnf", "cnf"),
    "C": (1.0, 0.1),
}


def _text(ex: explorer.Explorer) -> str:
    return "".join(o.get("text", "") for o in ex.output.outputs)


def _fake_fit(**setting) -> dict:
    return {
        **setting,
        "train error": 0.1,
        "test error": 0.2,
        "rules": 1.0,
        "terms": 2.0,
        "fit seconds": 0.0,
        "rule": f"IF x > {setting['rules']} THEN 1",
    }


@needs_data
def test_headless_explorer_is_a_table_with_one_row_per_learner(monkeypatch):
    monkeypatch.setenv("RULELAB_HEADLESS", "1")
    table = explorer.explore("banknote")
    assert set(table.index) == set(explorer.LEARNERS())
    assert table["test error"].between(0, 1).all()


def test_in_jupyter_explore_displays_nothing_itself_and_returns_the_explorer(monkeypatch):
    shown = []
    monkeypatch.setattr(explorer, "_headless", lambda: False)
    monkeypatch.setattr(explorer, "Explorer", lambda *a, **k: ("explorer", a))
    monkeypatch.setattr("IPython.display.display", lambda *a, **k: shown.append(a))
    assert explorer.explore("banknote") == ("explorer", ("banknote", None))
    assert shown == []  # Jupyter shows the returned explorer once, as the cell's result


def test_explorer_displays_as_its_widget_box():
    ex = explorer.Explorer(fit=_fake_fit, background=False)
    bundle = ex._repr_mimebundle_()
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == ex.widget.model_id


@pytest.mark.parametrize("learner", sorted(explorer.KNOBS))
def test_sliders_a_learner_ignores_are_disabled_and_the_others_enabled(learner):
    if learner not in explorer.LEARNERS():
        pytest.skip(f"{learner} is not installed")
    ex = explorer.Explorer(fit=_fake_fit, background=False)
    ex.controls["learner"].value = learner
    enabled = {k for k in KNOB_VALUES if not ex.controls[k].disabled}
    shown = {k for k in KNOB_VALUES if ex.controls[k].layout.display != "none"}
    assert enabled == shown == explorer.KNOBS[learner]


@pytest.mark.parametrize("learner", sorted(explorer.KNOBS))
def test_knobs_name_exactly_the_sliders_each_factory_reads(learner):
    factory = explorer.LEARNERS().get(learner)
    if factory is None:
        pytest.skip(f"{learner} is not installed")
    base = {k: v[0] for k, v in KNOB_VALUES.items()}
    # repr shows the parameters that differ from the defaults, nested estimators included
    # (get_params would compare two equal FeatureBinarizer() instances as different).
    read = {
        k
        for k, (_, other) in KNOB_VALUES.items()
        if repr(factory(**base)) != repr(factory(**{**base, k: other}))
    }
    assert read == explorer.KNOBS[learner]


def test_labels_are_shown_in_full():
    ex = explorer.Explorer(fit=_fake_fit, background=False)
    assert all(c.style.description_width == "initial" for c in ex.controls.values())


def test_changes_during_a_fit_are_not_queued_only_the_latest_is_fitted_next():
    """Three slider moves while a fit runs: the next fit uses the last of them, only."""

    def fit(**setting):
        if setting["rules"] == 9:  # the user keeps moving the slider
            assert ex.busy and "fitting 1Rule on pima" in ex.status.value
            for rules in (4, 3, 2):
                ex.controls["rules"].value = rules
        return _fake_fit(**setting)

    ex = explorer.Explorer(fit=fit, background=False)
    ex.controls["rules"].value = 9
    assert [s["rules"] for s in ex.fitted] == [5, 9, 2]
    assert "IF x > 2 THEN 1" in _text(ex) and not ex.busy and ex.status.value == ""
    assert "rulelab-busy" not in ex.widget._dom_classes


def test_background_refit_shows_busy_then_the_latest_result():
    started, release = threading.Event(), threading.Event()

    def blocking_fit(**setting):
        started.set()
        release.wait(10)
        return _fake_fit(**setting)

    ex = explorer.Explorer(fit=blocking_fit)
    assert started.wait(10)
    assert ex.busy and "rulelab-busy" in ex.widget._dom_classes
    assert "fitting 1Rule on pima" in ex.status.value
    for rules in (4, 3):
        ex.controls["rules"].value = rules
    release.set()
    ex.wait(10)
    assert [s["rules"] for s in ex.fitted] == [5, 3]
    assert "IF x > 3 THEN 1" in _text(ex) and not ex.busy


def test_a_failing_fit_shows_its_error_in_the_explorer():
    def failing_fit(**setting):
        raise ValueError("lambda too small")

    ex = explorer.Explorer(fit=failing_fit, background=False)
    assert ex.output.outputs[0]["name"] == "stderr"
    assert "1Rule on pima failed: ValueError: lambda too small" in _text(ex)


def test_the_text_names_the_setting_the_learner_read():
    ex = explorer.Explorer(fit=_fake_fit, background=False)
    assert _text(ex).startswith("1Rule on pima (complexity = 0.001): train error 0.100")
    ex.controls["learner"].value = "RuSC"
    ex.controls["rules"].value = 3
    assert _text(ex).startswith("RuSC on pima (complexity = 0.001, rules = 3): ")
    ex.controls["learner"].value = "CG"
    ex.controls["form"].value = "cnf"
    assert _text(ex).startswith("CG on pima (complexity = 0.01, clause length = 4, form = CNF): ")
    ex.controls["learner"].value = "Rules-first"
    ex.controls["C"].value = 0.1
    assert _text(ex).startswith("Rules-first on pima (rules = 3, C = 0.1): ")
    last = ex.fitted[-1]
    assert (last["learner"], last["rules"], last["C"]) == ("Rules-first", 3, 0.1)


@needs_data
def test_widgets_update_the_rule_when_a_control_changes():
    ex = explorer.Explorer("banknote", background=False)
    assert "1Rule on banknote" in _text(ex)
    ex.controls["learner"].value = "RuSC"
    assert "RuSC on banknote" in _text(ex) and "IF " in _text(ex)


# ---- the new learners' controls move their rules as they should (real fits) -------------
def _clauses(rule: str) -> list[str]:
    """The clauses of a printed rule set: the lines between IF and THEN, connective dropped."""
    body = rule.split("THEN")[0].replace("IF ", "", 1)
    return [
        ln.strip().removeprefix("OR ").removeprefix("AND ").strip("()")
        for ln in body.splitlines()
        if ln.strip()
    ]


@needs_data
def test_cg_complexity_slider_trades_clauses_for_error():
    cheap = explorer.fit_and_describe("banknote", "CG", complexity=0.001)
    dear = explorer.fit_and_describe("banknote", "CG", complexity=0.1)
    assert cheap["rules"] > dear["rules"] >= 1
    assert len(_clauses(cheap["rule"])) == cheap["rules"]
    assert cheap["train error"] < dear["train error"]


@needs_data
@pytest.mark.parametrize("form", ["dnf", "cnf"])
def test_cg_clause_length_slider_bounds_every_printed_clause(form):
    inner = " AND " if form == "dnf" else " OR "
    longest = {}
    for max_terms in (2, 4):
        r = explorer.fit_and_describe(
            "banknote", "CG", complexity=0.001, max_terms=max_terms, form=form
        )
        longest[max_terms] = max(c.count(inner) + 1 for c in _clauses(r["rule"]))
    assert longest[2] <= 2 < longest[4] <= 4


@needs_data
def test_cg_form_toggle_prints_an_or_of_ands_or_an_and_of_ors():
    dnf = explorer.fit_and_describe("banknote", "CG", form="dnf")["rule"]
    cnf = explorer.fit_and_describe("banknote", "CG", form="cnf")["rule"]
    assert "\n   OR (" in dnf and "\n   AND" not in dnf
    assert "\n   AND" in cnf and "\n   OR" not in cnf


@needs_data
def test_rules_first_rules_slider_sets_the_rules_before_the_base_model():
    for rules in (1, 3):
        r = explorer.fit_and_describe("wdbc", "Rules-first", rules=rules)
        lines = r["rule"].splitlines()
        assert sum(" THEN " in ln for ln in lines) == rules == r["rules"]
        assert lines[rules] == "ELSE LogisticRegression on the other features"


@needs_data
def test_rules_first_c_slider_sets_the_base_models_nonzero_weights():
    def weights(C):
        text = explorer.fit_and_describe("wdbc", "Rules-first", C=C)["rule"]
        return int(text.rsplit("uses ", 1)[1].split(" of ")[0])

    assert weights(0.01) < weights(1.0) < weights(100.0)


def test_one_complexity_for_every_rule_learner_starting_at_the_learners_own():
    ex = explorer.Explorer(fit=_fake_fit, background=False)
    assert "lam" not in ex.controls and "theta" not in ex.controls
    fits = len(ex.fitted)
    ex.controls["learner"].value = "BCD (DNF)"
    assert len(ex.fitted) == fits + 1  # the learner's change refits once, at its complexity
    assert ex.fitted[-1]["complexity"] == explorer.DEFAULT_COMPLEXITY["BCD (DNF)"]
    ex.controls["complexity"].value = 0.1
    assert ex.fitted[-1]["complexity"] == 0.1
    ex.controls["learner"].value = "1Rule"
    assert ex.fitted[-1]["complexity"] == explorer.DEFAULT_COMPLEXITY["1Rule"]
