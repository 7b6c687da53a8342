"""A notebook's code fingerprint is what its code does: its code cells and the definitions
they reach, by meaning (comments, prose, formatting and import order do not count), and
``--check`` calls outputs stale exactly when the recorded fingerprint differs."""

import json

import pytest

from repro.core.figures import FIGURES
from repro.core.fingerprint import (
    notebook_fingerprint,
    notebook_modules,
    notebook_specs,
    stale_notebooks,
)
from repro.core.paths import ROOT

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))

IMPORTS = (
    "from rulelab import OneRule\nfrom repro.core.report import record_claims\n%matplotlib inline"
)
CODE = 'model = OneRule(max_rules=3).fit(X, y)\nrecord_claims("demo", claims)'


def write_notebook(path, *cells):
    """A minimal notebook: (cell type, source, tags) triples."""
    nb = {
        "cells": [
            {
                "cell_type": kind,
                "source": source,
                "metadata": {"tags": tags},
                **({"outputs": [], "execution_count": None} if kind == "code" else {}),
            }
            for kind, source, tags in cells
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.write_text(json.dumps(nb))
    return path


@pytest.fixture
def notebook(tmp_path):
    return write_notebook(
        tmp_path / "01_demo.ipynb",
        ("markdown", "# A demo", []),
        ("code", "QUICK = False", ["parameters"]),
        ("code", IMPORTS, []),
        ("code", CODE, []),
    )


def edit_cell(path, index, source):
    nb = json.loads(path.read_text())
    nb["cells"][index]["source"] = source
    path.write_text(json.dumps(nb))


def test_names_resolve_to_the_definitions_that_the_cells_use(notebook):
    # a name re-exported by a package resolves to the module that defines it
    assert notebook_specs(notebook) == [
        "repro.core.report:record_claims",
        "rulelab.rulesets:OneRule",
    ]
    modules = notebook_modules(notebook)
    assert {"rulelab.rulesets", "rulelab.lp", "repro.core.report"} <= modules
    assert "rulelab.grab.classifier" not in modules  # not used by this notebook


def test_an_import_the_cells_do_not_use_reaches_nothing(tmp_path):
    nb = write_notebook(tmp_path / "00_demo.ipynb", ("code", "from repro.core import figures", []))
    assert notebook_specs(nb) == [] and notebook_modules(nb) == frozenset()


def test_a_star_import_counts_the_whole_module_and_machinery_never(tmp_path):
    cells = "from repro.core.verdicts import *\nfrom repro.core import cache\ncache.cache_dir()"
    nb = write_notebook(tmp_path / "00_demo.ipynb", ("code", cells, []))
    assert notebook_specs(nb) == ["repro.core.verdicts"]


@pytest.mark.parametrize(
    ("what", "edits"),
    [
        ("markdown", {0: "# Another title\n\nMore prose."}),
        ("a comment", {3: "# fit the rule\n" + CODE + "  # and record"}),
        ("formatting", {3: CODE.replace("(max_rules=3)", "( max_rules = 3 )").replace('"', "'")}),
        ("import order", {2: "%matplotlib inline\n" + "\n".join(IMPORTS.splitlines()[1::-1])}),
        ("a magic", {2: IMPORTS.replace("inline", "agg")}),
        ("imports moved", {2: "%matplotlib inline", 3: IMPORTS.split("\n%")[0] + "\n" + CODE}),
    ],
)
def test_an_edit_that_changes_no_code_keeps_the_fingerprint(notebook, what, edits):
    before = notebook_fingerprint(notebook)
    for cell, source in edits.items():
        edit_cell(notebook, cell, source)
    assert notebook_fingerprint(notebook) == before


def test_injected_parameters_do_not_count_and_code_does(notebook):
    before = notebook_fingerprint(notebook)
    nb = json.loads(notebook.read_text())
    nb["cells"].insert(
        2,
        {
            "cell_type": "code",
            "source": "QUICK = True",
            "outputs": [],
            "execution_count": None,
            "metadata": {"tags": ["injected-parameters"]},
        },
    )
    notebook.write_text(json.dumps(nb))
    assert notebook_fingerprint(notebook) == before
    for source in (CODE + "\nprint(1)", CODE.replace("max_rules=3", "max_rules=4")):
        edit_cell(notebook, 4, source)
        assert notebook_fingerprint(notebook) != before


def test_a_cell_that_does_not_parse_counts_as_its_text(notebook):
    edit_cell(notebook, 3, CODE + "\nmodel?")
    before = notebook_fingerprint(notebook)
    assert notebook_specs(notebook) == [
        "repro.core.report:record_claims",
        "rulelab.rulesets:OneRule",
    ]
    edit_cell(notebook, 3, CODE + "\nmodel??")
    assert notebook_fingerprint(notebook) != before


REPORT = "repro.core.report"
RECORD = (
    '    frame.insert(0, "notebook", notebook)\n',
    '    frame.insert(0, "notebook", str(notebook))\n',
)


@pytest.mark.parametrize(
    ("edit", "same"),
    [
        pytest.param(("claims as", "claims to"), True, id="docstring"),
        pytest.param(
            ("    frame.insert(0,", "    # first\n    frame.insert(0,"), True, id="comment"
        ),
        pytest.param(RECORD, False, id="behaviour"),
        pytest.param(  # code of the same module that the notebook does not reach
            ('lines = ["| " + " | ".join(cols)', 'lines = ["|" + " | ".join(cols)'),
            True,
            id="unreached",
        ),
    ],
)
def test_the_code_the_cells_reach_counts_by_meaning(notebook, edit_sources, edit, same):
    before = notebook_fingerprint(notebook)
    edit_sources({REPORT: edit})
    assert (notebook_fingerprint(notebook) == before) is same


FIGURE_CELL = "from repro.grab import figures\nfig = figures.grab_fig2_time(tto)"


@pytest.mark.parametrize(
    ("module", "old", "new", "same"),
    [
        # another notebook's figure, and the command that redraws them all
        ("repro.benchmark.figures", "return plot_pareto(", "return None or plot_pareto(", True),
        ("repro.core.figures", "    sys.exit(main())", "    sys.exit(main() or 2)", True),
        (
            "repro.grab.figures",
            'int(one_setting(tto, "rows"))',
            'int(one_setting(tto, "rows")) + 1',
            False,
        ),
    ],
)
def test_a_notebook_depends_on_its_own_figures_only(tmp_path, edit_sources, module, old, new, same):
    nb = write_notebook(tmp_path / "05_grab.ipynb", ("code", FIGURE_CELL, []))
    assert notebook_specs(nb) == ["repro.grab.figures:grab_fig2_time"]
    modules = notebook_modules(nb)
    assert {"repro.grab.figures", "repro.grab.experiments"} <= modules
    assert not {"repro.peers.learners", "repro.benchmark.figures"} & modules
    before = notebook_fingerprint(nb)
    edit_sources({module: (old, new)})
    assert (notebook_fingerprint(nb) == before) is same


def test_another_notebooks_figure_does_not_stale_the_real_notebooks(edit_sources):
    grab, benchmark = (ROOT / "notebooks" / f"{n}.ipynb" for n in ("05_grab", "07_benchmark"))
    before = notebook_fingerprint(grab), notebook_fingerprint(benchmark)
    edit_sources(
        {"repro.benchmark.figures": ("return plot_pareto(", "return None or plot_pareto(")}
    )
    assert notebook_fingerprint(grab) == before[0]
    assert notebook_fingerprint(benchmark) != before[1]


def test_each_notebook_reaches_exactly_the_figures_registered_for_it():
    # the registry's ``notebook`` says which notebook's outputs a figure belongs to
    for path in NOTEBOOKS:
        reached = {
            spec.partition(":")[2]
            for spec in notebook_specs(path)
            if spec.partition(":")[0].endswith(".figures")
        }
        own = {name for name, spec in FIGURES.items() if spec.notebook == path.stem}
        assert reached == own, path.name


def test_a_package_used_by_attribute_counts_the_definitions_behind_those_attributes(tmp_path):
    nb = write_notebook(
        tmp_path / "00_demo.ipynb",
        ("code", "import rulelab\nmodel = rulelab.ColumnGenerationRules()", []),
    )
    assert notebook_specs(nb) == ["rulelab.colgen.estimator:ColumnGenerationRules"]
    # repro.tour.explorer does ``import rulelab`` and builds ``rulelab.ColumnGenerationRules(...)``
    nb = write_notebook(
        tmp_path / "00_demo.ipynb", ("code", "from repro.tour.explorer import explore\nexplore", [])
    )
    assert {"rulelab.colgen.estimator", "rulelab.twolevel.estimator"} <= notebook_modules(nb)


def test_outputs_are_stale_unless_the_recorded_fingerprint_is_the_current_one(notebook, tmp_path):
    log = tmp_path / "run_log.json"
    current = notebook_fingerprint(notebook)
    assert len(current) == 10 and int(current, 16) >= 0
    for recorded, stale in ((current, False), ("0123456789", True), (None, True)):
        entry = {"notebook": "01_demo"} | ({"fingerprint": recorded} if recorded else {})
        log.write_text(json.dumps({"notebooks": [entry]}))
        [row] = stale_notebooks([notebook], log)
        assert row == {
            "notebook": "01_demo",
            "recorded": recorded or "(none)",
            "current": current,
            "stale": stale,
        }


def test_a_missing_run_log_records_nothing(notebook, tmp_path):
    [row] = stale_notebooks([notebook], tmp_path / "run_log.json")
    assert row["recorded"] == "(none)" and row["stale"] is True


@pytest.mark.parametrize("text", ['{"notebooks": [', "[1, 2]", '{"notebooks": [{"seconds": 1}]}'])
def test_a_damaged_run_log_is_named(notebook, tmp_path, text):
    log = tmp_path / "run_log.json"
    log.write_text(text)
    with pytest.raises(ValueError, match=r"run log .*run_log\.json is damaged"):
        stale_notebooks([notebook], log)


def test_the_papers_data_beside_the_code_counts(notebook, tmp_path, monkeypatch):
    """A quote or a paper's number changes what the claims say: the notebook is stale."""
    from repro.core import fingerprint

    data = tmp_path / "paper_numbers"
    data.mkdir()
    quotes = data / "claim_quotes.csv"
    quotes.write_text("notebook,claim\n01_demo,A beats B\n")
    monkeypatch.setattr(fingerprint, "_PAPER_DATA", data)
    before = notebook_fingerprint(notebook)
    quotes.write_text("notebook,claim\n01_demo,A beats B by far\n")
    assert notebook_fingerprint(notebook) != before
    quotes.write_text("notebook,claim\n01_demo,A beats B\n")
    assert notebook_fingerprint(notebook) == before


def test_a_notebooks_declared_parameters_count_as_its_code(edit_sources):
    # a QUICK or FULL value lives in the package, not the cell: changing it stales the
    # notebook, and a comment beside it does not
    path = ROOT / "notebooks" / "08_column_generation.ipynb"
    before = notebook_fingerprint(path)
    module = "repro.column_generation.parameters"
    edit_sources({module: ('"PATH_FOLDS": Parameter(', '"PATH_FOLDS": Parameter(  # folds\n')})
    assert notebook_fingerprint(path) == before
    edit_sources({module: ("None, quick=2, full=10),\n}", "None, quick=2, full=5),\n}")})
    assert notebook_fingerprint(path) != before
