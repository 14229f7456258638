"""Generated from the operator list (``relax_dialect.ops.OPERATOR_FAMILIES``): every
operator has a lowering in its family's module, or a registered handler refusing it
with the reason (``unique``, ``nonzero``, ``print``, ``null_value``: tested in
``test_lower_core.py``); the other operations of the families (the closure
operations of ``core``) are lowered by the converter itself (``test_convert_closures.py``)."""

from __future__ import annotations

from importlib import import_module

import pytest
from xdsl.ir import Operation

from relax_dialect.ops import OPERATOR_FAMILIES, operator_families
from relax_dialect.ops.operator import OperatorOp
from relax_xdsl.lowering.convert_relax_to_linalg import STRUCTURAL
from relax_xdsl.lowering.ops import lowering_for

OPERATIONS = [op for family in operator_families() for op in family.OPERATIONS]


@pytest.mark.parametrize("family", OPERATOR_FAMILIES)
def test_each_family_has_its_lowering_module(family: str) -> None:
    import_module(f"relax_xdsl.lowering.ops.{family}")


@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda op: op.name)
def test_every_operation_of_the_families_is_lowered(operation: type[Operation]) -> None:
    if not issubclass(operation, OperatorOp):
        assert operation in STRUCTURAL, f"{operation.name} is neither an operator nor structural"
        return
    probe = operation.create()  # no operands: only the class is looked up
    assert lowering_for(probe) is not None, (
        f"{operation.name} has no lowering: register one (or one refusing it, with the "
        f"reason) with @lowers in lowering/ops/{operation.__module__.rpartition('.')[2]}.py"
    )
