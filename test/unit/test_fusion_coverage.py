"""Generated from the operator list: every operator declares its fusion kind
(``FUSION``, on its class or its family's base), so that a new operator cannot go
without one and silently stay unfused; and the registry by name finds each."""

from __future__ import annotations

import pytest

from relax_dialect.ops import operator_class, operators
from relax_dialect.ops.fusion import OpPattern
from relax_dialect.ops.operator import OperatorOp

OPERATORS = list(operators().values())


@pytest.mark.parametrize("operator", OPERATORS, ids=lambda op: op.name)
def test_every_operator_declares_its_fusion_kind(operator: type[OperatorOp]) -> None:
    declared = [c for c in operator.__mro__ if "FUSION" in vars(c)]
    assert declared, f"{operator.name} declares no FUSION (see relax_dialect/ops/fusion.py)"
    kind = operator.FUSION
    assert isinstance(kind, OpPattern) or callable(kind), f"{operator.name}: FUSION is {kind!r}"
    assert kind is not OpPattern.TUPLE, "TUPLE is the kind of relax.tuple, not of an operator"


@pytest.mark.parametrize("operator", OPERATORS, ids=lambda op: op.name)
def test_operators_are_found_by_name(operator: type[OperatorOp]) -> None:
    assert operator_class(operator.name) is operator


def test_the_registry_by_name() -> None:
    assert len(OPERATORS) == 174
    assert operator_class("relax.no_such_operator") is None
    assert operator_class("relax.function") is None  # structure, not an operator
