"""A QUICK run never writes over the committed outputs of a full reproduction."""

from __future__ import annotations

import pytest

from repro.core import paths as _paths
from repro.core import plotting, report, runs
from repro.core.pipeline import merge_log


@pytest.fixture(autouse=True)
def _no_run_started(monkeypatch):
    """Each test starts as a fresh process does: no notebook run has chosen an output root."""
    monkeypatch.setattr(_paths, "_run_root", None)


def test_quick_runs_write_under_runs_quick(monkeypatch):
    monkeypatch.delenv("RULELAB_OUTPUT", raising=False)
    monkeypatch.delenv("RULELAB_FIGURES", raising=False)
    monkeypatch.setenv("RULELAB_QUICK", "1")
    assert _paths.output_root() == _paths.ROOT / "runs" / "quick"
    assert report.results_dir() == _paths.ROOT / "runs" / "quick" / "results"
    assert plotting.figures_dir() == _paths.ROOT / "runs" / "quick" / "figures"
    monkeypatch.setenv("RULELAB_QUICK", "0")
    assert report.results_dir() == _paths.ROOT / "results"
    assert plotting.figures_dir() == _paths.ROOT / "figures"


def test_output_can_be_pointed_elsewhere(monkeypatch, tmp_path):
    monkeypatch.delenv("RULELAB_FIGURES", raising=False)
    monkeypatch.setenv("RULELAB_QUICK", "1")
    monkeypatch.setenv("RULELAB_OUTPUT", str(tmp_path))
    assert report.results_dir() == tmp_path / "results" and (tmp_path / "results").is_dir()
    assert plotting.figures_dir() == tmp_path / "figures"


def test_a_partial_run_keeps_the_other_notebooks_in_the_log():
    earlier = [
        {"notebook": "01_a", "status": "ok", "seconds": 5.0},
        {"notebook": "02_b", "status": "ok", "seconds": 7.0},
    ]
    latest = [
        {"notebook": "02_b", "status": "failed: KeyError", "seconds": 1.0},
        {"notebook": "03_c", "status": "ok", "seconds": 2.0},
    ]
    merged = merge_log(earlier, latest)
    assert [e["notebook"] for e in merged] == ["01_a", "02_b", "03_c"]
    assert merged[1]["status"] == "failed: KeyError" and merged[0]["seconds"] == 5.0


def test_pipeline_parameters_are_read_as_yaml_and_bad_ones_named():
    import pytest

    from repro.core.pipeline import parse_params

    assert parse_params(["DATASETS=[pima, sonar]", "LAM=100", "NOTE=a=b"]) == {
        "DATASETS": ["pima", "sonar"],
        "LAM": 100,
        "NOTE": "a=b",
    }
    assert parse_params(None) == {}
    with pytest.raises(ValueError, match="NAME=VALUE"):
        parse_params(["DATASETS"])


def test_solver_banner_is_dropped_from_saved_outputs_and_the_rest_kept():
    import nbformat

    from repro.core.pipeline import drop_solver_banners

    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("fit()")
    cell.outputs = [
        nbformat.v4.new_output(
            "stream",
            name="stdout",
            text=(
                "Running HiGHS 1.16.0 (git hash: f3f113d): Copyright (c) 2026\n"
                "Includes third-party software components, see THIRD_PARTY_NOTICES.md\n"
                "BCD: objective 27\n"
            ),
        ),
        nbformat.v4.new_output("stream", name="stderr", text="Running HiGHS 1.16.0\n"),
    ]
    nb.cells.append(cell)
    drop_solver_banners(nb)
    assert [o["text"] for o in nb.cells[0].outputs] == ["BCD: objective 27\n"]


def test_saved_notebooks_keep_no_progress_bars_and_no_machine_paths(tmp_path):
    import nbformat

    from repro.core.pipeline import _save_without_injected_parameters

    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("cross_validate(...)")
    bar = {
        "application/vnd.jupyter.widget-view+json": {
            "model_id": "x",
            "version_major": 2,
            "version_minor": 0,
        },
        "text/plain": "cross-validation:   0%|          | 0/80 [00:00<?, ?it/s]",
    }
    cell.outputs = [
        nbformat.v4.new_output("display_data", data=bar),
        nbformat.v4.new_output("stream", name="stdout", text="80 fits\n"),
    ]
    nb.cells.append(cell)
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    nb.metadata["papermill"] = {
        "input_path": str(tmp_path / "in.ipynb"),
        "output_path": str(tmp_path / "out.ipynb"),
        "parameters": {},
    }
    executed, target = tmp_path / "executed.ipynb", tmp_path / "saved.ipynb"
    nbformat.write(nb, executed)
    _save_without_injected_parameters(executed, target)
    saved = target.read_text()
    assert "0%|" not in saved and "widget-state" not in saved and "80 fits" in saved
    assert str(tmp_path) not in saved


def test_savefig_returns_a_path_relative_to_the_project(monkeypatch):
    import matplotlib.pyplot as plt

    from repro.core.plotting import savefig

    for name in ("RULELAB_OUTPUT", "RULELAB_FIGURES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("RULELAB_QUICK", "1")
    fig = plt.figure()
    assert savefig(fig, "test_relative_path") == "runs/quick/figures/test_relative_path.png"
    plt.close(fig)


@pytest.mark.parametrize(
    "argv, word",
    [
        (["--only", "99"], "no notebook matches --only 99"),
        (["--only", "02", "--param", "DATASET=[sonar]"], "02_rule_sets has no parameter DATASET"),
        (["--param", "X [1]"], "NAME=VALUE"),
        (["--only", "02", "--param", "LAM=[1, 2"], "not a YAML value"),
        (
            ["--only", "02", "--param", "MAX_FOLDS=two"],
            "parameter MAX_FOLDS expects None or an int",
        ),
    ],
)
def test_a_bad_pipeline_request_is_an_argparse_error_before_anything_runs(
    argv, word, monkeypatch, capsys
):
    import papermill

    from repro.core import pipeline

    def never(*args, **kwargs):  # pragma: no cover - must not be reached
        raise AssertionError("a notebook was executed")

    monkeypatch.setattr(papermill, "execute_notebook", never)
    with pytest.raises(SystemExit) as exit_:
        pipeline.main(argv)
    assert exit_.value.code == 2
    assert word in capsys.readouterr().err


def test_a_failed_run_leaves_the_report_and_the_run_log_as_they_were(tmp_path, monkeypatch):
    import papermill

    from repro.core import pipeline

    monkeypatch.setenv("RULELAB_OUTPUT", str(tmp_path))
    monkeypatch.setenv("RULELAB_QUICK", "0")
    monkeypatch.setenv("RULELAB_HEADLESS", "0")
    monkeypatch.setattr(pipeline, "ROOT", tmp_path)  # executed copies go here

    def fail(*args, **kwargs):
        raise RuntimeError("no data")

    monkeypatch.setattr(papermill, "execute_notebook", fail)
    monkeypatch.setattr(pipeline, "write_report", lambda **kw: pytest.fail("report written"))
    monkeypatch.setattr(pipeline, "update_readme", lambda: pytest.fail("README written"))
    log = pipeline.results_dir() / "run_log.json"
    before = log.read_text() if log.is_file() else None
    assert pipeline.main(["--mode", "full", "--only", "00"]) == 1
    assert (log.read_text() if log.is_file() else None) == before


def test_a_notebooks_own_quick_parameter_decides_where_it_writes(monkeypatch, capsys):
    from repro.core.report import results_dir
    from repro.core.runs import start_run

    monkeypatch.delenv("RULELAB_OUTPUT", raising=False)
    monkeypatch.setenv("RULELAB_QUICK", "0")
    tour = {"QUICK": True, "INTO_COMMITTED": False, "N_JOBS": 2, "N_THRESHOLDS": 10, "LAM": 1000}
    assert start_run("00_tour", tour).quick is True  # papermill -p QUICK True
    assert results_dir().parts[-3:] == ("runs", "quick", "results")
    monkeypatch.setenv("RULELAB_QUICK", "1")  # the test command wins
    assert start_run("00_tour", {**tour, "QUICK": False}).quick is True
    monkeypatch.setenv("RULELAB_QUICK", "0")
    assert start_run("00_tour", {**tour, "QUICK": False}).committed  # FULL with the defaults
    assert results_dir() == _paths.ROOT / "results"
    assert "committed results/" in capsys.readouterr().out.splitlines()[-1]


def test_papermill_lists_every_notebook_parameter_with_type_and_help(caplog):
    """``papermill --help-notebook`` shows every parameter with its type, default and help."""
    import logging

    import papermill

    from repro.core.pipeline import NOTEBOOKS
    from repro.core.runs import declared

    caplog.set_level(logging.WARNING)
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        params = papermill.inspect_notebook(str(path))
        assert list(params) == list(declared(path.stem)), path.name
        assert params["QUICK"]["default"] == "False", path.name
        for name, p in params.items():
            assert p["inferred_type_name"] == declared(path.stem)[name].annotation, name
            assert p["help"], f"{path.name}: {name} has no help comment"
    assert not [r for r in caplog.records if "Unable to parse" in r.getMessage()]


def test_parameters_cells_hold_plain_values_that_do_not_depend_on_quick():
    """QUICK is only known after start_run runs (the cell after the parameters), so a
    parameters cell that derives a value from QUICK would use FULL settings in a QUICK run."""
    import re

    import nbformat

    from repro.core.pipeline import NOTEBOOKS

    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        cells = [c for c in nb.cells if c.cell_type == "code"]
        params = next(c for c in cells if "parameters" in c.metadata.get("tags", []))
        uses = [
            line
            for line in params.source.splitlines()
            if re.search(r"\bQUICK\b", line.split("#")[0]) and not line.startswith("QUICK:")
        ]
        assert not uses, (path.name, uses)
        after = cells[cells.index(params) + 1].source
        assert f'RUN = start_run("{path.stem}", globals())' in after, path.name


def _pipeline_in(root, monkeypatch):
    """The pipeline and the output paths rooted at ``root``, with FULL settings (run() sets
    RULELAB_QUICK and RULELAB_HEADLESS; monkeypatch restores them) and the README untouched."""
    from repro.core import pipeline

    monkeypatch.delenv("RULELAB_OUTPUT", raising=False)
    for name in ("RULELAB_QUICK", "RULELAB_HEADLESS"):
        monkeypatch.setenv(name, "0")
    monkeypatch.setattr(pipeline, "ROOT", root)
    monkeypatch.setattr(_paths, "ROOT", root)
    monkeypatch.setattr(pipeline, "update_readme", lambda: pytest.fail("README written"))


def test_a_run_with_other_parameters_writes_beside_the_committed_outputs(tmp_path, monkeypatch):
    import json

    import nbformat
    import papermill

    from repro.core import pipeline
    from repro.core.runs import declared

    _pipeline_in(tmp_path, monkeypatch)
    committed, given = {}, {}

    def execute(source, target, parameters, **kwargs):
        # what a notebook does: decide where it writes, then write a table there
        defaults = {k: p.default for k, p in declared("02_rule_sets").items()}
        runs.start_run("02_rule_sets", {**defaults, **parameters})
        (report.results_dir() / "table.csv").write_text("a\n1\n")
        given.update(parameters)
        nbformat.write(nbformat.v4.new_notebook(), target)

    monkeypatch.setattr(papermill, "execute_notebook", execute)
    monkeypatch.setattr(
        pipeline,
        "_save_without_injected_parameters",
        lambda out, nb: committed.setdefault(nb.name, out),
    )
    assert pipeline.main(["--only", "02", "--param", "DATASETS=[pima, sonar]"]) == 0
    folder = tmp_path / "runs" / "DATASETS-pima+sonar"
    assert (folder / "results" / "table.csv").is_file()
    assert (folder / "02_rule_sets.ipynb").is_file() and (folder / "REPORT.md").is_file()
    log = json.loads((folder / "results" / "run_log.json").read_text())
    assert log["notebooks"][0]["params"] == "DATASETS=['pima', 'sonar']"
    assert committed == {} and not (tmp_path / "results").exists()
    # --into-committed: the notebooks get INTO_COMMITTED and write the committed outputs
    monkeypatch.setattr(pipeline, "update_readme", lambda: None)
    assert pipeline.main(["--only", "02", "--param", "DATASETS=[sonar]", "--into-committed"]) == 0
    assert given["INTO_COMMITTED"] is True and "02_rule_sets.ipynb" in committed
    assert (tmp_path / "results" / "table.csv").is_file()


def test_committed_outputs_name_no_machine_path():
    # what a reproduction commits is read on other machines: an absolute path of the machine
    # that ran it (papermill's metadata, a warning's temporary file) says nothing there
    import re

    pattern = re.compile(r"(?<![\w.])/(?:work|tmp|home|root|Users|var/folders)/")
    files = [
        *sorted((_paths.ROOT / "notebooks").glob("*.ipynb")),
        *sorted((_paths.ROOT / "results").glob("*")),
        _paths.ROOT / "REPORT.md",
    ]
    found = {
        f.name: m.group(0)
        for f in files
        if f.is_file()
        for m in [pattern.search(f.read_text(errors="replace"))]
        if m
    }
    assert not found, f"machine paths in committed outputs: {found}"


def test_n_jobs_reaches_only_the_notebooks_that_declare_it():
    """--jobs becomes N_JOBS in the notebooks that parallelise; passing it to one that does
    not declare it would make papermill print a false 'unknown parameter' warning."""
    from repro.core import pipeline

    declaring = [
        nb for nb in pipeline.discover(None) if "N_JOBS" in pipeline.notebook_parameters(nb)
    ]
    others = [
        nb for nb in pipeline.discover(None) if "N_JOBS" not in pipeline.notebook_parameters(nb)
    ]
    assert declaring
    pipeline.check_request([declaring[0].stem[:2]], {"N_JOBS": 2})
    for nb in others:  # the notebooks that run everything in one process
        with pytest.raises(ValueError, match="no parameter N_JOBS"):
            pipeline.check_request([nb.stem[:2]], {"N_JOBS": 2})
    with pytest.raises(ValueError, match="no parameter NO_SUCH_PARAMETER"):
        pipeline.check_request([declaring[0].stem[:2]], {"NO_SUCH_PARAMETER": 2})


def test_the_run_log_counts_the_cpu_seconds_of_a_notebooks_processes(tmp_path, monkeypatch):
    import json
    import subprocess
    import sys

    import nbformat
    import papermill

    from repro.core import pipeline
    from repro.core.runs import declared

    _pipeline_in(tmp_path, monkeypatch)
    burn = "import time\nwhile time.process_time() < 0.5: pass"

    def execute(source, target, parameters, **kwargs):
        # a kernel that starts a worker: the worker burns at least 0.5 s of CPU
        defaults = {k: p.default for k, p in declared("02_rule_sets").items()}
        runs.start_run("02_rule_sets", {**defaults, **parameters})
        subprocess.run([sys.executable, "-c", burn], check=True)
        nbformat.write(nbformat.v4.new_notebook(), target)

    monkeypatch.setattr(papermill, "execute_notebook", execute)
    assert pipeline.main(["--only", "02", "--param", "DATASETS=[pima]"]) == 0
    log = json.loads((tmp_path / "runs" / "DATASETS-pima" / "results" / "run_log.json").read_text())
    assert log["notebooks"][0]["cpu_seconds"] >= 0.5
