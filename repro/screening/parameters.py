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
    "TIME_LIMIT": Parameter("Optional[float]", None),
}
