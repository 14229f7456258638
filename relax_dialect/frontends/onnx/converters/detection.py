"""``NonMaxSuppression``: greedy suppression of overlapping boxes, per batch entry
and class, in Relax operators.

The boxes of each (batch, class) are ranked by descending score (a stable sort:
equal scores in box order). A recursive local function visits rank ``p`` for
every (batch, class) at once: the box at that rank is kept when its score is
above ``score_threshold`` (when given), fewer than ``max_output_boxes_per_class``
boxes are kept already, and its intersection over union with every kept box is
at most ``iou_threshold`` (boxes of no area, or not overlapping, never
suppress). The result lists the kept boxes as ``[batch, class, box]`` rows,
ordered by batch, class and rank: the positions of a ``[batch, class, rank]``
mask (``relax.nonzero``, whose count is a fresh symbolic variable) with each
rank turned into its box.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.ir import SSAValue

from ....builder import Shape, call
from ....dtype import BOOL, INT64
from ....types import TensorType
from ..context import NodeContext
from .registry import converter
from .values import known_shape, scalar


@dataclass(frozen=True)
class Corners:
    """Each box's extent (``[B, N]`` each) and area."""

    x_min: SSAValue
    x_max: SSAValue
    y_min: SSAValue
    y_max: SSAValue
    area: SSAValue


def _corners(ctx: NodeContext, boxes: SSAValue) -> Corners:
    """``[y1, x1, y2, x2]`` (either diagonal) or, with ``center_point_box``,
    ``[x_center, y_center, width, height]``."""
    dims = known_shape(ctx, boxes, "the boxes")
    columns = [
        ctx.emit("relax.squeeze", call("relax.strided_slice", boxes, [2], [k], [k + 1]), axis=[2])
        for k in range(4)
    ]
    if len(dims) != 3:
        ctx.error("boxes must be [batches, boxes, 4]")
    if ctx.attr("center_point_box", 0):
        x, y, width, height = columns
        half_w = ctx.emit("relax.divide", width, scalar(ctx, 2.0, boxes))
        half_h = ctx.emit("relax.divide", height, scalar(ctx, 2.0, boxes))
        x_min, x_max = ctx.emit("relax.subtract", x, half_w), ctx.emit("relax.add", x, half_w)
        y_min, y_max = ctx.emit("relax.subtract", y, half_h), ctx.emit("relax.add", y, half_h)
    else:
        y1, x1, y2, x2 = columns
        x_min, x_max = ctx.emit("relax.minimum", x1, x2), ctx.emit("relax.maximum", x1, x2)
        y_min, y_max = ctx.emit("relax.minimum", y1, y2), ctx.emit("relax.maximum", y1, y2)
    area = ctx.emit(
        "relax.multiply",
        call("relax.subtract", x_max, x_min),
        call("relax.subtract", y_max, y_min),
    )
    return Corners(x_min, x_max, y_min, y_max, area)


def _overlapping(ctx: NodeContext, corners: Corners, picked: SSAValue, threshold) -> SSAValue:
    """Whether box ``picked[b, c]`` suppresses each box of its batch entry
    (``[B, C, N]``): both have an area, they overlap, and their intersection over
    union exceeds ``threshold``."""

    def of_picked(values: SSAValue) -> object:
        return call(
            "relax.expand_dims", call("relax.gather_elements", values, picked, axis=1), axis=[2]
        )

    def of_all(values: SSAValue) -> object:
        return call("relax.expand_dims", values, axis=[1])

    def extent(low: SSAValue, high: SSAValue) -> SSAValue:
        top = call("relax.minimum", of_picked(high), of_all(high))
        return ctx.emit("relax.subtract", top, call("relax.maximum", of_picked(low), of_all(low)))

    zero = scalar(ctx, 0.0, corners.area)
    width = extent(corners.x_min, corners.x_max)
    height = extent(corners.y_min, corners.y_max)
    inter = ctx.emit("relax.multiply", width, height)
    areas = ctx.emit("relax.add", of_picked(corners.area), of_all(corners.area))
    union = ctx.emit("relax.subtract", areas, inter)
    conditions = [
        call("relax.greater", width, zero),
        call("relax.greater", height, zero),
        call("relax.greater", of_picked(corners.area), zero),
        call("relax.greater", of_all(corners.area), zero),
        call("relax.greater", union, zero),
        call("relax.greater", call("relax.divide", inter, union), threshold),
    ]
    found = ctx.emit(conditions[0].op, *conditions[0].args)
    for condition in conditions[1:]:
        found = ctx.emit("relax.logical_and", found, condition)
    return found


def _scalar_input(ctx: NodeContext, index: int, default: np.ndarray) -> SSAValue | np.ndarray:
    """A one-element input as a 0-d tensor (``default`` when absent)."""
    value = ctx.optional_input(index)
    return default if value is None else ctx.emit("relax.reshape", value, Shape(()))


@converter("NonMaxSuppression", since=10, control_flow=True)
def non_max_suppression(ctx: NodeContext) -> SSAValue:
    boxes, scores = ctx.input(0), ctx.input(1)
    if ctx.optional_input(2) is None:  # at most 0 boxes per class
        return ctx.const(np.zeros((0, 3), np.int64))
    batches, classes, count = known_shape(ctx, scores, "the scores")
    limit = _scalar_input(ctx, 2, np.zeros((), np.int64))
    iou = _scalar_input(ctx, 3, scalar(ctx, 0.0, boxes))
    corners = _corners(ctx, boxes)
    order = ctx.emit("relax.argsort", scores, axis=-1, descending=True, dtype=INT64)
    ranked = ctx.emit("relax.gather_elements", scores, order, axis=2)
    threshold = ctx.optional_input(4)
    candidate = (
        ctx.emit("relax.ones", Shape((batches, classes, count)), dtype=BOOL)
        if threshold is None
        else ctx.emit("relax.greater", ranked, ctx.emit("relax.reshape", threshold, Shape(())))
    )
    positions = ctx.emit("relax.arange", 0, count, 1, dtype=INT64)
    mask = TensorType([batches, classes, count], BOOL)
    params = {"rank": TensorType([], INT64), "kept": mask, "chosen": mask}
    params["tally"] = TensorType([batches, classes], INT64)
    with ctx.builder.closure(params, mask, recursive=True, name=f"{ctx.name}_rank") as frame:
        itself, rank, kept, chosen, tally = frame.params
        picked = ctx.emit("relax.take", order, rank, axis=2)
        overlaps = ctx.emit("relax.logical_and", _overlapping(ctx, corners, picked, iou), kept)
        suppressed = ctx.emit(
            "relax.greater",
            call("relax.sum", call("relax.astype", overlaps, dtype=INT64), axis=[2]),
            0,
        )
        keep = ctx.emit(
            "relax.logical_and",
            call("relax.take", candidate, rank, axis=2),
            call(
                "relax.logical_and",
                call("relax.less", tally, limit),
                call("relax.logical_not", suppressed),
            ),
        )
        column = ctx.emit("relax.expand_dims", keep, axis=[2])
        at_box = call("relax.equal", positions, call("relax.expand_dims", picked, axis=[2]))
        kept = ctx.emit("relax.logical_or", kept, call("relax.logical_and", at_box, column))
        at_rank = call("relax.equal", positions, rank)
        chosen = ctx.emit("relax.logical_or", chosen, call("relax.logical_and", at_rank, column))
        tally = ctx.emit("relax.add", tally, call("relax.astype", keep, dtype=INT64))
        following = ctx.emit("relax.add", rank, np.ones((), np.int64))
        more = ctx.emit("relax.less", following, ctx.emit("relax.shape_to_tensor", Shape((count,))))
        ctx.builder.emit_func_output(
            ctx.builder.emit_if(
                ctx.emit("relax.reshape", more, Shape(())),
                lambda: ctx.builder.invoke(itself, [following, kept, chosen, tally]),
                lambda: chosen,
            )
        )
    none = ctx.emit("relax.zeros", Shape((batches, classes, count)), dtype=BOOL)
    zero = np.zeros((), np.int64)
    tallies = ctx.emit("relax.zeros", Shape((batches, classes)), dtype=INT64)
    started = ctx.emit(
        "relax.reshape",
        call("relax.less", zero, call("relax.shape_to_tensor", Shape((count,)))),
        Shape(()),
    )
    chosen = ctx.builder.emit_if(
        started, lambda: ctx.builder.invoke(frame.value, [zero, none, none, tallies]), lambda: none
    )
    found = ctx.emit("relax.nonzero", chosen)
    rows = ctx.emit(
        "relax.permute_dims", ctx.match_cast(found, [3, ctx.fresh_dim("num_selected")], "int64")
    )
    box = ctx.emit("relax.gather_nd", order, rows)
    prefix = call("relax.strided_slice", rows, [1], [0], [2])
    return ctx.emit("relax.concat", [prefix, call("relax.expand_dims", box, axis=[1])], axis=1)
