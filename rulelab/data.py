"""Benchmark datasets: find, verify, fetch and load them as pandas frames.

The files are third-party copies and never part of the project. They are looked up in

1. the directory named by the ``RULELAB_DATA`` environment variable (the Makefile and CI
   point it at a local copy of the benchmark folder), then
2. the per-user cache (``RULELAB_CACHE``, else ``~/.cache/rulelab``), where sets fetched
   from their public source are kept.

A file found locally is checked before it is used: our copy against the registry's
SHA-256, a copy fetched earlier against the digest recorded when it was written, and both
against the registry's row and positive counts. A set that is not found is fetched from
its public source (OpenML or the LIBSVM site) and converted to the same frame; offline, a
clear error says where to put the file.
"""

from __future__ import annotations

import hashlib
import os
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from ._registry import ALIASES, DATASETS, Dataset
from ._validation import check_binary_labels

__all__ = ["load_dataset", "list_datasets", "load_csv", "data_dirs", "dataset_info"]

_CHUNK = 1 << 20


def data_dirs() -> list[Path]:
    """Directories searched for dataset files, in order (``RULELAB_DATA`` first, then the cache)."""
    dirs = []
    if os.environ.get("RULELAB_DATA"):
        dirs.append(Path(os.environ["RULELAB_DATA"]).expanduser())
    dirs.append(_cache_dir())
    return dirs


def _cache_dir() -> Path:
    root = os.environ.get("RULELAB_CACHE") or Path.home() / ".cache" / "rulelab"
    return Path(root).expanduser() / "data"


def dataset_info(name: str) -> Dataset:
    """The registry entry for ``name`` (aliases such as ``"liver"`` or ``"gas"`` allowed)."""
    key = ALIASES.get(name, name)
    if key not in DATASETS:
        valid = ", ".join(sorted(DATASETS))
        raise ValueError(f"unknown dataset {name!r}; valid names: {valid}")
    return DATASETS[key]


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(_CHUNK), b""):
            h.update(block)
    return h.hexdigest()


# (path, modification time, size, expected digest) of the files whose bytes were checked in
# this process: a file is hashed once, and again only after it changed
_verified: set[tuple[str, int, int, str]] = set()


def _locate(info: Dataset) -> Path | None:
    for d in data_dirs():
        path = d / info.file
        if path.is_file():
            return path
    return None


def _marker(path: Path) -> Path:
    """The file beside a fetched copy that says where it came from (and its digest)."""
    return path.with_name(path.name + ".fetched")


def _fix(path: Path) -> str:
    """What to do about a bad copy, in words."""
    if _marker(path).exists() and path.parent.resolve() == _cache_dir().resolve():
        return f"delete {path} and {_marker(path).name} so that load_dataset fetches a fresh copy"
    return (
        "replace it with an intact copy, or delete it so that load_dataset fetches the set "
        "from its public source"
    )


def _verify(path: Path, info: Dataset) -> None:
    """Check a file's bytes against what is known of them (once per file version in a process).

    Our copy must have the registry's SHA-256. A copy fetched from a public source into the
    cache differs from ours by construction; its ``.fetched`` marker records the digest it
    was written with, which it must still have (markers written before digests were recorded
    carry none: such a copy is checked by its shape alone, in :func:`_check_loaded`). Only
    the cache holds fetched copies: a marker beside a file anywhere else (in ``RULELAB_DATA``)
    is not read, so writing one cannot turn the registry's checksum off.
    """
    stat = path.stat()
    marker = _marker(path)
    expected, what = info.sha256, f"the registry's checksum for {info.name!r}"
    if marker.exists() and path.parent.resolve() == _cache_dir().resolve():
        recorded = [
            line.split()[1]
            for line in marker.read_text().splitlines()
            if line.startswith("sha256 ") and len(line.split()) == 2
        ]
        if not recorded:
            return
        expected, what = recorded[0], f"the checksum recorded when {info.name!r} was fetched"
    key = (str(path), stat.st_mtime_ns, stat.st_size, expected)
    if key in _verified:
        return
    digest = _sha256(path)
    if digest != expected:
        raise ValueError(
            f"{path} does not match {what} (sha256 {digest[:12]}… instead of "
            f"{expected[:12]}…, {stat.st_size:,} bytes): the file is truncated, corrupt or a "
            f"different version; {_fix(path)}"
        )
    _verified.add(key)


def _read(path: Path, info: Dataset) -> pd.DataFrame:
    """The file as a frame, a file that cannot be parsed refused with the fix."""
    try:
        return pd.read_csv(path)
    except (
        OSError,
        EOFError,
        UnicodeDecodeError,
        pd.errors.ParserError,
        pd.errors.EmptyDataError,
    ) as err:
        raise ValueError(
            f"{path} cannot be read as the data set {info.name!r} ({err}); {_fix(path)}"
        ) from err


def _check_loaded(frame: pd.DataFrame, info: Dataset, path: Path) -> None:
    """Refuse a frame whose columns, rows or positives differ from the registry entry: a
    truncated or edited copy must not load as if it were the data set."""
    needed = [info.label, *info.meta_columns, *info.columns]
    absent = [c for c in needed if c not in frame.columns]
    if absent:
        raise ValueError(
            f"{path} lacks the column(s) {absent[:5]} of the data set {info.name!r}; {_fix(path)}"
        )
    try:
        positives = int(_positive_rows(frame[info.label], info.positive, "")[0].sum())
    except ValueError:  # no row has a positive label
        positives = 0
    if (len(frame), positives) != (info.rows, info.positives):
        raise ValueError(
            f"{path} holds {len(frame):,} rows ({positives:,} positive), but the registry "
            f"expects {info.rows:,} rows ({info.positives:,} positive) for {info.name!r}: the "
            f"file is truncated or a different version; {_fix(path)}"
        )


def load_dataset(
    name: str, *, positive=None, with_meta: bool = False, fetch: bool = True, readable: bool = False
):
    """Load a benchmark dataset as ``X`` (DataFrame) and ``y`` (0/1 Series).

    Parameters
    ----------
    name : str
        A name from :func:`list_datasets` (or an alias such as ``"liver"``, ``"gas"``).
    positive : label or sequence of labels, optional
        Label value(s) mapped to 1; default the registry's positive class.
    with_meta : bool, default=False
        Also return the bookkeeping columns (e.g. ``molecule_id`` of musk2, ``batch`` of
        the gas data, ``split`` of the text sets) as a third DataFrame.
    fetch : bool, default=True
        Fetch the set from its public source when no local copy is found.
    readable : bool, default=False
        Name the columns by their meaning where the file only numbers them (a1a's
        ``f1``..``f123`` become ``age=1/5``, ``workclass=Private``, ...; see
        :func:`rulelab._registry.platt_adult_labels`). Other sets keep their names.

    Returns
    -------
    X : pandas.DataFrame
        Features with the original column names; categoricals as ``category`` dtype,
        missing values as NaN.
    y : pandas.Series
        1 for the positive class, 0 otherwise; ``y.attrs["positive"]`` names it.
    meta : pandas.DataFrame
        Only with ``with_meta=True``.
    """
    info = dataset_info(name)
    path = _locate(info)
    if path is None:
        if not fetch:
            raise FileNotFoundError(_missing_message(info))
        from ._fetch import fetch_dataset

        path = fetch_dataset(info, _cache_dir())
    _verify(path, info)
    frame = _read(path, info)
    _check_loaded(frame, info, path)
    if info.drop_labels:
        frame = frame[~frame[info.label].astype(str).isin(info.drop_labels)].reset_index(drop=True)
    hit, pos = _positive_rows(
        frame[info.label],
        info.positive if positive is None else positive,
        f"data set {info.name!r}",
    )
    y = pd.Series(hit.astype(np.int8), name=info.label)
    y.attrs["positive"] = pos
    X = frame[list(info.columns)].copy()
    for col in info.categorical:
        X[col] = X[col].astype("category")
    if readable and info.labels:
        X.columns = list(info.labels)
    X.attrs["dataset"] = info.name
    if with_meta:
        return X, y, frame[list(info.meta_columns)].copy()
    return X, y


def _missing_message(info: Dataset) -> str:
    where = " or ".join(str(d) for d in data_dirs())
    return (
        f"dataset {info.name!r} ({info.file}) was not found in {where}. Put the file there "
        f"(set RULELAB_DATA to its folder), or allow fetching it from its public source: "
        f"{info.source.kind} {info.source.ref}"
    )


def list_datasets() -> pd.DataFrame:
    """All datasets rulelab knows, with their size, positive class, citation and availability."""
    rows = []
    for info in DATASETS.values():
        rows.append(
            {
                "name": info.name,
                "rows": info.rows,
                "features": info.features,
                "positive": "/".join(info.positive),
                "positives": info.positives,
                "available": _locate(info) is not None,
                "source": f"{info.source.kind}:{info.source.ref}",
                "citation": info.citation,
                "note": info.note,
            }
        )
    return pd.DataFrame(rows)


def load_csv(
    path,
    *,
    label: str,
    positive,
    sep: str = ",",
    categorical=None,
    na_values=None,
    encoding: str = "utf-8",
    decimal: str = ".",
) -> tuple[pd.DataFrame, pd.Series]:
    """Load a user's own CSV file the way :func:`load_dataset` loads a benchmark set.

    Every field is kept as written: only an empty field is a missing value unless
    ``na_values`` says otherwise, so a country column holding ``NA`` (Namibia) or a
    text column holding ``None`` keeps those values.

    Parameters
    ----------
    path : str or Path
        The file (``.csv`` or ``.csv.gz``).
    label : str
        Name of the label column.
    positive : label or sequence of labels
        Label value(s) mapped to 1. A number matches a numeric label column by value
        (``1`` and ``1.0`` alike); otherwise labels are compared as text, surrounding
        spaces ignored.
    sep : str, default=","
        Field separator.
    categorical : list of str, optional
        Columns to read as categoricals (text columns are categorical anyway).
    na_values : sequence of str, optional
        Field values read as missing besides the empty field, e.g. ``["NA", "?"]``.
        By default none: pandas' own list (``NA``, ``None``, ``null``, ``nan``, ``N/A``,
        ...) is not applied, since those are real values in some columns.
    encoding : str, default="utf-8"
        The file's text encoding, e.g. ``"latin-1"`` or ``"utf-16"``; a file that is not
        valid text in it is refused naming the file.
    decimal : str, default="."
        The decimal mark of numbers, ``","`` for ``3,14`` (usually with ``sep=";"``). A
        column whose every value reads as a number with the other mark (``3,14`` read with
        ``"."``, ``3.14`` with ``","``) warns, since it would otherwise become a category
        silently.

    A row with fewer fields than the header names is refused with its line number (pandas
    would fill it with missing values, and blame the label when it is the last column),
    whatever the separator; so is a line with NUL characters, UTF-16 text read as one-byte.

    Returns
    -------
    X : pandas.DataFrame
    y : pandas.Series of 0/1
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no such file: {path}")
    if isinstance(na_values, str):
        na_values = [na_values]
    missing_tokens = [""] + [str(v) for v in (na_values or ())]
    # index_col=False: a row with more fields than the header has names would otherwise
    # silently make the first column the index and shift every value one column left
    options = dict(
        sep=sep,
        keep_default_na=False,
        na_values=missing_tokens,
        index_col=False,
        encoding=encoding,
        decimal=decimal,
        # a longer separator is a regular expression, which only the python engine reads;
        # chosen here, since the C engine's ParserWarning about falling back to it would
        # be taken below for a row with too many fields
        engine="python" if len(sep) > 1 and sep != r"\s+" else "c",
    )
    try:
        # pandas renames a repeated header to "a.1"; read the header as written to refuse it
        header = pd.read_csv(path, header=None, nrows=1, dtype=str, **options).iloc[0].tolist()
        _check_no_short_rows(path, len(header), sep, encoding)
    except pd.errors.EmptyDataError:
        raise ValueError(
            f"{path.name} is empty: it needs a header row naming the columns"
        ) from None
    except UnicodeError as err:  # the UTF-16 codec's missing BOM has no reason or byte
        where = f"{err.reason} at byte {err.start}" if hasattr(err, "start") else str(err)
        raise ValueError(
            f"{path} is not {encoding} text ({where}): pass the encoding it was written in, "
            "e.g. load_csv(..., encoding='latin-1') or encoding='utf-16'"
        ) from None
    repeated = sorted({str(h) for h in header if header.count(h) > 1})
    if repeated:
        raise ValueError(
            f"{path.name} repeats the column name(s) {repeated} in its header: "
            "give every column its own name"
        )
    with warnings.catch_warnings():
        warnings.simplefilter("error", pd.errors.ParserWarning)
        try:
            frame = pd.read_csv(path, **options)
        except pd.errors.ParserWarning:
            raise ValueError(
                f"{path.name} has rows with more fields than its header has names "
                f"({len(header)}): name every column in the header, or check the "
                f"separator (sep={sep!r})"
            ) from None
    if label not in frame.columns:
        raise ValueError(
            f"label column {label!r} not in {path.name}; columns are {list(frame.columns)}"
        )
    forced = [categorical] if isinstance(categorical, str) else list(categorical or ())
    unknown = [c for c in forced if c not in frame.columns or c == label]
    if unknown:
        features = [c for c in frame.columns if c != label]
        raise ValueError(
            f"categorical column(s) {unknown} are not feature columns of "
            f"{path.name}; its feature columns are {features}"
        )
    missing = frame[label].isna()  # not astype(str): pandas 3 keeps NaN as NaN there
    if missing.any():
        raise ValueError(
            f"label column {label!r} has {int(missing.sum())} missing values: drop those rows first"
        )
    hit, _ = _positive_rows(frame[label], positive, f"column {label!r}")
    y = pd.Series(hit.astype(np.int8), name=label)
    check_binary_labels(y)
    X = frame.drop(columns=[label])
    _warn_numbers_as_text(path, X, forced, decimal)
    for col in X.columns:
        if col in forced or not pd.api.types.is_numeric_dtype(X[col]):
            X[col] = X[col].astype("category")
    return X, y


# a number written with a decimal comma (3,14; 1.234,5; -0,5e3) and with a decimal point
_WITH_MARK = {
    ",": r"[-+]?(\d+|\d{1,3}(\.\d{3})+),\d+([eE][-+]?\d+)?",
    ".": r"[-+]?\d*\.\d+([eE][-+]?\d+)?",
}
_WHOLE = r"[-+]?\d+([eE][-+]?\d+)?"


def _warn_numbers_as_text(path: Path, X: pd.DataFrame, forced, decimal: str) -> None:
    """Warn about text columns whose every value is a number written with the other decimal
    mark than ``decimal`` (``3,14`` read with ``"."``, ``3.14`` read with ``","``): they
    would become categories, one per value, without a word."""
    other = "," if decimal != "," else "."
    looks = []
    for col in X.columns:
        s = X[col]
        if col in forced or pd.api.types.is_numeric_dtype(s):
            continue
        text = s.dropna().astype(str).str.strip()
        if len(text) and text.str.fullmatch(_WITH_MARK[other] + "|" + _WHOLE).all():
            if text.str.contains(other, regex=False).any():
                looks.append(col)
    if looks:
        written = "3,14" if other == "," else "3.14"
        warnings.warn(
            f"{path.name}: column(s) {looks[:5]} hold numbers written with a decimal "
            f"{'comma' if other == ',' else 'point'} ({written}), read as text and so as "
            f"categories: pass decimal={other!r} to read them as numbers (or "
            "categorical=[...] to keep them as categories and silence this)",
            UserWarning,
            stacklevel=3,
        )


def _check_no_short_rows(path: Path, n_names: int, sep: str, encoding: str) -> None:
    """Refuse a row with fewer fields than the header names, by line number: pandas fills
    it with missing values, which then read as data (or as a missing label). A NUL
    character is refused too: it is how UTF-16 text without a byte-order mark reads in
    a one-byte encoding, whose lines would otherwise be blamed for their fields."""
    import csv
    import gzip
    import re

    def lines(fh):
        for number, line in enumerate(fh, start=1):
            if "\x00" in line:
                raise ValueError(
                    f"line {number} of {path.name} holds NUL characters, as UTF-16 text "
                    f"read as {encoding} does: pass its encoding, e.g. load_csv(..., "
                    "encoding='utf-16'), or 'utf-16-le' for a file without a byte-order mark"
                )
            yield line

    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding=encoding, newline="") as fh:
        if len(sep) == 1:
            rows = csv.reader(lines(fh), delimiter=sep)
            numbered = ((rows.line_num, fields) for fields in rows)
        else:  # a regular expression, which pandas splits each stripped line by
            pattern = re.compile(sep)
            numbered = (
                (number, pattern.split(line.strip()) if line.strip() else [])
                for number, line in enumerate(lines(fh), start=1)
            )
        next(numbered, None)
        for line_num, fields in numbered:
            if fields and len(fields) < n_names:
                raise ValueError(
                    f"line {line_num} of {path.name} has {len(fields)} field(s) but the "
                    f"header names {n_names}: add the missing fields (empty ones are "
                    f"missing values), or check the separator (sep={sep!r})"
                )


def _positive_rows(labels: pd.Series, positive, where: str) -> tuple[np.ndarray, tuple[str, ...]]:
    """Rows whose label is one of ``positive`` (a label or a sequence of labels), and the
    positive labels as text; refuse a positive label that matches no row, listing the labels.

    A numeric label column is matched by value (``1``, ``1.0`` and ``"1"`` alike), any other
    column as text with surrounding spaces ignored.
    """
    pos = tuple(positive) if pd.api.types.is_list_like(positive) else (positive,)
    if not pos:
        raise ValueError(f"positive= names no label: give one label or a list of labels of {where}")
    numeric = pd.api.types.is_numeric_dtype(labels) and labels.dtype != bool
    text = labels.astype(str).str.strip()
    hit = np.zeros(len(labels), dtype=bool)
    absent = []
    for p in pos:
        if numeric:
            try:
                rows = (labels == float(p)).to_numpy(dtype=bool)
            except (TypeError, ValueError):  # a word on a numeric column matches nothing
                rows = np.zeros(len(labels), dtype=bool)
        else:
            rows = (text == str(p).strip()).to_numpy(dtype=bool)
        if not rows.any():
            absent.append(p)
        hit |= rows
    if absent:
        found = sorted(labels.dropna().unique().tolist(), key=str)
        raise ValueError(
            f"positive label(s) {absent} do not occur in {where}; its labels are "
            f"{[str(v) for v in found[:10]]}"
        )
    return hit, tuple(str(p) for p in pos)
