"""A notebook's progress on the terminal while papermill runs it.

The pipeline names a tally file for each notebook (:data:`repro.core.runner.TALLY_ENV`), and the
kernel and its workers append a line to it for every unit of cached work: ``wrote
kind/hash.json`` for a unit just computed, ``read kind/hash.json`` for one taken from the
cache. :class:`Progress` reads that file every so often and prints a line when it has grown,
so that a notebook that runs for an hour does not look stuck::

    [rulelab] 05_grab: 312 of 1,204 units (40 read from the cache), 14 min so far, about 40 min left

:func:`quiet_kernel_warnings` gives papermill the options that keep every kernel from
printing that it runs "over TCP without encryption".
"""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path
from types import TracebackType
from typing import Any, TextIO


class _Units:
    """The distinct entries a tally has recorded so far, fed a piece of its text at a time."""

    def __init__(self) -> None:
        self.wrote: set[str] = set()
        self.read: set[str] = set()

    def add(self, text: str) -> None:
        for line in text.splitlines():
            action, _, rest = line.strip().partition(" ")
            entry = rest.split("\t", 1)[0].strip()  # the unit's recipe may follow a tab
            if not entry:  # a blank line, or one that is not an action and an entry
                continue
            if action == "wrote":
                self.wrote.add(entry)
            elif action == "read":
                self.read.add(entry)

    def counts(self) -> tuple[int, int]:
        return len(self.wrote | self.read), len(self.read - self.wrote)


def count_units(text: str) -> tuple[int, int]:
    """The units a tally records: how many are done, and how many of those came from the cache.

    Parameters
    ----------
    text : str
        The tally's text: one ``wrote <kind>/<name>`` or ``read <kind>/<name>`` per line,
        optionally followed by a tab and the unit's recipe.

    Returns
    -------
    done : int
        Distinct ``<kind>/<name>`` entries, whichever the action: a unit read after it was
        written is one unit.
    read : int
        The entries among them that were only read: results of an earlier run. A unit this
        run wrote counts as computed even when it was read afterwards.
    """
    units = _Units()
    units.add(text)
    return units.counts()


def _duration(seconds: float) -> str:
    """``"45 s"`` under a minute, else whole minutes: ``"14 min"``, ``"1,234 min"``."""
    seconds = max(0, int(seconds + 0.5))
    if seconds < 60:
        return f"{seconds} s"
    return f"{int(seconds / 60 + 0.5):,} min"


def progress_line(label: str, done: int, read: int, total: int | None, elapsed: float) -> str:
    """One progress report for the terminal.

    For example ``[rulelab] 05_grab: 312 of 1,204 units (40 read from the cache), 14 min so
    far, about 46 min left``; the part in parentheses only when a unit was read.

    Parameters
    ----------
    label : str
        What is running, usually the notebook's name.
    done : int
        Units finished so far, computed or read from the cache.
    read : int
        The finished units that were read from the cache.
    total : int or None
        The units the run will finish, when known; without it the line gives no time left.
    elapsed : float
        Seconds since the run started.

    Returns
    -------
    str
        The line, without a newline.

    Notes
    -----
    The time left is estimated from the computed units alone, ``elapsed / computed *
    (total - done)``: a read takes milliseconds and a computed unit seconds to minutes, so
    counting reads in the rate would promise a resumed run an end far too soon. Until a unit has been computed
    there is no rate, and the line says nothing about the time left.
    """
    if total is None:
        units = f"{done:,} unit{'' if done == 1 else 's'} so far"
    else:
        units = f"{done:,} of {total:,} unit{'' if total == 1 else 's'}"
    cache = f" ({read:,} read from the cache)" if read else ""
    line = f"[rulelab] {label}: {units}{cache}, {_duration(elapsed)} so far"
    computed = done - read
    if total is not None and computed > 0 and total > done:
        line += f", about {_duration(elapsed / computed * (total - done))} left"
    return line


class Progress:
    """Report a notebook's progress from its tally file while it runs, as a context manager.

    A daemon thread reads the tally every ``every`` seconds and prints a
    :func:`progress_line` when the count of units has changed since the last line (nothing
    while the notebook has finished no unit). Leaving the ``with`` block stops and joins the
    thread: nothing is printed after it.

    Parameters
    ----------
    tally : Path
        The file the kernel appends ``wrote``/``read`` lines to; it need not exist yet.
    label : str
        What is running, usually the notebook's name.
    total : int or None
        The units the run will finish, when known (it gives the time left).
    every : float
        Seconds between two looks at the tally.
    out : TextIO or None
        Where the lines go; None is ``sys.stdout`` as it is when a line is printed.

    Examples
    --------
    >>> with Progress(tally, "05_grab", total=1204):  # doctest: +SKIP
    ...     papermill.execute_notebook(...)
    """

    def __init__(
        self,
        tally: Path,
        label: str,
        total: int | None = None,
        *,
        every: float = 30.0,
        out: TextIO | None = None,
    ) -> None:
        self.tally = Path(tally)
        self.label = label
        self.total = total
        self.every = every
        self.out = out
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._started = 0.0
        self._units = _Units()
        self._read_to = 0  # the tally is read on from here: it grows to megabytes
        self._last = (0, 0)

    def __enter__(self) -> Progress:
        self._started = time.monotonic()
        self._thread = threading.Thread(target=self._watch, name="rulelab-progress", daemon=True)
        self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def _watch(self) -> None:
        while not self._stop.wait(self.every):
            self._report()

    def _report(self) -> None:
        try:
            with open(self.tally, "rb") as tally:
                tally.seek(self._read_to)
                new = tally.read()
        except OSError:  # not created yet, or already removed: nothing to say
            return
        # A line still being appended would count as an entry of its own: whole lines only.
        whole = new[: new.rfind(b"\n") + 1]
        self._read_to += len(whole)
        self._units.add(whole.decode("utf-8", errors="replace"))
        done, read = self._units.counts()
        if (done, read) == self._last or self._stop.is_set():
            return
        self._last = (done, read)
        line = progress_line(self.label, done, read, self.total, time.monotonic() - self._started)
        print(line, file=self.out if self.out is not None else sys.stdout, flush=True)


def quiet_kernel_warnings() -> dict[str, Any]:
    """Options for ``papermill.execute_notebook`` that keep the kernel from warning that it
    "is running over TCP without encryption", by encrypting its connection.

    Returns
    -------
    dict
        ``{"config": ...}`` asking jupyter_client to give the kernel CurveZMQ keys when its
        kernelspec says it can use them (ipykernel's does); empty when this pyzmq has no
        CurveZMQ, and the kernel then warns as before.

    Notes
    -----
    ipykernel's ``IPKernelApp`` logs the warning (``self.log.warning`` in ``init_sockets``)
    in the kernel's own process, to the standard error it inherits from the pipeline: no
    ``warnings`` filter or logging filter in the pipeline's process can reach it. It is
    logged only when the kernel has no CurveZMQ key, so the options give it one.

    The plain connection was not exposed: jupyter_client binds a kernel it starts to
    ``localhost()``, 127.0.0.1, unless told otherwise, and the pipeline does not tell it.
    Encrypting it anyway costs nothing noticeable, and removes the cause of the warning
    instead of hiding a warning that could one day be true.
    """
    import zmq
    from traitlets.config import Config

    if not zmq.has("curve"):  # "auto" would be refused, and the kernel could not start
        return {}
    return {"config": Config({"KernelManager": {"transport_encryption": "auto"}})}
