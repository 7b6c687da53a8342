"""One door to HiGHS: a solver object that prints nothing unless asked.

HiGHS writes its banner ("Running HiGHS x.y.z ... Copyright ...") to the process's standard
output when the first ``highspy.Highs()`` of the process is constructed, before any option
can be set, and it writes from C, so redirecting ``sys.stdout`` does not catch it: it lands
in a user's terminal, in every script's output and in a notebook cell. :func:`quiet_highs`
therefore constructs that first object once with file descriptor 1 pointed at the null
device, then returns models with ``output_flag`` off. After that first construction HiGHS
prints only what its options allow, so a solver another library creates in the same
process (cvxpy's HIGHS interface) is quiet too once :func:`absorb_banner` has run.

HiGHS's branch and bound runs on one scheduler per process, whose number of workers is
fixed by the first solve (by default from the machine's cores). A MILP stopped by a node or
solution limit ends on a solution that depends on that number: on Musk the same
column-generation integer program ended at 390.2 with two workers and at 405.4 with one.
So the first construction also pins the scheduler to one worker (:func:`_one_worker`):
every integer program gives the same rule set on every machine, and a unit timed on one
core uses one core.
"""

from __future__ import annotations

import os
import sys
import threading

__all__ = ["KeptModel", "absorb_banner", "quiet_highs"]

_lock = threading.Lock()
_absorbed = False


def absorb_banner() -> None:
    """Construct the process's first HiGHS object with standard output discarded.

    Runs once per process; later calls return at once. Standard output is redirected at
    the file-descriptor level only around that one construction (a few milliseconds), so
    anything another thread writes to descriptor 1 in that window is lost with the banner.
    Where descriptor 1 cannot be duplicated (no console), the object is constructed as is.
    """
    global _absorbed
    if _absorbed:
        return
    with _lock:
        if _absorbed:
            return
        import highspy

        for stream in (sys.stdout, sys.__stdout__):
            if stream is not None:
                try:
                    stream.flush()  # what Python holds goes out before the redirect
                except (OSError, ValueError):
                    pass
        try:
            saved = os.dup(1)
        except OSError:
            first = highspy.Highs()
        else:
            devnull = os.open(os.devnull, os.O_WRONLY)
            try:
                os.dup2(devnull, 1)
                first = highspy.Highs()  # HiGHS flushes its log line itself
            finally:
                os.dup2(saved, 1)
                os.close(saved)
                os.close(devnull)
        _one_worker(highspy, first)
        _absorbed = True


def _one_worker(highspy, h) -> None:
    """Start HiGHS's scheduler with one worker by a one-variable integer solve on ``h``.

    A scheduler started earlier with more workers (another library solved first) refuses a
    model asking for one; it is then reset, which HiGHS allows between solves."""
    import numpy as np

    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    h.addVars(1, np.zeros(1), np.ones(1))
    h.changeColsIntegrality(1, np.zeros(1, np.int32), np.ones(1, np.uint8))
    if h.run() != highspy.HighsStatus.kOk:
        highspy.Highs.resetGlobalScheduler(True)
        h.run()


def quiet_highs(verbose: bool = False):
    """A fresh ``highspy.Highs`` with console output off (on when ``verbose``).

    Parameters
    ----------
    verbose : bool, default=False
        Let HiGHS log its solve to standard output (its ``output_flag``).

    Returns
    -------
    highspy.Highs
    """
    import highspy

    absorb_banner()
    h = highspy.Highs()
    h.setOptionValue("output_flag", bool(verbose))
    return h


class KeptModel:
    """The last LP model HiGHS held, kept so that the next LP with the same matrix and
    bounds is only re-costed instead of passed again.

    A sequence of clause LPs (one two-level fit) often repeats the matrix with other
    column costs; passing a matrix of millions of non-zeros costs HiGHS about a sixth of
    the solve. A kept model gets the new costs and a cleared solver, so the dual simplex
    starts from the slack basis, on the same matrix, bounds, scaling and options, as a
    new model does: the same iterations and the same solution (checked by
    ``benchmarks/library/bench_twolevel_kept.py``). Each thread keeps its own model.
    """

    def __init__(self):
        self._local = threading.local()

    def model(self, structure: tuple):
        """The kept ``highspy.Highs`` if its LP had exactly these arrays (matrix pattern
        and bounds, every cost aside), else None."""
        held = getattr(self._local, "held", None)
        if held is None or len(held[0]) != len(structure):
            return None
        import numpy as np

        same = all(
            a.shape == b.shape and a.dtype == b.dtype and np.array_equal(a, b)
            for a, b in zip(held[0], structure)
        )
        return held[1] if same else None

    def keep(self, structure: tuple, h) -> None:
        """Keep ``h``, holding the LP of ``structure``, in place of this thread's last model."""
        self._local.held = (structure, h)
