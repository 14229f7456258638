"""Operators on the extension floating-point formats (bfloat16, float8, float4),
computed as TVM computes them: each operand widened to ``float32``, the operator
computed there, each floating-point result rounded back to its declared format.

Every value of these formats is exact in ``float32``, so data movement (reshape,
gather, concat...) is unchanged by the round trip; arithmetic rounds once per
operator, as TVM's ``BF16ComputeLegalize``/``FP8ComputeLegalize`` do. Only the
conversions (``astype``, ``wrap_param``) see the formats themselves.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.ir import Attribute, Operation

from ..dtype import FORMATS
from ..types import PrimType, TensorType, TupleType
from .common import Kernel

FLOAT32 = np.dtype(np.float32)


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
        return value.astype(FLOAT32)
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
