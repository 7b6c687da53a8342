"""Notebook 07's multiclass table: column generation's ordered rule list against RIPPER,
CART, a random forest and one-vs-rest over the binary learner.

``ColumnGenerationRules`` fits more than two classes as one ordered list of per-class DNFs
(:mod:`rulelab.colgen.multiclass`, RIPPER's scheme); scikit-learn's
``OneVsRestClassifier`` over the binary learner is the obvious alternative, one rule set
per class and the highest decision value winning. Both run with RIPPER (Weka's JRip, which
learns ordered rule lists for any number of classes itself), CART and a random forest on
the same stratified folds through the one cached runner (:func:`repro.core.runner.cross_validate`).

The data: iris, wine and the handwritten digits ship with scikit-learn; the gas sensor
drift data (six gases, the batches our copy holds) comes from rulelab's registry; two
generated sets have a known structure: Breiman's LED display (``led``: ten digits as seven
segments, each flipped with probability 0.1, Breiman et al. 1984) and a planted rule list
(``planted``: four classes of rules over twelve fair bits, 5 % of the labels redrawn).
"""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split
from sklearn.multiclass import OneVsRestClassifier

from repro.benchmark.tables import benchmark_table
from repro.core.codekey import source_key
from repro.core.model_size import complexity
from repro.core.runner import cross_validate
from repro.core.verdicts import compare, family_note, no_worse, rows_of, tally
from repro.peers.jrip import make_ripper, weka_missing

__all__ = [
    "MULTICLASS_SETS",
    "GASES",
    "GENERATED_ROWS",
    "led_digits",
    "planted_list",
    "load_multiclass",
    "OneVsRestRules",
    "multiclass_methods",
    "run_multiclass",
    "multiclass_table",
    "error_pm",
    "size_cells",
    "compare_to",
    "claim_against",
]

MULTICLASS_SETS = ("iris", "wine", "digits", "gas", "led", "planted")
"""The multiclass sets :func:`load_multiclass` reads: three bundled with scikit-learn, one
from the registry, two generated with a known structure."""

GENERATED_ROWS = 3000
"""Rows drawn of each generated set (seeded, so every run draws the same)."""

# the seven segments of each digit 0-9 (top, upper left, upper right, middle, lower left,
# lower right, bottom)
_SEGMENTS = np.array(
    [[1, 1, 1, 0, 1, 1, 1], [0, 0, 1, 0, 0, 1, 0], [1, 0, 1, 1, 1, 0, 1], [1, 0, 1, 1, 0, 1, 1],
     [0, 1, 1, 1, 0, 1, 0], [1, 1, 0, 1, 0, 1, 1], [1, 1, 0, 1, 1, 1, 1], [1, 0, 1, 0, 0, 1, 0],
     [1, 1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 0, 1, 1]]
)  # fmt: skip


def led_digits(n: int, seed: int = 0, noise: float = 0.1) -> tuple[pd.DataFrame, pd.Series]:
    """Breiman's LED data: a digit drawn uniformly, its seven segments as 0/1 columns, each
    flipped with probability ``noise`` (the Bayes error is about 0.26 at 0.1)."""
    rng = np.random.default_rng(seed)
    digit = rng.integers(0, 10, n)
    lit = _SEGMENTS[digit] ^ (rng.random((n, 7)) < noise)
    X = pd.DataFrame(lit.astype(np.int64), columns=[f"segment_{j + 1}" for j in range(7)])
    return X, pd.Series(digit.astype(str), name="digit")


def planted_list(n: int, seed: int = 0, noise: float = 0.05) -> tuple[pd.DataFrame, pd.Series]:
    """Four classes over twelve fair bits, as the rule list ``IF b0 AND b1 AND b2 THEN A
    ELSE IF b3 AND b4 THEN B ELSE IF (b5 AND b6) OR (b7 AND b8) THEN C ELSE D`` gives them,
    then ``noise`` of the labels redrawn uniformly (the Bayes error is ``0.75 * noise``)."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.integers(0, 2, size=(n, 12)), columns=[f"b{i}" for i in range(12)])
    b = X.to_numpy(bool)
    y = np.full(n, "D", dtype=object)
    y[(b[:, 5] & b[:, 6]) | (b[:, 7] & b[:, 8])] = "C"
    y[b[:, 3] & b[:, 4]] = "B"
    y[b[:, 0] & b[:, 1] & b[:, 2]] = "A"
    redraw = rng.random(n) < noise
    y[redraw] = rng.choice(np.array(["A", "B", "C", "D"], dtype=object), int(redraw.sum()))
    return X, pd.Series(y, name="class")


GASES = ("Ethanol", "Ethylene", "Ammonia", "Acetaldehyde", "Acetone", "Toluene")
"""The gas drift data's classes 1..6 (the registry's note on ``gas_drift_partial``)."""


@functools.cache
def _gas() -> tuple[pd.DataFrame, pd.Series]:
    from rulelab import load_dataset

    # The registry gives 0/1 labels (its checks of the file apply to every load): each gas
    # is read as its own positive class and the six indicators make the label.
    label = None
    for code, gas in enumerate(GASES, start=1):
        X, y = load_dataset("gas", positive=(str(code),))
        if label is None:
            label = np.full(len(y), "", dtype=object)
        label[y.to_numpy() == 1] = gas
    if (label == "").any():
        raise ValueError("gas_drift_partial has rows of a class outside 1..6")
    return X, pd.Series(label, name="gas")


def _bundled(name: str) -> tuple[pd.DataFrame, pd.Series]:
    from sklearn import datasets

    bunch = getattr(datasets, f"load_{name}")(as_frame=True)
    names = np.asarray(bunch.target_names, dtype=object)
    y = pd.Series(names[bunch.target.to_numpy()], name="class")
    return bunch.data, y


def load_multiclass(
    name: str, *, max_rows: int | None = None, random_state: int = 0
) -> tuple[pd.DataFrame, pd.Series]:
    """One multiclass set as ``X`` (DataFrame) and ``y`` (class names).

    Parameters
    ----------
    name : str
        One of :data:`MULTICLASS_SETS`.
    max_rows : int, optional
        Keep a stratified sample of this many rows of a larger set (seeded by
        ``random_state``), for a quick look at the gas data; None keeps every row.
    random_state : int, default=0

    Returns
    -------
    X : pandas.DataFrame
    y : pandas.Series
        The class of each row by name (``"setosa"``, ``"Ethanol"``, the digit ``"7"``).
    """
    if name == "gas":
        X, y = _gas()
    elif name == "led":
        X, y = led_digits(GENERATED_ROWS)
    elif name == "planted":
        X, y = planted_list(GENERATED_ROWS)
    elif name in MULTICLASS_SETS:
        X, y = _bundled(name)
    else:
        raise ValueError(f"unknown multiclass set {name!r}: use one of {MULTICLASS_SETS}")
    X, y = X.copy(), y.astype(str)
    if max_rows is not None and len(y) > max_rows:
        keep, _ = train_test_split(
            np.arange(len(y)), train_size=max_rows, stratify=y, random_state=random_state
        )
        keep = np.sort(keep)
        X, y = X.iloc[keep].reset_index(drop=True), y.iloc[keep].reset_index(drop=True)
    return X, y


class OneVsRestRules(OneVsRestClassifier):
    """scikit-learn's one-vs-rest whose size is that of its rule sets: ``complexity_()``
    sums the rules and terms of the per-class models (one binary rule set per class)."""

    def complexity_(self) -> tuple[float, float]:
        """(rules, terms) summed over the per-class models."""
        sizes = np.array([complexity(est) for est in self.estimators_], dtype=float)
        return float(sizes[:, 0].sum()), float(sizes[:, 1].sum())


def multiclass_methods(
    *, cart_depth: int | None = 5, random_state: int = 0, include: list[str] | None = None
) -> tuple[dict, dict]:
    """The multiclass table's methods, and a note for each one left out.

    ``CG``: ``ColumnGenerationRules`` with its defaults (the ordered per-class DNFs);
    ``OvR-CG``: :class:`OneVsRestRules` over the same binary learner; ``RIPPER``: Weka's
    JRip (left out with the install command when Java or Weka is missing); ``CART-d<depth>``
    (``CART`` when ``cart_depth`` is None); ``RF``: 100 trees, the accuracy ceiling.
    """
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.tree import DecisionTreeClassifier

    from rulelab.colgen import ColumnGenerationRules

    cart = "CART" if cart_depth is None else f"CART-d{cart_depth}"
    makers = {
        "CG": lambda: ColumnGenerationRules(random_state=random_state),
        "OvR-CG": lambda: OneVsRestRules(ColumnGenerationRules(random_state=random_state)),
        "RIPPER": lambda: make_ripper("jrip"),
        cart: lambda: DecisionTreeClassifier(max_depth=cart_depth, random_state=random_state),
        "RF": lambda: RandomForestClassifier(n_jobs=1, random_state=random_state),
    }
    methods, skipped = {}, {}
    for name, make in makers.items():
        if include is not None and name not in include:
            continue
        if name == "RIPPER" and weka_missing() is not None:
            skipped[name] = weka_missing()
            continue
        methods[name] = make()
    return methods, skipped


def run_multiclass(
    methods: dict,
    datasets: list[str],
    *,
    n_splits: int = 10,
    random_state: int = 0,
    max_rows: int | dict[str, int] | None = None,
    max_folds: int | None = None,
    n_jobs: int = 1,
    progress: bool = True,
) -> pd.DataFrame:
    """Stratified ``n_splits``-fold records of every method on every set (the same folds
    for all methods; :func:`repro.core.runner.cross_validate`, cached).

    Parameters
    ----------
    methods : dict of name -> estimator
    datasets : list of str
        Names of :data:`MULTICLASS_SETS`.
    n_splits, random_state, max_folds, n_jobs, progress
        As in :func:`repro.core.runner.cross_validate`; ``random_state`` also seeds a row cap.
    max_rows : int or dict of str -> int, optional
        Cap the rows of every set (an int) or of the named ones (a dict, e.g.
        ``{"gas": 2000}``) by :func:`load_multiclass`; the cap and the loader's code are
        part of the cache key.

    Returns
    -------
    pandas.DataFrame
        The runner's fold records, with the rows of the set used (``rows``) and its cap
        (``max_rows``).
    """
    columns = ["dataset", "method", "fold", "error", "n_rules", "n_terms", "rows"]
    if not datasets:
        return pd.DataFrame(columns=columns)
    caps = max_rows if isinstance(max_rows, dict) else dict.fromkeys(datasets, max_rows)
    frames = []
    for name in datasets:
        data = load_multiclass(name, max_rows=caps.get(name), random_state=random_state)
        frames.append(
            cross_validate(
                methods,
                [name],
                n_splits=n_splits,
                random_state=random_state,
                n_jobs=n_jobs,
                loader=lambda _, data=data: data,
                max_folds=max_folds,
                progress=progress,
                tag=f"multiclass {source_key(load_multiclass)} max_rows={caps.get(name)}",
            ).assign(rows=len(data[1]), max_rows=caps.get(name))
        )
    return pd.concat(frames, ignore_index=True)


def multiclass_table(results: pd.DataFrame) -> pd.DataFrame:
    """One row per (data set, method): mean test error, its standard error over the folds,
    the mean rules and terms (NaN for the forest) and the mean fit time (the benchmark's
    own summary, :func:`repro.benchmark.tables.benchmark_table`)."""
    table = benchmark_table(results).drop(columns=["family", "total_time"])
    table.insert(3, "error_se", table.pop("error_se"))
    return table


def error_pm(table: pd.DataFrame) -> pd.DataFrame:
    """The table's errors as ``0.047 ± 0.012`` strings: data sets down, methods across."""
    cells = table.assign(
        cell=[f"{e:.3f} ± {s:.3f}" for e, s in zip(table["error"], table["error_se"])]
    )
    methods = list(dict.fromkeys(table["method"]))
    return cells.pivot(index="dataset", columns="method", values="cell")[methods]


def size_cells(table: pd.DataFrame) -> pd.DataFrame:
    """The table's mean rules and terms as ``3.7 / 6.7`` strings (``-`` for a model without
    rules): data sets down, methods across."""
    cells = table.assign(
        cell=[
            "-" if np.isnan(r) else f"{r:.1f} / {t:.1f}"
            for r, t in zip(table["n_rules"], table["n_terms"])
        ]
    )
    methods = list(dict.fromkeys(table["method"]))
    return cells.pivot(index="dataset", columns="method", values="cell")[methods]


def compare_to(results: pd.DataFrame, ours: str = "CG", against: str = "OvR-CG") -> pd.DataFrame:
    """Per data set, "``ours`` is at least as accurate as ``against``": the two mean errors
    (``ours``, ``theirs``), the advantage of ``ours`` and its SE paired over the folds, and
    the verdict (:func:`repro.core.verdicts.compare`; within one SE is a tie)."""
    rows = []
    for dataset, part in results.groupby("dataset", sort=False):
        side = {m: g.set_index("fold")["error"].sort_index() for m, g in part.groupby("method")}
        if ours not in side or against not in side:
            continue
        common = side[ours].index.intersection(side[against].index)
        a, b = side[ours].loc[common], side[against].loc[common]
        c = compare(a, b, higher_is_better=False)
        rows.append(
            {
                "dataset": dataset,
                "ours": a.mean(),
                "theirs": b.mean(),
                "gain": c.diff,
                "gain_se": c.se,
                "verdict": c.verdict,
            }
        )
    return pd.DataFrame(rows, columns=["dataset", "ours", "theirs", "gain", "gain_se", "verdict"])


def claim_against(results: pd.DataFrame, against: str, ours: str = "CG") -> dict:
    """The claim "``ours`` is no less accurate than ``against`` on every multiclass set"
    (:func:`repro.core.verdicts.no_worse` over :func:`compare_to`'s comparisons) and its evidence."""
    comp = compare_to(results, ours, against)
    if comp.empty:
        return {"verdict": "not testable", "evidence": f"{ours} or {against} did not run"}
    gaps = ", ".join(
        f"{d} {o:.3f} vs {t:.3f}" for d, o, t in zip(comp["dataset"], comp["ours"], comp["theirs"])
    )
    evidence = (
        f"{ours} against {against}, paired over folds: {tally(comp['verdict'])} ({gaps}); "
        + family_note(len(comp))
    )
    return {"verdict": no_worse(rows_of(comp)), "evidence": evidence}
