"""Kernels of quantization, with the numerics of TVM's legalization.

Mixed data types combine as TIR's ``BinaryOpMatchTypes`` says
(``tir_common_dtype``). Saturation is TIR's ``max(min(x, high), low)`` with the
bounds of the target type converted to the type of ``x``: a comparison with NaN
being false, NaN saturates to the upper bound; a bound that the conversion
rounds outward (32767 is 32768 in ``f16``) wraps when converted back.
"""

from __future__ import annotations

import numpy as np

from ..dtype import DataType
from ..ops.binary import tir_common_dtype
from ..ops.qdq import DequantizeOp, QuantizationOp, QuantizeOp, saturation_problem
from . import evaluates
from .arithmetic import highest, lowest
from .common import Kernel, quiet_kernel

FLOAT32 = np.dtype(np.float32)


def parameter(param: np.ndarray, axis: int, shape: tuple[int, ...]) -> np.ndarray:
    """A scale or zero point shaped to broadcast against data of ``shape``: its
    one element, or its vector laid along ``axis``."""
    if param.size == 1:
        return param.reshape(())
    if param.ndim != 1 or param.shape[0] != shape[axis]:
        raise ValueError(
            f"a quantization parameter of shape {list(param.shape)} is neither one value nor "
            f"a vector of the {shape[axis]} elements of axis {axis}"
        )
    layout = [1] * len(shape)
    layout[axis] = -1
    return param.reshape(layout)


def common_dtype(*dtypes: np.dtype) -> np.dtype:
    """The data type TIR computes a binary operation of these types in."""
    found = DataType.from_numpy(dtypes[0])
    for dtype in dtypes[1:]:
        found = tir_common_dtype(found, DataType.from_numpy(dtype))
    return found.to_numpy()


def saturate(values: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """``values`` clipped to the bounds of ``dtype`` (NaN to the upper one), converted
    (to an integer type through ``i64``, so that a bound the float type rounds
    outward wraps, as TVM's compiled code does)."""
    problem = saturation_problem(DataType.from_numpy(values.dtype), DataType.from_numpy(dtype))
    if problem is not None:
        raise TypeError(problem)
    high = np.asarray(highest(dtype), values.dtype)
    low = np.asarray(lowest(dtype), values.dtype)
    clipped = np.where(values < high, values, high)
    clipped = np.where(clipped > low, clipped, low)
    return (clipped if dtype.kind == "f" else clipped.astype(np.int64)).astype(dtype)


def quantize(
    data: np.ndarray, scale: np.ndarray, zero_point: np.ndarray, out: np.dtype
) -> np.ndarray:
    """``saturate(round(data / scale) + zero_point)``, in the wider float type."""
    dtype = common_dtype(data.dtype, scale.dtype)
    scaled = np.rint(data.astype(dtype) / scale.astype(dtype))
    return saturate(scaled + zero_point.astype(dtype), out)


def dequantize(
    data: np.ndarray, scale: np.ndarray, zero_point: np.ndarray, out: np.dtype
) -> np.ndarray:
    """``(data - zero_point) * scale``: data widened to ``i32`` (or ``f32``), the
    difference in the common type of that and the zero point, the product in ``f32``."""
    wide = FLOAT32 if data.dtype.kind == "f" else np.dtype(np.int32)
    dtype = common_dtype(wide, zero_point.dtype)
    shifted = data.astype(wide).astype(dtype) - zero_point.astype(dtype)
    product = shifted.astype(FLOAT32) * scale.astype(FLOAT32)
    return product if out == FLOAT32 else saturate(product, out)


COMPUTE = {QuantizeOp: quantize, DequantizeOp: dequantize}


@evaluates(*COMPUTE)
def _quantization(op: QuantizationOp) -> Kernel:
    compute = COMPUTE[type(op)]  # pyright: ignore[reportArgumentType]
    out_dtype = op.attr("out_dtype").to_numpy()

    def apply(data: np.ndarray, scale: np.ndarray, zero_point: np.ndarray) -> np.ndarray:
        axis = op.normalized_axis(data.ndim)
        scale, zero_point = (parameter(p, axis, data.shape) for p in (scale, zero_point))
        return compute(data, scale, zero_point, out_dtype)

    return quiet_kernel(op, apply)
