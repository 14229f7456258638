"""Quantization (TVM's ``tensor/qdq.cc``): ``quantize`` and ``dequantize``.

Both take ``data``, a ``scale`` and a ``zero_point``. The two parameters are
per-tensor (a scalar, or a tensor whose dimensions are all provably 1) or
per-axis (a vector as long as ``data`` along ``axis``, one value per slice).
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import IntegerAttr, i64
from xdsl.ir import Operation
from xdsl.irdl import irdl_op_definition, operand_def, opt_prop_def, result_def, traits_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ..attributes import DataTypeAttr
from ..dtype import DataType
from ..prim_expr import IntImm
from ..prim_expr_simplify import prove_equal
from ..types import StructInfoType, TensorType
from .fusion import FusionKind, OpPattern
from .inference import dims_text
from .operator import OperatorOp
from .placement import Placement


def _dtypes(*names: str) -> tuple[DataType, ...]:
    return tuple(DataType.parse(name) for name in names)  # pyright: ignore[reportReturnType]


AXIS = opt_prop_def(IntegerAttr, default_value=IntegerAttr(-1, i64))
"""Both operators' ``axis``, declared before ``out_dtype`` as in TVM's Python API
(TVM prints it after ``out_dtype``)."""
SCALE_DTYPES = _dtypes("f16", "f32")
ZERO_POINT_DTYPES = _dtypes("i8", "ui8", "i16", "ui16", "i32", "ui32", "f16")


def is_per_tensor(param: TensorType) -> bool:
    """Whether a scale or zero point holds one value for the whole tensor: its
    shape is known and is ``[]`` or provably all ones."""
    return param.dims is not None and all(prove_equal(d, IntImm(1)) for d in param.dims)


def saturation_problem(values: DataType, target: DataType) -> str | None:
    """Why TVM cannot saturate ``values`` (of a float type) to the bounds of
    ``target``, if it cannot: it converts the bounds to the type of the values,
    and fails to build the operator when one does not fit (``65535`` in ``f16``)."""
    numpy_target = target.to_numpy()
    bounds = np.finfo(numpy_target) if target.is_float else np.iinfo(numpy_target)
    if float(bounds.max) > float(np.finfo(values.to_numpy()).max):
        return f"TVM cannot saturate {values} values to {target}: its bounds do not fit {values}"
    return None


class QuantizationOp(OperatorOp):
    """``relax.<op> %data, %scale, %zero_point {axis = -1, out_dtype = T}``:
    the data types each accepts are ``DATA_DTYPES`` and ``OUT_DTYPES``."""

    FUSION: ClassVar[FusionKind] = OpPattern.ELEMWISE
    PLACEMENT: ClassVar[Placement] = Placement.DATA
    DATA_DTYPES: ClassVar[tuple[DataType, ...]]
    OUT_DTYPES: ClassVar[tuple[DataType, ...]]

    data = operand_def()
    scale = operand_def()
    zero_point = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def infer_type(self) -> StructInfoType:
        out_dtype: DataType = self.attr("out_dtype")
        self._check_dtype("out_dtype", out_dtype, self.OUT_DTYPES)
        data = self.tensor_of(self.data, "data")
        scale = self.tensor_of(self.scale, "scale")
        zero_point = self.tensor_of(self.zero_point, "zero_point")
        self._check_dtype("data", data.data_type, self.DATA_DTYPES)
        self._check_dtype("scale", scale.data_type, SCALE_DTYPES)
        self._check_dtype("zero_point", zero_point.data_type, ZERO_POINT_DTYPES)
        axis = self.normalized_axis(data.rank)
        for param, which in ((scale, "scale"), (zero_point, "zero_point")):
            if not is_per_tensor(param):
                self._check_per_axis(data, axis, param, which)
        return TensorType(data.dims, out_dtype, data.rank)

    def normalized_axis(self, rank: int) -> int:
        """``axis`` in ``[0, rank)``; an error for an unknown rank, as in TVM."""
        axis: int = self.attr("axis")
        normalized = axis + rank if axis < 0 else axis
        if rank < 0 or not 0 <= normalized < rank:
            raise VerifyException(f"{self.name}: axis {axis} is out of range for {_rank(rank)}")
        return normalized

    def _check_dtype(self, which: str, dtype: DataType, allowed: tuple[DataType, ...]) -> None:
        if dtype not in allowed:
            listed = ", ".join(map(str, allowed))
            raise VerifyException(f"{self.name}: {which} has data type {dtype}, expected {listed}")

    def _check_per_axis(self, data: TensorType, axis: int, param: TensorType, which: str) -> None:
        if data.dims is None or param.dims is None:
            raise VerifyException(
                f"{self.name}: a per-axis {which} needs known shapes of data and {which}"
            )
        if not prove_equal(param.dims[0], data.dims[axis]):
            raise VerifyException(
                f"{self.name}: {which} has shape {dims_text(param.dims)}, expected "
                f"{dims_text([data.dims[axis]])} (dimension {axis} of data) or one element"
            )


def _rank(rank: int) -> str:
    return "a tensor of unknown rank" if rank < 0 else f"a tensor of {rank} dimensions"


@irdl_op_definition
class QuantizeOp(QuantizationOp):
    """``clip(round(data / scale) + zero_point)`` converted to ``out_dtype``
    (``i8`` by default; ``ui8``, ``i16``, ``ui16``): the division in the wider
    of the two float types, rounding half to even, the zero point converted to
    that type, then saturation to the bounds of ``out_dtype`` (NaN becomes the
    upper bound). In ``f16`` the bound 32767 of ``i16`` is 32768, which the
    conversion wraps to -32768 (as TVM computes); TVM builds no ``ui16`` result
    from ``f16`` (65535 does not fit ``f16``): that fails at run time.

    Inference (TVM's): the shape of ``data`` (``f16`` or ``f32``) with data
    type ``out_dtype``; ``scale`` is ``f16`` or ``f32`` and ``zero_point``
    ``i8``, ``ui8``, ``i16``, ``ui16``, ``i32``, ``ui32`` or ``f16`` (``void``
    is rejected); ``axis`` must be in range of a known rank (so ``data`` has a
    dimension). A per-axis parameter needs known shapes, and its first
    dimension must provably equal the dimension of ``data`` at ``axis``.
    """

    name = "relax.quantize"
    DATA_DTYPES: ClassVar[tuple[DataType, ...]] = SCALE_DTYPES
    OUT_DTYPES: ClassVar[tuple[DataType, ...]] = _dtypes("i8", "ui8", "i16", "ui16")
    axis = AXIS
    out_dtype = opt_prop_def(DataTypeAttr, default_value=DataTypeAttr(OUT_DTYPES[0]))


@irdl_op_definition
class DequantizeOp(QuantizationOp):
    """``(data - zero_point) * scale`` in ``out_dtype`` (``f32`` by default, or
    ``f16``): integer data is widened to ``i32`` and float data to ``f32``, the
    subtraction is done in TIR's common type of that and the zero point, the
    product in ``f32``; an ``f16`` result saturates to ``±65504`` (NaN becomes
    ``65504``).

    Inference: as ``relax.quantize``'s, for ``data`` of ``i8``, ``ui8``,
    ``i16``, ``ui16``, ``i32``, ``f16`` or ``f32``.
    """

    name = "relax.dequantize"
    DATA_DTYPES: ClassVar[tuple[DataType, ...]] = _dtypes(
        "i8", "ui8", "i16", "ui16", "i32", "f16", "f32"
    )
    OUT_DTYPES: ClassVar[tuple[DataType, ...]] = _dtypes("f32", "f16")
    axis = AXIS
    out_dtype = opt_prop_def(DataTypeAttr, default_value=DataTypeAttr(OUT_DTYPES[0]))


OPERATIONS: list[type[Operation]] = [QuantizeOp, DequantizeOp]
