"""Shared fixtures: seeded generators, the data directory, planted rules, edited sources."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import numpy as np
import pytest

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def data_dir() -> Path | None:
    """The benchmark data folder: RULELAB_DATA, else ../shared/data beside the project."""
    env = os.environ.get("RULELAB_DATA")
    if env and Path(env, "MANIFEST.csv").is_file():
        return Path(env)
    return SHARED if (SHARED / "MANIFEST.csv").is_file() else None


def load_or_skip(name: str):
    """``rulelab.load_dataset(name)``, or skip the test where the benchmark data is absent."""
    from rulelab import load_dataset

    try:
        return load_dataset(name)
    except Exception as err:  # pragma: no cover - data not available
        pytest.skip(f"benchmark data not available: {err}")


@pytest.fixture(scope="session", autouse=True)
def _point_rulelab_at_data(tmp_path_factory):
    """Tests read the benchmark copies when they are beside the project, never the network,
    and compute every unit: their result cache and fit records are empty folders of their own,
    so a test never passes on a record some earlier run left behind."""
    d = data_dir()
    if d is not None:
        os.environ.setdefault("RULELAB_DATA", str(d))
    os.environ["RULELAB_CACHE"] = str(tmp_path_factory.mktemp("cache"))
    os.environ["RULELAB_FITS"] = str(tmp_path_factory.mktemp("fits"))
    yield


@pytest.fixture
def rng():
    return np.random.default_rng(12345)


def planted_design(n_samples: int, n_features: int, k: int, seed: int, p: float = 0.5):
    """A Bernoulli(p) design and a planted K-term rule's column indices."""
    r = np.random.default_rng(seed)
    A = (r.random((n_samples, n_features)) < p).astype(np.uint8)
    truth = np.sort(r.choice(n_features, size=k, replace=False))
    return A, truth


@pytest.fixture
def edit_sources(monkeypatch, tmp_path):
    """Serve edited copies of rulelab and repro modules to :mod:`repro.core.codekey` (its
    ``_module_file``), so that a test sees what a key makes of an edit without touching the
    checkout. ``edit_sources({module: edit})``, an edit being ``(old, new)`` (``old`` must
    occur once), a list of them, or a module's whole new text (also for a module that does
    not exist). Each call replaces the previous edits; the real sources come back after
    the test."""
    from repro.core import codekey

    real = codekey._module_file
    folders = itertools.count()

    def edit(changes: dict) -> None:
        served = {}
        for module, change in changes.items():
            path = real(module)
            if isinstance(change, str):
                text = change
            else:
                text = path.read_text(encoding="utf-8")
                for old, new in [change] if isinstance(change, tuple) else change:
                    assert text.count(old) == 1, f"{old!r} is not once in {module}"
                    text = text.replace(old, new)
            # the file keeps its name: a package's __init__.py must stay one
            name = path.name if path is not None else module.rpartition(".")[2] + ".py"
            target = tmp_path / f"edit{next(folders)}" / name
            target.parent.mkdir()
            target.write_text(text, encoding="utf-8")
            served[module] = target
        monkeypatch.setattr(codekey, "_module_file", lambda name: served.get(name) or real(name))
        codekey.clear_caches()

    codekey.clear_caches()
    yield edit
    monkeypatch.undo()
    codekey.clear_caches()


# Small settings for each learner in rulelab.ESTIMATORS, so that a battery run against every
# learner takes seconds; the learners' defaults are exercised by their own tests.
FAST_SETTINGS = {
    "TwoLevelRules": dict(max_rules=2, max_iter=3),
    "ColumnGenerationRules": dict(complexity=0.01, form="dnf"),
    "ColumnGenerationRulesCV": dict(complexity_path=(0.01,), form="dnf"),
    "CBMClassifier": dict(max_iter=20),
    "RulesFirstClassifier": dict(random_state=0),
}


def make_learner(name: str):
    """An unfitted ``rulelab.ESTIMATORS[name]`` at its :data:`FAST_SETTINGS`."""
    from rulelab import ESTIMATORS

    return ESTIMATORS[name](**FAST_SETTINGS.get(name, {}))
