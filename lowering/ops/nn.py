"""Neural-network operators → compositions of ``linalg.generic`` (+ ``tensor.pad``,
``tensor.expand_shape``/``collapse_shape`` and gathers).

Numerics as the reference kernels (TVM's legalization): activations compute in the
data type (``gelu`` of ``f16`` takes ``erf`` in ``f32``); ``softmax`` subtracts the
maximum (NaN propagates) and divides by the sum of the exponentials; ``layer_norm``,
``group_norm`` and ``instance_norm`` of ``f16`` data compute in ``f32``
(``rms_norm`` always does), group and instance norms with the one-pass variance
``E[x^2] - E[x]^2``; losses divide integers truncating. ``dropout`` is inference
mode (the data and a mask of ones). ``attention`` repeats key/value heads for their
query groups and masks causally as topi does (masked scores are 0 before the
maximum, their exponentials 0). Run-time failures of the reference kernels are
``cf.assert``s: reflect padding wider than the axis, channels not divisible into
groups, query heads not a multiple of key/value heads, an out-of-range
``nll_loss`` target. Sliding-window attention (``window_size``) is a lowering
error, as it has no reference semantics.
"""

from __future__ import annotations

import math as pymath
from collections.abc import Callable, Sequence

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType, i1, i64
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineExpr

from relax_dialect.dtype import FLOAT32, INT64, DataType
from relax_dialect.ops import nn as ops
from relax_dialect.prim_expr import IntImm, PrimExpr
from relax_dialect.prim_expr_simplify import prove_equal, simplify
from relax_dialect.types import TensorType as RelaxTensor

from ..lowerer import Lowerer
from ..type_conversion import element_type, tensor_type
from . import lowers
from .common import (
    PARALLEL,
    REDUCTION,
    collapse,
    compare,
    constant,
    convert,
    data_type,
    elementwise,
    expand,
    extract,
    fill,
    generic,
    loop_indices,
    pad,
    parallel,
    pick,
    reduce,
    select,
    sizes_of,
    to_index,
)

Body = Callable[[Lowerer, Sequence[SSAValue]], SSAValue]


# --- helpers ----------------------------------------------------------------------------


def _emit(lw: Lowerer, op_class, *args: SSAValue) -> SSAValue:
    return lw.emit_value(op_class(*args))


def _retype(value: SSAValue, dtype: DataType) -> TensorType:
    """The type of lowered tensor ``value`` with elements of ``dtype``."""
    return TensorType(element_type(dtype), value.type.get_shape())  # pyright: ignore


def _map(lw: Lowerer, value: SSAValue, body: Body, dtype: DataType | None = None) -> SSAValue:
    """An element-wise generic over one lowered tensor (result elements of ``dtype``)."""
    rank = len(value.type.get_shape())  # pyright: ignore[reportAttributeAccessIssue]
    type = value.type if dtype is None else _retype(value, dtype)
    return parallel(lw, [value], [list(range(rank))], sizes_of(lw, value), type, body)


def _as(lw: Lowerer, value: SSAValue, source: DataType, target: DataType) -> SSAValue:
    """A lowered tensor converted to ``target`` elements (itself when already)."""
    if source == target:
        return value
    return _map(lw, value, lambda lw, xs: convert(lw, xs[0], source, target), target)


def _count(lw: Lowerer, sizes: Sequence[SSAValue], dtype: DataType) -> SSAValue:
    """The product of ``index`` sizes as a scalar of ``dtype``."""
    count = lw.constant_index(1)
    for size in sizes:
        count = _emit(lw, arith.MuliOp, count, size)
    return convert(lw, lw.emit_value(arith.IndexCastOp(count, i64)), INT64, dtype)


def _compute_dtype(dtype: DataType) -> DataType:
    """topi's accumulation type: ``f32`` for ``f16`` data."""
    return FLOAT32 if dtype.is_float and dtype.bits == 16 else dtype


def _sum(lw: Lowerer, source: SSAValue, axes: Sequence[int], dtype: DataType, square=False):
    """The sum (of squares) of a lowered tensor over ``axes``, axes dropped."""
    add = pick(dtype, arith.AddfOp, arith.AddiOp)
    mul = pick(dtype, arith.MulfOp, arith.MuliOp)

    def combine(lw: Lowerer, x: SSAValue, acc: SSAValue) -> SSAValue:
        return _emit(lw, add, acc, _emit(lw, mul, x, x) if square else x)

    zero = constant(lw, 0, dtype)
    total, _ = reduce(lw, source, sizes_of(lw, source), axes, False, zero, combine)
    return total


def _kept(rank: int, axes: Sequence[int]) -> list[int | None]:
    """The map reading a tensor reduced over ``axes`` inside a loop nest of ``rank``."""
    return [a for a in range(rank) if a not in axes]


def _param_map(rank: int, axes: Sequence[int]) -> list[int | None]:
    return list(axes)


def _check_sizes(lw: Lowerer, op, value: SSAValue, axes: Sequence[int], data_sizes, what: str):
    """Check at run time that the Relax tensor ``value`` has the data's sizes on ``axes``
    (unless the types prove it)."""
    data = op.operands[0].type
    dims = value.type.dims  # pyright: ignore[reportAttributeAccessIssue]
    sizes = lw.dims(value)
    for k, axis in enumerate(axes):
        known = data.dims[axis] if data.dims is not None else None
        if dims is not None and known is not None and prove_equal(dims[k], known):
            continue
        lw.check_equal(sizes[k], data_sizes[axis], op, f"{op.name}: {what} does not fit the data")


def _rsqrt(lw: Lowerer, variance: SSAValue, epsilon: SSAValue, dtype: DataType) -> SSAValue:
    """``1 / sqrt(variance + epsilon)``."""
    root = lw.emit_value(math.SqrtOp(_emit(lw, arith.AddfOp, variance, epsilon)))
    return _emit(lw, arith.DivfOp, constant(lw, 1, dtype), root)


# --- activations ------------------------------------------------------------------------

Activation = Callable[[Lowerer, ops.NNOp, SSAValue, DataType], SSAValue]


def _relu(lw: Lowerer, op: ops.NNOp, x: SSAValue, dt: DataType) -> SSAValue:
    zero = constant(lw, 0, dt)
    return select(lw, compare(lw, "gt", x, zero, dt), x, zero)


def _erf(lw: Lowerer, x: SSAValue, dt: DataType) -> SSAValue:
    if dt.bits >= 32:
        return lw.emit_value(math.ErfOp(x))
    wide = lw.emit_value(math.ErfOp(convert(lw, x, dt, FLOAT32)))
    return convert(lw, wide, FLOAT32, dt)


def _gelu(lw: Lowerer, op: ops.NNOp, x: SSAValue, dt: DataType) -> SSAValue:
    half = constant(lw, 0.5, dt)
    erf = _erf(lw, _emit(lw, arith.MulfOp, x, constant(lw, pymath.sqrt(0.5), dt)), dt)
    factor = _emit(lw, arith.AddfOp, half, _emit(lw, arith.MulfOp, erf, half))
    return _emit(lw, arith.MulfOp, x, factor)


def _gelu_tanh(lw: Lowerer, op: ops.NNOp, x: SSAValue, dt: DataType) -> SSAValue:
    one = constant(lw, 1, dt)
    cubic = _emit(lw, arith.MulfOp, _emit(lw, arith.MulfOp, constant(lw, 0.044715, dt), x), x)
    inner = _emit(
        lw,
        arith.MulfOp,
        _emit(lw, arith.MulfOp, constant(lw, pymath.sqrt(2 / pymath.pi), dt), x),
        _emit(lw, arith.AddfOp, one, cubic),
    )
    tanh = lw.emit_value(math.TanhOp(inner))
    half_x = _emit(lw, arith.MulfOp, constant(lw, 0.5, dt), x)
    return _emit(lw, arith.MulfOp, half_x, _emit(lw, arith.AddfOp, one, tanh))


def _selu(lw: Lowerer, op: ops.NNOp, x: SSAValue, dt: DataType) -> SSAValue:
    from relax_dialect.interpreter.kernels.nn import SELU_ALPHA, SELU_SCALE

    zero, one = constant(lw, 0, dt), constant(lw, 1, dt)
    exp = _emit(lw, arith.SubfOp, lw.emit_value(math.ExpOp(x)), one)
    negative = _emit(
        lw, arith.MinimumfOp, zero, _emit(lw, arith.MulfOp, constant(lw, SELU_ALPHA, dt), exp)
    )
    positive = select(lw, compare(lw, "gt", x, zero, dt), x, zero)
    total = _emit(lw, arith.AddfOp, positive, negative)
    return _emit(lw, arith.MulfOp, constant(lw, SELU_SCALE, dt), total)


def _silu(lw: Lowerer, op: ops.NNOp, x: SSAValue, dt: DataType) -> SSAValue:
    one = constant(lw, 1, dt)
    exp = lw.emit_value(math.ExpOp(lw.emit_value(arith.NegfOp(x))))
    sigmoid = _emit(lw, arith.DivfOp, one, _emit(lw, arith.AddfOp, one, exp))
    return _emit(lw, arith.MulfOp, x, sigmoid)


def _leakyrelu(lw: Lowerer, op: ops.NNOp, x: SSAValue, dt: DataType) -> SSAValue:
    scaled = _emit(lw, arith.MulfOp, x, constant(lw, op.attr("alpha"), dt))
    return select(lw, compare(lw, "gt", x, constant(lw, 0, dt), dt), x, scaled)


def _softplus(lw: Lowerer, op: ops.NNOp, x: SSAValue, dt: DataType) -> SSAValue:
    beta, threshold = op.attr("beta"), op.attr("threshold")
    scaled = _emit(lw, arith.MulfOp, constant(lw, beta, dt), x)
    exp = lw.emit_value(math.ExpOp(scaled))
    log = lw.emit_value(math.LogOp(_emit(lw, arith.AddfOp, constant(lw, 1, dt), exp)))
    soft = _emit(lw, arith.MulfOp, constant(lw, 1 / beta, dt), log)
    return select(lw, compare(lw, "gt", scaled, constant(lw, threshold, dt), dt), x, soft)


ACTIVATIONS: dict[type[ops.NNOp], Activation] = {
    ops.ReluOp: _relu,
    ops.GeluOp: _gelu,
    ops.GeluTanhOp: _gelu_tanh,
    ops.SeluOp: _selu,
    ops.SiluOp: _silu,
    ops.LeakyReluOp: _leakyrelu,
    ops.SoftplusOp: _softplus,
}


@lowers(*ACTIVATIONS)
def lower_activation(lw: Lowerer, op: ops.UnaryNNOp) -> SSAValue:
    dtype = data_type(op.data.type)
    activation = ACTIVATIONS[type(op)]
    result = lw.result_type(op)
    return elementwise(lw, op, [op.data], lambda lw, xs: activation(lw, op, xs[0], dtype), result)


@lowers(ops.PReluOp)
def lower_prelu(lw: Lowerer, op: ops.PReluOp) -> SSAValue:
    data = lw.result_type(op)
    dtype = data.data_type
    rank = data.rank
    axis = op.attr("axis") % rank
    alpha = lw.lowered(op.alpha)[0]
    alpha_type = op.alpha.type
    assert isinstance(alpha_type, RelaxTensor)
    if alpha_type.rank > 1:
        alpha = collapse(lw, alpha, [list(range(alpha_type.rank))])
    sizes = lw.dims(op.data)
    alpha_map: list[int | None] = []
    if alpha_type.rank != 0:
        alpha_sizes = sizes_of(lw, alpha)
        static = alpha.type.get_shape()[0]  # pyright: ignore[reportAttributeAccessIssue]
        if static == 1:
            alpha_map = [None]
        else:
            known = data.dims[axis] if data.dims is not None else None
            dims = alpha_type.dims
            if not (dims is not None and known is not None and alpha_type.rank == 1
                    and prove_equal(dims[0], known)):
                message = f"{op.name}: alpha has neither 1 element nor one per channel"
                lw.check_equal(alpha_sizes[0], sizes[axis], op, message)
            alpha_map = [axis]

    def body(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        x, slope = xs
        scaled = _emit(lw, arith.MulfOp, x, slope)
        return select(lw, compare(lw, "gt", x, constant(lw, 0, dtype), dtype), x, scaled)

    x = lw.lowered(op.data)[0]
    return parallel(lw, [x, alpha], [list(range(rank)), alpha_map], sizes, tensor_type(data), body)


# --- softmax --------------------------------------------------------------------------------

Keep = Callable[[Lowerer], SSAValue]
"""Emits (in a generic body) whether the current element is kept (not masked)."""


def softmax(
    lw: Lowerer, x: SSAValue, axis: int, dtype: DataType, log: bool = False, keep: Keep | None = None
) -> SSAValue:
    """(Log-)softmax of lowered tensor ``x`` along ``axis``; with ``keep``, masked
    elements count as 0 in the maximum and have exponential 0 (topi's causal mask)."""
    rank = len(x.type.get_shape())  # pyright: ignore[reportAttributeAccessIssue]
    sizes = sizes_of(lw, x)
    identity = list(range(rank))
    kept = _kept(rank, [axis])
    if keep is not None:
        zero = constant(lw, 0, dtype)
        x = parallel(
            lw, [x], [identity], sizes, x.type, lambda lw, xs: select(lw, keep(lw), xs[0], zero)
        )
    lowest = constant(lw, -pymath.inf, dtype)
    maximum, _ = reduce(
        lw, x, sizes, [axis], False, lowest, lambda lw, v, acc: _emit(lw, arith.MaximumfOp, acc, v)
    )

    def exponential(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        exp = lw.emit_value(math.ExpOp(_emit(lw, arith.SubfOp, xs[0], xs[1])))
        return exp if keep is None else select(lw, keep(lw), exp, constant(lw, 0, dtype))

    exp = parallel(lw, [x, maximum], [identity, kept], sizes, x.type, exponential)
    total = _sum(lw, exp, [axis], dtype)
    if not log:
        return parallel(
            lw,
            [exp, total],
            [identity, kept],
            sizes,
            x.type,
            lambda lw, xs: _emit(lw, arith.DivfOp, *xs),
        )

    def log_softmax(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        shifted = _emit(lw, arith.SubfOp, xs[0], xs[1])
        return _emit(lw, arith.SubfOp, shifted, lw.emit_value(math.LogOp(xs[2])))

    return parallel(lw, [x, maximum, total], [identity, kept, kept], sizes, x.type, log_softmax)


@lowers(ops.SoftmaxOp, ops.LogSoftmaxOp)
def lower_softmax(lw: Lowerer, op: ops.SoftmaxBaseOp) -> SSAValue:
    result = lw.result_type(op)
    x = lw.cast(lw.lowered(op.data)[0], tensor_type(result))
    axis = op.attr("axis") % result.rank
    return softmax(lw, x, axis, result.data_type, isinstance(op, ops.LogSoftmaxOp))


# --- shape-changing operators -----------------------------------------------------------


def _gather_index(lw: Lowerer, mode: str, index: SSAValue, size: SSAValue) -> SSAValue:
    """The source position of padded position ``index`` (already shifted by the
    before width) along an axis of ``size`` elements."""
    zero, one = lw.constant_index(0), lw.constant_index(1)
    last = _emit(lw, arith.SubiOp, size, one)
    if mode == "replicate":
        return _emit(lw, arith.MinSIOp, _emit(lw, arith.MaxSIOp, index, zero), last)
    if mode == "circular":
        quotient = _emit(lw, arith.FloorDivSIOp, index, size)
        return _emit(lw, arith.SubiOp, index, _emit(lw, arith.MuliOp, quotient, size))
    negative = _emit(lw, arith.CmpiOp, index, zero, "slt")
    mirrored = select(lw, negative, _emit(lw, arith.SubiOp, zero, index), index)
    beyond = _emit(lw, arith.CmpiOp, mirrored, last, "sgt")
    twice = _emit(lw, arith.AddiOp, last, last)
    return select(lw, beyond, _emit(lw, arith.SubiOp, twice, mirrored), mirrored)


@lowers(ops.PadOp)
def lower_pad(lw: Lowerer, op: ops.PadOp) -> SSAValue:
    result = lw.result_type(op)
    dtype = result.data_type
    widths = op.attr("pad_width")
    before, after = list(widths[::2]), list(widths[1::2])
    mode = op.attr("pad_mode")
    x = lw.lowered(op.data)[0]
    if mode == "constant":
        import numpy as np

        value = np.array(op.attr("pad_value")).astype(dtype.to_numpy()).item()
        padded = pad(lw, x, before, after, constant(lw, value, dtype))
        return lw.cast(padded, tensor_type(result))
    sizes = lw.dims(op.data)
    if mode == "reflect":
        for axis, size in enumerate(sizes):
            width = max(before[axis], after[axis])
            if width > 0:
                fits = _emit(lw, arith.CmpiOp, size, lw.constant_index(width), "sgt")
                lw.check(fits, op, f"{op.name}: reflect padding by {width} needs more than "
                         f"{width} elements on axis {axis}")
    out_sizes = [
        _emit(lw, arith.AddiOp, size, lw.constant_index(b + a))
        for size, b, a in zip(sizes, before, after, strict=True)
    ]

    def body(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        positions = []
        for index, size, b in zip(loop_indices(lw, len(sizes)), sizes, before, strict=True):
            shifted = _emit(lw, arith.SubiOp, index, lw.constant_index(b))
            positions.append(_gather_index(lw, mode, shifted, size))
        return extract(lw, x, positions)

    return parallel(lw, [], [], out_sizes, tensor_type(result), body)


@lowers(ops.PixelShuffleOp)
def lower_pixel_shuffle(lw: Lowerer, op: ops.PixelShuffleOp) -> SSAValue:
    """A generic into ``[..., C, H, r, W, r]`` reading channel ``c * r * r + i * r + j``,
    then ``collapse_shape`` to ``[..., C, H * r, W * r]``."""
    result = lw.result_type(op)
    r = op.attr("upscale_factor")
    x = lw.lowered(op.data)[0]
    *batch, channels, height, width = lw.dims(op.data)
    lead = len(batch)
    out_channels = _emit(lw, arith.DivSIOp, channels, lw.constant_index(r * r))
    c, h, i, w, j = (AffineExpr.dimension(lead + k) for k in range(5))
    reads = [*range(lead), c * (r * r) + i * r + j, h, w]
    in_shape = x.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    static_channels = in_shape[lead] // (r * r) if in_shape[lead] != DYNAMIC_INDEX else DYNAMIC_INDEX
    shape = [*in_shape[:lead], static_channels, in_shape[lead + 1], r, in_shape[lead + 2], r]
    type = TensorType(x.type.get_element_type(), shape)  # pyright: ignore
    sizes = [*batch, out_channels, height, lw.constant_index(r), width, lw.constant_index(r)]
    shuffled = parallel(lw, [x], [reads], sizes, type, lambda lw, xs: xs[0])
    groups = [*([a] for a in range(lead)), [lead], [lead + 1, lead + 2], [lead + 3, lead + 4]]
    return lw.cast(collapse(lw, shuffled, groups), tensor_type(result))


@lowers(ops.BatchFlattenOp)
def lower_batch_flatten(lw: Lowerer, op: ops.BatchFlattenOp) -> SSAValue:
    result = lw.result_type(op)
    x = lw.lowered(op.data)[0]
    rank = len(x.type.get_shape())  # pyright: ignore[reportAttributeAccessIssue]
    return lw.cast(collapse(lw, x, [[0], list(range(1, rank))]), tensor_type(result))


@lowers(ops.DropoutOp)
def lower_dropout(lw: Lowerer, op: ops.DropoutOp) -> list[SSAValue]:
    x = lw.lowered(op.data)[0]
    ones = fill(lw, constant(lw, 1, data_type(op.data.type)), lw.empty(x.type, sizes_of(lw, x)))
    return [x, ones]
