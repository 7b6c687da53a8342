"""Notebook 08's parameters, declared once: the names, types and defaults its parameters
cell shows (a test keeps them equal) and the values QUICK and FULL runs use while a
parameter keeps its default (:class:`repro.core.parameters.Parameter`)."""

from repro.core.parameters import Parameter

PARAMETERS: dict[str, Parameter] = {
    "QUICK": Parameter("bool", False),
    "INTO_COMMITTED": Parameter("bool", False),
    "SEED": Parameter("int", 0),
    "N_JOBS": Parameter("int", 2),
    "RECOVERY_CLAUSES": Parameter("Optional[list[int]]", None, quick=[2, 4], full=[2, 4, 6, 8]),
    "RECOVERY_SAMPLES": Parameter(
        "Optional[list[int]]", None, quick=[250, 1000], full=[125, 250, 500, 1000, 2000, 4000]
    ),
    "RECOVERY_TRIALS": Parameter("Optional[int]", None, quick=2, full=10),
    "ABLATION_SETS": Parameter("list[str]", ["magic", "musk2"]),
    "ABLATION_ROWS": Parameter("Optional[int]", None, quick=600, full=None),
    "ABLATION_BUDGET": Parameter("Optional[float]", None, quick=4, full=120),
    "MILP_ROUNDS": Parameter("Optional[int]", None, quick=1, full=3),
    "MILP_TIME": Parameter("Optional[float]", None, quick=2, full=30),
    "COMPLEXITY": Parameter("float", 0.001),
    "PATH_SETS": Parameter("Optional[list[str]]", None, quick=["pima"], full=["pima", "sonar"]),
    "PATH": Parameter(
        "list[float]", [0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005], quick=[0.05, 0.005, 0.0005]
    ),
    "PATH_FOLDS": Parameter("Optional[int]", None, quick=2, full=10),
}
