"""Kernels of the element-wise binary operators, with TVM's numerics.

As in TVM's generated code, the operands are first converted to a common data
type (TIR's ``BinaryOpMatchTypes``, which differs from NumPy's promotion), then
combined; a prim value acts as a tensor of shape ``[1]``. An operator applied
to data types TVM cannot compute (``power`` on integers, ``logical_and`` on
floats, ``add`` on two ``bool`` tensors...) fails at run time, as compiling it
with TVM does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..dtype import DataType
from ..ops import binary as ops
from ..ops.operator import OperatorOp
from ..values import PrimValue
from . import evaluates
from .arithmetic import truncating_divide
from .common import Kernel, as_array, result_form

Compute = Callable[[np.ndarray, np.ndarray], np.ndarray]

KIND_NAMES = {"b": "bool", "i": "int", "u": "uint", "f": "float"}


@dataclass(frozen=True)
class Numerics:
    """How TVM computes an operator on operands of one (matched) data type."""

    compute: Compute
    kinds: str
    """The NumPy dtype kinds (``b``, ``i``, ``u``, ``f``) TVM computes it on."""
    check_each: bool = False
    """Whether each operand must have one of ``kinds`` (TIR checks them before
    converting), rather than only their common data type."""


def tvm_common_dtype(lhs: np.dtype, rhs: np.dtype) -> np.dtype:
    """TIR's ``BinaryOpMatchTypes``: a float beats an integer, a wider type a
    narrower one, an integer beats ``bool``, unsigned beats signed of equal width."""
    return max(lhs, rhs, key=lambda d: (d.kind == "f", d.kind != "b", d.itemsize, d.kind == "u"))


def _floor_divide(x1: np.ndarray, x2: np.ndarray) -> np.ndarray:
    if x1.dtype.kind == "f":
        return np.floor(x1 / x2)
    return np.floor_divide(x1, x2)


def _floor_mod(x1: np.ndarray, x2: np.ndarray) -> np.ndarray:
    if x1.dtype.kind == "f":
        return x1 - np.floor(x1 / x2) * x2
    return np.mod(x1, x2)


def _log_add_exp(x1: np.ndarray, x2: np.ndarray) -> np.ndarray:
    return np.log(np.exp(x1) + np.exp(x2))


def _maximum(x1: np.ndarray, x2: np.ndarray) -> np.ndarray:
    return np.where(x1 > x2, x1, x2)


def _minimum(x1: np.ndarray, x2: np.ndarray) -> np.ndarray:
    return np.where(x1 < x2, x1, x2)


def _ordered_not_equal(x1: np.ndarray, x2: np.ndarray) -> np.ndarray:
    return np.less(x1, x2) | np.greater(x1, x2)


NUMBERS, FLOATS, ALL = "iuf", "f", "biuf"

NUMERICS: dict[type[ops.BinaryBroadcastOp], Numerics] = {
    ops.AddOp: Numerics(np.add, NUMBERS),
    ops.SubtractOp: Numerics(np.subtract, NUMBERS),
    ops.MultiplyOp: Numerics(np.multiply, NUMBERS),
    ops.DivideOp: Numerics(truncating_divide, NUMBERS),
    ops.FloorDivideOp: Numerics(_floor_divide, NUMBERS),
    ops.ModOp: Numerics(np.fmod, NUMBERS),
    ops.FloorModOp: Numerics(_floor_mod, NUMBERS),
    ops.PowerOp: Numerics(np.power, FLOATS),
    ops.MaximumOp: Numerics(_maximum, ALL),
    ops.MinimumOp: Numerics(_minimum, ALL),
    ops.Atan2Op: Numerics(np.arctan2, FLOATS, check_each=True),
    ops.LogAddExpOp: Numerics(_log_add_exp, FLOATS, check_each=True),
    ops.EqualOp: Numerics(np.equal, ALL),
    ops.NotEqualOp: Numerics(_ordered_not_equal, ALL),
    ops.LessOp: Numerics(np.less, ALL),
    ops.LessEqualOp: Numerics(np.less_equal, ALL),
    ops.GreaterOp: Numerics(np.greater, ALL),
    ops.GreaterEqualOp: Numerics(np.greater_equal, ALL),
    ops.LogicalAndOp: Numerics(np.logical_and, "b", check_each=True),
    ops.LogicalOrOp: Numerics(np.logical_or, "b", check_each=True),
    ops.LogicalXorOp: Numerics(np.bitwise_xor, "biu", check_each=True),
    ops.BitwiseAndOp: Numerics(np.bitwise_and, "biu", check_each=True),
    ops.BitwiseOrOp: Numerics(np.bitwise_or, "biu", check_each=True),
    ops.BitwiseXorOp: Numerics(np.bitwise_xor, "biu", check_each=True),
    ops.LeftShiftOp: Numerics(np.left_shift, "iu", check_each=True),
    ops.RightShiftOp: Numerics(np.right_shift, "iu", check_each=True),
}


def _operand(value: object) -> np.ndarray:
    """A tensor, or a prim value as a tensor of shape ``[1]`` (TVM's broadcasting)."""
    array = as_array(value)
    return array.reshape(1) if isinstance(value, PrimValue) else array


@evaluates(*NUMERICS)
def _binary(op: OperatorOp) -> Kernel:
    numerics = NUMERICS[type(op)]  # pyright: ignore[reportArgumentType]
    form = result_form(op)
    matched: dict[tuple[np.dtype, np.dtype], np.dtype] = {}

    def apply(lhs: object, rhs: object) -> object:
        x1, x2 = _operand(lhs), _operand(rhs)
        pair = (x1.dtype, x2.dtype)
        common = matched.get(pair)
        if common is None:
            common = matched[pair] = _matched_dtype(numerics, *pair)
        with np.errstate(all="ignore"):
            return form(
                numerics.compute(x1.astype(common, copy=False), x2.astype(common, copy=False))
            )

    return apply


def _matched_dtype(numerics: Numerics, lhs: np.dtype, rhs: np.dtype) -> np.dtype:
    """The operands' common data type, once TVM is known to compute the operator on it."""
    common = tvm_common_dtype(lhs, rhs)
    for dtype in (lhs, rhs) if numerics.check_each else (common,):
        if dtype.kind not in numerics.kinds:
            allowed = ", ".join(KIND_NAMES[kind] for kind in numerics.kinds)
            raise TypeError(
                f"TVM computes this operator on {allowed} data only, "
                f"not on {DataType.from_numpy(dtype)}"
            )
    return common
