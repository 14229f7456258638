"""``relax-widen-float-formats``: operators on the extension float formats (bfloat16,
float8, float4) computed in ``f32``, as TVM's ``BF16ComputeLegalize`` and
``FP8ComputeLegalize`` compute them: each such operand converted to ``f32``, the
operator applied, each result converted back to its format. Every value of these
formats is exact in ``f32``, so that the operator rounds once, as the reference
interpreter computes it. The conversions themselves (``astype``, ``wrap_param``)
stay, and so do operators whose result keeps a format in ``f32`` (its data type an
attribute: ``full``, ``arange``...) or whose result is not a tensor or prim value.
Constants of these formats become ``f32`` constants converted, so that lowering
meets the formats in conversions only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import VerifyException

from ..attributes import DenseAttr
from ..dtype import FLOAT32, DataType
from ..ops.datatype import AstypeOp, ConvertOp
from ..ops.operator import OperatorOp
from ..ops.values import ConstantOp
from ..rewriting.function_walk import FunctionWalk, rewrite_functions
from ..rewriting.patterns import BindingPattern, Replacement
from ..types import PrimType, TensorType


def _format_of(sinfo: Attribute) -> DataType | None:
    """The extension format of a tensor or prim value's type, if it has one."""
    if isinstance(sinfo, TensorType | PrimType) and sinfo.data_type.is_extension_float:
        return sinfo.data_type
    return None


def _converted(value: SSAValue, dtype: DataType, ops: list[Operation]) -> SSAValue:
    """``value`` converted to ``dtype`` by a new ``astype`` (once per value in ``ops``)."""
    if isinstance(value.type, PrimType):
        return value  # prim operands: converted by the operator like any scalar
    for op in ops:
        if isinstance(op, AstypeOp) and op.x == value and op.attr("dtype") == dtype:
            return op.result
    convert = AstypeOp.build([value], dtype=dtype)
    ops.append(convert)
    return convert.result


def _inferred(op: OperatorOp, operands: list[SSAValue]) -> Attribute | None:
    """The type ``op`` infers on other operands (None when it rejects them)."""
    probe = type(op).create(
        operands=operands, properties=dict(op.properties), result_types=[op.results[0].type]
    )
    try:
        return probe.infer_type()
    except VerifyException:
        return None
    finally:
        probe.erase()


class ComputeInFloat32(BindingPattern):
    """An operator with an operand of an extension format, computed in ``f32``."""

    def replacement(self, op: OperatorOp) -> Replacement | None:
        if isinstance(op, ConvertOp) or len(op.results) != 1:
            return None
        if not any(_format_of(v.type) for v in op.operands):
            return None
        result = op.results[0]
        if not isinstance(result.type, TensorType | PrimType):
            return None
        ops: list[Operation] = []
        operands = [_converted(v, FLOAT32, ops) if _format_of(v.type) else v for v in op.operands]
        wide_type = _inferred(op, operands)
        if wide_type is None or _format_of(wide_type) is not None:  # an attribute's format
            Replacement(operands[0], ops).discard()
            return None
        wide = type(op).create(
            operands=operands, properties=dict(op.properties), result_types=[wide_type]
        )
        ops.append(wide)
        narrow = _format_of(result.type)
        value = wide.results[0] if narrow is None else _converted(wide.results[0], narrow, ops)
        return Replacement(value, ops)


class ConstantInFloat32(BindingPattern):
    """A constant of an extension format, as its ``f32`` values converted."""

    def replacement(self, op: ConstantOp) -> Replacement | None:
        dtype = _format_of(op.result.type)
        if dtype is None:
            return None
        wide = ConstantOp(DenseAttr.from_array(op.value.array.astype(np.float32)))
        ops: list[Operation] = [wide]
        return Replacement(_converted(wide.result, dtype, ops), ops)


@dataclass(frozen=True)
class WidenFloatFormatsPass(ModulePass):
    """Compute the operators on bfloat16, float8 and float4 values in ``f32``,
    converting operands and results."""

    name = "relax-widen-float-formats"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns = (ComputeInFloat32(), ConstantInFloat32())
        rewrite_functions(
            op, lambda function, refine: FunctionWalk(function, refine, patterns=patterns)
        )
