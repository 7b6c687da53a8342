"""Notebook 01's parameters, declared once: the names, types and defaults its parameters
cell shows (a test keeps them equal) and the values QUICK and FULL runs use while a
parameter keeps its default (:class:`repro.core.parameters.Parameter`)."""

from repro.core.parameters import Parameter

PARAMETERS: dict[str, Parameter] = {
    "QUICK": Parameter("bool", False),
    "INTO_COMMITTED": Parameter("bool", False),
    "N_JOBS": Parameter("int", 2),
    "N_FEATURES": Parameter("int", 20),
    "P_ONE": Parameter("float", 0.5),
    "KS": Parameter("Optional[list[int]]", None, quick=[1, 2, 3], full=[1, 2, 3, 4]),
    "MS": Parameter(
        "Optional[list[int]]",
        None,
        quick=[20, 80, 200],
        full=[10, 20, 40, 60, 80, 120, 160, 220, 300, 400],
    ),
    "N_TRIALS": Parameter("Optional[int]", None, quick=6, full=25),
    "NOISE_K": Parameter("int", 3),
    "NOISE_M": Parameter("int", 300),
    "NOISES": Parameter("list[float]", [0.0, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2]),
    "NOISE_TRIALS": Parameter("Optional[int]", None, quick=4, full=25),
    "THRESHOLDS": Parameter("list[int]", [5, 10, 20, 50]),
    "THRESHOLD_SAMPLES": Parameter("int", 1000),
    "THRESHOLD_SEEDS": Parameter("Optional[int]", None, quick=2, full=20),
}
