"""A run's own parameters decide where it writes its tables, figures and claims.

A notebook's second cell calls :func:`start_run` with its name and its namespace. The
values of its parameters there -- whatever set them: the parameters cell as committed,
the cell edited in JupyterLab, papermill's injected cell, the pipeline -- are compared with
the notebook's defaults (``PARAMETERS`` of its paper's package, e.g.
:mod:`repro.grab.parameters`, kept apart from the cell so that an edited cell cannot pass
for the defaults):

- a FULL run with the defaults writes the committed ``results/`` and ``figures/`` at the
  project root (what ``make reproduce`` runs);
- any other run writes under ``runs/<its non-default parameters>/``: ``runs/quick`` for a
  QUICK run (the test suite), ``runs/DATASETS-sonar_MAX_FOLDS-1`` for a FULL run on one
  fold of sonar, ``runs/quick_DATASETS-sonar`` for both;
- a FULL run with other parameters refreshes the committed outputs only when it says so,
  with the parameter ``INTO_COMMITTED = True`` (a reproduction finished in parts).

``N_JOBS`` changes how fast a run goes, not what it finds, so it names no folder.
``RULELAB_OUTPUT`` points every run somewhere else; ``RULELAB_QUICK=1`` (the test command)
turns QUICK on whatever the parameter says.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from repro.core import paths
from repro.core.parameters import Parameter, coerce

__all__ = [
    "Run",
    "declared",
    "notebooks",
    "package_of",
    "plan_run",
    "read_parameters",
    "run_folder",
    "start_run",
]

# Parameters that change how a run goes, not what it computes: they name no folder.
NOT_IN_FOLDER = ("QUICK", "INTO_COMMITTED", "N_JOBS")


def _render(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return "+".join(_render(v) for v in value) or "empty"
    if isinstance(value, dict):
        return "+".join(f"{k}={_render(v)}" for k, v in value.items()) or "empty"
    return str(value)


def run_folder(changed: dict, quick: bool) -> Path:
    """``runs/<name>`` of a run with these non-default parameters: ``quick`` first for a
    QUICK run, then ``NAME-value`` per parameter, e.g. ``runs/DATASETS-sonar_MAX_FOLDS-1``.
    A name longer than 80 characters is cut and ends in a hash of the whole, so two runs
    with different parameters never share a folder."""
    parts = (["quick"] if quick else []) + [f"{k}-{_render(v)}" for k, v in changed.items()]
    text = "_".join(parts)
    slug = re.sub(r"[^A-Za-z0-9.=+_-]+", "-", text).strip("-") or "default"
    if len(slug) > 80:
        slug = slug[:71].rstrip("-_") + "-" + hashlib.sha1(text.encode()).hexdigest()[:8]
    return paths.ROOT / "runs" / slug


@dataclass(frozen=True)
class Run:
    """Where one notebook run writes, and why.

    Attributes
    ----------
    notebook : str
        The notebook's name, e.g. ``"02_rule_sets"``.
    quick : bool
        QUICK settings (the parameter, or ``RULELAB_QUICK=1``).
    changed : dict
        The parameters whose values differ from the notebook's defaults (without QUICK,
        INTO_COMMITTED and N_JOBS), in the order of the parameters cell.
    committed : bool
        True when the run writes the committed ``results/`` and ``figures/``.
    root : Path
        The folder that holds the run's ``results/`` and ``figures/``.
    """

    notebook: str
    quick: bool
    changed: dict = field(default_factory=dict)
    committed: bool = False
    root: Path = paths.ROOT

    def describe(self) -> str:
        """One line saying where the run writes and why."""
        env = os.environ.get("RULELAB_OUTPUT")
        mode = "QUICK" if self.quick else "FULL"
        given = ", ".join(f"{k}={v!r}" for k, v in self.changed.items())
        kind = (
            f"{mode} run with other parameters ({given})"
            if given
            else f"{mode} run with the default parameters"
        )
        if env:
            return f"{kind}: tables, figures and claims go to {env} (RULELAB_OUTPUT)"
        if self.committed:
            what = "refresh" if given else "go to"
            how = " and INTO_COMMITTED" if given else ""
            return (
                f"{kind}{how}: tables, figures and claims {what} the committed results/ "
                "and figures/"
            )
        root = paths.ROOT
        where = (
            self.root.relative_to(root).as_posix()
            if self.root.is_relative_to(root)
            else str(self.root)
        )
        line = (
            f"{kind}: tables, figures and claims go to {where}/; the committed results/ "
            "and figures/ are left alone"
        )
        if given and not self.quick:
            line += " (INTO_COMMITTED = True would refresh them)"
        return line


def plan_run(notebook: str, params: dict) -> Run:
    """Where a run of ``notebook`` with ``params`` writes (nothing is changed).

    ``params`` hold the run's parameter values; a parameter not given has its default.
    Values are read as :func:`repro.core.parameters.coerce` reads them, and QUICK is on when
    ``RULELAB_QUICK=1``. Raises ValueError for an unknown notebook, a value that does not
    fit its parameter, or INTO_COMMITTED in a QUICK run.
    """
    values = read_parameters(notebook, params)
    spec = _spec(notebook)
    quick = bool(values.get("QUICK")) or paths.quick_mode()
    changed = {
        name: value
        for name, value in values.items()
        if name not in NOT_IN_FOLDER and value != _default(name, spec[name])
    }
    into = bool(values.get("INTO_COMMITTED"))
    if into and quick:
        raise ValueError(
            "INTO_COMMITTED refreshes the committed FULL outputs; a QUICK run "
            "(QUICK = True or RULELAB_QUICK=1) cannot: set INTO_COMMITTED = False"
        )
    committed = not quick and (not changed or into)
    root = paths.ROOT if committed else run_folder(changed, quick)
    return Run(notebook=notebook, quick=quick, changed=changed, committed=committed, root=root)


def notebooks() -> list[str]:
    """The notebooks of the suite, by name (``00_tour`` ...), in reading order."""
    return sorted(p.stem for p in (paths.ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def package_of(notebook: str) -> str:
    """The package of ``notebook``'s paper: named after the notebook (``05_grab`` ->
    ``repro.grab``)."""
    return f"repro.{notebook[3:]}"


@functools.cache
def declared(notebook: str) -> dict[str, Parameter]:
    """``notebook``'s parameters as its paper's package declares them: the package is named
    after the notebook (``05_grab`` -> :mod:`repro.grab.parameters`)."""
    if notebook not in notebooks():
        raise ValueError(
            f"unknown notebook {notebook!r}; the notebooks are: {', '.join(notebooks())}"
        )
    return importlib.import_module(f"{package_of(notebook)}.parameters").PARAMETERS


def _spec(notebook: str) -> dict:
    return {name: (p.annotation, p.default) for name, p in declared(notebook).items()}


def _default(name: str, entry: tuple[str, Any]) -> Any:
    annotation, default = entry
    return coerce(name, default, annotation)


def read_parameters(notebook: str, params: dict) -> dict:
    """``params`` read against ``notebook``'s parameter types (a single name where a list is
    expected is a list of one; see :mod:`repro.core.parameters`), with the defaults filled in
    for parameters not given; names the notebook does not declare are left out."""
    return {
        name: coerce(name, params.get(name, default), annotation)
        for name, (annotation, default) in _spec(notebook).items()
    }


def start_run(notebook: str, namespace: dict) -> Run:
    """Decide where this notebook run writes, from its parameters; print it; return it.

    A notebook calls this right after its parameters cell, with its name and ``globals()``:
    ``RUN = start_run("02_rule_sets", globals())``. The parameters in ``namespace`` are
    read as papermill users write them and put back (``DATASETS = "sonar"`` becomes
    ``["sonar"]``; ``QUICK`` becomes True under ``RULELAB_QUICK=1``), so the rest of the
    notebook sees checked values. A FULL run with the defaults writes the committed
    outputs; any other run writes under ``runs/<its parameters>/`` (see the module
    docstring). The printed line is the notebook's first output.
    """
    spec = _spec(notebook)
    missing = [name for name in spec if name not in namespace]
    if missing:
        raise ValueError(
            f"{notebook}'s parameters cell does not set {', '.join(missing)}: "
            "restore them (any value) so that the run can say where it writes"
        )
    values = read_parameters(notebook, {name: namespace[name] for name in spec})
    run = plan_run(notebook, values)
    values["QUICK"] = run.quick
    # a parameter left at its default takes the value its package declares for QUICK or FULL
    values = {
        name: parameter.resolve(name, values[name], run.quick)
        for name, parameter in declared(notebook).items()
    }
    namespace.update(values)
    paths.use_output_root(run.root)
    print(run.describe(), flush=True)
    return run
