"""A notebook's code fingerprint covers its code cells and every module they import, and
``--check`` calls outputs stale exactly when the recorded fingerprint differs."""

import json

import pytest

from repro.fingerprint import notebook_fingerprint, notebook_modules, stale_notebooks


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
        (
            "code",
            "from rulelab import OneRule\nfrom repro.report import "
            "record_claims\n%matplotlib inline",
            [],
        ),
    )


def test_names_reexported_by_a_package_resolve_to_the_modules_that_define_them(notebook):
    modules = notebook_modules(notebook)
    assert {"rulelab.rulesets", "rulelab.lp", "repro.report"} <= modules
    assert "rulelab.grab.classifier" not in modules  # not imported by this notebook


def test_code_changes_change_the_fingerprint_and_prose_or_parameters_do_not(notebook, tmp_path):
    before = notebook_fingerprint(notebook)
    nb = json.loads(notebook.read_text())
    nb["cells"][0]["source"] = "# Another title"
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
    nb["cells"][-1]["source"] += "\nprint(1)"
    notebook.write_text(json.dumps(nb))
    assert notebook_fingerprint(notebook) != before


def test_outputs_are_stale_unless_the_recorded_fingerprint_is_the_current_one(notebook, tmp_path):
    log = tmp_path / "run_log.json"
    current = notebook_fingerprint(notebook)
    for recorded, stale in ((current, False), ("0123456789", True), (None, True)):
        entry = {"notebook": "01_demo"} | ({"fingerprint": recorded} if recorded else {})
        log.write_text(json.dumps({"notebooks": [entry]}))
        [row] = stale_notebooks([notebook], log)
        assert row["stale"] is stale and row["current"] == current


def test_a_package_used_by_attribute_counts_the_modules_behind_those_attributes(tmp_path):
    # repro.explorer does ``import rulelab`` and builds ``rulelab.ColumnGenerationRules(...)``
    nb = write_notebook(
        tmp_path / "00_demo.ipynb", ("code", "from repro.explorer import explore", [])
    )
    assert {"rulelab.colgen.estimator", "rulelab.twolevel.estimator"} <= notebook_modules(nb)


@pytest.mark.parametrize(
    ("name", "own", "other"),
    [("07_benchmark", "repro.peers", "repro.grab"), ("05_grab", "repro.grab", "repro.peers")],
)
def test_the_figures_module_adds_only_the_plotting_code_of_the_notebooks_own_figures(
    tmp_path, name, own, other
):
    nb = write_notebook(tmp_path / f"{name}.ipynb", ("code", "from repro import figures", []))
    modules = notebook_modules(nb)
    assert "repro.figures" in modules and own in modules and other not in modules


def test_each_notebook_draws_only_the_figures_registered_for_it():
    # what makes the narrowing above sound: no notebook calls another notebook's figure
    import re

    from repro.figures import FIGURES
    from repro.paths import ROOT

    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        called = set(re.findall(r"figures\.([a-z_0-9]+)\(", path.read_text(encoding="utf-8")))
        drawn = {name for name in called if name in FIGURES}
        assert called == drawn, f"{path.name} calls figures.{sorted(called - drawn)}"
        assert all(FIGURES[name].notebook == path.stem for name in drawn), path.name
