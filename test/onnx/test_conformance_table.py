"""docs/onnx.md's conformance table is the one the node suite's known failures give."""

from __future__ import annotations

import re

import pytest

onnx = pytest.importorskip("onnx")

from conformance_table import BEGIN, DOCS, END, render  # noqa: E402


def test_docs_onnx_md_table_is_up_to_date() -> None:
    page = DOCS.read_text()
    section = page[page.index(BEGIN) : page.index(END) + len(END)]
    written = re.search(r"ONNX (\S+):", section)
    if written is None or written[1] != onnx.__version__:
        pytest.skip(f"the table is of another onnx than {onnx.__version__}")
    assert section == render(), "docs/onnx.md is stale: python test/onnx/conformance_table.py"
