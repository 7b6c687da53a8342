"""The GRAB notebook's experiments as functions (so that the notebook holds little code).

Every function returns a tidy DataFrame; nothing here draws or writes files.
"""

from __future__ import annotations

import time
import warnings

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import GridSearchCV, StratifiedKFold, train_test_split

from ..data import load_dataset
from .baselines import ExpansionLinear
from .binarize import CellBinarizer
from .classifier import CBMClassifier
from .grafting import graft

__all__ = ["load_a1a_all", "load_split", "binarized_split", "time_methods",
           "accuracy_vs_size", "tuned_accuracy", "tolerance_study", "representative_sets"]

# datasets without a separate test file are split 80/20 (stratified, seed 0); the paper's
# splits are not recoverable from the text
_SPLITS = {
    "a1a": ("a1a_train", "a1a_test"), "madelon": ("madelon_train", "madelon_test"),
    "ijcnn1": ("ijcnn1_train", "ijcnn1_test"), "phishing": ("phishing", None),
    "diabetes": ("pima", None), "fourclass": ("fourclass_scale", None),
    "german.numer": ("german_numer", None),
}


def load_a1a_all():
    """All 32,561 a1a rows (a1a_train + a1a_test), as the paper's Section 5.1 uses them."""
    X1, y1 = load_dataset("a1a_train")
    X2, y2 = load_dataset("a1a_test")
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


def time_methods(X, y, *, Cs=(0.1, 1.0), degrees=range(1, 7),
                 methods=("GRAB", "Grafting", "LIBLINEAR"), top_k=100, tol=1e-2,
                 time_limit=600.0, skip_after_timeout=True, progress=None):
    """Fig. 2: seconds to solve eq. (2) (logistic loss) by each method, per C and degree.

    A run that crosses ``time_limit`` is recorded as a time-out; with
    ``skip_after_timeout`` the larger degrees of that method are then not attempted
    (recorded as time-outs too, ``attempted=False``). LIBLINEAR has no time limit of its
    own: its degree is skipped when the expansion of the previous degree took longer than
    the limit.
    """
    y = np.where(np.asarray(y) == 1, 1.0, -1.0)
    B = np.asarray(X, dtype=np.uint8)
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
                     folds=5, seed=0, top_k=100, max_test=None):
    """Fig. 3: test accuracy of GRAB (logistic) per training-set size and degree, with C
    chosen by ``folds``-fold cross-validation on each training subset."""
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
            search = GridSearchCV(CBMClassifier(degree=k, top_k=top_k), {"C": list(Cs)},
                                  cv=StratifiedKFold(folds, shuffle=True, random_state=seed))
            search.fit(B.iloc[idx], y.iloc[idx])
            rows.append({"dataset": name, "m": m, "degree": k,
                         "C": search.best_params_["C"],
                         "accuracy": 100 * search.score(Bt, yt)})
    return pd.DataFrame(rows)


def tuned_accuracy(name, methods: dict, *, folds=5, seed=0, max_train=None, n_jobs=1):
    """Table 1: test accuracy (%) after ``folds``-fold grid search on the training part.

    ``methods`` maps a name to (estimator, grid, input) where input is "binary" (the
    paper's binarised data, as for GRAB and LRFIM) or "raw" (numeric features, as for SVC,
    trees and XGBoost).
    """
    X, y, Xt, yt = load_split(name, seed)
    B, _, Bt, _ = binarized_split(name, seed)
    if max_train is not None and len(X) > max_train:
        idx = np.sort(np.random.default_rng(seed).choice(len(X), max_train, replace=False))
        X, y, B = X.iloc[idx], y.iloc[idx], B.iloc[idx]
    rows = []
    for method, (est, grid, kind) in methods.items():
        A, At = (B, Bt) if kind == "binary" else (X, Xt)
        t0 = time.perf_counter()
        search = GridSearchCV(clone(est), grid, n_jobs=n_jobs, error_score=np.nan,
                              cv=StratifiedKFold(folds, shuffle=True, random_state=seed))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            search.fit(A, y)
        rows.append({"dataset": name, "method": method, "m": len(A), "d": X.shape[1],
                     "accuracy": 100 * search.score(At, yt),
                     "best": repr(search.best_params_),
                     "seconds": time.perf_counter() - t0})
    return pd.DataFrame(rows)


def representative_sets(model) -> set:
    """The paper's representative feature set: |w| >= max |w| / 10."""
    w = np.abs(model.coef_)
    keep = w >= w.max() / 10 if w.size else np.zeros(0, bool)
    return {p for p, k in zip(model.itemsets_, keep) if k}


def tolerance_study(name, degree, C=1.0, tols=(1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2), seed=0,
                    max_train=None, top_k=100, time_limit=None, loss="logistic"):
    """Table 2: representative sets for each tolerance against the tightest one."""
    B, y, Bt, yt = binarized_split(name, seed)
    if max_train is not None and len(B) > max_train:
        idx = np.sort(np.random.default_rng(seed).choice(len(B), max_train, replace=False))
        B, y = B.iloc[idx], y.iloc[idx]
    fits = {}
    for tol in sorted(tols):
        t0 = time.perf_counter()
        model = CBMClassifier(degree=degree, C=C, tol=tol, top_k=top_k, loss=loss,
                              time_limit=time_limit).fit(B, y)
        fits[tol] = (model, time.perf_counter() - t0)
    ref = representative_sets(fits[min(tols)][0])
    rows = []
    for tol in sorted(tols):
        model, secs = fits[tol]
        rep = representative_sets(model)
        rows.append({"dataset": name, "eps": tol, "|Phi_eps|": len(rep),
                     "|Phi \\ Phi_eps|": len(ref - rep), "|Phi_eps \\ Phi|": len(rep - ref),
                     "accuracy": 100 * model.score(Bt, yt), "n_nonzero": len(model.coef_),
                     "objective": model.objective_, "seconds": secs,
                     "converged": model.converged_})
    return pd.DataFrame(rows)
