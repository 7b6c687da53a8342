"""Whether a notebook's committed outputs still come from the current code, by meaning.

A notebook's tables, figures and claims are a function of its own code cells and of the
rulelab and repro code those cells can reach. The fingerprint hashes exactly that, in the
terms of :mod:`repro.core.codekey`, so that only a change in what the code does stales a
notebook:

- each code cell as its syntax tree without comments, docstrings, formatting or import
  statements (outputs, markdown and papermill's injected parameters left out);
- the paper's data the notebooks read beside the code (``repro/paper_numbers``: the
  papers' numbers and the quotes of the claims), byte for byte;
- the definitions reachable from every name the cells use. All code cells count as one
  module: their import statements bind names, and each name or attribute chain is resolved
  as codekey resolves a module's, so ``figures.grab_fig2_time(...)`` reaches that function
  (and what it calls) and not the other notebooks' figures in :mod:`repro.core.figures`.

The pipeline records the fingerprint of every notebook it runs; ``python -m repro.pipeline
--check`` compares the recorded fingerprints with the current code (:func:`stale_notebooks`).
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
from pathlib import Path

from repro.core import codekey

__all__ = ["notebook_fingerprint", "notebook_modules", "notebook_specs", "stale_notebooks"]

# data files beside the code that claims and tables read (papers' numbers, quotes)
_PAPER_DATA = Path(__file__).resolve().parents[1] / "paper_numbers"

# A cell whose tree holds nothing once imports and docstrings are dropped: it adds nothing.
_EMPTY = codekey.normalized(ast.parse(""))


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


def _parse(source: str) -> ast.Module | None:
    """A cell's syntax tree; IPython's ``%`` magics and ``!`` shell lines, which are not
    Python, left out. None when the cell still does not parse."""
    try:
        return ast.parse(source)
    except SyntaxError:
        pass
    python = "\n".join(
        line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))
    )
    try:
        return ast.parse(python)
    except SyntaxError:
        return None


def _statements(source: str) -> list[ast.AST]:
    """The lines of an unparseable cell that parse on their own: its imports and calls
    still say which code it uses."""
    found = []
    for line in source.splitlines():
        try:
            found.append(ast.parse(line.strip()))
        except SyntaxError:
            continue
    return found


def _cells(path: Path) -> list[tuple[str, ast.Module | None]]:
    """Each code cell's source and syntax tree (None where it does not parse)."""
    return [(source, _parse(source)) for source in _code_cells(path)]


def _specs(cells: list[tuple[str, ast.Module | None]]) -> list[str]:
    nodes: list[ast.AST] = []
    for source, tree in cells:
        nodes.extend([tree] if tree is not None else _statements(source))
    bindings: dict[str, tuple[str, str | None]] = {}
    specs: set[str] = set()
    for node in nodes:
        for sub in ast.walk(node):
            if isinstance(sub, (ast.Import, ast.ImportFrom)):
                bindings.update(codekey._import_bindings(sub, ""))
            if isinstance(sub, ast.ImportFrom) and any(a.name == "*" for a in sub.names):
                if not sub.level and codekey._ours(sub.module or ""):
                    specs.add(sub.module)  # every name of the module may be used
    for node in nodes:
        for chain in codekey._chains(node):
            if chain[0] not in bindings:
                continue  # another library's name, or one the cells define themselves
            target = codekey._resolve_chain("", chain, bindings)
            if target is not None:
                kind, module, name = target
                specs.add(f"{module}:{name}" if kind == "def" else module)
    return sorted(s for s in specs if s.partition(":")[0] not in codekey.MACHINERY)


def notebook_specs(path: Path) -> list[str]:
    """The rulelab and repro code the notebook's cells name.

    All code cells are read as one module whose import statements (wherever they stand)
    bind names; every name and attribute chain the cells use is then resolved to the
    definition or module it means, so that a notebook depends on the functions it calls
    and not on the rest of their modules.

    Parameters
    ----------
    path : Path
        The notebook (``.ipynb``).

    Returns
    -------
    list of str
        Sorted specs, ``"module:name"`` or ``"module"`` (a module used as a whole), as
        :func:`repro.core.codekey.definitions` takes them; modules that compute nothing
        (:data:`repro.core.codekey.MACHINERY`) left out.
    """
    return _specs(_cells(path))


def notebook_modules(path: Path) -> frozenset[str]:
    """The rulelab and repro modules holding a definition the notebook's cells reach
    (:func:`notebook_specs` and all they call): where to look when the notebook is stale."""
    return frozenset(module for module, _ in codekey.definitions(notebook_specs(path)))


def _texts(cells: list[tuple[str, ast.Module | None]]) -> list[str]:
    """Each code cell by meaning (:func:`repro.core.codekey.normalized`), in order; a cell that
    does not parse as its raw text. Cells left empty (imports only) are dropped, so that
    imports moved between cells change nothing."""
    texts = []
    for source, tree in cells:
        text = codekey.normalized(tree) if tree is not None else source
        if text != _EMPTY:
            texts.append(text)
    return texts


def notebook_fingerprint(path: Path) -> str:
    """A hash of what the notebook's code does.

    Returns
    -------
    str
        10 hex characters over the code cells by meaning (in order) and the definitions
        they reach, the latter hashed as :func:`repro.core.codekey.key_of_specs` hashes them:
        by name and tree, whatever module holds them, so a moved function changes nothing.
        The parameters its package declares (the values QUICK and FULL runs use, see
        :func:`repro.core.runs.declared`) count as code the notebook reaches.
    """
    cells = _cells(path)
    digest = hashlib.sha256()
    for text in _texts(cells):
        digest.update(b"cell\0" + text.encode() + b"\0")
    for data in sorted(_PAPER_DATA.glob("*.csv")):
        digest.update(b"data\0" + data.name.encode() + b"\0" + data.read_bytes())
    codekey._feed(digest, codekey.definitions(_specs(cells) + _parameters(Path(path))))
    return digest.hexdigest()[:10]


def _parameters(path: Path) -> list[str]:
    """The declaration of the notebook's parameters, when its package has one."""
    from repro.core.runs import package_of

    module = f"{package_of(path.stem)}.parameters"
    try:
        found = importlib.util.find_spec(module) is not None
    except ImportError:  # no package of that name
        found = False
    return [f"{module}:PARAMETERS"] if found else []


def _recorded(run_log: Path) -> dict[str, str]:
    """``{notebook: fingerprint}`` from the run log; empty when there is none yet."""
    if not run_log.is_file():
        return {}
    damaged = f"the run log {run_log} is damaged"
    try:
        log = json.loads(run_log.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise ValueError(
            f"{damaged}: it is not valid JSON ({err}); restore it (git checkout -- "
            f"{run_log}) or rerun the notebooks"
        ) from err
    entries = log.get("notebooks", []) if isinstance(log, dict) else None
    if not isinstance(entries, list) or not all(
        isinstance(e, dict) and isinstance(e.get("notebook"), str) for e in entries
    ):
        raise ValueError(f"{damaged}: its 'notebooks' is not a list of notebook entries")
    return {e["notebook"]: e.get("fingerprint") or "" for e in entries}


def stale_notebooks(notebooks: list[Path], run_log: Path) -> list[dict]:
    """Which notebooks' committed outputs were made by other code than the current.

    Parameters
    ----------
    notebooks : list of Path
        The notebooks to check.
    run_log : Path
        The run log (``results/run_log.json``) holding each run's fingerprint. A missing
        log records nothing: every notebook is ``"(none)"`` and stale.

    Returns
    -------
    list of dict
        One row per notebook: ``notebook`` (its stem), ``recorded`` (the fingerprint of
        the run that made its outputs, ``"(none)"`` if none was recorded), ``current``
        and ``stale`` (the two differ).

    Raises
    ------
    ValueError
        Naming ``run_log`` when it is damaged (not JSON, or not a run log), rather than
        calling every notebook stale or current on a guess.
    """
    recorded = _recorded(Path(run_log))
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
