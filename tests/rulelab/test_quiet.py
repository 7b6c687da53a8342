"""A fit prints nothing unless asked: no solver banner, no solver log, no warning.

HiGHS prints its banner once per process, from C, at the first ``highspy.Highs()``; so each
fit runs in a fresh interpreter whose standard output and error are captured at the
file-descriptor level (a pipe), which is where a C library's writes and Python's warnings
land. The interpreter keeps its default warning filters: what a user's script would show.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulelab import ESTIMATORS

ROOT = Path(__file__).resolve().parents[2]

# A small table whose rule every learner can learn at its defaults without a warning.
FIT = """
import sys
import numpy as np, pandas as pd
from rulelab import ESTIMATORS
rng = np.random.default_rng(0)
n = 300
X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.normal(size=n),
                  "c": rng.integers(0, 5, n).astype(float)})
y = pd.Series((((X.a > 0.3) & (X.b < 0.5)) | (X.c >= 4)).astype(int), name="t")
model = ESTIMATORS[sys.argv[1]](**eval(sys.argv[2])).fit(X, y)
assert str(model) and model.predict(X).shape == y.shape
"""

# Every learner at its defaults, and the solver routes a default does not take: cvxpy's
# HiGHS interface (a highspy.Highs created by cvxpy) and pricing by a MILP.
CASES = [(name, {}) for name in ESTIMATORS] + [
    ("SetCoverRules", {"solver": "HIGHS"}),
    ("ColumnGenerationRules", {"pricing": "milp"}),
]


def run_python(code: str, *args: str) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter importing this checkout's rulelab; capture both fds."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
    )


def test_capture_sees_what_c_code_writes_to_the_descriptors():
    result = run_python("import os; os.write(1, b'out'); os.write(2, b'err')")
    assert (result.stdout, result.stderr) == ("out", "err")


def test_quiet_highs_absorbs_the_banner_a_bare_highs_prints():
    bare = run_python("import highspy; highspy.Highs()")
    if not bare.stdout:
        pytest.skip("this HiGHS prints no banner at construction")
    assert "HiGHS" in bare.stdout
    quiet = run_python(
        "import highspy\nfrom rulelab._highs import quiet_highs\n"
        "quiet_highs(); highspy.Highs(); print('after', end='')"
    )
    assert (quiet.stdout, quiet.stderr) == ("after", "")


def test_quiet_highs_logs_the_solve_when_verbose():
    code = (
        "from rulelab._highs import quiet_highs\n"
        "import numpy as np\n"
        "h = quiet_highs(verbose=True)\n"
        "h.addVar(0.0, 1.0); h.changeColCost(0, -1.0); h.run()"
    )
    assert run_python(code).stdout.strip()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "params"),
    CASES,
    ids=[f"{n}{'-' if p else ''}{'-'.join(map(str, p.values()))}" for n, p in CASES],
)
def test_fit_in_a_fresh_process_prints_nothing(name, params):
    result = run_python(FIT, name, repr(params))
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert result.stderr == ""


@pytest.mark.slow
def test_verbose_learner_prints_its_progress_when_asked():
    result = run_python(FIT, "CBMClassifier", repr({"verbose": True}))
    assert result.returncode == 0, result.stderr
    assert "[graft]" in result.stdout
    assert "HiGHS" not in result.stdout
