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
integer or ``out_dtype`` conversions) is one ``linalg.generic`` of the
same shape whose data map is ``p * stride + k * dilation``. A transposed convolution is
the ordinary convolutions (stride 1) of its output phases (`output_phases`: the outputs ``r,
r + s, ...`` along each axis of stride ``s``, each reached by a sub-kernel of the weight,
gathered into ``OIHW``), each over a slice of the data padded by what it reads beyond it,
interleaved by a generic that picks each element's phase: no product multiplies the zeros a
stride-1 convolution of the dilated data would; its kernel sizes must be static.
Channel counts that the types do not prove are checked at run time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product

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
    extract_slice,
    fill,
    generic,
    loop_indices,
    mixed,
    pad,
    parallel,
    pick,
    select,
    symbol,
    transpose,
)
from .output_phases import AxisPhases, Phase

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


@lowers(*OPERATIONS)
def lower_convolution(lw: Lowerer, op: ConvolutionOp) -> SSAValue:
    settings = op.settings()
    data_canonical, kernel_canonical = op.canonical_layouts()
    result = lw.result_type(op)
    dtype = result.data_type
    sources = [data_type(op.data.type), data_type(op.weight.type)]
    x, x_dims = to_canonical(lw, op, op.data, settings.data_layout, data_canonical, "data")
    w, w_dims = to_canonical(lw, op, op.weight, settings.kernel_layout, kernel_canonical, "weight")
    n, c, *sizes = x_dims
    first, second, *kernel = w_dims
    groups = settings.groups
    if isinstance(op, TransposedConvolutionOp):
        check_equal_dims(lw, op, c, first, "the data channels differ from the weight's")
        check_divisible(lw, op, first, groups, f"the channels are not divisible by {groups} groups")
        if not all(isinstance(k, IntImm) for k in kernel):
            lw.error(op, "a transposed convolution needs static kernel sizes")
        out, out_dims = _transposed(lw, settings, (x, x_dims), (w, w_dims), sources, dtype)
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
        x = pad(lw, x, [0, 0, *before], [0, 0, *after], zero_of(lw, sources[0]))
        padded = [
            n,
            c,
            *(simplify(d + b + a) for d, b, a in zip(sizes, before, after, strict=True)),
        ]
        out_dims = [n, first, *window_counts(sizes, kernel, settings.axes())]
        window = Window(groups, settings.strides, settings.dilation)
        out = _convolve(lw, (x, padded), (w, w_dims), out_dims, window, sources, dtype)
    out = from_canonical(lw, out, out_dims, settings.out_layout, data_canonical, dtype)
    return lw.cast(out, tensor_type(result))


@dataclass(frozen=True)
class Window:
    """How an ordinary convolution slides over data already padded: groups, strides and
    dilation."""

    groups: int
    strides: Sequence[int]
    dilation: Sequence[int]


def _convolve(
    lw: Lowerer,
    data: tuple[SSAValue, Sequence[PrimExpr]],
    weight: tuple[SSAValue, Sequence[PrimExpr]],
    out_dims: Sequence[PrimExpr],
    window: Window,
    sources: Sequence[DataType],
    dtype: DataType,
) -> SSAValue:
    """An ordinary convolution of padded canonical data (``NCHW``) with a canonical weight
    (``OIHW``) into zeros of ``out_dims``: the named 2-D convolution on floats of one data
    type, a generic otherwise."""
    init = zeros(lw, out_dims, dtype)
    named = len(out_dims) == 4 and dtype.is_float and sources == [dtype, dtype]
    if named and window.groups == 1:
        attributes = _window_attributes(window.strides, window.dilation)
        conv = contraction_op(Conv2DNchwFchwOp, [data[0], weight[0]], [init], attributes)
        return lw.emit_value(conv)
    return _grouped_convolution(lw, [data, weight], init, out_dims, window, named, sources, dtype)


def _transposed(
    lw: Lowerer,
    settings: ConvolutionSettings,
    data: tuple[SSAValue, Sequence[PrimExpr]],
    weight: tuple[SSAValue, Sequence[PrimExpr]],
    sources: Sequence[DataType],
    dtype: DataType,
) -> tuple[SSAValue, list[PrimExpr]]:
    """A transposed convolution as the ordinary convolutions of its output phases
    (`output_phases`), interleaved; with its canonical result's dimensions."""
    (x, (n, c, *sizes)), (w, w_dims) = data, weight
    out_channels = simplify(w_dims[1] * settings.groups)
    taps = [k.value for k in w_dims[2:]]  # pyright: ignore[reportAttributeAccessIssue]
    axes = [
        AxisPhases.of(*axis, k, e)
        for axis, k, e in zip(settings.axes(), taps, settings.output_padding, strict=True)
    ]
    rows = [simplify(d + axis.extra_rows) for d, axis in zip(sizes, axes, strict=True)]
    phase_dims = [n, out_channels, *rows]
    results: list[SSAValue] = []
    for phases in product(*(axis.phases for axis in axes)):
        if not all(phase.taps for phase in phases):
            results.append(zeros(lw, phase_dims, dtype))
            continue
        before = [max(0, -phase.start) for phase in phases]
        after = [
            max(0, phase.start + a.extra_rows + phase.span())
            for phase, a in zip(phases, axes, strict=True)
        ]
        phase_x = pad(lw, x, [0, 0, *before], [0, 0, *after], zero_of(lw, sources[0]))
        padded = [simplify(d + b + a) for d, b, a in zip(sizes, before, after, strict=True)]
        reads = [simplify(r + phase.span()) for r, phase in zip(rows, phases, strict=True)]
        offsets = [b + phase.start for b, phase in zip(before, phases, strict=True)]
        if any(offsets) or any(not prove_equal(r, p) for r, p in zip(reads, padded, strict=True)):
            slice_sizes = [mixed(lw, d) for d in (n, c, *reads)]
            starts = [0, 0, *offsets]
            phase_x = extract_slice(lw, phase_x, starts, slice_sizes, [1] * len(starts))
        sub_w, sub_dims = _phase_kernel(lw, w, w_dims, settings.groups, phases)
        window = Window(settings.groups, [1] * len(axes), [p.dilation for p in phases])
        conv_x = (phase_x, [n, c, *reads])
        results.append(_convolve(lw, conv_x, (sub_w, sub_dims), phase_dims, window, sources, dtype))
    out_dims = [n, out_channels, *(axis.out_size(d) for axis, d in zip(axes, sizes, strict=True))]
    if len(results) == 1:
        return results[0], out_dims
    return _interleave(lw, results, phase_dims, settings.strides, out_dims, dtype), out_dims


def _phase_kernel(
    lw: Lowerer,
    w: SSAValue,
    dims: Sequence[PrimExpr],
    groups: int,
    phases: Sequence[Phase],
) -> tuple[SSAValue, list[PrimExpr]]:
    """A phase's sub-kernel of a transposed convolution's weight (``IOHW``, the output
    channels of each group apart) as an ordinary convolution's (``OIHW``): a gather of
    ``w[g * I / groups + i, o % (O / groups), taps...]`` at ``[o, i, j...]``, ``g = o / (O /
    groups)`` (a gather: an indexing map with a negative coefficient fails IREE's shape
    inference)."""
    first, second, *_ = dims
    out = [
        simplify(second * groups),
        simplify(first // groups),
        *(IntImm(len(p.taps)) for p in phases),
    ]

    def element(lw: Lowerer, _: Sequence[SSAValue]) -> SSAValue:
        o, i, *js = loop_indices(lw, len(out))
        taps = [
            lw.make(
                arith.SubiOp,
                lw.constant_index(p.taps[0]),
                lw.make(arith.MuliOp, j, lw.constant_index(p.tap_step())),
            )
            for p, j in zip(phases, js, strict=True)
        ]
        if groups == 1:
            return extract(lw, w, [i, o, *taps])
        per_group = lw.index_of(second)
        group = lw.make(arith.DivUIOp, o, per_group)
        channel = lw.make(arith.MuliOp, group, lw.index_of(out[1]))
        channel = lw.make(arith.AddiOp, channel, i)
        return extract(lw, w, [channel, lw.make(arith.RemUIOp, o, per_group), *taps])

    sizes = [lw.index_of(d) for d in out]
    assert isinstance(w.type, TensorType)
    kernel_type = TensorType(w.type.get_element_type(), [static_size(d) for d in out])
    return parallel(lw, [], [], sizes, kernel_type, element), out


def _interleave(
    lw: Lowerer,
    phases: Sequence[SSAValue],
    phase_dims: Sequence[PrimExpr],
    strides: Sequence[int],
    out_dims: Sequence[PrimExpr],
    dtype: DataType,
) -> SSAValue:
    """The output of phases ``[r...]`` (in ``product`` order, each of ``phase_dims``
    ``[N, O, Q...]``) at positions ``r + s * q`` of each spatial axis: one generic over
    ``[N, O, Q, s, Q, s...]`` choosing each element's phase by its loops ``r``, merged and
    cropped to ``out_dims``."""
    spatial = len(strides)
    dims = [*phase_dims[:2]]
    for q, s in zip(phase_dims[2:], strides, strict=True):
        dims += [q, IntImm(s)]
    read = [0, 1, *(2 + 2 * a for a in range(spatial))]

    def element(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        loops = loop_indices(lw, len(dims))
        chosen = xs[0]
        for value, at in zip(xs[1:], list(product(*map(range, strides)))[1:], strict=True):
            hit = None
            for axis, r in enumerate(at):
                equal = lw.make(arith.CmpiOp, loops[3 + 2 * axis], lw.constant_index(r), "eq")
                hit = equal if hit is None else lw.make(arith.AndIOp, hit, equal)
            chosen = select(lw, hit, value, chosen)
        return chosen

    sizes = [lw.index_of(d) for d in dims]
    interleaved = parallel(
        lw, phases, [read] * len(phases), sizes, builtin_type(dims, dtype), element
    )
    merged = collapse(
        lw, interleaved, [[0], [1], *([2 + 2 * a, 3 + 2 * a] for a in range(spatial))]
    )
    merged_dims = [
        *phase_dims[:2],
        *(simplify(q * s) for q, s in zip(phase_dims[2:], strides, strict=True)),
    ]
    if all(prove_equal(m, o) for m, o in zip(merged_dims, out_dims, strict=True)):
        return merged
    sizes = [mixed(lw, d) for d in out_dims]
    return extract_slice(lw, merged, [0] * len(out_dims), sizes, [1] * len(out_dims))


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
    window: Window,
    named: bool,
    sources: Sequence[DataType],
    dtype: DataType,
) -> SSAValue:
    """The channels split into groups; loops ``n, g, o, p..., c, k...``:
    ``out[n, g, o, p] += x[n, g, c, p * s + k * d] * w[g, o, c, k]``, the named
    ``linalg.conv_2d_ngchw_gfchw`` when ``named``."""
    (x, x_dims), (w, w_dims) = operands
    groups, spatial = window.groups, len(window.strides)
    positions = list(range(3, 3 + spatial))
    channel = 3 + spatial
    taps = list(range(channel + 1, channel + 1 + spatial))
    reads: list[int | AffineExpr | None] = [0, 1, channel]
    reads += [
        sliding(p, t, s, d)
        for p, t, s, d in zip(positions, taps, window.strides, window.dilation, strict=True)
    ]
    weights: list[int | AffineExpr | None] = [1, 2, channel, *taps]
    x = _split(lw, x, x_dims, 1, groups)
    w = _split(lw, w, w_dims, 0, groups)
    init = _split(lw, init, out_dims, 1, groups)
    groups_out = [[0], [1, 2], *([a] for a in range(3, 3 + spatial))]
    if named:
        attributes = _window_attributes(window.strides, window.dilation)
        conv = contraction_op(Conv2DNgchwGfchwOp, [x, w], [init], attributes)
        return collapse(lw, lw.emit_value(conv), groups_out)
    iterators = [PARALLEL] * (3 + spatial) + [REDUCTION] * (1 + spatial)
    out_map = [0, 1, 2, *positions]
    body = _multiply_add(lw, sources, dtype)
    out = generic(lw, [x, w], init, [reads, weights, out_map], iterators, body)
    return collapse(lw, out, groups_out)
