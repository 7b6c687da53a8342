"""Run every notebook through papermill and write the reproduction report.

    python -m repro.pipeline --mode full  --jobs 2     # the main job (make reproduce)
    python -m repro.pipeline --mode quick --only 00    # one notebook, QUICK settings
    python -m repro.pipeline --only 02 --param "DATASETS=[pima, sonar]"   # other parameters

Each notebook decides where it writes from its own parameters (:mod:`repro.core.runs`): a FULL
run with the defaults writes ``results/``, ``figures/``, ``REPORT.md`` and the README's
results section, keeps its executed copy in ``runs/full/`` and refreshes the notebook in
``notebooks/``, so that the committed notebooks show the outputs of a full reproduction.
Any other run -- ``--mode quick``, ``--param`` -- writes everything (executed notebooks,
tables, figures, run log and report) under ``runs/<its parameters>/`` (``runs/quick/``,
``runs/DATASETS-pima+sonar/``) and leaves the committed outputs alone, unless
``--into-committed`` (the notebooks' ``INTO_COMMITTED`` parameter) says that it is a
(partial) FULL reproduction meant to refresh them.
A notebook that fails is reported and the others still run. Long experiments inside the
notebooks cache their finished work, so running the command again resumes.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import fcntl
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from repro.core import cache, fitstore
from repro.core.cache import TALLY_ENV, VERIFY_ENV, VERIFY_LOG_ENV, earlier_reads
from repro.core.fingerprint import notebook_fingerprint, stale_notebooks
from repro.core.outputs import (
    MANIFEST_ENV,
    damaged_outputs,
    file_digest,
    replacing,
    sweep_leftovers,
    text_digest,
    write_text,
)
from repro.core.progress import Progress, quiet_kernel_warnings
from repro.core.report import ROOT, readme_results, results_dir, update_readme, write_report

NOTEBOOKS = ROOT / "notebooks"


CODE_PATHS = ("rulelab", "repro", "pyproject.toml")


def code_version() -> str:
    """The last commit that changed the code the notebooks run ("+changes" when the working
    tree's code differs from it), so that every row of the run log says which code produced
    it; "" outside a checkout.

    The code is rulelab/, repro/ and pyproject.toml. A FULL reproduction committed in parts
    (one notebook's outputs per commit) therefore names one commit, however many output
    commits follow it; each notebook's own cells are covered by its fingerprint.
    """

    def git(*args):
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=30)

    try:
        last = git("log", "-1", "--format=%h", "--", *CODE_PATHS)
        if last.returncode != 0:
            return ""
        dirty = git("status", "--porcelain", "--", *CODE_PATHS).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""
    return last.stdout.strip() + ("+changes" if dirty else "")


# The packages whose versions can move a committed number: the numerical stack, the solvers
# and the peers of notebook 07 (BRCG's LPs run through cvxpy and HiGHS).
ENVIRONMENT_PACKAGES = (
    "numpy",
    "pandas",
    "scikit-learn",
    "scipy",
    "cvxpy",
    "highspy",
    "numba",
    "xgboost",
    "aix360",
    "wittgenstein",
    "imodels",
)


def environment() -> str:
    """The Python and package versions a run used, e.g. "python 3.11.9, numpy 2.4.6, ...",
    so that a number that moves between runs of the same code can be traced to an upgrade
    (the installed versions are not pinned). Packages that are not installed are left out."""
    from importlib.metadata import PackageNotFoundError, version

    parts = [f"python {sys.version.split()[0]}"]
    for name in ENVIRONMENT_PACKAGES:
        try:
            parts.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            continue
    return ", ".join(parts)


def _children_cpu() -> float:
    """CPU seconds (user + system) of this process's finished children and their reaped
    descendants: a notebook's kernel and its workers once the kernel has shut down. Divided
    by a notebook's wall time it says how many of the cores the run kept busy, which is
    where a cold reproduction can still gain from running work side by side."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def discover(only: list[str] | None = None) -> list[Path]:
    """The notebooks in reading order, optionally those whose name starts with ``only``."""
    found = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    if only:
        found = [p for p in found if any(p.name.startswith(o) for o in only)]
    return found


def notebook_parameters(path: Path) -> set[str]:
    """Names assigned in the notebook's cell tagged ``parameters`` (read, not executed)."""
    import ast

    import nbformat

    nb = nbformat.read(path, as_version=4)
    names: set[str] = set()
    for cell in nb.cells:
        if cell.cell_type == "code" and "parameters" in cell.metadata.get("tags", []):
            for node in ast.walk(ast.parse(cell.source)):
                if isinstance(node, (ast.Assign, ast.AnnAssign)):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    names |= {t.id for t in targets if isinstance(t, ast.Name)}
    return names


def check_request(only: list[str] | None, params: dict) -> list[Path]:
    """The notebooks a run would execute, or a ValueError naming what is wrong: a prefix
    that matches no notebook, a parameter some selected notebook does not declare
    (papermill would silently ignore it, and the run would report parameters it never
    used), or a value that does not fit its parameter."""
    every, found = discover(None), discover(only)
    unknown = [o for o in (only or []) if not any(p.name.startswith(o) for p in every)]
    if unknown or not found:
        raise ValueError(
            f"no notebook matches --only {' '.join(unknown or only or [])}; the "
            f"notebooks are: {', '.join(p.stem for p in every)}"
        )
    from repro.core.runs import plan_run

    for nb in found:
        declared = notebook_parameters(nb)
        missing = sorted(set(params) - declared)
        if missing:
            raise ValueError(
                f"{nb.stem} has no parameter {', '.join(missing)}; its parameters "
                f"are: {', '.join(sorted(declared))}"
            )
        plan_run(nb.stem, params)  # a value that does not fit its parameter is named here
    return found


def _save_without_injected_parameters(executed: Path, target: Path) -> None:
    """Copy an executed notebook, dropping papermill's injected parameters cell: it would pin
    ``QUICK = False`` and make the QUICK test run (nbval) execute the FULL experiments."""
    import nbformat

    nb = nbformat.read(executed, as_version=4)
    nb.cells = [c for c in nb.cells if "injected-parameters" not in c.metadata.get("tags", [])]
    # Papermill records where it read and wrote the notebook: machine paths, not results.
    for key in ("input_path", "output_path"):
        nb.metadata.get("papermill", {}).pop(key, None)
    drop_solver_banners(nb)
    drop_progress_bars(nb)
    with replacing(target) as tmp:
        nbformat.write(nb, tmp)


# HiGHS prints its banner once per process, in whichever cell first calls it: kept in a
# committed output it makes nbval's checked cells depend on the order of execution.
SOLVER_BANNER = ("Running HiGHS ", "Includes third-party software components")


def drop_solver_banners(nb) -> None:
    """Remove the solver's banner lines from every stream output of ``nb`` (in place)."""
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream":
                lines = out["text"].splitlines(keepends=True)
                out["text"] = "".join(ln for ln in lines if not ln.startswith(SOLVER_BANNER))
        if "outputs" in cell:
            cell["outputs"] = [
                o for o in cell["outputs"] if o.get("output_type") != "stream" or o["text"]
            ]


_PROGRESS = re.compile(r"\d+%\|")
_WIDGET = "application/vnd.jupyter.widget-view+json"


def drop_progress_bars(nb) -> None:
    """Remove progress-bar widgets from ``nb`` (in place): saved, a widget shows only the
    text it had when it was created ("0%|"), a frozen bar beside a finished result. The
    widget state goes too when no other widget output is left."""
    for cell in nb.cells:
        if "outputs" in cell:
            cell["outputs"] = [
                o
                for o in cell["outputs"]
                if not (
                    _WIDGET in o.get("data", {})
                    and _PROGRESS.search("".join(o["data"].get("text/plain", "")))
                )
            ]
    if not any(_WIDGET in o.get("data", {}) for c in nb.cells for o in c.get("outputs", [])):
        nb.metadata.pop("widgets", None)


class RunLogError(ValueError):
    """The run log cannot be read: its message names the file and the way out."""


def read_run_log(path: Path) -> dict | None:
    """The run log at ``path`` (None when there is none), or a :class:`RunLogError` that
    names it when it is damaged: a guess would call every output current, or stale."""
    if not path.is_file():
        return None
    fix = (
        f"restore it (`git checkout -- {_shown(path)}`) or move it aside; without a run log "
        "nothing vouches for the committed outputs until the next full run writes one"
    )
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise RunLogError(f"the run log {_shown(path)} is damaged ({err}): {fix}") from None
    entries = record.get("notebooks") if isinstance(record, dict) else None
    if not isinstance(entries, list) or not all(
        isinstance(e, dict) and "notebook" in e for e in entries
    ):
        raise RunLogError(f"{_shown(path)} is not a run log (no list of notebooks): {fix}")
    return record


@contextlib.contextmanager
def _log_lock(run_log: Path):
    """Hold the run log's lock: two runs that finish at once merge their entries in turn
    instead of one overwriting the other's."""
    run_log.parent.mkdir(parents=True, exist_ok=True)
    with open(run_log.parent / ".run_log.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def output_digests(manifest_text: str, root: Path) -> dict[str, str]:
    """``{path relative to root: digest}`` of the outputs a run wrote under ``root``."""
    found = {}
    for line in manifest_text.splitlines():
        path = Path(line)
        if path.is_file() and path.is_relative_to(root.resolve()):
            found[path.relative_to(root.resolve()).as_posix()] = file_digest(path)
    return dict(sorted(found.items()))


def _sweep_partial_writes(root: Path) -> None:
    """Remove the temporary files a killed run left beside its outputs (the outputs
    themselves are whole: :func:`repro.core.outputs.replacing`)."""
    for folder in (root / "results", root / "results" / "fits", root / "figures", NOTEBOOKS):
        sweep_leftovers(folder)


def derived_digests(root: Path) -> dict[str, str]:
    """Digests of what a run writes from its log: ``REPORT.md`` and, for the committed
    outputs, the README's results section (``README.md#results``; the rest of the README
    is prose that people edit)."""
    found = {}
    if (root / "REPORT.md").is_file():
        found["REPORT.md"] = file_digest(root / "REPORT.md")
    section = readme_results() if root == ROOT else ""
    if section:
        found["README.md#results"] = text_digest(section)
    return found


def merge_log(earlier: list[dict], latest: list[dict]) -> list[dict]:
    """The last run of every notebook: ``latest`` entries replace ``earlier`` ones of the same
    notebook, so a run of some notebooks (``--only``) keeps the record of the others."""
    ran = {entry["notebook"] for entry in latest}
    kept = [entry for entry in earlier if entry["notebook"] not in ran]
    return sorted(kept + latest, key=lambda entry: entry["notebook"])


def parse_params(pairs: list[str] | None) -> dict:
    """``["DATASETS=[pima, sonar]", "LAM=100"]`` -> ``{"DATASETS": ["pima", "sonar"], "LAM": 100}``
    (each value read as YAML, as papermill's ``-y`` does)."""
    import yaml

    params = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep or not name.isidentifier():
            raise ValueError(f"--param expects NAME=VALUE, got {pair!r}")
        try:
            params[name] = yaml.safe_load(value)
        except yaml.YAMLError as err:
            raise ValueError(f"--param {name}: {value!r} is not a YAML value ({err})") from err
    return params


def run_notebook(
    notebook: str, mode: str = "quick", jobs: int = 2, params: dict | None = None
) -> int:
    """Run one notebook as ``python -m repro.pipeline --only NN`` does; 0 when it ran, 1
    when it failed. ``params`` override its parameters (the run then writes under
    ``runs/``, see :func:`repro.core.runs.start_run`)."""
    given = dict(params or {})
    check_request([notebook[:2]], given)  # a ValueError naming a wrong parameter or value
    return 1 if run(mode, jobs, [notebook[:2]], None, given) else 0


def run(
    mode: str = "full",
    jobs: int = 2,
    only: list[str] | None = None,
    kernel: str | None = None,
    params: dict | None = None,
    into_committed: bool = False,
) -> int:
    """Execute the notebooks; return the number that failed.

    ``params`` override parameters of every notebook run (e.g. ``DATASETS``); the run log
    records them. Each notebook decides where it writes from its own parameters
    (:func:`repro.core.runs.start_run`): a FULL run with the defaults writes the committed
    outputs, any other run ``runs/<its parameters>/`` (executed notebooks, tables, figures,
    run log, report), unless ``into_committed`` (the notebooks' ``INTO_COMMITTED``
    parameter): a FULL run over part of the data meant to refresh the committed outputs.
    Only notebooks that ran to the end are logged: a failed notebook leaves its committed
    copy, its run-log entry and the report as they were (a run where every notebook failed
    writes nothing).
    """
    import papermill as pm

    from repro.core.runs import plan_run

    quick = mode == "quick"
    # Kernels inherit the environment: interactive widgets fall back to static tables, and
    # RULELAB_QUICK=1 turns every notebook's QUICK on.
    os.environ["RULELAB_HEADLESS"] = "1"
    os.environ["RULELAB_QUICK"] = "1" if quick else "0"
    given = dict(params or {})
    if into_committed:
        given["INTO_COMMITTED"] = True
    started, t0 = dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), time.time()
    code, env = code_version(), environment()
    logs: dict[Path, list[dict]] = {}  # output root -> the notebooks that wrote there
    requested = check_request(only, given)
    for nb in requested:  # a damaged run log stops the run before any work, not after it
        root = plan_run(nb.stem, given).root
        read_run_log(root / "results" / "run_log.json")
        _sweep_partial_writes(root)
    for nb in requested:
        # --jobs goes to the notebooks that parallelise (they declare N_JOBS); papermill
        # would warn of an unknown parameter in the others
        jobs_param = {"N_JOBS": jobs} if "N_JOBS" in notebook_parameters(nb) else {}
        plan = plan_run(nb.stem, {**jobs_param, **given})  # what the notebook decides
        out_dir = ROOT / "runs" / mode if plan.committed else plan.root
        out_dir.mkdir(parents=True, exist_ok=True)
        out = out_dir / nb.name
        print(f"[rulelab] {nb.name} ({mode}): {plan.describe()}", flush=True)
        fingerprint = notebook_fingerprint(nb)  # the code this run's outputs come from
        # the kernel adds a line here for every result it writes to or reads from the cache: a
        # run that read none it had not written is a cold run, and its time is a fresh clone's
        tally = Path(tempfile.mkstemp(prefix="rulelab-cache-reads-")[1])
        os.environ[TALLY_ENV] = str(tally)
        manifest = Path(tempfile.mkstemp(prefix="rulelab-outputs-")[1])
        os.environ[MANIFEST_ENV] = str(manifest)
        t, cpu = time.time(), _children_cpu()
        total = len(fitstore.read(nb.stem)) or None  # the units of the last committed run
        try:
            with Progress(tally, nb.stem, total):
                pm.execute_notebook(
                    str(nb),
                    str(out),
                    parameters={**jobs_param, **given},
                    cwd=str(NOTEBOOKS),
                    kernel_name=kernel,
                    progress_bar=False,
                    **quiet_kernel_warnings(),
                )
            status = "ok"
            if plan.committed:  # committed notebooks carry the outputs of a FULL run
                _save_without_injected_parameters(out, nb)
            # the fits behind the outputs, so that derived outputs rebuild without fitting
            folder = plan.root / "results" / "fits"
            kept = fitstore.write(
                nb.stem,
                tally.read_text(encoding="utf-8"),
                local=cache.local_record,
                keep_others=bool(given),
                folder=folder,
            )
            print(f"[rulelab] {nb.name}: {kept} fit records in {_shown(folder)}", flush=True)
        except Exception as err:  # keep going: one broken notebook must not hide the rest
            status = f"failed: {type(err).__name__}"
            print(f"[rulelab] {nb.name} failed: {err}", file=sys.stderr, flush=True)
        seconds = round(time.time() - t, 1)
        cpu_seconds = round(_children_cpu() - cpu, 1)
        tally_text = tally.read_text(encoding="utf-8")
        cache_reads = earlier_reads(tally_text)
        units = len(fitstore.units_in(tally_text))
        outputs = output_digests(manifest.read_text(encoding="utf-8"), plan.root)
        for path in (tally, manifest):
            path.unlink(missing_ok=True)
        for name in (TALLY_ENV, MANIFEST_ENV):
            os.environ.pop(name, None)
        logs.setdefault(plan.root, []).append(
            {
                "notebook": nb.stem,
                "status": status,
                "seconds": seconds,
                "cpu_seconds": cpu_seconds,
                "cache_reads": cache_reads,
                "units": units,
                "jobs": jobs,
                "params": ", ".join(f"{k}={v}" for k, v in (params or {}).items()),
                "code": code,
                "fingerprint": fingerprint,
                "environment": env,
                "finished": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                "outputs": outputs,
            }
        )
        how = "cold" if cache_reads == 0 else f"{cache_reads} results read from the cache"
        busy = cpu_seconds / seconds if seconds else 0.0
        print(
            f"[rulelab] {nb.name}: {status} in {seconds:.0f} s ({how}); "
            f"{cpu_seconds:.0f} CPU seconds, {busy:.2f} of {jobs} cores busy on average",
            flush=True,
        )
    ran = sum(len(entries) for entries in logs.values())
    failed = sum(e["status"] != "ok" for entries in logs.values() for e in entries)
    for root, entries in logs.items():
        _write_log_and_report(root, mode, jobs, started, t0, entries)
    print(f"[rulelab] {ran - failed}/{ran} notebooks ran")
    return failed


def _write_log_and_report(
    root: Path, mode: str, jobs: int, started: str, t0: float, entries: list[dict]
) -> None:
    """Add the notebooks that ran to the end to the run log of the output root ``root`` and
    rewrite its report (and, for the committed outputs, the README's results)."""
    from repro.core import paths

    entries = [entry for entry in entries if entry["status"] == "ok"]
    if not entries:
        print(
            f"[rulelab] no notebook writing to {_shown(root)} ran to the end; its report "
            "and run log are unchanged"
        )
        return
    paths.use_output_root(root)
    try:
        run_log = results_dir() / "run_log.json"
        with _log_lock(run_log):
            earlier = (read_run_log(run_log) or {}).get("notebooks", [])
            record = {
                "mode": mode,
                "jobs": jobs,
                "started": started,
                "total_seconds": round(time.time() - t0, 1),
                "notebooks": merge_log(earlier, entries),
            }
            write_text(run_log, json.dumps(record, indent=2))
            report = _write_derived(record, run_log, root)
        print(f"[rulelab] report: {_shown(report)}")
    finally:
        paths.use_output_root(None)


def _write_derived(record: dict, run_log: Path, root: Path) -> Path:
    """Write REPORT.md (and, for the committed outputs, the README's results section) from
    the run log and the recorded claims, and keep their digests in the log."""
    report = write_report(run_log=run_log)
    if root == ROOT:  # the README states what the last full reproduction found
        update_readme()
    record["derived"] = derived_digests(root)
    write_text(run_log, json.dumps(record, indent=2))
    return report


def rewrite_report() -> int:
    """Rewrite the committed REPORT.md and the README's results section from the committed
    claims and run log, running nothing: what a change to how claims are reported (their
    quotes, their counts) costs. Returns the exit status."""
    run_log = ROOT / "results" / "run_log.json"
    try:
        with _log_lock(run_log):
            record = read_run_log(run_log)
            if record is None:
                print("[rulelab] no run log: run the notebooks first", file=sys.stderr)
                return 1
            report = _write_derived(record, run_log, ROOT)
    except RunLogError as err:
        print(f"[rulelab] {err}", file=sys.stderr)
        return 1
    print(f"[rulelab] report: {_shown(report)}")
    return 0


def _shown(path: Path) -> str:
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)


def check_committed(only: list[str] | None = None) -> int:
    """Say, per notebook, which layer of its committed outputs is stale; 1 when any is.

    The derived layer (tables, claims, figures, report) is stale when the notebook's cells
    or any code they reach changed what it does; the fits layer when the code behind some
    committed fit records did (:func:`repro.core.fitstore.stale_units`). Derived-only staleness
    is cheap to fix: a rerun reads every fit from the committed records.

    Outputs are also checked by content: each output whose bytes differ from the digest
    the run log keeps for it (missing, cut short, edited) is named, and fails the check."""
    run_log = ROOT / "results" / "run_log.json"
    try:
        log = read_run_log(run_log)
    except RunLogError as err:
        print(f"[check] {err}")
        return 1
    if log is None:
        print(
            f"[check] there is no run log ({_shown(run_log)}): nothing records which code made "
            "the committed outputs, so none can be called current; `make reproduce` writes it"
        )
        return 1
    damaged = damaged_committed(log, only)
    notebooks = []
    for nb in discover(only):  # a notebook cut short cannot be fingerprinted: named instead
        try:
            json.loads(nb.read_text(encoding="utf-8"))
            notebooks.append(nb)
        except (OSError, ValueError) as err:
            damaged.append(f"{nb.stem}: notebooks/{nb.name}: not a readable notebook ({err})")
    rows = layers(notebooks)
    for row in rows:
        print(
            f"{row['notebook']:<24} derived {'STALE' if row['derived_stale'] else 'current':<8}"
            f" fits {row['fits']}"
        )
    unvouched = [e["notebook"] for e in log["notebooks"] if "outputs" not in e]
    if unvouched:
        print(
            f"no output digests recorded for {', '.join(unvouched)} (written before the run "
            "log kept them): their contents are not checked until the next full run"
        )
    for problem in damaged:
        print(f"DAMAGED {problem}")
    stale = [row["notebook"] for row in rows if row["derived_stale"] or row["fits_stale"]]
    if damaged:
        print(
            f"{len(damaged)} committed outputs differ from what their run wrote: restore them "
            "(`git checkout -- <file>`) or rerun their notebook"
        )
    if stale:
        print(
            f"{len(stale)} of {len(rows)} notebooks have outputs made by other code: "
            f"{', '.join(stale)}; `python -m repro.pipeline --mode full --only NN` refreshes "
            "one (fits that are still current are read from results/fits/, not computed)"
        )
    if stale or damaged:
        return 1
    print(f"all {len(rows)} notebooks' committed outputs come from the current code")
    return 0


def damaged_committed(log: dict, only: list[str] | None = None) -> list[str]:
    """Each committed output whose bytes are not those its run wrote (by the digests the
    run log keeps), as ``"<notebook>: <path>: <what>"``; the report and the README's
    results section as ``"report: ..."``."""
    derived = log.get("derived") or {}
    now = derived_digests(ROOT)
    damaged = [
        f"report: {name}: " + ("missing" if name not in now else "changed since the run wrote it")
        for name, digest in derived.items()
        if now.get(name) != digest
    ]
    for entry in log["notebooks"]:
        if only and not any(entry["notebook"].startswith(p) for p in only):
            continue
        for problem in damaged_outputs(entry.get("outputs") or {}, ROOT):
            damaged.append(f"{entry['notebook']}: {problem}")
    return damaged


def layers(notebooks: list[Path]) -> list[dict]:
    """Per notebook: whether the derived layer is stale, and the fits layer in words."""
    rows = []
    for row in stale_notebooks(notebooks, ROOT / "results" / "run_log.json"):
        units, stale = fitstore.stale_units(row["notebook"])
        if not units:
            fits, fits_stale = "(no committed fit records: the next FULL run writes them)", False
        elif stale:
            kinds = sorted({r["kind"] for r in stale})
            fits, fits_stale = f"STALE ({len(stale)} of {units} units: {', '.join(kinds)})", True
        else:
            fits, fits_stale = f"current ({units} units)", False
        rows.append(
            {
                "notebook": row["notebook"],
                "derived_stale": row["stale"],
                "fits": fits,
                "fits_stale": fits_stale,
                "units": units,
            }
        )
    return rows


def sample_units(units: list[dict], per_kind: int, seed: int) -> list[dict]:
    """A seeded sample of fit records: ``per_kind`` of every kind (every table's units),
    or all of a kind that has fewer."""
    import random

    rng = random.Random(seed)
    by_kind: dict[str, list[dict]] = {}
    for row in sorted(units, key=lambda r: (r["kind"], r["name"])):
        by_kind.setdefault(row["kind"], []).append(row)
    chosen = []
    for kind in sorted(by_kind):
        rows = by_kind[kind]
        chosen.extend(rng.sample(rows, min(per_kind, len(rows))))
    return chosen


# Columns that read the clock: left out when a verify run's tables are compared.
_CLOCK = re.compile(r"time|seconds|elapsed|cached|speedup|ratio|per_s|stamp|^run$", re.I)


def compare_tables(fresh_dir: Path, committed_dir: Path) -> list[tuple[str, str]]:
    """``(table, verdict)`` for every CSV a verify run wrote that is also committed: "same"
    when every column that does not read the clock is equal, else the columns that differ."""
    import pandas as pd

    out = []
    for fresh in sorted(fresh_dir.glob("*.csv")):
        committed = committed_dir / fresh.name
        if not committed.is_file():
            continue
        a, b = pd.read_csv(fresh), pd.read_csv(committed)
        keep = [c for c in b.columns if not _CLOCK.search(str(c))]
        if list(a.columns) != list(b.columns) or len(a) != len(b):
            out.append((fresh.name, f"differs: shape {a.shape} against {b.shape}"))
            continue
        differ = [c for c in keep if not a[c].astype(str).equals(b[c].astype(str))]
        out.append((fresh.name, "same" if not differ else f"differs in {', '.join(differ)}"))
    return out


def verify(only: list[str] | None = None, per_kind: int = 1, seed: int = 0, jobs: int = 2) -> int:
    """Recompute a seeded sample of every current notebook's committed fits; 1 on any
    difference.

    Each notebook runs FULL with an empty cache and its outputs under ``runs/verify/``:
    the sampled units are computed again and compared with their committed records
    (times aside), every other unit is read from the committed records, and each table the
    run writes is compared with the committed one. Stale notebooks are skipped: their
    committed outputs are not expected to match the code."""
    import papermill as pm

    try:
        log = read_run_log(ROOT / "results" / "run_log.json")
    except RunLogError as err:
        print(f"[verify] {err}")
        return 1
    damaged = damaged_committed(log, only) if log else []
    for problem in damaged:  # a table to compare with must be the one its run wrote
        print(f"[verify] DAMAGED {problem}")
    failures = len(damaged)
    for row in layers(discover(only)):
        name = row["notebook"]
        if row["derived_stale"] or row["fits_stale"] or not row["units"]:
            why = "stale" if row["units"] else "no committed fit records"
            print(f"[verify] {name}: skipped ({why})")
            continue
        nb = NOTEBOOKS / f"{name}.ipynb"
        chosen = sample_units(fitstore.read(name), per_kind, seed)
        out = ROOT / "runs" / "verify" / name
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix="rulelab-verify-") as tmp:
            sample, log = Path(tmp) / "sample", Path(tmp) / "log"
            sample.write_text("".join(f"{r['kind']}/{r['name']}\n" for r in chosen))
            log.touch()
            (Path(tmp) / "tally").touch()
            env = {
                TALLY_ENV: str(Path(tmp) / "tally"),
                "RULELAB_CACHE": str(Path(tmp) / "cache"),
                "RULELAB_OUTPUT": str(out),
                "RULELAB_HEADLESS": "1",
                "RULELAB_QUICK": "0",
                VERIFY_ENV: str(sample),
                VERIFY_LOG_ENV: str(log),
            }
            saved = {k: os.environ.get(k) for k in env}
            os.environ.update(env)
            t = time.time()
            print(f"[verify] {name}: recomputing {len(chosen)} of {row['units']} units", flush=True)
            try:
                jobs_param = {"N_JOBS": jobs} if "N_JOBS" in notebook_parameters(nb) else {}
                with Progress(Path(tmp) / "tally", f"verify {name}", row["units"]):
                    pm.execute_notebook(
                        str(nb),
                        str(out / nb.name),
                        parameters=jobs_param,
                        cwd=str(NOTEBOOKS),
                        progress_bar=False,
                        **quiet_kernel_warnings(),
                    )
                error = None
            except Exception as err:  # a failed run is a failed verification, named
                error = f"{type(err).__name__}: {err}"
            finally:
                for k, v in saved.items():
                    if v is None:
                        os.environ.pop(k, None)
                    else:
                        os.environ[k] = v
            results = [json.loads(line) for line in log.read_text().splitlines() if line]
        checked = {r["entry"]: r["same"] for r in results}
        bad = 0
        for kind in sorted({r["kind"] for r in chosen}):
            entries = [f"{r['kind']}/{r['name']}" for r in chosen if r["kind"] == kind]
            same = sum(checked.get(e) is True for e in entries)
            missing = sum(e not in checked for e in entries)
            bad += len(entries) - same
            note = f", {missing} no longer computed by the notebook" if missing else ""
            print(f"[verify] {name} {kind}: {same} of {len(entries)} recomputed units equal{note}")
        for table, verdict in compare_tables(out / "results", ROOT / "results"):
            print(f"[verify] {name} table {table}: {verdict}")
            bad += verdict != "same"
        if error:
            print(f"[verify] {name}: the run failed: {error}")
            bad += 1
        print(f"[verify] {name}: {'OK' if not bad else 'DIFFERENT'} in {time.time() - t:.0f} s")
        failures += bool(bad)
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run rulelab's notebooks and write REPORT.md")
    parser.add_argument("--mode", choices=("full", "quick"), default="full")
    parser.add_argument("--jobs", type=int, default=2, help="parallel jobs inside each notebook")
    parser.add_argument("--only", nargs="*", help="notebook name prefixes, e.g. 00 02")
    parser.add_argument("--kernel", default=None, help="Jupyter kernel (default: the notebook's)")
    parser.add_argument(
        "--param",
        action="append",
        metavar="NAME=VALUE",
        help="override a notebook parameter (YAML value), e.g. "
        "--param 'DATASETS=[pima, sonar]'; repeatable; the run "
        "writes under runs/<parameters>/ unless --into-committed",
    )
    parser.add_argument(
        "--into-committed",
        action="store_true",
        help="with --param and --mode full: refresh the committed notebooks, "
        "results/, figures/ and REPORT.md (a FULL run over part of the "
        "data)",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="run nothing: list every notebook whose committed outputs were "
        "made by code other than the current code (exit 1 if any)",
    )
    parser.add_argument(
        "--verify",
        action="store_true",
        help="recompute, with an empty cache, a seeded sample of the committed fits of every "
        "current notebook and compare them and its tables with the committed ones (exit 1 "
        "on any difference)",
    )
    parser.add_argument(
        "--sample", type=int, default=1, help="with --verify: units per kind of fit (default 1)"
    )
    parser.add_argument("--seed", type=int, default=0, help="with --verify: the sample's seed")
    parser.add_argument(
        "--report",
        action="store_true",
        help="run nothing: rewrite REPORT.md and the README's results section from the "
        "committed claims and run log",
    )
    args = parser.parse_args(argv)
    if args.report:
        return rewrite_report()
    if args.check:
        return check_committed(args.only)
    if args.verify:
        return verify(args.only, args.sample, args.seed, args.jobs)
    try:  # every mistake in the request is an argparse error (status 2) before anything runs
        params = parse_params(args.param)
        check_request(args.only, params)
    except ValueError as err:
        parser.error(str(err))
    if args.into_committed and args.mode != "full":
        parser.error("--into-committed refreshes the committed FULL outputs: use --mode full")
    try:
        failed = run(
            args.mode, args.jobs, args.only, args.kernel, params, into_committed=args.into_committed
        )
    except RunLogError as err:  # found before any notebook ran: nothing is lost
        print(f"[rulelab] {err}", file=sys.stderr)
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
