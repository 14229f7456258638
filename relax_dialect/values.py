"""Run-time values of Relax (the spec's "Values in Relax").

=================  ======================================================
value              representation
=================  ======================================================
tensor             ``numpy.ndarray`` (0-d for scalars), any supported dtype
tuple              ``tuple`` of values
shape              ``ShapeValue`` (immutable dimensions)
prim value         ``PrimValue`` (a Python scalar and its data type)
string             ``str``
data type          ``DataType``
closure            ``Closure`` (function, captured values and symbolic
                   variables, and its run-time StructInfo)
packed function    ``PackedFunc``
operator           ``OperatorValue`` (a ``relax.op_ref``)
null object        ``NULL``
other objects      any other Python object, passed through untouched
=================  ======================================================

The interpreter and the operator kernels (``relax_dialect.numerics``) both use them;
``to_value``, ``to_array`` and ``named_value`` convert NumPy inputs and outputs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .dtype import DataType
from .ops.references import EXTERN_FUNC_TYPE
from .types import FuncType, PrimType, ShapeType, StructInfoType, TensorType, TupleType

if TYPE_CHECKING:
    from .interpreter.machine import CompiledFunction


@dataclass(frozen=True)
class ShapeValue:
    """An immutable tuple of dimensions, the value of a ``ShapeExpr``."""

    dims: tuple[int, ...]

    def __str__(self) -> str:
        return f"shape({', '.join(map(str, self.dims))})"


@dataclass(frozen=True)
class PrimValue:
    """An immutable scalar with its data type."""

    value: int | float | bool
    dtype: DataType

    def __str__(self) -> str:
        return f"{self.value}:{self.dtype}"


@dataclass
class Closure:
    """A function value: the function, the outer values and symbolic variables it
    captured when created, and its run-time StructInfo (for ``match_cast``)."""

    function: CompiledFunction
    captured: list[Any]
    symbols: dict[str, int]
    struct_info: FuncType
    bound: tuple[Any, ...] = ()
    """Leading arguments bound by ``relax.make_closure``."""

    def __str__(self) -> str:
        return f"closure {self.function.name}"


@dataclass(frozen=True)
class PackedFunc:
    """An external function, called with Relax values and returning one."""

    name: str
    implementation: Callable[..., Any]
    struct_info: FuncType = field(default_factory=lambda: EXTERN_FUNC_TYPE)

    def __str__(self) -> str:
        return f"packed function {self.name!r}"


@dataclass(frozen=True)
class OperatorValue:
    """A Relax operator used as a value (``relax.op_ref``); only calls use it."""

    name: str

    def __str__(self) -> str:
        return f"operator {self.name}"


class NullObject:
    """The null object returned by ``null_value()``."""

    def __repr__(self) -> str:
        return "null"


NULL = NullObject()


def describe(value: object) -> str:
    """A short description of a value for diagnostics and summaries."""
    if isinstance(value, np.ndarray):
        return f"tensor of shape {list(value.shape)} and dtype {DataType.from_numpy(value.dtype)}"
    if isinstance(value, tuple):
        return f"tuple of {len(value)} values"
    if isinstance(value, ShapeValue | PrimValue | Closure | PackedFunc | OperatorValue):
        return str(value)
    if isinstance(value, str):
        return f"string {value!r}"
    if isinstance(value, DataType):
        return f"data type {value}"
    return repr(value)


def out_of_memory(error: MemoryError) -> str:
    """What a failed allocation asked for: ``out of memory: cannot allocate 4.00 TiB
    for a tensor of shape [1048576, 1048576] and dtype f32`` (NumPy's error says the
    shape and dtype; another says only that memory ran out)."""
    shape, dtype = getattr(error, "shape", None), getattr(error, "dtype", None)
    if shape is None or dtype is None:
        return "out of memory"
    size = float(np.prod(shape, dtype=np.float64)) * np.dtype(dtype).itemsize
    unit = 0
    while size >= 1024 and unit < len(_BYTE_UNITS) - 1:
        size, unit = size / 1024, unit + 1
    tensor = f"tensor of shape {list(shape)} and dtype {DataType.from_numpy(np.dtype(dtype))}"
    return f"out of memory: cannot allocate {size:.2f} {_BYTE_UNITS[unit]} for a {tensor}"


_BYTE_UNITS = ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB")


def flatten(value: object) -> list[object]:
    """The leaves of nested tuples, depth-first."""
    if isinstance(value, tuple):
        return [leaf for item in value for leaf in flatten(item)]
    return [value]


def named_value(values: Mapping[str, object], key: str, sinfo: StructInfoType) -> object | None:
    """The input ``key`` names (``relax-run --inputs``, ``relax-bind-params``): the
    value of that name; for a tuple, else its fields ``key.0``, ``key.1``...
    (recursively); None when it is not there."""
    if key in values:
        return values[key]
    if isinstance(sinfo, TupleType):
        fields = [named_value(values, f"{key}.{i}", t) for i, t in enumerate(sinfo.types)]
        if all(f is not None for f in fields):
            return tuple(fields)
    return None


def to_value(data: object, sinfo: StructInfoType) -> object:
    """A Python/NumPy input as the run-time value a parameter of type ``sinfo``
    expects: an integer array for a shape, a scalar for a prim value, a tuple
    for a tuple; arrays stay tensors (an archive's raw bytes, ``.npz`` having no
    name for the extension float formats, as the format the parameter declares;
    ml_dtypes' sub-byte integers widened to the 8-bit integers declared)."""
    if isinstance(sinfo, TensorType) and isinstance(data, np.ndarray) and data.dtype.kind == "V":
        return _as_declared_format(data, sinfo.data_type)
    if isinstance(sinfo, ShapeType) and not isinstance(data, ShapeValue):
        return ShapeValue(tuple(int(d) for d in np.asarray(data).reshape(-1)))
    if isinstance(sinfo, PrimType) and not isinstance(data, PrimValue):
        dtype = sinfo.data_type
        scalar = np.asarray(data, dtype=dtype.to_numpy()).item()
        return PrimValue(scalar, dtype)
    if isinstance(sinfo, TupleType) and isinstance(data, Sequence) and not isinstance(data, str):
        return tuple(to_value(d, t) for d, t in zip(data, sinfo.types, strict=True))
    if isinstance(data, np.generic | int | float | bool) and not isinstance(data, np.ndarray):
        return np.asarray(data)
    return data


SUB_BYTE_INTEGERS = {"int4": "int", "int2": "int", "uint4": "uint", "uint2": "uint"}
"""ml_dtypes' integer types narrower than a byte, by the code of their 8-bit holder."""


def _as_declared_format(data: np.ndarray, dtype: DataType) -> np.ndarray:
    """Raw elements of an extension float format read back as that format, when
    their width is the format's storage width (ml_dtypes stores 4-bit formats in a
    byte); ml_dtypes' ``int4``/``uint4``/``int2``/``uint2`` as ``int8``/``uint8``."""
    holder = SUB_BYTE_INTEGERS.get(data.dtype.name)
    if holder is not None and dtype == DataType(holder, 8):  # pyright: ignore[reportArgumentType]
        return data.astype(dtype.to_numpy())
    if not dtype.is_extension_float or data.dtype.names is not None:
        return data
    target = dtype.to_numpy()
    return data.view(target) if data.dtype.itemsize == target.itemsize else data


def to_array(value: object) -> np.ndarray | None:
    """A run-time value as an array to save (None for closures and objects)."""
    if isinstance(value, np.ndarray):
        return value
    if isinstance(value, ShapeValue):
        return np.array(value.dims, dtype=np.int64)
    if isinstance(value, PrimValue):
        return np.array(value.value, dtype=value.dtype.to_numpy())
    if isinstance(value, str):
        return np.array(value)
    if isinstance(value, DataType):
        return np.array(str(value))
    return None
