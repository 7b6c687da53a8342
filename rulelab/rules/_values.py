"""How a rule's values are written out: dates, numpy scalars, NaN and infinities.

Shared by the printouts, the JSON, SQL and pandas query exports, so a value reads the same
in every one of them.
"""

from __future__ import annotations

import datetime
import math
import numbers

import numpy as np
import pandas as pd


def _is_datetime(value) -> bool:
    return isinstance(value, (pd.Timestamp, np.datetime64, datetime.date))


def _py(value):
    """A JSON-able value: numpy scalars as Python scalars, dates as ISO-8601 strings."""
    if _is_datetime(value):
        return pd.Timestamp(value).isoformat()
    return value.item() if isinstance(value, np.generic) else value


def _nonfinite(value) -> str | None:
    """``"nan"``, ``"inf"`` or ``"-inf"`` for such a real number, else None."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        return None
    v = float(value)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return None
