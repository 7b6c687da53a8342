"""Every committed figure as a function of result tables, and the command that redraws them.

Each figure is one function that takes the tables a notebook writes to ``results/`` (read
back from CSV, or the same frames in the notebook's own run) and returns a matplotlib
Figure; it fits nothing and needs no data set. :data:`FIGURES` maps each figure's name (its
file name in ``figures/``) to the function, the files it is drawn from and the notebook
that writes them, so that the notebooks and this command draw the same figure::

    python -m repro.core.figures                              # every figure, REPORT.md, README table
    python -m repro.core.figures --style seaborn-v0_8-colorblind
    python -m repro.core.figures --only grab_fig2_time --style paper.mplstyle --out /tmp/figs

``--style`` takes a matplotlib style name or a style/rc file and is applied on top of the
house style to every figure at once. ``--results`` reads another run's tables (e.g. a run
with other parameters under ``runs/``). Writing into the committed ``figures/`` also
refreshes REPORT.md (claims, run log, gallery) and the README's results table from
``results/``.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import importlib.util
import pkgutil
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from repro.core import plotting
from repro.core.paths import ROOT

__all__ = [
    "FIGURES",
    "FigureSpec",
    "draw",
    "main",
    "missing_sources",
    "one_setting",
    "pyplot",
    "redraw",
    "spec",
]


def one_setting(table: pd.DataFrame, column: str):
    """The single value of a setting recorded as a constant column of a result table."""
    if column not in table:
        raise ValueError(
            f"the table has no column {column!r}: rerun the notebook that writes "
            "it (its FULL run records the setting the figure needs)"
        )
    values = pd.unique(table[column].dropna())
    if len(values) != 1:
        raise ValueError(f"column {column!r} should hold one setting, found {list(values)}")
    return values[0]


def pyplot():
    import matplotlib.pyplot as plt

    return plt


# ---- the registry --------------------------------------------------------------------------
@dataclass(frozen=True)
class FigureSpec:
    """How one figure is drawn: ``draw(*tables)`` with one table per entry of ``sources``
    (paths relative to the project: ``results/...`` or the paper's numbers), written by
    ``notebook``."""

    draw: Callable
    sources: tuple[str, ...]
    notebook: str


def spec(draw, notebook, *sources) -> FigureSpec:
    """A figure drawn by ``draw`` from ``sources`` (bare names are files in ``results/``)."""
    return FigureSpec(draw, tuple(s if "/" in s else f"results/{s}" for s in sources), notebook)


class _Registry(Mapping):
    """Every figure of every paper's package: the ``FIGURES`` of each ``repro.<paper>.figures``
    module, found by looking, so that this machinery names no paper."""

    @functools.cached_property
    def _figures(self) -> dict[str, FigureSpec]:
        import repro

        found: dict[str, FigureSpec] = {}
        for module in sorted(pkgutil.iter_modules(repro.__path__), key=lambda m: m.name):
            name = f"repro.{module.name}.figures"
            if module.ispkg and name != __name__ and importlib.util.find_spec(name):
                found.update(importlib.import_module(name).FIGURES)
        # in the notebooks' order, as the report's gallery shows them
        return dict(sorted(found.items(), key=lambda item: item[1].notebook))

    def __getitem__(self, name: str) -> FigureSpec:
        return self._figures[name]

    def __iter__(self):
        return iter(self._figures)

    def __len__(self) -> int:
        return len(self._figures)


#: Figure name (its file name in ``figures/``) -> how it is drawn.
FIGURES: Mapping[str, FigureSpec] = _Registry()


def _source_path(source: str, results: Path | None) -> Path:
    """Where a source lives: ``results/`` files in ``results`` (default: this run's results
    folder, see :func:`repro.core.report.results_dir`), anything else under the project."""
    if source.startswith("results/"):
        from repro.core.report import results_dir

        return (results or results_dir()) / source.removeprefix("results/")
    return ROOT / source


def missing_sources(name: str, results: Path | None = None) -> list[str]:
    """The sources of figure ``name`` that do not exist (empty when it can be drawn)."""
    return [s for s in _spec_of(name).sources if not _source_path(s, results).is_file()]


def _spec_of(name: str) -> FigureSpec:
    if name not in FIGURES:
        raise ValueError(f"no figure {name!r}; the figures are: {', '.join(FIGURES)}")
    return FIGURES[name]


def draw(name: str, results: Path | None = None):
    """Figure ``name`` drawn from its result files (read from ``results``, default this
    run's ``results/``); a missing file is a ValueError naming it and its notebook."""
    from repro.core.reference import paper_table

    figure = _spec_of(name)
    missing = missing_sources(name, results)
    if missing:
        raise ValueError(
            f"{name}: {', '.join(missing)} not found; a FULL run of notebook "
            f"{figure.notebook} writes it"
        )
    tables = []
    for source in figure.sources:
        path = _source_path(source, results)
        # the paper's numbers carry comment lines; paper_table reads them the one way
        tables.append(
            paper_table(path.stem)
            if source.startswith("repro/paper_numbers/")
            else pd.read_csv(path)
        )
    return figure.draw(*tables)


def redraw(
    names: Sequence[str] | None = None,
    out: Path | None = None,
    style: str | None = None,
    results: Path | None = None,
    skip_missing: bool = False,
) -> dict[str, str]:
    """Draw figures (default: all) into ``out`` (default :func:`repro.core.plotting.figures_dir`)
    as PNG and PDF, with ``style`` over the house style; returns name -> PNG path.

    With ``skip_missing`` a figure whose result files are missing is reported and left out
    instead of raising.
    """
    import matplotlib

    plt = pyplot()
    written = {}
    with matplotlib.rc_context():
        plotting.use_style(style)
        for name in names or list(FIGURES):
            if skip_missing and missing_sources(name, results):
                print(
                    f"skipped {name}: {', '.join(missing_sources(name, results))} not found "
                    f"(a FULL run of notebook {_spec_of(name).notebook} writes it)",
                    file=sys.stderr,
                )
                continue
            fig = draw(name, results)
            written[name] = plotting.savefig(fig, name, out=out)
            plt.close(fig)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m repro.core.figures",
        description="Redraw the figures from the result tables (no fitting, no data sets); "
        "into the committed figures/ this also refreshes REPORT.md and the "
        "README's results table",
    )
    parser.add_argument(
        "--style",
        help="a matplotlib style name (e.g. seaborn-v0_8-colorblind) "
        "or a style/rc file, applied over the house style",
    )
    parser.add_argument(
        "--out", type=Path, help="folder for the PNG and PDF files (default: figures/ of this run)"
    )
    parser.add_argument(
        "--results", type=Path, help="folder of the result tables (default: results/ of this run)"
    )
    parser.add_argument("--only", nargs="+", metavar="NAME", help="these figures only")
    args = parser.parse_args(argv)
    if args.only:
        unknown = [n for n in args.only if n not in FIGURES]
        if unknown:
            parser.error(
                f"unknown figure {', '.join(unknown)}; the figures are: {', '.join(FIGURES)}"
            )
        for name in args.only:  # a figure asked for by name must be drawable
            if missing_sources(name, args.results):
                parser.error(
                    f"{name}: {', '.join(missing_sources(name, args.results))} not "
                    f"found; a FULL run of notebook {FIGURES[name].notebook} writes it"
                )
    if args.style:
        try:
            _check_style(args.style)
        except ValueError as err:
            parser.error(str(err))
    start = time.perf_counter()
    written = redraw(args.only, args.out, args.style, args.results, skip_missing=True)
    where = args.out or plotting.figures_dir()
    print(
        f"{len(written)} of {len(args.only or FIGURES)} figures drawn in "
        f"{time.perf_counter() - start:.1f} s into {where}"
    )
    # REPORT.md and the README describe the committed outputs: refreshed only when this
    # command redraws them (not into another folder, nor from another run's tables)
    if args.out is None and args.results is None:
        from repro.core.pipeline import rewrite_report  # keeps their digests in the run log

        return rewrite_report()
    return 0


def _check_style(style: str) -> None:
    """A ValueError naming ``style`` when it is neither a file nor a matplotlib style."""
    import matplotlib.style

    if not Path(style).is_file() and style not in matplotlib.style.available:
        raise ValueError(
            f"--style {style!r} is neither a file nor a matplotlib style; the "
            f"styles are: {', '.join(sorted(matplotlib.style.available))}"
        )


if __name__ == "__main__":
    sys.exit(main())
