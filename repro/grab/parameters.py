"""Notebook 05's parameters, declared once: the names, types and defaults its parameters
cell shows (a test keeps them equal) and the values QUICK and FULL runs use while a
parameter keeps its default (:class:`repro.core.parameters.Parameter`)."""

from repro.core.parameters import Parameter

PARAMETERS: dict[str, Parameter] = {
    "QUICK": Parameter("bool", False),
    "INTO_COMMITTED": Parameter("bool", False),
    "SEED": Parameter("int", 0),
    "N_JOBS": Parameter("int", 2),
    "TOP_K": Parameter("int", 1000),
    "COUNT_SETS": Parameter("list[str]", ["ijcnn1", "phishing"], quick=[]),
    "FIG2_ROWS": Parameter("Optional[int]", None, quick=2000),
    "FIG2_DEGREES": Parameter("list[int]", [1, 2, 3, 4, 5, 6], quick=[1, 2, 3]),
    "FIG2_NAIVE_LIMIT": Parameter("float", 200000000.0, quick=1e6),
    "FIG2_TOL": Parameter("float", 0.0001),
    "FIG2_LIBLINEAR_TOL": Parameter("float", 0.01),
    "FIG2_TARGET": Parameter("str", "common"),
    "FIG2_REPEATS": Parameter("int", 3),
    "FIG3_SIZES": Parameter(
        "dict[str, list[int]]",
        {
            "ijcnn1": [300, 1000, 3000, 10000],
            "phishing": [300, 1000, 3000, 8844],
            "a1a_all": [300, 1000, 3000, 10000],
        },
        quick={"ijcnn1": [300, 1000], "phishing": [300, 1000]},
    ),
    "FIG3_DEGREES": Parameter("list[int]", [1, 2, 3], quick=[1, 2]),
    "FIG3_CS": Parameter("list[float]", [0.1, 1.0, 10.0], quick=[0.1, 1.0]),
    "FIG3_MAX_TEST": Parameter("Optional[int]", None, quick=2000),
    "FOLDS": Parameter("int", 3),
    "TABLE1_SETS": Parameter(
        "list[str]",
        ["a1a", "phishing", "diabetes", "fourclass", "german.numer", "madelon", "ijcnn1"],
        quick=["fourclass", "diabetes"],
    ),
    "TABLE1_MAX_TRAIN": Parameter("Union[int, dict[str, int], None]", {"ijcnn1": 10000}, quick=300),
    "TABLE1_FOLDS": Parameter("int", 5, quick=2),
    "TABLE1_FIT_TIME_LIMIT": Parameter("Optional[float]", 3600, quick=None),
    "LRFIM_MAX_SIZE": Parameter("dict[str, int]", {"phishing": 3}),
    "TABLE1_SPLITS": Parameter(
        "dict[str, int]",
        {"diabetes": 10, "fourclass": 10, "german.numer": 10},
        quick={"fourclass": 2, "diabetes": 2},
    ),
    "TABLE1_METHODS": Parameter("Union[list[str], dict[str, list[str]], None]", None),
    "TABLE1_GRIDS": Parameter("str", "paper", quick="quick"),
    "KEEP_EARLIER": Parameter("bool", True),
    "TABLE2_RUNS": Parameter(
        "list[tuple[str, float, int]]",
        [("ijcnn1", 1.0, 4), ("phishing", 1.0, 5)],
        quick=[("phishing", 1.0, 3)],
    ),
    "TABLE2_TOLS": Parameter(
        "list[float]", [1e-07, 1e-06, 1e-05, 0.0001, 0.001, 0.01], quick=[1e-4, 1e-3, 1e-2]
    ),
    "TABLE2_MAX_TRAIN": Parameter("Optional[int]", 5000, quick=2000),
    "TABLE2_TIME_LIMIT": Parameter("Optional[float]", 90, quick=None),
    "TABLE3_SETTINGS": Parameter(
        "list[tuple[float, int]]",
        [(0.01, 10), (0.01, 1000), (0.0001, 100), (1e-05, 100)],
        quick=[(1e-2, 10), (1e-2, 1000), (1e-4, 100)],
    ),
}
