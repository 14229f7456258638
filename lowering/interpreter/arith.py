"""arith on NumPy scalars and arrays (elementwise on tensors, as in MLIR).

Integers wrap at their width. Signless integers are stored signed; the operations
that read them unsigned (``divui``, ``cmpi ult``, ``extui``, ``uitofp``, ...) reinterpret
the bits. ``i1`` is ``bool``: ``true`` is 1 unsigned and -1 signed. Integer division
by zero, undefined in MLIR, raises.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
)
from xdsl.interpreter import InterpreterFunctions, register_impls

from ..upstream import RemFOp
from .core import Kernel, KernelTable, LoweredExecutionError
from .values import as_signed_int, as_unsigned, dtype_of, from_int, unsigned_dtype

KERNELS = KernelTable()

Binary = Callable[[Any, Any], Any]


def _result_dtype(op: Any) -> np.dtype[Any]:
    return dtype_of(op.results[0].type)


def _operand_dtype(op: Any) -> np.dtype[Any]:
    return dtype_of(op.operands[0].type)


# --- Constants ------------------------------------------------------------------------


def constant_value(value: Any, type_: Any) -> Any:
    """The run-time value of a constant attribute of type type_."""
    dtype = dtype_of(type_)
    if isinstance(value, DenseIntOrFPElementsAttr):
        storage = np.dtype(value.get_element_type().format) if dtype != np.bool_ else np.int8
        flat = np.frombuffer(value.data.data, storage)
        flat = flat != 0 if dtype == np.bool_ else flat.astype(dtype, copy=False)
        shape = value.get_shape()
        return np.broadcast_to(flat[0], shape) if flat.size == 1 else flat.reshape(shape)
    if isinstance(value, IntegerAttr):
        number = value.value.data
        return np.bool_(number & 1) if dtype == np.bool_ else np.array(number).astype(dtype)[()]
    if isinstance(value, FloatAttr):
        return dtype.type(value.value.data)
    raise LoweredExecutionError(f"constant {value} is not supported")


@KERNELS.kernel(arith.ConstantOp, constant=True)
def _constant(op: arith.ConstantOp) -> Kernel:
    value = constant_value(op.value, op.result.type)
    return lambda: value


# --- Integer arithmetic ---------------------------------------------------------------


def _on_bool(on_ints: Binary, on_bools: Binary) -> Callable[[Any], Kernel]:
    """A factory choosing on_bools for i1 operands."""
    return lambda op: on_bools if _operand_dtype(op) == np.bool_ else on_ints


KERNELS.kernel(arith.AddiOp)(_on_bool(np.add, np.bitwise_xor))
KERNELS.kernel(arith.SubiOp)(_on_bool(np.subtract, np.bitwise_xor))
KERNELS.kernel(arith.MuliOp)(_on_bool(np.multiply, np.bitwise_and))
KERNELS.kernel(arith.AndIOp)(lambda op: np.bitwise_and)
KERNELS.kernel(arith.OrIOp)(lambda op: np.bitwise_or)
KERNELS.kernel(arith.XOrIOp)(lambda op: np.bitwise_xor)


def _signed(function: Binary) -> Callable[[Any], Kernel]:
    """A factory of function on the signed values of its integer operands."""

    def factory(op: Any) -> Kernel:
        dtype = _result_dtype(op)
        if dtype != np.bool_:
            return function
        return lambda x, y: from_int(function(as_signed_int(x), as_signed_int(y)), dtype)

    return factory


def _unsigned(function: Binary) -> Callable[[Any], Kernel]:
    """A factory of function on the unsigned values of its integer operands."""

    def factory(op: Any) -> Kernel:
        dtype = _result_dtype(op)
        if dtype == np.bool_:
            return function
        unsigned = unsigned_dtype(dtype)
        return lambda x, y: function(x.view(unsigned), y.view(unsigned)).view(dtype)

    return factory


def _nonzero(divisor: Any) -> None:
    if not np.all(divisor):
        raise ZeroDivisionError("integer division by zero")


def _floor_div(x: Any, y: Any) -> Any:
    _nonzero(y)
    return np.floor_divide(x, y)


def _trunc_div(x: Any, y: Any) -> Any:
    quotient = _floor_div(x, y)
    return quotient + ((x - quotient * y != 0) & ((x < 0) != (y < 0))).astype(quotient.dtype)


def _ceil_div(x: Any, y: Any) -> Any:
    quotient = _floor_div(x, y)
    return quotient + (x - quotient * y != 0).astype(quotient.dtype)


def _trunc_rem(x: Any, y: Any) -> Any:
    _nonzero(y)
    return np.fmod(x, y)


def _rem(x: Any, y: Any) -> Any:
    _nonzero(y)
    return np.remainder(x, y)


KERNELS.kernel(arith.DivSIOp)(_signed(_trunc_div))
KERNELS.kernel(arith.DivUIOp)(_unsigned(_floor_div))
KERNELS.kernel(arith.FloorDivSIOp)(_signed(_floor_div))
KERNELS.kernel(arith.CeilDivSIOp)(_signed(_ceil_div))
KERNELS.kernel(arith.CeilDivUIOp)(_unsigned(_ceil_div))
KERNELS.kernel(arith.RemSIOp)(_signed(_trunc_rem))
KERNELS.kernel(arith.RemUIOp)(_unsigned(_rem))
KERNELS.kernel(arith.MaxSIOp)(_signed(np.maximum))
KERNELS.kernel(arith.MinSIOp)(_signed(np.minimum))
KERNELS.kernel(arith.MaxUIOp)(_unsigned(np.maximum))
KERNELS.kernel(arith.MinUIOp)(_unsigned(np.minimum))


def _shift(function: Binary) -> Binary:
    """A shift whose amounts at or beyond the width give 0 (MLIR: poison)."""

    def shift(x: Any, amount: Any) -> Any:
        width = x.dtype.itemsize * 8
        return np.where(amount < width, function(x, amount % width), 0).astype(x.dtype)[()]

    return shift


KERNELS.kernel(arith.ShLIOp)(_on_bool(_shift(np.left_shift), lambda x, y: x & ~y))
KERNELS.kernel(arith.ShRSIOp)(_on_bool(_shift(np.right_shift), lambda x, y: x))
KERNELS.kernel(arith.ShRUIOp)(_unsigned(_shift(np.right_shift)))


@KERNELS.kernel(arith.AddUIExtendedOp)
def _addui_extended(op: arith.AddUIExtendedOp) -> Kernel:
    def add(x: Any, y: Any) -> tuple[Any, Any]:
        total = np.add(x, y)
        return total, as_unsigned(total) < as_unsigned(x)

    return add


def _mul_extended(unsigned: bool) -> Callable[[Any], Kernel]:
    """The low and high halves of the double-width product (in Python integers)."""

    def factory(op: Any) -> Kernel:
        dtype = _operand_dtype(op)
        width = dtype.itemsize * 8
        mask = (1 << width) - 1

        def wrap(value: int) -> int:
            value &= mask
            return value - (1 << width) if value >> (width - 1) else value

        halves = np.frompyfunc(lambda value: (wrap(value), wrap(value >> width)), 1, 2)

        def multiply(x: Any, y: Any) -> tuple[Any, Any]:
            if unsigned:
                x, y = as_unsigned(x), as_unsigned(y)
            product = np.asarray(x).astype(object) * np.asarray(y).astype(object)
            low, high = halves(product)
            return np.asarray(low).astype(dtype)[()], np.asarray(high).astype(dtype)[()]

        return multiply

    return factory


KERNELS.kernel(arith.MulUIExtendedOp)(_mul_extended(unsigned=True))
KERNELS.kernel(arith.MulSIExtendedOp)(_mul_extended(unsigned=False))


# --- Floating point -------------------------------------------------------------------

KERNELS.kernel(arith.AddfOp)(lambda op: np.add)
KERNELS.kernel(arith.SubfOp)(lambda op: np.subtract)
KERNELS.kernel(arith.MulfOp)(lambda op: np.multiply)
KERNELS.kernel(arith.DivfOp)(lambda op: np.true_divide)
KERNELS.kernel(RemFOp)(lambda op: np.fmod)
KERNELS.kernel(arith.NegfOp)(lambda op: np.negative)
KERNELS.kernel(arith.MaximumfOp)(lambda op: np.maximum)
KERNELS.kernel(arith.MinimumfOp)(lambda op: np.minimum)
KERNELS.kernel(arith.MaxnumfOp)(lambda op: np.fmax)
KERNELS.kernel(arith.MinnumfOp)(lambda op: np.fmin)


# --- Comparisons and select -----------------------------------------------------------


def _unordered(compare: Binary) -> Binary:
    """compare, or true where an operand is NaN."""
    return lambda x, y: np.logical_not(compare(x, y))


def _constant_predicate(value: bool) -> Binary:
    return lambda x, y: np.full(np.broadcast(x, y).shape, value)[()]


_CMPF: dict[str, Binary] = {
    "false": _constant_predicate(False),
    "oeq": np.equal,
    "ogt": np.greater,
    "oge": np.greater_equal,
    "olt": np.less,
    "ole": np.less_equal,
    "one": lambda x, y: np.less(x, y) | np.greater(x, y),
    "ord": lambda x, y: np.equal(x, x) & np.equal(y, y),
    "ueq": _unordered(lambda x, y: np.less(x, y) | np.greater(x, y)),
    "ugt": _unordered(np.less_equal),
    "uge": _unordered(np.less),
    "ult": _unordered(np.greater_equal),
    "ule": _unordered(np.greater),
    "une": np.not_equal,
    "uno": lambda x, y: np.not_equal(x, x) | np.not_equal(y, y),
    "true": _constant_predicate(True),
}

_CMPI: dict[str, tuple[Binary, str]] = {
    "eq": (np.equal, ""),
    "ne": (np.not_equal, ""),
    "slt": (np.less, "s"),
    "sle": (np.less_equal, "s"),
    "sgt": (np.greater, "s"),
    "sge": (np.greater_equal, "s"),
    "ult": (np.less, "u"),
    "ule": (np.less_equal, "u"),
    "ugt": (np.greater, "u"),
    "uge": (np.greater_equal, "u"),
}


@KERNELS.kernel(arith.CmpfOp)
def _cmpf(op: arith.CmpfOp) -> Kernel:
    return _CMPF[arith.CMPF_COMPARISON_OPERATIONS[op.predicate.value.data]]


@KERNELS.kernel(arith.CmpiOp)
def _cmpi(op: arith.CmpiOp) -> Kernel:
    compare, signedness = _CMPI[arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]]
    if signedness == "s" and _operand_dtype(op) == np.bool_:
        return lambda x, y: compare(as_signed_int(x), as_signed_int(y))
    if signedness == "u":
        return lambda x, y: compare(as_unsigned(x), as_unsigned(y))
    return compare


def _select(condition: Any, true_value: Any, false_value: Any) -> Any:
    if isinstance(condition, np.ndarray) and condition.ndim:
        return np.where(condition, true_value, false_value)
    return true_value if condition else false_value


KERNELS.kernel(arith.SelectOp)(lambda op: _select)


# --- Casts ------------------------------------------------------------------------------


def _cast_to_result(op: Any) -> Kernel:
    """Conversion to the result's dtype (C conversion: truncation, wrapping)."""
    dtype = _result_dtype(op)
    return lambda value: value.astype(dtype)


@KERNELS.kernel(arith.ExtSIOp, arith.SIToFPOp, arith.IndexCastOp)
def _signed_cast(op: Any) -> Kernel:
    dtype, source = _result_dtype(op), _operand_dtype(op)
    if dtype == np.bool_:
        return lambda value: from_int(value, dtype)
    if source == np.bool_:
        return lambda value: as_signed_int(value).astype(dtype)
    return lambda value: value.astype(dtype)


@KERNELS.kernel(arith.ExtUIOp, arith.UIToFPOp)
def _unsigned_cast(op: Any) -> Kernel:
    dtype = _result_dtype(op)
    return lambda value: as_unsigned(value).astype(dtype)


@KERNELS.kernel(arith.TruncIOp)
def _trunci(op: arith.TruncIOp) -> Kernel:
    dtype = _result_dtype(op)
    return lambda value: from_int(value, dtype)


KERNELS.kernel(arith.ExtFOp, arith.TruncFOp, arith.FPToSIOp)(_cast_to_result)


@KERNELS.kernel(arith.FPToUIOp)
def _fptoui(op: arith.FPToUIOp) -> Kernel:
    dtype = _result_dtype(op)
    unsigned = unsigned_dtype(dtype)
    return lambda value: value.astype(unsigned).astype(dtype)


@KERNELS.kernel(arith.BitcastOp)
def _bitcast(op: arith.BitcastOp) -> Kernel:
    dtype = _result_dtype(op)
    return lambda value: value.view(dtype)


@register_impls
@KERNELS.implement
class ArithFunctions(InterpreterFunctions):
    """arith on NumPy scalars and arrays, for xDSL's interpreter."""
