"""``relax.image.resize2d`` and ``relax.image.grid_sample`` → gathering
``linalg.generic``s.

``resize2d`` in ``f32``, as the reference (``topi.image.resize2d``): the data (in
``NCHW``, converted from its layout) is interpolated along the width, then along the
height; each pass computes, per output index (``linalg.index``), the source
coordinate of the coordinate transformation mode in ``f32`` (selecting at run time
where the target size is 1), then reads the nearest pixel or the 2 (linear) or 4
(cubic) taps around it with ``tensor.extract`` at indices clamped to the image. With
``tf_crop_and_resize`` the positions whose coordinates fall outside the image take
``extrapolation_value``. The result is converted to ``out_dtype``
(truncating to integers).

``grid_sample``: one ``linalg.generic`` over the ``NCHW`` result computing, per
output pixel, the reference's coordinates from the grid (``tensor.extract``), the
padding mode, and the nearest, 2x2 (bilinear) or 4x4 (bicubic) pixels around them
(0 outside the image), in the data's floating-point type.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import i64
from xdsl.ir import SSAValue

from relax_dialect.dtype import FLOAT32, INT64, DataType
from relax_dialect.ops.image import GridSampleOp, GridSampleSettings, Resize2DOp, ResizeSettings
from relax_dialect.types import ShapeType

from ..lowerer import Lowerer
from ..type_conversion import tensor_type
from . import lowers
from .common import (
    FloatScalars,
    constant,
    convert,
    data_type,
    emit_op,
    extract,
    loop_indices,
    parallel,
    select,
    symbol,
)
from .convolution import builtin_type, from_canonical, shape_exprs, to_canonical

EPSILON = 1e-5


def _f(lw: Lowerer, value: float) -> SSAValue:
    return constant(lw, value, FLOAT32)


def _as_float(lw: Lowerer, index: SSAValue) -> SSAValue:
    return convert(lw, lw.make(arith.IndexCastOp, index, i64), INT64, FLOAT32)


def _minus_one(lw: Lowerer, index: SSAValue) -> SSAValue:
    return emit_op(lw, arith.SubiOp, index, lw.constant_index(1))


def source_coordinate(
    lw: Lowerer,
    settings: ResizeSettings,
    x: SSAValue,
    size: SSAValue,
    target: SSAValue,
    roi: tuple[float, float],
) -> SSAValue:
    """The ``f32`` input coordinate of output index ``x`` (an ``f32``) along an axis of
    ``size`` input and ``target`` output elements (``index`` values): TVM's ``get_inx``."""
    mode = settings.coordinate_transformation_mode
    one = emit_op(lw, arith.CmpiOp, target, lw.constant_index(1), "eq")
    scale = emit_op(lw, arith.DivfOp, _as_float(lw, size), _as_float(lw, target))
    if mode in ("half_pixel", "pytorch_half_pixel", "tf_half_pixel_for_nn"):
        shifted = emit_op(lw, arith.MulfOp, emit_op(lw, arith.AddfOp, x, _f(lw, 0.5)), scale)
        if mode == "tf_half_pixel_for_nn":
            return shifted
        centered = emit_op(lw, arith.SubfOp, shifted, _f(lw, 0.5))
        return centered if mode == "half_pixel" else select(lw, one, _f(lw, 0), centered)
    if mode == "asymmetric":
        return emit_op(lw, arith.MulfOp, scale, x)
    last = _as_float(lw, _minus_one(lw, size))
    steps = _as_float(lw, _minus_one(lw, target))
    if mode == "tf_crop_and_resize":
        start, end = (_f(lw, v) for v in roi)
        middle = emit_op(lw, arith.MulfOp, _f(lw, 0.5), emit_op(lw, arith.AddfOp, start, end))
        single = emit_op(lw, arith.MulfOp, middle, last)
        step = emit_op(lw, arith.MulfOp, x, emit_op(lw, arith.SubfOp, end, start))
        step = emit_op(lw, arith.DivfOp, emit_op(lw, arith.MulfOp, step, last), steps)
        many = emit_op(lw, arith.AddfOp, emit_op(lw, arith.MulfOp, start, last), step)
        return select(lw, one, single, many)
    many = emit_op(lw, arith.MulfOp, emit_op(lw, arith.DivfOp, last, steps), x)  # align_corners
    return select(lw, one, _f(lw, 0), many)


def _round(lw: Lowerer, method: str, x: SSAValue) -> SSAValue:
    """The reference's rounding of a coordinate to the nearest pixel."""
    if method == "round":
        return lw.make(math.RoundEvenOp, x)
    if method == "round_prefer_floor":
        return lw.make(math.CeilOp, emit_op(lw, arith.SubfOp, x, _f(lw, 0.5)))
    if method == "round_prefer_ceil":
        return lw.make(math.FloorOp, emit_op(lw, arith.AddfOp, x, _f(lw, 0.5)))
    if method == "floor":
        return lw.make(math.FloorOp, emit_op(lw, arith.AddfOp, x, _f(lw, EPSILON)))
    return lw.make(math.CeilOp, emit_op(lw, arith.SubfOp, x, _f(lw, EPSILON)))


def _cubic_weights(lw: Lowerer, t: SSAValue, alpha: float) -> list[SSAValue]:
    """The four cubic convolution weights at fraction ``t`` (the reference's order of
    ``f32`` operations)."""

    def mul(x: SSAValue, y: SSAValue) -> SSAValue:
        return emit_op(lw, arith.MulfOp, x, y)

    def add(x: SSAValue, y: SSAValue) -> SSAValue:
        return emit_op(lw, arith.AddfOp, x, y)

    def sub(x: SSAValue, y: SSAValue) -> SSAValue:
        return emit_op(lw, arith.SubfOp, x, y)

    def neg(x: SSAValue) -> SSAValue:
        return lw.make(arith.NegfOp, x)

    a, one, two, three = _f(lw, alpha), _f(lw, 1), _f(lw, 2), _f(lw, 3)
    t2 = mul(t, t)
    t3 = mul(t2, t)
    a2 = add(a, two)
    return [
        mul(a, add(sub(t3, mul(two, t2)), t)),
        add(sub(mul(a2, t3), mul(add(three, a), t2)), one),
        sub(add(neg(mul(a2, t3)), mul(add(three, mul(two, a)), t2)), mul(a, t)),
        add(mul(neg(a), t3), mul(a, t2)),
    ]


Pixel = Callable[[SSAValue], SSAValue]
"""Reads the pixel at a (possibly out-of-range, then clamped) ``index`` position."""


def interpolate(
    lw: Lowerer, settings: ResizeSettings, coordinate: SSAValue, size: SSAValue, pixel: Pixel
) -> SSAValue:
    """The value at ``coordinate`` along an axis of ``size`` pixels (the reference's
    ``resize_axis`` for one output position)."""
    if settings.method == "nearest_neighbor":
        mode = settings.rounding_method or (
            "round" if settings.coordinate_transformation_mode == "align_corners" else "floor"
        )
        rounded = _round(lw, mode, coordinate)
        return pixel(lw.as_index(lw.make(arith.FPToSIOp, rounded, i64)))
    base = lw.make(math.FloorOp, coordinate)
    index = lw.as_index(lw.make(arith.FPToSIOp, base, i64))
    fraction = emit_op(lw, arith.SubfOp, coordinate, base)

    def at(offset: int) -> SSAValue:
        return pixel(emit_op(lw, arith.AddiOp, index, lw.constant_index(offset)))

    if settings.method == "linear":
        rest = emit_op(lw, arith.SubfOp, _f(lw, 1), fraction)
        left = emit_op(lw, arith.MulfOp, at(0), rest)
        return emit_op(lw, arith.AddfOp, left, emit_op(lw, arith.MulfOp, at(1), fraction))
    weights = _cubic_weights(lw, fraction, settings.cubic_alpha)
    if settings.cubic_exclude:
        zero = _f(lw, 0)
        for tap in range(4):
            low = emit_op(lw, arith.AddiOp, index, lw.constant_index(tap - 1))
            high = emit_op(lw, arith.AddiOp, index, lw.constant_index(tap))
            outside = emit_op(
                lw,
                arith.OrIOp,
                emit_op(lw, arith.CmpiOp, low, lw.constant_index(0), "slt"),
                emit_op(lw, arith.CmpiOp, high, size, "sgt"),
            )
            weights[tap] = select(lw, outside, zero, weights[tap])
        total = weights[0]
        for weight in weights[1:]:
            total = emit_op(lw, arith.AddfOp, total, weight)
        weights = [emit_op(lw, arith.DivfOp, w, total) for w in weights]
    value = emit_op(lw, arith.MulfOp, at(-1), weights[0])
    for tap in range(1, 4):
        value = emit_op(
            lw, arith.AddfOp, value, emit_op(lw, arith.MulfOp, at(tap - 1), weights[tap])
        )
    return value


def _clamp(lw: Lowerer, index: SSAValue, size: SSAValue) -> SSAValue:
    low = emit_op(lw, arith.MaxSIOp, index, lw.constant_index(0))
    return emit_op(lw, arith.MinSIOp, low, _minus_one(lw, size))


@lowers(Resize2DOp)
def lower_resize2d(lw: Lowerer, op: Resize2DOp) -> SSAValue:
    settings = op.settings()
    canonical = op.CANONICAL_LAYOUT
    result = lw.result_type(op)
    dtype = data_type(op.data.type)
    x, dims = to_canonical(lw, op, op.data, settings.layout, canonical, "data")
    x = lw.cast(x, builtin_type(dims, dtype))
    sizes = [lw.index_of(d) for d in dims]
    targets = lw.lowered(op.size)
    size_type = op.size.type
    assert isinstance(size_type, ShapeType)
    target_dims = list(size_type.dims) if size_type.dims is not None else None
    if target_dims is None:
        target_dims = [symbol(lw, t) for t in targets]
    start_h, start_w, end_h, end_w = settings.roi
    rois = [(start_h, end_h), (start_w, end_w)]
    shape = list(dims)
    source = x
    source_dtype = dtype
    for axis in (3, 2):
        shape[axis] = target_dims[axis - 2]
        size, target = sizes[axis], targets[axis - 2]
        roi = rois[axis - 2]
        image = source
        image_dtype = source_dtype

        def body(
            lw: Lowerer,
            xs: Sequence[SSAValue],
            axis=axis,
            size=size,
            target=target,
            roi=roi,
            image=image,
            image_dtype=image_dtype,
        ) -> SSAValue:
            loops = loop_indices(lw, 4)
            position = _as_float(lw, loops[axis])
            coordinate = source_coordinate(lw, settings, position, size, target, roi)

            def pixel(index: SSAValue) -> SSAValue:
                at = list(loops)
                at[axis] = _clamp(lw, index, size)
                return convert(lw, extract(lw, image, at), image_dtype, FLOAT32)

            return interpolate(lw, settings, coordinate, size, pixel)

        out_sizes = [lw.index_of(d) for d in shape]
        source = parallel(lw, [], [], out_sizes, builtin_type(shape, FLOAT32), body)
        source_dtype = FLOAT32
    out_sizes = [lw.index_of(d) for d in shape]

    def finish(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        value = xs[0]
        if settings.coordinate_transformation_mode == "tf_crop_and_resize":
            loops = loop_indices(lw, 4)
            outside = None
            for axis in (2, 3):
                position = _as_float(lw, loops[axis])
                coordinate = source_coordinate(
                    lw, settings, position, sizes[axis], targets[axis - 2], rois[axis - 2]
                )
                last = _as_float(lw, _minus_one(lw, sizes[axis]))
                below = emit_op(lw, arith.CmpfOp, coordinate, _f(lw, 0), "olt")
                above = emit_op(lw, arith.CmpfOp, coordinate, last, "ogt")
                here = emit_op(lw, arith.OrIOp, below, above)
                outside = here if outside is None else emit_op(lw, arith.OrIOp, outside, here)
            assert outside is not None
            value = select(lw, outside, _f(lw, settings.extrapolation_value), value)
        return convert(lw, value, FLOAT32, result.data_type)

    out = parallel(
        lw, [source], [list(range(4))], out_sizes, builtin_type(shape, result.data_type), finish
    )
    out = from_canonical(lw, out, shape, settings.layout, canonical, result.data_type)
    return lw.cast(out, tensor_type(result))


class Sampler(FloatScalars):
    """Emits ``grid_sample``'s scalar arithmetic in one floating-point type, inside
    the body of the ``linalg.generic`` over the ``NCHW`` result."""

    def __init__(
        self,
        lw: Lowerer,
        settings: GridSampleSettings,
        dtype: DataType,
        image: SSAValue,
        image_dtype: DataType,
        sizes: Sequence[SSAValue],
    ) -> None:
        super().__init__(lw, dtype)
        self.settings = settings
        self.image, self.image_dtype, self.sizes = image, image_dtype, sizes
        self.loops = loop_indices(lw, 4)

    def span(self, size: SSAValue) -> SSAValue:
        return _minus_one(self.lw, size) if self.settings.align_corners else size

    def scaled(self, position: SSAValue, size: SSAValue) -> SSAValue:
        """The reference's ``scaled``: ``(position + 1) * span / 2``."""
        shifted = self.op(arith.AddfOp, position, self.f(1))
        product = self.op(arith.MulfOp, shifted, self.to_float(self.span(size)))
        return self.op(arith.DivfOp, product, self.f(2))

    def start(self) -> SSAValue:
        return self.f(0.0 if self.settings.align_corners else -0.5)

    def unnormalize(self, distance: SSAValue) -> SSAValue:
        if self.settings.align_corners:
            return distance
        return self.op(arith.AddfOp, self.f(-0.5), distance)

    def reflect(self, x: SSAValue, distance: SSAValue, size: SSAValue) -> SSAValue:
        """The reference's ``reflect`` of coordinate ``x`` (``distance`` = ``|x - start|``)."""
        lw, start = self.lw, self.start()
        span_index = self.span(size)
        span = self.to_float(span_index)
        divisor = self.op(arith.MaxSIOp, span_index, lw.constant_index(1))
        periods = self.op(arith.DivSIOp, self.to_index(distance), divisor)
        parity = self.op(arith.RemSIOp, periods, lw.constant_index(2))
        even = self.op(arith.CmpiOp, parity, lw.constant_index(0), "eq")
        covered = self.op(arith.MulfOp, self.to_float(periods), span)
        extra = self.op(arith.SubfOp, distance, covered)
        forward = self.op(arith.AddfOp, extra, start)
        backward = self.op(arith.AddfOp, self.op(arith.SubfOp, span, extra), start)
        mirrored = select(lw, even, forward, backward)
        low = self.op(arith.CmpfOp, x, start, "oge")
        high = self.op(arith.CmpfOp, x, self.op(arith.AddfOp, span, start), "ole")
        return select(lw, self.op(arith.AndIOp, low, high), x, mirrored)

    def pad(self, x: SSAValue, distance: SSAValue, size: SSAValue) -> SSAValue:
        """The reference's ``pad_coordinate``."""
        mode = self.settings.padding_mode
        if mode == "zeros":
            return x
        if mode == "reflection":
            x = self.reflect(x, distance, size)
        low = self.op(arith.MaximumfOp, x, self.f(0))
        return self.op(arith.MinimumfOp, low, self.to_float(_minus_one(self.lw, size)))

    def pixel(self, row: SSAValue, column: SSAValue) -> SSAValue:
        """The pixel at ``index`` position (row, column), 0 outside the image."""
        lw = self.lw
        inside = None
        clamped = []
        for index, size in ((row, self.sizes[2]), (column, self.sizes[3])):
            low = self.op(arith.CmpiOp, index, lw.constant_index(0), "sge")
            high = self.op(arith.CmpiOp, index, size, "slt")
            here = self.op(arith.AndIOp, low, high)
            inside = here if inside is None else self.op(arith.AndIOp, inside, here)
            clamped.append(_clamp(lw, index, size))
        assert inside is not None
        at = [self.loops[0], self.loops[1], *clamped]
        value = convert(lw, extract(lw, self.image, at), self.image_dtype, self.dtype)
        return select(lw, inside, value, self.f(0))

    def weighted(self, terms: Sequence[tuple[SSAValue, SSAValue]]) -> SSAValue:
        total = self.op(arith.MulfOp, *terms[0])
        for pixel, weight in terms[1:]:
            total = self.op(arith.AddfOp, total, self.op(arith.MulfOp, pixel, weight))
        return total

    def cubic_weights(self, t: SSAValue) -> list[SSAValue]:
        """The reference's bicubic weights of the taps at -1, 0, 1, 2 for fraction ``t``."""
        a = -0.75

        def near(t: SSAValue) -> SSAValue:
            inner = self.op(arith.SubfOp, self.op(arith.MulfOp, self.f(a + 2), t), self.f(a + 3))
            square = self.op(arith.MulfOp, self.op(arith.MulfOp, inner, t), t)
            return self.op(arith.AddfOp, square, self.f(1))

        def far(t: SSAValue) -> SSAValue:
            inner = self.op(arith.SubfOp, self.op(arith.MulfOp, self.f(a), t), self.f(5 * a))
            inner = self.op(arith.AddfOp, self.op(arith.MulfOp, inner, t), self.f(8 * a))
            return self.op(arith.SubfOp, self.op(arith.MulfOp, inner, t), self.f(4 * a))

        one, two = self.f(1), self.f(2)
        return [
            far(self.op(arith.AddfOp, t, one)),
            near(t),
            near(self.op(arith.SubfOp, one, t)),
            far(self.op(arith.SubfOp, two, t)),
        ]

    def sample(self, grid: SSAValue, grid_dtype: DataType) -> SSAValue:
        """The output pixel at the current loop position."""
        lw, (n, _, h, w) = self.lw, self.loops

        def position(channel: int) -> SSAValue:
            value = extract(lw, grid, [n, lw.constant_index(channel), h, w])
            return convert(lw, value, grid_dtype, self.dtype)

        height, width = self.sizes[2], self.sizes[3]
        y_distance, x_distance = self.scaled(position(1), height), self.scaled(position(0), width)
        y, x = self.unnormalize(y_distance), self.unnormalize(x_distance)
        if self.settings.method == "bicubic":
            return self.bicubic(y, x)
        y = self.pad(y, lw.make(math.AbsFOp, y_distance), height)
        x = self.pad(x, lw.make(math.AbsFOp, x_distance), width)
        if self.settings.method == "nearest":
            row, column = (self.to_index(lw.make(math.RoundEvenOp, v)) for v in (y, x))
            return self.pixel(row, column)
        y_floor, x_floor = lw.make(math.FloorOp, y), lw.make(math.FloorOp, x)
        row, column = self.to_index(y_floor), self.to_index(x_floor)
        dy, dx = self.op(arith.SubfOp, y, y_floor), self.op(arith.SubfOp, x, x_floor)
        one = self.f(1)
        ry, rx = self.op(arith.SubfOp, one, dy), self.op(arith.SubfOp, one, dx)
        next_row = self.op(arith.AddiOp, row, lw.constant_index(1))
        next_column = self.op(arith.AddiOp, column, lw.constant_index(1))
        corners = [
            (self.pixel(row, column), ry, rx),
            (self.pixel(row, next_column), ry, dx),
            (self.pixel(next_row, column), dy, rx),
            (self.pixel(next_row, next_column), dy, dx),
        ]
        return self.weighted([(self.op(arith.MulfOp, p, wy), wx) for p, wy, wx in corners])

    def bicubic(self, y: SSAValue, x: SSAValue) -> SSAValue:
        """The 4x4 taps around (y, x), the padding mode applied to each tap."""
        lw = self.lw

        def taps(coordinate: SSAValue, size: SSAValue) -> tuple[list[SSAValue], SSAValue]:
            floor = lw.make(math.FloorOp, coordinate)
            base = self.to_index(floor)
            found = [self.op(arith.AddiOp, base, lw.constant_index(k)) for k in (-1, 0, 1, 2)]
            if self.settings.padding_mode != "zeros":
                padded = []
                for tap in found:
                    value = self.to_float(tap)
                    distance = lw.make(math.AbsFOp, self.op(arith.SubfOp, self.start(), value))
                    padded.append(self.to_index(self.pad(value, distance, size)))
                found = padded
            return found, self.op(arith.SubfOp, coordinate, floor)

        rows, y_fraction = taps(y, self.sizes[2])
        columns, x_fraction = taps(x, self.sizes[3])
        across = self.cubic_weights(x_fraction)
        lines = [
            self.weighted([(self.pixel(r, c), w) for c, w in zip(columns, across, strict=True)])
            for r in rows
        ]
        return self.weighted(list(zip(lines, self.cubic_weights(y_fraction), strict=True)))


@lowers(GridSampleOp)
def lower_grid_sample(lw: Lowerer, op: GridSampleOp) -> SSAValue:
    settings = op.settings()
    canonical = op.CANONICAL_LAYOUT
    result = lw.result_type(op)
    dtype = data_type(op.data.type)
    compute = op.computation_dtype()
    x, dims = to_canonical(lw, op, op.data, settings.layout, canonical, "data")
    x = lw.cast(x, builtin_type(dims, dtype))
    sizes = [lw.index_of(d) for d in dims]
    grid = lw.lowered(op.grid)[0]
    grid_dtype = data_type(op.grid.type)
    grid_dims = shape_exprs(lw, op.grid)
    shape = [*dims[:2], *grid_dims[2:]]

    def body(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        sampler = Sampler(lw, settings, compute, x, dtype, sizes)
        return convert(lw, sampler.sample(grid, grid_dtype), compute, dtype)

    out_sizes = [lw.index_of(d) for d in shape]
    out = parallel(lw, [], [], out_sizes, builtin_type(shape, dtype), body)
    out = from_canonical(lw, out, shape, settings.layout, canonical, dtype)
    return lw.cast(out, tensor_type(result))
