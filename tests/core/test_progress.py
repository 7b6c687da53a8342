"""The pipeline's progress lines: counting a tally, wording a line, and the reporting thread."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from repro.core.progress import Progress, count_units, progress_line, quiet_kernel_warnings

ROOT = Path(__file__).resolve().parents[2]


def test_a_unit_written_then_read_is_one_computed_unit():
    text = "wrote cv/a.json\nread cv/a.json\nwrote cv/b.json\nread cv/c.json\n"
    assert count_units(text) == (3, 1)


def test_reads_only_are_all_from_the_cache_and_repeats_count_once():
    text = "read cv/a.json\nread grab/table1/b.json\nread cv/a.json\n"
    assert count_units(text) == (2, 2)


def test_blank_lines_and_recipes_after_a_tab_are_ignored():
    text = '\n\nwrote cv/a.json\t{"kind": "cv"}\n   \nread cv/a.json\t{"kind": "cv"}\n\n'
    assert count_units(text) == (1, 0)
    assert count_units("") == (0, 0)


def test_line_with_a_total_estimates_from_computed_units_only():
    # 312 done, 40 of them read: 272 computed in 14 min, 892 to go -> about 46 min
    line = progress_line("05_grab", 312, 40, 1204, 14 * 60)
    assert line == (
        "[rulelab] 05_grab: 312 of 1,204 units (40 read from the cache), "
        "14 min so far, about 46 min left"
    )


def test_line_without_a_total_gives_no_time_left():
    line = progress_line("05_grab", 1312, 40, None, 14 * 60)
    assert line == "[rulelab] 05_grab: 1,312 units so far (40 read from the cache), 14 min so far"


def test_no_time_left_before_a_unit_was_computed():
    line = progress_line("05_grab", 40, 40, 1204, 90)
    assert line == "[rulelab] 05_grab: 40 of 1,204 units (40 read from the cache), 2 min so far"


def test_under_a_minute_is_shown_in_seconds():
    line = progress_line("00_tour", 1, 0, 3, 20)
    assert line == "[rulelab] 00_tour: 1 of 3 units, 20 s so far, about 40 s left"
    assert progress_line("00_tour", 1, 0, 100, 30).endswith("30 s so far, about 50 min left")


def test_the_thread_reports_growth_and_nothing_after_the_block(tmp_path):
    tally, out = tmp_path / "tally", io.StringIO()
    with Progress(tally, "05_grab", total=4, every=0.05, out=out):
        with open(tally, "a", encoding="utf-8") as f:
            f.write("wrote cv/a.json\nread cv/b.json\n")
        deadline = time.monotonic() + 10
        while not out.getvalue() and time.monotonic() < deadline:
            time.sleep(0.02)
    printed = out.getvalue()
    assert printed.startswith("[rulelab] 05_grab: 2 of 4 units (1 read from the cache)")
    with open(tally, "a", encoding="utf-8") as f:
        f.write("wrote cv/c.json\n")
    time.sleep(0.3)
    assert out.getvalue() == printed


def test_the_thread_waits_for_whole_lines(tmp_path):
    tally, out = tmp_path / "tally", io.StringIO()
    tally.write_text("wrote cv/a.json\nwrote cv/b", encoding="utf-8")  # b's line half written
    with Progress(tally, "x", every=0.05, out=out) as progress:
        deadline = time.monotonic() + 10
        while not out.getvalue() and time.monotonic() < deadline:
            time.sleep(0.02)
        with open(tally, "a", encoding="utf-8") as f:
            f.write(".json\n")
        while progress._last != (2, 0) and time.monotonic() < deadline:
            time.sleep(0.02)
    assert out.getvalue().splitlines()[0].startswith("[rulelab] x: 1 unit so far, ")
    assert out.getvalue().splitlines()[-1].startswith("[rulelab] x: 2 units so far, ")


NOTEBOOK_RUN = """
import sys
import nbformat, papermill
from repro.core.progress import quiet_kernel_warnings
nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(1 + 1)")])
nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
nbformat.write(nb, sys.argv[1])
papermill.execute_notebook(sys.argv[1], sys.argv[1], progress_bar=False, **quiet_kernel_warnings())
print(nbformat.read(sys.argv[1], as_version=4).cells[0].outputs[0]["text"], end="")
"""


@pytest.mark.slow
def test_a_kernel_started_with_the_options_does_not_warn_of_plain_tcp(tmp_path):
    pytest.importorskip("papermill")
    if not quiet_kernel_warnings():
        pytest.skip("this pyzmq has no CurveZMQ")
    # The kernel writes the warning to the standard error it inherits: run it in a child
    # whose descriptors are captured.
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    result = subprocess.run(
        [sys.executable, "-c", NOTEBOOK_RUN, str(tmp_path / "one.ipynb")],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == "2\n"
    assert "without encryption" not in result.stderr
