"""Notebook 02's parameters, declared once: the names, types and defaults its parameters
cell shows (a test keeps them equal) and the values QUICK and FULL runs use while a
parameter keeps its default (:class:`repro.core.parameters.Parameter`)."""

from repro.core.parameters import Parameter

PARAMETERS: dict[str, Parameter] = {
    "QUICK": Parameter("bool", False),
    "INTO_COMMITTED": Parameter("bool", False),
    "N_JOBS": Parameter("int", 2),
    "DATASETS": Parameter(
        "Optional[list[str]]",
        None,
        quick=["bupa"],
        full=["ilpd", "ionosphere", "bupa", "parkinsons", "pima", "sonar", "transfusion", "wdbc"],
    ),
    "N_SPLITS": Parameter("int", 10),
    "MAX_FOLDS": Parameter("Optional[int]", None, quick=2),
    "CV_SEED": Parameter("int", 0),
    "LAM": Parameter("float", 1000.0),
    "N_ROUNDS": Parameter("int", 5),
    "N_THRESHOLDS": Parameter("int", 10),
    "REPEAT_SEEDS": Parameter("Optional[list[int]]", None, quick=[], full=[1, 2, 3, 4]),
    "EXACT_TIME_LIMIT": Parameter("Optional[float]", None, quick=2, full=20),
    "ILLUSTRATE": Parameter("list[str]", ["pima", "bupa"]),
    "RIPPER": Parameter("str", "jrip"),
}
