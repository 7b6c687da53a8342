"""One figure style for every notebook; ``savefig`` writes PNG + PDF into ``figures/``.

Method colours are matplotlib's ``"CN"`` colours (the N-th colour of the style's cycle):
with the house style they are the default palette, and a style with another cycle (e.g.
``seaborn-v0_8-colorblind``, see :mod:`repro.core.figures`) recolours every figure at once."""

from __future__ import annotations

import os
from pathlib import Path

import matplotlib

from repro.core.outputs import replacing
from repro.core.paths import ROOT, output_dir

STYLE = {
    "figure.figsize": (6.4, 4.2),
    "figure.dpi": 110,
    "savefig.dpi": 150,
    "savefig.bbox": "tight",
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "font.size": 10,
    "legend.frameon": False,
}
# Colours per method, so a method looks the same in every figure.
COLORS = {
    "1Rule": "C0",
    "OneRule": "C0",
    "RuSC": "C1",
    "RuB": "C2",
    "BCD": "C3",
    "AM": "C4",
    "CART": "C5",
    "RIPPER": "C6",
    "C5.0": "C8",
    "paper": "C7",
    "ours": "C0",
}


def use_style(style: str | Path | dict | None = None) -> None:
    """Apply the rulelab style: matplotlib's figure style, and pandas tables that show every
    cell whole (a claim and its evidence are sentences; pandas would cut them at 50
    characters).

    ``style`` (a matplotlib style name, a style/rc file or a dict of rc settings) is applied
    on top, so a report's fonts or palette change every figure at once.
    """
    import pandas as pd
    from matplotlib import style as mpl_style

    matplotlib.rcParams.update(STYLE)
    if style is not None:
        mpl_style.use(style)
    pd.set_option("display.max_colwidth", None)


def figures_dir() -> Path:
    """``RULELAB_FIGURES`` if set, else ``figures/`` of the run's output root (the project
    root in a FULL run, ``runs/quick`` in a QUICK one; see :mod:`repro.core.paths`)."""
    env = os.environ.get("RULELAB_FIGURES")
    if env:
        return Path(env)
    return output_dir("figures")


def savefig(fig, name: str, out: Path | None = None) -> str:
    """Save ``fig`` as ``figures/NAME.png`` and ``.pdf`` (or into ``out``); return the PNG's
    path, relative to the project when it lies inside it (a notebook's output never shows a
    machine path)."""
    out = Path(out) if out is not None else figures_dir()
    out.mkdir(parents=True, exist_ok=True)
    png = out / f"{name}.png"
    # Both drawn before either is replaced: a run stopped while drawing leaves the pair as
    # it was. Fixed metadata so that regenerating an unchanged figure leaves the PDF unchanged.
    with replacing(png) as png_tmp, replacing(out / f"{name}.pdf") as pdf_tmp:
        fig.savefig(png_tmp)
        fig.savefig(pdf_tmp, metadata={"CreationDate": None, "ModDate": None})
    try:
        return png.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(png)


def plot_rule_region(
    rule, X, y, x: str, y_col: str, ax=None, labels=("other", "positive"), resolution: int = 400
):
    """Scatter two features with the region where ``rule`` fires shaded (paper 1, Fig. 1).

    The rule may only read ``x`` and ``y_col``: a region in two dimensions cannot show a
    test on a third feature, so other features raise a ValueError naming them.
    """
    import matplotlib.pyplot as plt
    import numpy as np
    import pandas as pd

    used = rule.features() if hasattr(rule, "features") else {t.feature for t in rule.terms}
    other = used - {x, y_col}
    if other:
        raise ValueError(
            f"the rule also reads {sorted(other)}; plot a rule over {x!r} and {y_col!r} only"
        )
    ax = ax or plt.subplots()[1]
    pad_x = 0.05 * (X[x].max() - X[x].min())
    pad_y = 0.05 * (X[y_col].max() - X[y_col].min())
    gx = np.linspace(X[x].min() - pad_x, X[x].max() + pad_x, resolution)
    gy = np.linspace(X[y_col].min() - pad_y, X[y_col].max() + pad_y, resolution)
    mx, my = np.meshgrid(gx, gy)
    grid = pd.DataFrame({x: mx.ravel(), y_col: my.ravel()})
    inside = rule.evaluate(grid).reshape(mx.shape)
    ax.contourf(mx, my, inside.astype(float), levels=[0.5, 1.5], colors=["C3"], alpha=0.12)
    ax.contour(mx, my, inside.astype(float), levels=[0.5], colors=["C3"], linewidths=1)
    y = np.asarray(y).astype(bool)
    ax.scatter(X.loc[~y, x], X.loc[~y, y_col], marker="x", c="black", s=18, label=labels[0])
    ax.scatter(X.loc[y, x], X.loc[y, y_col], marker="+", c="#c51b8a", s=40, label=labels[1])
    ax.set_xlabel(x)
    ax.set_ylabel(y_col)
    ax.legend(loc="upper left")
    return ax
