"""Window functions of signal processing (HannWindow, HammingWindow,
BlackmanWindow): sums of cosines ``sum_k a_k cos(2 pi k n / N)`` over
``n = 0 .. size - 1``, with ``N = size`` (``periodic``, the default) or
``size - 1`` (symmetric), computed in ``f64`` and converted to
``output_datatype`` (default ``float32``); a ``size`` known only at run time
gives a window of symbolic length."""

from __future__ import annotations

import numpy as np
from xdsl.ir import SSAValue

from ....builder import Call, call
from ....dtype import DataType
from ..context import NodeContext
from .registry import converter
from .values import dimension_tensor, onnx_data_type, runtime_dim

COSINE_COEFFICIENTS = {
    "HannWindow": (0.5, -0.5),
    "HammingWindow": (25 / 46, -21 / 46),
    "BlackmanWindow": (0.42, -0.5, 0.08),
}
"""``a_0, a_1, ...`` of each window."""

FLOAT64 = DataType.parse("float64")


def _f64(number: float) -> np.ndarray:
    return np.array(number, np.float64)


def _window(ctx: NodeContext) -> SSAValue:
    size = runtime_dim(ctx, 0, "size")
    period = size if ctx.attr("periodic", 1) else size - 1
    positions = call("relax.astype", call("relax.arange", 0, size, 1), dtype=FLOAT64)
    step = call("relax.astype", dimension_tensor(period), dtype=FLOAT64)
    angle = call("relax.divide", call("relax.multiply", positions, _f64(2 * np.pi)), step)
    first, *others = COSINE_COEFFICIENTS[ctx.op_type]
    total: Call | np.ndarray = _f64(first)
    for k, coefficient in enumerate(others, 1):
        wave = call("relax.cos", call("relax.multiply", angle, _f64(k)))
        total = call("relax.add", total, call("relax.multiply", wave, _f64(coefficient)))
    return ctx.emit(
        "relax.astype", total, dtype=onnx_data_type(ctx, ctx.attr("output_datatype", 1))
    )


for _op_type in COSINE_COEFFICIENTS:
    converter(_op_type, since=17)(_window)
