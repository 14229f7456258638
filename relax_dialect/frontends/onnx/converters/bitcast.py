"""BitCast: the bits of each element read as another data type of the same width
(``relax.memory.view`` with a ``dtype``)."""

from __future__ import annotations

from xdsl.ir import SSAValue

from ....ops.memory import storage_bytes
from ..context import NodeContext
from .registry import converter
from .values import data_type, onnx_data_type


@converter("BitCast", since=26)
def bitcast(ctx: NodeContext) -> SSAValue:
    x = ctx.input(0)
    source, target = data_type(ctx, x), onnx_data_type(ctx, ctx.attr("to"))
    if storage_bytes(source) != storage_bytes(target):
        ctx.error(f"{source} and {target} differ in width (a bool takes a byte)")
    return ctx.emit("relax.memory.view", x, dtype=target)
