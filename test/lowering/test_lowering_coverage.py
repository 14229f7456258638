"""Generated from the operator list (``relax_dialect.ops.OPERATOR_FAMILIES``): every
operator has a lowering in its family's module, or a registered handler that refuses
it with the reason (``relax.unique``: the length of its result depends on the data)."""

from __future__ import annotations

from importlib import import_module

import pytest

from relax_dialect.ops import OPERATOR_FAMILIES, operator_families
from relax_dialect.ops.operator import OperatorOp
from relax_xdsl.lowering.ops import lowering_for

OPERATORS = [
    op for family in operator_families() for op in family.OPERATIONS if issubclass(op, OperatorOp)
]


@pytest.mark.parametrize("family", OPERATOR_FAMILIES)
def test_each_family_has_its_lowering_module(family: str) -> None:
    import_module(f"relax_xdsl.lowering.ops.{family}")


@pytest.mark.parametrize("operator", OPERATORS, ids=lambda op: op.name)
def test_every_operator_has_a_lowering(operator: type[OperatorOp]) -> None:
    probe = operator.create()  # no operands: only the class is looked up
    assert lowering_for(probe) is not None, (
        f"{operator.name} has no lowering: register one (or one refusing it, with the "
        f"reason) with @lowers in lowering/ops/{operator.__module__.rpartition('.')[2]}.py"
    )
