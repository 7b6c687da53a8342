"""Benchmark datasets: find, verify, fetch and load them as pandas frames.

The files are third-party copies and never part of the project. They are looked up in

1. the directory named by the ``RULELAB_DATA`` environment variable (the Makefile and CI
   point it at a local copy of the benchmark folder), then
2. the per-user cache (``RULELAB_CACHE``, else ``~/.cache/rulelab``), where sets fetched
   from their public source are kept.

A file found locally is checked against the registry's SHA-256 before it is used. A set
that is not found is fetched from its public source (OpenML or the LIBSVM site) and
converted to the same frame; offline, a clear error says where to put the file.
"""

from __future__ import annotations

import hashlib
import os
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


_verified: dict[Path, float] = {}


def _locate(info: Dataset) -> Path | None:
    for d in data_dirs():
        path = d / info.file
        if path.is_file():
            return path
    return None


def _verify(path: Path, info: Dataset) -> None:
    """Check our copy's SHA-256 (once per file and modification time in a process).

    Files fetched from a public source into the cache carry a ``.fetched`` marker: their
    bytes differ from our copy by construction, so they are checked by shape instead.
    """
    mtime = path.stat().st_mtime
    if _verified.get(path) == mtime:
        return
    if not path.with_name(path.name + ".fetched").exists():
        digest = _sha256(path)
        if digest != info.sha256:
            raise ValueError(
                f"{path} does not match the registry's checksum for {info.name!r} "
                f"(sha256 {digest[:12]}… instead of {info.sha256[:12]}…): the file is "
                "corrupt or a different version; delete it to fetch a fresh copy")
    _verified[path] = mtime


def load_dataset(name: str, *, positive=None, with_meta: bool = False, fetch: bool = True,
                 readable: bool = False):
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
    frame = pd.read_csv(path)
    if info.drop_labels:
        frame = frame[~frame[info.label].astype(str).isin(info.drop_labels)].reset_index(drop=True)
    pos = info.positive if positive is None else (
        (positive,) if isinstance(positive, (str, int, np.integer)) else tuple(positive))
    pos = tuple(str(p) for p in pos)
    labels = frame[info.label].astype(str)
    unknown = set(pos) - set(labels.unique())
    if unknown:
        raise ValueError(f"positive class {sorted(unknown)} does not occur in {info.name!r}; "
                         f"its labels are {sorted(labels.unique())}")
    y = pd.Series(labels.isin(pos).astype(np.int8).to_numpy(), name=info.label)
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
    return (f"dataset {info.name!r} ({info.file}) was not found in {where}. Put the file there "
            f"(set RULELAB_DATA to its folder), or allow fetching it from its public source: "
            f"{info.source.kind} {info.source.ref}")


def list_datasets() -> pd.DataFrame:
    """All datasets rulelab knows, with their size, positive class, citation and availability."""
    rows = []
    for info in DATASETS.values():
        rows.append({
            "name": info.name, "rows": info.rows, "features": info.features,
            "positive": "/".join(info.positive), "positives": info.positives,
            "available": _locate(info) is not None,
            "source": f"{info.source.kind}:{info.source.ref}",
            "citation": info.citation, "note": info.note,
        })
    return pd.DataFrame(rows)


def load_csv(path, *, label: str, positive, sep: str = ",", categorical=None):
    """Load a user's own CSV file the way :func:`load_dataset` loads a benchmark set.

    Parameters
    ----------
    path : str or Path
        The file (``.csv`` or ``.csv.gz``).
    label : str
        Name of the label column.
    positive : label or sequence of labels
        Label value(s) mapped to 1.
    sep : str, default=","
        Field separator.
    categorical : list of str, optional
        Columns to read as categoricals (text columns are categorical anyway).

    Returns
    -------
    X : pandas.DataFrame
    y : pandas.Series of 0/1
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no such file: {path}")
    frame = pd.read_csv(path, sep=sep)
    if label not in frame.columns:
        raise ValueError(f"label column {label!r} not in {path.name}; columns are {list(frame.columns)}")
    pos = (positive,) if isinstance(positive, (str, int, np.integer)) else tuple(positive)
    missing = frame[label].isna()   # not astype(str): pandas 3 keeps NaN as NaN there
    if missing.any():
        raise ValueError(f"label column {label!r} has {int(missing.sum())} missing values: "
                         "drop those rows first")
    labels = frame[label].astype(str).str.strip()
    found = sorted(labels.unique())
    absent = [p for p in pos if str(p) not in found]
    if absent:
        raise ValueError(f"positive label(s) {absent} do not occur in column {label!r}; its "
                         f"labels are {found[:10]}")
    y = pd.Series(labels.isin([str(p) for p in pos]).astype(np.int8).to_numpy(), name=label)
    check_binary_labels(y)
    X = frame.drop(columns=[label])
    for col in X.columns:
        if (categorical and col in categorical) or not pd.api.types.is_numeric_dtype(X[col]):
            X[col] = X[col].astype("category")
    return X, y
