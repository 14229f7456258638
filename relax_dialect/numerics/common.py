"""What the operator kernels share: the kernel type and the conversions between
run-time values and NumPy results."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from xdsl.ir import Attribute, Operation

from ..dtype import FORMATS, DataType
from ..ops.operator import OperatorOp
from ..types import PrimType, TensorType, TupleType
from ..values import PrimValue

Kernel = Callable[..., object]
"""A function from the operands' run-time values to the result."""

KernelFactory = Callable[[OperatorOp], Kernel]
"""Builds an operation's kernel once, with its attributes resolved."""


def as_array(value: object) -> np.ndarray:
    """A tensor or prim value as an array (a prim value is 0-d)."""
    if isinstance(value, PrimValue):
        return np.array(value.value, dtype=value.dtype.to_numpy())
    assert isinstance(value, np.ndarray)
    return value


def result_dtype(op: OperatorOp) -> np.dtype | None:
    """The result's data type: the declared one (verified), else the inferred one."""
    declared = op.results[0].type
    sinfo = declared if _data_type_known(declared) else op.infer_type()
    return sinfo.data_type.to_numpy() if _data_type_known(sinfo) else None  # pyright: ignore


def _data_type_known(sinfo: object) -> bool:
    return isinstance(sinfo, TensorType | PrimType) and not sinfo.data_type.is_void


def result_form(op: OperatorOp) -> Callable[[object], object]:
    """How a NumPy result becomes the operator's Relax value: an array (never a
    NumPy scalar) of the operator's result data type, or a prim value when the
    result type is one. The data type is resolved once, when the kernel is built."""
    dtype = result_dtype(op)
    prim = isinstance(op.results[0].type, PrimType)

    def form(result: object) -> object:
        array = np.asarray(result)
        if dtype is not None and array.dtype != dtype:
            array = array.astype(dtype)
        if prim:
            return PrimValue(array.item(), DataType.from_numpy(array.dtype))
        return array

    return form


def quiet_kernel(op: OperatorOp, compute: Callable[..., object]) -> Kernel:
    """The kernel returning ``compute(*operands)`` as the operator's result, with
    NaN, infinities and integer wrap-around as results rather than warnings (a
    tuple's fields are returned as arrays)."""
    form = result_form(op)

    def apply(*operands: object) -> object:
        with np.errstate(all="ignore"):
            result = compute(*operands)
        if isinstance(result, tuple):
            return tuple(np.asarray(field) for field in result)
        return form(result)

    return apply


# --- the extension float formats ----------------------------------------------------
# Operators on bfloat16, float8 and float4 compute as TVM computes them: each operand
# widened to ``float32``, the operator computed there, each floating-point result
# rounded back to its declared format. Every value of these formats is exact in
# ``float32``, so data movement is unchanged by the round trip; arithmetic rounds
# once per operator (TVM's ``BF16ComputeLegalize``/``FP8ComputeLegalize``). Only the
# conversions (``astype``, ``wrap_param``) see the formats themselves.

_FLOAT32 = np.dtype(np.float32)


def _declared(sinfo: Attribute) -> object:
    """The NumPy dtype of each extension-format tensor in a result type (nested as
    the value is), None elsewhere."""
    if isinstance(sinfo, TupleType):
        return tuple(_declared(field) for field in sinfo.types)
    if isinstance(sinfo, TensorType | PrimType) and sinfo.data_type.is_extension_float:
        return sinfo.data_type.to_numpy()
    return None


def _mentions_format(types: Sequence[Attribute]) -> bool:
    return any(_has_format(t) for t in types)


def _has_format(sinfo: Attribute) -> bool:
    if isinstance(sinfo, TupleType):
        return any(_has_format(field) for field in sinfo.types)
    return isinstance(sinfo, TensorType | PrimType) and sinfo.data_type.is_extension_float


def _widen(value: object) -> object:
    if isinstance(value, np.ndarray) and value.dtype.name in FORMATS:
        return value.astype(_FLOAT32)
    if isinstance(value, tuple):
        return tuple(_widen(field) for field in value)
    return value


def _narrow(value: object, declared: object) -> object:
    if isinstance(value, tuple) and isinstance(declared, tuple):
        return tuple(_narrow(v, d) for v, d in zip(value, declared, strict=False))
    if isinstance(value, np.ndarray) and isinstance(declared, np.dtype):
        return value.astype(declared)
    return value


def through_float32(op: Operation, kernel: Kernel) -> Kernel:
    """``kernel`` computing in ``float32`` when ``op`` has an operand or result of
    an extension format; ``kernel`` itself otherwise."""
    types = [v.type for v in (*op.operands, *op.results)]
    if not _mentions_format(types):
        return kernel
    declared = _declared(op.results[0].type) if op.results else None

    def apply(*operands: object) -> object:
        return _narrow(kernel(*(_widen(v) for v in operands)), declared)

    return apply
