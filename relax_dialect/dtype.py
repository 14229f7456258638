"""Scalar data types (TIR's ``DataType``) as Relax uses them.

A data type is a code (``int``, ``uint``, ``float``, ``handle``), a bit width
and a lane count. Any combination can be written and parsed, so that the
well-formedness checker can reject invalid ones with the rule they break:
Relax allows only scalar (1-lane) ``int``/``uint`` of 1, 8, 16, 32 or 64 bits,
``float`` of 16, 32 or 64 bits, and ``void`` (a 64-bit, 0-lane handle) meaning
"unknown". ``bool`` is ``uint1``.

TVM later added floating-point formats that the spec predates; Relax accepts
them too (scalar only), each a code of its own with a fixed width: ``bfloat16``
and the OCP/ONNX 8- and 4-bit floats (``FORMATS``). Other widths of ``int``,
``uint`` and ``float`` (``int4``, ``float8``) stay rejected.

Spellings: the dialect prints ``i32``, ``ui8``, ``f16``, ``bool``, ``void``,
``handle``, ``f32x4`` for lanes, and MLIR's builtin names for the newer
formats (``bf16``, ``f8E4M3FN``); TVM's names (``int32``, ``uint8``,
``float16``, ``float32x4``, ``bfloat16``, ``float8_e4m3fn``) are accepted as
input too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import numpy as np

Code = Literal[
    "int",
    "uint",
    "float",
    "handle",
    "bfloat16",
    "float8_e4m3fn",
    "float8_e4m3fnuz",
    "float8_e5m2",
    "float8_e5m2fnuz",
    "float8_e8m0fnu",
    "float4_e2m1fn",
]

_SHORT = {"int": "i", "uint": "ui", "float": "f", "handle": "handle"}
_LONG = {"i": "int", "ui": "uint", "u": "uint", "f": "float", "handle": "handle"}
_PATTERN = re.compile(
    r"(?P<code>int|uint|float|handle|i|ui|u|f)(?P<bits>[0-9]+)?(?:x(?P<lanes>[0-9]+))?"
)
VALID_BITS: dict[str, tuple[int, ...]] = {
    "int": (1, 8, 16, 32, 64),
    "uint": (1, 8, 16, 32, 64),
    "float": (16, 32, 64),
}


@dataclass(frozen=True, slots=True)
class FloatFormat:
    """A floating-point format TVM added after the spec: its MLIR builtin name, width
    and largest finite value (TVM's name, also ml_dtypes', is the code)."""

    mlir_name: str
    bits: int
    largest: float


FORMATS: dict[str, FloatFormat] = {
    "bfloat16": FloatFormat("bf16", 16, 3.3895313892515355e38),
    "float8_e4m3fn": FloatFormat("f8E4M3FN", 8, 448.0),
    "float8_e4m3fnuz": FloatFormat("f8E4M3FNUZ", 8, 240.0),
    "float8_e5m2": FloatFormat("f8E5M2", 8, 57344.0),
    "float8_e5m2fnuz": FloatFormat("f8E5M2FNUZ", 8, 57344.0),
    "float8_e8m0fnu": FloatFormat("f8E8M0FNU", 8, 2.0**127),
    "float4_e2m1fn": FloatFormat("f4E2M1FN", 4, 6.0),
}
"""The extension formats by code: bfloat16 and the 8-/4-bit floats of OCP and ONNX."""

_FORMAT_NAMES = {
    spelling: code for code, fmt in FORMATS.items() for spelling in (code, fmt.mlir_name)
}
_FORMAT_PATTERN = re.compile(r"(?P<name>[A-Za-z0-9_]+?)(?:x(?P<lanes>[0-9]+))?")


@dataclass(frozen=True, slots=True)
class DataType:
    """A TIR data type: ``code``, ``bits`` and ``lanes``."""

    code: Code
    bits: int
    lanes: int = 1

    @staticmethod
    @lru_cache(maxsize=256)
    def parse(text: str) -> DataType | None:
        """Read a data type spelling; None when ``text`` is not one (memoised: every
        annotation spells one)."""
        if text == "bool":
            return BOOL
        if text == "void":
            return VOID
        extended = _FORMAT_PATTERN.fullmatch(text)
        if extended is not None and extended["name"] in _FORMAT_NAMES:
            code = _FORMAT_NAMES[extended["name"]]
            return DataType(code, FORMATS[code].bits, int(extended["lanes"] or 1))  # pyright: ignore
        match = _PATTERN.fullmatch(text)
        if match is None:
            return None
        code: Code = _LONG.get(match["code"], match["code"])  # pyright: ignore
        if match["bits"] is None and code != "handle":
            return None
        bits = int(match["bits"] or 64)
        lanes = int(match["lanes"] or 1)
        return DataType(code, bits, lanes)

    @property
    def is_void(self) -> bool:
        return self == VOID

    @property
    def is_bool(self) -> bool:
        return self == BOOL

    @property
    def is_int(self) -> bool:
        return self.code in ("int", "uint") and not self.is_bool

    @property
    def is_float(self) -> bool:
        """Whether the type is floating point (IEEE ``float`` or an extension format)."""
        return self.code == "float" or self.code in FORMATS

    @property
    def is_extension_float(self) -> bool:
        """Whether the type is one of the formats TVM added after the spec."""
        return self.code in FORMATS

    def problem(self) -> str | None:
        """Why Relax rejects this data type (well-formedness rule 18), if it does."""
        if self.code == "handle":
            if self.bits != 64 or self.lanes != 0:
                return f"handle data type {self} is not allowed; only void (64 bits, 0 lanes)"
            return None
        if self.lanes != 1:
            return f"data type {self} has {self.lanes} lanes; Relax values are scalar (1 lane)"
        if self.code in FORMATS:
            if self.bits != FORMATS[self.code].bits:
                return f"{self.code} data type must have {FORMATS[self.code].bits} bits"
            return None
        if self.bits not in VALID_BITS[self.code]:
            allowed = ", ".join(map(str, VALID_BITS[self.code]))
            return f"{self.code} data type cannot have {self.bits} bits (allowed: {allowed})"
        return None

    def tvm_name(self) -> str:
        """TVM's spelling: ``float32``, ``bool``, ``void``, ``int32x4``."""
        if self.is_bool or self.is_void:
            return str(self)
        return self._spelling(self.code)

    def to_numpy(self) -> np.dtype:
        """The NumPy dtype of tensors with this element type."""
        if self.bits == 1:
            return np.dtype(np.bool_)
        if self.problem() is not None:
            raise ValueError(f"no NumPy dtype for {self}")
        if self.code in FORMATS:
            import ml_dtypes  # only programs using the extension formats need it

            return np.dtype(getattr(ml_dtypes, self.code))
        return np.dtype(f"{self.code}{self.bits}")

    @staticmethod
    def from_numpy(dtype: np.dtype) -> DataType:
        """The data type of a NumPy array's elements."""
        if dtype == np.bool_:
            return BOOL
        if dtype.name in FORMATS:
            return DataType(dtype.name, FORMATS[dtype.name].bits)  # pyright: ignore
        kind = {"i": "int", "u": "uint", "f": "float"}.get(dtype.kind)
        if kind is None:
            raise ValueError(f"NumPy dtype {dtype} has no Relax data type")
        return DataType(kind, dtype.itemsize * 8)  # pyright: ignore

    def __str__(self) -> str:
        if self.is_bool:
            return "bool"
        if self.is_void:
            return "void"
        if self.code in FORMATS:
            return self._spelling(FORMATS[self.code].mlir_name)
        return self._spelling(_SHORT[self.code])

    def _spelling(self, code_text: str) -> str:
        lanes = f"x{self.lanes}" if self.lanes != 1 else ""
        if self.code in FORMATS:
            return f"{code_text}{lanes}"
        bits = "" if self.code == "handle" and self.bits == 64 else str(self.bits)
        return f"{code_text}{bits}{lanes}"


BOOL = DataType("uint", 1)
VOID = DataType("handle", 64, 0)
INT64 = DataType("int", 64)
FLOAT32 = DataType("float", 32)
