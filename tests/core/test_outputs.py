"""Committed outputs are written whole, and ``--check`` reads them by content.

A copy of the project runs notebook 00 FULL (its committed outputs are small): once to the
end, then killed at several moments. Every output is then either as it was before or the
whole new file. In the same copy, ``--check`` names a cut-short table, a deleted figure, a
damaged or a missing run log, and a run refuses to start on a damaged log instead of
losing its work at the end.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pandas as pd
import pytest

from repro.core.outputs import damaged_outputs, file_digest, replacing, save_table, write_text
from repro.core.paths import ROOT
from tests.conftest import data_dir

NOTEBOOK = "00_tour"
COPIED = ("rulelab", "repro", "notebooks", "results", "figures", "README.md", "REPORT.md")


def _copy_project(dest: Path) -> Path:
    for name in COPIED:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name)  # with __pycache__: compiled kernels kept
        else:
            shutil.copy2(src, dest / name)
    return dest


def _env(project: Path, tmp: Path) -> dict:
    env = dict(os.environ)
    env.update(
        PYTHONPATH=str(project),
        RULELAB_CACHE=str(tmp / "cache"),
        RULELAB_FITS=str(project / "results" / "fits"),
        OMP_NUM_THREADS="1",
    )
    for name in ("RULELAB_OUTPUT", "RULELAB_QUICK", "RULELAB_CACHE_TALLY", "RULELAB_OUTPUTS"):
        env.pop(name, None)
    if data_dir() is not None:
        env["RULELAB_DATA"] = str(data_dir())
    return env


def _pipeline(project: Path, env: dict, *args: str, kill_after: float | None = None):
    command = [sys.executable, "-m", "repro.core.pipeline", *args]
    if kill_after is None:
        return subprocess.run(
            command, cwd=project, env=env, capture_output=True, text=True, timeout=600
        )
    # its own session, so that the kernel dies with it, as with a killed terminal
    proc = subprocess.Popen(
        command,
        cwd=project,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    time.sleep(kill_after)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    return None


def _outputs(project: Path) -> dict[str, bytes]:
    """Every committed output of notebook 00 by path: its tables, figures, notebook, run log
    and report."""
    names = ["results/tour_iris_rules.csv", "results/claims_00_tour.csv"]
    names += [f"figures/tour_iris_rule.{ext}" for ext in ("png", "pdf")]
    names += [f"notebooks/{NOTEBOOK}.ipynb", "results/run_log.json", "REPORT.md", "README.md"]
    return {n: (project / n).read_bytes() for n in names if (project / n).is_file()}


def _whole(name: str, data: bytes, new: dict[str, bytes]) -> bool:
    """Whether ``data`` is a whole output: the finished run's bytes, or for the files that
    carry clock readings (notebook, run log, report, README), a file that parses whole."""
    if data == new.get(name):
        return True
    if name.endswith(".ipynb"):
        nbformat.reads(data.decode(), as_version=4)
        return True
    if name.endswith(".json"):
        return isinstance(json.loads(data), dict)
    if name.endswith(".md"):
        return data.decode().rstrip().endswith((")", "|", ".", "-->")) or b"##" in data
    return False


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    if data_dir() is None:
        pytest.skip("benchmark data not available")
    tmp = tmp_path_factory.mktemp("project")
    project = _copy_project(tmp / "rulelab")
    env = _env(project, tmp)
    done = _pipeline(project, env, "--mode", "full", "--only", "00")
    assert done.returncode == 0, done.stderr[-2000:]
    return project, env


def test_a_killed_full_run_leaves_each_output_as_it_was_or_whole(project):
    project, env = project
    new = _outputs(project)
    assert len(new) == 8  # every output of 00 is there after a finished run
    for seconds in (2.0, 6.0, 10.0):
        before = _outputs(project)
        _pipeline(project, env, "--mode", "full", "--only", "00", kill_after=seconds)
        after = _outputs(project)
        assert set(after) == set(before), f"killed at {seconds} s: an output vanished"
        for name, data in after.items():
            assert data == before[name] or _whole(name, data, new), (
                f"killed at {seconds} s: {name} is neither as it was nor whole"
            )
    # the next run sweeps what the killed ones left beside the outputs, and checks clean
    again = _pipeline(project, env, "--mode", "full", "--only", "00")
    assert again.returncode == 0, again.stderr[-2000:]
    for folder in ("results", "figures", "notebooks"):
        assert not list((project / folder).glob(".*.tmp*"))
    log = json.loads((project / "results" / "run_log.json").read_text())
    (entry,) = [e for e in log["notebooks"] if e["notebook"] == NOTEBOOK]
    assert {"results/tour_iris_rules.csv", "figures/tour_iris_rule.pdf"} <= set(entry["outputs"])
    assert f"notebooks/{NOTEBOOK}.ipynb" in entry["outputs"]
    assert not damaged_outputs(entry["outputs"], project)


def test_check_names_a_cut_table_and_a_deleted_figure(project):
    project, env = project
    table = project / "results" / "tour_iris_rules.csv"
    figure = project / "figures" / "tour_iris_rule.png"
    report, readme = project / "REPORT.md", project / "README.md"
    notebook = project / "notebooks" / f"{NOTEBOOK}.ipynb"
    kept = table.read_bytes(), figure.read_bytes(), report.read_bytes(), readme.read_bytes()
    kept += (notebook.read_bytes(),)
    try:
        notebook.write_bytes(kept[4][:500])
        table.write_bytes(kept[0][:40])
        figure.unlink()
        report.write_bytes(kept[2] + b"\nedited by hand\n")
        readme.write_text(  # a verdict count edited by hand in the results section
            kept[3].decode().replace("<!-- results:end -->", "| 99 |\n<!-- results:end -->")
        )
        out = _pipeline(project, env, "--check", "--only", "00")
        assert out.returncode == 1
        assert "results/tour_iris_rules.csv: changed" in out.stdout
        assert "figures/tour_iris_rule.png: missing" in out.stdout
        assert "report: REPORT.md: changed" in out.stdout
        assert "report: README.md#results: changed" in out.stdout
        assert f"notebooks/{NOTEBOOK}.ipynb: " in out.stdout and "Traceback" not in out.stderr
    finally:
        for path, data in zip((table, figure, report, readme, notebook), kept):
            path.write_bytes(data)
    assert _pipeline(project, env, "--check", "--only", "00").stdout.count("DAMAGED") == 0


@pytest.mark.parametrize("damage", ["truncated", "not a log", "missing"])
def test_a_damaged_or_missing_run_log_gets_a_message_not_a_traceback(project, damage):
    project, env = project
    log = project / "results" / "run_log.json"
    kept = log.read_bytes()
    try:
        if damage == "truncated":
            log.write_bytes(kept[: len(kept) // 2])
        elif damage == "not a log":
            log.write_text("[1, 2, 3]")
        else:
            log.unlink()
        out = _pipeline(project, env, "--check", "--only", "00")
        assert out.returncode == 1 and "Traceback" not in out.stdout + out.stderr
        if damage == "missing":
            assert "there is no run log" in out.stdout and "other code" not in out.stdout
        else:
            assert "results/run_log.json" in out.stdout and "git checkout" in out.stdout
            # a run stops before it computes anything, and the log is left for the user
            ran = _pipeline(project, env, "--mode", "full", "--only", "00")
            assert ran.returncode == 1 and "Traceback" not in ran.stderr
            assert "run_log.json" in ran.stderr and "[rulelab] 00_tour" not in ran.stdout
            assert log.read_bytes() != kept
    finally:
        log.write_bytes(kept)


def test_replacing_leaves_the_old_file_when_the_writer_fails(tmp_path):
    target = tmp_path / "t.csv"
    save_table(pd.DataFrame({"a": [1, 2]}), target)
    old = target.read_bytes()
    with pytest.raises(RuntimeError), replacing(target) as tmp:
        tmp.write_text("a\n1\n")  # half written, then the run fails
        raise RuntimeError("killed")
    assert target.read_bytes() == old and list(tmp_path.iterdir()) == [target]
    write_text(target, "a\n3\n")
    assert target.read_text() == "a\n3\n"


def test_damaged_outputs_names_missing_and_changed_files(tmp_path):
    (tmp_path / "a.csv").write_text("x\n1\n")
    (tmp_path / "b.csv").write_text("x\n2\n")
    outputs = {n: file_digest(tmp_path / n) for n in ("a.csv", "b.csv")}
    assert damaged_outputs(outputs, tmp_path) == []
    (tmp_path / "a.csv").write_text("x\n9\n")
    (tmp_path / "b.csv").unlink()
    assert damaged_outputs(outputs, tmp_path) == [
        "a.csv: changed since the run that wrote it (cut short or edited)",
        "b.csv: missing",
    ]


def _log_entries(root: str, tag: str, start: float) -> None:
    from repro.core import pipeline

    merge = pipeline.merge_log

    def slow_merge(earlier, latest):  # widen the moment between reading and writing the log
        time.sleep(0.3)
        return merge(earlier, latest)

    pipeline.merge_log = slow_merge
    time.sleep(max(0.0, start - time.time()))  # both begin together
    for i in range(4):
        entry = {"notebook": f"{tag}{i}", "status": "ok", "seconds": 1.0, "outputs": {}}
        pipeline._write_log_and_report(Path(root), "full", 1, "now", time.time(), [entry])


def test_runs_finishing_at_once_lose_no_run_log_entry(tmp_path):
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    start = time.time() + 8  # after both have imported the pipeline
    workers = [context.Process(target=_log_entries, args=(str(tmp_path), t, start)) for t in "ab"]
    for w in workers:
        w.start()
    for w in workers:
        w.join(120)
    assert all(w.exitcode == 0 for w in workers)
    log = json.loads((tmp_path / "results" / "run_log.json").read_text())
    assert sorted(e["notebook"] for e in log["notebooks"]) == [
        f"{t}{i}" for t in "ab" for i in range(4)
    ]
