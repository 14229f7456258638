"""Run-time values of lowered IR: NumPy arrays for tensors, NumPy scalars for scalars.

An MLIR element type maps to one NumPy dtype: ``index`` to ``int64``, ``i1`` to
``bool``, ``iN`` to the signed ``intN`` (signless integers are stored signed; the
operations that read them unsigned reinterpret the bits), ``f16``/``f32``/``f64``
to the float of that width, ``bf16`` and the 8- and 4-bit floats (``f8E4M3FN``...)
to ml_dtypes' types (whose conversions round as MLIR's constant folder does).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    ShapedType,
)
from xdsl.ir import Attribute

from relax_dialect.builtin_types import FORMAT_CODES
from relax_dialect.dtype import FORMATS, DataType

_UNSIGNED = {
    np.dtype(np.int8): np.dtype(np.uint8),
    np.dtype(np.int16): np.dtype(np.uint16),
    np.dtype(np.int32): np.dtype(np.uint32),
    np.dtype(np.int64): np.dtype(np.uint64),
}


class UnsupportedType(Exception):
    """An MLIR type the interpreter has no NumPy representation for."""


def element_type(type_: Attribute) -> Attribute:
    """The element type of a shaped type, else the type itself."""
    return type_.get_element_type() if isinstance(type_, ShapedType) else type_


@cache
def dtype_of(type_: Attribute) -> np.dtype[Any]:
    """The NumPy dtype of the elements of type_ (a scalar or shaped type)."""
    scalar = element_type(type_)
    match scalar:
        case IndexType():
            return np.dtype(np.int64)
        case IntegerType() if scalar.width.data == 1:
            return np.dtype(np.bool_)
        case IntegerType() if scalar.width.data in (8, 16, 32, 64):
            return np.dtype(f"int{scalar.width.data}")
        case Float16Type() | Float32Type() | Float64Type():
            return np.dtype(f"float{scalar.bitwidth}")
        case _ if (format_code := FORMAT_CODES.get(type(scalar))) is not None:
            return DataType(format_code, FORMATS[format_code].bits).to_numpy()  # pyright: ignore
        case _:
            raise UnsupportedType(f"element type {scalar} has no NumPy counterpart")


def unsigned_dtype(dtype: np.dtype[Any]) -> np.dtype[Any]:
    """The unsigned integer dtype of the same width (bool stays bool)."""
    return _UNSIGNED.get(dtype, dtype)


def as_unsigned(value: Any) -> Any:
    """The bits of a signed integer array or scalar read as unsigned."""
    dtype = value.dtype
    return value if dtype == np.bool_ else value.view(_UNSIGNED[dtype])


def as_signed_int(value: Any) -> Any:
    """An integer value as a signed integer of at least 8 bits (i1 ``true`` is -1)."""
    if value.dtype == np.bool_:
        return np.negative(value, dtype=np.int8)
    return value


def from_int(value: Any, dtype: np.dtype[Any]) -> Any:
    """An integer value wrapped into dtype (i1 keeps the low bit)."""
    if dtype == np.bool_:
        return (value & 1).astype(np.bool_)
    return value.astype(dtype)
