"""GridSample on volumes (``[N, C, D, H, W]`` data, ``[N, D_out, H_out, W_out, 3]``
grids), which ``relax.image.grid_sample`` (images only) does not take: the
coordinates computed element-wise and the taps read with ``relax.gather_elements``
from the flattened volume, as ONNX's reference computes them (nearest rounding
half to even, ``linear`` as nested 1-D interpolations, each padding mode applied
to the coordinates and then to each tap)."""

from __future__ import annotations

from itertools import product as corners

import numpy as np
from xdsl.ir import SSAValue

from ....builder import Call, Shape, call
from ....dtype import INT64
from ..context import NodeContext
from .values import known_shape, numpy_dtype, product, static_dim

Expr = Call | SSAValue


class Volume:
    """The sampled data and the grid's coordinates, in the data's float type."""

    def __init__(self, ctx: NodeContext, x: SSAValue, grid: SSAValue, align_corners: bool):
        self.ctx = ctx
        self.dims = known_shape(ctx, x)
        self.sizes = [static_dim(ctx, d, "sampling a volume") for d in self.dims[2:]]
        self.dtype = numpy_dtype(ctx, x)
        self.align_corners = align_corners
        outputs = known_shape(ctx, grid, "the grid")[1:-1]
        self.output = (self.dims[0], self.dims[1], *outputs)
        points = product(outputs)
        batch, channels = self.dims[:2]
        self.flat = call("relax.reshape", x, Shape((batch, channels, product(self.dims[2:]))))
        self.spread = Shape((batch, channels, points))
        count = len(self.sizes)
        # the grid's last axis is (x, y, z): the spatial axes from the last one
        self.coordinates = [
            call(
                "relax.reshape",
                call("relax.take", grid, np.array(count - 1 - axis, np.int64), axis=count + 1),
                Shape((batch, 1, points)),
            )
            for axis in range(count)
        ]

    def bound(self, value: Expr) -> SSAValue:
        """``value`` as one binding: an expression used more than once is computed once."""
        return value if isinstance(value, SSAValue) else self.ctx.builder.emit(value)

    def number(self, value: float) -> np.ndarray:
        return np.array(value, self.dtype)

    def borders(self, axis: int) -> tuple[float, float]:
        size = self.sizes[axis]
        return (0.0, size - 1.0) if self.align_corners else (-0.5, size - 0.5)

    def unnormalized(self, axis: int) -> Call:
        """The grid's ``[-1, 1]`` along ``axis`` as a pixel coordinate."""
        size, g = self.sizes[axis], self.coordinates[axis]
        shifted = call("relax.add", g, self.number(1.0))
        if self.align_corners:
            half = call("relax.divide", shifted, self.number(2.0))
            return call("relax.multiply", half, self.number(size - 1.0))
        scaled = call("relax.multiply", shifted, self.number(float(size)))
        return call(
            "relax.divide", call("relax.subtract", scaled, self.number(1.0)), self.number(2.0)
        )

    def reflected(self, v: Expr, axis: int) -> Call:
        """``v`` reflected by the nearer border until it lies between them."""
        low, high = self.borders(axis)
        span = self.number(high - low)
        v = self.bound(v)

        def fold(distance: Call, near: float, far: float) -> Call:
            distance = self.bound(distance)
            periods = self.bound(call("relax.trunc", call("relax.divide", distance, span)))
            rest = self.bound(
                call("relax.subtract", distance, call("relax.multiply", periods, span))
            )
            even = call(
                "relax.equal", call("relax.floor_mod", periods, self.number(2.0)), self.number(0.0)
            )
            toward = 1.0 if near < far else -1.0
            nearer = call(
                "relax.add", self.number(near), call("relax.multiply", rest, self.number(toward))
            )
            farther = call(
                "relax.subtract",
                self.number(far),
                call("relax.multiply", rest, self.number(toward)),
            )
            return call("relax.where", even, nearer, farther)

        below = fold(call("relax.subtract", self.number(low), v), low, high)
        above = fold(call("relax.subtract", v, self.number(high)), high, low)
        inside = call("relax.where", call("relax.greater", v, self.number(high)), above, v)
        return call("relax.where", call("relax.less", v, self.number(low)), below, inside)

    def padded(self, v: Expr, axis: int, mode: str) -> Expr:
        """A coordinate outside the borders clamped (``border``) or reflected."""
        low, high = self.borders(axis)
        v = self.bound(v)
        outside = call(
            "relax.logical_or",
            call("relax.less", v, self.number(low)),
            call("relax.greater", v, self.number(high)),
        )
        if mode == "border":
            clamped = call("relax.clip", v, 0.0, self.sizes[axis] - 1.0)
            return call("relax.where", outside, clamped, v)
        if mode == "reflection":
            return self.reflected(v, axis)
        return v

    def tap(self, index: Expr, axis: int, mode: str) -> tuple[SSAValue, SSAValue | None]:
        """An integer position (in the data's float type) as an ``i64`` index inside
        the axis, and whether it is inside (``zeros``; None: always)."""
        size = self.sizes[axis]
        if mode == "reflection":
            index = call("relax.trunc", self.reflected(index, axis))
        index = self.bound(index)
        inside = None
        if mode == "zeros":
            inside = self.bound(
                call(
                    "relax.logical_and",
                    call("relax.greater_equal", index, self.number(0.0)),
                    call("relax.less", index, self.number(float(size))),
                )
            )
        clamped = call("relax.clip", index, 0.0, size - 1.0)
        return self.bound(call("relax.astype", clamped, dtype=INT64)), inside

    def read(self, taps: list[tuple[SSAValue, SSAValue | None]]) -> Call:
        """The data at one tap per spatial axis, 0 where one is outside."""
        flat: Expr | None = None
        inside: Expr | None = None
        for axis, (index, valid) in enumerate(taps):
            flat = (
                index
                if flat is None
                else call(
                    "relax.add",
                    call("relax.multiply", flat, np.array(self.sizes[axis], np.int64)),
                    index,
                )
            )
            if valid is not None:
                inside = valid if inside is None else call("relax.logical_and", inside, valid)
        assert flat is not None
        spread = call("relax.broadcast_to", flat, self.spread)
        value = call("relax.gather_elements", self.flat, spread, axis=2)
        if inside is None:
            return value
        return call("relax.where", inside, value, self.number(0.0))


def sample_volume(
    ctx: NodeContext, x: SSAValue, grid: SSAValue, mode: str, padding: str, align_corners: bool
) -> SSAValue:
    """``[N, C, D_out, H_out, W_out]``: the volume sampled at the grid's points."""
    volume = Volume(ctx, x, grid, align_corners)
    count = len(volume.sizes)
    coordinates: list[Expr] = [volume.unnormalized(axis) for axis in range(count)]
    if mode == "nearest":
        coordinates = [call("relax.round", c) for c in coordinates]
    coordinates = [
        volume.bound(volume.padded(c, axis, padding)) for axis, c in enumerate(coordinates)
    ]
    if mode == "nearest":
        taps = [
            volume.tap(call("relax.trunc", c), axis, padding) for axis, c in enumerate(coordinates)
        ]
        return ctx.emit("relax.reshape", volume.read(taps), Shape(volume.output))
    lows = [ctx.emit("relax.floor", c) for c in coordinates]
    fractions = [
        volume.bound(call("relax.subtract", c, low))
        for c, low in zip(coordinates, lows, strict=True)
    ]
    weights: list[tuple[Expr, Expr]] = [
        (call("relax.subtract", volume.number(1.0), f), f) for f in fractions
    ]
    # each axis's two taps (the lower and the upper neighbour), shared by the corners
    steps = [
        [
            volume.tap(position, axis, padding)
            for position in (low, call("relax.add", low, volume.number(1.0)))
        ]
        for axis, low in enumerate(lows)
    ]
    values: dict[tuple[int, ...], Expr] = {
        corner: volume.read([steps[axis][step] for axis, step in enumerate(corner)])
        for corner in corners((0, 1), repeat=count)
    }
    # nested 1-D interpolations, the last axis first, as the reference nests them
    for axis in reversed(range(count)):
        left, right = weights[axis]
        values = {
            corner[:axis]: _mix(
                values[(*corner[:axis], 0)], values[(*corner[:axis], 1)], left, right
            )
            for corner in values
            if corner[axis] == 0
        }
    return ctx.emit("relax.reshape", values[()], Shape(volume.output))


def _mix(first: Expr, second: Expr, left: Expr, right: Expr) -> Call:
    """``left * first + right * second``."""
    return call(
        "relax.add", call("relax.multiply", left, first), call("relax.multiply", right, second)
    )
