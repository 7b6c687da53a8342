"""Every claim the notebooks test carries the paper's sentence, verbatim, or says it is ours."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from repro.core import quotes, report

PAPERS = Path(__file__).resolve().parents[2].parent / "shared" / "papers"


def _paper_lines(number: str) -> list[str]:
    (path,) = PAPERS.glob(f"{number}-*.txt")
    return path.read_text(encoding="utf-8").split("\n")  # lines as the files number them


@pytest.mark.skipif(not PAPERS.is_dir(), reason="the papers' texts are not beside the project")
def test_every_quote_stands_verbatim_on_its_line_of_the_paper():
    table = quotes.quotes()
    quoted = table[table["quote"] != ""]
    assert len(quoted) >= 60  # the registry covers the notebooks' claims
    for row in quoted.itertuples():
        lines = _paper_lines(row.paper)
        line = lines[int(row.line) - 1]
        for piece in quotes.quote_pieces(row.quote):
            assert piece in line, f"{row.notebook}: {row.claim!r}: {piece!r} not on line {row.line}"


def test_the_papers_and_extensions_name_their_source_and_ours_need_not():
    table = quotes.quotes()
    sourced = table[table["origin"] != "ours"]
    assert (sourced[["paper", "place", "line", "quote", "reading"]] != "").all().all()
    assert (table["reading"] != "").all()  # every claim says how we test it
    assert set(table["origin"]) <= set(quotes.ORIGINS)


def test_every_committed_claim_has_its_quote():
    root = Path(report.ROOT) / "results"
    claims = pd.concat([pd.read_csv(p) for p in sorted(root.glob("claims_*.csv"))])
    quoted = quotes.with_quotes(claims)
    missing = quoted.loc[quoted["origin"] == quotes.UNQUOTED, ["notebook", "claim"]]
    assert missing.empty, f"claims without a row in {quotes.QUOTES_FILE.name}:\n{missing}"


def test_a_claim_worded_by_its_parameters_is_matched_by_its_pattern(tmp_path):
    registry = tmp_path / "quotes.csv"
    pd.DataFrame(
        [
            {"notebook": "99", "claim": "fixed", "pattern": "", "origin": "ours"},
            {"notebook": "99", "claim": "", "pattern": r"sizes up to n = \d+", "origin": "paper"},
        ],
        columns=["notebook", "claim", "pattern", *quotes.QUOTE_COLUMNS],
    ).fillna("").to_csv(registry, index=False)
    claims = pd.DataFrame(
        {
            "notebook": ["99", "99", "99", "98"],
            "claim": ["fixed", "sizes up to n = 400", "new", "fixed"],
        }
    )
    origins = quotes.with_quotes(claims, registry)["origin"].tolist()
    assert origins == ["ours", "paper", quotes.UNQUOTED, quotes.UNQUOTED]


def test_a_registry_with_an_unknown_origin_is_refused(tmp_path):
    registry = tmp_path / "quotes.csv"
    registry.write_text(
        "notebook,claim,pattern,origin,paper,place,line,quote,reading,note\n99,x,,theirs,,,,,,\n"
    )
    with pytest.raises(ValueError, match="origin must be one of"):
        quotes.with_quotes(pd.DataFrame({"notebook": ["99"], "claim": ["x"]}), registry)
