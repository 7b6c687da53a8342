"""``DataFrame.query`` text of a rule: backtick-quoted names and literal values.

Every rule type's ``to_query`` writes its terms through these helpers (python engine), so
the string selects exactly the rows the rule holds on.
"""

from __future__ import annotations

import functools

import pandas as pd

from ._values import _nonfinite, _py


@functools.lru_cache(maxsize=4096)
def _query_name(name: str) -> str:
    """A backtick-quoted ``DataFrame.query`` name (an inner backtick doubled), or a clear
    error for a name pandas cannot read back (a newline or a tab in it, for one): each
    name is tried once on a one-column frame."""
    quoted = "`" + str(name).replace("`", "``") + "`"
    try:
        picked = pd.DataFrame({name: [1.0, 0.0]}).query(f"{quoted} > 0.5", engine="python")
        ok = picked.index.tolist() == [0]
    except Exception:  # noqa: BLE001 (pandas raises SyntaxError, ValueError, KeyError ...)
        ok = False
    if not ok:
        raise ValueError(
            f"column name {name!r} cannot be written in a pandas query string "
            "(pandas' backtick quoting does not read it back): rename the column, "
            "or select with rule.evaluate(X)"
        )
    return quoted


def _query_value(value) -> str:
    # a date as its ISO string: pandas compares a datetime column with it as a date
    kind = _nonfinite(value)
    if kind in ("inf", "-inf"):  # a literal, not the name inf, which a column could shadow
        return "1e999" if kind == "inf" else "-1e999"
    return repr(_py(value))


# Always true / always false on every row, without a column: pandas' ``index`` names a
# column called "index" when there is one, and either way x == x fails on its NaN,
# so the test holds for x == x or x != x.
_QUERY_TRUE = "((index == index) | (index != index))"
_QUERY_FALSE = "((index == index) & (index != index))"
