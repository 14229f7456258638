"""Quantization → one element-wise ``linalg.generic``.

A per-tensor scale or zero point is read at its one element (a constant
indexing map), a per-axis one along the quantized axis. The element is
computed as the reference kernels do (TVM's legalization): conversions to
TIR's common types, ``math.roundeven``, and saturation by two ordered
comparisons against the bounds of the target type (so NaN takes the upper
bound) before the conversion.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, math
from xdsl.ir import SSAValue

from relax_dialect.dtype import FLOAT32, INT64, DataType
from relax_dialect.numerics.arithmetic import highest, lowest
from relax_dialect.ops import qdq as ops
from relax_dialect.ops.binary import tir_common_dtype

from ..lowerer import Lowerer
from ..type_conversion import tensor_type
from . import lowers
from .common import binary, constant, convert, data_type, parallel, select

INT32 = DataType("int", 32)

Element = Callable[[Lowerer, Sequence[SSAValue], Sequence[DataType]], SSAValue]
"""Emits a result element from the data, scale and zero point elements and their types."""


def saturate(
    lw: Lowerer, op: ops.QuantizationOp, value: SSAValue, dtype: DataType, target: DataType
) -> SSAValue:
    """``value`` (of float ``dtype``) clipped to the bounds of ``target`` (NaN to
    the upper one), converted to ``target`` (an integer through ``i64``: wrapping,
    as the reference kernel)."""
    problem = ops.saturation_problem(dtype, target)
    if problem is not None:
        lw.error(op, problem)
    numpy_target = target.to_numpy()
    high = constant(lw, highest(numpy_target), dtype)
    low = constant(lw, lowest(numpy_target), dtype)
    below = select(lw, lw.make(arith.CmpfOp, value, high, "olt"), value, high)
    clipped = select(lw, lw.make(arith.CmpfOp, below, low, "ogt"), below, low)
    if target.is_float:
        return convert(lw, clipped, dtype, target)
    return convert(lw, convert(lw, clipped, dtype, INT64), INT64, target)


def _lower(lw: Lowerer, op: ops.QuantizationOp, element: Element) -> SSAValue:
    """The element-wise generic over ``data`` reading the parameters as they are laid out."""
    result = lw.result_type(op)
    axis = op.normalized_axis(result.rank)
    params = (op.scale, op.zero_point)
    maps: list[list[int | None]] = [list(range(result.rank))]
    for param in params:
        dims = param.type.dims  # pyright: ignore[reportAttributeAccessIssue]
        if ops.is_per_tensor(param.type):  # pyright: ignore[reportArgumentType]
            maps.append([None] * len(dims))
        elif len(dims) == 1:
            maps.append([axis])
        else:
            lw.error(op, f"a per-axis parameter must be a vector, not of shape {list(dims)}")
    dtypes = [data_type(v.type) for v in (op.data, *params)]
    inputs = [lw.operand(op, i) for i in range(3)]
    sizes = lw.dims(op.data)
    return parallel(
        lw, inputs, maps, sizes, tensor_type(result), lambda lw, args: element(lw, args, dtypes)
    )


@lowers(ops.QuantizeOp)
def lower_quantize(lw: Lowerer, op: ops.QuantizeOp) -> SSAValue:
    out: DataType = op.attr("out_dtype")

    def element(lw: Lowerer, args: Sequence[SSAValue], dtypes: Sequence[DataType]) -> SSAValue:
        (data, scale, zero_point), (data_dtype, scale_dtype, zero_dtype) = args, dtypes
        common = tir_common_dtype(data_dtype, scale_dtype)
        dividend = convert(lw, data, data_dtype, common)
        quotient = lw.make(arith.DivfOp, dividend, convert(lw, scale, scale_dtype, common))
        shift = convert(lw, zero_point, zero_dtype, common)
        shifted = lw.make(arith.AddfOp, lw.make(math.RoundEvenOp, quotient), shift)
        return saturate(lw, op, shifted, common, out)

    return _lower(lw, op, element)


@lowers(ops.DequantizeOp)
def lower_dequantize(lw: Lowerer, op: ops.DequantizeOp) -> SSAValue:
    out: DataType = op.attr("out_dtype")

    def element(lw: Lowerer, args: Sequence[SSAValue], dtypes: Sequence[DataType]) -> SSAValue:
        (data, scale, zero_point), (data_dtype, scale_dtype, zero_dtype) = args, dtypes
        wide = FLOAT32 if data_dtype.is_float else INT32
        common = tir_common_dtype(wide, zero_dtype)
        widened = convert(lw, convert(lw, data, data_dtype, wide), wide, common)
        shift = convert(lw, zero_point, zero_dtype, common)
        shifted = binary(lw, common, arith.SubfOp, arith.SubiOp, widened, shift)
        factor = convert(lw, scale, scale_dtype, FLOAT32)
        product = lw.make(arith.MulfOp, convert(lw, shifted, common, FLOAT32), factor)
        return product if out == FLOAT32 else saturate(lw, op, product, FLOAT32, out)

    return _lower(lw, op, element)
