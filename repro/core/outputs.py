"""Outputs written whole, and checked by what they contain.

Every file a run commits (tables, figures, executed notebooks, the run log, REPORT.md, the
README's results) is written to a temporary file beside its target and renamed over it, so
a run killed at any moment leaves each file as it was or as the new whole, never half of
it. While the pipeline runs a notebook it names a manifest (:data:`MANIFEST_ENV`): each
output written adds its path there, and the run log keeps a digest of every one, by which
``--check`` finds an output that went missing, was cut short or was edited by hand.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Iterator
from pathlib import Path

__all__ = [
    "MANIFEST_ENV",
    "replacing",
    "write_text",
    "save_table",
    "record_output",
    "file_digest",
    "text_digest",
    "damaged_outputs",
    "sweep_leftovers",
]

#: The file the pipeline names for a notebook's run: one written output's path per line.
MANIFEST_ENV = "RULELAB_OUTPUTS"


_TMP = ".tmp"


@contextlib.contextmanager
def replacing(path: Path | str) -> Iterator[Path]:
    """A temporary path beside ``path`` to write to; renamed over ``path`` when the block
    ends without an error (and removed when it does not)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # the writer's pid names it (sweep_leftovers); the suffix is kept so that writers that
    # choose a format by it (savefig) still do
    tmp = path.with_name(f".{path.stem}.{os.getpid()}{_TMP}{path.suffix}")
    try:
        yield tmp
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    record_output(path)


def write_text(path: Path | str, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` whole."""
    with replacing(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return Path(path)


def save_table(frame, path: Path | str, *, index: bool = False) -> Path:
    """Write a DataFrame as CSV to ``path`` whole (``index`` as for ``DataFrame.to_csv``)."""
    with replacing(path) as tmp:
        frame.to_csv(tmp, index=index)
    return Path(path)


def record_output(path: Path | str) -> None:
    """Add ``path`` to the running notebook's manifest (nothing outside the pipeline)."""
    manifest = os.environ.get(MANIFEST_ENV)
    if manifest:
        with open(manifest, "a", encoding="utf-8") as out:  # one appended line: whole
            out.write(f"{Path(path).resolve()}\n")


def file_digest(path: Path | str) -> str:
    """The SHA-256 of a file's bytes (16 hex digits: enough to tell an edit apart)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()[:16]


def text_digest(text: str) -> str:
    """The digest of a text as :func:`file_digest` takes it of its UTF-8 bytes."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def damaged_outputs(outputs: dict[str, str], root: Path) -> list[str]:
    """The outputs of ``{path relative to root: digest}`` that are missing or whose bytes
    differ from the digest, each in words."""
    found = []
    for name, expected in sorted(outputs.items()):
        path = root / name
        if not path.is_file():
            found.append(f"{name}: missing")
        elif file_digest(path) != expected:
            found.append(f"{name}: changed since the run that wrote it (cut short or edited)")
    return found


def sweep_leftovers(folder: Path) -> None:
    """Remove the temporary files that :func:`replacing` left in ``folder`` when its writer
    was killed (a writer still running keeps its file)."""
    for tmp in Path(folder).glob(f".*{_TMP}*"):
        pid = tmp.name.split(_TMP)[0].rsplit(".", 1)[-1]
        if pid.isdigit() and not _alive(int(pid)):
            tmp.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True
