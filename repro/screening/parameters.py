"""Notebook 04's parameters, declared once: the names, types and defaults its parameters
cell shows (a test keeps them equal) and the values QUICK and FULL runs use while a
parameter keeps its default (:class:`repro.core.parameters.Parameter`)."""

from repro.core.parameters import Parameter

PARAMETERS: dict[str, Parameter] = {
    "QUICK": Parameter("bool", False),
    "INTO_COMMITTED": Parameter("bool", False),
    "N_JOBS": Parameter("int", 2),
    "LAM": Parameter("float", 1000.0),
    "SEED": Parameter("int", 0),
    "TIME_LIMIT": Parameter("Optional[float]", None, quick=60.0),
    "THRESHOLDS": Parameter("Optional[list[int]]", None, quick=[10], full=[10, 20, 50, 100]),
    "SPLIT_THRESHOLDS": Parameter("Optional[list[int]]", None, quick=[10], full=[10, 100]),
    "TIME_THRESHOLDS": Parameter("Optional[list[int]]", None, quick=[10], full=[10, 20, 50, 100]),
    "TIME_ROWS": Parameter(
        "Optional[dict[str, Optional[int]]]",
        None,
        quick={"gas_drift_partial": 1000, "magic": 2000},
        full={"gas_drift_partial": None, "magic": None},
    ),
    "GROWTH_ROWS": Parameter(
        "Optional[list[Optional[int]]]",
        None,
        quick=[500, 1000, 2000],
        full=[2000, 5000, 10000, None],
    ),
    "GROWTH_THRESHOLDS": Parameter("Optional[int]", None, quick=10, full=100),
}
