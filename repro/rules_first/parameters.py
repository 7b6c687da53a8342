"""Notebook 06's parameters, declared once: the names, types and defaults its parameters
cell shows (a test keeps them equal) and the values QUICK and FULL runs use while a
parameter keeps its default (:class:`repro.core.parameters.Parameter`)."""

from repro.core.parameters import Parameter

PARAMETERS: dict[str, Parameter] = {
    "QUICK": Parameter("bool", False),
    "INTO_COMMITTED": Parameter("bool", False),
    "N_JOBS": Parameter("int", 2),
    "SEEDS": Parameter("int", 20, quick=2),
    "M_GRID": Parameter("list[int]", [100, 200, 400, 700, 1000, 1500, 2000], quick=[100, 300, 700]),
    "K_GRID": Parameter("list[int]", [0, 5, 10, 15, 20, 25, 30, 40], quick=[0, 10, 20, 22]),
    "M_RULES": Parameter("int", 1000, quick=500),
    "SEARCH": Parameter("str", "exact"),
    "SC_CONFIGS": Parameter(
        "list[tuple[int, int]]",
        [(5, 100), (10, 100), (20, 100), (40, 100), (10, 25), (10, 400)],
        quick=[(5, 100), (20, 100)],
    ),
    "SC_M": Parameter("list[int]", [100, 200, 400, 800, 1600, 3200, 6400], quick=[200, 800, 1600]),
    "SC_SEEDS": Parameter("int", 5, quick=2),
    "SC_TARGET": Parameter("float", 0.1),
    "THRESHOLDS": Parameter("list[float]", [1.0, 1.3, 1.5, 1.7, 2.0, 2.5, 3.0], quick=[1.7]),
    "TEXT_SEEDS": Parameter("list[int]", [0, 1, 2], quick=[0]),
    "CV_FOLDS": Parameter("int", 3, quick=0),
    "TWEET_BALANCE": Parameter("Optional[float]", 4.0),
    "THRESHOLD_READINGS": Parameter("list[str]", ["filters", "score"]),
    "NN_SEARCH": Parameter("str", "fast"),
    "TEXT_SIZES": Parameter("dict[str, int]", {}, quick={"n_dev": 2000, "n_test": 2000}),
    "SLS_SIZES": Parameter("dict[str, int]", {}, quick={"n_dev": 1000, "n_test": 1000}),
}
