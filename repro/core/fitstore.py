"""The committed fit records: every unit a FULL run used, with its key beside its record.

The fits are the expensive layer of a reproduction; the tables, claims, figures and the
report are derived from them. A committed FULL run writes ``results/fits/<notebook>.jsonl``,
one line per unit the notebook read or computed::

    {"kind": "cv", "name": "<hash>.json", "code": ["rulelab.colgen.estimator:..."],
     "code_key": "ee55b5cfc9", "key": {"dataset": "sonar", "fold": 3, ...}, "record": {...}}

:func:`repro.core.cache.load` looks here when its local cache has no record, so on a fresh clone
with an empty cache a rerun after a change to derived code only (a claim, a figure, the
report) reads every fit and computes none. :func:`stale_units` recomputes the code keys
to say whether a notebook's fits are still those of the current code, and a verify run
(``python -m repro.pipeline --verify``) recomputes a sample of them to show that they are.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

from repro.core.codekey import clear_caches, key_of_specs
from repro.core.outputs import write_text
from repro.core.paths import ROOT
from repro.core.records import BadRecord, seal, unseal

__all__ = ["store_dir", "store_path", "lookup", "read", "write", "stale_units", "units_in"]


def store_dir() -> Path:
    """``results/fits`` of the project: the committed records, whatever the run's output."""
    return Path(os.environ.get("RULELAB_FITS") or ROOT / "results" / "fits")


def store_path(notebook: str, folder: Path | None = None) -> Path:
    return (folder or store_dir()) / f"{notebook}.jsonl"


def read(notebook: str, folder: Path | None = None, *, strict: bool = True) -> list[dict]:
    """The committed fit records of ``notebook`` (none when it has no file).

    A line that is not a whole fit record (not JSON, fields missing, or a record that does
    not match its digest) is damage: ``strict`` raises a ValueError naming the file and
    line; otherwise the line is named once on stderr and left out, so that its unit is
    computed again rather than read."""
    path = store_path(notebook, folder)
    if not path.is_file():
        return []
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            if not isinstance(row, dict) or not {"kind", "name", "record"} <= set(row):
                raise BadRecord("not a fit record")
            unseal(row["record"])
        except ValueError as err:
            message = f"{path.name} line {number} is damaged ({err})"
            if strict:
                raise ValueError(message) from None
            print(f"[rulelab] {message}: its unit is computed again", file=sys.stderr)
            continue
        rows.append(row)
    return rows


@functools.cache
def _index() -> dict[str, object]:
    index: dict[str, object] = {}
    folder = store_dir()
    if folder.is_dir():
        for path in sorted(folder.glob("*.jsonl")):
            for row in read(path.stem, strict=False):  # read() has checked each seal
                index[f"{row['kind']}/{row['name']}"] = row["record"]["record"]
    return index


def lookup(entry: str):
    """The committed record of the unit ``kind/name``, or None."""
    return _index().get(entry)


def units_in(tally_text: str) -> dict[str, dict]:
    """The units a notebook run touched, from its tally: ``{entry: recipe}``."""
    units: dict[str, dict] = {}
    for line in tally_text.splitlines():
        head, tab, recipe = line.partition("\t")
        if not tab:
            continue
        entry = head.partition(" ")[2]
        units[entry] = json.loads(recipe)
    return units


def write(
    notebook: str,
    tally_text: str,
    *,
    local: Callable[[str], object],
    keep_others: bool = False,
    folder: Path | None = None,
) -> int:
    """Write the committed fit records of ``notebook`` from its run's tally; return how many.

    Each record is taken from the local cache (``local(entry)``, e.g.
    :func:`repro.core.cache.local_record`), or from the committed records it was read from.
    ``keep_others`` keeps the earlier records this run did not touch (a FULL run over part
    of the data). The file is replaced atomically."""
    rows: dict[str, dict] = {}
    if keep_others:
        rows = {f"{r['kind']}/{r['name']}": r for r in read(notebook, folder)}
    for entry, recipe in units_in(tally_text).items():
        record = local(entry)
        if record is None:
            record = lookup(entry)
        if record is None:
            raise ValueError(f"{notebook}: the record of {entry} is neither cached nor committed")
        rows[entry] = {**recipe, "record": seal(record)}
    write_text(
        store_path(notebook, folder),
        "".join(json.dumps(rows[e], sort_keys=True) + "\n" for e in sorted(rows)),
    )
    _index.cache_clear()
    return len(rows)


def stale_units(notebook: str) -> tuple[int, list[dict]]:
    """``(units, stale)``: how many fit records ``notebook`` has committed, and those whose
    code key is no longer the current code's (their code changed what it does)."""
    rows = read(notebook)
    clear_caches()
    current: dict[tuple, str] = {}
    stale = []
    for row in rows:
        specs = tuple(row.get("code", ()))
        if specs not in current:
            current[specs] = key_of_specs(specs)
        if current[specs] != row.get("code_key"):
            stale.append(row)
    return len(rows), stale
