"""The committed fit records: derived outputs rebuild from them without fitting, a code
change to a fit marks exactly its records stale, and a verify run recomputes a sample."""

from __future__ import annotations

import json

import pytest

from repro.core import cache, fitstore
from repro.core.runner import run_units


def _square(x):
    return {"x": x, "square": x * x, "fit_time": 0.5 * x}


@pytest.fixture
def store(tmp_path, monkeypatch):
    """An empty local cache, an empty committed store and a tally, as a pipeline run has."""
    monkeypatch.setenv("RULELAB_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("RULELAB_FITS", str(tmp_path / "fits"))
    tally = tmp_path / "tally"
    tally.touch()
    monkeypatch.setenv(cache.TALLY_ENV, str(tally))
    fitstore._index.cache_clear()
    yield tally
    fitstore._index.cache_clear()


def _calls(tmp_path):
    log = tmp_path / "calls"
    return log.read_text().split() if log.is_file() else []


def _logged(x, log):
    with open(log, "a", encoding="utf-8") as out:
        out.write(f"{x}\n")
    return _square(x)


def test_a_fresh_clone_reads_the_committed_fits_and_computes_none(store, tmp_path, monkeypatch):
    tasks = [{"x": x, "log": str(tmp_path / "calls")} for x in (1, 2, 3)]
    first = run_units(_logged, tasks, "demo", progress=False)
    assert _calls(tmp_path) == ["1", "2", "3"]
    assert fitstore.write("99_demo", store.read_text(), local=cache.local_record) == 3
    rows = fitstore.read("99_demo")
    assert {r["key"]["x"] for r in rows} == {1, 2, 3}  # each fit's key beside its record
    assert all(r["code_key"] == "external" and r["code"] == [] for r in rows)  # not our code

    monkeypatch.setenv("RULELAB_CACHE", str(tmp_path / "empty"))  # a fresh clone
    again = run_units(_logged, tasks, "demo", progress=False)
    assert again == first
    assert _calls(tmp_path) == ["1", "2", "3"]  # nothing computed
    # a unit the committed run never had is computed
    run_units(_logged, [{"x": 4, "log": str(tmp_path / "calls")}], "demo", progress=False)
    assert _calls(tmp_path) == ["1", "2", "3", "4"]


def test_a_changed_fit_code_marks_its_records_stale(store, monkeypatch):
    run_units(_square, [{"x": 1}, {"x": 2}], "demo", progress=False)
    fitstore.write("99_demo", store.read_text(), local=cache.local_record)
    assert fitstore.stale_units("99_demo") == (2, [])
    monkeypatch.setattr(fitstore, "key_of_specs", lambda specs: "other code")
    units, stale = fitstore.stale_units("99_demo")
    assert units == 2 and len(stale) == 2


def test_a_damaged_store_is_named(store, tmp_path):
    folder = tmp_path / "fits"
    folder.mkdir()
    good = {"kind": "demo", "name": "a.json", "record": cache.seal(1)}
    (folder / "99_demo.jsonl").write_text(json.dumps(good) + '\n{"ki')
    with pytest.raises(ValueError, match="99_demo.jsonl line 2 is damaged"):
        fitstore.read("99_demo")
    (folder / "99_demo.jsonl").write_text("{}\n")
    with pytest.raises(ValueError, match="line 1 is damaged .not a fit record"):
        fitstore.read("99_demo")
    edited = {**good, "record": {**good["record"], "record": 2}}  # a value changed by hand
    (folder / "99_demo.jsonl").write_text(json.dumps(edited) + "\n")
    with pytest.raises(ValueError, match="does not match its digest"):
        fitstore.read("99_demo")
    # a run does not stop on it: the unit is computed again, its record never read
    assert fitstore.read("99_demo", strict=False) == []
    assert fitstore.lookup("demo/a.json") is None


@pytest.mark.parametrize("damage", ["{}", '{"format": "rulelab-record-1", "rec', "edited"])
def test_a_damaged_cache_record_is_named_set_aside_and_computed_again(
    store, tmp_path, damage, capsys
):
    calls = []

    def compute():
        calls.append(1)
        return {"error": 0.25, "folds": [0.2, 0.3]}

    first = cache.cached("demo", {"a": 1}, compute, code=_square)
    path = cache.unit("demo", {"a": 1}, _square).path
    if damage == "edited":
        sealed = json.loads(path.read_text())
        sealed["record"]["error"] = 0.5
        damage = json.dumps(sealed)
    path.write_text(damage)
    again = cache.cached("demo", {"a": 1}, compute, code=_square)
    assert again == first and len(calls) == 2  # recomputed, never read as a result
    assert path.with_suffix(".bad").read_text() == damage  # set aside for the user to see
    said = capsys.readouterr().err
    assert f"damaged cache record demo/{path.name}" in said and "computed again" in said
    assert cache.cached("demo", {"a": 1}, compute, code=_square) == first and len(calls) == 2


def test_a_verify_run_recomputes_the_sampled_units_and_compares_them(store, tmp_path, monkeypatch):
    tasks = [{"x": x, "log": str(tmp_path / "calls")} for x in (1, 2, 3)]
    run_units(_logged, tasks, "demo", progress=False)
    fitstore.write("99_demo", store.read_text(), local=cache.local_record)
    rows = {r["key"]["x"]: r for r in fitstore.read("99_demo")}
    sample, log = tmp_path / "sample", tmp_path / "verify"
    sample.write_text(f"demo/{rows[2]['name']}\n")
    monkeypatch.setenv("RULELAB_CACHE", str(tmp_path / "empty"))
    monkeypatch.setenv(cache.VERIFY_ENV, str(sample))
    monkeypatch.setenv(cache.VERIFY_LOG_ENV, str(log))
    run_units(_logged, tasks, "demo", progress=False)
    assert _calls(tmp_path) == ["1", "2", "3", "2"]  # only the sampled unit again
    assert [json.loads(line)["same"] for line in log.read_text().splitlines()] == [True]

    # a committed record the code no longer produces is reported, not hidden
    path = fitstore.store_path("99_demo")
    lines = path.read_text().splitlines()
    tampered = [json.loads(line) for line in lines]
    for row in tampered:
        if row["key"]["x"] == 2:  # a whole record, sealed, that the code does not produce
            record = cache.unseal(row["record"])
            record[0]["square"] = 5
            row["record"] = cache.seal(record)
    path.write_text("".join(json.dumps(r) + "\n" for r in tampered))
    fitstore._index.cache_clear()
    log.write_text("")
    run_units(_logged, tasks, "demo", progress=False)
    assert [json.loads(line)["same"] for line in log.read_text().splitlines()] == [False]


def test_records_compare_with_the_clock_left_out():
    assert cache.same_record({"a": 1, "fit_time": 1.0}, {"a": 1, "fit_time": 9.0})
    assert cache.same_record([{"a": 1, "seconds": 2}], [{"a": 1, "seconds": 3}])
    assert not cache.same_record({"a": 1, "fit_time": 1.0}, {"a": 2, "fit_time": 1.0})
    assert not cache.same_record({"error": 0.1}, {"error": 0.1000001})


def test_the_verify_sample_takes_every_kind_and_is_seeded():
    from repro.core.pipeline import sample_units

    units = [{"kind": k, "name": f"{k}{i}.json"} for k in ("a", "b") for i in range(5)]
    units.append({"kind": "c", "name": "c0.json"})
    chosen = sample_units(units, 2, seed=1)
    assert sorted(r["kind"] for r in chosen) == ["a", "a", "b", "b", "c"]
    assert chosen == sample_units(units, 2, seed=1)
    assert chosen != sample_units(units, 2, seed=2) or chosen == sample_units(units, 2, seed=3)


def test_a_cache_that_cannot_be_written_is_skipped_not_fatal(store, tmp_path, monkeypatch, capsys):
    # a cache path under a file cannot be created, whoever runs the test (root included)
    (tmp_path / "a-file").write_text("")
    monkeypatch.setenv("RULELAB_CACHE", str(tmp_path / "a-file" / "cache"))
    monkeypatch.setattr(cache, "_said", set())
    for a in (1, 2, 3):
        assert cache.cached("demo", {"a": a}, lambda a=a: {"v": a}, code=_square) == {"v": a}
    said = capsys.readouterr().err
    assert said.count("cannot be written") == 1 and "RULELAB_CACHE" in said  # said once
