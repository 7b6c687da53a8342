"""Datasets: every shipped set loads with the manifest's shape, checksums, fetch path, errors."""

from __future__ import annotations

import gzip
from pathlib import Path

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
    monkeypatch.setattr(data, "_verified", set())
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


def _fake_openml_wdbc(tmp_path, monkeypatch) -> Path:
    """Empty data folders and OpenML replaced by scikit-learn's bundled WDBC; returns the path
    the fetched copy is written to."""
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
    return tmp_path / "cache" / "data" / "wdbc.csv"


def test_openml_fetch_path_converts_to_our_frame(tmp_path, monkeypatch):
    """The OpenML path, with the network call replaced by scikit-learn's bundled WDBC."""
    cached = _fake_openml_wdbc(tmp_path, monkeypatch)
    X, y = rulelab.load_dataset("wdbc")
    assert X.shape == (569, 30) and int(y.sum()) == 212
    assert X.columns[0] == "radius_mean"
    assert cached.with_name("wdbc.csv.fetched").is_file()
    if DATA is not None:  # the fetched frame equals our copy
        ours = pd.read_csv(DATA / "wdbc.csv")
        np.testing.assert_allclose(
            X.to_numpy(float), ours.drop(columns="diagnosis").to_numpy(float)
        )


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
    assert (
        X.shape[1] == 123
        and X.columns[0] == "age=1/5"
        and X.columns[-1].startswith("native-country=")
    )
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


# ---- cached copies are checked against what is known of them ------------------------------
def test_a_fetched_copy_is_hashed_once_per_version_and_refused_once_truncated(
    tmp_path, monkeypatch
):
    cached = _fake_openml_wdbc(tmp_path, monkeypatch)
    hashed = []
    real_sha256 = data._sha256
    monkeypatch.setattr(data, "_sha256", lambda path: hashed.append(path) or real_sha256(path))
    for _ in range(3):  # fetched (its digest recorded), then read
        rulelab.load_dataset("wdbc")
    assert len(hashed) == 1  # the same file version is hashed once
    lines = cached.read_text().splitlines(keepends=True)
    cached.write_text("".join(lines[:50]))  # 49 rows left
    with pytest.raises(
        ValueError,
        match=r"wdbc\.csv does not match the checksum recorded.*"
        r"delete .*wdbc\.csv\.fetched",
    ):
        rulelab.load_dataset("wdbc")


def test_a_truncated_copy_without_a_recorded_digest_is_refused_by_its_shape(tmp_path, monkeypatch):
    """A copy fetched before digests were recorded is still checked: 49 rows of pima are not
    the 768 the registry knows."""
    cache = tmp_path / "cache" / "data"
    cache.mkdir(parents=True)
    info = DATASETS["pima"]
    r = np.random.default_rng(0)
    frame = pd.DataFrame(r.integers(0, 100, size=(49, 8)), columns=list(info.columns))
    frame["class"] = r.integers(0, 2, size=49)
    frame.to_csv(cache / "pima.csv", index=False)
    (cache / "pima.csv.fetched").write_text("openml:37\n")
    monkeypatch.setenv("RULELAB_DATA", str(tmp_path / "empty"))
    monkeypatch.setenv("RULELAB_CACHE", str(tmp_path / "cache"))
    with pytest.raises(
        ValueError,
        match=r"pima\.csv holds 49 rows .*expects 768 rows .*"
        r"delete .*pima\.csv\.fetched",
    ):
        rulelab.load_dataset("pima")
    frame.drop(columns="glucose").to_csv(cache / "pima.csv", index=False)
    with pytest.raises(ValueError, match=r"lacks the column\(s\) \['glucose'\]"):
        rulelab.load_dataset("pima")


def test_a_copy_that_cannot_be_parsed_is_refused_with_the_fix(tmp_path, monkeypatch):
    cache = tmp_path / "cache" / "data"
    cache.mkdir(parents=True)
    info = DATASETS["magic"]
    text = ",".join([*info.columns, "class"]) + "\n" + "1.5,2,3,4,5,6,7,8,9,10,g\n" * 5000
    whole = gzip.compress(text.encode())
    (cache / "magic.csv.gz").write_bytes(whole[: len(whole) // 2])
    (cache / "magic.csv.gz.fetched").write_text("openml:1120\n")
    monkeypatch.setenv("RULELAB_DATA", str(tmp_path / "empty"))
    monkeypatch.setenv("RULELAB_CACHE", str(tmp_path / "cache"))
    with pytest.raises(ValueError, match=r"magic\.csv\.gz (cannot be read|holds).*delete"):
        rulelab.load_dataset("magic")


@needs_data
def test_our_copy_is_hashed_again_after_it_changed(tmp_path, monkeypatch):
    import shutil

    shutil.copy(DATA / "bupa.csv", tmp_path / "bupa.csv")
    monkeypatch.setenv("RULELAB_DATA", str(tmp_path))
    hashed = []
    real_sha256 = data._sha256
    monkeypatch.setattr(data, "_sha256", lambda path: hashed.append(path) or real_sha256(path))
    rulelab.load_dataset("bupa")
    rulelab.load_dataset("liver")
    assert len(hashed) == 1
    with open(tmp_path / "bupa.csv", "a") as fh:
        fh.write("90,60,20,20,20,1,1\n")
    with pytest.raises(ValueError, match="registry's checksum for 'bupa'"):
        rulelab.load_dataset("bupa")
    assert len(hashed) == 2


# ---- load_csv keeps what the file says ----------------------------------------------------
def test_load_csv_keeps_na_like_strings_unless_asked(tmp_path):
    path = tmp_path / "countries.csv"
    path.write_text(
        "country,note,size,label\nNA,None,1.5,yes\nUS,null,,no\nFR,N/A,3,yes\nNA,nan,4,no\n"
    )
    X, y = rulelab.load_csv(path, label="label", positive="yes")
    assert X["country"].tolist() == ["NA", "US", "FR", "NA"]  # Namibia is kept
    assert X["note"].tolist() == ["None", "null", "N/A", "nan"]
    assert X["size"].isna().tolist() == [False, True, False, False]  # an empty field is missing
    X, _ = rulelab.load_csv(path, label="label", positive="yes", na_values=["null", "N/A"])
    assert X["note"].isna().tolist() == [False, True, True, False]
    assert X["country"].tolist() == ["NA", "US", "FR", "NA"]


def test_load_csv_refuses_a_repeated_header_naming_it(tmp_path):
    path = tmp_path / "dup.csv"
    path.write_text("a,b,a,label\n1,2,3,yes\n4,5,6,no\n")
    with pytest.raises(ValueError, match=r"repeats the column name\(s\) \['a'\]"):
        rulelab.load_csv(path, label="label", positive="yes")


def test_load_csv_refuses_rows_longer_than_the_header_instead_of_shifting_them(tmp_path):
    path = tmp_path / "long.csv"
    path.write_text("a,b,label\n1,2,3,yes\n4,5,6,no\n")  # pandas would index by column a
    with pytest.raises(ValueError, match=r"more fields than its header has names \(3\)"):
        rulelab.load_csv(path, label="label", positive="yes")
    path.write_text("a,b,label\n1,2,yes,\n4,5,no,\n")  # a trailing separator is fine
    X, y = rulelab.load_csv(path, label="label", positive="yes")
    assert X["a"].tolist() == [1, 4] and y.tolist() == [1, 0]
    path.write_text("")
    with pytest.raises(ValueError, match="is empty"):
        rulelab.load_csv(path, label="label", positive="yes")


def test_load_csv_refuses_an_unknown_categorical_column_listing_the_columns(tmp_path):
    path = tmp_path / "own.csv"
    path.write_text("zip,age,label\n1000,30,yes\n2000,40,no\n")
    with pytest.raises(
        ValueError, match=r"\['zipcode'\] are not feature columns.*\['zip', 'age'\]"
    ):
        rulelab.load_csv(path, label="label", positive="yes", categorical=["zipcode"])
    with pytest.raises(ValueError, match=r"\['label'\] are not feature columns"):
        rulelab.load_csv(path, label="label", positive="yes", categorical=["label"])
    X, _ = rulelab.load_csv(path, label="label", positive="yes", categorical=["zip"])
    assert isinstance(X["zip"].dtype, pd.CategoricalDtype) and X["age"].dtype.kind == "i"


@pytest.mark.parametrize("positive", [1.0, 1, "1", [1.0], (1, 3.0), np.float64(1.0)])
def test_load_csv_takes_a_numeric_positive_as_a_scalar_or_a_list(tmp_path, positive):
    path = tmp_path / "numeric.csv"
    path.write_text("x,grade\n1,1\n2,2\n3,3\n4,1\n")
    _, y = rulelab.load_csv(path, label="grade", positive=positive)
    wanted = {1: [1, 0, 0, 1], 2: [1, 0, 1, 1]}[len(np.atleast_1d(positive))]
    assert y.tolist() == wanted


def test_load_csv_names_a_positive_label_that_is_not_in_y(tmp_path):
    path = tmp_path / "numeric.csv"
    path.write_text("x,grade\n1,1\n2,2\n")
    with pytest.raises(ValueError, match=r"\[2\.5\] do not occur in column 'grade'.*\['1', '2'\]"):
        rulelab.load_csv(path, label="grade", positive=2.5)
    with pytest.raises(ValueError, match=r"\['pass'\] do not occur"):
        rulelab.load_csv(path, label="grade", positive=[1, "pass"])


@needs_data
def test_load_dataset_takes_a_float_positive():
    _, y = rulelab.load_dataset("gas", positive=1.0)
    assert int(y.sum()) == 1316
    with pytest.raises(ValueError, match=r"\[7\] do not occur in data set 'gas_drift_partial'"):
        rulelab.load_dataset("gas", positive=7)


def test_a_marker_without_a_digest_outside_the_cache_leaves_the_checksum_on(tmp_path, monkeypatch):
    """Only fetched copies, which live in the cache, may lack the registry's checksum: a
    ``.fetched`` marker beside a file in RULELAB_DATA turned the byte check off there."""
    folder = tmp_path / "data"
    folder.mkdir()
    info = DATASETS["pima"]
    frame = pd.DataFrame(np.zeros((49, 8), dtype=int), columns=list(info.columns))
    frame["class"] = 0
    frame.to_csv(folder / "pima.csv", index=False)
    (folder / "pima.csv.fetched").write_text("openml:37\n")
    monkeypatch.setenv("RULELAB_DATA", str(folder))
    monkeypatch.setenv("RULELAB_CACHE", str(tmp_path / "cache"))
    with pytest.raises(ValueError, match=r"does not match the registry's checksum .*replace it"):
        rulelab.load_dataset("pima")


def test_load_csv_refuses_a_short_row_by_its_line_number(tmp_path):
    """pandas fills a short row with missing values; with the label last it blamed the label."""
    path = tmp_path / "short.csv"
    path.write_text('a,b,outcome\n1,"x,y",yes\n2,z,no\n\n3,no\n4,w,yes\n')
    with pytest.raises(
        ValueError, match=r"line 5 of short\.csv has 2 field\(s\) but the header names 3"
    ):
        rulelab.load_csv(path, label="outcome", positive="yes")


@pytest.mark.parametrize("sep", ["\t", r"\s+", "::", "[|;]"])
def test_load_csv_reads_any_separator_and_refuses_a_short_row_by_its_line(tmp_path, sep):
    """A separator longer than one character is a regular expression: the short row went
    unchecked (whitespace: the label blamed) or every file was refused as having too many
    fields (pandas' note that it falls back to its python engine, taken for that error)."""
    glue = {r"\s+": "  ", "[|;]": "|"}.get(sep, sep)
    rows = [["a", "b", "outcome"], ["1", "x", "yes"], ["2", "z", "no"], ["3", "w", "yes"]]
    path = tmp_path / "table.txt"
    path.write_text("".join(glue.join(r) + "\n" for r in rows))
    X, y = rulelab.load_csv(path, label="outcome", positive="yes", sep=sep)
    assert X["a"].tolist() == [1, 2, 3] and y.tolist() == [1, 0, 1]
    rows[2] = ["2", "no"]
    path.write_text("".join(glue.join(r) + "\n" for r in rows))
    with pytest.raises(ValueError, match=r"line 3 of table\.txt has 2 field\(s\) but the header"):
        rulelab.load_csv(path, label="outcome", positive="yes", sep=sep)


@pytest.mark.parametrize("encoding", ["latin-1", "utf-16"])
def test_load_csv_names_the_file_and_the_fix_when_the_encoding_is_wrong(tmp_path, encoding):
    path = tmp_path / "café.csv"
    path.write_text("city,outcome\nSão Paulo,yes\nZürich,no\n", encoding=encoding)
    with pytest.raises(ValueError, match=r"café\.csv is not utf-8 text .*encoding='latin-1'"):
        rulelab.load_csv(path, label="outcome", positive="yes")
    X, y = rulelab.load_csv(path, label="outcome", positive="yes", encoding=encoding)
    assert X["city"].tolist() == ["São Paulo", "Zürich"] and y.tolist() == [1, 0]


@pytest.mark.parametrize(
    "written, told, message",
    [
        ("utf-16-le", "utf-8", r"line 1 of t\.csv holds NUL characters.*encoding='utf-16'"),
        ("utf-8", "utf-16", r"t\.csv is not utf-16 text \(UTF-16 stream does not start"),
    ],
    ids=["UTF-16 without a byte-order mark", "UTF-8 read as UTF-16"],
)
def test_load_csv_names_the_encoding_when_the_text_only_half_decodes(
    tmp_path, written, told, message
):
    """UTF-16 without a byte-order mark is valid UTF-8 (every other byte NUL): its lines were
    refused as short rows; the UTF-16 codec's own error has no byte and raised AttributeError."""
    path = tmp_path / "t.csv"
    path.write_text("city,outcome\nLima,yes\nOslo,no\n", encoding=written)
    with pytest.raises(ValueError, match=message):
        rulelab.load_csv(path, label="outcome", positive="yes", encoding=told)


def test_load_csv_reads_decimal_commas_when_told_and_warns_when_not(tmp_path):
    path = tmp_path / "komma.csv"
    path.write_text("dose;count;outcome\n1,5;3;ja\n2,25;4;nein\n-0,75;5;ja\n")
    X, y = rulelab.load_csv(path, label="outcome", positive="ja", sep=";", decimal=",")
    assert X["dose"].tolist() == [1.5, 2.25, -0.75] and X["count"].tolist() == [3, 4, 5]
    with pytest.warns(
        UserWarning, match=r"\['dose'\] hold numbers written with a decimal comma.*decimal=','"
    ):
        X, _ = rulelab.load_csv(path, label="outcome", positive="ja", sep=";")
    assert isinstance(X["dose"].dtype, pd.CategoricalDtype)


def test_load_csv_warns_when_decimal_points_are_read_with_a_decimal_comma(tmp_path):
    """decimal=',' leaves 1.5 as text, which became a category as silently as 1,5 did."""
    path = tmp_path / "punkt.csv"
    path.write_text("dose;outcome\n1.5;ja\n2.25;nein\n3;ja\n")
    with pytest.warns(UserWarning, match=r"\['dose'\] hold numbers written with a decimal point"):
        rulelab.load_csv(path, label="outcome", positive="ja", sep=";", decimal=",")
    X, _ = rulelab.load_csv(path, label="outcome", positive="ja", sep=";")
    assert X["dose"].tolist() == [1.5, 2.25, 3.0]
