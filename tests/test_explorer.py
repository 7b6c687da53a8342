"""The explorer: a static table when headless, live widgets otherwise."""

from __future__ import annotations

import pytest

from rulelab import explorer
from tests.conftest import data_dir

pytestmark = pytest.mark.skipif(data_dir() is None, reason="benchmark data not beside the project")


def test_headless_explorer_is_a_table_with_one_row_per_learner(monkeypatch):
    monkeypatch.setenv("RULELAB_HEADLESS", "1")
    table = explorer.explore("banknote")
    assert set(table.index) == set(explorer.LEARNERS())
    assert table["test error"].between(0, 1).all()


def test_widgets_update_the_rule_when_a_slider_moves(monkeypatch):
    monkeypatch.delenv("RULELAB_HEADLESS", raising=False)
    monkeypatch.setattr(explorer, "_headless", lambda: False)
    monkeypatch.setattr("IPython.display.display", lambda *a, **k: None)
    box = explorer.explore("banknote")
    out = box.children[-1]
    first = "".join(o.get("text", "") for o in out.outputs)
    assert "1Rule on banknote" in first
    box.children[0].children[1].value = "RuSC"  # the learner dropdown
    second = "".join(o.get("text", "") for o in out.outputs)
    assert "RuSC on banknote" in second and "IF " in second
