"""The README's Python examples run as a reader would paste them, without a warning."""

from __future__ import annotations

import re
import warnings

import pytest

from repro.core.paths import ROOT
from tests.conftest import data_dir

# a block that needs a running cluster shows an API; it is not a runnable example here
NEEDS_A_CLUSTER = "scheduler-address"


def _blocks() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return [b for b in re.findall(r"```python\n(.*?)```", text, re.S) if NEEDS_A_CLUSTER not in b]


def test_the_readme_has_python_examples():
    assert len(_blocks()) >= 2


@pytest.mark.slow
@pytest.mark.skipif(data_dir() is None, reason="benchmark data not available")
def test_the_readme_examples_run_in_order_without_a_warning():
    namespace: dict = {}
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a retired name or a deprecated call fails here
        for block in _blocks():
            exec(compile(block, "README.md", "exec"), namespace)  # noqa: S102 - our own README
    assert "model" in namespace
