"""A run's own parameters decide where it writes, however it is started.

Unit tests of the parameter reading (papermill's way of writing values) and of
:func:`repro.core.runs.start_run`, and notebook runs through papermill and nbclient with other
parameters on a clean copy of the repository, after which ``git status`` must show no
change to a committed file.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from repro.core import paths, runs
from repro.core.parameters import coerce
from repro.core.runs import declared, notebooks

NOTEBOOK_PARAMETERS = {
    nb: {n: (p.annotation, p.default) for n, p in declared(nb).items()} for nb in notebooks()
}
ROOT = Path(__file__).resolve().parents[2]
DATASETS = "Optional[list[str]]"


@pytest.fixture(autouse=True)
def _fresh_process(monkeypatch):
    """No run started yet and no output override, as in a new kernel."""
    monkeypatch.setattr(paths, "_run_root", None)
    monkeypatch.delenv("RULELAB_OUTPUT", raising=False)
    monkeypatch.setenv("RULELAB_QUICK", "0")


def defaults(notebook: str) -> dict:
    return {name: default for name, (_, default) in NOTEBOOK_PARAMETERS[notebook].items()}


# -- reading values as papermill users write them -------------------------------------------


@pytest.mark.parametrize(
    "given, read",
    [
        ("sonar", ["sonar"]),  # -p DATASETS sonar: one name, not its letters
        ("pima,sonar", ["pima", "sonar"]),
        ("[pima, sonar]", ["pima", "sonar"]),  # -p DATASETS "[pima, sonar]"
        (["pima"], ["pima"]),  # -y "{DATASETS: [pima]}"
        (("pima", "sonar"), ["pima", "sonar"]),
        (None, None),
    ],
)
def test_a_single_name_where_a_list_is_expected_is_a_list_of_one(given, read):
    assert coerce("DATASETS", given, DATASETS) == read


@pytest.mark.parametrize(
    "name, given, annotation, read",
    [
        ("MAX_FOLDS", "1", "Optional[int]", 1),  # papermill -r MAX_FOLDS 1
        ("REPEAT_SEEDS", "[]", "Optional[list[int]]", []),
        ("REPEAT_SEEDS", 3, "Optional[list[int]]", [3]),
        ("FIG2_TOL", "1e-3", "float", 0.001),
        ("LAM", 1000, "float", 1000),  # an int is a number as given
        ("TABLE2_RUNS", [["phishing", 1, 3]], "list[tuple[str, float, int]]", [("phishing", 1, 3)]),
        ("TABLE1_METHODS", "SVC", "Union[list[str], dict[str, list[str]], None]", ["SVC"]),
        (
            "TABLE1_METHODS",
            "{madelon: [SVC, DT]}",
            "Union[list[str], dict[str, list[str]], None]",
            {"madelon": ["SVC", "DT"]},
        ),
        ("TABLE1_MAX_TRAIN", 300, "Union[int, dict[str, int], None]", 300),
    ],
)
def test_text_and_yaml_values_are_read_by_the_parameters_type(name, given, annotation, read):
    value = coerce(name, given, annotation)
    assert value == read and type(value) is type(read)


@pytest.mark.parametrize(
    "name, given, annotation, expects, shown",
    [
        ("MAX_FOLDS", "two", "Optional[int]", "None or an integer", "got 'two' (str)"),
        ("DATASETS", 3, DATASETS, "None or a list of str", "got 3 (int)"),
        ("QUICK", "yes please", "bool", "True or False", "got 'yes please'"),
        ("LAM", True, "float", "a number", "got True (bool)"),
        (
            "NOISES",
            "[0.1, 0.2",
            "list[float]",
            "a list of float",
            "'[0.1, 0.2' is not a YAML value",
        ),
        (
            "TABLE2_RUNS",
            ["ijcnn1"],
            "list[tuple[str, float, int]]",
            "a list of a tuple (str, float, int)",
            "expected 3 values, got 'ijcnn1'",
        ),
    ],
)
def test_a_malformed_value_is_an_error_naming_the_parameter(
    name, given, annotation, expects, shown
):
    with pytest.raises(ValueError) as err:
        coerce(name, given, annotation)
    assert str(err.value).startswith(f"parameter {name} expects {expects} ({annotation}): ")
    assert shown in str(err.value)


def test_the_defaults_table_agrees_with_every_parameters_cell():
    """The table start_run compares with is the committed cells' names, types and values."""
    for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        cell = next(c for c in nb.cells if "parameters" in c.metadata.get("tags", []))
        found = {}
        for node in ast.parse(cell.source).body:
            assert isinstance(node, ast.AnnAssign), f"{path.name}: {ast.unparse(node)} has no type"
            ann = node.annotation
            found[node.target.id] = (
                ann.value if isinstance(ann, ast.Constant) else ast.unparse(ann),
                ast.literal_eval(node.value),
            )
        assert path.stem in NOTEBOOK_PARAMETERS, (
            f"{path.name}: declare its parameters in its package's parameters.py"
        )
        spec = NOTEBOOK_PARAMETERS[path.stem]
        assert list(found) == list(spec), path.name
        for name, (annotation, default) in spec.items():
            assert found[name][0] == annotation, (path.name, name)
            assert repr(found[name][1]) == repr(default), (path.name, name)
            assert coerce(name, default, annotation) == default, (path.name, name)


# -- where a run writes ---------------------------------------------------------------------


def test_a_full_run_with_the_defaults_writes_the_committed_outputs(capsys):
    namespace = {**defaults("00_tour"), "N_JOBS": 8}  # N_JOBS changes speed only
    run = runs.start_run("00_tour", namespace)
    assert run.committed and paths.output_root() == paths.ROOT
    assert capsys.readouterr().out.startswith("FULL run with the default parameters")


def test_an_edited_parameters_cell_writes_under_runs(capsys):
    """JupyterLab: the user typed another value into the parameters cell itself."""
    namespace = {**defaults("00_tour"), "LAM": 100}
    run = runs.start_run("00_tour", namespace)
    assert not run.committed and run.changed == {"LAM": 100}
    assert paths.output_root() == paths.ROOT / "runs" / "LAM-100"
    out = capsys.readouterr().out
    assert "runs/LAM-100/" in out and "INTO_COMMITTED = True would refresh" in out
    namespace["LAM"] = 1000  # set back and rerun the cell
    assert runs.start_run("00_tour", namespace).committed


def test_start_run_puts_the_checked_values_back_into_the_notebook():
    namespace = {**defaults("02_rule_sets"), "DATASETS": "sonar", "MAX_FOLDS": 1}
    run = runs.start_run("02_rule_sets", namespace)
    assert namespace["DATASETS"] == ["sonar"]
    assert run.root == paths.ROOT / "runs" / "DATASETS-sonar_MAX_FOLDS-1"


def test_the_issues_papermill_rerun_gets_its_own_folder():
    import yaml

    given = yaml.safe_load("{DATASETS: [sonar], MAX_FOLDS: 1, REPEAT_SEEDS: []}")  # papermill -y
    run = runs.plan_run("02_rule_sets", given)
    assert not run.committed
    assert run.root == paths.ROOT / "runs" / "DATASETS-sonar_MAX_FOLDS-1_REPEAT_SEEDS-empty"


def test_quick_runs_keep_their_folder_and_name_other_parameters(monkeypatch):
    monkeypatch.setenv("RULELAB_QUICK", "1")  # make test
    assert runs.plan_run("02_rule_sets", {}).root == paths.ROOT / "runs" / "quick"
    assert (
        runs.plan_run("02_rule_sets", {"DATASETS": "sonar"}).root
        == paths.ROOT / "runs" / "quick_DATASETS-sonar"
    )
    with pytest.raises(ValueError, match="a QUICK run .* cannot"):
        runs.plan_run("02_rule_sets", {"INTO_COMMITTED": True})


def test_into_committed_lets_a_full_run_with_other_parameters_refresh_the_committed_outputs():
    run = runs.plan_run("03_two_level", {"DATASETS": "musk2", "INTO_COMMITTED": True})
    assert run.committed and run.root == paths.ROOT and run.changed == {"DATASETS": ["musk2"]}


def test_long_parameter_sets_get_distinct_short_folders():
    a = runs.run_folder(
        {
            "TABLE1_SETS": ["a1a", "phishing", "diabetes", "fourclass", "madelon"],
            "TABLE1_METHODS": ["SVC", "DT", "RF"],
        },
        quick=False,
    )
    b = runs.run_folder(
        {
            "TABLE1_SETS": ["a1a", "phishing", "diabetes", "fourclass", "madelon"],
            "TABLE1_METHODS": ["SVC", "DT", "XGB"],
        },
        quick=False,
    )
    assert a != b and len(a.name) <= 80 and len(b.name) <= 80


def test_a_parameters_cell_missing_a_parameter_is_named():
    namespace = defaults("00_tour")
    del namespace["LAM"]
    with pytest.raises(ValueError, match="does not set LAM"):
        runs.start_run("00_tour", namespace)


# -- whole notebooks on a clean copy ---------------------------------------------------------


@pytest.fixture(scope="module")
def clean_copy(tmp_path_factory):
    """The repository's files (as they are now) in a fresh git repository, and the tour
    notebook without its explorer cell (interactive; it writes nothing) beside it."""
    from tests.conftest import data_dir

    if data_dir() is None:
        pytest.skip("the notebooks need the benchmark data (RULELAB_DATA)")
    base = tmp_path_factory.mktemp("clean")
    repo = base / "repo"
    files = (
        subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
        .stdout.decode()
        .split("\0")
    )
    for name in filter(None, files):
        if (ROOT / name).is_file():
            (repo / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, repo / name)
    git = ["git", "-c", "user.name=test", "-c", "user.email=test@example.org"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "copy"]):
        subprocess.run(git + args, cwd=repo, check=True)
    tour = nbformat.read(repo / "notebooks" / "00_tour.ipynb", as_version=4)
    tour.cells = [c for c in tour.cells if "explore(" not in c.source]
    nbformat.write(tour, base / "tour.ipynb")
    return repo


def _kernel_env(repo: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("RULELAB_OUTPUT", "MPLBACKEND")}
    env.update(
        {
            "PYTHONPATH": str(repo),
            "RULELAB_QUICK": "0",
            "RULELAB_HEADLESS": "1",
            "RULELAB_DATA": os.environ.get("RULELAB_DATA", ""),
        }
    )
    return env


def _papermill(*args: str, repo: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "papermill",
            *args,
            "--cwd",
            str(repo / "notebooks"),
            "--no-progress-bar",
        ],
        env=_kernel_env(repo),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]


def _first_output(path: Path) -> str:
    nb = nbformat.read(path, as_version=4)
    return next(
        o["text"]
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.get("outputs", [])
        if o.get("output_type") == "stream"
    )


def _committed_files_unchanged(repo: Path) -> None:
    status = subprocess.run(
        ["git", "status", "--porcelain"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout
    assert status == "", f"a run changed committed files:\n{status}"


@pytest.mark.slow
@pytest.mark.data
def test_papermill_with_other_parameters_writes_under_runs(clean_copy):
    """The issue's case: a FULL papermill run with one parameter changed."""
    repo, out = clean_copy, clean_copy.parent / "tour_out.ipynb"
    _papermill(str(repo.parent / "tour.ipynb"), str(out), "-p", "N_THRESHOLDS", "5", repo=repo)
    _committed_files_unchanged(repo)
    folder = repo / "runs" / "N_THRESHOLDS-5"
    assert (folder / "results" / "claims_00_tour.csv").is_file()
    assert (folder / "figures" / "tour_iris_rule.png").is_file()
    assert _first_output(out).startswith("FULL run with other parameters (N_THRESHOLDS=5)")


@pytest.mark.slow
@pytest.mark.data
def test_an_edited_parameters_cell_run_by_nbclient_writes_under_runs(clean_copy, monkeypatch):
    """JupyterLab's case: the parameters cell itself edited, no injected cell."""
    from nbclient import NotebookClient

    repo = clean_copy
    for name, value in _kernel_env(repo).items():
        monkeypatch.setenv(name, value)  # the kernel inherits them
    nb = nbformat.read(repo.parent / "tour.ipynb", as_version=4)
    cell = next(c for c in nb.cells if "parameters" in c.metadata.get("tags", []))
    assert "LAM: float = 1000 " in cell.source
    cell.source = cell.source.replace("LAM: float = 1000 ", "LAM: float = 100  ")
    NotebookClient(
        nb,
        timeout=240,
        kernel_name="python3",
        resources={"metadata": {"path": str(repo / "notebooks")}},
    ).execute()
    out = repo.parent / "tour_edited.ipynb"
    nbformat.write(nb, out)
    _committed_files_unchanged(repo)
    assert (repo / "runs" / "LAM-100" / "results" / "claims_00_tour.csv").is_file()
    assert _first_output(out).startswith("FULL run with other parameters (LAM=100)")


@pytest.mark.slow
@pytest.mark.data
def test_papermill_reads_a_single_dataset_name_as_one_name(clean_copy):
    """-p DATASETS sonar on the rule-set notebook (QUICK, one fold): sonar, not s, o, n..."""
    repo, out = clean_copy, clean_copy.parent / "rule_sets_out.ipynb"
    _papermill(
        str(repo / "notebooks" / "02_rule_sets.ipynb"),
        str(out),
        "-p",
        "QUICK",
        "True",
        "-p",
        "DATASETS",
        "sonar",
        "-p",
        "MAX_FOLDS",
        "1",
        repo=repo,
    )
    _committed_files_unchanged(repo)
    folder = repo / "runs" / "quick_DATASETS-sonar_MAX_FOLDS-1"
    assert (folder / "results" / "claims_02_rule_sets.csv").is_file()
    assert any((folder / "figures").glob("*.png"))
    assert "DATASETS=['sonar']" in _first_output(out)
