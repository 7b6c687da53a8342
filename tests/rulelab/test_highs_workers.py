"""HiGHS's branch and bound runs on one worker in every process that uses rulelab, so an
integer program stopped by a count limit ends on the same solution on every machine."""

import re

from tests.rulelab.test_quiet import run_python

MIP = (
    "import numpy as np\n"
    "from rulelab._highs import quiet_highs\n"
    "h = quiet_highs(verbose=True); h.setOptionValue('presolve', 'off')\n"
    "h.addVars(3, np.zeros(3), np.ones(3))\n"
    "h.changeColsIntegrality(3, np.arange(3, dtype=np.int32), np.ones(3, np.uint8))\n"
    "h.changeColsCost(3, np.arange(3, dtype=np.int32), -np.ones(3))\n"
    "h.addRow(-np.inf, 1.5, 3, np.arange(3, dtype=np.int32), np.ones(3))\n"
    "print('status', h.run(), h.modelStatusToString(h.getModelStatus()))\n"
)

OTHER_LIBRARY_FIRST = (
    "import highspy, numpy as np\n"
    "g = highspy.Highs(); g.setOptionValue('output_flag', False)\n"
    "g.setOptionValue('threads', 2)\n"
    "g.addVars(1, np.zeros(1), np.ones(1))\n"
    "g.changeColsIntegrality(1, np.zeros(1, np.int32), np.ones(1, np.uint8))\n"
    "assert g.run() == highspy.HighsStatus.kOk\n"
)


def workers(log: str) -> int:
    found = re.search(r"using up to (\d+) workers?", log)
    assert found, log
    return int(found.group(1))


def test_an_integer_program_runs_on_one_worker():
    result = run_python(MIP)
    assert "status HighsStatus.kOk Optimal" in result.stdout, result.stdout + result.stderr
    assert workers(result.stdout) == 1


def test_one_worker_also_after_another_library_started_two():
    # the scheduler a first solve started with two workers would refuse a one-worker
    # model; rulelab resets it between solves instead of failing or following it
    result = run_python(OTHER_LIBRARY_FIRST + MIP)
    assert "status HighsStatus.kOk Optimal" in result.stdout, result.stdout + result.stderr
    assert workers(result.stdout) == 1
