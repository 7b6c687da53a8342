"""SQL text of a rule: quoted names, literal values and each dialect's spelling.

Every rule type's ``to_sql`` writes its terms through these helpers, so a name is always
an identifier and a value always a literal, never read as SQL.
"""

from __future__ import annotations

import pandas as pd

from ._values import _nonfinite, _py

__all__ = ["SQL_DIALECTS"]

#: The SQL dialects :meth:`Term.to_sql` writes. All quote a name as an identifier and a
#: string as a literal, so no value is read as SQL; they differ in what needs escaping.
#: ``"standard"``: ISO SQL (double-quoted names, ``''`` in strings), read as such by SQLite,
#: PostgreSQL, DuckDB and most others, but has no literal for infinity. ``"sqlite"`` and
#: ``"postgresql"``: standard, and infinity written the way each reads it. ``"mysql"``:
#: MySQL and MariaDB in their default mode, where a backslash escapes in a string (so it
#: is doubled) and names are quoted with backticks; a server set to read backslashes
#: literally (``NO_BACKSLASH_ESCAPES``) and double quotes as names (``ANSI_QUOTES``) takes
#: ``"standard"``. Neither MySQL nor standard SQL has an infinity: a comparison that needs
#: one is refused there. MySQL's default collations compare text without case and without
#: trailing blanks (``'a' = 'A '`` holds), so ``"mysql"`` compares text as its UTF-8 bytes.
#: A date is an ISO ``TIMESTAMP`` literal in standard SQL (SQLite cannot read it and stops
#: at it: use ``"sqlite"``, which compares instants) and an ISO string elsewhere. A boolean
#: is never a bare ``TRUE``, which SQLite reads as a column
#: named ``true`` when the table has one: ``1``/``0`` in SQLite, ``TRUE``/``FALSE`` where
#: they are reserved words (PostgreSQL, MySQL), ``(1 = 1)``/``(1 = 0)`` in standard SQL.
SQL_DIALECTS = ("standard", "sqlite", "postgresql", "mysql")

# how each dialect writes +infinity (None: it has no way to)
_SQL_INFINITY = {
    "standard": None,
    "mysql": None,
    "sqlite": "9e999",
    "postgresql": "CAST('Infinity' AS DOUBLE PRECISION)",
}


# how each dialect writes True and False: never a bare TRUE where a column could take its
# place. SQLite reads TRUE and FALSE as the names of columns "true" and "false" when a table
# has them (they are not keywords there), so it gets 1 and 0, how it stores booleans;
# PostgreSQL and MySQL reserve TRUE and FALSE (a column so named must be quoted); standard
# SQL gets comparisons, which every engine reads as a boolean and no name can shadow
_SQL_BOOLEAN = {
    "standard": ("(1 = 1)", "(1 = 0)"),
    "sqlite": ("1", "0"),
    "postgresql": ("TRUE", "FALSE"),
    "mysql": ("TRUE", "FALSE"),
}


def _check_dialect(dialect: str) -> str:
    if dialect not in SQL_DIALECTS:
        raise ValueError(f"unknown SQL dialect {dialect!r}; use one of {list(SQL_DIALECTS)}")
    return dialect


def _no_nul(text: str, what: str) -> str:
    if "\x00" in text:
        raise ValueError(
            f"{what} {text!r} holds a NUL character, which SQL cannot write: "
            "rename it or drop the term"
        )
    return text


def _sql_name(name: str, dialect: str = "standard") -> str:
    """A quoted SQL identifier: double quotes (an inner one doubled), MySQL's backticks."""
    name = _no_nul(str(name), "name")
    if dialect == "mysql":
        return "`" + name.replace("`", "``") + "`"
    return '"' + name.replace('"', '""') + '"'


def _sql_value(value, dialect: str = "standard", what: str = "value") -> str:
    value = _py(value)
    if isinstance(value, bool):
        return _SQL_BOOLEAN[dialect][0 if value else 1]
    if isinstance(value, (int, float)):
        kind = _nonfinite(value)
        if kind is None:
            return repr(value)
        infinity = _SQL_INFINITY[dialect] if kind != "nan" else None
        if infinity is None:
            raise ValueError(
                f"{what} is {kind}, which {dialect} SQL cannot write"
                + ("" if kind == "nan" else ": use dialect='sqlite' or 'postgresql', or drop it")
            )
        return infinity if kind == "inf" else f"(-{infinity})"
    text = _no_nul(str(value), "value")
    if dialect == "mysql":  # a backslash escapes in MySQL's strings
        text = text.replace("\\", "\\\\")
    return "'" + text.replace("'", "''") + "'"


def _mysql_text_comparison(name: str, op: str, value: str) -> str:
    """A text comparison MySQL makes as ``predict()`` does: on the exact characters.

    MySQL's and MariaDB's default collations ignore case and trailing blanks, so ``= 'a'``
    also selected ``'A'`` and ``'a '``. Both sides are compared as the bytes of their UTF-8
    text, whatever the column's character set: equal exactly when the strings are.
    """
    literal = "_utf8mb4" + _sql_value(value, "mysql")
    return f"CAST(CONVERT({name} USING utf8mb4) AS BINARY) {op} CAST({literal} AS BINARY)"


def _standard_date_literal(value) -> str:
    """ISO SQL's literal for an instant: ``TIMESTAMP '...'``, with its offset when it has one.

    A bare string compared with a date column is read as a date by PostgreSQL and MySQL
    but compared as text by SQLite, where it selected nothing; the typed literal is read
    as a date where there are dates, and refused by SQLite, never misread.
    """
    stamp = pd.Timestamp(value)
    if stamp.tzinfo is None:
        return f"TIMESTAMP '{stamp.isoformat(sep=' ')}'"
    return f"TIMESTAMP WITH TIME ZONE '{stamp.isoformat(sep=' ')}'"


def _sqlite_date_comparison(name: str, op: str, value, term: str) -> str:
    """A date comparison SQLite makes as a comparison of instants.

    SQLite has no date type: a date is text, written ``2021-01-01 00:00:00`` by pandas and
    ``2021-01-01T00:00:00`` by ISO-8601, so comparing the texts selected nothing for ``==``
    and misordered times within a day. ``julianday`` reads either form as one instant,
    to the millisecond (SQLite keeps no finer time): a finer threshold is refused.
    """
    stamp = pd.Timestamp(value)
    if stamp.microsecond % 1000 or stamp.nanosecond:
        raise ValueError(
            f"the threshold of {term} has a fraction of a millisecond, which SQLite's date "
            "functions do not keep: round it to milliseconds (Timestamp.floor('ms')), or "
            "use dialect='postgresql'"
        )
    text = stamp.tz_convert("UTC").tz_localize(None) if stamp.tzinfo else stamp
    return f"julianday({name}) {op} julianday('{text.isoformat(timespec='milliseconds')}')"
