"""Notebook 07's parameters, declared once: the names, types and defaults its parameters
cell shows (a test keeps them equal) and the values QUICK and FULL runs use while a
parameter keeps its default (:class:`repro.core.parameters.Parameter`)."""

from repro.core.parameters import Parameter

PARAMETERS: dict[str, Parameter] = {
    "QUICK": Parameter("bool", False),
    "INTO_COMMITTED": Parameter("bool", False),
    "N_JOBS": Parameter("int", 2),
    "SEED": Parameter("int", 0),
    "N_SPLITS": Parameter("int", 10),
    "ALL_DATASETS": Parameter(
        "list[str]",
        [
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
            "banknote",
        ],
    ),
    "DATASETS": Parameter("Optional[list[str]]", None),
    "KEEP_EARLIER": Parameter("bool", True),
    "QUICK_DATASETS": Parameter("list[str]", ["bupa", "transfusion", "banknote"]),
    "MAX_FOLDS": Parameter("Optional[int]", None, quick=2),
    "BRCG_ITER_MAX": Parameter("int", 100, quick=5),
    "BRCG_TIME_MAX": Parameter("Optional[float]", None),
    "CART_DEPTH": Parameter("int", 3),
    "RIPPER": Parameter("str", "jrip"),
    "THETA": Parameter("float", 1.0),
    "MAX_RULES": Parameter("int", 10),
    "QUICK_PEERS": Parameter("list[str]", ["BRCG", "CART-d3", "RF"]),
    "EXCLUDE": Parameter("list[str]", []),
    "ONLY": Parameter("Optional[list[str]]", None),
    "SPEEDUP_TARGET": Parameter("float", 5.0),
    "CG_TARGETS": Parameter(
        "dict[str, Union[str, float]]",
        {"error_of": "RuleFit", "max_rules": 5.0, "wins": 6, "speedup": 20.0},
    ),
    "CUT_DATASETS": Parameter("Optional[list[str]]", None),
    "PLANTED_ROWS": Parameter("Optional[list[int]]", None, quick=[10_000], full=[10_000, 100_000]),
    "MULTICLASS_SETS": Parameter("list[str]", ["iris", "wine", "digits", "gas", "led", "planted"]),
    "MULTICLASS_QUICK_SETS": Parameter("list[str]", ["iris", "wine"]),
    "MULTICLASS_MAX_ROWS": Parameter("dict[str, int]", {}),
    "MULTICLASS_CART_DEPTH": Parameter("int", 5),
    "MULTICLASS_SHOW": Parameter("str", "iris"),
}
