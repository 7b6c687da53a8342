"""The papers' own numbers as data, so every table can put "paper" beside "ours".

Each table is a CSV in ``repro/paper_numbers/`` transcribed from the paper text (see the
file's header comment for the table and any value lost in extraction). A value that was
lost is an empty cell and reads as NaN: never fill it in.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

_DIR = Path(__file__).resolve().parents[1] / "paper_numbers"

LOST = "not recoverable from the text"


def paper_tables() -> list[str]:
    """Names of the transcribed tables (file stems), e.g. ``"paper1_table1_error"``."""
    return sorted(p.stem for p in _DIR.glob("*.csv"))


def paper_table(name: str) -> pd.DataFrame:
    """One transcribed table as a DataFrame (lost values are NaN).

    Lines starting with ``#`` in the CSV are comments (source, caveats).
    """
    path = _DIR / f"{name}.csv"
    if not path.is_file():
        raise ValueError(f"no paper table {name!r}; known tables: {', '.join(paper_tables())}")
    return pd.read_csv(path, comment="#")


def beside(
    ours: pd.DataFrame, paper: pd.DataFrame, on: list[str], value: str, suffixes=("ours", "paper")
) -> pd.DataFrame:
    """Join our results and the paper's on ``on`` with the two ``value`` columns side by side.

    Cells the paper lacks show the text :data:`LOST` rather than a number.
    """
    merged = ours.merge(paper, on=on, how="left", suffixes=(f"_{suffixes[0]}", f"_{suffixes[1]}"))
    col = f"{value}_{suffixes[1]}"
    if col in merged:
        merged[col] = merged[col].astype(object).where(merged[col].notna(), LOST)
    return merged
