"""BitCast: the bits of each element read as another data type of the same width
(``relax.memory.view`` with a ``dtype``; ONNX's checker has checked the widths)."""

from __future__ import annotations

from xdsl.ir import SSAValue

from ..context import NodeContext
from .registry import converter
from .values import onnx_data_type


@converter("BitCast", since=26)
def bitcast(ctx: NodeContext) -> SSAValue:
    target = onnx_data_type(ctx, ctx.attr("to"))
    return ctx.emit("relax.memory.view", ctx.input(0), dtype=target)
