"""Values across the C interface of compiled MLIR functions (`_mlir_ciface_<name>`).

A tensor crosses as a pointer to a ranked memref descriptor
`{allocated, aligned, offset, sizes[rank], strides[rank]}` (strides in elements); index and
`iN`/`fN` scalars cross by value. A function's results come back in one struct, in order: a
descriptor per tensor, the value of each scalar. Result buffers are allocated by the callee
with `malloc` and owned by the caller (the buffer deallocation pipeline clones any result that
would alias an argument or a constant), so they are copied into NumPy arrays and their
`allocated` pointers freed.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    Float16Type,
    Float32Type,
    Float64Type,
    FunctionType,
    IndexType,
    IntegerType,
    TensorType,
)
from xdsl.ir import Attribute

from relax_dialect.builtin_types import FORMAT_CODES
from relax_dialect.dtype import FORMATS, DataType

_FLOATS: dict[type, str] = {Float16Type: "float16", Float32Type: "float32", Float64Type: "float64"}
_INTEGERS = {1: "bool", 8: "int8", 16: "int16", 32: "int32", 64: "int64"}
# f16 crosses as its bits; bool is read as a byte and masked (LLVM only defines bit 0 of an i1)
_CTYPES_STORAGE: dict[str, type[Any]] = {
    "bool": ctypes.c_uint8,
    "int8": ctypes.c_int8,
    "int16": ctypes.c_int16,
    "int32": ctypes.c_int32,
    "int64": ctypes.c_int64,
    "float16": ctypes.c_uint16,
    "float32": ctypes.c_float,
    "float64": ctypes.c_double,
}
# Pointer a lowered `memref.get_global` carries as its allocated pointer: never freed.
_GLOBAL_ALLOCATED = 0xDEADBEEF


class UnsupportedType(ValueError):
    """A function type that cannot cross the C interface."""


@dataclass(frozen=True)
class TensorSpec:
    """A tensor: NumPy dtype name and shape (`None` for a dynamic dimension)."""

    dtype: str
    shape: tuple[int | None, ...]

    def describe(self) -> str:
        dims = "x".join("?" if d is None else str(d) for d in self.shape)
        return f"tensor<{dims + 'x' if dims else ''}{self.dtype}>"


@dataclass(frozen=True)
class ScalarSpec:
    """An index or `iN`/`fN` scalar, by NumPy dtype name (index is `int64`)."""

    dtype: str

    def describe(self) -> str:
        return self.dtype


Spec = TensorSpec | ScalarSpec


def element_dtype(element: Attribute) -> str:
    """NumPy dtype name of an MLIR element type (signless integers map to signed dtypes)."""
    if isinstance(element, IndexType):
        return "int64"
    if isinstance(element, IntegerType) and element.width.data in _INTEGERS:
        return _INTEGERS[element.width.data]
    if type(element) in _FLOATS:
        return _FLOATS[type(element)]
    if type(element) in FORMAT_CODES:  # ml_dtypes' type (its import names it to NumPy)
        code = FORMAT_CODES[type(element)]
        return DataType(code, FORMATS[code].bits).to_numpy().name  # pyright: ignore
    raise UnsupportedType(f"element type {element} cannot cross the C interface")


def spec_of(type_: Attribute) -> Spec:
    """The spec of one function argument or result type."""
    if isinstance(type_, TensorType):
        shape = tuple(None if d == DYNAMIC_INDEX else d for d in type_.get_shape())
        return TensorSpec(element_dtype(type_.element_type), shape)
    if isinstance(type_, IndexType | IntegerType) or type(type_) in _FLOATS:
        return ScalarSpec(element_dtype(type_))
    raise UnsupportedType(f"type {type_} cannot cross the C interface")


@dataclass(frozen=True)
class Signature:
    """The flattened argument and result specs of one public `func.func`."""

    name: str
    inputs: tuple[Spec, ...]
    results: tuple[Spec, ...]

    @staticmethod
    def of(name: str, function_type: FunctionType) -> Signature:
        return Signature(
            name,
            tuple(spec_of(t) for t in function_type.inputs.data),
            tuple(spec_of(t) for t in function_type.outputs.data),
        )

    def to_json(self) -> dict[str, Any]:
        def encode(spec: Spec) -> dict[str, Any]:
            if isinstance(spec, TensorSpec):
                return {"dtype": spec.dtype, "shape": list(spec.shape)}
            return {"dtype": spec.dtype}

        return {
            "name": self.name,
            "inputs": [encode(s) for s in self.inputs],
            "results": [encode(s) for s in self.results],
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> Signature:
        def decode(item: dict[str, Any]) -> Spec:
            if "shape" in item:
                return TensorSpec(item["dtype"], tuple(item["shape"]))
            return ScalarSpec(item["dtype"])

        return Signature(
            data["name"],
            tuple(decode(i) for i in data["inputs"]),
            tuple(decode(r) for r in data["results"]),
        )

    def returns_struct(self) -> bool:
        """Whether `_mlir_ciface_<name>` returns through a pointer passed first."""
        return len(self.results) > 1 or any(isinstance(r, TensorSpec) for r in self.results)


def _words(spec: Spec) -> int:
    """Size in 8-byte words of an argument cell: a descriptor, or one scalar."""
    return 3 + 2 * len(spec.shape) if isinstance(spec, TensorSpec) else 1


def _field(spec: Spec) -> type[Any]:
    if isinstance(spec, TensorSpec):
        return ctypes.c_int64 * _words(spec)
    return _CTYPES_STORAGE[spec.dtype]


class CallFrame:
    """Memory layout of one signature's calls: argument cells and the results struct.

    Descriptors are written and read as int64 words
    `[allocated, aligned, offset, sizes..., strides...]`; the results struct has C's (and
    LLVM's) natural layout, computed once with ctypes.
    """

    def __init__(self, signature: Signature):
        self.signature = signature
        self.arg_offsets: list[int] = []
        words = 0
        for spec in signature.inputs:
            self.arg_offsets.append(words)
            words += _words(spec)
        self.arg_words = max(words, 1)
        fields = [(f"r{i}", _field(s)) for i, s in enumerate(signature.results)]
        struct = type("Results", (ctypes.Structure,), {"_fields_": fields})
        self.result_offsets = [getattr(struct, name).offset for name, _ in fields]
        self.result_words = max(1, -(-ctypes.sizeof(struct) // 8))

    def arguments(self, values: Sequence[Any]) -> Arguments:
        return Arguments(self, values)

    def results(self) -> ctypes.Array:
        return (ctypes.c_int64 * self.result_words)()

    def take_results(self, results: ctypes.Array, arguments: Arguments) -> list[Any]:
        """Copy the results out as NumPy values and free the callee's result buffers."""
        values: list[Any] = []
        owned: set[int] = set()
        base = ctypes.addressof(results)
        for spec, offset in zip(self.signature.results, self.result_offsets, strict=True):
            if isinstance(spec, TensorSpec):
                word, rank = offset // 8, len(spec.shape)
                descriptor = results[word : word + 3 + 2 * rank]
                values.append(_tensor_result(spec, descriptor))
                owned.add(descriptor[0])
            else:
                raw = _CTYPES_STORAGE[spec.dtype].from_address(base + offset).value
                values.append(_scalar_result(spec, raw))
        for pointer in owned - arguments.data - {0, _GLOBAL_ALLOCATED}:
            _free(pointer)
        return values


def _tensor_argument(spec: TensorSpec, value: Any, position: int) -> np.ndarray:
    array = np.asarray(value)
    expected = np.dtype(spec.dtype)
    if array.dtype != expected:
        same_width_int = array.dtype.kind in "iu" and expected.kind == "i"
        if same_width_int and array.dtype.itemsize == expected.itemsize:
            array = array.view(expected)
        else:
            raise TypeError(f"argument {position}: expected {spec.describe()}, got {array.dtype}")
    if array.ndim != len(spec.shape) or any(
        d is not None and d != n for d, n in zip(spec.shape, array.shape, strict=True)
    ):
        raise ValueError(
            f"argument {position}: expected {spec.describe()}, got shape {list(array.shape)}"
        )
    # np.ascontiguousarray would turn a 0-d array into a 1-d one
    return array if array.flags.c_contiguous else np.ascontiguousarray(array)


def _scalar_argument(spec: ScalarSpec, value: Any) -> Any:
    if spec.dtype == "float16":
        return int(np.float16(value).view(np.uint16))
    if spec.dtype.startswith("float"):
        return float(value)
    return int(value)


class Arguments:
    """The `void *args[]` array of one call; keeps the cells and NumPy arrays alive."""

    def __init__(self, frame: CallFrame, values: Sequence[Any]):
        signature = frame.signature
        if len(values) != len(signature.inputs):
            raise TypeError(
                f"@{signature.name} takes {len(signature.inputs)} arguments, got {len(values)}"
            )
        self.cells = cells = (ctypes.c_int64 * frame.arg_words)()
        base = ctypes.addressof(cells)
        self.arrays: list[np.ndarray] = []
        self.data: set[int] = set()
        for position, (spec, offset, value) in enumerate(
            zip(signature.inputs, frame.arg_offsets, values, strict=True)
        ):
            if isinstance(spec, TensorSpec):
                array = _tensor_argument(spec, value, position)
                self.arrays.append(array)
                data = array.ctypes.data
                self.data.add(data)
                rank, itemsize = array.ndim, array.itemsize
                cells[offset] = cells[offset + 1] = data
                cells[offset + 3 : offset + 3 + rank] = array.shape
                cells[offset + 3 + rank : offset + 3 + 2 * rank] = [
                    s // itemsize for s in array.strides
                ]
            else:
                storage = _CTYPES_STORAGE[spec.dtype].from_address(base + 8 * offset)
                storage.value = _scalar_argument(spec, value)
        self.pointers = (ctypes.c_void_p * max(len(values), 1))(
            *(base + 8 * offset for offset in frame.arg_offsets)
        )


class _Borrowed:
    """Exposes callee memory to NumPy (`__array_interface__`) for one copy."""

    def __init__(self, address: int, shape: list[int], strides: list[int], typestr: str):
        self.__array_interface__ = {
            "data": (address, True),
            "shape": tuple(shape),
            "strides": tuple(strides),
            "typestr": typestr,
            "version": 3,
        }


def _tensor_result(spec: TensorSpec, descriptor: list[int]) -> np.ndarray:
    dtype = np.dtype(spec.dtype)
    rank = len(spec.shape)
    sizes = descriptor[3 : 3 + rank]
    if 0 in sizes:
        return np.empty(sizes, dtype)
    strides = [s * dtype.itemsize for s in descriptor[3 + rank :]]
    address = descriptor[1] + descriptor[2] * dtype.itemsize
    typestr = "|u1" if spec.dtype == "bool" else dtype.str
    copy = np.array(_Borrowed(address, sizes, strides, typestr), copy=True, order="C")
    if dtype.kind == "V":  # an extension float format, read as raw bytes
        return copy.view(dtype)
    return (copy & 1).view(np.bool_) if spec.dtype == "bool" else copy


def _scalar_result(spec: ScalarSpec, raw: Any) -> Any:
    if spec.dtype == "float16":
        return np.uint16(raw).view(np.float16)
    if spec.dtype == "bool":
        return np.bool_(raw & 1)
    return np.dtype(spec.dtype).type(raw)


_free = ctypes.CDLL(None).free
_free.argtypes = [ctypes.c_void_p]
_free.restype = None
