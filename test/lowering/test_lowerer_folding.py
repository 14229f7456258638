"""``Lowerer.make`` folds ``index`` arithmetic as MLIR's folders do, and
``Lowerer.product`` folds and shares products of sizes."""

from __future__ import annotations

import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, i32
from xdsl.ir import Block, Operation

from relax_xdsl.lowering.lowerer import Lowerer, static_index

INDEX = IndexType()


def lowerer() -> tuple[Lowerer, Block]:
    block = Block(arg_types=[INDEX, INDEX, i32])
    return Lowerer(block, lambda lw, op: None), block


@pytest.mark.parametrize(
    ("cls", "a", "b", "folded"),
    [
        (arith.AddiOp, 2, 3, 5),
        (arith.SubiOp, 2, 3, -1),
        (arith.MuliOp, -4, 3, -12),
        (arith.DivSIOp, -7, 2, -3),  # toward zero
        (arith.FloorDivSIOp, -7, 2, -4),
        (arith.MinSIOp, -7, 2, -7),
        (arith.MaxSIOp, -7, 2, 2),
        (arith.MuliOp, 1 << 62, 4, 0),  # 64-bit wrap-around
    ],
)
def test_constants_are_computed(cls: type[Operation], a: int, b: int, folded: int) -> None:
    lw, block = lowerer()
    result = lw.make(cls, lw.constant_index(a), lw.constant_index(b))
    assert static_index(result) == folded
    assert not any(isinstance(op, cls) for op in block.ops)


@pytest.mark.parametrize(
    ("cls", "constant", "left"),
    [
        (arith.AddiOp, 0, False),
        (arith.AddiOp, 0, True),
        (arith.SubiOp, 0, False),
        (arith.MuliOp, 1, False),
        (arith.MuliOp, 1, True),
        (arith.DivSIOp, 1, False),
        (arith.FloorDivSIOp, 1, False),
    ],
)
def test_identities_are_the_other_operand(cls: type[Operation], constant: int, left: bool) -> None:
    lw, block = lowerer()
    x, c = block.args[0], lw.constant_index(constant)
    assert lw.make(cls, *((c, x) if left else (x, c))) is x


@pytest.mark.parametrize(
    ("cls", "a", "b"),
    [
        (arith.SubiOp, 0, None),  # 0 - x
        (arith.DivSIOp, 1, None),  # 1 / x
        (arith.DivSIOp, None, 0),  # x / 0 is left to run time
        (arith.MaxSIOp, None, 0),
    ],
)
def test_other_operations_stay(cls: type[Operation], a: int | None, b: int | None) -> None:
    lw, block = lowerer()
    x = block.args[0]
    lhs = x if a is None else lw.constant_index(a)
    rhs = x if b is None else lw.constant_index(b)
    result = lw.make(cls, lhs, rhs)
    assert isinstance(result.owner, cls)


def test_integer_data_is_not_folded() -> None:
    lw, block = lowerer()
    zero = lw.make(arith.ConstantOp, arith.IntegerAttr(0, i32))
    assert isinstance(lw.make(arith.AddiOp, block.args[2], zero).owner, arith.AddiOp)


def test_products_fold_constants_and_are_shared() -> None:
    lw, block = lowerer()
    m, n = block.args[0], block.args[1]
    two, three = lw.constant_index(2), lw.constant_index(3)
    product = lw.product([two, m, three, n])
    assert lw.product([two, m, three, n]) is product
    assert sum(isinstance(op, arith.MuliOp) for op in block.ops) == 2  # m * n * 6
    assert static_index(lw.product([two, three])) == 6
    assert static_index(lw.product([])) == 1
    assert lw.product([m]) is m
