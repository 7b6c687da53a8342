"""The set-covering starts of one process, kept by the content of what they are computed from.

BCD and AM with the same ``complexity`` and ``max_rules`` on the same rows start from the
same rule: the set-covering baseline's (:func:`rulelab.twolevel.optimize.init_weights`),
whose clause LPs are a sixth of a tuned fit on Musk. The start depends on theta, so a
fit's theta grid and its inner folds never meet one start twice; the two methods tuned
over the same grid on the same folds meet every one. :data:`SETCOVER_STARTS` keeps the
last starts of this process, keyed by a hash of every input of the computation (the 0/1
design's bytes and shape, the labels, the clause count, theta, the LP options), so a
start found there is the one the computation would return: the same weights and the same
count of LPs. A start is a few boolean rows (16 kB on Musk), so keeping dozens costs little;
a fold of notebook 03 meets 13 per method.

A start taken from the memo is not free work: :attr:`StartMemo.reused_seconds` adds up the
seconds each one took when it was computed, so that a fit's time can be reported as the
time it takes alone (``repro.core.runner`` charges them to the fit that took them).
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

import numpy as np

__all__ = ["StartMemo", "SETCOVER_STARTS"]


class StartMemo:
    """The last ``maxsize`` set-covering starts computed in this process.

    Parameters
    ----------
    maxsize : int, default=64
        Starts kept (the oldest used is dropped first); 0 keeps none, so every fit
        computes its own start.

    Attributes
    ----------
    hits, misses : int
        Starts found and computed since the memo was made or last cleared.
    reused_seconds : float
        The seconds the starts found had taken to compute, added up over the hits.
    """

    def __init__(self, maxsize: int = 64):
        self.maxsize = maxsize
        self._kept: OrderedDict[bytes, tuple[np.ndarray, int, float]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0
        self.reused_seconds = 0.0

    @staticmethod
    def key(Xa: np.ndarray, y: np.ndarray, n_clauses: int, theta: float, options: dict) -> bytes:
        """A hash of every input of one start: the design's and the labels' dtypes, shapes
        and bytes, the clause count, theta and the LP options the start uses."""
        h = hashlib.blake2b(digest_size=20)
        Xa, y = np.ascontiguousarray(Xa), np.ascontiguousarray(y)
        settings = (Xa.dtype.str, Xa.shape, y.dtype.str, y.shape, int(n_clauses), float(theta))
        h.update(repr((settings, sorted(options.items()))).encode())
        h.update(Xa.data)
        h.update(y.data)
        return h.digest()

    def get(self, key: bytes, compute: Callable[[], tuple[np.ndarray, int]]):
        """The start kept under ``key``, else ``compute()`` (kept); returns (W, LPs solved),
        W a copy the caller may change."""
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
                self.hits += 1
                self.reused_seconds += found[2]
        if found is None:
            t0 = time.perf_counter()
            W, lps = compute()
            found = (W, lps, time.perf_counter() - t0)
            with self._lock:
                self.misses += 1
                if self.maxsize > 0:
                    self._kept[key] = (W.copy(), lps, found[2])
                    while len(self._kept) > self.maxsize:
                        self._kept.popitem(last=False)
        return found[0].copy(), found[1]

    def clear(self) -> None:
        """Forget every start and reset the counts."""
        with self._lock:
            self._kept.clear()
            self.hits = self.misses = 0
            self.reused_seconds = 0.0

    def __len__(self) -> int:
        return len(self._kept)


#: The set-covering starts of this process (:func:`rulelab.twolevel.optimize.init_weights`).
SETCOVER_STARTS = StartMemo()
