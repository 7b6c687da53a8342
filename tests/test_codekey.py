"""Result caches are keyed by the code: a change to any rulelab module behind an
estimator changes its key, a change elsewhere does not."""

from __future__ import annotations

from sklearn.tree import DecisionTreeClassifier

from repro import codekey as _codekey
from repro.codekey import module_closure, source_key
from repro.theta_search import ThetaSearchCV
from rulelab.twolevel import TwoLevelRules


def test_closure_follows_imports_transitively():
    closure = module_closure("rulelab.twolevel.estimator")
    # estimator -> optimize -> lp: the clause LP is part of the two-level learner's code.
    assert {"rulelab.twolevel.optimize", "rulelab.lp", "rulelab.rules"} <= closure
    assert "rulelab.grab.wfim" not in closure  # unrelated code stays out
    assert "rulelab" not in closure  # the package __init__ imports everything


def test_nested_estimators_count_and_external_code_is_named():
    assert source_key(DecisionTreeClassifier()) == "external"
    alone = source_key(ThetaSearchCV(DecisionTreeClassifier(), {"max_depth": [1]}))
    nested = source_key(ThetaSearchCV(TwoLevelRules(), {"complexity": [1.0]}))
    assert alone != nested


def _edited(monkeypatch, module: str):
    real = _codekey._module_file

    def fake(name):
        path = real(name)
        if name == module and path is not None:
            copy = fake.tmp / path.name
            copy.write_text(path.read_text() + "\n# edited\n")
            return copy
        return path

    return fake


def test_editing_a_dependency_changes_the_key(monkeypatch, tmp_path):
    before = source_key(TwoLevelRules())
    fake = _edited(monkeypatch, "rulelab.lp")
    fake.tmp = tmp_path
    for cached in (_codekey.module_closure, _codekey._hash_modules):
        cached.cache_clear()
    monkeypatch.setattr(_codekey, "_module_file", fake)
    assert source_key(TwoLevelRules()) != before
    assert source_key(DecisionTreeClassifier()) == "external"
    monkeypatch.undo()
    for cached in (_codekey.module_closure, _codekey._hash_modules):
        cached.cache_clear()
    assert source_key(TwoLevelRules()) == before
