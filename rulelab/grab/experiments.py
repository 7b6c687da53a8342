"""The GRAB notebook's experiments as functions (so that the notebook holds little code).

Every function returns a tidy DataFrame; nothing here draws. The long experiments (Fig. 3,
Tables 1 and 2) keep each finished unit of work — one grid search, one fit — as a small JSON
record in the results cache (:func:`rulelab.evaluate.cache_dir`), so an interrupted FULL
run resumes where it stopped; records are keyed on the code too, so a changed GRAB never
serves a result of the old one.
"""

from __future__ import annotations

import functools
import hashlib
import json
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import GridSearchCV, StratifiedKFold, train_test_split
from sklearn.svm import SVC

from ..data import load_dataset
from ..evaluate import cache_dir, params_key
from .baselines import ExpansionLinear
from .binarize import CellBinarizer
from .classifier import CBMClassifier
from .grafting import graft

__all__ = ["load_a1a_all", "load_split", "binarized_split", "warm_up", "time_methods",
           "accuracy_vs_size", "table1_methods", "tuned_accuracy", "tolerance_study",
           "representative_sets", "PolySVC"]

# datasets without a separate test file are split 80/20 (stratified, seed 0); the paper's
# splits are not recoverable from the text
_SPLITS = {
    "a1a": ("a1a_train", "a1a_test"), "madelon": ("madelon_train", "madelon_test"),
    "ijcnn1": ("ijcnn1_train", "ijcnn1_test"), "phishing": ("phishing", None),
    "diabetes": ("pima", None), "fourclass": ("fourclass_scale", None),
    "german.numer": ("german_numer", None),
}


@functools.lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """A hash of ``rulelab.grab``'s sources: a cached record is reused only by the code that
    computed it (a change to the solver or the miner can move every GRAB result)."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def _cached(key: dict, compute: Callable[[], dict], cache: bool = True) -> dict:
    """``compute()``'s JSON-able record, kept under a hash of ``key`` and of the code (see
    :func:`code_fingerprint`) so that a rerun of the same code reuses it."""
    if not cache:
        return compute()
    key = {**key, "code": code_fingerprint()}
    path = cache_dir() / "grab" / f"{key['experiment']}-{params_key(key)}.json"
    if path.is_file():
        return json.loads(path.read_text())
    record = compute()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(record, default=lambda v: v.item()))  # numpy scalars
    tmp.replace(path)  # atomic: an interrupted write never leaves a half record
    return json.loads(path.read_text())  # the same types whether computed or reused


def load_a1a_all(readable: bool = False):
    """All 32,561 a1a rows (a1a_train + a1a_test), as the paper's Section 5.1 uses them.

    ``readable=True`` names the columns by their Adult meaning (``age=1/5``, ...)."""
    X1, y1 = load_dataset("a1a_train", readable=readable)
    X2, y2 = load_dataset("a1a_test", readable=readable)
    return pd.concat([X1, X2], ignore_index=True), pd.concat([y1, y2], ignore_index=True)


def load_split(name: str, seed: int = 0):
    """(X_train, y_train, X_test, y_test) for a Table 1 dataset name.

    ``"a1a_all"`` is all 32,561 a1a rows split 80/20 (Fig. 3 needs more than a1a_train's
    1,605 training rows).
    """
    if name == "a1a_all":
        X, y = load_a1a_all()
    else:
        train, test = _SPLITS[name]
        X, y = load_dataset(train)
    if name != "a1a_all" and test is not None:
        Xt, yt = load_dataset(test)
        return X, y, Xt, yt
    X, Xt, y, yt = train_test_split(X, y, test_size=0.2, stratify=y, random_state=seed)
    return X.reset_index(drop=True), y.reset_index(drop=True), Xt.reset_index(drop=True), \
        yt.reset_index(drop=True)


def binarized_split(name: str, seed: int = 0):
    """The split with the paper's binarisation fitted on the training part.

    phishing is one-hot coded value by value (binary columns too), which reproduces
    LIBSVM's 68-feature version of the UCI data; other 0/1 columns stay single items.
    """
    X, y, Xt, yt = load_split(name, seed)
    binar = CellBinarizer(binary="onehot" if name == "phishing" else "keep").fit(X)
    cols = binar.get_feature_names_out()
    B = pd.DataFrame(binar.transform(X), columns=cols)
    Bt = pd.DataFrame(binar.transform(Xt), columns=cols)
    return B, y, Bt, yt


def warm_up(B, y, *, methods=("GRAB", "Grafting", "LIBLINEAR"), top_k: int = 100) -> None:
    """Compile the numba kernels (and load liblinear) on 500 rows of ``B`` (0/1) and ``y``
    (-1/+1), so that no timed run of ``methods`` pays for the compilation."""
    for method in methods:
        if method == "LIBLINEAR":
            ExpansionLinear(degree=1, C=1.0).fit(B[:500], y[:500])
        else:
            graft(B[:500], y[:500], C=1.0, max_size=2, top_k=top_k,
                  search="wfim" if method == "GRAB" else "naive")


def time_methods(X, y, *, Cs=(0.1, 1.0), degrees=range(1, 7),
                 methods=("GRAB", "Grafting", "LIBLINEAR"), top_k=100, tol=1e-2,
                 time_limit=600.0, skip_after_timeout=True, progress=None):
    """Fig. 2: seconds to solve eq. (2) (logistic loss) by each method, per C and degree.

    A run that crosses ``time_limit`` is recorded as a time-out; with
    ``skip_after_timeout`` the larger degrees of that method are then not attempted
    (recorded as time-outs too, ``attempted=False``). LIBLINEAR has no time limit of its
    own: its degree is skipped when the expansion of the previous degree took longer than
    the limit. The compiled kernels are warmed up before anything is timed.
    """
    y = np.where(np.asarray(y) == 1, 1.0, -1.0)
    B = np.asarray(X, dtype=np.uint8)
    warm_up(B, y, methods=methods, top_k=top_k)
    rows = []
    for C in Cs:
        for method in methods:
            dead = False
            for k in degrees:
                rec = {"method": method, "C": C, "degree": k, "seconds": np.nan,
                       "timed_out": False, "attempted": not dead, "objective": np.nan,
                       "n_nonzero": np.nan}
                if dead:
                    rec["timed_out"] = True
                    rows.append(rec)
                    continue
                t0 = time.perf_counter()
                if method == "LIBLINEAR":
                    est = ExpansionLinear(degree=k, C=C, tol=tol).fit(B, y)
                    rec.update(objective=est.objective_, n_nonzero=len(est.coef_))
                else:
                    res = graft(B, y, C=C, max_size=k, tol=tol, top_k=top_k,
                                search="wfim" if method == "GRAB" else "naive",
                                time_limit=time_limit)
                    rec.update(objective=res.objective, n_nonzero=int(np.count_nonzero(res.coef)),
                               timed_out=res.timed_out)
                rec["seconds"] = time.perf_counter() - t0
                if rec["seconds"] > time_limit:
                    rec["timed_out"] = True
                dead = skip_after_timeout and rec["timed_out"]
                rows.append(rec)
                if progress:
                    progress(rec)
    return pd.DataFrame(rows)


def accuracy_vs_size(name, sizes, degrees=(1, 2, 3, 4), Cs=(0.01, 0.1, 1.0, 10.0),
                     folds=5, seed=0, top_k=100, max_test=None, cache=True):
    """Fig. 3: test accuracy of GRAB (logistic) per training-set size and degree, with C
    chosen by ``folds``-fold cross-validation on each training subset (each (m, k) cached)."""
    B, y, Bt, yt = binarized_split(name, seed)
    if max_test is not None and len(Bt) > max_test:
        idx = np.random.default_rng(seed).choice(len(Bt), max_test, replace=False)
        Bt, yt = Bt.iloc[idx], yt.iloc[idx]
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(B))
    rows = []
    for m in sizes:
        if m > len(B):
            continue
        idx = order[:m]
        for k in degrees:
            def run(idx=idx, k=k, m=m):
                search = GridSearchCV(CBMClassifier(degree=k, top_k=top_k), {"C": list(Cs)},
                                      cv=StratifiedKFold(folds, shuffle=True, random_state=seed))
                search.fit(B.iloc[idx], y.iloc[idx])
                return {"dataset": name, "m": m, "degree": k, "C": search.best_params_["C"],
                        "accuracy": 100 * search.score(Bt, yt)}
            key = {"experiment": "fig3", "dataset": name, "m": int(m), "degree": k,
                   "Cs": list(Cs), "folds": folds, "seed": seed, "top_k": top_k,
                   "max_test": max_test}
            rows.append(_cached(key, run, cache))
    return pd.DataFrame(rows)


class PolySVC(SVC):
    """SVC with the paper's polynomial kernel (gamma x.x' + 1 - gamma)^d: coef0 tied to gamma."""

    def fit(self, X, y, sample_weight=None):
        self.coef0 = 1.0 - self.gamma
        return super().fit(X, y, sample_weight)


def table1_methods(name: str, m: int, *, quick: bool = False, top_k: int = 100,
                   seed: int = 0, lrfim_max_size: int = 3) -> dict:
    """Table 1's methods with their hyper-parameter grids, for ``tuned_accuracy``.

    The FULL grids follow §5.3 of the paper, trimmed for time where the notebook says so;
    ``quick`` keeps one or two values per grid. ``m`` (training rows) scales XGBoost's
    lambda grid as the paper's does. LRFIM mines itemsets of at most ``lrfim_max_size``
    items (the paper: 5, which on 2,000 phishing rows gives 2.9 M frequent itemsets and a
    design matrix of over 10 GB).
    """
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import MinMaxScaler
    from sklearn.tree import DecisionTreeClassifier
    from xgboost import XGBClassifier

    from .baselines import LRFIM

    q = quick
    degrees = [1, 2] if (q or name == "madelon") else [1, 2, 3]
    cs = [0.1, 1.0] if q else [0.01, 0.1, 1.0, 10.0]
    return {
        "GRAB (logistic)": (CBMClassifier(top_k=top_k), {"degree": degrees, "C": cs}, "binary"),
        "GRAB (L2-hinge)": (CBMClassifier(loss="l2hinge", top_k=top_k),
                            {"degree": degrees, "C": cs}, "binary"),
        # features scaled to [0, 1] (as LIBSVM's scaled sets); capped iterations keep the
        # degree-3 kernel from running away
        "SVC": (make_pipeline(MinMaxScaler(), PolySVC(kernel="poly", max_iter=200_000)),
                {"polysvc__degree": [1, 3], "polysvc__gamma": [0.1, 1.0] if not q else [1.0],
                 "polysvc__C": [0.1, 1.0, 10.0] if not q else [1.0]}, "raw"),
        "DT": (DecisionTreeClassifier(random_state=seed),
               {"max_depth": [2 ** i for i in range(3, 10)] if not q else [8]}, "raw"),
        "RF": (RandomForestClassifier(random_state=seed, n_jobs=1),
               {"max_depth": [8, 32, 512] if not q else [8],
                "n_estimators": [16, 64, 256] if not q else [16]}, "raw"),
        "XGB": (XGBClassifier(n_jobs=1, random_state=seed, tree_method="hist"),
                {"max_depth": [8, 32] if not q else [8],
                 "reg_lambda": [v / m for v in ([1e-3, 1e-1, 1e1, 1e3] if not q else [1.0])]},
                "raw"),
        "LRFIM": (LRFIM(max_size=lrfim_max_size),
                  {"C": [10.0 ** e for e in range(-3, 4)] if not q else [1.0]}, "binary"),
    }


def tuned_accuracy(name, methods: dict, *, folds=5, seed=0, max_train=None, n_jobs=1,
                   cache=True, progress: Callable[[dict], None] | None = None):
    """Table 1: test accuracy (%) after ``folds``-fold grid search on the training part.

    ``methods`` maps a name to (estimator, grid, input) where input is "binary" (the
    paper's binarised data, as for GRAB and LRFIM) or "raw" (numeric features, as for SVC,
    trees and XGBoost). Each (dataset, method) search is cached; ``progress`` is called
    with each finished row.
    """
    X, y, Xt, yt = load_split(name, seed)
    B, _, Bt, _ = binarized_split(name, seed)
    if max_train is not None and len(X) > max_train:
        idx = np.sort(np.random.default_rng(seed).choice(len(X), max_train, replace=False))
        X, y, B = X.iloc[idx], y.iloc[idx], B.iloc[idx]
    rows = []
    for method, (est, grid, kind) in methods.items():
        A, At = (B, Bt) if kind == "binary" else (X, Xt)

        def run(est=est, grid=grid, A=A, At=At, method=method):
            t0 = time.perf_counter()
            search = GridSearchCV(clone(est), grid, n_jobs=n_jobs, error_score=np.nan,
                                  cv=StratifiedKFold(folds, shuffle=True, random_state=seed))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                search.fit(A, y)
            return {"dataset": name, "method": method, "m": len(A), "d": X.shape[1],
                    "accuracy": 100 * search.score(At, yt),
                    "best": repr(search.best_params_),
                    "seconds": time.perf_counter() - t0}
        key = {"experiment": "table1", "dataset": name, "method": method,
               "estimator": params_key(est), "grid": grid, "input": kind, "folds": folds,
               "seed": seed, "max_train": max_train}
        rows.append(_cached(key, run, cache))
        if progress:
            progress(rows[-1])
    return pd.DataFrame(rows)


def representative_sets(model) -> set:
    """The paper's representative feature set: |w| >= max |w| / 10."""
    w = np.abs(model.coef_)
    keep = w >= w.max() / 10 if w.size else np.zeros(0, bool)
    return {p for p, k in zip(model.itemsets_, keep) if k}


def tolerance_study(name, degree, C=1.0, tols=(1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2), seed=0,
                    max_train=None, top_k=100, time_limit=None, loss="logistic", cache=True):
    """Table 2: representative sets for each tolerance against the tightest one.

    Each fit is cached with its representative set, so a rerun only fits what is missing.
    """
    B, y, Bt, yt = binarized_split(name, seed)
    if max_train is not None and len(B) > max_train:
        idx = np.sort(np.random.default_rng(seed).choice(len(B), max_train, replace=False))
        B, y = B.iloc[idx], y.iloc[idx]

    def fit(tol):
        t0 = time.perf_counter()
        model = CBMClassifier(degree=degree, C=C, tol=tol, top_k=top_k, loss=loss,
                              time_limit=time_limit).fit(B, y)
        secs = time.perf_counter() - t0
        return {"representative": sorted(list(p) for p in representative_sets(model)),
                "accuracy": 100 * model.score(Bt, yt), "n_nonzero": len(model.coef_),
                "objective": model.objective_, "seconds": secs,
                "converged": bool(model.converged_)}

    fits = {}
    for tol in sorted(tols):
        key = {"experiment": "table2", "dataset": name, "degree": degree, "C": C, "eps": tol,
               "seed": seed, "max_train": max_train, "top_k": top_k,
               "time_limit": time_limit, "loss": loss}
        fits[tol] = _cached(key, lambda tol=tol: fit(tol), cache)
    as_set = lambda rec: {tuple(p) for p in rec["representative"]}  # noqa: E731
    ref = as_set(fits[min(tols)])
    rows = []
    for tol in sorted(tols):
        rec = fits[tol]
        rep = as_set(rec)
        rows.append({"dataset": name, "eps": tol, "|Phi_eps|": len(rep),
                     "|Phi \\ Phi_eps|": len(ref - rep), "|Phi_eps \\ Phi|": len(rep - ref),
                     **{k: rec[k] for k in ("accuracy", "n_nonzero", "objective", "seconds",
                                            "converged")}})
    return pd.DataFrame(rows)
