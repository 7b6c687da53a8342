"""Which code a notebook's committed outputs depend on, as one short fingerprint.

A notebook's tables, figures and claims are a function of its own code cells and of every
rulelab and repro module they import, directly or not. The fingerprint hashes exactly that:
the code cells' sources (outputs and markdown left out) and the source of each module in the
import closure. The pipeline records it for every notebook it runs; ``python -m
repro.pipeline --check`` compares the recorded fingerprints with the current code and names
every notebook whose committed outputs are stale.

The closure follows the import statements, as the result caches do
(:func:`repro.codekey.module_closure`), and also resolves the names a package re-exports
(``from rulelab import OneRule``, or ``import rulelab`` then ``rulelab.OneRule(...)``) to
the modules that define them. :mod:`repro.figures` draws every notebook's figures,
importing each notebook's plotting module inside the figure's function; a notebook depends
only on the functions of its own figures there, so that a change to one paper's plotting
code does not stale the others.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib
import importlib.util
import json
from pathlib import Path

from repro.codekey import PACKAGES, _imports, _module_file, reachable

__all__ = ["notebook_modules", "notebook_fingerprint", "stale_notebooks"]

FIGURES_MODULE = "repro.figures"


def _code_cells(path: Path) -> list[str]:
    """The sources of the notebook's code cells, in order (papermill's injected parameters
    cell left out: it holds a run's parameters, not its code)."""
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    return [
        "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
        for c in nb["cells"]
        if c["cell_type"] == "code"
        and "injected-parameters" not in c.get("metadata", {}).get("tags", [])
    ]


def _defining_module(package_attr: str) -> str | None:
    """``rulelab.OneRule`` -> ``rulelab.rulesets``: the module a name re-exported by a
    package's ``__init__`` comes from; the name itself when it is a module."""
    package, _, attr = package_attr.rpartition(".")
    try:
        return importlib.import_module(package_attr).__name__
    except ImportError:
        pass
    try:
        obj = getattr(importlib.import_module(package), attr)
    except (ImportError, AttributeError):
        return None
    module = getattr(obj, "__module__", None)
    return module if module and module.split(".")[0] in PACKAGES else None


def _uses(name: str, path: Path) -> set[str]:
    """Modules that module ``name`` depends on: its imports, with re-exported names and a
    package's attributes (``rulelab.OneRule``) resolved to their defining modules."""
    found = set()
    for target in _imports(name, path):
        found.add(target if _module_file(target) else _defining_module(target))
    tree = ast.parse(path.read_text(encoding="utf-8"))
    aliases = {
        a.asname or a.name: a.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for a in node.names
        if a.name in PACKAGES
    }
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in aliases
        ):
            found.add(_defining_module(f"{aliases[node.value.id]}.{node.attr}"))
    return found - {None}


@functools.cache
def _closure(name: str) -> frozenset[str]:
    """Module ``name`` and every rulelab or repro module it depends on (:func:`_uses`)."""
    return reachable(name, _uses)


def _imported_modules(nodes) -> set[str]:
    """The rulelab and repro modules named by the import statements among ``nodes``, with
    re-exported names resolved to their defining modules (relative imports left out)."""
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [f"{node.module}.{a.name}" for a in node.names] + [node.module]
        else:
            continue
        found |= {
            _defining_module(n) for n in names if n.split(".")[0] in PACKAGES and n not in PACKAGES
        }
    return found - {None}


def notebook_modules(path: Path) -> frozenset[str]:
    """Every rulelab and repro module a notebook's code depends on (its import closure)."""
    direct: set[str] = set()
    for source in _code_cells(path):
        try:
            tree = ast.parse(source)
        except SyntaxError:  # a cell with IPython magics: its imports are read line by line
            tree = ast.parse(
                "\n".join(
                    line
                    for line in source.splitlines()
                    if line.lstrip().startswith(("import ", "from "))
                )
            )
        direct |= _imported_modules(ast.walk(tree))
    closure: set[str] = set()
    for module in direct:
        if module == FIGURES_MODULE:
            closure |= _figures_closure(Path(path).stem)
        else:
            closure |= _closure(module)
    return frozenset(closure)


def _figures_closure(notebook: str) -> frozenset[str]:
    """:mod:`repro.figures`, the modules it imports at its top level, and those imported
    inside the figure functions registered for ``notebook`` (with their closures)."""
    from repro.figures import FIGURES

    own = {spec.draw.__name__ for spec in FIGURES.values() if spec.notebook == notebook}
    path = importlib.util.find_spec(FIGURES_MODULE).origin
    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    nodes = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name in own:
            nodes.extend(n for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom)))
    closure: set[str] = {FIGURES_MODULE}
    for module in _imported_modules(nodes) - {FIGURES_MODULE}:
        closure |= _closure(module)
    return frozenset(closure)


def notebook_fingerprint(path: Path) -> str:
    """A 10-character hash of the notebook's code cells and of its modules' sources."""
    digest = hashlib.sha256()
    for source in _code_cells(path):
        digest.update(source.encode())
    for name in sorted(notebook_modules(path)):
        spec = importlib.util.find_spec(name)
        digest.update(name.encode())
        digest.update(Path(spec.origin).read_bytes())
    return digest.hexdigest()[:10]


def stale_notebooks(notebooks: list[Path], run_log: Path) -> list[dict]:
    """One row per notebook: its recorded and current fingerprints and whether its committed
    outputs are stale (made by other code, or by a run that recorded no fingerprint)."""
    recorded = {}
    if run_log.is_file():
        for entry in json.loads(run_log.read_text()).get("notebooks", []):
            recorded[entry["notebook"]] = entry.get("fingerprint", "")
    rows = []
    for path in notebooks:
        current = notebook_fingerprint(path)
        was = recorded.get(path.stem, "")
        rows.append(
            {
                "notebook": path.stem,
                "recorded": was or "(none)",
                "current": current,
                "stale": was != current,
            }
        )
    return rows
