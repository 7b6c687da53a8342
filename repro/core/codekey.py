"""Keys by meaning: a fingerprint of what the code behind a computation does.

A cached result may be reused only by the code that computed it, and a notebook's outputs
are current only while the code that made them is. But a docstring, a comment, a line
broken differently, imports reordered or a function moved to another module change
nothing a computation does, and must not cost a rerun. So the key is computed from the
syntax trees of the definitions a computation can reach, not from the bytes of files:

- the unit is a top-level definition (function, class, module-level name), hashed as its
  syntax tree without docstrings (comments and formatting are not in the tree) and
  without the name of the module that holds it, so an unchanged definition moved to
  another module keeps its key;
- from the definitions a computation names (an estimator's class, a function), the
  closure follows every name they use: names of their module, names imported from
  rulelab or repro (re-exports resolved to the definition), attributes of imported
  modules (``rules.Term``), imports inside functions;
- a class counts with its body's statements and those methods the closure can call: the
  special (dunder) methods, the scikit-learn protocol, and every method whose name the
  closure uses as an attribute or a string. So a change to ``DNF.to_sql`` does not
  change the key of a learner whose code never asks for SQL;
- import statements are not hashed: what they bind is followed instead, so an import
  that comes to bind other code changes the key through that code.

Modules that only decide where results are kept and when they are current
(:data:`MACHINERY`) are never followed: the cache's own bookkeeping computes no result.

The one approximation: a method called through a name built at run time (``getattr(obj,
"to_" + kind)``) is not seen. Such calls are not used in rulelab or repro.
"""

from __future__ import annotations

import ast
import copy
import functools
import hashlib
import importlib.util
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "PACKAGES",
    "MACHINERY",
    "code_specs",
    "key_of_specs",
    "source_key",
    "definitions",
    "normalized",
]

# The library and the reproductions: a result depends on the code of both.
PACKAGES = ("rulelab", "repro")

#: Modules that keep, key and report results but compute none: never part of a key.
MACHINERY = frozenset(
    {
        "repro.core.codekey",
        "repro.core.fingerprint",
        "repro.core.cache",
        "repro.core.fitstore",
        "repro.core.progress",
        "repro.core.records",
    }
)

#: Methods that code outside rulelab and repro calls by name (scikit-learn, pickle,
#: pandas): part of a class's key whatever the closure names.
PROTOCOL = frozenset(
    {
        "fit",
        "predict",
        "predict_proba",
        "predict_log_proba",
        "decision_function",
        "transform",
        "fit_transform",
        "fit_predict",
        "inverse_transform",
        "score",
        "get_params",
        "set_params",
        "get_feature_names_out",
        "partial_fit",
    }
)


def _module_file(name: str) -> Path | None:
    """The source file of module ``name``; None for a name that is no module."""
    return _find_file(name)


@functools.cache
def _find_file(name: str) -> Path | None:
    # Our modules are found on disk below their package: ``find_spec("a.b")`` would import
    # ``a`` (and so run rulelab's imports of scikit-learn, scipy...) just to read a key.
    root, _, rest = name.partition(".")
    if root not in PACKAGES or not rest:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, AttributeError, ValueError):
            return None
        if spec is None or not spec.origin or not spec.origin.endswith(".py"):
            return None
        return Path(spec.origin)
    package = _find_file(root)
    if package is None or package.name != "__init__.py":
        return None
    folder = package.parent
    parts = rest.split(".")
    for i, part in enumerate(parts):
        if (folder / part / "__init__.py").is_file():  # a package comes before a module
            folder = folder / part
            if i == len(parts) - 1:
                return folder / "__init__.py"
        elif (folder / f"{part}.py").is_file() and i == len(parts) - 1:
            return folder / f"{part}.py"
        else:
            return None
    return None


def _ours(name: str) -> bool:
    return name.split(".")[0] in PACKAGES


# Nodes that can hold statements (and so docstrings and imports); an expression holds none.
_HOLDERS = (ast.mod, ast.stmt, ast.excepthandler, ast.match_case)
_DOCUMENTED = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _stripped(node: ast.AST) -> ast.AST:
    """``node`` without docstrings and import statements: neither changes what the code
    computes (what an import binds is followed separately). Nodes that hold statements
    are copied, expressions shared: the parsed module is left as it is, without the cost
    of copying it whole."""
    fields = {}
    for name, value in ast.iter_fields(node):
        if isinstance(value, list):
            value = [
                _stripped(item) if isinstance(item, _HOLDERS) else item
                for item in value
                if not isinstance(item, (ast.Import, ast.ImportFrom))
            ]
        elif isinstance(value, _HOLDERS):
            value = _stripped(value)
        fields[name] = value
    if isinstance(node, _DOCUMENTED):
        body = fields["body"]
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            if isinstance(body[0].value.value, str):
                body = body[1:]
        fields["body"] = body or [ast.Pass()]
    out = copy.copy(node)
    for name, value in fields.items():
        setattr(out, name, value)
    return out


def normalized(node: ast.AST) -> str:
    """The syntax tree of ``node`` without docstrings, imports or positions, as text."""
    return ast.dump(_stripped(node), annotate_fields=False, include_attributes=False)


@dataclass
class _Module:
    """One module's top level: its definitions, what its imports bind, the rest."""

    name: str
    defs: dict[str, ast.AST] = field(default_factory=dict)
    bindings: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    extras: list[ast.AST] = field(default_factory=list)


def _package_of(name: str, path: Path) -> str:
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def _import_bindings(node: ast.AST, package: str) -> Iterator[tuple[str, tuple[str, str | None]]]:
    """``(local name, (module, attribute or None))`` for each rulelab/repro name an import
    statement binds; ``attribute`` None binds the module itself."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            if not _ours(alias.name):
                continue
            if alias.asname:
                yield alias.asname, (alias.name, None)
            else:  # ``import a.b`` binds ``a``
                root = alias.name.split(".")[0]
                yield root, (root, None)
    elif isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            anchor = package
            for _ in range(node.level - 1):
                anchor = anchor.rpartition(".")[0]
            base = f"{anchor}.{base}" if base else anchor
        if not _ours(base):
            return
        for alias in node.names:
            if alias.name == "*":
                continue
            local = alias.asname or alias.name
            sub = f"{base}.{alias.name}"
            if _module_file(sub) is not None:
                yield local, (sub, None)
            else:
                yield local, (base, alias.name)


def _assigned_names(node: ast.AST) -> list[str]:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    names = []
    for target in targets:
        for sub in ast.walk(target):
            if isinstance(sub, ast.Name):
                names.append(sub.id)
    return names


def _is_main_guard(node: ast.AST) -> bool:
    """``if __name__ == "__main__":``"""
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
        return False
    sides = [node.test.left, *node.test.comparators]
    return (
        len(sides) == 2
        and isinstance(node.test.ops[0], ast.Eq)
        and any(isinstance(n, ast.Name) and n.id == "__name__" for n in sides)
        and any(isinstance(n, ast.Constant) and n.value == "__main__" for n in sides)
    )


def _is_docstring(node: ast.AST) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)


@functools.cache
def _module(name: str) -> _Module | None:
    path = _module_file(name)
    if path is None:
        return None
    info = _Module(name)
    package = _package_of(name, path)
    tree = _parsed(path.read_text(encoding="utf-8"))

    def visit(statements, top: bool):
        for node in statements:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                info.bindings.update(_import_bindings(node, package))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                info.defs[node.name] = node
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                names = _assigned_names(node)
                if names == ["__all__"]:
                    continue
                for target in names:
                    info.defs[target] = node
            elif _is_main_guard(node):
                continue  # runs as a script only, never when the module is imported
            elif isinstance(node, (ast.If, ast.Try)):
                # optional imports and fallbacks: their definitions count as top-level ones
                # and the statement itself runs at import
                for part in ("body", "orelse", "finalbody"):
                    visit(getattr(node, part, []), top=False)
                for handler in getattr(node, "handlers", []):
                    visit(handler.body, top=False)
                info.extras.append(node)
            elif _is_docstring(node) and top:
                continue
            else:
                info.extras.append(node)

    visit(tree.body, top=True)
    return info


# A resolved name: ("def", module, name) or ("mod", module, None)
_Target = tuple[str, str, str | None]


def _resolve(module: str, name: str, depth: int = 0) -> _Target | None:
    """What ``name`` means at the top level of ``module``: a definition (followed through
    re-exports to the module that defines it) or a module; None for other code's names."""
    info = _module(module)
    if info is None or depth > 20:
        return None
    if name in info.defs:
        return ("def", module, name)
    if name in info.bindings:
        target, attr = info.bindings[name]
        if attr is None:
            return ("mod", target, None) if _module_file(target) else None
        return _resolve(target, attr, depth + 1)
    sub = f"{module}.{name}"
    if _module_file(sub) is not None:
        return ("mod", sub, None)
    return None


def _chains(node: ast.AST, nodes: list[ast.AST] | None = None) -> Iterator[list[str]]:
    """Every name used in ``node`` with the attributes read from it: ``a.b.c`` gives
    ``["a", "b", "c"]``; a plain name ``["a"]``. ``nodes``: ``node``'s walk, if made."""
    nodes = list(ast.walk(node)) if nodes is None else nodes
    inner: set[int] = set()
    for sub in nodes:
        if isinstance(sub, ast.Attribute) and id(sub) not in inner:
            chain, cur = [], sub
            while isinstance(cur, ast.Attribute):
                chain.append(cur.attr)
                inner.add(id(cur.value))
                cur = cur.value
            if isinstance(cur, ast.Name):
                inner.add(id(cur))
                yield [cur.id, *reversed(chain)]
    for sub in nodes:
        if isinstance(sub, ast.Name) and id(sub) not in inner:
            yield [sub.id]


def _attribute_names(node: ast.AST, nodes: list[ast.AST] | None = None) -> set[str]:
    """Names the code may call as methods: attributes it reads and identifiers in strings
    (``getattr(model, "predict_proba")``)."""
    found = set()
    for sub in ast.walk(node) if nodes is None else nodes:
        if isinstance(sub, ast.Attribute):
            found.add(sub.attr)
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            if sub.value.isidentifier():
                found.add(sub.value)
    return found


def _local_bindings(
    node: ast.AST, module: str, nodes: list[ast.AST] | None = None
) -> dict[str, tuple[str, str | None]]:
    """What the import statements inside a function bind (imports done where used)."""
    path = _module_file(module)
    package = _package_of(module, path) if path is not None else module
    found: dict[str, tuple[str, str | None]] = {}
    for sub in ast.walk(node) if nodes is None else nodes:
        if isinstance(sub, (ast.Import, ast.ImportFrom)):
            found.update(_import_bindings(sub, package))
    return found


def _resolve_chain(module: str, chain: list[str], local: dict) -> _Target | None:
    if chain[0] in local:
        target, attr = local[chain[0]]
        current = ("mod", target, None) if attr is None else _resolve(target, attr)
    else:
        current = _resolve(module, chain[0])
    for attr in chain[1:]:
        if current is None or current[0] != "mod":
            break
        # an attribute the module does not define (set at run time): the whole module
        current = _resolve(current[1], attr) or current
    return current


def _is_special(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


def _class_parts(node: ast.ClassDef) -> tuple[ast.ClassDef, dict[str, ast.AST]]:
    """A class without its methods (its shell: bases, decorators, class attributes) and
    its methods by name."""
    methods = {
        n.name: n for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
    }
    shell = ast.ClassDef(
        name=node.name,
        bases=node.bases,
        keywords=node.keywords,
        body=[n for n in node.body if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))],
        decorator_list=node.decorator_list,
        type_params=[],
    )
    return shell, methods


def definitions(specs: Iterable[str]) -> dict[tuple[str, str], str]:
    """The definitions reachable from ``specs`` as ``{(module, name): normalized text}``.

    A spec is ``"module:name"`` (a top-level definition) or ``"module"`` (every definition
    of the module). Classes are entered as ``name`` with their reachable methods as
    ``name.method``; a module's import-time statements as ``<module>``.
    """
    found: dict[tuple[str, str], str] = {}
    attrs: set[str] = set(PROTOCOL)
    classes: dict[tuple[str, str], dict[str, ast.AST]] = {}
    todo: list[tuple[str, ast.AST]] = []
    seen_modules: set[str] = set()

    def scan(module: str, node: ast.AST) -> None:
        todo.append((module, node))

    def add_def(module: str, name: str) -> None:
        if module in MACHINERY or (module, name) in found:
            return
        info = _module(module)
        if info is None or name not in info.defs:
            return
        node = info.defs[name]
        add_module_extras(module)
        if isinstance(node, ast.ClassDef):
            shell, methods = _memo("parts", module, node, _class_parts)
            found[(module, name)] = _memo("text", module, shell, normalized)
            classes[(module, name)] = dict(methods)
            scan(module, shell)
        else:
            found[(module, name)] = _memo("text", module, node, normalized)
            scan(module, node)

    def add_module(module: str) -> None:
        if module in MACHINERY:
            return
        info = _module(module)
        if info is None:
            return
        for name in info.defs:
            add_def(module, name)
        add_module_extras(module)

    def add_module_extras(module: str) -> None:
        if module in seen_modules:
            return
        seen_modules.add(module)
        info = _module(module)
        if info is not None and info.extras:
            text = "".join(_memo("extra", module, n, _statement_text) for n in info.extras)
            if text:
                found[(module, "<module>")] = text
            for node in info.extras:
                scan(module, node)

    def add_target(target: _Target | None) -> None:
        if target is None:
            return
        kind, module, name = target
        if kind == "def":
            add_def(module, name)
        else:
            add_module(module)

    for spec in specs:
        module, _, name = spec.partition(":")
        if name:
            add_def(module, name.split(".")[0])
        else:
            add_module(module)

    while todo:
        while todo:
            module, node = todo.pop()
            names, targets = _memo("refs", module, node, functools.partial(_refs, module))
            attrs |= names
            for target in targets:
                add_target(target)
        # methods the closure can now call
        for (module, cls), methods in classes.items():
            for method in list(methods):
                if _is_special(method) or method in attrs:
                    node = methods.pop(method)
                    text = _memo("text", module, node, normalized)
                    found[(module, f"{cls}.{method}")] = text
                    scan(module, node)
    return found


def _refs(module: str, node: ast.AST) -> tuple[frozenset[str], tuple[_Target, ...]]:
    """What ``node`` (code of ``module``) uses: the attribute names it may call as methods
    and the definitions and modules its names resolve to."""
    nodes = list(ast.walk(node))  # one walk for the three readings
    local = _local_bindings(node, module, nodes)
    targets = {
        _resolve_chain(module, chain, local)
        for chain in _chains(node, nodes)
        if chain[0] in local or _ours_name(module, chain[0])
    }
    return frozenset(_attribute_names(node, nodes)), tuple(t for t in targets if t is not None)


# Parsed sources by their text: a module whose text is unchanged keeps its tree, and so
# what _memo() derived from it, across clear_caches().
_TREES: dict[str, ast.Module] = {}


def _parsed(text: str) -> ast.Module:
    tree = _TREES.get(text)
    if tree is None:
        tree = _TREES[text] = ast.parse(text)
    return tree


# What definitions() derives from one parsed node, kept with the node (so that its id
# stays its own): its text and a class's parts depend on the node alone and are kept;
# what its names resolve to ("refs") depends on other modules and is forgotten by
# clear_caches().
_MEMO: dict[tuple[str, str, int], tuple[ast.AST, object]] = {}


def _memo(kind: str, module: str, node: ast.AST, compute):
    key = (kind, module, id(node))
    hit = _MEMO.get(key)
    if hit is None or hit[0] is not node:
        hit = _MEMO[key] = (node, compute(node))
    return hit[1]


def _statement_text(node: ast.AST) -> str:
    return normalized(ast.Module(body=[node], type_ignores=[]))


def _ours_name(module: str, name: str) -> bool:
    info = _module(module)
    return info is not None and (
        name in info.defs or name in info.bindings or _module_file(f"{module}.{name}") is not None
    )


def key_of_specs(specs: Iterable[str]) -> str:
    """A 10-character hash of the definitions reachable from ``specs``
    (:func:`definitions`), independent of the modules that hold them; ``"external"`` when
    there are none."""
    return _key(tuple(sorted(set(specs))))


@functools.cache
def _key(specs: tuple[str, ...]) -> str:
    if not specs:
        return "external"
    found = definitions(specs)
    if not found:
        return "external"
    digest = hashlib.sha256()
    _feed(digest, found)
    return digest.hexdigest()[:10]


def _feed(digest, found: dict[tuple[str, str], str]) -> None:
    """Add the definitions ``found`` (:func:`definitions`) to ``digest``: each one's own
    name and tree, not its module, so a moved definition keeps its key."""
    for name, text in sorted((name, text) for (_, name), text in found.items()):
        digest.update(name.encode() + b"\0" + text.encode() + b"\0")


def code_specs(*objs) -> list[str]:
    """The specs (``"module:name"`` or ``"module"``) of rulelab and repro code behind
    ``objs``: estimators (with the estimators among their parameters), classes, functions,
    module names, or lists and tuples of them."""
    out: set[str] = set()
    todo = list(objs)
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            if _ours(item):
                out.add(item)
            continue
        if isinstance(item, (list, tuple)):
            todo.extend(v for v in item if not isinstance(v, (int, float, bool)))
            continue
        if isinstance(item, type) or callable(item) and hasattr(item, "__qualname__"):
            module = getattr(item, "__module__", "") or ""
            if _ours(module):
                out.add(f"{module}:{item.__qualname__.split('.')[0]}")
            continue
        module = type(item).__module__
        if _ours(module):
            out.add(f"{module}:{type(item).__qualname__.split('.')[0]}")
        if hasattr(item, "get_params"):
            todo.extend(
                v
                for v in item.get_params(deep=False).values()
                if hasattr(v, "get_params") or isinstance(v, (list, tuple))
            )
    return sorted(out)


def source_key(*objs) -> str:
    """A short hash of what the rulelab and repro code behind ``objs`` does
    (:func:`code_specs`, :func:`key_of_specs`); ``"external"`` when none is ours."""
    return key_of_specs(code_specs(*objs))


def clear_caches() -> None:
    """Forget what was read from the source files and the keys computed (after they
    changed, or ``_module_file`` was replaced); trees are kept by their text."""
    for key in [key for key in _MEMO if key[0] == "refs"]:
        del _MEMO[key]
    _find_file.cache_clear()
    _module.cache_clear()
    _key.cache_clear()
