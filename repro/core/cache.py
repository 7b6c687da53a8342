"""The result cache: one record per unit of work, keyed by its parameters and its code.

A unit (one fold of one learner on one data set, one grid point, one timing) is kept as a
small JSON record. Its name hashes the unit's parameters and the key of the code behind it
(:func:`repro.core.codekey.source_key`: what the code does, not how it is written), so a result
is reused only by code that would compute it again.

A record is looked for in two places: the local cache (``RULELAB_CACHE/results``) and the
committed fit records of the last FULL run (:mod:`repro.core.fitstore`), so that a fresh clone
rebuilds tables, claims and figures from the committed results without fitting as long as
the code behind the fits is unchanged.

While the pipeline runs a notebook it names a tally file (:data:`TALLY_ENV`): every unit
read or written adds a line ``read kind/name`` or ``wrote kind/name`` followed by a tab and
the unit's recipe (its parameters and code) as JSON. The pipeline counts progress and cold
runs from it and writes the committed fit records from it.

A verify run (:data:`VERIFY_ENV`) names a file of sampled units: those are computed again
however they are cached, and each new record is compared with the committed one.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from repro.core.codekey import code_specs, key_of_specs
from repro.core.records import (  # noqa: F401  (re-exported: the cache's records)
    RECORD_FORMAT,
    BadRecord,
    _jsonable_number,
    roundtrip,
    seal,
    unseal,
)

__all__ = [
    "Unit",
    "unit",
    "load",
    "available",
    "store",
    "cached",
    "cache_dir",
    "cache_path",
    "params_key",
    "digest",
    "write_record",
    "read_cached",
    "earlier_reads",
    "TALLY_ENV",
    "VERIFY_ENV",
    "same_record",
    "seal",
    "unseal",
    "BadRecord",
]

#: The pipeline's tally of a notebook run (see the module docstring).
TALLY_ENV = "RULELAB_CACHE_TALLY"
#: A verify run's sample: a file with one ``kind/name`` per line; results go to the file
#: named by :data:`VERIFY_LOG_ENV`.
VERIFY_ENV = "RULELAB_VERIFY_SAMPLE"
VERIFY_LOG_ENV = "RULELAB_VERIFY_LOG"


def cache_dir() -> Path:
    """Where finished units are kept: ``RULELAB_CACHE/results`` (default ``~/.cache/rulelab``)."""
    root = os.environ.get("RULELAB_CACHE") or Path.home() / ".cache" / "rulelab"
    return Path(root).expanduser() / "results"


def _jsonable(value):
    if hasattr(value, "get_params"):
        return {"class": type(value).__name__, **value.get_params(deep=False)}
    if isinstance(value, np.generic):
        return value.item()
    text = repr(value)
    if " at 0x" in text and hasattr(value, "__dict__"):
        # A default repr carries a memory address, different in every process, so the
        # cache would never hit (e.g. make_column_selector): hash the attributes instead.
        return {"class": type(value).__name__, **vars(value)}
    return text


def params_key(obj) -> str:
    """A short stable hash of an estimator's parameters (or any JSON-able object)."""
    if hasattr(obj, "get_params"):
        obj = {"class": type(obj).__name__, **obj.get_params(deep=True)}
    text = json.dumps(obj, sort_keys=True, default=_jsonable)
    return hashlib.sha1(text.encode()).hexdigest()[:12]


def digest(*arrays) -> str:
    """A short hash of arrays' (or frames') values and shapes: the data part of a unit's key
    when the unit is handed its data rather than the name of a data set."""
    h = hashlib.sha1()
    for a in arrays:
        a = np.ascontiguousarray(a.to_numpy() if hasattr(a, "to_numpy") else a)
        if a.dtype == object:
            a = a.astype(str)
        h.update(f"{a.dtype}{a.shape}".encode())
        h.update(a.tobytes())
    return h.hexdigest()[:16]


@dataclass(frozen=True)
class Unit:
    """One unit of work: where its record is kept and what it was computed from.

    Attributes
    ----------
    kind : str
        The family of units (a folder of the cache), e.g. ``"cv"`` or ``"grab/table1"``.
    name : str
        ``<hash>.json``: the hash of ``key`` and ``code_key``.
    key : dict
        The unit's parameters, as JSON-able values.
    code : tuple of str
        The specs of the code behind it (:func:`repro.core.codekey.code_specs`).
    code_key : str
        The key of that code (:func:`repro.core.codekey.key_of_specs`).
    """

    kind: str
    name: str
    key: dict
    code: tuple[str, ...]
    code_key: str

    @property
    def entry(self) -> str:
        return f"{self.kind}/{self.name}"

    @property
    def path(self) -> Path:
        return cache_dir() / self.kind / self.name

    def recipe(self) -> dict:
        """What the committed fit records keep beside the record."""
        return {
            "kind": self.kind,
            "name": self.name,
            "code": list(self.code),
            "code_key": self.code_key,
            "key": json.loads(json.dumps(self.key, default=_jsonable)),
        }


def unit(kind: str, key: dict, code) -> Unit:
    """The unit of ``kind`` with parameters ``key`` computed by ``code`` (a function, an
    estimator, a class, a module name, or a sequence of them)."""
    code = code if isinstance(code, (list, tuple)) else (code,)
    specs = tuple(code_specs(*code))
    code_key = key_of_specs(specs)
    # the record format is part of the name: records kept in another format are not read
    # (nor taken for damage), they are simply not this unit's
    name = f"{params_key({**key, 'code': code_key, 'format': RECORD_FORMAT})}.json"
    return Unit(kind, name, key, specs, code_key)


def cache_path(kind: str, key: dict, code) -> Path:
    """Where the record of one unit is kept in the local cache (:func:`unit`)."""
    return unit(kind, key, code).path


def _tally(action: str, u: Unit | Path) -> None:
    tally = os.environ.get(TALLY_ENV)
    if not tally:
        return
    if isinstance(u, Unit):
        line = f"{action} {u.entry}\t{json.dumps(u.recipe(), default=_jsonable)}\n"
    else:
        line = f"{action} {u.parent.name}/{u.name}\n"
    with open(tally, "a", encoding="utf-8") as out:  # one appended line: whole under workers
        out.write(line)


def earlier_reads(tally_text: str) -> int:
    """The results a run read from the cache that it had not written itself.

    A run that reads a result it computed a moment before (two tables sharing one fit)
    still ran cold: only a result written before the run counts.
    """
    wrote, reads = set(), []
    for line in tally_text.splitlines():
        action, _, rest = line.partition(" ")
        entry = rest.split("\t")[0]
        (wrote.add if action == "wrote" else reads.append)(entry)
    return sum(entry not in wrote for entry in reads if entry)


def _sampled() -> frozenset[str]:
    """The units a verify run computes again (empty outside a verify run)."""
    sample = os.environ.get(VERIFY_ENV)
    if not sample:
        return frozenset()
    return frozenset(Path(sample).read_text(encoding="utf-8").split())


_said: set[str] = set()


def _say_once(key: str, message: str) -> None:
    """Tell the user once per run, on stderr (the notebook shows it; the run goes on)."""
    if key not in _said:
        _said.add(key)
        print(f"[rulelab] {message}", file=sys.stderr, flush=True)


def _read(path: Path):
    """A record file's record; a damaged one is named, set aside as ``*.bad`` and None
    returned, so that the unit is computed again and the bad file never used."""
    try:
        return unseal(json.loads(path.read_text(encoding="utf-8")))
    except OSError:
        return None
    except ValueError as err:  # not JSON, or a BadRecord
        bad = path.with_suffix(".bad")
        try:
            path.replace(bad)
            where = f"set aside as {bad.name}"
        except OSError:
            where = "left in place"
        _say_once(
            str(path),
            f"damaged cache record {path.parent.name}/{path.name} ({err}): {where}; "
            "the unit is computed again",
        )
        return None


def load(u: Unit):
    """The unit's record from the local cache or the committed fit records, or None.

    In a verify run a sampled unit is never read: it is computed again."""
    if u.entry in _sampled():
        return None
    if u.path.is_file():
        record = _read(u.path)
        if record is not None:
            _tally("read", u)
            return record
    from repro.core import fitstore

    record = fitstore.lookup(u.entry)
    if record is not None:
        _tally("read", u)
    return record


def available(u: Unit) -> bool:
    """Whether :func:`load` will find the unit's record (without reading it)."""
    if u.entry in _sampled():
        return False
    from repro.core import fitstore

    return u.path.is_file() or fitstore.lookup(u.entry) is not None


def store(u: Unit, record) -> None:
    """Keep a freshly computed record in the local cache (atomically: an interrupted write
    never leaves half a file). A cache that cannot be written is skipped, not fatal: the
    run goes on without it. In a verify run a sampled unit's record is compared with the
    committed one instead."""
    if u.entry in _sampled():
        from repro.core import fitstore

        committed = fitstore.lookup(u.entry)
        with open(os.environ[VERIFY_LOG_ENV], "a", encoding="utf-8") as out:
            result = {"entry": u.entry, "kind": u.kind, "same": same_record(record, committed)}
            out.write(json.dumps(result) + "\n")
        _tally("wrote", u)
        return
    try:
        write_record(u.path, record)
    except OSError as err:
        _say_once(
            "unwritable",
            f"the result cache {cache_dir()} cannot be written ({err.strerror or err}): the "
            "run goes on without keeping its results (set RULELAB_CACHE to a writable folder)",
        )
        return
    _tally("wrote", u)


def write_record(path: Path, record) -> None:
    """Store a JSON-able record atomically, sealed (:func:`seal`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    try:
        tmp.write_text(json.dumps(seal(record), default=_jsonable_number))
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)


def read_cached(path: Path):
    """A record file's record, or None when it is missing or damaged (then set aside)."""
    return _read(path)


def local_record(entry: str):
    """The record of ``entry`` (``kind/name``) in the local cache, or None."""
    return _read(cache_dir() / entry)


def cached(kind: str, key: dict, compute: Callable[[], object], *, code, cache: bool = True):
    """``compute()``'s JSON-able result, kept as a unit (:func:`unit`) and reused from there.

    The value is the same whether computed or read (it goes through JSON either way).
    ``cache=False`` computes without reading or writing.
    """
    if not cache:
        return roundtrip(compute())
    u = unit(kind, key, code)
    record = load(u)
    if record is not None:
        return record
    record = roundtrip(compute())
    store(u, record)
    return record


#: Fields that measure the machine, not the result: left out when records are compared.
_CLOCK_WORDS = ("time", "seconds", "elapsed", "cached", "speedup", "ratio", "per_s", "stamp")


def _without_clock(value):
    if isinstance(value, dict):
        return {
            k: _without_clock(v)
            for k, v in value.items()
            if not any(word in str(k).lower() for word in _CLOCK_WORDS)
        }
    if isinstance(value, list):
        return [_without_clock(v) for v in value]
    return value


def same_record(fresh, committed) -> bool:
    """Whether two records agree once times (and other readings of the clock) are left out.

    Values are compared exactly, as JSON gives them back: the fits are deterministic."""
    return _without_clock(roundtrip(fresh)) == _without_clock(roundtrip(committed))
