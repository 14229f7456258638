"""Generated from the pass registry (``relax_dialect.passes.PASSES``): each pass file
holds one pass, and every pass has a lit test and a section of the pass reference
(the random-program tests of ``test/passes`` take every registered pass by
themselves)."""

from __future__ import annotations

import re
from importlib import import_module
from pathlib import Path

import pytest
from xdsl.passes import ModulePass

from relax_dialect.passes import PASSES, pass_class

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = (ROOT / "docs" / "passes.md").read_text()
PIPELINES = "pipelines"
"""The module of the pipelines (several passes made of passes, documented together)."""
LIT_EXEMPT = {"relax-check-well-formed"}
"""Passes whose lit tests are the checker's (``test/filecheck/dialect``)."""


@pytest.mark.parametrize("module", sorted(set(PASSES.values()) - {PIPELINES}))
def test_a_pass_file_holds_one_pass(module: str) -> None:
    loaded = import_module(f"relax_dialect.passes.{module}")
    defined = [
        value.name
        for value in vars(loaded).values()
        if isinstance(value, type)
        and issubclass(value, ModulePass)
        and value.__module__ == loaded.__name__
    ]
    assert defined == [name for name, home in PASSES.items() if home == module]


@pytest.mark.parametrize("name", sorted(PASSES))
def test_every_pass_is_documented(name: str) -> None:
    heading = "## Pipelines" if PASSES[name] == PIPELINES else f"## `{name}`"
    assert heading in REFERENCE and f"`{name}`" in REFERENCE, f"docs/passes.md lacks {name}"


@pytest.mark.parametrize("name", sorted(set(PASSES) - LIT_EXEMPT))
def test_every_pass_has_a_lit_test(name: str) -> None:
    runs = "".join(
        line
        for path in (ROOT / "test" / "filecheck").rglob("*.mlir")
        for line in path.read_text().splitlines(keepends=True)
        if line.startswith("// RUN:")
    )
    assert re.search(rf"-p[ '\"]+[^|]*\b{re.escape(name)}\b", runs), f"no lit test runs {name}"


def test_the_registry_loads_every_pass() -> None:
    assert all(pass_class(name).name == name for name in PASSES)
