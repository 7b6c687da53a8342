"""An interactive explorer for JupyterLab: pick a dataset and a learner, move the sliders,
and watch the rule, its train/test error and its size change.

Run headlessly (papermill, nbval, or ``RULELAB_HEADLESS=1``) it shows the same numbers as
a static table over every learner at its default setting instead of widgets.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from .data import load_dataset
from .evaluate import complexity

__all__ = ["LEARNERS", "explore", "fit_and_describe"]

DATASETS = ["pima", "wdbc", "ionosphere", "ilpd", "bupa", "parkinsons", "sonar", "transfusion",
            "banknote"]


def _learners() -> dict[str, Callable]:
    """Learner name -> factory taking the slider values (lam, theta, degree, max_rules)."""
    import rulelab

    out = {
        "1Rule": lambda lam, theta, degree, rules: rulelab.OneRule(lam=lam),
        "RuSC": lambda lam, theta, degree, rules: rulelab.SetCoverRules(lam=lam, max_rules=rules),
        "RuB": lambda lam, theta, degree, rules: rulelab.BoostedRules(lam=lam, n_rounds=rules),
        "BCD (DNF)": lambda lam, theta, degree, rules: rulelab.TwoLevelRules(
            form="dnf", method="bcd", theta=theta, max_clauses=rules),
        "AM (DNF)": lambda lam, theta, degree, rules: rulelab.TwoLevelRules(
            form="dnf", method="am", theta=theta, max_clauses=rules),
    }
    if hasattr(rulelab, "CBMClassifier"):
        out["GRAB"] = lambda lam, theta, degree, rules: rulelab.CBMClassifier(degree=degree)
    return out


LEARNERS = _learners


def fit_and_describe(dataset: str, learner: str, lam: float = 1000.0, theta: float = 0.01,
                     degree: int = 2, rules: int = 5, random_state: int = 0) -> dict:
    """Fit one learner on a stratified 70/30 split and describe the result."""
    X, y = load_dataset(dataset)
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y,
                                              random_state=random_state)
    model = _learners()[learner](lam, theta, degree, rules)
    start = time.perf_counter()
    model.fit(X_tr, y_tr)
    seconds = time.perf_counter() - start
    n_rules, n_terms = complexity(model)
    text = str(getattr(model, "rules_", None) or getattr(model, "coef_table_", model))
    return {"dataset": dataset, "learner": learner,
            "train error": float(np.mean(model.predict(X_tr) != y_tr.to_numpy())),
            "test error": float(np.mean(model.predict(X_te) != y_te.to_numpy())),
            "rules": n_rules, "terms": n_terms, "fit seconds": round(seconds, 2), "rule": text}


def _headless() -> bool:
    if os.environ.get("RULELAB_HEADLESS"):
        return True
    try:
        import ipywidgets  # noqa: F401
        from IPython import get_ipython
    except ImportError:
        return True
    return get_ipython() is None


def explore(dataset: str = "pima", datasets=None):
    """Show the explorer (widgets in JupyterLab, a static table when headless).

    Returns the static table when headless, else the widget box.
    """
    datasets = list(datasets or DATASETS)
    if _headless():
        rows = [fit_and_describe(dataset, name) for name in _learners()]
        return pd.DataFrame(rows).drop(columns="rule").set_index("learner")
    import ipywidgets as w
    from IPython.display import display

    controls = {
        "dataset": w.Dropdown(options=datasets, value=dataset, description="dataset"),
        "learner": w.Dropdown(options=list(_learners()), description="learner"),
        "lam": w.FloatLogSlider(value=1000, base=10, min=-1, max=4, description="lambda"),
        "theta": w.FloatLogSlider(value=0.01, base=10, min=-4, max=0, description="theta"),
        "degree": w.IntSlider(value=2, min=1, max=4, description="degree (GRAB)"),
        "rules": w.IntSlider(value=5, min=1, max=10, description="rules / rounds"),
    }
    out = w.Output()

    def refresh(_=None):
        r = fit_and_describe(**{k: c.value for k, c in controls.items()})
        text = (f"{r['learner']} on {r['dataset']}: train error {r['train error']:.3f}, "
                f"test error {r['test error']:.3f}, {r['rules']:g} rules, {r['terms']:g} "
                f"terms, fitted in {r['fit seconds']:.2f} s\n\n{r['rule']}\n")
        # Setting the outputs directly (not `with out: print`) also works outside a kernel.
        out.outputs = ({"output_type": "stream", "name": "stdout", "text": text},)

    for c in controls.values():
        c.observe(refresh, names="value")
    box = w.VBox([w.HBox([controls["dataset"], controls["learner"]]),
                  w.HBox([controls["lam"], controls["theta"]]),
                  w.HBox([controls["degree"], controls["rules"]]), out])
    display(box)
    refresh()
    return box
