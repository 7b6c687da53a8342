"""The reproduction report: claims with their verdicts, tables, figures, settings and times.

Notebooks record each claim they test with :func:`record_claims` (written to
``results/claims_<notebook>.csv``); :func:`write_report` gathers the claims, the run log
of :mod:`repro.core.pipeline` and the figure gallery into ``REPORT.md``. A QUICK run, or a run
with other parameters, keeps all of this under ``runs/`` (see :mod:`repro.core.paths`).
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from repro.core.outputs import save_table, write_text
from repro.core.paths import ROOT, output_dir, output_root
from repro.core.plotting import figures_dir
from repro.core.quotes import with_quotes

# "tie": the comparison's difference is within its standard error (repro.core.verdicts)
VERDICTS = ("holds", "does not hold", "tie", "not testable")

__all__ = [
    "record_claims",
    "results_dir",
    "write_report",
    "update_readme",
    "readme_results",
    "VERDICTS",
]


def results_dir() -> Path:
    """``results/`` of the run's output root: the project root in a FULL run with the
    default parameters, ``runs/<parameters>`` in any other (created on demand)."""
    return output_dir("results")


def record_claims(notebook: str, claims: list[dict]) -> pd.DataFrame:
    """Save a notebook's claims as ``results/claims_<notebook>.csv`` and return them.

    Each claim is a dict with ``claim`` (the paper's statement), ``verdict`` (one of
    :data:`VERDICTS`; a comparison's verdict comes from :mod:`repro.core.verdicts`, which calls
    a difference within its standard error a tie) and ``evidence`` (the numbers from this
    run that decide it). The record adds the paper's sentence, its place and our reading
    of it from :mod:`repro.core.quotes`.
    """
    frame = pd.DataFrame(claims, columns=["claim", "verdict", "evidence"])
    bad = set(frame["verdict"]) - set(VERDICTS)
    if bad:
        raise ValueError(f"verdicts must be one of {VERDICTS}, got {sorted(bad)}")
    frame.insert(0, "notebook", notebook)
    frame = with_quotes(frame)
    save_table(frame, results_dir() / f"claims_{notebook}.csv")
    return frame


def _claims_table() -> pd.DataFrame | None:
    """Every recorded claim, with the registry's quotes (an older record's are replaced)."""
    paths = sorted(results_dir().glob("claims_*.csv"))
    if not paths:
        return None
    table = pd.concat(
        [pd.read_csv(p, dtype={"line": str}, keep_default_na=False) for p in paths],
        ignore_index=True,
    )
    return with_quotes(table)


def _counts(frame: pd.DataFrame) -> str:
    counts = frame["verdict"].value_counts()
    return ", ".join(f"{counts.get(v, 0)} {v}" for v in VERDICTS)


def _said(row) -> str:
    """The paper's words and where they stand, for the report's table."""
    if not row["quote"]:
        return ""
    return f"\u201c{row['quote']}\u201d (paper {row['paper']}, {row['place']}, line {row['line']})"


def _reading(row) -> str:
    """How we test the claim, with what a referee should know beside it."""
    return f"{row['reading']} Note: {row['note']}" if row["note"] else row["reading"]


def _recorded_by_older_code(table: pd.DataFrame, run_log: Path) -> list[str]:
    """The notebooks whose recorded claims came from other code than the current (their
    fingerprint in the run log differs); [] when that cannot be told."""
    from repro.core.fingerprint import stale_notebooks

    notebooks = [ROOT / "notebooks" / f"{n}.ipynb" for n in sorted(set(table["notebook"]))]
    notebooks = [n for n in notebooks if n.is_file()]
    if not run_log.is_file() or not notebooks:
        return []
    try:
        rows = stale_notebooks(notebooks, run_log)
    except ValueError:  # a damaged run log is reported by --check; the report goes on
        return []
    return [r["notebook"] for r in rows if r["stale"]]


def _claims_section(table: pd.DataFrame) -> list[str]:
    papers = table[table["origin"] == "paper"]
    others = table[table["origin"] != "paper"]
    parts = [
        "## Claims",
        "",
        f"The papers' claims: {_counts(papers)}. Our own claims and the papers' claims "
        f"carried to other data (extensions), reported but not counted among the papers' "
        f"verdicts: {_counts(others)}. " + _TIE,
        "",
    ]
    said = ["the paper says", "our reading", "verdict", "evidence"]
    for title, part, cols in (
        ("The papers' claims", papers, ["notebook", "claim", *said]),
        ("Ours and extensions", others, ["notebook", "claim", "origin", *said]),
    ):
        if part.empty:
            continue
        shown = part.assign(
            **{
                "the paper says": part.apply(_said, axis=1),
                "our reading": part.apply(_reading, axis=1),
            }
        )
        parts += [f"### {title}", "", _markdown_table(shown[cols]), ""]
    return parts


def _markdown_table(frame: pd.DataFrame) -> str:
    cols = list(frame.columns)
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for row in frame.itertuples(index=False):
        cells = [str(v).replace("|", "\\|").replace("\n", " ") for v in row]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _environments(runs: pd.DataFrame) -> list[str]:
    """Markdown lines naming the package versions each notebook's last run used (the run
    log's ``environment``; a run logged before it was recorded is listed as not recorded)."""
    if "environment" not in runs or not (runs["environment"] != "").any():
        return []
    lines = ["Package versions of those runs:", ""]
    for env, group in runs.groupby("environment", sort=False):
        lines.append(f"- {', '.join(group['notebook'])}: {env or 'not recorded'}")
    return lines + [""]


def _cold_sentence(runs: pd.DataFrame) -> str:
    """What the recorded times say about a cold run: ``cache_reads`` counts the results a
    notebook's run read from the cache that it had not written itself (0: a cold run, as on
    a fresh clone)."""
    if "cache_reads" not in runs:
        return "These runs did not record whether they read earlier results from the cache."
    reads = pd.to_numeric(runs["cache_reads"], errors="coerce")
    cold = reads == 0
    text = (
        f"{int(cold.sum())} of {len(runs)} notebooks ran cold (`cache_reads` 0: nothing "
        "read from the cache that the run had not written itself), in "
        f"{runs.loc[cold, 'seconds'].astype(float).sum() / 60:.1f} minutes"
    )
    unknown = int(reads.isna().sum())
    if unknown:
        text += f"; {unknown} runs predate the count"
    return text + "."


def write_report(path: Path | None = None, run_log: Path | None = None) -> Path:
    """Write ``REPORT.md`` from the recorded claims, the run log and the figures."""
    path = path or output_root() / "REPORT.md"
    run_log = run_log or results_dir() / "run_log.json"
    parts = ["# rulelab reproduction report", ""]
    if run_log.is_file():
        log = json.loads(run_log.read_text())
        runs = pd.DataFrame(log["notebooks"]).fillna("")
        cols = [
            c
            for c in (
                "notebook",
                "status",
                "seconds",
                "cache_reads",
                "jobs",
                "params",
                "code",
                "fingerprint",
                "finished",
            )
            if c in runs
        ]
        parts += [
            f"Mode: **{log['mode']}**. The last run of each notebook (below, with its "
            f"parallel jobs) took {runs['seconds'].sum() / 60:.1f} minutes in all. "
            + _cold_sentence(runs),
            "",
            "## Notebooks",
            "",
            _markdown_table(runs[cols]),
            "",
        ]
        parts += _environments(runs)
    table = _claims_table()
    if table is not None:
        parts += _claims_section(table)
        older = _recorded_by_older_code(table, run_log)
        if older:
            parts[parts.index("## Claims") + 2 : parts.index("## Claims") + 2] = [
                f"**Recorded by older code:** the claims of {', '.join(older)} were judged by "
                "code older than the current (their fingerprints differ; `python -m "
                "repro.pipeline --check`): their wording, quotes and readings are the current "
                "ones, their verdicts and evidence those of the last run. Rerun before citing.",
                "",
            ]
    figures = sorted(figures_dir().glob("*.png"))
    if figures:
        parts += ["## Figures", ""]
        parts += [f"![{p.stem}](figures/{p.name})" for p in figures]
        parts.append("")
    write_text(path, "\n".join(parts))
    return path


_TIE = (
    "A tie is a comparison whose difference is within its standard error (paired over "
    "folds or draws where the data are paired; against a paper's single number, the "
    "standard error of our mean)."
)

_START, _END = "<!-- results:start -->", "<!-- results:end -->"


def readme_results(readme: Path | None = None) -> str:
    """The README's results section (between the ``results`` markers), "" when it has none:
    the part of the README a run writes, whose digest the run log keeps."""
    text = (readme or ROOT / "README.md").read_text(encoding="utf-8")
    if _START not in text or _END not in text:
        return ""
    return text[text.index(_START) : text.index(_END) + len(_END)]


def update_readme(readme: Path | None = None) -> bool:
    """Refresh the README's results section (between the ``results`` markers) from the
    recorded claims, so the README never states a verdict the last run did not produce.

    Returns True when the README changed.
    """
    readme = readme or ROOT / "README.md"
    text = readme.read_text()
    if _START not in text or _END not in text:
        return False
    table = _claims_table()
    if table is not None:
        table = table.assign(
            origin=pd.Categorical(
                table["origin"].where(table["origin"] == "paper", "ours or extension"),
                categories=["paper", "ours or extension"],
            )
        )
        summary = (
            table.groupby(["notebook", "origin"])["verdict"]
            .value_counts()
            .unstack(fill_value=0)
            .reindex(columns=list(VERDICTS), fill_value=0)
            .reset_index()
        )
        body = (
            "Claims tested by the last run, per notebook: the papers' own claims apart from "
            "ours and from the papers' claims carried to other data (each claim with the "
            "paper's sentence, our reading and the evidence in `REPORT.md`):\n\n"
            + _markdown_table(summary)
        )
    else:
        body = "No run has recorded its claims yet: run `make reproduce`."
    new = text[: text.index(_START) + len(_START)] + "\n" + body + "\n" + text[text.index(_END) :]
    if new != text:
        write_text(readme, new)
    return new != text
