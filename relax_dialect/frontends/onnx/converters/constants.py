"""Tensors made from attributes and shapes: ``Constant``, ``ConstantOfShape``,
``Range``."""

from __future__ import annotations

import numpy as np
from xdsl.ir import SSAValue

from ....builder import Shape
from ....prim_expr import Var
from ....types import ShapeType
from ..context import NodeContext
from ..dtypes import data_type, stored
from .registry import converter

_VALUE_ATTRIBUTES = {
    "value_float": np.float32,
    "value_floats": np.float32,
    "value_int": np.int64,
    "value_ints": np.int64,
}
"""``Constant``'s attributes holding numbers, and the element type of each."""


def constant_value(ctx: NodeContext) -> np.ndarray:
    """The tensor a ``Constant`` node holds (exactly one of its attributes)."""
    given = [a.name for a in ctx.node.attribute]
    if len(given) != 1:
        ctx.error(f"needs exactly one value attribute, got {len(given)}")
    name = given[0]
    if name == "value":
        return ctx.attr("value")
    if name == "sparse_value":
        from onnx import numpy_helper

        sparse = next(a for a in ctx.node.attribute if a.name == name).sparse_tensor
        values = stored(numpy_helper.to_array(sparse.values))
        dense = np.zeros(tuple(sparse.dims), dtype=values.dtype)
        indices = numpy_helper.to_array(sparse.indices)
        if indices.ndim == 1:
            dense.reshape(-1)[indices] = values
        else:
            dense[tuple(indices.T)] = values
        return dense
    if name in _VALUE_ATTRIBUTES:
        return np.array(ctx.attr(name), dtype=_VALUE_ATTRIBUTES[name])
    ctx.unsupported(f"a constant of attribute '{name}' (strings) is not supported")


@converter("Constant")
def constant(ctx: NodeContext) -> SSAValue:
    return ctx.const(constant_value(ctx))


@converter("ConstantOfShape", since=9)
def constant_of_shape(ctx: NodeContext) -> SSAValue:
    """``relax.full`` of the shape input (symbolic when folded) and the one-element
    ``value`` (default: float32 zero)."""
    value = ctx.attr("value", None)
    fill = np.zeros((), np.float32) if value is None else value.reshape(())
    return ctx.emit("relax.full", shape_argument(ctx, 0), ctx.const(fill))


def shape_argument(ctx: NodeContext, i: int) -> Shape | SSAValue:
    """A 1-D integer input as a Relax shape: its (symbolic) entries when known,
    else ``relax.tensor_to_shape`` of it, computed at run time."""
    dims = ctx.shape_value(i)
    if dims is not None:
        return Shape(tuple(dims))
    return ctx.emit("relax.tensor_to_shape", ctx.input(i))


@converter("Range", since=11)
def arange(ctx: NodeContext) -> SSAValue:
    """``relax.arange`` of the three scalar inputs, symbolic when folded; known
    only at run time, ``start + delta * arange(count)`` with the count,
    ``max(ceil((limit - start) / delta), 0)``, bound to a fresh variable."""
    bounds = [ctx.scalar_value(i) for i in range(3)]
    dtype = ctx.tensor_type(ctx.input(0)).data_type
    if all(b is not None for b in bounds):
        return ctx.emit("relax.arange", *bounds, dtype=dtype)
    start, limit, delta = (ctx.input(i) for i in range(3))
    wide = [ctx.emit("relax.astype", v, dtype=data_type(11)) for v in (start, limit, delta)]
    span = ctx.emit("relax.divide", ctx.emit("relax.subtract", wide[1], wide[0]), wide[2])
    steps = ctx.emit("relax.maximum", ctx.emit("relax.ceil", span), ctx.const(0.0, "float64"))
    count = ctx.emit(
        "relax.reshape", ctx.emit("relax.astype", steps, dtype=data_type(7)), Shape((1,))
    )
    length = Var(ctx.fresh_dim("range_length"))
    ctx.builder.match_cast(ctx.emit("relax.tensor_to_shape", count), ShapeType([length]))
    positions = ctx.emit("relax.arange", 0, length, 1, dtype=dtype)
    return ctx.emit("relax.add", start, ctx.emit("relax.multiply", positions, delta))
