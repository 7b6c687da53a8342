"""The committed fit records: derived outputs rebuild from them without fitting, a code
change to a fit marks exactly its records stale, and a verify run recomputes a sample."""

from __future__ import annotations

import json

import pytest

from repro import cache, fitstore
from repro.runner import run_units


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
    assert fitstore.write("99_demo", store.read_text()) == 3
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
    fitstore.write("99_demo", store.read_text())
    assert fitstore.stale_units("99_demo") == (2, [])
    monkeypatch.setattr(fitstore, "key_of_specs", lambda specs: "other code")
    units, stale = fitstore.stale_units("99_demo")
    assert units == 2 and len(stale) == 2


def test_a_damaged_store_is_named(store, tmp_path):
    folder = tmp_path / "fits"
    folder.mkdir()
    (folder / "99_demo.jsonl").write_text('{"kind": "demo", "name": "a.json", "record": 1}\n{"ki')
    with pytest.raises(ValueError, match="99_demo.jsonl line 2 is not JSON"):
        fitstore.read("99_demo")
    (folder / "99_demo.jsonl").write_text("{}\n")
    with pytest.raises(ValueError, match="line 1 is not a fit record"):
        fitstore.read("99_demo")


def test_a_verify_run_recomputes_the_sampled_units_and_compares_them(store, tmp_path, monkeypatch):
    tasks = [{"x": x, "log": str(tmp_path / "calls")} for x in (1, 2, 3)]
    run_units(_logged, tasks, "demo", progress=False)
    fitstore.write("99_demo", store.read_text())
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
        if row["key"]["x"] == 2:
            row["record"][0]["square"] = 5
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
    from repro.pipeline import sample_units

    units = [{"kind": k, "name": f"{k}{i}.json"} for k in ("a", "b") for i in range(5)]
    units.append({"kind": "c", "name": "c0.json"})
    chosen = sample_units(units, 2, seed=1)
    assert sorted(r["kind"] for r in chosen) == ["a", "a", "b", "b", "c"]
    assert chosen == sample_units(units, 2, seed=1)
    assert chosen != sample_units(units, 2, seed=2) or chosen == sample_units(units, 2, seed=3)


def test_a_cache_that_cannot_be_written_is_skipped_not_fatal(store, tmp_path, monkeypatch):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    monkeypatch.setenv("RULELAB_CACHE", str(ro))
    try:
        assert cache.cached("demo", {"a": 1}, lambda: {"v": 1}, code=_square) == {"v": 1}
    finally:
        ro.chmod(0o700)
