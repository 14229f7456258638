"""Correspondence between Relax data types and MLIR builtin element types."""

from __future__ import annotations

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float4E2M1FNType,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    Signedness,
)
from xdsl.ir import Attribute

from .dtype import DataType

_FLOATS = {16: Float16Type, 32: Float32Type, 64: Float64Type}
_FORMATS = {
    "bfloat16": BFloat16Type,
    "float8_e4m3fn": Float8E4M3FNType,
    "float8_e4m3fnuz": Float8E4M3FNUZType,
    "float8_e5m2": Float8E5M2Type,
    "float8_e5m2fnuz": Float8E5M2FNUZType,
    "float8_e8m0fnu": Float8E8M0FNUType,
    "float4_e2m1fn": Float4E2M1FNType,
}
"""The builtin type of each extension format (``DataType.FORMATS``)."""
FORMAT_CODES = {builtin: code for code, builtin in _FORMATS.items()}
"""The extension format of each of those builtin types."""


def element_type(dtype: DataType) -> Attribute:
    """The builtin element type of tensors of ``dtype`` (``i1`` for bool; MLIR
    integers are signless, so ``int32`` and ``uint32`` both map to ``i32``)."""
    if dtype.code == "float" and dtype.bits in _FLOATS:
        return _FLOATS[dtype.bits]()
    if dtype.lanes == 1 and dtype.code in _FORMATS:
        return _FORMATS[dtype.code]()
    if dtype.code in ("int", "uint"):
        return IntegerType(dtype.bits)
    raise ValueError(f"data type {dtype} has no MLIR element type")


def element_type_matches(dtype: DataType, builtin: Attribute) -> bool:
    """Whether tensors of ``dtype`` may be passed as ``builtin`` elements."""
    if isinstance(builtin, IntegerType):
        required = {Signedness.SIGNED: "int", Signedness.UNSIGNED: "uint"}
        code = required.get(builtin.signedness.data, dtype.code)
        return (
            dtype.code in ("int", "uint")
            and dtype.code == code
            and builtin.width.data == dtype.bits
        )
    try:
        return element_type(dtype) == builtin
    except ValueError:
        return False
