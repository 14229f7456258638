"""AffineGrid: the sampling grid of an affine transformation (for
GridSample), the homogeneous coordinates of every output position (computed
at import time, so ``size`` must be known) multiplied by ``theta``."""

from __future__ import annotations

import numpy as np
from xdsl.ir import SSAValue

from ....builder import Shape, call
from ..context import NodeContext
from .registry import converter
from .values import constant_ints, known_shape, numpy_dtype


def _coordinates(size: int, align_corners: bool) -> np.ndarray:
    """Normalized coordinates in [-1, 1] of ``size`` positions: at the
    pixels' edges' centres, or with ``align_corners`` at the corners."""
    if align_corners:
        return np.linspace(-1.0, 1.0, size) if size > 1 else np.array([-1.0])
    step = 2.0 / size
    return -1.0 + step / 2 + step * np.arange(size)


def base_grid(sizes: list[int], align_corners: bool) -> np.ndarray:
    """``[prod(sizes), k + 1]``: each position's ``x, y(, z), 1`` (``x`` along
    the last axis)."""
    axes = [_coordinates(size, align_corners) for size in sizes]
    mesh = np.meshgrid(*axes, indexing="ij")
    columns = [m.reshape(-1) for m in reversed(mesh)]
    return np.stack([*columns, np.ones_like(columns[0])], axis=1)


@converter("AffineGrid", since=20)
def affine_grid(ctx: NodeContext) -> SSAValue:
    theta = ctx.input(0)
    batch = known_shape(ctx, theta, "theta")[0]
    sizes = constant_ints(ctx, 1, "the size")[2:]
    if len(sizes) not in (2, 3):
        ctx.error(f"size has {len(sizes) + 2} values, expected 4 or 5")
    base = base_grid(sizes, bool(ctx.attr("align_corners", 0)))
    points = base.T.astype(numpy_dtype(ctx, theta))  # [k + 1, positions]
    moved = call("relax.permute_dims", call("relax.matmul", theta, points), axes=[0, 2, 1])
    return ctx.emit("relax.reshape", moved, Shape((batch, *sizes, len(sizes))))
