"""Sampling images: ``GridSample`` → ``relax.image.grid_sample`` (volumes: see
``volume_sampling``), ``RoiAlign`` →
``relax.vision.roi_align``.

ONNX's grid is ``[N, H_out, W_out, 2]``, Relax's ``[N, 2, H_out, W_out]``;
``RoiAlign``'s regions and their batch indices become Relax's rows
``[batch_index, x1, y1, x2, y2]``.
"""

from __future__ import annotations

from xdsl.ir import SSAValue

from ....builder import call
from ..context import NodeContext
from .registry import converter
from .values import data_type, scalar
from .volume_sampling import sample_volume

METHODS = {"bilinear": "bilinear", "linear": "bilinear", "nearest": "nearest"}
METHODS |= {"bicubic": "bicubic", "cubic": "bicubic"}
"""ONNX's interpolation modes (opset 16's and opset 20's names) and Relax's."""
PADDINGS = ("zeros", "border", "reflection")


@converter("GridSample", since=16)
def grid_sample(ctx: NodeContext) -> SSAValue:
    """Images by ``relax.image.grid_sample``; volumes decomposed (see
    ``volume_sampling``), by nearest or linear interpolation."""
    x, grid = ctx.input(0), ctx.input(1)
    mode = ctx.attr("mode", "bilinear")
    if mode not in METHODS:
        ctx.error(f"mode must be one of {', '.join(METHODS)}, got '{mode}'")
    padding = ctx.attr("padding_mode", "zeros")
    if padding not in PADDINGS:
        ctx.error(f"padding_mode must be one of {', '.join(PADDINGS)}, got '{padding}'")
    if ctx.rank(x) == 5:
        if METHODS[mode] == "bicubic":
            ctx.error("cubic interpolation samples images only (4-D data)")
        linear = METHODS[mode] == "bilinear"
        align_corners = bool(ctx.attr("align_corners", 0))
        return sample_volume(
            ctx, x, grid, "linear" if linear else "nearest", padding, align_corners
        )
    if ctx.rank(x) not in (4, None):
        ctx.unsupported(f"sampling data of rank {ctx.rank(x)} is not supported (4-D or 5-D)")
    return ctx.emit(
        "relax.image.grid_sample",
        x,
        call("relax.permute_dims", grid, axes=[0, 3, 1, 2]),
        method=METHODS[mode],
        padding_mode=padding,
        align_corners=bool(ctx.attr("align_corners", 0)),
    )


@converter("RoiAlign", since=10)
def roi_align(ctx: NodeContext) -> SSAValue:
    """Opset 10 has no half-pixel offset; from opset 16 ``coordinate_transformation_mode``
    chooses (``half_pixel`` by default), which shifts the scaled regions by -0.5:
    the regions are shifted by ``-0.5 / spatial_scale`` first (``relax.vision.roi_align``
    has no offset; its ``aligned`` drops the 1x1 minimum size, as half-pixel does)."""
    x, rois, batch = ctx.input(0), ctx.input(1), ctx.input(2)
    default = "half_pixel" if ctx.opset >= 16 else "output_half_pixel"
    transform = ctx.attr("coordinate_transformation_mode", default)
    if transform not in ("half_pixel", "output_half_pixel"):
        ctx.error(f"coordinate_transformation_mode '{transform}' is not one of the two")
    if ctx.attr("mode", "avg") != "avg":
        ctx.unsupported(
            "mode 'max' is not supported: ONNX takes the largest weighted corner of each "
            "sample, relax.vision.roi_align the largest interpolated sample"
        )
    scale = float(ctx.attr("spatial_scale", 1.0))
    aligned = transform == "half_pixel"
    if aligned:
        rois = ctx.emit("relax.subtract", rois, scalar(ctx, 0.5 / scale, rois))
    index = call("relax.astype", batch, dtype=data_type(ctx, rois))
    return ctx.emit(
        "relax.vision.roi_align",
        x,
        call("relax.concat", [call("relax.expand_dims", index, axis=[1]), rois], axis=1),
        pooled_size=[ctx.attr("output_height", 1), ctx.attr("output_width", 1)],
        spatial_scale=scale,
        sample_ratio=ctx.attr("sampling_ratio", 0) or -1,
        aligned=aligned,
    )
