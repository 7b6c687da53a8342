"""Notebook 07's multiclass table (repro.benchmark.multiclass): data, one-vs-rest sizes, the tables."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.tree import DecisionTreeClassifier

from repro.benchmark import multiclass
from repro.benchmark.multiclass import (
    GASES,
    OneVsRestRules,
    claim_against,
    compare_to,
    error_pm,
    load_multiclass,
    multiclass_table,
    run_multiclass,
    size_cells,
)
from rulelab.colgen import ColumnGenerationRules
from tests.conftest import load_or_skip


def _records(errors: dict[str, list[float]], dataset: str = "iris") -> pd.DataFrame:
    """Fold records of the runner's shape: one row per (method, fold)."""
    return pd.DataFrame(
        [
            {
                "dataset": dataset,
                "method": m,
                "fold": i,
                "error": e,
                "n_rules": np.nan if m == "RF" else 2.0 + i,
                "n_terms": np.nan if m == "RF" else 4.0,
                "fit_time": 0.1,
            }
            for m, errs in errors.items()
            for i, e in enumerate(errs)
        ]
    )


def test_iris_is_read_with_its_class_names():
    X, y = load_multiclass("iris")
    assert X.shape == (150, 4)
    assert y.value_counts().to_dict() == {"setosa": 50, "versicolor": 50, "virginica": 50}


def test_a_row_cap_keeps_a_stratified_sample():
    X, y = load_multiclass("wine", max_rows=89)
    full = load_multiclass("wine")[1].value_counts()
    assert len(X) == len(y) == 89
    assert (abs(y.value_counts() - full / 2) <= 1).all()


def test_an_unknown_set_is_named_with_the_choices():
    with pytest.raises(ValueError, match="unknown multiclass set 'glass'.*iris"):
        load_multiclass("glass")


def test_the_generated_sets_hold_their_stated_structure():
    from repro.benchmark.multiclass import GENERATED_ROWS

    X, y = load_multiclass("led")
    assert X.shape == (GENERATED_ROWS, 7) and set(y) == {str(d) for d in range(10)}
    # an 8 lights every segment: with each flipped with probability 0.1, about 90 % are on
    assert abs(X[y == "8"].to_numpy().mean() - 0.9) < 0.03
    X, y = load_multiclass("planted")
    rule_a = (X.b0 == 1) & (X.b1 == 1) & (X.b2 == 1)
    # the rule's class on all but the redrawn labels (5 %, a quarter of them to A again)
    assert 0.93 < (y[rule_a] == "A").mean() < 0.99
    assert load_multiclass("planted")[1].equals(y)  # seeded: every run draws the same


def test_gas_labels_are_the_six_gases_with_the_registry_counts():
    load_or_skip("gas")
    _, y = load_multiclass("gas")
    counts = {"1": 1316, "2": 1664, "3": 681, "4": 592, "5": 1779, "6": 665}
    assert y.value_counts().to_dict() == {GASES[int(k) - 1]: n for k, n in counts.items()}


def test_one_vs_rest_counts_the_rules_and_terms_of_every_class():
    X, y = load_multiclass("iris")
    base = ColumnGenerationRules(complexity=0.01, form="dnf", random_state=0)
    model = OneVsRestRules(base).fit(X, y)
    rules = [est.rules_ for est in model.estimators_]
    assert model.complexity_() == (
        float(sum(r.n_rules for r in rules)),
        float(sum(r.n_terms for r in rules)),
    )
    assert np.mean(model.predict(X) != y) < 0.1


def test_the_methods_are_the_issue_s_five_with_cart_named_by_its_depth():
    methods, skipped = multiclass.multiclass_methods(cart_depth=4)
    assert set(methods) | set(skipped) == {"CG", "OvR-CG", "RIPPER", "CART-d4", "RF"}
    assert "CART" in multiclass.multiclass_methods(cart_depth=None, include=["CART"])[0]


def test_every_method_runs_on_the_same_folds_and_is_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("RULELAB_CACHE", str(tmp_path))
    methods = {"CART-d2": DecisionTreeClassifier(max_depth=2, random_state=0)}
    kw = dict(n_splits=5, max_folds=2, max_rows={"wine": 100}, progress=False)
    first = run_multiclass(methods, ["iris", "wine"], **kw)
    again = run_multiclass(methods, ["iris", "wine"], **kw)
    assert len(first) == 4 and again["cached"].all()
    assert first.groupby("dataset")["rows"].first().to_dict() == {"iris": 150, "wine": 100}
    # a tree of depth 2 has at most 4 leaves (rules) and 2 conditions on each path
    assert (first["n_rules"] <= 4).all() and (first["n_terms"] <= 8).all()
    assert first["error"].between(0, 0.5).all()


def test_no_set_gives_an_empty_table():
    assert run_multiclass({}, []).empty


def test_the_tables_print_error_with_its_standard_error_and_sizes():
    table = multiclass_table(_records({"CG": [0.0, 0.1], "RF": [0.1, 0.1]}))
    assert error_pm(table).loc["iris"].to_dict() == {"CG": "0.050 ± 0.050", "RF": "0.100 ± 0.000"}
    assert size_cells(table).loc["iris"].to_dict() == {"CG": "2.5 / 4.0", "RF": "-"}


def test_a_gap_beyond_one_paired_se_decides_and_a_smaller_one_is_a_tie():
    worse = _records({"CG": [0.2, 0.3, 0.2], "RIPPER": [0.1, 0.1, 0.1]})
    tied = _records({"CG": [0.1, 0.2, 0.1], "RIPPER": [0.2, 0.1, 0.1]}, dataset="wine")
    comp = compare_to(pd.concat([worse, tied]), "CG", "RIPPER")
    assert list(comp["verdict"]) == ["does not hold", "tie"]
    claim = claim_against(pd.concat([worse, tied]), "RIPPER")
    assert claim["verdict"] == "does not hold"
    assert "1 within 1 SE, 1 worse (iris 0.233 vs 0.100, wine 0.133 vs 0.133)" in claim["evidence"]
    assert claim_against(tied, "OvR-CG")["verdict"] == "not testable"
