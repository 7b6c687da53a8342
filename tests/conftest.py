"""Shared fixtures: seeded generators, the data directory, planted rules."""

from __future__ import annotations

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
def _point_rulelab_at_data():
    """Tests read the benchmark copies when they are beside the project, never the network."""
    d = data_dir()
    if d is not None:
        os.environ.setdefault("RULELAB_DATA", str(d))
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
