"""The work a kernel does, read from its own linalg operations (``bench/kernel_table.py``):
the flops it computes, the bytes it reads and writes, and the shape of its convolution or
matrix product (the key that matches it to onnxruntime's nodes).

A linalg operation computes its body once per point of its iteration domain (its loops'
ranges, from its operands' shapes through its indexing maps); each arithmetic or math
operation on floats in the body is one flop (``math.fma`` two, so a multiply-add counts two),
constants, selects and conversions none. A kernel's tensors of dynamic type get their shapes
from the call (`call_shapes`): from the model's arguments through the host's calls.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from xdsl.dialects import arith, func, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, AnyFloat, IntegerAttr, ShapedType
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import LinalgStructuredOperation
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.utils.hints import isa

Known = Mapping[SSAValue, tuple[int, ...] | int]
"""What is known of values whose type does not say it: a tensor's shape, an index's value."""

NOT_FLOPS = frozenset(
    op.name
    for op in (
        arith.ConstantOp,
        arith.SelectOp,
        arith.ExtFOp,
        arith.TruncFOp,
        arith.SIToFPOp,
        arith.UIToFPOp,
        arith.FPToSIOp,
        arith.FPToUIOp,
        arith.BitcastOp,
    )
)
"""Operations on floats that compute nothing: constants, selects, conversions."""
FLOPS_OF = {"math.fma": 2}
"""Flops of the operations that are more than one."""


def value_of(value: SSAValue, known: Known) -> tuple[int, ...] | int | None:
    """``value``'s shape (a tensor) or value (an index): from its type or its constant, else
    ``known``'s, else None."""
    if isinstance(value.type, ShapedType) and value.type.has_static_shape():
        return value.type.get_shape()
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return known.get(value)


def shape_of(value: SSAValue, known: Known) -> tuple[int, ...] | None:
    shape = value_of(value, known)
    return shape if isinstance(shape, tuple) else None


def _sizes(static: Sequence[int], dynamic: Sequence[SSAValue], known: Known) -> tuple | None:
    """A shape whose dynamic sizes are ``dynamic``'s values, in order."""
    values = iter(value_of(size, known) for size in dynamic)
    shape = tuple(next(values) if size == DYNAMIC_INDEX else size for size in static)
    return shape if all(isinstance(size, int) for size in shape) else None


def _result(op: Operation, index: int, known: Known) -> tuple[int, ...] | int | None:
    """What is known of a result whose type does not say it: an empty tensor's, a slice's or a
    reshape's sizes, a linalg operation's output's shape, an insertion's or a cast's, a
    dimension."""
    if isinstance(op, tensor.EmptyOp):
        return _sizes(op.tensor.type.get_shape(), op.dynamic_sizes, known)
    if isinstance(op, tensor.ExtractSliceOp):
        static = op.static_sizes.get_values()
        if len(static) != op.result.type.get_num_dims():  # a rank-reducing slice
            return None
        return _sizes(static, op.sizes, known)
    if isinstance(op, tensor.ExpandShapeOp):
        return _sizes(op.static_output_shape.get_values(), op.dynamic_output_shape, known)
    if isinstance(op, tensor.CollapseShapeOp) and (source := shape_of(op.src, known)):
        groups = [[dim.value.data for dim in group.data] for group in op.reassociation.data]
        return tuple(math.prod(source[dim] for dim in group) for group in groups)
    if isinstance(op, LinalgStructuredOperation):
        return shape_of(op.outputs[index], known)
    if isinstance(op, tensor.InsertSliceOp):
        return shape_of(op.dest, known)
    if isinstance(op, tensor.CastOp):
        return shape_of(op.source, known)
    if isinstance(op, tensor.DimOp):
        shape, dimension = shape_of(op.source, known), value_of(op.index, known)
        return shape[dimension] if shape and isinstance(dimension, int) else None
    return None


def call_shapes(
    functions: Mapping[str, func.FuncOp],
    function: func.FuncOp,
    arguments: Sequence[tuple[int, ...] | int | None],
) -> tuple[dict, dict]:
    """What is known of ``function``'s values when called with ``arguments`` (shapes of its
    tensors, values of its indices), and for each call it makes (to ``functions``, followed
    in turn) what is known of the callee's values in that call; a call's results are what
    the callee returns."""
    known = {arg: v for arg, v in zip(function.args, arguments, strict=True) if v is not None}
    calls = {}
    for op in function.body.block.ops:
        callee = (
            functions.get(op.callee.root_reference.data) if isinstance(op, func.CallOp) else None
        )
        if callee is None:
            for index, result in enumerate(op.results):
                if (value := _result(op, index, known)) is not None:
                    known[result] = value
            continue
        inner, nested = call_shapes(functions, callee, [value_of(v, known) for v in op.operands])
        calls[op] = inner
        calls.update(nested)
        for result, value in zip(op.results, returned(callee), strict=True):
            if (found := value_of(value, inner)) is not None:
                known[result] = found
    return known, calls


def returned(function: func.FuncOp) -> Sequence[SSAValue]:
    """What ``function`` returns."""
    return next(o for o in function.body.block.ops if isinstance(o, func.ReturnOp)).arguments


def total(counts: Sequence[int | None]) -> int | None:
    """The sum of ``counts``, None when one is not known."""
    return None if None in counts else sum(c for c in counts if c is not None)


def body_flops(op: Operation) -> int:
    """Flops of one point of a linalg operation's body."""
    flops = 0
    for inner in op.regions[0].walk():
        if inner.dialect_name() not in ("arith", "math") or inner.name in NOT_FLOPS:
            continue
        types = [value.type for value in (*inner.operands, *inner.results)]
        if any(isa(t, AnyFloat) for t in types):
            flops += FLOPS_OF.get(inner.name, 1)
    return flops


def loop_ranges(op: LinalgStructuredOperation, known: Known) -> tuple[int, ...] | None:
    """The sizes of the operation's loops (each from a dimension of an operand indexed by
    that loop alone), or None when one is not known."""
    ranges: list[int | None] = [None] * op.get_num_loops()
    for operand, indexing in zip(op.operands, op.get_indexing_maps(), strict=True):
        if (shape := shape_of(operand, known)) is None:
            continue
        for size, expr in zip(shape, indexing.data.results, strict=True):
            if isinstance(expr, AffineDimExpr) and ranges[expr.position] is None:
                ranges[expr.position] = size
    return None if None in ranges else tuple(ranges)  # pyright: ignore


def operation_flops(op: LinalgStructuredOperation, known: Known) -> int | None:
    """Flops of the whole operation (None when its domain is not known)."""
    ranges = loop_ranges(op, known)
    return None if ranges is None else math.prod(ranges) * body_flops(op)


def linalg_ops(kernel: func.FuncOp) -> list[LinalgStructuredOperation]:
    return [op for op in kernel.walk() if isinstance(op, LinalgStructuredOperation)]


def kernel_flops(kernel: func.FuncOp, known: Known) -> int | None:
    """Flops of one call of a kernel: those of its linalg operations."""
    return total([operation_flops(op, known) for op in linalg_ops(kernel)])


def kernel_bytes(kernel: func.FuncOp, known: Known) -> int | None:
    """Bytes a call of a kernel reads and writes at least: its tensor arguments, results and
    tensor constants, each once (None when a shape is not known)."""
    values = [*kernel.args, *returned(kernel)]
    values += [op.result for op in kernel.walk() if isinstance(op, arith.ConstantOp)]
    found = 0
    for value in values:
        if not isinstance(value.type, ShapedType):
            continue
        if (shape := shape_of(value, known)) is None:
            return None
        found += math.prod(shape) * value.type.get_element_type().bitwidth // 8  # pyright: ignore
    return found


def product_key(batch: int, rows: int, depth: int, columns: int) -> str:
    """A matrix product's shape: ``12 x 128x64 @ 64x128`` (the batch left out when 1)."""
    shape = f"{rows}x{depth} @ {depth}x{columns}"
    return shape if batch == 1 else f"{batch} x {shape}"


def operation_product_key(op: LinalgStructuredOperation, known: Known) -> str | None:
    """`product_key` of a (batched) matrix product: two operands indexed by loops alone, a
    reduction, a multiply in the body; loops of both operands are its batch, those of the
    first (second) alone its rows (columns), the reductions its depth. None for any other
    operation (convolutions index their image by sums of loops)."""
    ranges = loop_ranges(op, known)
    maps = [m.data for m in op.get_indexing_maps()]
    if ranges is None or len(op.inputs) != 2 or len(maps) != 3:
        return None
    if not any(isinstance(inner, arith.MulfOp) for inner in op.regions[0].walk()):
        return None
    if not all(isinstance(e, AffineDimExpr) for m in maps[:2] for e in m.results):
        return None
    left, right = ({e.position for e in m.results} for m in maps[:2])  # pyright: ignore
    reduction = {
        i for i, kind in enumerate(op.get_iterator_types()) if kind.data == IteratorType.REDUCTION
    }
    if not reduction:
        return None

    def size(loops: set[int]) -> int:
        return math.prod(ranges[i] for i in loops)

    parallel_left, parallel_right = left - reduction, right - reduction
    batch = parallel_left & parallel_right
    return product_key(
        size(batch), size(parallel_left - batch), size(reduction), size(parallel_right - batch)
    )


def convolution_key(filters: Sequence[int], output: Sequence[int]) -> str:
    """A convolution's filter shape and output shape but the batch, ``64x64x3x3 -> 64x56x56``
    (a grouped one's groups and filters per group as its filters, as ONNX writes them)."""
    if len(filters) == 5:
        groups, per_group, *window = filters
        filters = [groups * per_group, *window]
        output = [output[0], output[1] * output[2], *output[3:]]
    return "x".join(map(str, filters)) + " -> " + "x".join(map(str, output[1:]))


def operation_key(op: LinalgStructuredOperation, known: Known) -> str | None:
    """``convolution`` and its `convolution_key`, ``product`` and its `product_key`, or None."""
    if "conv" in op.name:
        filters, output = (shape_of(v, known) for v in (op.inputs[1], op.outputs[0]))
        if filters is None or output is None:
            return None
        return f"convolution {convolution_key(filters, output)}"
    key = operation_product_key(op, known)
    return None if key is None else f"product {key}"


def kernel_key(kernel: func.FuncOp, known: Known) -> str | None:
    """The `operation_key` of the kernel's first convolution or product, if any."""
    keys = [operation_key(op, known) for op in linalg_ops(kernel)]
    return next((key for key in keys if key is not None), None)
