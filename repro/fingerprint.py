"""Which code a notebook's committed outputs depend on, as one short fingerprint.

A notebook's tables, figures and claims are a function of its own code cells and of every
rulelab and repro module they import, directly or not. The fingerprint hashes exactly that:
the code cells' sources (outputs and markdown left out) and the source of each module in the
import closure (:func:`repro.codekey.module_closure`). The pipeline records it for every
notebook it runs; ``python -m repro.pipeline --check`` compares the recorded fingerprints with
the current code and names every notebook whose committed outputs are stale.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import importlib.util
import json
from pathlib import Path

from repro.codekey import PACKAGES, module_closure

__all__ = ["notebook_modules", "notebook_fingerprint", "stale_notebooks"]


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
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [f"{node.module}.{a.name}" for a in node.names] + [node.module]
            else:
                continue
            for name in names:
                if name.split(".")[0] in PACKAGES and name not in PACKAGES:
                    module = _defining_module(name)
                    if module:
                        direct.add(module)
    closure: set[str] = set()
    for module in direct:
        closure |= module_closure(module)
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
