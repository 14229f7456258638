"""Dropout at inference: the identity, with a mask of ones."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.ir import SSAValue

from ....dtype import BOOL
from ..context import NodeContext
from .registry import converter
from .values import constant_input, data_type, output_used


def _training(ctx: NodeContext) -> bool:
    """Whether the node drops elements: opset 12's ``training_mode`` input
    with a non-zero ``ratio`` (a zero one known at import time makes a
    run-time ``training_mode`` moot), or before opset 7 ``is_test`` 0."""
    if ctx.opset < 7:
        return not ctx.attr("is_test", 0) and ctx.attr("ratio", 0.5) != 0.0
    if ctx.opset < 12 or not ctx.has_input(2):
        return False
    ratio = ctx.constant(1) if ctx.has_input(1) else np.array(0.5)
    if ratio is not None and not ratio.reshape(-1)[0]:
        return False  # a zero ratio drops nothing, whatever training_mode is
    if not constant_input(ctx, 2, "training_mode").reshape(-1)[0]:
        return False
    if ratio is None:
        ctx.computed_at_run_time(1, "the ratio")
    return True


@converter("Dropout", since=1)
def dropout(ctx: NodeContext) -> Sequence[SSAValue | None]:
    if _training(ctx):
        ctx.unsupported("training mode (random dropping) is not supported")
    x = ctx.input(0)
    if not output_used(ctx, 1):
        return [x]
    mask_dtype = BOOL if ctx.opset >= 10 else data_type(ctx, x)
    return [x, ctx.emit("relax.ones_like", x, dtype=mask_dtype)]
