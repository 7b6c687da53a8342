"""The envelope every kept record travels in: a format name and a digest of its content, so
that a record overwritten, cut short or edited is seen as damage, never read as a result.

Shared by the result cache (:mod:`repro.core.cache`) and the committed fit records
(:mod:`repro.core.fitstore`)."""

from __future__ import annotations

import hashlib
import json

import numpy as np

__all__ = ["RECORD_FORMAT", "BadRecord", "roundtrip", "seal", "unseal"]


def _jsonable_number(value):
    return value.item() if isinstance(value, np.generic) else float(value)


#: The envelope every kept record travels in: its format and a digest of its content.
RECORD_FORMAT = "rulelab-record-1"


class BadRecord(ValueError):
    """A kept record that is not whole: not JSON, not in its envelope, or not its digest."""


def _content_digest(record) -> str:
    text = json.dumps(record, sort_keys=True, default=_jsonable_number)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def seal(record) -> dict:
    """``record`` in its envelope: ``{"format", "digest", "record"}``."""
    record = roundtrip(record)
    return {"format": RECORD_FORMAT, "digest": _content_digest(record), "record": record}


def unseal(data):
    """The record inside an envelope made by :func:`seal`; :class:`BadRecord` saying what is
    wrong when it is not one (e.g. a file overwritten with ``{}``, or edited)."""
    if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT or "record" not in data:
        raise BadRecord("not a record of this cache (no envelope)")
    if _content_digest(data["record"]) != data.get("digest"):
        raise BadRecord("its content does not match its digest")
    return data["record"]


def roundtrip(record):
    """``record`` as it reads back from JSON: computed and cached values look the same."""
    return json.loads(json.dumps(record, default=_jsonable_number))
