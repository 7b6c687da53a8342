"""Exports run on real PostgreSQL and MySQL-family servers select the rows predict() gives.

SQLite runs in-process in the other tests; these need servers. ``RULELAB_POSTGRES`` is a
libpq connection string (``postgresql://user:password@host/database``) and
``RULELAB_MYSQL`` a URL of the same shape (``mysql://user:password@host/database``) for
MySQL or MariaDB. Without them the tests are skipped, unless ``RULELAB_REQUIRE_SQL_SERVERS``
is set (CI starts both servers and sets it), where a missing server is a failure.

Each table is made with explicit column types (bool as BOOLEAN, integers as BIGINT, dates as
timestamps, text as the server's default text type and collation), as a user's own table
would be, and filled by parameters, so what is compared is the export alone.
"""

from __future__ import annotations

import math
import os
import warnings
from urllib.parse import unquote, urlparse

import numpy as np
import pandas as pd
import pytest

from rulelab import ESTIMATORS
from rulelab.rules import Clause, Term
from tests.conftest import make_learner

REQUIRED = bool(os.environ.get("RULELAB_REQUIRE_SQL_SERVERS"))


def _unavailable(what: str, why: str):
    message = f"{what} is not reachable ({why})"
    if REQUIRED:
        pytest.fail(message + "; RULELAB_REQUIRE_SQL_SERVERS is set")
    pytest.skip(message)


@pytest.fixture(scope="module")
def postgres():
    dsn = os.environ.get("RULELAB_POSTGRES")
    if not dsn:
        _unavailable("PostgreSQL", "RULELAB_POSTGRES is not set")
    try:
        import psycopg

        con = psycopg.connect(dsn, autocommit=True)
    except Exception as err:  # a missing driver or server: skipped, or failed under CI
        _unavailable("PostgreSQL", str(err))
    yield Server("postgresql", con)
    con.close()


@pytest.fixture(scope="module")
def mysql():
    url = os.environ.get("RULELAB_MYSQL")
    if not url:
        _unavailable("MySQL", "RULELAB_MYSQL is not set")
    try:
        import pymysql

        parts = urlparse(url)
        con = pymysql.connect(
            host=parts.hostname or "localhost",
            port=parts.port or 3306,
            user=unquote(parts.username or ""),
            password=unquote(parts.password or ""),
            database=parts.path.lstrip("/"),
            charset="utf8mb4",
            autocommit=True,
        )
    except Exception as err:
        _unavailable("MySQL", str(err))
    yield Server("mysql", con)
    con.close()


class Server:
    """One connection and how its dialect names types and quotes names."""

    TYPES = {
        "postgresql": {"bool": "BOOLEAN", "int": "BIGINT", "float": "DOUBLE PRECISION",
                       "date": "TIMESTAMP", "text": "TEXT"},
        "mysql": {"bool": "BOOLEAN", "int": "BIGINT", "float": "DOUBLE",
                  "date": "DATETIME(6)", "text": "VARCHAR(200)"},
    }  # fmt: skip

    def __init__(self, dialect: str, con):
        self.dialect, self.con = dialect, con

    def quote(self, name: str) -> str:
        if self.dialect == "mysql":
            return "`" + name.replace("`", "``") + "`"
        return '"' + name.replace('"', '""') + '"'

    def load(self, frame: pd.DataFrame) -> None:
        """``frame`` as the temporary table ``t``, with a column ``row_`` of positions."""
        types = self.TYPES[self.dialect]
        columns = [("row_", types["int"])] + [
            (str(name), types[_kind(frame[name])]) for name in frame.columns
        ]
        temporary = "TEMPORARY" if self.dialect == "mysql" else "TEMP"
        with self.con.cursor() as cur:
            cur.execute("DROP TABLE IF EXISTS t")
            cur.execute(
                f"CREATE {temporary} TABLE t ("
                + ", ".join(f"{self.quote(n)} {t}" for n, t in columns)
                + ")"
            )
            rows = [
                (i, *(_value(v) for v in row))
                for i, row in enumerate(frame.itertuples(index=False, name=None))
            ]
            cur.executemany("INSERT INTO t VALUES (" + ", ".join(["%s"] * len(columns)) + ")", rows)

    def select(self, where: str) -> list[int]:
        with self.con.cursor() as cur:
            cur.execute(f"SELECT row_ FROM t WHERE {where} ORDER BY row_")
            return [int(r[0]) for r in cur.fetchall()]

    def labels(self, expression: str) -> list:
        with self.con.cursor() as cur:
            cur.execute(f"SELECT {expression} FROM t ORDER BY row_")
            return [r[0] for r in cur.fetchall()]

    def dialects(self) -> tuple[str, ...]:
        # the standard dialect is ISO SQL, which PostgreSQL reads; MySQL's default mode
        # quotes names with backticks, so it takes its own
        return ("postgresql", "standard") if self.dialect == "postgresql" else ("mysql",)


def _kind(column: pd.Series) -> str:
    if pd.api.types.is_bool_dtype(column):
        return "bool"
    if pd.api.types.is_integer_dtype(column):
        return "int"
    if pd.api.types.is_float_dtype(column):
        return "float"
    if pd.api.types.is_datetime64_any_dtype(column):
        return "date"
    return "text"


def _value(v):
    if v is None or v is pd.NA or v is pd.NaT or (isinstance(v, float) and math.isnan(v)):
        return None
    if isinstance(v, pd.Timestamp):
        return v.to_pydatetime()
    return v.item() if isinstance(v, np.generic) else v


# ---- every learner's export on one awkward table --------------------------------------------
RNG = np.random.default_rng(3)
N = 160
CODES = np.array(["a", "A", "it's", "back\\slash", "x", "x "])
TABLE = pd.DataFrame(
    {
        "a": RNG.normal(size=N),
        "flag": RNG.random(N) < 0.5,
        # SQLite reads a bare TRUE as a column so named; servers reserve the word
        "true": RNG.random(N) < 0.5,
        "false": RNG.random(N) < 0.5,
        # case and trailing blanks tell these codes apart for predict(); MySQL's default
        # collations do not
        "code": pd.Categorical(CODES[RNG.integers(0, len(CODES), N)]),
        "big": np.where(RNG.random(N) < 0.5, 2**62 + 3, 2**62 + 1),
        'we"ird`name': RNG.integers(0, 4, N),
    }
)
TARGET = pd.Series(
    (
        (TABLE.flag & TABLE.code.isin(["a", "x"]))
        | (TABLE.a > 1.0)
        | ((TABLE.big == 2**62 + 3) & (TABLE['we"ird`name'] >= 2))
    ).astype(int)
)


def _fitted(name: str):
    """The learner fitted on TABLE, or, where it refuses the integers beyond 2**53 by name
    (as the contract allows), on TABLE without them; and the table it was fitted on."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return make_learner(name).fit(TABLE, TARGET), TABLE
        except ValueError as error:
            assert "'big'" in str(error) and "2**53" in str(error), str(error)
            table = TABLE.drop(columns="big")
            return make_learner(name).fit(table, TARGET), table


def _disagreements(model, table: pd.DataFrame, server: Server, dialect: str) -> list[int]:
    """Rows on which the model's SQL says other than predict() (see test_contract's twin
    for SQLite: a WHERE selects ``classes_[1]``, a decision list's CASE gives labels)."""
    rules, predicted = model.rules_, model.predict(table)
    sql = rules.to_sql("t", dialect=dialect)
    if hasattr(rules, "labels"):
        got = server.labels(sql)
        decided = rules.apply(model._check_X(table)) >= 0
        return [
            i
            for i, (label, rule_decides) in enumerate(zip(got, decided))
            if (label is not None) != rule_decides
            or (rule_decides and str(label) != str(predicted[i]))
        ]
    picked = set(server.select(sql))
    positive = set(np.flatnonzero(predicted == model.classes_[1]).tolist())
    return sorted(picked ^ positive)


@pytest.fixture(scope="module", params=list(ESTIMATORS))
def fit(request):
    model, table = _fitted(request.param)
    if getattr(model.rules_, "has_fallback_model", False) and hasattr(model.rules_, "members"):
        pytest.skip(f"{request.param}'s rules leave rows to fitted models, with no SQL form")
    return model, table


@pytest.mark.parametrize("server_name", ["postgres", "mysql"])
def test_every_learners_sql_selects_the_rows_predict_gives_on_a_server(fit, server_name, request):
    model, table = fit
    server = request.getfixturevalue(server_name)
    server.load(table)
    for dialect in server.dialects():
        bad = _disagreements(model, table, server, dialect)
        assert bad == [], (dialect, str(model.rules_), bad[:10])


# ---- single terms: NULLs, dates, exact integers, strings, infinities -------------------------
TERMS_TABLE = pd.DataFrame(
    {
        "x": [0.5, -1.0, np.nan, 2.5, 1e300, -1e-300],
        "n": pd.array([2**53 + 1, 2**53, None, 2**62 + 1, -(2**62), 7], dtype="Int64"),
        "s": ["a", "A", None, "it's", "back\\slash", "a "],
        "when": pd.to_datetime(
            ["2021-01-01", "2021-01-01 05:00", "2020-12-31 23:59:59.5", None, "2022-06-30",
             "2021-01-01 00:00:00.001"],
            format="ISO8601",
        ),
    }
)  # fmt: skip
TERMS = (
    [Term("x", op, v) for op in ("<=", ">", "==", "!=") for v in (0.5, 2.5, -1e-300, math.nan)]
    + [Term("x", op, v) for op in ("<=", ">") for v in (math.inf, -math.inf)]
    + [Term("x", op, (lo, hi)) for op in ("in", "not in") for lo, hi in [(-1.0, 1.0), (0.5, math.inf)]]
    + [Term("n", op, v) for op in ("<=", ">", "==", "!=") for v in (2**53, 2**53 + 1, 2**62 + 1)]
    + [Term("s", op, v) for op in ("==", "!=") for v in ("a", "A", "a ", "it's", "back\\slash")]
    + [Term(c, op) for c in ("x", "s", "when") for op in ("is missing", "is not missing")]
    + [
        Term("when", op, pd.Timestamp(v))
        for op in ("==", "!=", "<=", ">")
        for v in ("2021-01-01", "2021-01-01 05:00", "2020-12-31 23:59:59.5")
    ]
)  # fmt: skip


@pytest.mark.parametrize("server_name", ["postgres", "mysql"])
@pytest.mark.parametrize("term", TERMS, ids=str)
def test_each_term_selects_on_a_server_the_rows_it_holds_on_or_is_refused(
    term, server_name, request
):
    server = request.getfixturevalue(server_name)
    server.load(TERMS_TABLE)
    holds = list(np.flatnonzero(Clause((term,)).evaluate(TERMS_TABLE)))
    for dialect in server.dialects():
        try:
            sql = term.to_sql("t", dialect=dialect)
        except ValueError as err:  # an infinity where the dialect has none
            assert "cannot write" in str(err), str(err)
            continue
        assert server.select(sql) == holds, (dialect, sql)
