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

import numpy as np

from ..dtype import DataType
from ..ops import binary as ops
from ..ops.operator import OperatorOp
from ..values import PrimValue
from . import evaluates
from .arithmetic import truncating_divide
from .common import Kernel, as_array, result_form

Compute = Callable[[np.ndarray, np.ndarray], np.ndarray]


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


NUMERICS: dict[type[ops.BinaryBroadcastOp], Compute] = {
    ops.AddOp: np.add,
    ops.SubtractOp: np.subtract,
    ops.MultiplyOp: np.multiply,
    ops.DivideOp: truncating_divide,
    ops.FloorDivideOp: _floor_divide,
    ops.ModOp: np.fmod,
    ops.FloorModOp: _floor_mod,
    ops.PowerOp: np.power,
    ops.MaximumOp: _maximum,
    ops.MinimumOp: _minimum,
    ops.Atan2Op: np.arctan2,
    ops.LogAddExpOp: _log_add_exp,
    ops.EqualOp: np.equal,
    ops.NotEqualOp: _ordered_not_equal,
    ops.LessOp: np.less,
    ops.LessEqualOp: np.less_equal,
    ops.GreaterOp: np.greater,
    ops.GreaterEqualOp: np.greater_equal,
    ops.LogicalAndOp: np.logical_and,
    ops.LogicalOrOp: np.logical_or,
    ops.LogicalXorOp: np.bitwise_xor,
    ops.BitwiseAndOp: np.bitwise_and,
    ops.BitwiseOrOp: np.bitwise_or,
    ops.BitwiseXorOp: np.bitwise_xor,
    ops.LeftShiftOp: np.left_shift,
    ops.RightShiftOp: np.right_shift,
}


def _operand(value: object) -> np.ndarray:
    """A tensor, or a prim value as a tensor of shape ``[1]`` (TVM's broadcasting)."""
    array = as_array(value)
    return array.reshape(1) if isinstance(value, PrimValue) else array


@evaluates(*NUMERICS)
def _binary(op: OperatorOp) -> Kernel:
    operator = type(op)
    compute = NUMERICS[operator]  # pyright: ignore[reportArgumentType]
    form = result_form(op)
    matched: dict[tuple[np.dtype, np.dtype], np.dtype] = {}

    def apply(lhs: object, rhs: object) -> object:
        x1, x2 = _operand(lhs), _operand(rhs)
        pair = (x1.dtype, x2.dtype)
        common = matched.get(pair)
        if common is None:
            types = (DataType.from_numpy(x1.dtype), DataType.from_numpy(x2.dtype))
            common = matched[pair] = operator.computed_dtype(*types).to_numpy()  # pyright: ignore
        with np.errstate(all="ignore"):
            return form(compute(x1.astype(common, copy=False), x2.astype(common, copy=False)))

    return apply
