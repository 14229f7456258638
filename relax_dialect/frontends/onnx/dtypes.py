"""ONNX element types as the dialect's data types."""

from __future__ import annotations

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
}
"""``TensorProto.DataType`` codes of the element types Relax has."""

_NAMES: dict[int, str] = {
    0: "UNDEFINED",
    8: "STRING",
    14: "COMPLEX64",
    15: "COMPLEX128",
    16: "BFLOAT16",
    17: "FLOAT8E4M3FN",
    18: "FLOAT8E4M3FNUZ",
    19: "FLOAT8E5M2",
    20: "FLOAT8E5M2FNUZ",
    21: "UINT4",
    22: "INT4",
    23: "FLOAT4E2M1",
    24: "FLOAT8E8M0",
    25: "UINT2",
    26: "INT2",
}
"""The other codes' names, for messages."""


class UnsupportedType(ValueError):
    """An ONNX element type with no Relax data type."""


def data_type(code: int) -> DataType:
    """The data type of an ONNX element type code."""
    name = _BY_CODE.get(code)
    if name is None:
        raise UnsupportedType(f"element type {_NAMES.get(code, code)} is not supported")
    found = DataType.parse(name)
    assert found is not None
    return found
