"""Small values the converters share: scalars of an operand's data type,
axes checked against a rank, products of dimensions."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.ir import SSAValue

from ....builder import Call, Shape, call
from ....dtype import INT64, DataType
from ....prim_expr import IntImm, PrimExpr, Var, as_expr
from ....prim_expr_simplify import simplify
from ....types import ShapeType
from .. import dtypes
from ..context import NodeContext


def data_type(ctx: NodeContext, value: SSAValue) -> DataType:
    """The data type of a tensor value."""
    return ctx.tensor_type(value).data_type


def numpy_dtype(ctx: NodeContext, value: SSAValue) -> np.dtype:
    """The NumPy data type of a tensor value."""
    return data_type(ctx, value).to_numpy()


def scalar(ctx: NodeContext, number: float, like: SSAValue) -> np.ndarray:
    """``number`` as a 0-d array of ``like``'s data type (emitted as a constant)."""
    return np.array(number, dtype=numpy_dtype(ctx, like))


def known_rank(ctx: NodeContext, value: SSAValue, what: str = "the input") -> int:
    """The rank of ``value``; a node error when it is unknown."""
    rank = ctx.rank(value)
    if rank is None:
        ctx.unsupported(f"{what} of unknown rank is not supported")
    return rank


def normalized_axis(ctx: NodeContext, axis: int, rank: int) -> int:
    """``axis`` in ``[0, rank)``, counting negative ones from the end."""
    if not -rank <= axis < rank:
        ctx.error(f"axis {axis} is out of range for rank {rank}")
    return axis % rank


def known_shape(ctx: NodeContext, value: SSAValue, what: str = "the input") -> list[PrimExpr]:
    """The dimensions of ``value`` (symbolic ones as expressions); a node error
    when its rank is unknown."""
    shape = ctx.shape(value)
    if shape is None:
        ctx.unsupported(f"{what} of unknown rank is not supported")
    return [as_expr(dim) for dim in shape]


def product(dims: Sequence[PrimExpr | int]) -> PrimExpr:
    """The product of dimensions, simplified (1 for none)."""
    result = as_expr(1)
    for dim in dims:
        result = result * dim
    return simplify(result)


def dimension_tensor(dim: PrimExpr | int) -> np.ndarray | Call:
    """A 0-d ``i64`` tensor holding a dimension: a constant when it is known,
    else computed from the symbolic expression."""
    dim = simplify(as_expr(dim))
    if isinstance(dim, IntImm):
        return np.array(dim.value, dtype=np.int64)
    return call("relax.reshape", call("relax.shape_to_tensor", Shape((dim,))), Shape(()))


def emit(ctx: NodeContext, expression: Call) -> SSAValue:
    """Bind a call built with ``relax_dialect.builder.call``."""
    return ctx.emit(expression.op, *expression.args, **expression.attrs)


def static_dim(ctx: NodeContext, dim: PrimExpr | int, what: str) -> int:
    """A dimension's value; a node error naming ``what`` needs it when it is symbolic."""
    dim = simplify(as_expr(dim))
    if not isinstance(dim, IntImm):
        ctx.unsupported(f"a symbolic size ({dim}) is not supported: {what} needs a known one")
    return dim.value


def constant_input(ctx: NodeContext, index: int, what: str) -> np.ndarray:
    """Input ``index``'s value, which must be known at import time."""
    value = ctx.constant(index)
    if value is None:
        ctx.computed_at_run_time(index, what)
    return value


def constant_ints(ctx: NodeContext, index: int, what: str) -> list[int]:
    """Input ``index``'s integers (flattened), known at import time."""
    return [int(v) for v in constant_input(ctx, index, what).reshape(-1)]


def constant_int(ctx: NodeContext, index: int, what: str) -> int:
    """Input ``index``, a one-element integer tensor known at import time."""
    values = constant_ints(ctx, index, what)
    if len(values) != 1:
        ctx.error(f"{what} must have one element, got {len(values)}")
    return values[0]


def output_used(ctx: NodeContext, index: int) -> bool:
    """Whether the node has output ``index`` (an optional one may be unnamed)."""
    return ctx.num_outputs > index and bool(ctx.node.output[index])


def onnx_data_type(ctx: NodeContext, code: int) -> DataType:
    """The data type an ONNX ``TensorProto.DataType`` code names."""
    try:
        return dtypes.data_type(code)
    except dtypes.UnsupportedType as problem:
        ctx.unsupported(str(problem))


def runtime_dim(ctx: NodeContext, index: int, what: str) -> int | PrimExpr:
    """Input ``index``, a one-element non-negative integer, as a dimension: its
    value when known at import time, else a fresh symbolic variable bound to
    it at run time (``relax.tensor_to_shape`` and ``relax.match_cast``)."""
    known = ctx.scalar_value(index)
    if known is not None:
        return known if isinstance(known, PrimExpr) else int(known)
    value: SSAValue | Call = ctx.input(index)
    if data_type(ctx, ctx.input(index)) != INT64:
        value = call("relax.astype", value, dtype=INT64)
    flat = call("relax.reshape", value, Shape((1,)))
    shape = ctx.emit("relax.tensor_to_shape", flat)
    length = Var(ctx.fresh_dim(what))
    ctx.builder.match_cast(shape, ShapeType([length]))
    return length


def positions(length: PrimExpr | int, rank: int, axis: int) -> Call:
    """``0, 1, ..., length - 1`` (``i64``) along ``axis`` of a ``rank``-d tensor
    whose other dimensions are 1."""
    along: list[PrimExpr | int] = [1] * rank
    along[axis] = length
    return call(
        "relax.reshape", call("relax.arange", 0, length, 1, dtype=INT64), Shape(tuple(along))
    )
