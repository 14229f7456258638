"""Import-time folding of the computations exporters write on shapes.

``Shape → Gather/Slice → Concat/Unsqueeze/Cast/arithmetic → Reshape`` is how
every exporter computes a target shape from an input's dimensions. Folded on
the dimensions' symbolic expressions, the target is known when the consumer
(``Reshape``, ``Expand``, ``ConstantOfShape``, ``Range``, ``Tile``...) is
converted, so the result type keeps ``n`` instead of losing its shape.

A value known at import time is a NumPy array: numeric (an initializer, a
constant, a computation on them) or of dtype ``object`` holding ints and
``PrimExpr``s (symbolic). ``fold`` computes a node's first output from its
inputs' known values with NumPy's own operations (which apply Python's
operators, hence ``PrimExpr``'s, to object arrays); a node whose inputs are not
all known, or whose arithmetic has no symbolic form, is not folded.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from ...prim_expr import IntImm, PrimExpr, Var, as_expr
from ...prim_expr_simplify import prove_equal, prove_not_equal, simplify
from .context import NodeError
from .dtypes import NARROW_INTEGERS, data_type

if TYPE_CHECKING:
    from .context import NodeContext

MAX_FOLDED = 4096
"""The most elements a folded input or result may have: larger computations
stay Relax operators (``relax-fold-constant`` may fold them later)."""


class Unknown(Exception):
    """The node's result is not known at import time."""


def fold(ctx: NodeContext) -> np.ndarray | None:
    """The value of the node's first output when known at import time."""
    rule = RULES.get(ctx.op_type)
    if rule is None or ctx.node.domain not in ("", "ai.onnx"):
        return None
    try:
        result = np.asarray(rule(ctx))
    except (Unknown, NodeError, TypeError, ValueError, ArithmeticError, IndexError):
        return None
    if result.dtype == object:
        result = _settled(result)
    if result.dtype != object and result.size > MAX_FOLDED and ctx.op_type != "Constant":
        return None
    return result


def _settled(array: np.ndarray) -> np.ndarray:
    """Symbolic entries simplified; an array of ints only becomes ``int64``."""
    entries = [_simplified(entry) for entry in array.flat]
    if all(isinstance(entry, int) for entry in entries):
        return np.array(entries, dtype=np.int64).reshape(array.shape)
    result = np.empty(len(entries), dtype=object)
    result[:] = entries
    return result.reshape(array.shape)


def _simplified(entry: object) -> int | PrimExpr:
    if isinstance(entry, PrimExpr):
        entry = simplify(entry)
        return entry.value if isinstance(entry, IntImm) else entry
    if isinstance(entry, bool | np.bool_):
        raise Unknown
    return int(entry)  # pyright: ignore[reportArgumentType]


def _input(ctx: NodeContext, i: int) -> np.ndarray:
    """Input ``i``'s known value (``Unknown`` when absent, unknown or large)."""
    if not ctx.has_input(i):
        raise Unknown
    known = ctx.graph.known(ctx.node.input[i])
    if known is None or known.size > MAX_FOLDED:
        raise Unknown
    return known


def _optional_input(ctx: NodeContext, i: int) -> np.ndarray | None:
    return _input(ctx, i) if ctx.has_input(i) else None


def _all_inputs(ctx: NodeContext) -> list[np.ndarray]:
    return [_input(ctx, i) for i in range(ctx.num_inputs)]


def _symbolic(array: np.ndarray) -> bool:
    return array.dtype == object


def _numeric(array: np.ndarray) -> np.ndarray:
    """The array when it holds numbers (``Unknown`` for a symbolic one)."""
    if _symbolic(array):
        raise Unknown
    return array


# --- the rules ----------------------------------------------------------------------


def _constant(ctx: NodeContext) -> np.ndarray:
    from .converters.constants import constant_value

    return constant_value(ctx)


def _identity(ctx: NodeContext) -> np.ndarray:
    return _input(ctx, 0)


def _shape(ctx: NodeContext) -> np.ndarray:
    dims = ctx.shape(ctx.input(0))
    if dims is None:
        raise Unknown
    rank = len(dims)
    start = ctx.attr("start", 0) if ctx.opset >= 15 else 0
    end = ctx.attr("end", rank) if ctx.opset >= 15 else rank
    return _object_array(dims[slice(*_clamped(start, end, rank))])


def _clamped(start: int, end: int, rank: int) -> tuple[int, int]:
    """``Shape``'s start and end, negative ones from the end, clamped to the rank."""
    start = min(max(start + rank if start < 0 else start, 0), rank)
    end = min(max(end + rank if end < 0 else end, 0), rank)
    return start, end


def _size(ctx: NodeContext) -> np.ndarray:
    dims = ctx.shape(ctx.input(0))
    if dims is None:
        raise Unknown
    product: int | PrimExpr = 1
    for dim in dims:
        product = product * dim
    return _object_array([product]).reshape(())


def _object_array(entries: list) -> np.ndarray:
    array = np.empty(len(entries), dtype=object)
    array[:] = entries
    return array


def _gather(ctx: NodeContext) -> np.ndarray:
    data, indices = _input(ctx, 0), _numeric(_input(ctx, 1))
    axis = ctx.attr("axis", 0)
    if data.ndim == 0:
        raise Unknown
    axis = axis + data.ndim if axis < 0 else axis
    extent = data.shape[axis]
    if np.any(indices < -extent) or np.any(indices >= extent):
        raise Unknown
    return np.take(data, np.where(indices < 0, indices + extent, indices), axis=axis)


def _slice(ctx: NodeContext) -> np.ndarray:
    from .converters.slicing import slice_arguments

    data = _input(ctx, 0)
    starts, ends, axes, steps = slice_arguments(ctx)
    index = [slice(None)] * data.ndim
    for start, end, axis, step in zip(starts, ends, axes, steps, strict=True):
        index[axis + data.ndim if axis < 0 else axis] = slice(start, end, step)
    return data[tuple(index)]


def _concat(ctx: NodeContext) -> np.ndarray:
    arrays = _all_inputs(ctx)
    return np.concatenate(arrays, axis=ctx.attr("axis"))


def _unsqueeze(ctx: NodeContext) -> np.ndarray:
    data = _input(ctx, 0)
    axes = ctx.ints("axes", 1, since=13)
    if axes is None:
        raise Unknown
    rank = data.ndim + len(axes)
    return np.expand_dims(data, tuple(a + rank if a < 0 else a for a in axes))


def _squeeze(ctx: NodeContext) -> np.ndarray:
    data = _input(ctx, 0)
    axes = ctx.ints("axes", 1, since=13)
    return np.squeeze(data) if axes is None else np.squeeze(data, tuple(axes))


def _reshape(ctx: NodeContext) -> np.ndarray:
    data, shape = _input(ctx, 0), _numeric(_input(ctx, 1))
    if shape.size and ctx.attr("allowzero", 0) == 0:
        shape = np.where(shape == 0, np.array(data.shape + (0,) * shape.size)[: shape.size], shape)
    return data.reshape(tuple(int(d) for d in shape))


def _cast(ctx: NodeContext) -> np.ndarray:
    data = _input(ctx, 0)
    dtype = data_type(ctx.attr("to"))
    if ctx.attr("to") in NARROW_INTEGERS or dtype.is_extension_float:
        raise Unknown  # ONNX's own rules (converters/cast.py), never a shape's
    target = dtype.to_numpy()
    if _symbolic(data):
        if target.kind not in "iu":
            raise Unknown
        return data
    return data.astype(target)


def _binary(
    operation: Callable[[np.ndarray, np.ndarray], np.ndarray],
) -> Callable[[NodeContext], np.ndarray]:
    def rule(ctx: NodeContext) -> np.ndarray:
        lhs, rhs = _input(ctx, 0), _input(ctx, 1)
        result = operation(lhs, rhs)
        if not _symbolic(result):
            result = result.astype(_numeric_dtype(lhs, rhs))
        return result

    return rule


def _numeric_dtype(*arrays: np.ndarray) -> np.dtype:
    """The element type of a result: its first numeric operand's (int64 if none)."""
    return next((a.dtype for a in arrays if not _symbolic(a)), np.dtype(np.int64))


def _divide(lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """ONNX's ``Div``: integers truncate toward zero; a symbolic dividend (a
    dimension, never negative) divided by a positive constant is a floor division."""
    if _symbolic(lhs) or _symbolic(rhs):
        if _symbolic(rhs) or np.any(_numeric(rhs) <= 0):
            raise Unknown
        return np.floor_divide(lhs, rhs)
    if lhs.dtype.kind in "iu" and rhs.dtype.kind in "iu":
        if np.any(rhs == 0):
            raise Unknown
        quotient = np.abs(lhs) // np.abs(rhs)
        return np.where((lhs < 0) != (rhs < 0), -quotient, quotient)
    return lhs / rhs


def _variadic(
    operation: Callable[[np.ndarray, np.ndarray], np.ndarray],
) -> Callable[[NodeContext], np.ndarray]:
    def rule(ctx: NodeContext) -> np.ndarray:
        arrays = _all_inputs(ctx)
        result = arrays[0]
        for array in arrays[1:]:
            result = operation(result, array)
        return result if _symbolic(result) else result.astype(_numeric_dtype(*arrays))

    return rule


def _extreme(
    numeric: Callable[[np.ndarray, np.ndarray], np.ndarray],
    pick_first: Callable[[object, object], bool],
) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """Elementwise max or min (``numeric``); symbolic entries only when equal."""

    def pick(lhs: object, rhs: object) -> object:
        if isinstance(lhs, PrimExpr) or isinstance(rhs, PrimExpr):
            if prove_equal(as_expr(lhs), as_expr(rhs)):  # pyright: ignore[reportArgumentType]
                return lhs
            raise Unknown
        return lhs if pick_first(lhs, rhs) else rhs  # pyright: ignore[reportArgumentType]

    vectorised = np.frompyfunc(pick, 2, 1)

    def operation(lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
        if not _symbolic(lhs) and not _symbolic(rhs):
            return numeric(lhs, rhs)
        return vectorised(lhs, rhs)

    return operation


def _equal_entries(lhs: object, rhs: object) -> bool:
    """Whether two entries are equal, when it can be proved either way; a
    dimension's variable, never negative, differs from a negative number (the
    ``Where(Equal(shape, -1), ...)`` exporters write around ``Reshape``)."""
    if isinstance(lhs, PrimExpr) or isinstance(rhs, PrimExpr):
        left, right = as_expr(lhs), as_expr(rhs)  # pyright: ignore[reportArgumentType]
        if prove_equal(left, right):
            return True
        if prove_not_equal(left, right) or _negative_against_dimension(left, right):
            return False
        raise Unknown
    return bool(lhs == rhs)


def _negative_against_dimension(left: PrimExpr, right: PrimExpr) -> bool:
    pair = {type(left), type(right)}
    if pair != {Var, IntImm}:
        return False
    number = left if isinstance(left, IntImm) else right
    return number.value < 0  # pyright: ignore[reportAttributeAccessIssue]


_EQUAL = np.frompyfunc(_equal_entries, 2, 1)


def _equal(ctx: NodeContext) -> np.ndarray:
    lhs, rhs = _input(ctx, 0), _input(ctx, 1)
    if not _symbolic(lhs) and not _symbolic(rhs):
        return np.equal(lhs, rhs)
    return _EQUAL(lhs, rhs).astype(bool)


def _where(ctx: NodeContext) -> np.ndarray:
    condition = _numeric(_input(ctx, 0)).astype(bool)
    lhs, rhs = _input(ctx, 1), _input(ctx, 2)
    result = np.where(condition, lhs, rhs)
    return result if _symbolic(result) else result.astype(_numeric_dtype(lhs, rhs))


def _negate(ctx: NodeContext) -> np.ndarray:
    return np.negative(_input(ctx, 0))


def _constant_of_shape(ctx: NodeContext) -> np.ndarray:
    shape = _numeric(_input(ctx, 0))
    if np.prod(shape) > MAX_FOLDED:
        raise Unknown
    value = ctx.attr("value", None)
    fill = np.zeros(1, np.float32) if value is None else value.reshape(-1)
    return np.full(tuple(int(d) for d in shape), fill[0], dtype=fill.dtype)


def _range(ctx: NodeContext) -> np.ndarray:
    start, limit, delta = (_numeric(_input(ctx, i)).reshape(()) for i in range(3))
    if delta == 0 or abs((limit - start) / delta) > MAX_FOLDED:
        raise Unknown
    return np.arange(start, limit, delta, dtype=start.dtype)


RULES: dict[str, Callable[[NodeContext], np.ndarray]] = {
    "Constant": _constant,
    "Identity": _identity,
    "Shape": _shape,
    "Size": _size,
    "Gather": _gather,
    "Slice": _slice,
    "Concat": _concat,
    "Unsqueeze": _unsqueeze,
    "Squeeze": _squeeze,
    "Reshape": _reshape,
    "Cast": _cast,
    "Add": _binary(np.add),
    "Sub": _binary(np.subtract),
    "Mul": _binary(np.multiply),
    "Div": _binary(_divide),
    "Neg": _negate,
    "Max": _variadic(_extreme(np.maximum, operator.ge)),
    "Min": _variadic(_extreme(np.minimum, operator.le)),
    "Equal": _equal,
    "Where": _where,
    "ConstantOfShape": _constant_of_shape,
    "Range": _range,
}
"""How each foldable operator computes its result from known inputs."""
