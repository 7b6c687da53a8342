"""The README's and docs/using.md's Python examples run as a reader would paste them, in
order, without a warning."""

from __future__ import annotations

import re
import warnings

import pytest

from repro.core.paths import ROOT
from tests.conftest import data_dir

# the documents whose examples a reader pastes; docs/reproducing.md shows a cluster's API only
DOCUMENTS = ("README.md", "docs/using.md")
# a block that needs a running cluster shows an API; it is not a runnable example here
NEEDS_A_CLUSTER = "scheduler-address"


def _blocks(document: str) -> list[str]:
    text = (ROOT / document).read_text(encoding="utf-8")
    return [b for b in re.findall(r"```python\n(.*?)```", text, re.S) if NEEDS_A_CLUSTER not in b]


@pytest.mark.parametrize("document", DOCUMENTS)
def test_the_document_has_python_examples(document):
    assert len(_blocks(document)) >= 2


@pytest.mark.slow
@pytest.mark.skipif(data_dir() is None, reason="benchmark data not available")
@pytest.mark.parametrize("document", DOCUMENTS)
def test_the_examples_run_in_order_without_a_warning(document):
    namespace: dict = {}
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a retired name or a deprecated call fails here
        for block in _blocks(document):
            exec(compile(block, document, "exec"), namespace)  # noqa: S102 - our own docs
    assert "model" in namespace
