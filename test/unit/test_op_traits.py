"""Every Relax operation declares its purity with a trait, and the operations that
write into their arguments carry ``InPlace``: one case per operation, so that a
new operation cannot go without (and silently default)."""

from __future__ import annotations

import pytest
from xdsl.ir import Operation
from xdsl.traits import Pure

from relax_dialect.dialect import OPERATIONS
from relax_dialect.ops.operator import OperatorOp
from relax_dialect.ops.traits import Impure, InPlace, Purity

BY_NAME = {op.name: op for op in OPERATIONS}


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_purity_is_declared_once(name: str) -> None:
    """xDSL's ``Pure`` or one ``Purity`` trait, not both, not none."""
    op = BY_NAME[name]
    declared = [t for t in op.traits if isinstance(t, Pure | Purity)]
    assert len(declared) == 1, f"{name} declares its purity {len(declared)} times: {declared}"


@pytest.mark.parametrize(
    "name", sorted(name for name, op in BY_NAME.items() if issubclass(op, OperatorOp))
)
def test_an_operator_is_pure_or_impure(name: str) -> None:
    """What ``relax.invoke`` of an operator reference reads: the class alone decides."""
    op = BY_NAME[name]
    assert op.has_trait(Pure) or op.has_trait(Impure)


def _writes_arguments(op: type[Operation]) -> bool:
    return "inplace_indices" in op.get_irdl_definition().properties  # pyright: ignore


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_in_place_operations_carry_the_trait(name: str) -> None:
    """An operation naming arguments it writes (``inplace_indices``) is ``InPlace``,
    and only those."""
    op = BY_NAME[name]
    assert op.has_trait(InPlace) == _writes_arguments(op)
