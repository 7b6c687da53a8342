"""RIPPER as Cohen (1995) ran it: Weka's ``JRip`` as a scikit-learn classifier.

Cohen's RIPPER grows each rule by searching thresholds on the raw numeric values; the
``wittgenstein`` package cuts every numeric feature into a few bins first, which loses
accuracy on sets whose class boundary falls between bin edges. Weka's JRip is the
reference implementation of Cohen's algorithm (IREP*, MDL stopping, two optimisation
passes), so the reproductions run it through this adapter.

The adapter writes each training and test set to a temporary ARFF file (numbers stay
numeric, everything else is nominal, missing values are ``?``) and runs JRip from the
installed ``weka.jar`` in a Java process. Attributes, nominal values and classes are
written under neutral names (``a0``, ``v0``, ``c0``...) so that any column name or category
survives the file format; the printed rules are translated back to the data's names.
Weka is a system package (Debian: ``apt-get install weka``), not a Python one.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from repro.peers.program_io import as_frame, coded_cells, nominal_values, training_table

__all__ = ["JRipClassifier", "make_ripper", "RIPPERS", "find_weka", "weka_version", "weka_missing"]

DEFAULT_JAR = "/usr/share/java/weka.jar"
"""Where Debian's ``weka`` package puts the jar (``WEKA_JAR`` overrides it)."""

INSTALL_HINT = (
    "install Java and Weka with 'apt-get install weka' (Debian/Ubuntu; 'make setup' "
    "does it when run as root) or point WEKA_JAR at a weka.jar"
)


def _java() -> str | None:
    """The ``java`` executable: ``$JAVA_HOME/bin/java`` if set, else the one on PATH."""
    home = os.environ.get("JAVA_HOME")
    if home and (Path(home) / "bin" / "java").is_file():
        return str(Path(home) / "bin" / "java")
    return shutil.which("java")


def find_weka(jar: str | None = None) -> tuple[str, str]:
    """``(java, weka.jar)`` to run JRip with; a ``RuntimeError`` saying how to install either.

    Parameters
    ----------
    jar : str, optional
        Path of ``weka.jar``; default ``$WEKA_JAR`` or Debian's ``/usr/share/java/weka.jar``.
    """
    java = _java()
    if java is None:
        raise RuntimeError(f"JRip needs a Java runtime and none was found: {INSTALL_HINT}")
    jar = jar or os.environ.get("WEKA_JAR") or DEFAULT_JAR
    if not Path(jar).is_file():
        raise RuntimeError(f"JRip needs Weka and {jar} does not exist: {INSTALL_HINT}")
    return java, jar


def weka_missing(jar: str | None = None) -> str | None:
    """Why JRip cannot run here (what to install), or None when Java and Weka are present."""
    try:
        find_weka(jar)
    except RuntimeError as err:
        return str(err)
    return None


@functools.cache
def _version(java: str, jar: str) -> str:
    out = subprocess.run(
        [java, "-cp", jar, "weka.core.Version"], capture_output=True, text=True, check=False
    ).stdout.split()
    if not out or not re.fullmatch(r"\d+(\.\d+)+", out[0]):
        raise RuntimeError(f"could not read the Weka version from {jar}: {INSTALL_HINT}")
    return out[0]


def weka_version(jar: str | None = None) -> str:
    """The installed Weka release, e.g. ``"3.6.14"`` (read once per process)."""
    return _version(*find_weka(jar))


def _run(args: list[str], jar: str | None) -> str:
    """Run ``weka.classifiers.rules.JRip`` with ``args``; its standard output."""
    java, jar = find_weka(jar)
    proc = subprocess.run(
        [java, "-cp", jar, "weka.classifiers.rules.JRip", *args],
        capture_output=True,
        text=True,
        check=False,
    )
    # Weka reports some failures (e.g. incompatible headers) on stderr with exit code 0.
    if proc.returncode != 0 or "Exception" in proc.stderr:
        raise RuntimeError(
            f"JRip failed (exit code {proc.returncode}): "
            f"{(proc.stderr or proc.stdout).strip()[-2000:]}"
        )
    return proc.stdout


_RULE = re.compile(r"^(?P<lhs>.*?)\s*=> c=(?P<cls>c\d+) \((?P<cover>[^)]*)\)\s*$")
_COND = re.compile(r"\((?P<att>a\d+) (?P<op><=|>=|=|<|>) (?P<value>[^()]*)\)")
_PRED = re.compile(r"^\s*(\d+)\s+\S+\s+(\d+):")


class JRipClassifier(ClassifierMixin, BaseEstimator):
    """RIPPER (Cohen 1995) as Weka's ``JRip``: an ordered rule list searched on raw values.

    Rules are grown for the classes in order of increasing frequency, each by adding the
    condition with the best FOIL gain over every threshold of the raw numeric values (and
    every value of a nominal one), pruned on a held-out third (``folds=3``), stopped by
    description length, and revised in ``optimizations`` passes; the most frequent class is
    the default. Missing values are handled by JRip itself (a condition on a missing value
    does not fire), categories are nominal attributes: no imputation, no binning. The
    defaults are Weka's (``-F 3 -N 2.0 -O 2 -S 1``).

    Parameters
    ----------
    folds : int, default=3
        JRip's ``-F``: one fold of this many is the pruning set.
    min_weight : float, default=2.0
        JRip's ``-N``: least total weight of the samples a condition covers.
    optimizations : int, default=2
        JRip's ``-O``: optimisation passes over the rule set.
    seed : int, default=1
        JRip's ``-S``: seed of the growing/pruning split (fixed, so fits are repeatable).
    check_error_rate : bool, default=True
        False passes ``-E`` (do not stop when a rule's error reaches one half).
    use_pruning : bool, default=True
        False passes ``-P``.
    weka_version : str, optional
        The Weka release the results are meant for; ``fit`` refuses another one. The model
        builders of the reproductions pass the installed release, so that it is part of
        ``get_params`` and hence of every cache key. None runs whatever is installed.
    jar : str, optional
        Path of ``weka.jar`` (default ``$WEKA_JAR`` or Debian's location).

    Attributes
    ----------
    classes_ : ndarray
    rules_text_ : list of str
        The rule list in words, the default rule last (``str(model)`` joins them).
    rules_ : list of tuple
        ``(conditions, class)`` for each rule, ``conditions`` a list of
        ``(column, operator, value)``; the default rule has no conditions.
    model_ : bytes
        The serialised Weka model (the estimator pickles without any temporary file).
    """

    def __init__(
        self,
        folds: int = 3,
        min_weight: float = 2.0,
        optimizations: int = 2,
        seed: int = 1,
        check_error_rate: bool = True,
        use_pruning: bool = True,
        weka_version: str | None = None,
        jar: str | None = None,
    ):
        self.folds = folds
        self.min_weight = min_weight
        self.optimizations = optimizations
        self.seed = seed
        self.check_error_rate = check_error_rate
        self.use_pruning = use_pruning
        self.weka_version = weka_version
        self.jar = jar

    # ---- fitting ------------------------------------------------------------------------
    def fit(self, X, y):
        """Write ``X``, ``y`` as ARFF, run JRip on it and keep its model and rules."""
        X, y, self.classes_, self.feature_names_in_ = training_table(X, y)
        if self.weka_version is not None:
            installed = weka_version(self.jar)
            if installed != self.weka_version:
                raise ValueError(
                    f"weka_version={self.weka_version!r} but Weka {installed} is "
                    "installed: pass weka_version=None or install that release"
                )
        self.n_features_in_ = X.shape[1]
        self.nominal_ = {}
        for j, col in enumerate(X.columns):
            self.nominal_[j] = nominal_values(X[col], col, "JRip")
        codes = np.searchsorted(self.classes_, y)
        args = [
            "-F",
            str(self.folds),
            "-N",
            repr(float(self.min_weight)),
            "-O",
            str(self.optimizations),
            "-S",
            str(self.seed),
        ]
        args += [] if self.check_error_rate else ["-E"]
        args += [] if self.use_pruning else ["-P"]
        with tempfile.TemporaryDirectory(prefix="jrip") as tmp:
            train, model = Path(tmp) / "train.arff", Path(tmp) / "jrip.model"
            train.write_text(self._arff(X, codes), encoding="utf-8")
            out = _run(["-t", str(train), "-no-cv", "-v", "-d", str(model), *args], self.jar)
            self.model_ = model.read_bytes()
        self.rules_ = self._parse_rules(out)
        self.rules_text_ = [self._rule_words(conds, cls) for conds, cls in self.rules_]
        return self

    def _arff(self, X: pd.DataFrame, codes: np.ndarray | None) -> str:
        """The ARFF text of ``X`` under neutral names; ``codes`` None writes ``?`` classes."""
        lines = ["@relation rulelab"]
        for j in range(X.shape[1]):
            values = self.nominal_[j]
            kind = (
                "numeric"
                if values is None
                else "{" + ",".join(f"v{i}" for i in range(len(values))) + "}"
            )
            lines.append(f"@attribute a{j} {kind}")
        lines.append("@attribute c {" + ",".join(f"c{i}" for i in range(self.classes_.size)) + "}")
        lines.append("@data")
        cols = coded_cells(X, self.nominal_)
        cls = ["?"] * X.shape[0] if codes is None else [f"c{int(c)}" for c in codes]
        lines.extend(",".join(row) for row in zip(*cols, cls))
        return "\n".join(lines) + "\n"

    def _parse_rules(self, out: str) -> list[tuple[list, object]]:
        rules = []
        for line in out.splitlines():
            match = _RULE.match(line.strip())
            if match is None:
                continue
            conds = []
            for cond in _COND.finditer(match["lhs"]):
                j = int(cond["att"][1:])
                value = cond["value"].strip()
                if self.nominal_[j] is not None:
                    value = self.nominal_[j][int(value[1:])]
                else:
                    value = float(value)
                conds.append((self.feature_names_in_[j], cond["op"], value))
            rules.append((conds, self.classes_[int(match["cls"][1:])]))
        if not rules or rules[-1][0]:
            raise RuntimeError("could not read JRip's rule list from its output:\n" + out[-2000:])
        return rules

    @staticmethod
    def _rule_words(conds: list, cls) -> str:
        if not conds:
            return f"ELSE {cls}"
        body = " AND ".join(
            f"{c} {op} {v!r}" if isinstance(v, str) else f"{c} {op} {v:g}" for c, op, v in conds
        )
        return f"IF {body} THEN {cls}"

    # ---- prediction -----------------------------------------------------------------------
    def predict(self, X) -> np.ndarray:
        """The class of the first rule that fires on each row (the default class if none)."""
        check_is_fitted(self, "model_")
        X = as_frame(X)
        names = [str(c) for c in X.columns]
        if names != list(self.feature_names_in_):
            raise ValueError(
                f"X has columns {names}, but JRip was fitted on "
                f"{list(self.feature_names_in_)} (same names, same order)"
            )
        if X.shape[0] == 0:
            return self.classes_[:0]
        for j, col in enumerate(X.columns):
            if self.nominal_[j] is None:
                nominal_values(X[col], col, "JRip")  # the same checks as in fit
        with tempfile.TemporaryDirectory(prefix="jrip") as tmp:
            test, model = Path(tmp) / "test.arff", Path(tmp) / "jrip.model"
            test.write_text(self._arff(X, None), encoding="utf-8")
            model.write_bytes(self.model_)
            out = _run(["-l", str(model), "-T", str(test), "-p", "0"], self.jar)
        pred = np.full(X.shape[0], -1)
        for line in out.splitlines():
            match = _PRED.match(line)
            if match:
                pred[int(match[1]) - 1] = int(match[2]) - 1
        if (pred < 0).any():
            raise RuntimeError("JRip predicted fewer rows than it was given:\n" + out[-2000:])
        return self.classes_[pred]

    def complexity_(self) -> tuple[float, float]:
        """(rules, conditions) of the rule list, the condition-free default rule not counted."""
        check_is_fitted(self, "rules_")
        learned = [conds for conds, _ in self.rules_ if conds]
        return float(len(learned)), float(sum(len(c) for c in learned))

    def __str__(self) -> str:
        if not hasattr(self, "rules_text_"):
            return repr(self)
        return "\n".join(self.rules_text_)


RIPPERS = ("jrip", "wittgenstein")
"""The RIPPER implementations the reproductions can run (the ``RIPPER`` notebook parameter)."""


def make_ripper(implementation: str = "jrip", random_state: int = 0):
    """An unfitted RIPPER: Weka's JRip (Cohen's algorithm) or wittgenstein's (pre-binned).

    ``"jrip"`` pins the installed Weka release in the estimator's parameters (so a cached
    result names the release that computed it) and raises a ``RuntimeError`` saying how to
    install Weka when it is missing; ``"wittgenstein"`` is
    :class:`repro.peers.ripper.RipperClassifier` (10 bins per numeric feature).
    """
    if implementation == "jrip":
        return JRipClassifier(weka_version=weka_version())
    if implementation == "wittgenstein":
        from repro.peers.ripper import RipperClassifier

        return RipperClassifier(random_state=random_state)
    raise ValueError(f"unknown RIPPER implementation {implementation!r}: use one of {RIPPERS}")
