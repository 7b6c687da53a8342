"""Datasets: every shipped set loads with the manifest's shape, checksums, fetch path, errors."""

from __future__ import annotations

import gzip

import numpy as np
import pandas as pd
import pytest

import rulelab
from rulelab import _fetch, data
from rulelab._registry import DATASETS
from tests.conftest import data_dir

DATA = data_dir()
needs_data = pytest.mark.skipif(DATA is None, reason="benchmark data folder not beside the project")


def manifest() -> pd.DataFrame:
    return pd.read_csv(DATA / "MANIFEST.csv")


@needs_data
@pytest.mark.data
@pytest.mark.parametrize("name", sorted(DATASETS))
def test_every_dataset_loads_with_the_manifest_shape(name):
    row = manifest().set_index("name").loc[name]
    X, y = rulelab.load_dataset(name)
    info = DATASETS[name]
    expected_rows = row["rows"]
    if info.drop_labels:  # text sets drop their neutral class
        raw = pd.read_csv(DATA / info.file, usecols=[info.label])
        expected_rows = int((~raw[info.label].isin(info.drop_labels)).sum())
    assert X.shape == (expected_rows, row["features"])
    assert set(np.unique(y)) == {0, 1}
    assert info.sha256 == row["sha256"]


@needs_data
def test_registry_agrees_with_the_manifest():
    m = manifest().set_index("name")
    assert set(m.index) == set(DATASETS)
    for name, info in DATASETS.items():
        assert info.file == m.loc[name, "file"]
        assert info.label == m.loc[name, "label_column"]
        assert (info.rows, info.features) == (m.loc[name, "rows"], m.loc[name, "features"])


@needs_data
def test_positive_class_and_categoricals_are_as_documented():
    X, y = rulelab.load_dataset("ilpd")
    assert y.sum() == 416 and y.attrs["positive"] == ("1",)
    assert isinstance(X["Gender"].dtype, pd.CategoricalDtype)
    assert X["AG_Ratio"].isna().sum() == 4


@needs_data
def test_gas_positive_split_can_be_chosen():
    _, y_default = rulelab.load_dataset("gas")
    _, y_ethanol = rulelab.load_dataset("gas", positive=1)
    assert y_default.sum() == 3661 and y_ethanol.sum() == 1316


def test_unknown_name_lists_the_valid_names():
    with pytest.raises(ValueError, match="valid names: .*pima"):
        rulelab.load_dataset("no-such-set")


def test_list_datasets_has_one_row_per_set():
    table = rulelab.list_datasets()
    assert list(table.columns[:5]) == ["name", "rows", "features", "positive", "positives"]
    assert len(table) == len(DATASETS)
    assert table["citation"].str.len().min() > 20


def test_corrupt_local_file_fails_the_checksum(tmp_path, monkeypatch):
    (tmp_path / "pima.csv").write_text("pregnant,class\n1,0\n")
    monkeypatch.setenv("RULELAB_DATA", str(tmp_path))
    monkeypatch.setattr(data, "_verified", {})
    with pytest.raises(ValueError, match="checksum"):
        rulelab.load_dataset("pima")


def test_missing_set_offline_says_where_to_put_it(tmp_path, monkeypatch):
    monkeypatch.setenv("RULELAB_DATA", str(tmp_path / "empty"))
    monkeypatch.setenv("RULELAB_CACHE", str(tmp_path / "cache"))
    with pytest.raises(FileNotFoundError, match="RULELAB_DATA"):
        rulelab.load_dataset("pima", fetch=False)

    def offline(*args, **kwargs):
        raise OSError("network unreachable")

    monkeypatch.setattr(_fetch, "_download", offline)
    with pytest.raises(FileNotFoundError, match="fetching it from libsvm"):
        rulelab.load_dataset("fourclass_scale")


def test_openml_fetch_path_converts_to_our_frame(tmp_path, monkeypatch):
    """The OpenML path, with the network call replaced by scikit-learn's bundled WDBC."""
    from sklearn.datasets import load_breast_cancer

    bunch = load_breast_cancer(as_frame=True)
    frame = bunch.frame.copy()
    # OpenML 1510 codes the class 1 = benign, 2 = malignant; sklearn codes 1 = benign.
    frame["Class"] = np.where(frame.pop("target") == 1, "1", "2")

    class FakeBunch:
        pass

    fake = FakeBunch()
    fake.frame, fake.target_names = frame, ["Class"]
    import sklearn.datasets

    monkeypatch.setattr(sklearn.datasets, "fetch_openml", lambda **kw: fake)
    monkeypatch.setenv("RULELAB_DATA", str(tmp_path / "empty"))
    monkeypatch.setenv("RULELAB_CACHE", str(tmp_path / "cache"))
    X, y = rulelab.load_dataset("wdbc")
    assert X.shape == (569, 30) and int(y.sum()) == 212
    assert X.columns[0] == "radius_mean"
    assert (tmp_path / "cache" / "data" / "wdbc.csv.fetched").is_file()
    if DATA is not None:  # the fetched frame equals our copy
        ours = pd.read_csv(DATA / "wdbc.csv")
        np.testing.assert_allclose(X.to_numpy(float), ours.drop(columns="diagnosis").to_numpy(float))


def test_libsvm_fetch_path_converts_to_our_frame(tmp_path, monkeypatch):
    """The LIBSVM path, with the download replaced by a local sparse file."""
    rows = ["+1 1:0.5 2:-0.25", "-1 2:1", "+1 1:1"]
    payload = ("\n".join(rows) + "\n").encode()
    info = DATASETS["fourclass_scale"]
    fake = type(info)(**{**info.__dict__, "rows": 3, "positives": 2})
    monkeypatch.setattr(_fetch, "_download", lambda url: payload)
    frame = _fetch._from_libsvm(fake)
    _fetch._check_against_registry(frame, fake)
    assert frame.to_numpy().tolist() == [[0.5, -0.25, 1], [0.0, 1.0, -1], [1.0, 0.0, 1]]


def test_fetch_refuses_a_source_that_changed(tmp_path, monkeypatch):
    monkeypatch.setattr(_fetch, "_download", lambda url: b"+1 1:1\n-1 2:1\n")
    monkeypatch.setenv("RULELAB_DATA", str(tmp_path / "empty"))
    monkeypatch.setenv("RULELAB_CACHE", str(tmp_path / "cache"))
    with pytest.raises(ValueError, match="source has changed"):
        rulelab.load_dataset("fourclass_scale")


def test_load_csv_reads_a_users_own_file(tmp_path):
    path = tmp_path / "mine.csv.gz"
    with gzip.open(path, "wt") as fh:
        fh.write("age,colour,outcome\n30,red,yes\n41,blue,no\n,red,yes\n")
    X, y = rulelab.load_csv(path, label="outcome", positive="yes")
    assert y.tolist() == [1, 0, 1]
    assert isinstance(X["colour"].dtype, pd.CategoricalDtype)
    assert np.isnan(X["age"].iloc[2])
    with pytest.raises(ValueError, match="label column 'nope'"):
        rulelab.load_csv(path, label="nope", positive="yes")
    with pytest.raises(ValueError, match="do not occur"):
        rulelab.load_csv(path, label="outcome", positive="maybe")


@needs_data
def test_a1a_readable_names_follow_platts_adult_layout():
    X, _ = data.load_dataset("a1a_train", readable=True)
    assert X.shape[1] == 123 and X.columns[0] == "age=1/5" and X.columns[-1].startswith(
        "native-country=")
    attributes = pd.Index(X.columns.str.split("=").str[0])
    for attribute in attributes.unique():
        ones = X.loc[:, attributes == attribute].sum(axis=1)
        # one column per value or cell: at most one is set (none where Adult had '?')
        assert ones.max() == 1, attribute
        if attribute not in ("workclass", "occupation", "native-country"):
            assert ones.min() == 1, attribute
    plain, _ = data.load_dataset("a1a_train")
    assert (plain.to_numpy() == X.to_numpy()).all() and plain.columns[0] == "f1"


def test_load_csv_refuses_missing_labels_and_an_absent_positive(tmp_path):
    from rulelab import load_csv
    path = tmp_path / "own.csv"
    path.write_text("x,label\n1,yes\n2,no\n3,\n4,yes\n")
    with pytest.raises(ValueError, match="1 missing values"):
        load_csv(path, label="label", positive="yes")
    path.write_text("x,label\n1,yes\n2,no\n4,yes\n")
    with pytest.raises(ValueError, match=r"\['Yes'\] do not occur.*\['no', 'yes'\]"):
        load_csv(path, label="label", positive="Yes")
    X, y = load_csv(path, label="label", positive="yes")
    assert y.tolist() == [1, 0, 1] and list(X.columns) == ["x"]
