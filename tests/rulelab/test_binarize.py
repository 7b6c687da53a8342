"""FeatureBinarizer and CellBinarizer: thresholds in both directions, categoricals, NaN, readable
names, and awkward input (reordered names, huge ranges, infinities, complex, constants)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris

from rulelab import FeatureBinarizer
from rulelab.binarize import quantile_thresholds
from rulelab.grab import CellBinarizer


def test_numeric_columns_get_nested_thresholds_in_both_directions():
    X = load_iris(as_frame=True).data
    fb = FeatureBinarizer(n_thresholds=10).fit(X)
    A = fb.transform(X)
    names = fb.get_feature_names_out()
    assert len(names) == A.shape[1]
    for col, cuts in fb.thresholds_.items():
        le = [j for j, t in enumerate(fb.terms_) if t.feature == col and t.op == "<="]
        gt = [j for j, t in enumerate(fb.terms_) if t.feature == col and t.op == ">"]
        assert len(le) == len(gt) == len(cuts) <= 10
        # x <= t and x > t are complements, and the <= columns are nested.
        assert np.all(A[:, le] + A[:, gt] == 1)
        assert np.all(np.diff(A[:, le].astype(int), axis=1) >= 0)


def test_names_say_feature_operator_value():
    X = load_iris(as_frame=True).data
    names = FeatureBinarizer(n_thresholds=3).fit(X).get_feature_names_out()
    assert names[0] == "sepal length (cm) <= 5.10"
    assert "petal width (cm) > 0.300" in set(names)


def test_quantile_thresholds_drop_duplicates_and_the_maximum():
    cuts = quantile_thresholds(np.array([0, 0, 0, 0, 1, 2, 2.0]), 10)
    assert list(cuts) == sorted(set(cuts)) and cuts.max() < 2.0


def test_categoricals_two_valued_and_missing_columns():
    X = pd.DataFrame(
        {
            "colour": ["red", "blue", "green", "red"],
            "smoker": [0, 1, 1, 0],
            "age": [30.0, np.nan, 45.0, 60.0],
        }
    )
    fb = FeatureBinarizer(n_thresholds=2).fit(X)
    names = list(fb.get_feature_names_out())
    assert "colour == red" in names and "colour != blue" in names
    assert names.count("smoker == 1") == 1 and "smoker == 0" in names
    assert "age is missing" in names
    A = pd.DataFrame(fb.transform(X), columns=names)
    assert A["age is missing"].tolist() == [0, 1, 0, 0]
    # a missing age satisfies no threshold term in either direction
    assert A.filter(like="age <=").iloc[1].sum() == 0 and A.filter(like="age >").iloc[1].sum() == 0


def test_missing_error_mode_refuses_nan():
    X = pd.DataFrame({"a": [1.0, np.nan, 3.0]})
    with pytest.raises(ValueError, match="missing values"):
        FeatureBinarizer(missing="error").fit(X)


def test_transform_needs_the_columns_seen_in_fit():
    fb = FeatureBinarizer().fit(pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [1, 2, 3]}))
    with pytest.raises(ValueError, match="lacks columns"):
        fb.transform(pd.DataFrame({"a": [1.0]}))


# ---- awkward inputs: a correct result or an error that names the column --------------------
def test_cell_binarizer_finds_columns_by_name_whatever_their_order():
    X = pd.DataFrame({"a": [1.0, 2, 3, 4, 5], "b": [10.0, 20, 30, 40, 50]})
    cb = CellBinarizer(n_bins=3).fit(X)
    reordered = X[["b", "a"]].assign(extra=0)
    np.testing.assert_array_equal(cb.transform(reordered), cb.transform(X))
    with pytest.raises(ValueError, match=r"lacks columns seen in fit: \['a'\]"):
        cb.transform(X[["b"]].assign(c=X["a"]))


def test_integer_column_names_are_matched_by_name_not_position():
    X = pd.DataFrame(np.arange(30, dtype=float).reshape(10, 3) % 7)
    for binarizer in (CellBinarizer(n_bins=4), FeatureBinarizer(n_thresholds=3)):
        fitted = binarizer.fit(X)
        np.testing.assert_array_equal(fitted.transform(X[[2, 0, 1]]), fitted.transform(X))


@pytest.mark.parametrize("strategy", ["quantile", "uniform"])
def test_a_range_wider_than_the_largest_float_is_still_cut(strategy):
    X = pd.DataFrame({"a": [-1e308, -1e307, 0.0, 5.0, 1e307, 1e308]})
    fb = FeatureBinarizer(n_thresholds=3, strategy=strategy).fit(X)
    cuts = fb.thresholds_["a"]
    assert cuts.size >= 2 and np.isfinite(cuts).all()
    A = fb.transform(X)
    assert len({tuple(row) for row in A}) >= 3  # the column still separates rows
    cb = CellBinarizer(n_bins=4).fit(X)
    assert "a < inf" not in list(cb.get_feature_names_out())
    # -1e308 and 1e308 fall in the two outer cells, 0 and 5 in one inner cell
    B = cb.transform(X)
    cell = B.argmax(axis=1)
    assert cell[0] != cell[-1] and cell[2] == cell[3] and B.sum(axis=1).tolist() == [1] * 6
    edges = cb.specs_[0][1]
    np.testing.assert_allclose(edges, [-5e307, 0.0, 5e307], atol=1e293)


def test_cell_edges_of_an_ordinary_range_are_as_before():
    lo, hi = -4.8130, 17.25
    X = pd.DataFrame({"v": np.linspace(lo, hi, 40)})
    edges = CellBinarizer(n_bins=7).fit(X).specs_[0][1]
    np.testing.assert_array_equal(edges, lo + (hi - lo) / 7 * np.arange(1, 7))


@pytest.mark.parametrize(
    "binarizer", [FeatureBinarizer(), CellBinarizer()], ids=lambda b: type(b).__name__
)
def test_a_complex_column_is_refused_by_name(binarizer):
    X = pd.DataFrame({"ok": [1.0, 2.0, 3.0], "z": np.array([1 + 2j, 3 + 0j, 2 + 1j])})
    with pytest.raises(ValueError, match="column 'z' holds complex numbers"):
        binarizer.fit(X)
    fitted = binarizer.fit(X.assign(z=[1.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match="column 'z' holds complex numbers"):
        fitted.transform(X)


@pytest.mark.parametrize(
    "values",
    [[np.inf, 1.0, np.inf, 1.0], [-np.inf, np.inf, -np.inf, np.inf], [0.0, -np.inf, 0.0, 0.0]],
)
def test_two_valued_columns_with_infinities_binarise_correctly(values):
    X = pd.DataFrame({"a": values})
    for binarizer in (FeatureBinarizer(), CellBinarizer()):
        fitted = binarizer.fit(X)
        A = fitted.transform(X)
        # every term holds exactly where it says, and the two values are told apart
        for j, term in enumerate(fitted.terms_):
            np.testing.assert_array_equal(A[:, j], term.evaluate(X))
        rows = {tuple(r) for r in A}
        assert len(rows) == 2


def test_infinite_values_do_not_become_thresholds():
    X = pd.DataFrame({"a": [-np.inf, 1.0, 2.0, 3.0, 4.0, np.inf, np.inf]})
    fb = FeatureBinarizer(n_thresholds=5).fit(X)
    assert np.isfinite(fb.thresholds_["a"]).all()
    A = fb.transform(X)
    for j, term in enumerate(fb.terms_):
        np.testing.assert_array_equal(A[:, j], term.evaluate(X))
    assert fb.transform(X)[5].tolist() != fb.transform(X)[4].tolist()  # inf is told from 4
    with pytest.raises(ValueError, match="thresholds for column 'a' must be finite"):
        FeatureBinarizer(thresholds={"a": [np.nan]}).fit(X)


def test_constant_columns_give_no_terms_and_are_reported():
    X = pd.DataFrame(
        {
            "same": [7.0] * 4,
            "word": ["x"] * 4,
            "gone": [np.nan] * 4,
            "age": [20.0, 30.0, 40.0, 50.0],
        }
    )
    fb = FeatureBinarizer(n_thresholds=2).fit(X)
    assert {t.feature for t in fb.terms_} == {"age"}
    assert fb.constant_features_.tolist() == ["same", "word", "gone"]
    cb = CellBinarizer(n_bins=3).fit(X.drop(columns="gone"))
    assert {t.feature for t in cb.terms_} == {"age"}
    assert cb.constant_features_.tolist() == ["same", "word"]


def test_no_varying_column_is_a_clear_error_naming_the_columns():
    X = pd.DataFrame({"same": [7.0] * 4, "word": ["x"] * 4})
    with pytest.raises(
        ValueError, match=r"no column of X gives a Boolean term.*\['same', 'word'\]"
    ):
        FeatureBinarizer().fit(X)
    with pytest.raises(ValueError, match=r"no column of X gives an item.*\['same', 'word'\]"):
        CellBinarizer().fit(X)


def test_a_given_binary_column_stays_an_item_even_when_constant():
    # binary="keep" keeps the data's own 0/1 items: a1a has columns all 0 in training
    X = pd.DataFrame({"never": [0, 0, 0], "flag": [0, 1, 1]})
    assert list(CellBinarizer().fit(X).get_feature_names_out()) == ["never == 1", "flag == 1"]


def test_is_binary_frame_checks_every_dtype_block_and_value():
    from rulelab._validation import is_binary_frame

    rng = np.random.default_rng(5)
    cells = pd.DataFrame((rng.random((30, 12)) < 0.4).astype(np.uint8))
    assert is_binary_frame(cells)  # one uint8 block
    for dtype in (np.uint8, np.uint16, np.int64, np.float64):
        wrong = cells.astype(dtype)
        wrong.iloc[17, 9] = 2
        assert not is_binary_frame(wrong)
    mixed = cells.assign(f=np.r_[0.0, 1.0].repeat(15), b=np.arange(30) % 2 == 0)
    assert is_binary_frame(mixed)
    assert not is_binary_frame(mixed.assign(f=np.r_[0.0, np.nan].repeat(15)))  # NaN
    assert not is_binary_frame(mixed.assign(i=-np.ones(30, dtype=np.int8)))
    assert is_binary_frame(cells.iloc[:0])  # no rows: nothing but 0/1


def test_integer_columns_beyond_2_53_are_cut_on_their_exact_values():
    """float64 makes 2**62 + 1 and 2**62 + 2 one value: the cuts and cells are integers of
    the column, and each term holds where its integer comparison does."""
    from rulelab.grab import CellBinarizer

    ids = pd.DataFrame({"id": np.int64(2**62) + np.arange(40, dtype=np.int64)})
    fb = FeatureBinarizer(n_thresholds=3, thresholds={"id": [2**62 + 30]}).fit(ids)
    cuts = fb.thresholds_["id"].tolist()
    assert cuts == [2**62 + 9, 2**62 + 19, 2**62 + 29, 2**62 + 30]
    assert all(isinstance(t.value, int) for t in fb.terms_)
    A = fb.transform(ids)
    for j, t in enumerate(fb.terms_):
        wanted = [(v <= t.value) if t.op == "<=" else (v > t.value) for v in ids["id"].tolist()]
        assert A[:, j].tolist() == [int(w) for w in wanted]
    cells = CellBinarizer(n_bins=4).fit(ids)
    assert cells.transform(ids).sum(axis=0).tolist() == [10, 10, 10, 10]
    few = CellBinarizer(n_bins=50).fit(ids)  # fewer units than cells: one item per value
    assert [t.value for t in few.terms_] == ids["id"].tolist()
    assert (few.transform(ids) == np.eye(40, dtype=np.uint8)).all()


def test_thresholds_are_honoured_on_two_valued_columns_and_refused_on_categories():
    frame = pd.DataFrame(
        {"dose": [0.0, 10.0] * 5, "colour": ["red", "blue"] * 5, "flag": [True, False] * 5}
    )
    fb = FeatureBinarizer(thresholds={"dose": [2.5]}).fit(frame)
    assert [str(t) for t in fb.terms_ if t.feature == "dose"] == [
        "dose == 10",
        "dose == 0",
        "dose <= 2.50",
        "dose > 2.50",
    ]
    assert fb.transform(frame)[:, 2].tolist() == (frame.dose <= 2.5).astype(int).tolist()
    for column in ("colour", "flag"):
        with pytest.raises(ValueError, match=f"column '{column}', which is categorical"):
            FeatureBinarizer(thresholds={column: [1]}).fit(frame)
    with pytest.raises(ValueError, match="which is categorical"):
        FeatureBinarizer(categorical=["dose"], thresholds={"dose": [1]}).fit(frame)


@pytest.mark.parametrize("n_bins", [2.5, 3.0, "4", True, 0])
def test_cell_counts_that_are_not_whole_numbers_are_refused(n_bins):
    frame = pd.DataFrame({"x": np.arange(10.0)})
    with pytest.raises(ValueError, match="n_bins must be a whole number"):
        CellBinarizer(n_bins=n_bins).fit(frame)
