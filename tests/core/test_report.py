"""Claims recorded by the notebooks end up in REPORT.md and the README's results section."""

from __future__ import annotations

import pytest

from repro.core import report


@pytest.fixture
def isolated(tmp_path, monkeypatch):
    monkeypatch.setattr(report, "results_dir", lambda: tmp_path)
    return tmp_path


def test_claims_flow_into_the_report_and_the_readme(isolated):
    report.record_claims(
        "99_demo",
        [
            {"claim": "A beats B", "verdict": "holds", "evidence": "0.10 < 0.20"},
            {"claim": "C is fast", "verdict": "not testable", "evidence": "no timing in the paper"},
            {"claim": "D beats E", "verdict": "tie", "evidence": "+0.001 ± 0.004"},
        ],
    )
    text = report.write_report(
        path=isolated / "REPORT.md", run_log=isolated / "none.json"
    ).read_text()
    # no quote registered for a demo claim: counted apart from the papers' claims
    assert "The papers' claims: 0 holds, 0 does not hold, 0 tie, 0 not testable." in text
    assert "reported but not counted among the papers' verdicts: 1 holds, 0 does not" in text
    assert "| 99_demo | A beats B | unquoted |  |  | holds | 0.10 < 0.20 |" in text
    readme = isolated / "README.md"
    readme.write_text("intro\n<!-- results:start -->\nstale text\n<!-- results:end -->\nrest\n")
    assert report.update_readme(readme)
    body = readme.read_text()
    assert "| notebook | origin | holds | does not hold | tie | not testable |" in body
    assert (
        "| 99_demo | ours or extension | 1 | 0 | 1 | 1 |" in body
        and "stale text" not in body
        and body.endswith("rest\n")
    )
    assert not report.update_readme(readme)  # a second refresh changes nothing


def test_unknown_verdicts_are_refused(isolated):
    with pytest.raises(ValueError, match="verdicts must be one of"):
        report.record_claims("99_demo", [{"claim": "x", "verdict": "maybe", "evidence": ""}])


def test_the_run_log_names_the_code_it_ran(tmp_path):
    import json
    import re
    import subprocess

    from repro.core.pipeline import code_version

    version = code_version()
    assert re.fullmatch(r"([0-9a-f]{4,40}(\+changes)?)?", version)
    # the last commit that changed the code, not HEAD: output commits after it keep its name
    last = subprocess.run(
        ["git", "log", "-1", "--format=%h", "--", "rulelab", "repro", "pyproject.toml"],
        cwd=report.ROOT,
        capture_output=True,
        text=True,
    )
    if last.returncode == 0:
        assert version.split("+")[0] == last.stdout.strip()
    log = tmp_path / "run_log.json"
    log.write_text(
        json.dumps(
            {
                "mode": "full",
                "notebooks": [
                    {
                        "notebook": "99_demo",
                        "status": "ok",
                        "seconds": 1.0,
                        "code": "abc1234",
                        "finished": "2026-01-01T00:00:00+00:00",
                    }
                ],
            }
        )
    )
    text = report.write_report(path=tmp_path / "REPORT.md", run_log=log).read_text()
    assert "| notebook | status | seconds | code | finished |" in text and "abc1234" in text


def test_the_report_names_the_package_versions_of_each_run(tmp_path):
    import json
    from importlib.metadata import version

    import numpy
    import pandas

    from repro.core.pipeline import environment

    env = environment()
    assert f"numpy {numpy.__version__}" in env and f"pandas {pandas.__version__}" in env
    assert f"highspy {version('highspy')}" in env
    log = tmp_path / "run_log.json"
    entry = {
        "status": "ok",
        "seconds": 1.0,
        "code": "abc1234",
        "finished": "2026-01-01T00:00:00+00:00",
    }
    log.write_text(
        json.dumps(
            {
                "mode": "full",
                "notebooks": [
                    {**entry, "notebook": "97_demo", "environment": "python 3.11.9, numpy 2.0.0"},
                    {**entry, "notebook": "98_demo", "environment": "python 3.12.1, numpy 2.4.6"},
                    {**entry, "notebook": "99_demo", "environment": "python 3.11.9, numpy 2.0.0"},
                    {**entry, "notebook": "96_demo"},
                ],
            }
        )
    )
    text = report.write_report(path=tmp_path / "REPORT.md", run_log=log).read_text()
    assert "- 97_demo, 99_demo: python 3.11.9, numpy 2.0.0" in text
    assert "- 98_demo: python 3.12.1, numpy 2.4.6" in text
    assert "- 96_demo: not recorded" in text
    # the versions are listed beside the table, not as a column of it
    assert "| notebook | status | seconds | code | finished |" in text


def test_claims_tables_show_whole_sentences_in_a_notebook(isolated):
    import pandas as pd

    from repro.core.plotting import use_style

    claim = "the best rulelab rule learner reaches the mean error of the best rule peer"
    evidence = "AM: error 0.171, 2.7 rules; best peer RuleFit: error 0.160, 28.3 rules (FULL)"
    with pd.option_context("display.max_colwidth", 50):
        use_style()  # every notebook calls it before its tables
        frame = report.record_claims(
            "99_test", [dict(claim=claim, verdict="holds", evidence=evidence)]
        )
        shown = frame._repr_html_()  # what JupyterLab and GitHub render
    assert claim in shown and evidence in shown


def test_claims_judged_by_older_code_are_flagged_in_the_report(isolated):
    import json

    report.record_claims("00_tour", [{"claim": "x", "verdict": "holds", "evidence": "y"}])
    log = isolated / "run_log.json"
    entry = {"notebook": "00_tour", "status": "ok", "seconds": 1.0, "fingerprint": "0000000000"}
    log.write_text(json.dumps({"mode": "full", "notebooks": [entry]}))
    text = report.write_report(path=isolated / "REPORT.md", run_log=log).read_text()
    assert "**Recorded by older code:** the claims of 00_tour were judged" in text
    from repro.core.fingerprint import notebook_fingerprint

    entry["fingerprint"] = notebook_fingerprint(report.ROOT / "notebooks" / "00_tour.ipynb")
    log.write_text(json.dumps({"mode": "full", "notebooks": [entry]}))
    text = report.write_report(path=isolated / "REPORT.md", run_log=log).read_text()
    assert "Recorded by older code" not in text
