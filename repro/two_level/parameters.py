"""Notebook 03's parameters, declared once: the names, types and defaults its parameters
cell shows (a test keeps them equal) and the values QUICK and FULL runs use while a
parameter keeps its default (:class:`repro.core.parameters.Parameter`)."""

from repro.core.parameters import Parameter

PARAMETERS: dict[str, Parameter] = {
    "QUICK": Parameter("bool", False),
    "INTO_COMMITTED": Parameter("bool", False),
    "N_JOBS": Parameter("int", 2),
    "SEED": Parameter("int", 0),
    "N_SPLITS": Parameter("int", 10),
    "MAX_FOLDS": Parameter("Optional[int]", None, quick=2),
    "DATASETS": Parameter(
        "Optional[list[str]]",
        None,
        quick=["parkinsons", "bupa"],
        full=[
            "ilpd",
            "ionosphere",
            "bupa",
            "magic",
            "musk2",
            "parkinsons",
            "pima",
            "sonar",
            "transfusion",
            "wdbc",
        ],
    ),
    "KEEP_EARLIER": Parameter("bool", True),
    "THETA_GRID": Parameter(
        "Optional[list[float]]", None, quick=[0.1, 10.0], full=[0.01, 0.1, 1.0, 10.0]
    ),
    "INNER_CV": Parameter("int", 3, quick=2),
    "MAX_CLAUSES": Parameter("int", 5),
    "MAX_ITER": Parameter("int", 10),
    "LARGE_MAX_SAMPLES": Parameter("int", 2000),
    "RIPPER": Parameter("str", "jrip"),
}
