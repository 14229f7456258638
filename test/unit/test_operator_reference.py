"""The checked-in operator reference is the one the definitions generate."""

from __future__ import annotations

from pathlib import Path

from relax_dialect.operator_reference import render
from relax_dialect.ops import operator_families

REFERENCE = Path(__file__).parents[2] / "docs" / "operators.md"


def test_docs_operators_md_is_up_to_date() -> None:
    assert REFERENCE.read_text() == render(), (
        "docs/operators.md is stale: python -m relax_dialect.operator_reference > docs/operators.md"
    )


def test_every_operator_is_documented_with_its_inference() -> None:
    text = render()
    for family in operator_families():
        for op in family.OPERATIONS:
            assert f"| `{op.name}` |" in text
            assert "Inference" in (op.__doc__ or ""), f"{op.name} does not document its inference"
