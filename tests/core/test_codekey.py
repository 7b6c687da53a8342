"""Result caches are keyed by what the code does: an edit that changes no behaviour
(docstrings, comments, formatting, import order, a definition moved to another module)
keeps every key, and an edit that does changes the key of exactly the computations that
can reach the edited code. Each edit is made to a temporary copy of a real module that
:mod:`repro.core.codekey` reads in its place (the ``edit_sources`` fixture); nothing is fitted."""

from __future__ import annotations

import subprocess
import sys

import pytest
from sklearn.tree import DecisionTreeClassifier

from repro.core import codekey
from repro.core.codekey import code_specs, definitions, key_of_specs, source_key
from repro.two_level.theta_search import ThetaSearchCV
from rulelab.colgen import ColumnGenerationRules
from rulelab.twolevel import TwoLevelRules

ESTIMATOR = "rulelab.twolevel.estimator"
OBJECTIVE = "rulelab.twolevel.objective"
OPTIMIZE = "rulelab.twolevel.optimize"
TERMS = "rulelab.rules.terms"
CLAUSES = "rulelab.rules.clauses"
SQL = "rulelab.rules.sql"

AUGMENT = '''def augment(X: np.ndarray) -> np.ndarray:
    """``[1 | X]``: the design with the always-true feature in column 0 (uint8)."""
    X = np.asarray(X, dtype=np.uint8)
    return np.hstack([np.ones((X.shape[0], 1), dtype=np.uint8), X])
'''
IMPORTS = (
    "from .objective import augment, clause_costs\n"
    "from .optimize import am, bcd, init_weights, lp_kwargs\n"
)


def two_level_key() -> str:
    return source_key(TwoLevelRules())


def test_the_units_are_the_definitions_the_learner_reaches():
    found = definitions(code_specs(TwoLevelRules()))
    assert (ESTIMATOR, "TwoLevelRules") in found and (OBJECTIVE, "augment") in found
    assert (OPTIMIZE, "bcd") in found and ("rulelab.lp", "learn_clause") in found
    assert not any(module.startswith("rulelab.grab") for module, _ in found)
    # methods: those the closure can call, not every method of a reached class
    assert (ESTIMATOR, "TwoLevelRules.fit") in found
    assert (ESTIMATOR, "TwoLevelRules.to_text") not in found  # the printout is rules_'s
    assert (ESTIMATOR, "TwoLevelRules.complexity_") not in found


COSMETIC = {
    "module docstring": (
        ESTIMATOR,
        [("CNF/DNF rules by block coordinate", "CNF or DNF rules learned by block coordinate")],
    ),
    "class docstring": (
        ESTIMATOR,
        [("minimising a regularised Hamming loss.", "that minimises a regularised Hamming loss.")],
    ),
    "function docstring": (OBJECTIVE, [("the design with", "the binary design with")]),
    "comment added": (
        OBJECTIVE,
        [("    return np.hstack(", "    # column 0 is always true\n    return np.hstack(")],
    ),
    "reformatted": (
        OBJECTIVE,
        [
            (
                "    return np.hstack([np.ones((X.shape[0], 1), dtype=np.uint8), X])",
                "    return np.hstack(\n        [\n"
                "            np.ones((X.shape[0], 1), dtype=np.uint8),\n"
                "            X,\n        ]\n    )",
            )
        ],
    ),
    "quotes changed": (
        ESTIMATOR,
        [
            (
                'op = "and" if self.form == "dnf" else "or"',
                "op = 'and' if self.form == 'dnf' else 'or'",
            )
        ],
    ),
    "imports reordered": (
        ESTIMATOR,
        [
            (
                IMPORTS,
                "from .optimize import lp_kwargs, init_weights, bcd, am\n"
                "from .objective import clause_costs, augment\n",
            )
        ],
    ),
    "an unreached method changed": (
        ESTIMATOR,
        [
            (
                "return float(self.rules_.n_rules), float(self.rules_.n_terms)",
                "return float(self.rules_.n_terms), float(self.rules_.n_rules)",
            )
        ],
    ),
}


@pytest.mark.parametrize("kind", sorted(COSMETIC))
def test_an_edit_that_changes_no_behaviour_keeps_the_key(edit_sources, kind):
    before = two_level_key()
    module, edits = COSMETIC[kind]
    edit_sources({module: edits})
    assert two_level_key() == before


def test_a_definition_moved_to_another_module_keeps_the_key(edit_sources):
    before = two_level_key()
    edit_sources(
        {
            # augment leaves objective for optimize, whose imports estimator already uses
            OBJECTIVE: (AUGMENT, ""),
            OPTIMIZE: ("_TOL = 1e-6\n", "_TOL = 1e-6\n\n\n" + AUGMENT),
            ESTIMATOR: (
                IMPORTS,
                "from .objective import clause_costs\n"
                "from .optimize import am, augment, bcd, init_weights, lp_kwargs\n",
            ),
        }
    )
    found = definitions(code_specs(TwoLevelRules()))
    assert (OPTIMIZE, "augment") in found and (OBJECTIVE, "augment") not in found
    assert two_level_key() == before


BEHAVIOURAL = {
    "constant in a function": (OBJECTIVE, ("np.ones((X.shape[0], 1)", "np.ones((X.shape[0], 2)")),
    "module-level constant": (OPTIMIZE, ("_TOL = 1e-6", "_TOL = 1e-7")),
    "statement added": (
        OBJECTIVE,
        ("    return np.hstack(", "    X = np.ascontiguousarray(X)\n    return np.hstack("),
    ),
    "default argument": (
        OBJECTIVE,
        ("theta: float, disable_cost: float = 0.0)", "theta: float, disable_cost: float = 0.5)"),
    ),
    "learner's default": (ESTIMATOR, ("max_iter: int = 20,", "max_iter: int = 30,")),
    "a method the closure calls": (
        ESTIMATOR,
        ("numbered=True).simplified()", "numbered=False).simplified()"),
    ),
}


@pytest.mark.parametrize("kind", sorted(BEHAVIOURAL))
def test_an_edit_that_changes_behaviour_changes_the_key(edit_sources, monkeypatch, kind):
    before = two_level_key()
    module, edit = BEHAVIOURAL[kind]
    edit_sources({module: edit})
    assert two_level_key() != before
    monkeypatch.undo()
    codekey.clear_caches()
    assert two_level_key() == before  # the real sources again


SQL_USER = '''"""A module whose function exports a rule as SQL."""

from rulelab.rules import DNF


def export(rule: DNF) -> str:
    return rule.to_sql("t")
'''

SQL_EDITS = {
    "Term.to_sql": (TERMS, ('return f"{name} IS NULL"', 'return f"({name} IS NULL)"')),
    "_sql_value": (
        SQL,
        ("_SQL_BOOLEAN[dialect][0 if value else 1]", "_SQL_BOOLEAN[dialect][1 if value else 0]"),
    ),
}


@pytest.mark.parametrize("kind", sorted(SQL_EDITS))
def test_a_method_counts_only_where_the_closure_can_call_it(edit_sources, kind):
    # nothing in rulelab or repro exports SQL, so a module of the test's own does
    edit_sources({"repro._sql_user": SQL_USER})
    learner = definitions(code_specs(ColumnGenerationRules()))
    user = definitions(["repro._sql_user:export"])
    assert (TERMS, "Term") in learner and (TERMS, "Term.to_sql") not in learner
    assert (SQL, "_sql_value") not in learner
    assert {(TERMS, "Term.to_sql"), (CLAUSES, "Clause.to_sql"), (SQL, "_sql_value")} <= set(user)
    keys = source_key(ColumnGenerationRules()), key_of_specs(["repro._sql_user:export"])

    module, edit = SQL_EDITS[kind]
    edit_sources({"repro._sql_user": SQL_USER, module: edit})
    assert source_key(ColumnGenerationRules()) == keys[0]
    assert key_of_specs(["repro._sql_user:export"]) != keys[1]


def test_machinery_is_never_followed(edit_sources):
    # runner imports the result cache, whose bookkeeping computes no result
    found = definitions(["repro.core.runner:cross_validate"])
    assert found and not {module for module, _ in found} & codekey.MACHINERY
    assert key_of_specs(["repro.core.cache"]) == "external"
    before = key_of_specs(["repro.core.runner:cross_validate"])
    edit_sources({"repro.core.cache": ("from __future__ import annotations\n", "X_ = 1\n")})
    assert key_of_specs(["repro.core.runner:cross_validate"]) == before


def test_nested_estimators_count_and_external_code_is_named():
    assert source_key(DecisionTreeClassifier()) == "external"
    assert code_specs(DecisionTreeClassifier()) == []
    alone = source_key(ThetaSearchCV(DecisionTreeClassifier(), {"max_depth": [1]}))
    nested = ThetaSearchCV(TwoLevelRules(), {"complexity": [1.0]})
    assert f"{ESTIMATOR}:TwoLevelRules" in code_specs(nested)
    assert source_key(nested) != alone


def test_a_script_entry_point_is_not_part_of_a_module(edit_sources):
    # ``if __name__ == "__main__":`` runs only as a script: repro.core.figures' main() would
    # otherwise pull every notebook's figures into each one's key
    found = definitions(["repro.core.figures:grab_fig2_time"])
    assert ("repro.core.figures", "main") not in found
    assert ("repro.core.figures", "benchmark_pareto") not in found
    before = key_of_specs(["repro.core.figures:grab_fig2_time"])
    edit_sources({"repro.core.figures": ("    sys.exit(main())", "    sys.exit(main() or 3)")})
    assert key_of_specs(["repro.core.figures:grab_fig2_time"]) == before


def test_a_key_imports_nothing():
    # the modules are read from disk: a key costs no import of scikit-learn or rulelab
    code = (
        "import sys; from repro.core import codekey; "
        "codekey.key_of_specs(['rulelab.twolevel.estimator:TwoLevelRules']); "
        "print(sorted({'rulelab', 'sklearn'} & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
