"""One figure style for every notebook; ``savefig`` writes PNG + PDF into ``figures/``."""

from __future__ import annotations

import os
from pathlib import Path

import matplotlib

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
    "1Rule": "#1f77b4", "OneRule": "#1f77b4", "RuSC": "#ff7f0e", "RuB": "#2ca02c",
    "BCD": "#d62728", "AM": "#9467bd", "CART": "#8c564b", "RIPPER": "#e377c2",
    "paper": "#7f7f7f", "ours": "#1f77b4",
}


def use_style() -> None:
    """Apply the rulelab figure style to matplotlib."""
    matplotlib.rcParams.update(STYLE)


def figures_dir() -> Path:
    """``RULELAB_FIGURES`` if set, else ``figures/`` at the project root."""
    env = os.environ.get("RULELAB_FIGURES")
    if env:
        return Path(env)
    return Path(__file__).resolve().parent.parent / "figures"


def savefig(fig, name: str) -> Path:
    """Save ``fig`` as ``figures/NAME.png`` and ``.pdf``; return the PNG path."""
    out = figures_dir()
    out.mkdir(parents=True, exist_ok=True)
    png = out / f"{name}.png"
    fig.savefig(png)
    # Fixed metadata so that regenerating an unchanged figure leaves the PDF unchanged.
    fig.savefig(out / f"{name}.pdf", metadata={"CreationDate": None, "ModDate": None})
    return png
