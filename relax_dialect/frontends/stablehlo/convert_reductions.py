"""Reductions by their bodies: ``reduce`` whose body applies one operation
(``add`` → ``sum``, ``maximum`` → ``max``...) or JAX's argmax/argmin pair;
``reduce_window`` as pooling (``maximum`` → ``max_pool``, ``add`` → sum pooling,
``minimum`` → ``-max_pool(-x)``); ``sort`` by its comparator's direction;
``chlo.top_k``. Any other body is a located error."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.ir import Block, Operation, SSAValue

from ...builder import Expr, call
from ...dtype import DataType
from ...ops.manipulate import product
from ...prim_expr import IntImm
from . import chlo, ops
from .attributes import ComparisonDirection, ComparisonDirectionAttr
from .convert_contractions import padding, permuted, window
from .convert_elementwise import element_dtype
from .convert_shapes import integer, ints, reshape_to
from .converter import Converter, converts, dense_array, refuse, result_tuple

REDUCERS = {
    "stablehlo.add": ("relax.sum", 0.0),
    "stablehlo.multiply": ("relax.prod", 1.0),
    "stablehlo.maximum": ("relax.max", -np.inf),
    "stablehlo.minimum": ("relax.min", np.inf),
    "stablehlo.and": ("relax.min", True),
    "stablehlo.or": ("relax.max", False),
}
"""The Relax reduction of each body operation, and the initial value that
leaves it unchanged."""


def applied(op: Operation, block: Block) -> ops.BinaryOp:
    """The one operation a reducer body applies to its two arguments."""
    body = list(block.ops)
    if (
        len(body) != 2
        or len(block.args) != 2
        or not isinstance(body[0], ops.BinaryOp)
        or set(body[0].operands) != set(block.args)
        or not isinstance(body[1], ops.ReturnOp)
        or tuple(body[1].operands) != tuple(body[0].results)
        or body[0].name not in REDUCERS
    ):
        refuse(op, "has a body other than one add, multiply, maximum, minimum, and, or")
    return body[0]


def is_identity(init: SSAValue, identity: float | bool, dtype: str) -> bool:
    """Whether ``init`` is the constant that leaves a reduction unchanged."""
    source = init.owner
    value = source.properties.get("value") if isinstance(source, ops.ConstantOp) else None
    if not isinstance(value, DenseIntOrFPElementsAttr):
        return False
    found = dense_array(value, dtype)
    if dtype.startswith(("i", "u")) and isinstance(identity, float) and np.isinf(identity):
        limits = np.iinfo(found.dtype)
        identity = limits.min if identity < 0 else limits.max
    return bool(np.all(found == identity))


def reduce_with(
    cv: Converter, op: Operation, body: ops.BinaryOp, x: SSAValue, init: SSAValue, reduced: Expr
) -> Expr:
    """``reduced`` combined with the initial value unless that is the identity."""
    dtype = element_dtype(op)
    _, identity = REDUCERS[body.name]
    if is_identity(init, identity, dtype):
        return reduced
    numbers, booleans = body.RELAX if isinstance(body.RELAX, tuple) else (body.RELAX, body.RELAX)
    return call(booleans if dtype == "bool" else numbers, reduced, cv.value(init))


def reduce_bool(x: Expr, reduction: str, dtype: str, **attrs: object) -> Expr:
    """A reduction of booleans, computed on ``i8``."""
    if dtype != "bool":
        return call(reduction, x, **attrs)  # type: ignore[arg-type]
    as_int = call("relax.astype", x, dtype=DataType.parse("i8"))
    return call("relax.astype", call(reduction, as_int, **attrs), dtype=DataType.parse("bool"))  # type: ignore[arg-type]


@converts(ops.ReduceOp)
def reduce(cv: Converter, op: Operation) -> Sequence[Expr]:
    count = len(op.operands) // 2
    axes = list(ints(op, "dimensions"))
    block = op.regions[0].block
    if count == 2:
        return arg_reduce(cv, op, axes, block)
    if count != 1:
        refuse(
            op, f"reduces {count} operands together; one, or JAX's argmax/argmin pair, is supported"
        )
    body = applied(op, block)
    if body.name in ("stablehlo.and", "stablehlo.or") and element_dtype(op) != "bool":
        refuse(op, "bitwise and/or reductions of integers are not supported")
    x, init = op.operands
    reduction, _ = REDUCERS[body.name]
    reduced = reduce_bool(cv.value(x), reduction, element_dtype(op), axis=axes, keepdims=False)
    return [reduce_with(cv, op, body, x, init, reduced)]


def arg_reduce(cv: Converter, op: Operation, axes: list[int], block: Block) -> Sequence[Expr]:
    """JAX's argmax/argmin: values and an iota along the one reduced axis,
    reduced by a body that compares the values (``GT``: argmax, ``LT``: argmin)."""
    values, indices = op.operands[:2]
    iota = indices.owner
    if (
        len(axes) != 1
        or not isinstance(iota, ops.IotaOp | ops.DynamicIotaOp)
        or integer(iota, "iota_dimension") != axes[0]
    ):
        refuse(op, "reduces two operands that are not values and their indices along one axis")
    direction = next(
        (
            c.properties.get("comparison_direction")
            for c in block.ops
            if isinstance(c, ops.CompareOp) and set(c.operands) == {block.args[0], block.args[2]}
        ),
        None,
    )
    if not isinstance(direction, ComparisonDirectionAttr) or direction.data not in (
        ComparisonDirection.GT,
        ComparisonDirection.LT,
    ):
        refuse(op, "has a body that is not JAX's argmax or argmin")
    largest = direction.data is ComparisonDirection.GT
    x = cv.value(values)
    index_dtype = DataType.parse(element_dtype(op, 1))
    extreme = call("relax.max" if largest else "relax.min", x, axis=axes, keepdims=False)
    position = call("relax.argmax" if largest else "relax.argmin", x, axis=axes[0], keepdims=False)
    return [extreme, call("relax.astype", position, dtype=index_dtype)]


POOLS = {
    "stablehlo.maximum": "max_pool",
    "stablehlo.add": "avg_pool",
    "stablehlo.minimum": "max_pool",
}


@converts(ops.ReduceWindowOp)
def reduce_window(cv: Converter, op: Operation) -> Sequence[Expr]:
    if len(op.operands) != 2:
        refuse(op, "reduces several operands together")
    x, init = op.operands
    body = applied(op, op.regions[0].block)
    if body.name not in POOLS:
        refuse(op, f"has a body applying {body.name}; maximum, minimum and add are supported")
    value = cv.value(x)
    dims = cv.relax_dims(value, op)
    rank = len(dims)
    ones = [1] * rank
    sizes = window(op, "window_dimensions", ones)
    strides = window(op, "window_strides", ones)
    dilations = window(op, "window_dilations", ones)
    if window(op, "base_dilations", ones) != ones:
        refuse(op, "base dilations are not supported")
    lows, highs = padding(op, rank)
    pooled = [
        i
        for i in range(rank)
        if (sizes[i], strides[i], dilations[i], lows[i], highs[i]) != (1, 1, 1, 0, 0)
    ]
    if len(pooled) > 3:
        refuse(op, f"pools {len(pooled)} dimensions; Relax pools 1, 2 or 3")
    if not pooled:
        return [reduce_with(cv, op, body, x, init, value)]
    others = [i for i in range(rank) if i not in pooled]
    negate = body.name == "stablehlo.minimum"
    if negate:
        value = cv.emit(call("relax.negative", value))
    flat = reshape_to(
        cv,
        op,
        permuted(cv, value, others + pooled),
        [product([dims[i] for i in others]), IntImm(1), *(dims[i] for i in pooled)],
    )
    pick = lambda values: [values[i] for i in pooled]  # noqa: E731
    kind = POOLS[body.name]
    attrs: dict[str, object] = {
        "pool_size": pick(sizes),
        "strides": pick(strides),
        "dilation": pick(dilations),
        "padding": pick(lows) + pick(highs),
    }
    if kind == "avg_pool":
        attrs["count_include_pad"] = True
    out = cv.emit(call(f"relax.nn.{kind}{len(pooled)}d", flat, **attrs))  # type: ignore[arg-type]
    if kind == "avg_pool":
        out = cv.emit(
            call(
                "relax.multiply",
                out,
                np.array(float(np.prod(pick(sizes))), np.dtype(out_dtype(op))),
            )
        )
    if negate:
        out = cv.emit(call("relax.negative", out))
    out_dims = cv.relax_dims(out, op)
    restored = reshape_to(cv, op, out, [*(dims[i] for i in others), *out_dims[2:]])
    inverse = [0] * rank
    for position, axis in enumerate(others + pooled):
        inverse[axis] = position
    return [reduce_with(cv, op, body, x, init, permuted(cv, restored, inverse))]


def out_dtype(op: Operation) -> str:
    dtype = element_dtype(op)
    if not dtype.startswith("f"):
        refuse(op, "sum pooling of integers is not supported")
    return {"f16": "float16", "f32": "float32", "f64": "float64"}[dtype]


@converts(ops.SortOp)
def sort(cv: Converter, op: Operation) -> Sequence[Expr]:
    axis = integer(op, "dimension") if "dimension" in op.properties else -1
    block = op.regions[0].block
    returned = block.last_op
    compare = (
        returned.operands[0].owner
        if isinstance(returned, ops.ReturnOp) and returned.operands
        else None
    )
    direction = (
        compare.properties.get("comparison_direction")
        if isinstance(compare, ops.CompareOp)
        else None
    )
    if not isinstance(direction, ComparisonDirectionAttr) or direction.data not in (
        ComparisonDirection.LT,
        ComparisonDirection.GT,
    ):
        refuse(op, "has a comparator that does not end in a LT or GT comparison")
    descending = direction.data is ComparisonDirection.GT
    first = cv.value(op.operands[0])
    if len(op.operands) == 1:
        return [call("relax.sort", first, axis=axis, descending=descending)]
    order = cv.emit(
        call("relax.argsort", first, axis=axis, descending=descending, dtype=DataType.parse("i64"))
    )
    return [call("relax.gather_elements", cv.value(o), order, axis=axis) for o in op.operands]


@converts(chlo.TopKOp)
def top_k(cv: Converter, op: Operation) -> Sequence[Expr]:
    both = cv.emit(
        call(
            "relax.topk",
            cv.value(op.operands[0]),
            k=integer(op, "k"),
            axis=-1,
            ret_type="both",
            largest=True,
            dtype=DataType.parse(element_dtype(op, 1, result=True)),
        )
    )
    return result_tuple(cv, both, 2)
