"""Convolutions → ``linalg.conv_2d_nchw_fchw`` or ``linalg.generic``, and what
pooling and resizing share with them: layout conversions and sliding windows.

An operator computes in its canonical layout (``NCHW`` data, ``OIHW`` weights):
operands in another layout are transposed (a copying generic) and split axes
merged (``NCHW4c`` → ``collapse_shape``); the result is converted back (split
axes padded with zeros to a multiple of their inner size, as the reference
does). Padding is ``tensor.pad`` with zeros (negative padding crops). A 2-D
convolution on floats of one data type is the named ``linalg.conv_2d_nchw_fchw``
(one group) or ``linalg.conv_2d_ngchw_gfchw`` (the channels split into
``[groups, channels / groups]`` by ``expand_shape``); every other case (1-D, 3-D,
integer or ``out_dtype`` conversions, transposed) is one ``linalg.generic`` of the
same shape whose data map is ``p * stride + k * dilation``. A transposed convolution is
a direct one (stride 1) over the data dilated by the stride (a gather putting
zeros between elements) and padded by ``dilation * (k - 1) - padding``,
with the kernel flipped (a gather; with one group its axes swapped into ``OIHW`` too,
so that a 2-D one on floats is the named convolution the tiling schedule computes);
its kernel sizes must be static.
Channel counts that the types do not prove are checked at run time.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    TensorType,
    i64,
)
from xdsl.dialects.linalg.ops import Conv2DNchwFchwOp, Conv2DNgchwGfchwOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr

from relax_dialect.dtype import DataType
from relax_dialect.ops.convolution import (
    OPERATIONS,
    ConvolutionOp,
    ConvolutionSettings,
    Layout,
    TransposedConvolutionOp,
    window_count,
)
from relax_dialect.prim_expr import IntImm, PrimExpr
from relax_dialect.prim_expr_simplify import prove_equal, simplify
from relax_dialect.types import TensorType as RelaxTensor

from ..building import contraction_op
from ..lowerer import Lowerer
from ..type_conversion import element_type, static_size, tensor_type
from . import lowers
from .common import (
    PARALLEL,
    REDUCTION,
    collapse,
    constant,
    convert,
    data_type,
    expand,
    extract,
    fill,
    generic,
    loop_indices,
    pad,
    parallel,
    pick,
    symbol,
    transpose,
)

# --- shapes and layouts ------------------------------------------------------------------


def shape_exprs(lw: Lowerer, value: SSAValue) -> list[PrimExpr]:
    """A Relax tensor's dimensions as symbolic expressions (fresh variables bound to
    its sizes where its type does not give them)."""
    sinfo = value.type
    assert isinstance(sinfo, RelaxTensor)
    if sinfo.dims is not None:
        return list(sinfo.dims)
    lowered = lw.lowered(value)[0]
    return [symbol(lw, lw.dim(lowered, axis)) for axis in range(sinfo.rank)]


def builtin_type(exprs: Sequence[PrimExpr], dtype: DataType) -> TensorType:
    return TensorType(element_type(dtype), [static_size(e) for e in exprs])


def to_canonical(
    lw: Lowerer, op: Operation, value: SSAValue, layout: Layout, canonical: str, what: str
) -> tuple[SSAValue, list[PrimExpr]]:
    """A Relax tensor operand in layout ``layout``, in the ``canonical`` one (a split
    axis merged back: ``NCHW4c`` has ``C * 4`` channels); with its dimensions."""
    exprs = shape_exprs(lw, value)
    lowered = lw.lowered(value)[0]
    dims = layout.to_canonical(op.name, exprs, canonical, what)
    if layout.name == canonical:
        return lowered, dims
    order: list[int] = []
    groups: list[list[int]] = []
    for axis in canonical:
        parts = [layout.axes.index(a) for a in (axis, axis.lower()) if a in layout.axes]
        groups.append(list(range(len(order), len(order) + len(parts))))
        order += parts
    moved = transpose(lw, lowered, order)
    if len(groups) != len(order):
        moved = collapse(lw, moved, groups)
    return lw.cast(moved, builtin_type(dims, data_type(value.type))), dims


def from_canonical(
    lw: Lowerer,
    value: SSAValue,
    dims: Sequence[PrimExpr],
    layout: Layout,
    canonical: str,
    dtype: DataType,
) -> SSAValue:
    """A lowered tensor of canonical ``dims``, laid out as ``layout`` (a split axis
    padded with zeros to a multiple of its inner size)."""
    if layout.name == canonical:
        return value
    high: list[int | SSAValue] = []
    split_dims: list[PrimExpr] = []
    groups: list[list[int]] = []
    names: list[str] = []
    for axis, dim in zip(canonical, dims, strict=True):
        factor = layout.factor(axis)
        outer = simplify((dim + factor - 1) // factor)
        extra = simplify(outer * factor - dim)
        high.append(extra.value if isinstance(extra, IntImm) else lw.index_of(extra))
        start = len(split_dims)
        if axis.lower() in layout.axes:
            split_dims += [outer, IntImm(factor)]
            names += [axis, axis.lower()]
        else:
            split_dims.append(dim)
            names.append(axis)
        groups.append(list(range(start, len(split_dims))))
    padded = pad(lw, value, [0] * len(dims), high, zero_of(lw, dtype))
    shape = [static_size(d) for d in split_dims]
    split = expand(lw, padded, groups, shape, [lw.index_of(d) for d in split_dims])
    return transpose(lw, split, [names.index(a) for a in layout.axes])


def zero_of(lw: Lowerer, dtype: DataType) -> SSAValue:
    return constant(lw, 0, dtype)


def zeros(lw: Lowerer, dims: Sequence[PrimExpr], dtype: DataType) -> SSAValue:
    """A zero-filled tensor of symbolic ``dims``."""
    empty = lw.empty(builtin_type(dims, dtype), [lw.index_of(d) for d in dims])
    return fill(lw, zero_of(lw, dtype), empty)


def window_counts(
    sizes: Sequence[PrimExpr],
    windows: Sequence[PrimExpr | int],
    axes: Sequence[tuple[int, int, int, int]],
    ceil_mode: bool = False,
) -> list[PrimExpr]:
    """How many windows fit along each spatial axis (``axes``: stride, dilation,
    padding before and after)."""
    return [
        window_count(size, window, *axis, ceil_mode)
        for size, window, axis in zip(sizes, windows, axes, strict=True)
    ]


def sliding(position: int, tap: int, stride: int, dilation: int) -> AffineExpr:
    """``position * stride + tap * dilation`` over loops ``position`` and ``tap``."""
    return AffineExpr.dimension(position) * stride + AffineExpr.dimension(tap) * dilation


def check_equal_dims(
    lw: Lowerer, op: Operation, actual: PrimExpr, expected: PrimExpr, message: str
) -> None:
    """A run-time check that two symbolic sizes agree (unless proven)."""
    if not prove_equal(actual, expected):
        lw.check_equal(lw.index_of(actual), lw.index_of(expected), op, f"{op.name}: {message}")


def check_divisible(lw: Lowerer, op: Operation, size: PrimExpr, by: int, message: str) -> None:
    if by != 1:
        check_equal_dims(lw, op, simplify(size // by * by), size, message)


# --- convolutions ---------------------------------------------------------------------------


def _split(
    lw: Lowerer, value: SSAValue, dims: Sequence[PrimExpr], axis: int, groups: int
) -> SSAValue:
    """Axis ``axis`` of a lowered tensor split into ``[groups, size / groups]``."""
    parts = [IntImm(groups), simplify(dims[axis] // groups)]
    split_dims = [*dims[:axis], *parts, *dims[axis + 1 :]]
    reassociation = [[a] for a in range(axis)] + [[axis, axis + 1]]
    reassociation += [[a + 1] for a in range(axis + 1, len(dims))]
    shape = [static_size(d) for d in split_dims]
    return expand(lw, value, reassociation, shape, [lw.index_of(d) for d in split_dims])


def _multiply_add(lw: Lowerer, sources: Sequence[DataType], dtype: DataType):
    mul = pick(dtype, arith.MulfOp, arith.MuliOp)
    add = pick(dtype, arith.AddfOp, arith.AddiOp)

    def body(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        a, b = (convert(lw, x, d, dtype) for x, d in zip(xs, sources, strict=False))
        return lw.make(add, xs[2], lw.make(mul, a, b))

    return body


def _dilate(
    lw: Lowerer, x: SSAValue, dims: Sequence[PrimExpr], strides: Sequence[int], dtype: DataType
) -> tuple[SSAValue, list[PrimExpr]]:
    """The spatial axes of canonical data with ``stride - 1`` zeros between elements: a
    gather whose element ``i`` of an axis is the data's ``i / stride`` where the stride
    divides ``i``, else zero (IREE drops the stride of a strided ``insert_slice``
    followed by a ``tensor.pad``; see ``docs/lowering/iree.md``)."""
    if all(s == 1 for s in strides):
        return x, list(dims)
    out = [*dims[:2], *(simplify((d - 1) * s + 1) for d, s in zip(dims[2:], strides, strict=True))]
    zero = zero_of(lw, dtype)

    def element(lw: Lowerer, _: Sequence[SSAValue]) -> SSAValue:
        loops = loop_indices(lw, len(out))
        source, on_grid = loops[:2], None
        for loop, stride in zip(loops[2:], strides, strict=True):
            step = lw.constant_index(stride)
            source.append(lw.make(arith.DivUIOp, loop, step))
            rest = lw.make(arith.RemUIOp, loop, step)
            hit = lw.make(arith.CmpiOp, rest, lw.constant_index(0), "eq")
            on_grid = hit if on_grid is None else lw.make(arith.AndIOp, on_grid, hit)
        return lw.make(arith.SelectOp, on_grid, extract(lw, x, source), zero)

    sizes = [lw.index_of(d) for d in out]
    return parallel(lw, [], [], sizes, builtin_type(out, dtype), element), out


@lowers(*OPERATIONS)
def lower_convolution(lw: Lowerer, op: ConvolutionOp) -> SSAValue:
    settings = op.settings()
    data_canonical, kernel_canonical = op.canonical_layouts()
    result = lw.result_type(op)
    dtype = result.data_type
    sources = [data_type(op.data.type), data_type(op.weight.type)]
    x, (n, c, *sizes) = to_canonical(lw, op, op.data, settings.data_layout, data_canonical, "data")
    w, (first, second, *kernel) = to_canonical(
        lw, op, op.weight, settings.kernel_layout, kernel_canonical, "weight"
    )
    groups = settings.groups
    transposed = isinstance(op, TransposedConvolutionOp)
    spatial = len(sizes)
    if transposed:
        check_equal_dims(lw, op, c, first, "the data channels differ from the weight's")
        check_divisible(lw, op, first, groups, f"the channels are not divisible by {groups} groups")
        if not all(isinstance(k, IntImm) for k in kernel):
            lw.error(op, "a transposed convolution needs static kernel sizes")
        taps = [k.value for k in kernel]  # pyright: ignore[reportAttributeAccessIssue]
        x, dilated = _dilate(lw, x, [n, c, *sizes], settings.strides, sources[0])
        before = [
            d * (k - 1) - p
            for d, k, p in zip(settings.dilation, taps, settings.pad_before, strict=True)
        ]
        after = [
            d * (k - 1) - p + e
            for d, k, p, e in zip(
                settings.dilation, taps, settings.pad_after, settings.output_padding, strict=True
            )
        ]
        in_dims = dilated[2:]
        strides = [1] * spatial
        out_channels = simplify(second * groups)
        counts = window_counts(
            dilated[2:], kernel, list(zip(strides, settings.dilation, before, after, strict=True))
        )
    else:
        check_equal_dims(
            lw,
            op,
            c,
            simplify(second * groups),
            f"the data channels are not {groups} (groups) times the weight's input channels",
        )
        check_divisible(
            lw, op, first, groups, f"the output channels are not divisible by {groups} groups"
        )
        before, after = list(settings.pad_before), list(settings.pad_after)
        in_dims = sizes
        strides = list(settings.strides)
        out_channels = first
        counts = window_counts(sizes, kernel, settings.axes())
    x = pad(lw, x, [0, 0, *before], [0, 0, *after], zero_of(lw, sources[0]))
    out_dims = [n, out_channels, *counts]
    init = zeros(lw, out_dims, dtype)
    named = spatial == 2 and dtype.is_float and sources == [dtype, dtype]
    if named and groups == 1:
        if transposed:  # the weight flipped and its axes swapped into OIHW
            w = _flip(lw, w, [first, second, *kernel], swap=True)
        attributes = _window_attributes(strides, settings.dilation)
        conv = contraction_op(Conv2DNchwFchwOp, [x, w], [init], attributes)
        out = lw.emit_value(conv)
    else:
        padded = [
            n,
            c,
            *(simplify(d + b + a) for d, b, a in zip(in_dims, before, after, strict=True)),
        ]
        out = _grouped_convolution(
            lw,
            [(x, padded), (w, [first, second, *kernel])],
            init,
            out_dims,
            settings,
            strides,
            transposed,
            named and not transposed,
            sources,
            dtype,
        )
    out = from_canonical(lw, out, out_dims, settings.out_layout, data_canonical, dtype)
    return lw.cast(out, tensor_type(result))


def _window_attributes(
    strides: Sequence[int], dilation: Sequence[int]
) -> dict[str, DenseIntOrFPElementsAttr]:
    """The ``strides`` and ``dilations`` of a named 2-D convolution."""
    return {"strides": _window(tuple(strides)), "dilations": _window(tuple(dilation))}


@lru_cache(maxsize=256)
def _window(values: tuple[int, ...]) -> DenseIntOrFPElementsAttr:
    return DenseIntOrFPElementsAttr.from_list(TensorType(i64, [2]), list(values))


def _grouped_convolution(
    lw: Lowerer,
    operands: Sequence[tuple[SSAValue, Sequence[PrimExpr]]],
    init: SSAValue,
    out_dims: Sequence[PrimExpr],
    settings: ConvolutionSettings,
    strides: Sequence[int],
    transposed: bool,
    named: bool,
    sources: Sequence[DataType],
    dtype: DataType,
) -> SSAValue:
    """The channels split into groups; loops ``n, g, o, p..., c, k...``:
    ``out[n, g, o, p] += x[n, g, c, p * s + k * d] * w[g, o, c, k]`` (transposed:
    ``w[g, c, o, K - 1 - k]``, the kernel flipped first), the named
    ``linalg.conv_2d_ngchw_gfchw`` when ``named``."""
    (x, x_dims), (w, w_dims) = operands
    groups, spatial = settings.groups, len(strides)
    positions = list(range(3, 3 + spatial))
    channel = 3 + spatial
    taps = list(range(channel + 1, channel + 1 + spatial))
    reads: list[int | AffineExpr | None] = [0, 1, channel]
    reads += [
        sliding(p, t, s, d)
        for p, t, s, d in zip(positions, taps, strides, settings.dilation, strict=True)
    ]
    if transposed:
        w = _flip(lw, w, w_dims)
        weights: list[int | AffineExpr | None] = [1, channel, 2, *taps]
    else:
        weights = [1, 2, channel, *taps]
    x = _split(lw, x, x_dims, 1, groups)
    w = _split(lw, w, w_dims, 0, groups)
    init = _split(lw, init, out_dims, 1, groups)
    groups_out = [[0], [1, 2], *([a] for a in range(3, 3 + spatial))]
    if named:
        attributes = _window_attributes(settings.strides, settings.dilation)
        conv = contraction_op(Conv2DNgchwGfchwOp, [x, w], [init], attributes)
        return collapse(lw, lw.emit_value(conv), groups_out)
    iterators = [PARALLEL] * (3 + spatial) + [REDUCTION] * (1 + spatial)
    out_map = [0, 1, 2, *positions]
    body = _multiply_add(lw, sources, dtype)
    out = generic(lw, [x, w], init, [reads, weights, out_map], iterators, body)
    return collapse(lw, out, groups_out)


def _flip(lw: Lowerer, w: SSAValue, dims: Sequence[PrimExpr], swap: bool = False) -> SSAValue:
    """The weight with its (static) spatial axes reversed: a gather of ``w[o, i, k - 1 - j]``
    (an indexing map with a negative coefficient fails IREE's shape inference); with ``swap``,
    its first two axes swapped too (``w[i, o, k - 1 - j]``)."""
    order = [1, 0] if swap else [0, 1]

    def element(lw: Lowerer, _: Sequence[SSAValue]) -> SSAValue:
        loops = loop_indices(lw, len(dims))
        flipped = [
            lw.make(arith.SubiOp, lw.constant_index(k.value - 1), loop)  # pyright: ignore
            for k, loop in zip(dims[2:], loops[2:], strict=True)
        ]
        return extract(lw, w, [*(loops[a] for a in order), *flipped])

    out = [*(dims[a] for a in order), *dims[2:]]
    sizes = [lw.index_of(d) for d in out]
    assert isinstance(w.type, TensorType)
    flipped_type = TensorType(w.type.get_element_type(), [static_size(d) for d in out])
    return parallel(lw, [], [], sizes, flipped_type, element)
