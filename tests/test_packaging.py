"""pyproject.toml and environment.yml declare the same packages; the layout is as documented."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _name(spec: str) -> str:
    return re.split(r"[<>=!~\[ ]", spec.strip(), maxsplit=1)[0].lower()


def _env_specs() -> list[str]:
    specs, in_deps = [], False
    for line in (ROOT / "environment.yml").read_text().splitlines():
        if line.startswith("dependencies:"):
            in_deps = True
            continue
        m = re.match(r"\s+- (?!pip:)(.+)", line)
        if in_deps and m and not m.group(1).startswith("-e"):
            specs.append(m.group(1))
    return specs


def test_environment_yml_and_pyproject_list_the_same_packages_and_bounds():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    pip_specs = project["dependencies"] + extras["repro"] + extras["dev"]
    env = {_name(s): s.replace(" ", "") for s in _env_specs() if _name(s) not in ("python", "pip")}
    pip = {_name(s): s.replace(" ", "") for s in pip_specs}
    assert set(env) == set(pip)
    assert env == pip


def test_top_level_layout_matches_the_design():
    for entry in [
        "notebooks",
        "rulelab",
        "repro",
        "tests",
        "figures",
        "benchmarks",
        "environment.yml",
        "pyproject.toml",
        "Makefile",
        "README.md",
        ".ci/run",
    ]:
        assert (ROOT / entry).exists(), entry


def test_every_module_in_the_readme_layout_and_the_library_map_exists():
    """The README's layout (both packages) and docs/using.md's map of the library name
    only modules and packages that exist."""
    text = (ROOT / "README.md").read_text() + (ROOT / "docs" / "using.md").read_text()
    found = re.findall(r"`(rulelab|repro)/([a-z_]+)(?:\.py|/)`", text)
    assert {package for package, _ in found} == {"rulelab", "repro"}
    for package, module in found:
        assert (ROOT / package / f"{module}.py").exists() or (ROOT / package / module).is_dir(), (
            f"{package}/{module}"
        )


def test_the_library_never_imports_the_reproductions():
    """rulelab/ is what a user imports into their own work: it knows nothing of the papers'
    experiments, the notebooks, the output folders or Jupyter (repro/ imports rulelab, never
    the other way round)."""
    for path in (ROOT / "rulelab").rglob("*.py"):
        source = path.read_text()
        assert not re.search(r"^\s*(from|import) repro\b", source, re.M), path
        for heavy in (
            "matplotlib",
            "papermill",
            "ipywidgets",
            "IPython",
            "nbformat",
            "xgboost",
            "wittgenstein",
            "tqdm",
        ):
            assert not re.search(rf"^\s*(from|import) {heavy}\b", source, re.M), (path, heavy)


def test_environment_yml_lists_the_bench_extra_as_its_optional_block():
    """The optional peers (pip's ``rulelab[bench]``) appear in environment.yml as a commented
    block with the same packages and bounds, so a conda user can uncomment them."""
    bench = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]["bench"]
    commented = re.findall(r"^\s+# - (\S+)\s*$", (ROOT / "environment.yml").read_text(), re.M)
    assert {_name(s): s.replace(" ", "") for s in commented} == {
        _name(s): s.replace(" ", "") for s in bench
    }
