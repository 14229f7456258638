"""ONNX element types as the dialect's data types.

ONNX's 4- and 2-bit integers (``INT4``, ``UINT4``, ``INT2``, ``UINT2``) have no
Relax data type: well-formedness rule 18 allows integers of 1, 8, 16, 32 and 64
bits only (TVM 0.25 parses ``int4`` tensors but cannot build them). They import
as ``int8``/``uint8`` tensors holding the values (``NarrowInteger``); the
converters that produce them keep the values in range as ONNX specifies.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...dtype import DataType

_BY_CODE: dict[int, str] = {
    1: "float32",
    2: "uint8",
    3: "int8",
    4: "uint16",
    5: "int16",
    6: "int32",
    7: "int64",
    9: "bool",
    10: "float16",
    11: "float64",
    12: "uint32",
    13: "uint64",
    16: "bfloat16",
    17: "float8_e4m3fn",
    18: "float8_e4m3fnuz",
    19: "float8_e5m2",
    20: "float8_e5m2fnuz",
    23: "float4_e2m1fn",
    24: "float8_e8m0fnu",
}
"""``TensorProto.DataType`` codes of the element types Relax has."""


@dataclass(frozen=True)
class NarrowInteger:
    """An ONNX integer type narrower than a byte, held in a byte."""

    name: str
    bits: int
    signed: bool

    @property
    def storage(self) -> DataType:
        """The Relax data type of the tensors holding its values."""
        return DataType("int" if self.signed else "uint", 8)

    @property
    def low(self) -> int:
        return -(1 << (self.bits - 1)) if self.signed else 0

    @property
    def high(self) -> int:
        return (1 << (self.bits - 1)) - 1 if self.signed else (1 << self.bits) - 1


NARROW_INTEGERS: dict[int, NarrowInteger] = {
    21: NarrowInteger("UINT4", 4, signed=False),
    22: NarrowInteger("INT4", 4, signed=True),
    25: NarrowInteger("UINT2", 2, signed=False),
    26: NarrowInteger("INT2", 2, signed=True),
}
"""The sub-byte integer types by ``TensorProto.DataType`` code."""

_NARROW_BY_NUMPY = {n.name.lower(): n for n in NARROW_INTEGERS.values()}

_NAMES: dict[int, str] = {
    0: "UNDEFINED",
    8: "STRING",
    14: "COMPLEX64",
    15: "COMPLEX128",
}
"""The other codes' names, for messages."""


class UnsupportedType(ValueError):
    """An ONNX element type with no Relax data type."""


def data_type(code: int) -> DataType:
    """The data type of an ONNX element type code (a narrow integer's storage type)."""
    if code in NARROW_INTEGERS:
        return NARROW_INTEGERS[code].storage
    name = _BY_CODE.get(code)
    if name is None:
        raise UnsupportedType(f"element type {_NAMES.get(code, code)} is not supported")
    found = DataType.parse(name)
    assert found is not None
    return found


def stored(array: np.ndarray) -> np.ndarray:
    """An array as Relax holds it: ml_dtypes' ``int4``/``uint4``/``int2``/``uint2``
    widened to their storage type, any other unchanged."""
    narrow = _NARROW_BY_NUMPY.get(array.dtype.name)
    return array if narrow is None else array.astype(narrow.storage.to_numpy())


def onnx_code(dtype: DataType) -> int:
    """The ``TensorProto.DataType`` code of a Relax data type (8-bit integers for
    their own, never a narrow integer they may hold)."""
    for code, name in _BY_CODE.items():
        if DataType.parse(name) == dtype:
            return code
    raise UnsupportedType(f"data type {dtype} has no ONNX element type")
