"""The reproduction's layout: one package per paper, the machinery and the peers apart.

``repro.core`` (the machinery) and ``repro.peers`` import no paper's package, no paper's
package imports another's, and no module of rulelab or repro takes part in an import
cycle, counting imports inside functions too."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from repro.core.paths import ROOT

SHARED = {"core", "peers", "paper_numbers"}


def _imports(path: Path) -> set[str]:
    """Every module of rulelab or repro that ``path`` imports, anywhere in it."""
    found = set()
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            # ``from repro.core import cache`` imports the module repro.core.cache
            found |= {f"{base}.{alias.name}" for alias in node.names} | {base}
    return {name for name in found if name.split(".")[0] in ("rulelab", "repro")}


def _modules() -> dict[str, Path]:
    out = {}
    for top in ("rulelab", "repro"):
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            out[name] = path
    return out


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {
        name: {m for m in _imports(path) if m in modules} - {name} for name, path in modules.items()
    }


def _area(module: str) -> str | None:
    """The package of repro that ``module`` belongs to (None outside repro's packages)."""
    parts = module.split(".")
    return parts[1] if parts[0] == "repro" and len(parts) > 2 else None


def test_every_notebook_has_its_package():
    for notebook in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        packages = [p.name for p in (ROOT / "repro").iterdir() if (p / "__init__.py").is_file()]
        assert any(notebook.stem[3:].startswith(p) for p in packages), notebook.name


@pytest.mark.parametrize("shared", ["core", "peers"])
def test_the_machinery_and_the_peers_import_no_paper(shared):
    wrong = {
        (module, target)
        for module, targets in _graph().items()
        if _area(module) == shared
        for target in targets
        if _area(target) not in SHARED | {None}
    }
    assert not wrong, sorted(wrong)


def test_no_paper_imports_another():
    wrong = {
        (module, target)
        for module, targets in _graph().items()
        if _area(module) not in SHARED | {None}
        for target in targets
        if _area(target) not in SHARED | {None, _area(module)}
    }
    assert not wrong, sorted(wrong)


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of ``graph`` found by a depth-first walk (each once or more)."""
    # a package's __init__ that re-exports its modules is not a cycle with them
    graph = {m: {t for t in ts if not t.startswith(m + ".")} for m, ts in graph.items()}
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                cycles.append(path[path.index(target) :] + [target])
            elif target not in state:
                visit(target, path + [target])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    return cycles


def test_there_is_no_import_cycle():
    assert not _cycles(_graph()), _cycles(_graph())[:5]


def test_a_cycle_is_seen():
    assert _cycles({"repro.a.x": {"repro.a.y"}, "repro.a.y": {"repro.a.x"}})
    assert not _cycles({"repro.a": {"repro.a.x"}, "repro.a.x": {"repro.a"}})


def test_every_paper_package_has_the_same_face():
    import importlib

    from repro.core.parameters import Parameter
    from repro.core.runs import notebooks

    for notebook in notebooks():
        package = importlib.import_module(f"repro.{notebook[3:]}")
        assert set(package.__all__) == {"FIGURES", "PARAMETERS", "claims", "run"}, notebook
        assert all(isinstance(p, Parameter) for p in package.PARAMETERS.values()), notebook
        assert callable(package.claims) and callable(package.run), notebook
        assert all(spec.notebook == notebook for spec in package.FIGURES.values()), notebook


def test_a_papers_run_refuses_a_parameter_its_notebook_does_not_declare():
    from repro import grab

    with pytest.raises(ValueError, match="NO_SUCH_PARAMETER"):
        grab.run(NO_SUCH_PARAMETER=1)
