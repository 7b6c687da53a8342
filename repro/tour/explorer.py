"""An interactive explorer for JupyterLab: pick a dataset and a learner, move the sliders,
and watch the rule, its train/test error and its size change.

Run headlessly (papermill, nbval, or ``RULELAB_HEADLESS=1``) it shows the same numbers as
a static table over every learner at its default setting instead of widgets.

Refits run in a background thread, so the kernel stays responsive while a learner fits, and
they never queue up: of the changes that arrive while one fit runs only the latest setting
is fitted next (four key presses on a slider during a fit cost one more fit, not four).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from repro.core.model_size import complexity as model_complexity
from rulelab.data import load_dataset

__all__ = ["LEARNERS", "Explorer", "explore", "fit_and_describe"]

DATASETS = [
    "pima",
    "wdbc",
    "ionosphere",
    "ilpd",
    "bupa",
    "parkinsons",
    "sonar",
    "transfusion",
    "banknote",
]


def _learners() -> dict[str, Callable]:
    """Learner name -> factory taking the controls' values as keywords (see :data:`KNOBS`)."""
    import rulelab

    out = {
        "1Rule": lambda **k: rulelab.OneRule(complexity=k["complexity"]),
        "RuSC": lambda **k: rulelab.SetCoverRules(complexity=k["complexity"], max_rules=k["rules"]),
        "RuB": lambda **k: rulelab.BoostedLPRules(
            complexity=k["complexity"], n_estimators=k["rules"]
        ),
        "BCD (DNF)": lambda **k: rulelab.TwoLevelRules(
            form="dnf", method="bcd", complexity=k["complexity"], max_rules=k["rules"]
        ),
        "AM (DNF)": lambda **k: rulelab.TwoLevelRules(
            form="dnf", method="am", complexity=k["complexity"], max_rules=k["rules"]
        ),
    }
    if hasattr(rulelab, "CBMClassifier"):
        out["GRAB"] = lambda **k: rulelab.CBMClassifier(max_terms=k["degree"])
    if hasattr(rulelab, "ColumnGenerationRules"):
        out["CG"] = lambda **k: rulelab.ColumnGenerationRules(
            form=k["form"], complexity=k["complexity"], max_terms=k["max_terms"], **CG_LIMITS
        )
    if hasattr(rulelab, "RulesFirstClassifier"):
        # Notebook 07's rules-first model: exact single-threshold rules first, an L1
        # logistic regression on the threshold features the rules leave (fast: liblinear).
        out["Rules-first"] = lambda **k: rulelab.RulesFirstClassifier(
            penalty="l1",
            C=k["C"],
            max_rules=k["rules"],
            binarizer=rulelab.FeatureBinarizer(),
            random_state=0,
        )
    return out


LEARNERS = _learners

# The explorer fits column generation with the complexity the slider sets (no inner
# cross-validation) and less search than a benchmark fit, so that a slider move refits
# in a second or two on these sets: a quarter second of exact pricing work (the rounds
# then go on by beam search, so the rule set carries no optimality certificate) and an
# integer solve that stops at HiGHS's first solution better than the greedy rounding (or
# after 100 nodes). Both are counts, not seconds, so the tour's table is the same on every
# machine.
CG_LIMITS = {"exact_budget": 0.25, "integer_node_limit": 100, "integer_solution_limit": 1}

# The controls each learner's factory above reads; the others are disabled while it is
# chosen (tests/tour/test_explorer.py checks this against the factories).
KNOBS = {
    "1Rule": {"complexity"},
    "RuSC": {"complexity", "rules"},
    "RuB": {"complexity", "rules"},
    "BCD (DNF)": {"complexity", "rules"},
    "AM (DNF)": {"complexity", "rules"},
    "GRAB": {"degree"},
    "CG": {"complexity", "max_terms", "form"},
    "Rules-first": {"rules", "C"},
}


# Each learner's complexity when it is chosen: the papers' settings (paper 1's lambda =
# 1000 is a complexity of 1e-3) and column generation's quick explorer default.
DEFAULT_COMPLEXITY = {
    "1Rule": 1e-3,
    "RuSC": 1e-3,
    "RuB": 1e-3,
    "BCD (DNF)": 0.01,
    "AM (DNF)": 0.01,
    "CG": 0.01,
}


def fit_and_describe(
    dataset: str,
    learner: str,
    degree: int = 2,
    rules: int = 5,
    complexity: float | None = None,
    max_terms: int = 4,
    form: str = "dnf",
    C: float = 1.0,
    random_state: int = 0,
) -> dict:
    """Fit one learner on a stratified 70/30 split and describe the result.

    The keywords are the explorer's controls; each learner reads those :data:`KNOBS` names.
    ``complexity`` is the one trade-off of every rule learner here (the weight of a rule's
    size against its errors); None: the learner's :data:`DEFAULT_COMPLEXITY`.
    """
    if complexity is None:
        complexity = DEFAULT_COMPLEXITY.get(learner, 0.01)
    knobs = {
        "degree": degree,
        "rules": rules,
        "complexity": complexity,
        "max_terms": max_terms,
        "form": form,
        "C": C,
    }
    X, y = load_dataset(dataset)
    X_tr, X_te, y_tr, y_te = train_test_split(
        X, y, test_size=0.3, stratify=y, random_state=random_state
    )
    model = _learners()[learner](**knobs)
    start = time.perf_counter()
    model.fit(X_tr, y_tr)
    seconds = time.perf_counter() - start
    n_rules, n_terms = model_complexity(model)
    text = str(model)  # the rule in words (GRAB: its largest weights first)
    coef = getattr(getattr(model, "base_estimator_", None), "coef_", None)
    if coef is not None:  # a rules-first model's base model is part of its decision
        text += (
            f"\n(the {type(model.base_estimator_).__name__} uses "
            f"{np.count_nonzero(coef)} of its {coef.size} weights)"
        )
    return {
        "dataset": dataset,
        "learner": learner,
        "train error": float(np.mean(model.predict(X_tr) != y_tr.to_numpy())),
        "test error": float(np.mean(model.predict(X_te) != y_te.to_numpy())),
        "rules": n_rules,
        "terms": n_terms,
        "fit seconds": round(seconds, 2),
        "rule": text,
    }


def _headless() -> bool:
    if os.environ.get("RULELAB_HEADLESS"):
        return True
    try:
        import ipywidgets  # noqa: F401
        from IPython import get_ipython
    except ImportError:
        return True
    return get_ipython() is None


_KNOB_NAMES = {
    "complexity": "complexity",
    "degree": "degree",
    "rules": "rules",
    "max_terms": "clause length",
    "form": "form",
    "C": "C",
}


def _shown(value) -> str:
    return value.upper() if isinstance(value, str) else f"{value:g}"


def describe(r: dict, setting: dict | None = None) -> str:
    """The explorer's text for one :func:`fit_and_describe` result, naming the slider values
    the learner read (from ``setting``), so a result always says which setting it is for."""
    knobs = [
        f"{label} = {_shown(setting[k])}"
        for k, label in _KNOB_NAMES.items()
        if setting and k in KNOBS.get(r["learner"], ()) and k in setting
    ]
    used = f" ({', '.join(knobs)})" if knobs else ""
    return (
        f"{r['learner']} on {r['dataset']}{used}: train error {r['train error']:.3f}, "
        f"test error {r['test error']:.3f}, {r['rules']:g} rules, {r['terms']:g} terms, "
        f"fitted in {r['fit seconds']:.2f} s\n\n{r['rule']}\n"
    )


# Dims the result while a refit runs (the box carries the class rulelab-busy meanwhile).
_CSS = (
    "<style>.rulelab-busy .rulelab-result {opacity: 0.45;} "
    ".rulelab-busy {cursor: progress;}</style>"
)


class Explorer:
    """The explorer's widgets and refit loop (what :func:`explore` shows in JupyterLab).

    Every control change asks for a refit with the current setting. A refit runs in a
    background thread (``background=False`` runs it in the caller, for tests); while it
    runs the status line says ``fitting <learner> on <dataset>…`` and the result is
    dimmed, and a change arriving meanwhile is not queued: only the latest setting is
    fitted once the running fit ends, so intermediate settings are dropped and the shown
    result always belongs to the controls' final values.

    Parameters
    ----------
    dataset : str, default="pima"
        The dataset selected first.
    datasets : list of str, optional
        The datasets to choose from (default: the benchmark sets of :data:`DATASETS`).
    fit : callable, default=fit_and_describe
        Called with the setting as keywords; returns a dict as :func:`fit_and_describe`.
    background : bool, default=True
        Fit in a background thread (JupyterLab) or in the calling thread (tests).

    Attributes
    ----------
    controls : dict of str -> widget
        ``dataset``, ``learner`` and the knobs ``complexity``, ``degree``, ``rules``,
        ``max_terms``, ``form``, ``C`` (the keywords of :func:`fit_and_describe`). Only
        the knobs the chosen learner reads are shown; choosing a learner sets the
        complexity to its :data:`DEFAULT_COMPLEXITY`.
    status, output, widget
        The status line, the result area and the box holding everything.
    fitted : list of dict
        Every setting fitted so far, in order.
    """

    def __init__(
        self,
        dataset: str = "pima",
        datasets=None,
        fit: Callable | None = None,
        background: bool = True,
    ):
        import ipywidgets as w

        datasets = list(datasets or DATASETS)
        self._fit = fit or fit_and_describe
        self._background = background
        self._lock = threading.Lock()
        self._pending: dict | None = None
        self._running = False
        self._quiet = False
        self._thread: threading.Thread | None = None
        self.fitted: list[dict] = []

        def wide() -> dict:  # a layout of its own per control: hiding one hides no other
            return {"style": {"description_width": "initial"}, "layout": w.Layout(width="330px")}

        def slider() -> dict:
            return dict(wide(), continuous_update=False)

        self.controls = {
            "dataset": w.Dropdown(options=datasets, value=dataset, description="dataset", **wide()),
            "learner": w.Dropdown(options=list(_learners()), description="learner", **wide()),
            "complexity": w.FloatLogSlider(
                value=DEFAULT_COMPLEXITY["1Rule"],
                base=10,
                min=-4,
                max=0,
                description="complexity",
                **slider(),
            ),
            "degree": w.IntSlider(value=2, min=1, max=4, description="degree (GRAB)", **slider()),
            "rules": w.IntSlider(value=5, min=1, max=10, description="rules / rounds", **slider()),
            "max_terms": w.IntSlider(
                value=4, min=1, max=6, description="clause length (CG)", **slider()
            ),
            "form": w.ToggleButtons(
                options=[("DNF", "dnf"), ("CNF", "cnf")],
                value="dnf",
                description="form (CG)",
                style={"description_width": "initial", "button_width": "60px"},
            ),
            "C": w.FloatLogSlider(
                value=1.0, base=10, min=-2, max=2, description="C (rules-first base)", **slider()
            ),
        }
        self.status = w.HTML()
        self.output = w.Output()
        self.output.add_class("rulelab-result")
        c = self.controls
        self.widget = w.VBox(
            [
                w.HTML(_CSS),
                w.HBox([c["dataset"], c["learner"]]),
                w.HBox([c["complexity"], c["rules"]]),
                w.HBox([c["degree"], c["max_terms"]]),
                w.HBox([c["C"], c["form"]]),
                self.status,
                self.output,
            ]
        )
        self.widget.add_class("rulelab-explorer")
        c["learner"].observe(self._enable_knobs, names="value")
        for control in c.values():
            control.observe(self._changed, names="value")
        self._enable_knobs()
        self.request()

    def setting(self) -> dict:
        """The controls' current values, as keywords of :func:`fit_and_describe`."""
        return {name: control.value for name, control in self.controls.items()}

    @property
    def busy(self) -> bool:
        """True while a refit runs."""
        return self._running

    def _enable_knobs(self, change=None) -> None:
        """Show the knobs the chosen learner reads (the others are hidden and disabled);
        a newly chosen learner starts at its own complexity."""
        learner = self.controls["learner"].value
        used = KNOBS.get(learner, set())
        for name in _KNOB_NAMES:
            control = self.controls[name]
            control.disabled = name not in used
            control.layout.display = None if name in used else "none"
        if change is not None and learner in DEFAULT_COMPLEXITY:
            self._quiet = True  # the learner's own change asks for the refit, once
            try:
                self.controls["complexity"].value = DEFAULT_COMPLEXITY[learner]
            finally:
                self._quiet = False

    def _changed(self, _=None) -> None:
        if not self._quiet:
            self.request()

    def request(self) -> None:
        """Ask for a refit with the current setting: now if none runs, else after it."""
        with self._lock:
            self._pending = self.setting()
            if self._running:
                return  # the running loop fits the latest pending setting next
            self._running = True
        if self._background:
            self._thread = threading.Thread(target=self._run, daemon=True, name="rulelab-explorer")
            self._thread.start()
        else:
            self._run()

    def wait(self, timeout: float | None = None) -> None:
        """Block until no refit runs (for scripts and tests)."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)

    def _run(self) -> None:
        while True:
            with self._lock:
                setting, self._pending = self._pending, None
                if setting is None:
                    self._running = False
                    self.widget.remove_class("rulelab-busy")
                    return
            self.widget.add_class("rulelab-busy")
            self.status.value = (
                f"<i>&#8987; fitting {setting['learner']} on {setting['dataset']}&hellip;</i>"
            )
            try:
                text, stream = describe(self._fit(**setting), setting), "stdout"
            except Exception as err:  # shown in the explorer: a thread's traceback is lost
                text = (
                    f"{setting['learner']} on {setting['dataset']} failed: "
                    f"{type(err).__name__}: {err}\n"
                )
                stream = "stderr"
            self.fitted.append(setting)
            with self._lock:
                if self._pending is not None:
                    continue  # the controls moved on: show the latest setting's result
                # Setting the outputs directly (not `with out: print`) works from a thread.
                self.output.outputs = ({"output_type": "stream", "name": stream, "text": text},)
                self.status.value = ""

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)


def explore(dataset: str = "pima", datasets=None):
    """The explorer: live widgets in JupyterLab, a static table when headless.

    Returns an :class:`Explorer` in JupyterLab (it displays itself as the cell's result;
    elsewhere in a cell pass it to ``display``), or the table of every learner at its
    default setting on ``dataset`` when headless. Nothing is displayed by the call itself,
    so the explorer appears exactly once.
    """
    if _headless():
        rows = [fit_and_describe(dataset, name) for name in _learners()]
        return pd.DataFrame(rows).drop(columns="rule").set_index("learner")
    return Explorer(dataset, datasets)
