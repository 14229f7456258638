"""Attributes of the dialect: data types, symbolic expressions, shapes, tensor data."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from functools import cached_property, lru_cache

import numpy as np
from xdsl.dialects.builtin import IntAttr
from xdsl.ir import Data
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind

from .dtype import DataType
from .prim_expr import PrimExpr, as_expr, float_text, to_text
from .resources import RESOURCE_BYTES, blob_bytes, storage, store, wait_for_blob
from .syntax import parse_dtype, parse_prim_expr, parse_shape, print_shape


@lru_cache(maxsize=1 << 14)
def int_attr(value: int) -> IntAttr:
    """``IntAttr(value)``, built once: ranks, flags and the line and column numbers
    of locations repeat throughout a program."""
    return IntAttr(value)


@irdl_attr_definition
class DataTypeAttr(Data[DataType]):
    """A scalar data type, ``#relax.dtype<f32>``."""

    name = "relax.dtype"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> DataType:
        with parser.in_angle_brackets():
            return parse_dtype(parser)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data}>")


@irdl_attr_definition
class PrimExprAttr(Data[PrimExpr]):
    """A symbolic scalar expression, ``#relax.expr<n + 1>``."""

    name = "relax.expr"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> PrimExpr:
        with parser.in_angle_brackets():
            return parse_prim_expr(parser)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{to_text(self.data)}>")


@irdl_attr_definition
class ShapeAttr(Data[tuple[PrimExpr, ...]]):
    """A list of symbolic dimensions, ``#relax.dims<[n, 4]>``."""

    name = "relax.dims"

    @staticmethod
    def from_dims(dims: Sequence[PrimExpr | int | str]) -> ShapeAttr:
        return _shape_attr(tuple(as_expr(d) for d in dims))

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> tuple[PrimExpr, ...]:
        with parser.in_angle_brackets():
            return parse_shape(parser)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string("<")
        print_shape(printer, self.data)
        printer.print_string(">")

    def verify(self) -> None:
        for dim in self.data:
            if dim.kind != "int":
                raise VerifyException(f"shape dimension '{dim}' is not an integer")


@lru_cache(maxsize=4096)
def _shape_attr(dims: tuple[PrimExpr, ...]) -> ShapeAttr:
    """Built and checked once per shape: a program repeats its few shapes in
    every type that inference builds."""
    return ShapeAttr(dims)


class NDArray:
    """An immutable NumPy array with value semantics (equality and hashing)."""

    HASHED = 1024
    """How many evenly spaced elements the hash reads (equality reads them all)."""

    def __init__(self, array: np.ndarray):
        self.array = np.array(array, copy=True)
        self.array.flags.writeable = False

    @classmethod
    def adopt(cls, array: np.ndarray) -> NDArray:
        """The NDArray of an array nothing else will write to, made read-only
        rather than copied (an importer's weights)."""
        adopted = cls.__new__(cls)
        adopted.array = array
        array.flags.writeable = False
        return adopted

    @cached_property
    def _key(self) -> tuple[str, tuple[int, ...], bytes]:
        return (self.array.dtype.str, self.array.shape, self.array.tobytes())

    @cached_property
    def _hash(self) -> int:
        flat = self.array.reshape(-1)
        sample = flat[:: max(1, flat.size // self.HASHED)]
        return hash((self.array.dtype.str, self.array.shape, sample.tobytes()))

    @property
    def shape(self) -> tuple[int, ...]:
        return self.array.shape

    @property
    def dtype(self) -> np.dtype:
        return self.array.dtype

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NDArray) and self._key == other._key

    def __hash__(self) -> int:
        return self._hash


class ResourceData(NDArray):
    """The data of a ``dense_resource`` blob read from its handle: shape and element
    type known at once, the array once the input's blobs are read."""

    def __init__(self, key: str, shape: tuple[int, ...], dtype: np.dtype):
        self.key = key
        self._shape = shape
        self._dtype = dtype
        wait_for_blob(self)

    @property
    def shape(self) -> tuple[int, ...]:
        return self._shape

    @property
    def dtype(self) -> np.dtype:
        return self._dtype

    def load(self) -> np.ndarray:
        return self.array

    @cached_property
    def array(self) -> np.ndarray:  # pyright: ignore[reportIncompatibleVariableOverride]
        raw = blob_bytes(self.key)
        expected = int(np.prod(self._shape, dtype=np.int64)) * self._dtype.itemsize
        if len(raw) != expected:
            raise ValueError(f"resource '{self.key}' holds {len(raw)} bytes, expected {expected}")
        array = np.frombuffer(raw, self._dtype.newbyteorder("<")).astype(self._dtype)
        array = array.reshape(self._shape)
        array.flags.writeable = False
        return array


_HEX_THRESHOLD = 16

ELIDED = "dense_resource<__elided__>"
"""The text of elided elements, as MLIR prints them (not read back)."""


@irdl_attr_definition
class DenseAttr(Data[NDArray]):
    """Constant tensor data: ``#relax.dense<[2, 2], i32, [1, 2, 3, 4]>``.

    The element list is flat (row-major); a single element is a splat; large
    arrays print as a hexadecimal string of their little-endian bytes.
    """

    name = "relax.dense"

    @staticmethod
    def from_array(array: np.ndarray) -> DenseAttr:
        return DenseAttr(NDArray(array))

    @property
    def array(self) -> np.ndarray:
        return self.data.array

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> NDArray:
        with parser.in_angle_brackets():
            return parse_dense_body(parser)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string("<")
        print_dense_body(printer, self.array)
        printer.print_string(">")


def parse_dense_body(parser: AttrParser) -> NDArray:
    """``[dims], dtype, (value | [values] | "0x..." | dense_resource<key>)``."""
    start = parser.pos
    dims = parse_shape(parser)
    if not all(d.kind == "int" and hasattr(d, "value") for d in dims):
        parser.raise_error("constant data needs a static shape", start, parser.pos)
    shape = tuple(d.value for d in dims)  # pyright: ignore[reportAttributeAccessIssue]
    parser.parse_punctuation(",")
    dtype = parse_dtype(parser)
    try:
        np_dtype = dtype.to_numpy()
    except ValueError as error:
        parser.raise_error(str(error), start, parser.pos)
    parser.parse_punctuation(",")
    count = int(np.prod(shape, dtype=np.int64))
    values_start = parser.pos
    if parser.parse_optional_keyword("dense_resource") is not None:
        return _parse_resource(parser, shape, np_dtype)
    if (hex_text := parser.parse_optional_str_literal()) is not None:
        try:
            raw = bytes.fromhex(hex_text.removeprefix("0x"))
        except ValueError:
            parser.raise_error("expected hexadecimal bytes after '0x'", values_start, parser.pos)
        if len(raw) != count * np_dtype.itemsize:
            parser.raise_error(
                f"expected {count * np_dtype.itemsize} bytes of data, got {len(raw)}",
                values_start,
                parser.pos,
            )
        array = np.frombuffer(raw, dtype=np_dtype.newbyteorder("<")).astype(np_dtype)
        return NDArray(array.reshape(shape))
    if parser._current_token.kind != MLIRTokenKind.L_SQUARE:  # pyright: ignore
        splat = _parse_element(parser)
        try:
            return NDArray(np.full(shape, splat, dtype=np_dtype))
        except (MemoryError, ValueError, OverflowError) as error:
            parser.raise_error(f"cannot build constant data: {error}", values_start, parser.pos)
    values = parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, lambda: _parse_element(parser)
    )
    if len(values) != count:
        parser.raise_error(
            f"expected {count} elements for shape {list(shape)}, got {len(values)}",
            values_start,
            parser.pos,
        )
    if not dtype.is_float and any(isinstance(v, float) for v in values):
        parser.raise_error(f"{dtype} elements must be integers", values_start, parser.pos)
    try:
        array = np.array(values, dtype=np_dtype)
    except OverflowError as error:
        parser.raise_error(f"element out of range for {dtype}: {error}", values_start, parser.pos)
    return NDArray(array.reshape(shape))


def _parse_resource(parser: AttrParser, shape: tuple[int, ...], dtype: np.dtype) -> NDArray:
    """``<key>``: data whose blob the input gives after the module."""
    with parser.in_angle_brackets():
        key = parser._parse_dialect_resource_handle("builtin", storage())  # pyright: ignore
    return ResourceData(key, shape, dtype)


def parse_optional_scalar(parser: AttrParser) -> int | float | bool | None:
    """``true``/``false``, a number, or ``inf``/``-inf``/``nan`` as ``float_text``
    prints them."""
    if (flag := parser.parse_optional_boolean()) is not None:
        return flag
    for word, value in (("inf", np.inf), ("nan", np.nan)):
        if parser.parse_optional_keyword(word) is not None:
            return value
    if parser.parse_optional_punctuation("-") is not None:
        if parser.parse_optional_keyword("inf") is not None:
            return -np.inf
        return -parser.parse_number()
    return parser.parse_optional_number()


def _parse_element(parser: AttrParser) -> int | float | bool:
    value = parse_optional_scalar(parser)
    return parser.parse_number() if value is None else value


def print_dense_body(printer: Printer, array: np.ndarray, hint: str = "blob") -> None:
    """``[dims], dtype, values``; data of more than ``RESOURCE_BYTES`` that is not
    a splat as a ``dense_resource`` blob named after ``hint`` (as ``sha256<digest>`` of its
    bytes for a printer with ``digest_data``); more elements than the printer's
    ``elide_elements_if_larger`` (when it has one) as ``dense_resource<__elided__>``, as MLIR
    elides them (neither read back)."""
    flat = array.reshape(-1)
    limit = getattr(printer, "elide_elements_if_larger", None)
    dtype = DataType.from_numpy(array.dtype)
    if limit is not None and flat.size > limit:
        printer.print_string(f"{_dims_text(array)}, {dtype}, {ELIDED}")
        return
    if array.nbytes <= RESOURCE_BYTES or _is_splat_value(flat):
        printer.print_string(dense_body_text(array))
        return
    if getattr(printer, "digest_data", False):
        data = np.ascontiguousarray(array, array.dtype.newbyteorder("<"))
        digest = hashlib.sha256(data.reshape(-1).view(np.uint8)).hexdigest()
        printer.print_string(f"{_dims_text(array)}, {dtype}, sha256<{digest}>")
        return
    key = store(array, _resource_key(hint))
    printer.print_string(f"{_dims_text(array)}, {dtype}, dense_resource<")
    printer.print_resource_handle("builtin", key)
    printer.print_string(">")


_RESOURCE_KEY = re.compile(r"[^A-Za-z0-9_$.]")
"""What a resource handle (an MLIR bare identifier) cannot hold."""


def _resource_key(hint: str) -> str:
    """A value's name as a resource handle: a letter or ``_`` first, then letters,
    digits, ``_``, ``$`` and ``.``."""
    key = _RESOURCE_KEY.sub("_", hint)
    return key if key[:1].isalpha() or key[:1] == "_" else f"_{key}"


def _dims_text(array: np.ndarray) -> str:
    return "[" + ", ".join(str(d) for d in array.shape) + "]"


def _is_splat_value(flat: np.ndarray) -> bool:
    """Whether the data prints as one value (every element the first, not NaN)."""
    return bool(flat.size) and _is_splat(flat) and not np.isnan(flat[0:1]).any()


def dense_body_text(array: np.ndarray) -> str:
    dtype = DataType.from_numpy(array.dtype)
    flat = array.reshape(-1)
    if _is_splat_value(flat):
        values = _element_text(flat[0])
    elif flat.size <= _HEX_THRESHOLD:
        values = "[" + ", ".join(_element_text(v) for v in flat) + "]"
    else:
        values = '"0x' + flat.astype(array.dtype.newbyteorder("<")).tobytes().hex().upper() + '"'
    return f"{_dims_text(array)}, {dtype}, {values}"


def _is_splat(flat: np.ndarray) -> bool:
    """Whether every element is the first one bit for bit (``-0.0`` is not ``0.0``)."""
    rows = flat.view(np.uint8).reshape(flat.size, -1)
    return bool(np.all(rows == rows[0]))


def _element_text(value: np.generic) -> str:
    if isinstance(value, np.bool_):
        return "true" if value else "false"
    if isinstance(value, np.floating):
        return float_text(float(value))
    return str(int(value))  # pyright: ignore[reportArgumentType]
