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
