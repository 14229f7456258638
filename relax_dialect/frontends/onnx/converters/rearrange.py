"""DepthToSpace and SpaceToDepth: blocks of channels moved to and from
spatial blocks, as a reshape, a transposition and a reshape."""

from __future__ import annotations

from xdsl.ir import SSAValue

from ....builder import Shape, call
from ....prim_expr import PrimExpr
from ....prim_expr_simplify import simplify
from ..context import NodeContext
from .registry import converter
from .values import known_shape


def _image_dims(ctx: NodeContext, x: SSAValue) -> list[PrimExpr]:
    dims = known_shape(ctx, x)
    if len(dims) != 4:
        ctx.error(f"the data has rank {len(dims)}, expected 4 (N, C, H, W)")
    return dims


@converter("DepthToSpace", since=1)
def depth_to_space(ctx: NodeContext) -> SSAValue:
    """Channel ``(i * b + j) * C' + c`` (DCR, the default) or ``c * b * b + i * b + j``
    (CRD) goes to row offset ``i`` and column offset ``j`` of channel ``c``."""
    x, b = ctx.input(0), ctx.attr("blocksize")
    n, c, h, w = _image_dims(ctx, x)
    depth = simplify(c // (b * b))
    mode = ctx.attr("mode", "DCR")
    if mode == "DCR":
        blocks, order = (n, b, b, depth, h, w), [0, 3, 4, 1, 5, 2]
    elif mode == "CRD":
        blocks, order = (n, depth, b, b, h, w), [0, 1, 4, 2, 5, 3]
    else:
        ctx.error(f"mode must be DCR or CRD, got '{mode}'")
    moved = call("relax.permute_dims", call("relax.reshape", x, Shape(blocks)), axes=order)
    return ctx.emit("relax.reshape", moved, Shape((n, depth, simplify(h * b), simplify(w * b))))


@converter("SpaceToDepth", since=1)
def space_to_depth(ctx: NodeContext) -> SSAValue:
    """Row offset ``i`` and column offset ``j`` of channel ``c`` go to channel
    ``(i * b + j) * C + c`` (DCR, the default) or ``c * b * b + i * b + j`` (CRD)."""
    x, b = ctx.input(0), ctx.attr("blocksize")
    n, c, h, w = _image_dims(ctx, x)
    mode = ctx.attr("mode", "DCR")
    orders = {"DCR": [0, 3, 5, 1, 2, 4], "CRD": [0, 1, 3, 5, 2, 4]}
    if mode not in orders:
        ctx.error(f"mode must be DCR or CRD, got '{mode}'")
    height, width = simplify(h // b), simplify(w // b)
    blocks = call("relax.reshape", x, Shape((n, c, height, b, width, b)))
    moved = call("relax.permute_dims", blocks, axes=orders[mode])
    return ctx.emit("relax.reshape", moved, Shape((n, simplify(c * b * b), height, width)))
