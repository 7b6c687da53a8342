"""A fingerprint of the rulelab code behind a computation, for the result caches.

A cached result may be reused only by the code that computed it: a change to an algorithm
must not leave a table rebuilt from results of the older code. The fingerprint of an
estimator (or function) hashes the source of every rulelab module it depends on: the
module that defines it, the rulelab modules that module imports, and so on (read from the
import statements, so nothing is executed). Parameters are hashed separately
(:func:`repro.runner.params_key`).
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib.util
from pathlib import Path

__all__ = ["source_key", "module_closure", "PACKAGES"]

# The library and the reproductions: a result depends on the code of both.
PACKAGES = ("rulelab", "repro")


def _module_file(name: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, AttributeError, ValueError):
        return None
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None
    return Path(spec.origin)


def _imports(name: str, path: Path) -> set[str]:
    """rulelab modules named by the import statements of module ``name``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package
                for _ in range(node.level - 1):
                    anchor = anchor.rpartition(".")[0]
                base = f"{anchor}.{base}" if base else anchor
            # ``from .. import x`` names submodules; ``from .m import f`` names module m.
            targets = [f"{base}.{a.name}" for a in node.names] + ([base] if node.module else [])
        else:
            continue
        for target in targets:
            # A package's own __init__ imports everything; it is never a dependency.
            if target.split(".")[0] in PACKAGES and target not in PACKAGES:
                found.add(target)
    return found


def reachable(name: str, neighbours) -> frozenset[str]:
    """Module ``name`` and every module reached from it by ``neighbours(module, path)`` (a
    set of module names), directly or not; a name without a source file is not a module
    (a name imported from one) and is left out."""
    seen: set[str] = set()
    stack = [name]
    while stack:
        current = stack.pop()
        if current in seen:
            continue
        path = _module_file(current)
        if path is None:
            continue
        seen.add(current)
        stack.extend(neighbours(current, path) - seen)
    return frozenset(seen)


@functools.cache
def module_closure(name: str) -> frozenset[str]:
    """Module ``name`` and every rulelab or repro module it imports, directly or not."""
    return reachable(name, _imports)


def _modules_of(obj) -> set[str]:
    """rulelab/repro modules defining ``obj`` and, for an estimator, its nested estimators."""
    out = set()
    todo = [obj]
    while todo:
        item = todo.pop()
        module = getattr(item, "__module__", None) or getattr(type(item), "__module__", "")
        if isinstance(item, str):
            module = item
        if module.split(".")[0] in PACKAGES:
            out.add(module)
        if hasattr(item, "get_params") and not isinstance(item, type):
            todo.extend(
                v
                for v in item.get_params(deep=False).values()
                if hasattr(v, "get_params") or isinstance(v, (list, tuple))
            )
        if isinstance(item, (list, tuple)):
            todo.extend(v for v in item if not isinstance(v, (str, int, float)))
    return out


@functools.cache
def _hash_modules(modules: frozenset[str]) -> str:
    digest = hashlib.sha256()
    for name in sorted(modules):
        digest.update(name.encode())
        digest.update(_module_file(name).read_bytes())
    return digest.hexdigest()[:10]


def source_key(*objs) -> str:
    """A short hash of the source of every rulelab and repro module behind ``objs``
    (estimators, functions, classes or module names); ``"external"`` when none is ours."""
    modules: set[str] = set()
    for obj in objs:
        for module in _modules_of(obj):
            modules |= module_closure(module)
    return _hash_modules(frozenset(modules)) if modules else "external"
