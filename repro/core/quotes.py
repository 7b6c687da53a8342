"""Each tested claim beside the paper's own sentence, or marked as ours.

A verdict is only citable when a reader can see what the paper said, where, and how we
read it as a test. :data:`QUOTES_FILE` holds one row per claim the notebooks test:

- ``origin``: ``paper`` (the paper makes this claim about the data it used), ``extension``
  (a paper's claim carried to data or a setting the paper did not use) or ``ours`` (a
  project target or a check the paper does not state). Only ``paper`` claims count among
  the papers' verdicts; REPORT.md counts the others apart.
- ``paper``, ``place``, ``line``: the paper (1-5, the file's number in the papers'
  folder), its section, table or figure, and the line of the paper's text file that holds
  the quote.
- ``quote``: the paper's words, verbatim (pieces of one line joined by `` ... ``).
- ``reading``: the statistic, the tolerance and whose it is; ``note``: what a referee
  should know (where our wording says more or less than the paper's).

A claim whose wording depends on a run's parameters (a size, a data set) is matched by
the regular expression in ``pattern``. A claim with no row is recorded with origin
:data:`UNQUOTED`, which REPORT.md shows and the tests refuse for every committed claim.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pandas as pd

__all__ = [
    "ORIGINS",
    "QUOTE_COLUMNS",
    "QUOTES_FILE",
    "UNQUOTED",
    "quote_pieces",
    "quotes",
    "with_quotes",
]

QUOTES_FILE = Path(__file__).resolve().parents[1] / "paper_numbers" / "claim_quotes.csv"

ORIGINS = ("paper", "extension", "ours")
UNQUOTED = "unquoted"

# the columns a claim record carries beside notebook, claim, verdict and evidence
QUOTE_COLUMNS = ["origin", "paper", "place", "line", "quote", "reading", "note"]


@cache
def _table(path: Path) -> pd.DataFrame:
    table = pd.read_csv(path, comment="#", dtype=str, keep_default_na=False)
    missing = {"notebook", "claim", "pattern", *QUOTE_COLUMNS} - set(table.columns)
    if missing:
        raise ValueError(f"{path.name} lacks the columns {sorted(missing)}")
    bad = set(table["origin"]) - set(ORIGINS)
    if bad:
        raise ValueError(f"{path.name}: origin must be one of {ORIGINS}, got {sorted(bad)}")
    return table


def quotes(path: Path | None = None) -> pd.DataFrame:
    """The registry of quotes (all columns as text; an empty cell is ``""``)."""
    return _table(path or QUOTES_FILE).copy()


def quote_pieces(quote: str) -> list[str]:
    """The verbatim pieces of a quote (a quote may skip text with `` ... ``)."""
    return [piece for piece in quote.split(" ... ") if piece]


def _row_for(table: pd.DataFrame, notebook: str, claim: str) -> dict | None:
    mine = table[table["notebook"] == notebook]
    exact = mine[(mine["pattern"] == "") & (mine["claim"] == claim)]
    if len(exact):
        return exact.iloc[0].to_dict()
    for _, row in mine[mine["pattern"] != ""].iterrows():
        if re.fullmatch(row["pattern"], claim):
            return row.to_dict()
    return None


def with_quotes(claims: pd.DataFrame, path: Path | None = None) -> pd.DataFrame:
    """``claims`` (with ``notebook`` and ``claim`` columns) with :data:`QUOTE_COLUMNS` from
    the registry; a claim the registry lacks gets origin :data:`UNQUOTED`.

    Columns the frame already has are replaced, so the registry's current text wins over
    what an older run recorded.
    """
    table = _table(path or QUOTES_FILE)
    rows = []
    for notebook, claim in zip(claims["notebook"], claims["claim"], strict=True):
        row = _row_for(table, notebook, claim)
        if row is None:
            rows.append({c: "" for c in QUOTE_COLUMNS} | {"origin": UNQUOTED})
        else:
            rows.append({c: row[c] for c in QUOTE_COLUMNS})
    quoted = pd.DataFrame(rows, columns=QUOTE_COLUMNS, index=claims.index)
    return pd.concat([claims.drop(columns=QUOTE_COLUMNS, errors="ignore"), quoted], axis=1)
