"""The ``relax`` dialect: its operations, types and attributes."""

from __future__ import annotations

from xdsl.ir import Dialect, Operation

from .attributes import DataTypeAttr, DenseAttr, PrimExprAttr, ShapeAttr
from .ops import operator_families
from .ops.alias import AliasOp
from .ops.calls import (
    CallDPSPackedOp,
    CallInplacePackedOp,
    CallOp,
    CallPackedOp,
    CallPurePackedOp,
    CallTIRInplaceOp,
    CallTIROp,
    InvokeOp,
)
from .ops.control_flow import IfOp, YieldOp
from .ops.dataflow import DataflowOp, OutputOp
from .ops.functions import FunctionOp, LambdaOp, ReturnOp
from .ops.match_cast import MatchCastOp
from .ops.references import ExternFuncOp, GlobalVarOp, OpRefOp
from .ops.values import (
    ConstantOp,
    DataTypeImmOp,
    PrimValueOp,
    ShapeOp,
    StringImmOp,
    TupleGetItemOp,
    TupleOp,
)
from .types import FuncType, ObjectType, PrimType, ShapeType, TensorType, TupleType
from .vdevice import VDeviceAttr, VDeviceRefAttr

STRUCTURE: list[type[Operation]] = [
    FunctionOp,
    LambdaOp,
    ReturnOp,
    DataflowOp,
    OutputOp,
    IfOp,
    YieldOp,
    MatchCastOp,
    AliasOp,
    ConstantOp,
    ShapeOp,
    PrimValueOp,
    StringImmOp,
    DataTypeImmOp,
    TupleOp,
    TupleGetItemOp,
    GlobalVarOp,
    ExternFuncOp,
    OpRefOp,
    CallOp,
    InvokeOp,
    CallTIROp,
    CallTIRInplaceOp,
    CallPackedOp,
    CallPurePackedOp,
    CallInplacePackedOp,
    CallDPSPackedOp,
]
"""The operations of the language itself: functions, blocks, bindings, calls."""

OPERATIONS: list[type[Operation]] = STRUCTURE + [
    op for family in operator_families() for op in family.OPERATIONS
]

Relax = Dialect(
    "relax",
    OPERATIONS,
    [
        ObjectType,
        PrimType,
        ShapeType,
        TensorType,
        TupleType,
        FuncType,
        DataTypeAttr,
        PrimExprAttr,
        ShapeAttr,
        DenseAttr,
        VDeviceAttr,
        VDeviceRefAttr,
    ],
)
