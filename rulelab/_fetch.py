"""Fetch a dataset from its public source and write it in our file layout.

The converted frame is checked against the registry (rows, feature count and number of
positives) before it is written, so a source that changed or a wrong label mapping fails
loudly instead of silently producing different data.
"""

from __future__ import annotations

import bz2
import hashlib
import io
import os
import urllib.request
from pathlib import Path

import numpy as np
import pandas as pd

from ._registry import Dataset


def fetch_dataset(info: Dataset, cache: Path) -> Path:
    """Fetch ``info`` into ``cache`` and return the path of the written file."""
    kind = info.source.kind
    if kind == "manual":
        raise FileNotFoundError(
            f"dataset {info.name!r} has no machine-readable public source; download it from "
            f"{info.source.ref}, save it as {info.file} and point RULELAB_DATA at its folder"
        )
    try:
        frame = _FETCHERS[kind](info)
    except OSError as err:  # URLError is an OSError; offline machines end here
        raise FileNotFoundError(
            f"dataset {info.name!r} is not available locally and fetching it from "
            f"{kind} {info.source.ref} failed ({err}); put {info.file} into a folder and "
            "set RULELAB_DATA to it"
        ) from err
    _check_against_registry(frame, info)
    cache.mkdir(parents=True, exist_ok=True)
    path = cache / info.file
    # written under another name and renamed, so that an interrupted write leaves no file
    # that looks complete; the name keeps its ending, from which pandas infers compression
    partial = path.with_name(f"partial-{path.name}")
    frame.to_csv(partial, index=False)
    digest = hashlib.sha256(partial.read_bytes()).hexdigest()
    os.replace(partial, path)
    # the digest lets a later load notice a copy that was truncated or edited since
    path.with_name(path.name + ".fetched").write_text(
        f"{kind}:{info.source.ref}\nsha256 {digest}\n"
    )
    return path


def _check_against_registry(frame: pd.DataFrame, info: Dataset) -> None:
    positives = int(frame[info.label].astype(str).isin(info.positive).sum())
    got = (len(frame), len(info.columns), positives)
    want = (info.rows, info.features, info.positives)
    if got != want:
        raise ValueError(
            f"the public copy of {info.name!r} converted to (rows, features, positives) = "
            f"{got}, but the registry expects {want}: the source has changed; place our "
            "copy of the file in RULELAB_DATA instead"
        )


def _download(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=60) as resp:  # noqa: S310 (public data URL)
        return resp.read()


def _from_openml(info: Dataset) -> pd.DataFrame:
    from sklearn.datasets import fetch_openml

    bunch = fetch_openml(data_id=int(info.source.ref), as_frame=True, parser="auto")
    return openml_to_frame(bunch.frame, bunch.target_names or [], info)


def openml_to_frame(frame: pd.DataFrame, target_names: list[str], info: Dataset) -> pd.DataFrame:
    """Map an OpenML frame onto our columns: features by position, the target to our label."""
    frame = frame.drop(columns=[c for c in info.source.drop if c in frame.columns])
    target = target_names[0] if target_names else frame.columns[-1]
    features = [c for c in frame.columns if c != target]
    n_meta = len(info.meta_columns)
    if len(features) != len(info.columns) + n_meta:
        raise ValueError(
            f"OpenML copy of {info.name!r} has {len(features)} feature columns, "
            f"expected {len(info.columns) + n_meta}"
        )
    out = frame[features].copy()
    out.columns = list(info.meta_columns) + list(info.columns)
    labels = frame[target].astype(str)
    if info.source.label_map:
        labels = labels.map(info.source.label_map)
    out[info.label] = labels.to_numpy()
    return out


def _from_libsvm(info: Dataset) -> pd.DataFrame:
    from sklearn.datasets import load_svmlight_file

    raw = _download(info.source.ref)
    if info.source.ref.endswith(".bz2"):
        raw = bz2.decompress(raw)
    X, y = load_svmlight_file(io.BytesIO(raw), n_features=len(info.columns))
    dense = np.asarray(X.todense())
    out = pd.DataFrame(dense, columns=list(info.columns))
    # LIBSVM binary labels are -1/+1 (some sets 0/1); our copies keep them as integers.
    out[info.label] = y.astype(int)
    return out


_FETCHERS = {"openml": _from_openml, "libsvm": _from_libsvm}
