"""``lowering/building.py``: operations built from records are the ones their
constructors build, and the memoised attributes are the ones constructed."""

from __future__ import annotations

from io import StringIO

import pytest
from xdsl.dialects import arith, func, math, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    TensorType,
    f32,
    i1,
    i8,
    i32,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import (
    Conv2DNchwFchwOp,
    FillOp,
    GenericOp,
    IndexOp,
    MatmulOp,
    YieldOp,
)
from xdsl.ir import Block, Operation, Region
from xdsl.ir.affine import AffineMap
from xdsl.printer import Printer
from xdsl.utils.test_value import create_ssa_value

from relax_xdsl.lowering.building import (
    build,
    contraction_op,
    fill_op,
    float_attr,
    generic_op,
    insert_slice_op,
    integer_attr,
    pad_op,
)

T = TensorType(f32, [DYNAMIC_INDEX, 4])
INDEX = IndexType()


def text(op: Operation) -> str:
    stream = StringIO()
    Printer(stream=stream, print_generic_format=True).print_op(op)
    return stream.getvalue()


def values() -> Block:
    return Block(arg_types=[f32, f32, INDEX, INDEX, T, i1])


CASES = [
    (arith.AddfOp, lambda v: (v[0], v[1])),
    (arith.AddiOp, lambda v: (v[2], v[3])),
    (arith.CmpfOp, lambda v: (v[0], v[1], "olt")),
    (arith.CmpiOp, lambda v: (v[2], v[3], "sge")),
    (arith.SelectOp, lambda v: (v[5], v[0], v[1])),
    (arith.IndexCastOp, lambda v: (v[2], i64)),
    (arith.ConstantOp, lambda v: (IntegerAttr(3, INDEX),)),
    (arith.ConstantOp, lambda v: (FloatAttr(-0.0, f32),)),
    (math.ExpOp, lambda v: (v[0],)),
    (tensor.DimOp, lambda v: (v[4], v[2])),
    (tensor.EmptyOp, lambda v: ([v[2]], T)),
    (tensor.ExtractOp, lambda v: (v[4], [v[2], v[3]], f32)),
    (tensor.ExtractSliceOp, lambda v: (v[4], [0, v[2]], [1, 4], [1, 1], T)),
    (func.CallOp, lambda v: ("f", [v[4], v[0]], [T])),
    (IndexOp, lambda v: (1,)),
    (YieldOp, lambda v: (v[0], v[1])),
]


@pytest.mark.parametrize("cls, args", CASES)
def test_build_is_the_constructor(cls: type[Operation], args) -> None:
    """The first build records, the second builds from the record: both are what the
    constructor builds, on the given operands."""
    for _ in range(2):
        block = values()
        built, constructed = build(cls, *args(block.args)), cls(*args(block.args))
        assert text(built) == text(constructed)
        assert built.properties == constructed.properties
        assert list(built.operands) == list(constructed.operands)


def test_values_of_other_classes_are_built_by_the_constructor() -> None:
    a, b = create_ssa_value(f32), create_ssa_value(f32)
    for _ in range(2):
        op = build(arith.MulfOp, a, b)
        assert list(op.operands) == [a, b] and op.result_types == (f32,)


def test_generic_and_fill_are_their_constructors() -> None:
    block = values()
    scalar, tensor_value = block.args[0], block.args[4]
    assert text(fill_op(scalar, tensor_value)) == text(
        FillOp([scalar], [tensor_value], [tensor_value.type])
    )

    def body() -> Block:
        inner = Block(arg_types=[f32, f32])
        inner.add_op(YieldOp(inner.args[0]))
        return inner

    maps = [AffineMapAttr(AffineMap.identity(2))] * 2
    iterators = [IteratorTypeAttr.parallel()] * 2
    built = generic_op(
        [tensor_value], [tensor_value], body(), ArrayAttr(maps), ArrayAttr(iterators)
    )
    constructed = GenericOp(
        [tensor_value], [tensor_value], Region(body()), maps, iterators, [tensor_value.type]
    )
    assert text(built) == text(constructed)


def test_memoised_attributes() -> None:
    assert float_attr(-0.0, f32) == FloatAttr(-0.0, f32)
    assert float_attr(0.0, f32) != float_attr(-0.0, f32)
    assert integer_attr(-1, i64) == IntegerAttr(-1, i64)


@pytest.mark.parametrize("element, accumulator", [(f32, f32), (i32, i32), (i8, i32)])
def test_contractions_are_their_constructors(element, accumulator) -> None:
    """Multiply-accumulate bodies on one element type; mixed types (the constructor's
    extensions) are left to the constructor."""
    block = Block(
        arg_types=[
            TensorType(element, [DYNAMIC_INDEX, 8]),
            TensorType(element, [8, 4]),
            TensorType(accumulator, [DYNAMIC_INDEX, 4]),
        ]
    )
    a, b, c = block.args
    built = contraction_op(MatmulOp, [a, b], [c], {})
    assert text(built) == text(MatmulOp([a, b], [c], [c.type]))
    images = Block(
        arg_types=[
            TensorType(element, [1, 3, 8, 8]),
            TensorType(element, [4, 3, 3, 3]),
            TensorType(accumulator, [1, 4, 6, 6]),
        ]
    )
    x, w, out = images.args
    window = DenseIntOrFPElementsAttr.from_list(TensorType(i64, [2]), [1, 1])
    properties = {"strides": window, "dilations": window}
    built = contraction_op(Conv2DNchwFchwOp, [x, w], [out], properties)
    assert text(built) == text(Conv2DNchwFchwOp([x, w], [out], [out.type], **properties))


def test_pad_and_insert_slice_are_their_constructors() -> None:
    block = values()
    scalar, index, source = block.args[0], block.args[2], block.args[4]
    padded = TensorType(f32, [DYNAMIC_INDEX, 6])
    body = Block(arg_types=[INDEX, INDEX])
    body.add_op(tensor.YieldOp(scalar))
    constructed = tensor.PadOp(
        source, [index], [], Region(body), [DYNAMIC_INDEX, 1], [0, 1], padded
    )
    assert text(pad_op(source, [index, 1], [0, 1], scalar, padded)) == text(constructed)
    dest = Block(arg_types=[padded]).args[0]
    constructed = tensor.InsertSliceOp.build(
        operands=[source, dest, [index], [index], []],
        result_types=[padded],
        properties={
            "static_offsets": DenseArrayBase.from_list(i64, [DYNAMIC_INDEX, 1]),
            "static_sizes": DenseArrayBase.from_list(i64, [DYNAMIC_INDEX, 4]),
            "static_strides": DenseArrayBase.from_list(i64, [1, 1]),
        },
    )
    built = insert_slice_op(source, dest, [index, 1], [index, 4], [1, 1])
    assert text(built) == text(constructed)
