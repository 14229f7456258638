"""Neural-network operators → compositions of ``linalg.generic`` (+ ``tensor.pad``,
``tensor.expand_shape``/``collapse_shape`` and gathers).

Numerics as the reference kernels (TVM's legalization): activations compute in the
data type (``gelu`` of ``f16`` takes ``erf`` in ``f32``); ``softmax`` subtracts the
maximum (NaN propagates) and divides by the sum of the exponentials; ``layer_norm``,
``group_norm`` and ``instance_norm`` of ``f16`` data compute in ``f32``
(``rms_norm`` always does), and softmax's sum and attention's products of ``f16``
accumulate in ``f32`` (rounded to ``f16`` once, as NumPy sums a float16 axis and
multiplies float16 matrices), group and instance norms with the one-pass variance
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

import numpy as np
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType, i64
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineExpr

from relax_dialect.dtype import FLOAT32, INT64, DataType
from relax_dialect.numerics.nn import SELU_ALPHA, SELU_SCALE
from relax_dialect.ops import nn as ops
from relax_dialect.prim_expr import IntImm
from relax_dialect.prim_expr_simplify import prove_equal
from relax_dialect.types import TensorType as RelaxTensor

from ..lowerer import Lowerer
from ..type_conversion import element_type, tensor_type
from . import lowers
from .common import (
    PARALLEL,
    REDUCTION,
    MapExprs,
    accumulation_type,
    check_every,
    collapse,
    compare,
    constant,
    convert,
    data_type,
    element_count,
    elementwise,
    emit_op,
    expand,
    extract,
    fill,
    generic,
    loop_indices,
    outside,
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


def _compute_dtype(dtype: DataType) -> DataType:
    """topi's accumulation type: ``f32`` for ``f16`` data."""
    return FLOAT32 if dtype.is_float and dtype.bits == 16 else dtype


def _sum(
    lw: Lowerer,
    source: SSAValue,
    axes: Sequence[int],
    dtype: DataType,
    square: bool = False,
    sizes: Sequence[SSAValue] | None = None,
    acc: DataType | None = None,
) -> SSAValue:
    """The sum (of squares) of a lowered tensor over ``axes``, axes dropped; ``sizes``
    are its sizes when the caller knows them (else ``tensor.dim``); ``acc``: the type the
    sum accumulates (and is returned) in, the elements converted (default ``dtype``)."""
    acc = dtype if acc is None else acc
    add = pick(acc, arith.AddfOp, arith.AddiOp)
    mul = pick(acc, arith.MulfOp, arith.MuliOp)

    def combine(lw: Lowerer, x: SSAValue, total: SSAValue) -> SSAValue:
        x = convert(lw, x, dtype, acc)
        return emit_op(lw, add, total, emit_op(lw, mul, x, x) if square else x)

    zero = constant(lw, 0, acc)
    sizes = sizes_of(lw, source) if sizes is None else sizes
    total, _ = reduce(lw, source, sizes, axes, False, zero, combine)
    return total


def _kept(rank: int, axes: Sequence[int]) -> list[int | None]:
    """The map reading a tensor reduced over ``axes`` inside a loop nest of ``rank``."""
    return [a for a in range(rank) if a not in axes]


def _rsqrt(lw: Lowerer, variance: SSAValue, epsilon: SSAValue, dtype: DataType) -> SSAValue:
    """``1 / sqrt(variance + epsilon)``."""
    root = lw.make(math.SqrtOp, emit_op(lw, arith.AddfOp, variance, epsilon))
    return emit_op(lw, arith.DivfOp, constant(lw, 1, dtype), root)


# --- activations ------------------------------------------------------------------------

Activation = Callable[[Lowerer, ops.NNOp, SSAValue, DataType], SSAValue]


def _relu(lw: Lowerer, op: ops.NNOp, x: SSAValue, dt: DataType) -> SSAValue:
    zero = constant(lw, 0, dt)
    return select(lw, compare(lw, "gt", x, zero, dt), x, zero)


def _erf(lw: Lowerer, x: SSAValue, dt: DataType) -> SSAValue:
    if dt.bits >= 32:
        return lw.make(math.ErfOp, x)
    wide = lw.make(math.ErfOp, convert(lw, x, dt, FLOAT32))
    return convert(lw, wide, FLOAT32, dt)


def _gelu(lw: Lowerer, op: ops.NNOp, x: SSAValue, dt: DataType) -> SSAValue:
    half = constant(lw, 0.5, dt)
    erf = _erf(lw, emit_op(lw, arith.MulfOp, x, constant(lw, pymath.sqrt(0.5), dt)), dt)
    factor = emit_op(lw, arith.AddfOp, half, emit_op(lw, arith.MulfOp, erf, half))
    return emit_op(lw, arith.MulfOp, x, factor)


def _gelu_tanh(lw: Lowerer, op: ops.NNOp, x: SSAValue, dt: DataType) -> SSAValue:
    one = constant(lw, 1, dt)
    cubic = emit_op(lw, arith.MulfOp, emit_op(lw, arith.MulfOp, constant(lw, 0.044715, dt), x), x)
    inner = emit_op(
        lw,
        arith.MulfOp,
        emit_op(lw, arith.MulfOp, constant(lw, pymath.sqrt(2 / pymath.pi), dt), x),
        emit_op(lw, arith.AddfOp, one, cubic),
    )
    tanh = lw.make(math.TanhOp, inner)
    half_x = emit_op(lw, arith.MulfOp, constant(lw, 0.5, dt), x)
    return emit_op(lw, arith.MulfOp, half_x, emit_op(lw, arith.AddfOp, one, tanh))


def _selu(lw: Lowerer, op: ops.NNOp, x: SSAValue, dt: DataType) -> SSAValue:
    zero, one = constant(lw, 0, dt), constant(lw, 1, dt)
    exp = emit_op(lw, arith.SubfOp, lw.make(math.ExpOp, x), one)
    negative = emit_op(
        lw, arith.MinimumfOp, zero, emit_op(lw, arith.MulfOp, constant(lw, SELU_ALPHA, dt), exp)
    )
    positive = select(lw, compare(lw, "gt", x, zero, dt), x, zero)
    total = emit_op(lw, arith.AddfOp, positive, negative)
    return emit_op(lw, arith.MulfOp, constant(lw, SELU_SCALE, dt), total)


def _silu(lw: Lowerer, op: ops.NNOp, x: SSAValue, dt: DataType) -> SSAValue:
    one = constant(lw, 1, dt)
    exp = lw.make(math.ExpOp, lw.make(arith.NegfOp, x))
    sigmoid = emit_op(lw, arith.DivfOp, one, emit_op(lw, arith.AddfOp, one, exp))
    return emit_op(lw, arith.MulfOp, x, sigmoid)


def _leakyrelu(lw: Lowerer, op: ops.NNOp, x: SSAValue, dt: DataType) -> SSAValue:
    scaled = emit_op(lw, arith.MulfOp, x, constant(lw, op.attr("alpha"), dt))
    return select(lw, compare(lw, "gt", x, constant(lw, 0, dt), dt), x, scaled)


def _softplus(lw: Lowerer, op: ops.NNOp, x: SSAValue, dt: DataType) -> SSAValue:
    beta, threshold = op.attr("beta"), op.attr("threshold")
    scaled = emit_op(lw, arith.MulfOp, constant(lw, beta, dt), x)
    exp = lw.make(math.ExpOp, scaled)
    log = lw.make(math.LogOp, emit_op(lw, arith.AddfOp, constant(lw, 1, dt), exp))
    soft = emit_op(lw, arith.MulfOp, constant(lw, 1 / beta, dt), log)
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
    """``alpha`` (flattened) broadcasts along ``axis``, or everywhere with one element."""
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
        if alpha.type.get_shape()[0] == 1:  # pyright: ignore[reportAttributeAccessIssue]
            alpha_map = [None]
        else:
            alpha_map = [axis]
            proven = (
                alpha_type.rank == 1
                and alpha_type.dims is not None
                and data.dims is not None
                and prove_equal(alpha_type.dims[0], data.dims[axis])
            )
            if not proven:
                message = f"{op.name}: alpha has neither 1 element nor one per channel"
                lw.check_equal(sizes_of(lw, alpha)[0], sizes[axis], op, message)

    def body(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        x, slope = xs
        scaled = emit_op(lw, arith.MulfOp, x, slope)
        return select(lw, compare(lw, "gt", x, constant(lw, 0, dtype), dtype), x, scaled)

    x = lw.lowered(op.data)[0]
    return parallel(lw, [x, alpha], [list(range(rank)), alpha_map], sizes, tensor_type(data), body)


# --- softmax --------------------------------------------------------------------------------

Keep = Callable[[Lowerer], SSAValue]
"""Emits (in a generic body) whether the current element is kept (not masked)."""


def softmax(
    lw: Lowerer,
    x: SSAValue,
    axis: int,
    dtype: DataType,
    log: bool = False,
    keep: Keep | None = None,
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
        lw,
        x,
        sizes,
        [axis],
        False,
        lowest,
        lambda lw, v, acc: emit_op(lw, arith.MaximumfOp, acc, v),
    )

    def exponential(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        exp = lw.make(math.ExpOp, emit_op(lw, arith.SubfOp, xs[0], xs[1]))
        return exp if keep is None else select(lw, keep(lw), exp, constant(lw, 0, dtype))

    exp = parallel(lw, [x, maximum], [identity, kept], sizes, x.type, exponential)
    acc = accumulation_type(dtype)
    total = _sum(lw, exp, [axis], dtype, acc=acc)

    def divide(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        return emit_op(lw, arith.DivfOp, xs[0], convert(lw, xs[1], acc, dtype))

    if not log:
        return parallel(lw, [exp, total], [identity, kept], sizes, x.type, divide)

    def log_softmax(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        shifted = emit_op(lw, arith.SubfOp, xs[0], xs[1])
        log_total = lw.make(math.LogOp, convert(lw, xs[2], acc, dtype))
        return emit_op(lw, arith.SubfOp, shifted, log_total)

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
    last = emit_op(lw, arith.SubiOp, size, one)
    if mode == "replicate":
        return emit_op(lw, arith.MinSIOp, emit_op(lw, arith.MaxSIOp, index, zero), last)
    if mode == "circular":
        quotient = emit_op(lw, arith.FloorDivSIOp, index, size)
        return emit_op(lw, arith.SubiOp, index, emit_op(lw, arith.MuliOp, quotient, size))
    negative = emit_op(lw, arith.CmpiOp, index, zero, "slt")
    mirrored = select(lw, negative, emit_op(lw, arith.SubiOp, zero, index), index)
    beyond = emit_op(lw, arith.CmpiOp, mirrored, last, "sgt")
    twice = emit_op(lw, arith.AddiOp, last, last)
    return select(lw, beyond, emit_op(lw, arith.SubiOp, twice, mirrored), mirrored)


@lowers(ops.PadOp)
def lower_pad(lw: Lowerer, op: ops.PadOp) -> SSAValue:
    result = lw.result_type(op)
    dtype = result.data_type
    widths = op.attr("pad_width")
    before, after = list(widths[::2]), list(widths[1::2])
    mode = op.attr("pad_mode")
    x = lw.lowered(op.data)[0]
    if mode == "constant":
        value = np.array(op.attr("pad_value")).astype(dtype.to_numpy()).item()
        padded = pad(lw, x, before, after, constant(lw, value, dtype))
        return lw.cast(padded, tensor_type(result))
    sizes = lw.dims(op.data)
    if mode == "reflect":
        for axis, size in enumerate(sizes):
            width = max(before[axis], after[axis])
            if width > 0:
                fits = emit_op(lw, arith.CmpiOp, size, lw.constant_index(width), "sgt")
                lw.check(
                    fits,
                    op,
                    f"{op.name}: reflect padding by {width} needs more than "
                    f"{width} elements on axis {axis}",
                )
    out_sizes = [
        emit_op(lw, arith.AddiOp, size, lw.constant_index(b + a))
        for size, b, a in zip(sizes, before, after, strict=True)
    ]

    def body(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        positions = []
        for index, size, b in zip(loop_indices(lw, len(sizes)), sizes, before, strict=True):
            shifted = emit_op(lw, arith.SubiOp, index, lw.constant_index(b))
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
    out_channels = emit_op(lw, arith.DivSIOp, channels, lw.constant_index(r * r))
    c, h, i, w, j = (AffineExpr.dimension(lead + k) for k in range(5))
    reads = [*range(lead), c * (r * r) + i * r + j, h, w]
    in_shape = x.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    static_channels = (
        in_shape[lead] // (r * r) if in_shape[lead] != DYNAMIC_INDEX else DYNAMIC_INDEX
    )
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


# --- normalisations ---------------------------------------------------------------------


def _axes(axes: Sequence[int], rank: int) -> list[int]:
    return sorted(axis % rank for axis in axes)


def _params(
    lw: Lowerer, op: ops.NNOp, names: Sequence[str], given: Sequence[int], sizes
) -> list[SSAValue]:
    """The parameter operands ``names``, shaped like the data on axes ``given``, laid
    onto the sorted axes as the reference's ``reshape`` does; sizes the types do not
    prove equal to the data's are checked at run time."""
    rank = len(sizes)
    given = [axis % rank for axis in given]
    axes = sorted(given)
    data = op.operands[0].type
    assert isinstance(data, RelaxTensor)
    out = []
    for name in names:
        value = getattr(op, name)
        dims = value.type.dims
        for k, (axis, size) in enumerate(zip(given, lw.dims(value), strict=True)):
            known = data.dims[axis] if data.dims is not None else None
            if dims is None or known is None or not prove_equal(dims[k], known):
                message = f"{op.name}: the {name} does not fit the data on axis {axis}"
                lw.check_equal(size, sizes[axis], op, message)
        lowered = lw.lowered(value)[0]
        if given != axes:
            flat = collapse(lw, lowered, [list(range(len(axes)))])
            data_shape = lw.lowered(op.operands[0])[0].type.get_shape()  # pyright: ignore
            shape = [data_shape[a] for a in axes]
            lowered = expand(lw, flat, [list(range(len(axes)))], shape, [sizes[a] for a in axes])
        out.append(lowered)
    return out


def _affine(
    lw: Lowerer,
    op: ops.NNOp,
    normalized: SSAValue,
    params: Sequence[SSAValue],
    param_map: Sequence[int],
    dtype: DataType,
) -> SSAValue:
    """``x * gamma`` if ``scale``, ``+ beta`` if ``center`` (parameters read through
    ``param_map``)."""
    use = [op.attr("scale"), op.attr("center")]
    if not any(use):
        return normalized
    chosen = [p for p, u in zip(params, use, strict=True) if u]
    rank = len(normalized.type.get_shape())  # pyright: ignore[reportAttributeAccessIssue]
    identity = list(range(rank))

    def body(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        value, rest = xs[0], list(xs[1:])
        if use[0]:
            value = emit_op(lw, pick(dtype, arith.MulfOp, arith.MuliOp), value, rest.pop(0))
        if use[1]:
            value = emit_op(lw, pick(dtype, arith.AddfOp, arith.AddiOp), value, rest.pop(0))
        return value

    maps = [identity, *([list(param_map)] * len(chosen))]
    return parallel(
        lw, [normalized, *chosen], maps, sizes_of(lw, normalized), normalized.type, body
    )


@lowers(ops.LayerNormOp)
def lower_layer_norm(lw: Lowerer, op: ops.LayerNormOp) -> SSAValue:
    dtype = data_type(op.data.type)
    compute = _compute_dtype(dtype)
    sizes = lw.dims(op.data)
    rank = len(sizes)
    axes = _axes(op.attr("axes"), rank)
    params = _params(lw, op, ["gamma", "beta"], op.attr("axes"), sizes)
    x = _as(lw, lw.lowered(op.data)[0], dtype, compute)
    count = element_count(lw, [sizes[a] for a in axes], compute)
    identity, kept = list(range(rank)), _kept(rank, axes)
    total = _sum(lw, x, axes, compute, sizes=sizes)

    def center(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        return emit_op(lw, arith.SubfOp, xs[0], emit_op(lw, arith.DivfOp, xs[1], count))

    centered = parallel(lw, [x, total], [identity, kept], sizes, x.type, center)
    squares = _sum(lw, centered, axes, compute, square=True, sizes=sizes)
    epsilon = constant(lw, op.attr("epsilon"), compute)

    def normalize(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        variance = emit_op(lw, arith.DivfOp, xs[1], count)
        value = emit_op(lw, arith.MulfOp, xs[0], _rsqrt(lw, variance, epsilon, compute))
        return convert(lw, value, compute, dtype)

    type = _retype(centered, dtype)
    normalized = parallel(lw, [centered, squares], [identity, kept], sizes, type, normalize)
    out = _affine(lw, op, normalized, params, axes, dtype)
    return lw.cast(out, tensor_type(lw.result_type(op)))


@lowers(ops.RMSNormOp)
def lower_rms_norm(lw: Lowerer, op: ops.RMSNormOp) -> SSAValue:
    dtype = data_type(op.data.type)
    sizes = lw.dims(op.data)
    rank = len(sizes)
    axes = _axes(op.attr("axes"), rank)
    (weight,) = _params(lw, op, ["weight"], op.attr("axes"), sizes)
    x = _as(lw, lw.lowered(op.data)[0], dtype, FLOAT32)
    count = element_count(lw, [sizes[a] for a in axes], FLOAT32)
    squares = _sum(lw, x, axes, FLOAT32, square=True, sizes=sizes)
    epsilon = constant(lw, op.attr("epsilon"), FLOAT32)

    def body(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        mean_square = emit_op(lw, arith.DivfOp, xs[1], count)
        value = emit_op(lw, arith.MulfOp, _rsqrt(lw, mean_square, epsilon, FLOAT32), xs[0])
        value = emit_op(lw, arith.MulfOp, value, convert(lw, xs[2], dtype, FLOAT32))
        return convert(lw, value, FLOAT32, dtype)

    maps = [list(range(rank)), _kept(rank, axes), axes]
    type = _retype(x, dtype)
    out = parallel(lw, [x, squares, weight], maps, sizes, type, body)
    return lw.cast(out, tensor_type(lw.result_type(op)))


def _moments_normalized(
    lw: Lowerer, op: ops.NNOp, x: SSAValue, axes: Sequence[int], compute: DataType, dtype
) -> SSAValue:
    """topi's one-pass normalisation of lowered ``x`` (of ``compute`` elements) over
    ``axes``: ``(x - mean) / sqrt(E[x^2] - mean^2 + epsilon)``, in ``dtype``."""
    sizes = sizes_of(lw, x)
    rank = len(sizes)
    count = element_count(lw, [sizes[a] for a in axes], compute)
    total = _sum(lw, x, axes, compute, sizes=sizes)
    squares = _sum(lw, x, axes, compute, square=True, sizes=sizes)
    epsilon = constant(lw, op.attr("epsilon"), compute)

    def body(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        mean = emit_op(lw, arith.DivfOp, xs[1], count)
        mean_square = emit_op(lw, arith.DivfOp, xs[2], count)
        variance = emit_op(lw, arith.SubfOp, mean_square, emit_op(lw, arith.MulfOp, mean, mean))
        centered = emit_op(lw, arith.SubfOp, xs[0], mean)
        value = emit_op(lw, arith.MulfOp, centered, _rsqrt(lw, variance, epsilon, compute))
        return convert(lw, value, compute, dtype)

    kept = _kept(rank, axes)
    maps = [list(range(rank)), kept, kept]
    return parallel(lw, [x, total, squares], maps, sizes, _retype(x, dtype), body)


@lowers(ops.InstanceNormOp)
def lower_instance_norm(lw: Lowerer, op: ops.InstanceNormOp) -> SSAValue:
    dtype = data_type(op.data.type)
    compute = _compute_dtype(dtype)
    sizes = lw.dims(op.data)
    rank = len(sizes)
    channel = op.attr("channel_axis") % rank
    params = _params(lw, op, ["gamma", "beta"], [channel], sizes)
    x = _as(lw, lw.lowered(op.data)[0], dtype, compute)
    normalized = _moments_normalized(lw, op, x, _axes(op.attr("axes"), rank), compute, dtype)
    out = _affine(lw, op, normalized, params, [channel], dtype)
    return lw.cast(out, tensor_type(lw.result_type(op)))


@lowers(ops.GroupNormOp)
def lower_group_norm(lw: Lowerer, op: ops.GroupNormOp) -> SSAValue:
    """The channels split into ``[groups, channels / groups]`` (``expand_shape``),
    normalised over the second and ``axes``, merged back."""
    dtype = data_type(op.data.type)
    compute = _compute_dtype(dtype)
    sizes = lw.dims(op.data)
    rank = len(sizes)
    channel = op.attr("channel_axis") % rank
    groups = op.attr("num_groups")
    params = _params(lw, op, ["gamma", "beta"], [channel], sizes)
    x = lw.lowered(op.data)[0]
    channels = sizes[channel]
    count = lw.constant_index(groups)
    quotient = emit_op(lw, arith.DivSIOp, channels, count)
    exact = emit_op(lw, arith.MuliOp, quotient, count)
    lw.check_equal(
        exact, channels, op, f"{op.name}: the channels cannot be split into {groups} groups"
    )
    static = x.type.get_shape()[channel]  # pyright: ignore[reportAttributeAccessIssue]
    per_group = static // groups if static != DYNAMIC_INDEX else DYNAMIC_INDEX
    split = [[a] for a in range(channel)] + [[channel, channel + 1]]
    split += [[a + 1] for a in range(channel + 1, rank)]
    shape = list(x.type.get_shape())  # pyright: ignore[reportAttributeAccessIssue]
    shape[channel : channel + 1] = [groups, per_group]
    split_sizes = [*sizes[:channel], count, quotient, *sizes[channel + 1 :]]
    x = _as(lw, expand(lw, x, split, shape, split_sizes), dtype, compute)
    moved = [a if a < channel else a + 1 for a in _axes(op.attr("axes"), rank)]
    normalized = _moments_normalized(lw, op, x, [channel + 1, *moved], compute, dtype)
    params = [expand(lw, p, [[0, 1]], [groups, per_group], [count, quotient]) for p in params]
    out = _affine(lw, op, normalized, params, [channel, channel + 1], dtype)
    merged = collapse(lw, out, split)
    return lw.cast(merged, tensor_type(lw.result_type(op)))


@lowers(ops.BatchNormOp)
def lower_batch_norm(lw: Lowerer, op: ops.BatchNormOp) -> list[SSAValue]:
    dtype = data_type(op.data.type)
    sizes = lw.dims(op.data)
    rank = len(sizes)
    channel = op.attr("axis") % rank
    others = [a for a in range(rank) if a != channel]
    identity, along = list(range(rank)), [channel]
    gamma, beta, mean, var = _params(
        lw, op, ["gamma", "beta", "moving_mean", "moving_var"], [channel], sizes
    )
    x = lw.lowered(op.data)[0]
    epsilon = constant(lw, op.attr("epsilon"), dtype)
    if op.attr("training"):
        count = element_count(lw, [sizes[a] for a in others], dtype)

        def divide(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
            return emit_op(lw, arith.DivfOp, xs[0], count)

        batch_mean = _map(lw, _sum(lw, x, others, dtype), divide)

        def deviation(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
            centered = emit_op(lw, arith.SubfOp, xs[0], xs[1])
            return emit_op(lw, arith.MulfOp, centered, centered)

        squares = parallel(lw, [x, batch_mean], [identity, along], sizes, x.type, deviation)
        batch_var = _map(lw, _sum(lw, squares, others, dtype), divide)
        momentum = op.attr("momentum")
        keep, take = constant(lw, 1 - momentum, dtype), constant(lw, momentum, dtype)

        def update(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
            old = emit_op(lw, arith.MulfOp, keep, xs[0])
            return emit_op(lw, arith.AddfOp, old, emit_op(lw, arith.MulfOp, take, xs[1]))

        channel_sizes = [sizes[channel]]
        new_mean = parallel(lw, [mean, batch_mean], [[0], [0]], channel_sizes, mean.type, update)
        new_var = parallel(lw, [var, batch_var], [[0], [0]], channel_sizes, var.type, update)
        mean, var = batch_mean, batch_var
    else:
        new_mean, new_var = mean, var

    out = _normalized(lw, op, [x, mean, var, gamma, beta], epsilon, sizes, channel)
    types = lw.types_of(op, lw.result_sinfo)  # pyright: ignore[reportArgumentType]
    values = [out, new_mean, new_var]
    return [lw.cast(v, t) for v, t in zip(values, types, strict=True)]


def _normalized(
    lw: Lowerer,
    op: ops.BatchNormOp,
    operands: Sequence[SSAValue],
    epsilon: SSAValue,
    sizes: Sequence[SSAValue],
    channel: int,
) -> SSAValue:
    """``(x - mean) * factor (+ beta)`` along the channel axis, the per-channel
    ``factor = gamma / sqrt(var + epsilon)`` (``1 / sqrt(...)`` without ``scale``) computed
    once per channel (TVM's ``SimplifyInference`` scale) instead of a square root and a
    division per element in a convolution's epilogue (weights as parameters, the norm not
    folded into them: MobileNetV2 took 0.94× the time, docs/benchmarks.md). The factors are
    computed on channels of a dynamic count, so that every norm of a network shares one
    kernel (one per channel count cost MobileNetV2 13 more kernels to compile)."""
    x, mean, var, gamma, beta = operands
    scale, center = op.attr("scale"), op.attr("center")

    def factor(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        root = lw.make(math.SqrtOp, emit_op(lw, arith.AddfOp, xs[0], epsilon))
        numerator = xs[1] if scale else constant(lw, 1, data_type(op.data.type))
        return emit_op(lw, arith.DivfOp, numerator, root)

    any_channels = TensorType(var.type.get_element_type(), [DYNAMIC_INDEX])  # pyright: ignore
    per_channel = [lw.cast(v, any_channels) for v in ([var, gamma] if scale else [var])]
    channels = [lw.dim(per_channel[0], 0)]
    factors = parallel(lw, per_channel, [[0]] * len(per_channel), channels, any_channels, factor)

    def normalize(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        value = emit_op(lw, arith.MulfOp, emit_op(lw, arith.SubfOp, xs[0], xs[1]), xs[2])
        return emit_op(lw, arith.AddfOp, value, xs[3]) if center else value

    inputs = [x, mean, factors, *([beta] if center else [])]
    maps = [list(range(len(sizes))), *[[channel]] * (len(inputs) - 1)]
    return parallel(lw, inputs, maps, sizes, x.type, normalize)


# --- losses -----------------------------------------------------------------------------


def _scalar_map(lw: Lowerer, value: SSAValue, body: Body, dtype: DataType) -> SSAValue:
    """A generic over a 0-d tensor."""
    return parallel(lw, [value], [[]], [], TensorType(element_type(dtype), []), body)


def _divide(lw: Lowerer, dtype: DataType, x: SSAValue, y: SSAValue) -> SSAValue:
    """TIR's ``div``: true division of floats, truncating division of integers."""
    return emit_op(lw, pick(dtype, arith.DivfOp, arith.DivSIOp, arith.DivUIOp), x, y)


def _negate(lw: Lowerer, dtype: DataType, x: SSAValue) -> SSAValue:
    if dtype.is_float:
        return lw.make(arith.NegfOp, x)
    return emit_op(lw, arith.SubiOp, constant(lw, 0, dtype), x)


def _total(lw: Lowerer, value: SSAValue, dtype: DataType) -> SSAValue:
    """The sum of every element of a lowered tensor, as a 0-d tensor."""
    rank = len(value.type.get_shape())  # pyright: ignore[reportAttributeAccessIssue]
    return _sum(lw, value, list(range(rank)), dtype)


@lowers(ops.CrossEntropyWithLogitsOp)
def lower_cross_entropy(lw: Lowerer, op: ops.CrossEntropyWithLogitsOp) -> SSAValue:
    dtype = lw.result_type(op).data_type
    sources = [data_type(v.type) for v in op.operands]
    pred_sizes, label_sizes = lw.dims(op.predictions), lw.dims(op.labels)
    rank = len(pred_sizes)
    for axis, (p, q) in enumerate(zip(pred_sizes, label_sizes, strict=True)):
        lw.check_equal(q, p, op, f"{op.name}: predictions and labels differ on axis {axis}")

    def product(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        factors = [convert(lw, x, d, dtype) for x, d in zip(xs, sources, strict=True)]
        return emit_op(lw, pick(dtype, arith.MulfOp, arith.MuliOp), *factors)

    inputs = [lw.lowered(v)[0] for v in op.operands]
    identity = list(range(rank))
    type = TensorType(element_type(dtype), inputs[0].type.get_shape())  # pyright: ignore
    products = parallel(lw, inputs, [identity, identity], pred_sizes, type, product)
    total = _total(lw, products, dtype)
    batch = element_count(lw, pred_sizes[:1], dtype) if rank > 1 else None

    def finish(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        loss = _negate(lw, dtype, xs[0])
        return loss if batch is None else _divide(lw, dtype, loss, batch)

    return _scalar_map(lw, total, finish, dtype)


@lowers(ops.NLLLossOp)
def lower_nll_loss(lw: Lowerer, op: ops.NLLLossOp) -> SSAValue:
    """Per target a gather of the prediction (and weight) of its class; out-of-range
    targets fail a ``cf.assert`` (an ``or`` reduction over the targets)."""
    result = lw.result_type(op)
    dtype = result.data_type
    pred_dtype, target_dtype = data_type(op.predictions.type), data_type(op.targets.type)
    predictions, targets = lw.lowered(op.predictions)[0], lw.lowered(op.targets)[0]
    weights = lw.lowered(op.weights)[0] if op.weights is not None else None
    weight_dtype = data_type(op.weights.type) if op.weights is not None else dtype
    pred_sizes, target_sizes = lw.dims(op.predictions), lw.dims(op.targets)
    vector = len(pred_sizes) == 1
    classes = pred_sizes[0 if vector else 1]
    expected = [] if vector else [pred_sizes[0], *pred_sizes[2:]]
    for axis, (size, want) in enumerate(zip(target_sizes, expected, strict=True)):
        lw.check_equal(
            size, want, op, f"{op.name}: the targets do not fit the predictions on axis {axis}"
        )
    if weights is not None:
        message = f"{op.name}: the weights do not have one element per class"
        lw.check_equal(lw.dims(op.weights)[0], classes, op, message)
    rank = len(target_sizes)
    identity = list(range(rank))
    ignore = constant(lw, op.attr("ignore_index"), target_dtype)
    zero_index = lw.constant_index(0)

    def position(lw: Lowerer, target: SSAValue) -> tuple[SSAValue, SSAValue]:
        """Whether the target counts, and its class as an index (0 when ignored)."""
        used = compare(lw, "ne", target, ignore, target_dtype)
        return used, select(lw, used, to_index(lw, target, target_dtype), zero_index)

    def wrong(lw: Lowerer, target: SSAValue) -> SSAValue:
        used = compare(lw, "ne", target, ignore, target_dtype)
        index = to_index(lw, target, target_dtype)
        return emit_op(lw, arith.AndIOp, used, outside(lw, index, classes))

    message = f"{op.name}: a target is out of range for the number of classes"
    check_every(lw, targets, rank, wrong, op, message)

    def weight_of(lw: Lowerer, index: SSAValue) -> SSAValue:
        if weights is None:
            return constant(lw, 1, dtype)
        return convert(lw, extract(lw, weights, [index]), weight_dtype, dtype)

    def loss(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        loops = loop_indices(lw, rank)
        used, index = position(lw, xs[0])
        at = [index] if vector else [loops[0], index, *loops[1:]]
        picked = convert(lw, extract(lw, predictions, at), pred_dtype, dtype)
        value = emit_op(
            lw,
            pick(dtype, arith.MulfOp, arith.MuliOp),
            _negate(lw, dtype, picked),
            weight_of(lw, index),
        )
        return select(lw, used, value, constant(lw, 0, dtype))

    out_type = TensorType(element_type(dtype), targets.type.get_shape())  # pyright: ignore
    losses = parallel(lw, [targets], [identity], target_sizes, out_type, loss)
    reduction = op.attr("reduction")
    if reduction == "none":
        return lw.cast(losses, tensor_type(result))
    total = _total(lw, losses, dtype)
    if reduction == "sum":
        return total

    def used_weight(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        used, index = position(lw, xs[0])
        return select(lw, used, weight_of(lw, index), constant(lw, 0, dtype))

    weight_total = _total(
        lw, parallel(lw, [targets], [identity], target_sizes, out_type, used_weight), dtype
    )
    return parallel(
        lw,
        [total, weight_total],
        [[], []],
        [],
        total.type,
        lambda lw, xs: _divide(lw, dtype, *xs),
    )


# --- attention ------------------------------------------------------------------------------


def _repeat_heads(lw: Lowerer, value: SSAValue, sizes: list[SSAValue], group: SSAValue):
    """``[b, s, h, d]`` with each head repeated ``group`` times: ``[b, s, h * group, d]``
    (a broadcasting generic into ``[b, s, h, group, d]``, collapsed)."""
    shape = value.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    type = TensorType(
        value.type.get_element_type(),  # pyright: ignore[reportAttributeAccessIssue]
        [shape[0], shape[1], shape[2], DYNAMIC_INDEX, shape[3]],
    )
    b, s, h, d = sizes
    spread = parallel(lw, [value], [[0, 1, 2, 4]], [b, s, h, group, d], type, lambda lw, xs: xs[0])
    return collapse(lw, spread, [[0], [1], [2, 3], [4]])


def _heads(lw: Lowerer, op, value: SSAValue, heads: SSAValue, heads_expr, what: str) -> SSAValue:
    """A key or value tensor with its heads repeated for the query's head groups."""
    sinfo = value.type
    assert isinstance(sinfo, RelaxTensor)
    lowered = lw.lowered(value)[0]
    own = lw.dims(value)
    if sinfo.dims is not None and heads_expr is not None and prove_equal(sinfo.dims[2], heads_expr):
        return lowered
    group = emit_op(lw, arith.DivSIOp, heads, own[2])
    exact = emit_op(lw, arith.MuliOp, group, own[2])
    lw.check_equal(
        exact, heads, op, f"{op.name}: the query heads are not a multiple of the {what}'s heads"
    )
    return _repeat_heads(lw, lowered, own, group)


@lowers(ops.AttentionOp, ops.AttentionBiasOp)
def lower_attention(lw: Lowerer, op: ops.AttentionBaseOp) -> SSAValue:
    """``softmax(Q K^T * scale + bias) V`` as two contraction generics around a
    softmax, on ``[batch, heads, seq, seq_kv]`` scores."""
    if op.attr("window_size") is not None:
        lw.error(
            op,
            "sliding-window attention (window_size) cannot be lowered: it has no "
            "reference semantics",
        )
    result = lw.result_type(op)
    dtype = data_type(op.operands[0].type)
    query = lw.lowered(op.operands[0])[0]
    batch, queries, heads, head_dim = lw.dims(op.operands[0])
    query_type = op.operands[0].type
    heads_expr = query_type.dims[2] if query_type.dims is not None else None  # pyright: ignore
    key = _heads(lw, op, op.operands[1], heads, heads_expr, "key")
    value = _heads(lw, op, op.operands[2], heads, heads_expr, "value")
    keys = lw.dims(op.operands[1])[1]
    value_dim = lw.dims(op.operands[2])[3]
    acc = accumulation_type(dtype)  # f16 products sum in f32, as NumPy's matmul
    mul = pick(acc, arith.MulfOp, arith.MuliOp)
    add = pick(acc, arith.AddfOp, arith.AddiOp)

    def multiply_add(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        x, y = convert(lw, xs[0], dtype, acc), convert(lw, xs[1], dtype, acc)
        return emit_op(lw, add, xs[2], emit_op(lw, mul, x, y))

    zero = constant(lw, 0, acc)
    score_type = TensorType(element_type(dtype), [DYNAMIC_INDEX] * 4)
    sum_type = TensorType(element_type(acc), [DYNAMIC_INDEX] * 4)

    def contract(lhs: SSAValue, rhs: SSAValue, maps: list[MapExprs], sizes: list[SSAValue]):
        """The sums over loop 4 of ``lhs * rhs`` into a zero rank-4 tensor of ``sizes``."""
        zeros = fill(lw, zero, lw.empty(sum_type, sizes))
        iterators = [PARALLEL] * 4 + [REDUCTION]
        sums = generic(lw, [lhs, rhs], zeros, [*maps, [0, 1, 2, 3]], iterators, multiply_add)
        return _as(lw, sums, acc, dtype)

    # loops b, h, i, j, d
    scores = contract(query, key, [[0, 2, 1, 4], [0, 3, 1, 4]], [batch, heads, queries, keys])
    scale = op.attr("scale")
    if scale is None:
        as_int = lw.make(arith.IndexCastOp, head_dim, i64)
        factor = lw.make(math.SqrtOp, convert(lw, as_int, INT64, dtype))
        combine = arith.DivfOp
    else:
        factor, combine = constant(lw, scale, dtype), arith.MulfOp
    inputs, maps = [scores], [[0, 1, 2, 3]]
    if isinstance(op, ops.AttentionBiasOp):
        bias_type = op.bias.type
        assert isinstance(bias_type, RelaxTensor)
        bias_dims = bias_type.dims or [None] * 4
        bias_sizes = lw.dims(op.bias)
        bias_map: list[int | None] = []
        for axis, (dim, size, want) in enumerate(
            zip(bias_dims, bias_sizes, [batch, heads, queries, keys], strict=True)
        ):
            if dim == IntImm(1) and axis < 3:
                bias_map.append(None)
                continue
            bias_map.append(axis)
            lw.check_equal(
                size, want, op, f"{op.name}: the bias does not fit the scores on axis {axis}"
            )
        inputs.append(lw.lowered(op.bias)[0])
        maps.append(bias_map)

    def scaled(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        value = emit_op(lw, combine, xs[0], factor)
        return emit_op(lw, arith.AddfOp, value, xs[1]) if len(xs) > 1 else value

    sizes = [batch, heads, queries, keys]
    scores = parallel(lw, inputs, maps, sizes, score_type, scaled)
    keep = None
    mask = op.attr("causal_mask")
    if mask is not None:
        offset = lw.constant_index(0)
        if mask == "BottomRight":
            difference = emit_op(lw, arith.SubiOp, queries, keys)
            negated = emit_op(lw, arith.SubiOp, offset, difference)
            offset = emit_op(lw, arith.MaxSIOp, difference, negated)

        def keep(lw: Lowerer) -> SSAValue:
            _, _, i, j = loop_indices(lw, 4)
            return emit_op(lw, arith.CmpiOp, j, emit_op(lw, arith.AddiOp, i, offset), "sle")

    probabilities = softmax(lw, scores, 3, dtype, keep=keep)
    # loops b, i, h, e, j
    out = contract(
        probabilities, value, [[0, 2, 1, 4], [0, 4, 2, 3]], [batch, queries, heads, value_dim]
    )
    return lw.cast(out, tensor_type(result))
