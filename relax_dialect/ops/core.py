"""Operators of TVM's ``op.cc``: shapes and sizes, null, print and assert, closures,
copies and hints between virtual devices.

The in-place calls (``relax.call_tir_inplace``, ``relax.call_inplace_packed``)
are with the other calls in ``calls.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr, StringAttr, SymbolRefAttr
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ..dtype import INT64
from ..prim_expr import IntImm
from ..types import (
    UNKNOWN_NDIM,
    ObjectType,
    ShapeType,
    StructInfoType,
    TensorType,
    TupleType,
    struct_info_text,
)
from ..vdevice import VDeviceRef
from .base import (
    BindingOp,
    parse_result_type,
    parse_value,
    parse_values,
    print_result_type,
    print_values,
    relax_type,
)
from .control_flow import is_bool_scalar
from .fusion import FusionKind, OpPattern
from .operator import OperatorOp, attribute_of
from .placement import Placement
from .references import function_type_of
from .traits import Impure


class TensorInspectionOp(OperatorOp):
    """An operator reading its tensor operand's shape."""

    FUSION: ClassVar[FusionKind] = OpPattern.OPAQUE
    PLACEMENT: ClassVar[Placement] = Placement.NONE

    tensor = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def tensor_type(self) -> TensorType:
        return self.tensor_of(self.tensor, "first")


@irdl_op_definition
class ShapeOfOp(TensorInspectionOp):
    """The shape of a tensor, as a shape value.

    Inference: the tensor's dimensions when known, else its rank."""

    name = "relax.shape_of"

    def infer_type(self) -> StructInfoType:
        tensor = self.tensor_type()
        return ShapeType(tensor.dims, ndim=tensor.rank)


@irdl_op_definition
class SizeOp(TensorInspectionOp):
    """The number of elements of a tensor.

    Inference: a 0-d ``i64`` tensor."""

    name = "relax.size"

    def infer_type(self) -> StructInfoType:
        self.tensor_type()
        return TensorType([], INT64)


@irdl_op_definition
class TensorToShapeOp(OperatorOp):
    """The values of a 1-d integer tensor, as a shape value.

    Inference: a shape of as many dimensions as the tensor's static length,
    else of unknown rank; the tensor must be 1-d."""

    name = "relax.tensor_to_shape"
    FUSION: ClassVar[FusionKind] = OpPattern.OPAQUE
    PLACEMENT: ClassVar[Placement] = Placement.NONE
    tensor = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def infer_type(self) -> StructInfoType:
        tensor = self.tensor_of(self.tensor, "first")
        if tensor.rank not in (1, UNKNOWN_NDIM):
            raise VerifyException(
                f"{self.name}: expected a 1-d tensor, got {struct_info_text(tensor)}"
            )
        length = tensor.dims[0] if tensor.dims else None
        return ShapeType(ndim=length.value if isinstance(length, IntImm) else UNKNOWN_NDIM)


@irdl_op_definition
class ShapeToTensorOp(OperatorOp):
    """The dimensions of a shape value, as a 1-d ``i64`` tensor.

    Inference: a tensor of the shape's rank elements (length unknown when the
    rank is)."""

    name = "relax.shape_to_tensor"
    FUSION: ClassVar[FusionKind] = OpPattern.OPAQUE
    PLACEMENT: ClassVar[Placement] = Placement.NONE
    shape = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def infer_type(self) -> StructInfoType:
        shape = self.shape_of(self.shape, "shape")
        if shape.rank == UNKNOWN_NDIM:
            return TensorType(dtype=INT64, ndim=1)
        return TensorType([shape.rank], INT64)


@irdl_op_definition
class NullValueOp(OperatorOp):
    """The null object (an optional argument left out of a packed call).

    Inference: ``object``."""

    name = "relax.null_value"
    FUSION: ClassVar[FusionKind] = OpPattern.OPAQUE
    PLACEMENT: ClassVar[Placement] = Placement.NONE
    result = result_def()
    traits = traits_def(Pure())

    def infer_type(self) -> StructInfoType:
        return ObjectType()


class FormattedOp(OperatorOp):
    """An operator that formats its operands with a Python-style ``format``
    string (only ``{}``/``{N}`` fields with format specs; empty: space-separated)."""

    FUSION: ClassVar[FusionKind] = OpPattern.OPAQUE
    PLACEMENT: ClassVar[Placement] = Placement.NONE

    values = var_operand_def()
    format = opt_prop_def(StringAttr, default_value=attribute_of(""))
    result = result_def()
    traits = traits_def(Impure())


@irdl_op_definition
class PrintOp(FormattedOp):
    """Print values to standard output (impure).

    Inference: the empty tuple."""

    name = "relax.print"

    def infer_type(self) -> StructInfoType:
        for value in self.values:
            relax_type(self.name, value)
        return TupleType([])


@irdl_op_definition
class AssertOp(FormattedOp):
    """Fail with a formatted message unless the first operand, a boolean scalar,
    is true (impure).

    Inference: the empty tuple; the condition must be a boolean scalar."""

    name = "relax.assert_op"

    def infer_type(self) -> StructInfoType:
        if not self.values:
            raise VerifyException(f"{self.name}: the condition is missing")
        condition = relax_type(self.name, self.values[0])
        if not is_bool_scalar(condition):
            raise VerifyException(
                f"{self.name}: the condition has type {struct_info_text(condition)}, "
                "expected a boolean scalar"
            )
        return TupleType([])


@irdl_op_definition
class MakeClosureOp(BindingOp):
    """A closure of a global function whose leading parameters are bound to
    the given values (what lambda lifting produces): ``relax.make_closure
    @f(%captured...)``.

    Inference: ``object``."""

    name = "relax.make_closure"
    function = prop_def(SymbolRefAttr)
    captured = var_operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, function: str, captured: Sequence[SSAValue], result_type: StructInfoType):
        super().__init__(
            operands=[captured],
            properties={"function": SymbolRefAttr(function)},
            result_types=[result_type],
        )

    @property
    def function_name(self) -> str:
        return self.function.root_reference.data

    def infer_type(self) -> StructInfoType:
        callee = function_type_of(self, self.function_name, f"{self.name} @{self.function_name}")
        params = callee.param_types or ()
        if len(self.captured) > len(params):
            raise VerifyException(
                f"{self.name}: @{self.function_name} takes {len(params)} parameters, "
                f"{len(self.captured)} are captured"
            )
        return ObjectType()

    @classmethod
    def parse(cls, parser: Parser) -> MakeClosureOp:
        function = parser.parse_symbol_name().data
        captured = parse_values(parser, parser.Delimiter.PAREN)
        return cls(function, captured, parse_result_type(parser))

    def print(self, printer: Printer) -> None:
        printer.print_string(f" @{self.function_name}(")
        print_values(printer, self.captured)
        printer.print_string(")")
        print_result_type(printer, self)


class InvokeClosureBase(BindingOp):
    """A call of a closure value whose result type is the declared one
    (TVM's ``sinfo_args``): ``relax.invoke_closure %c(%args...) : T``."""

    closure = operand_def()
    args = var_operand_def()
    result = result_def()

    def __init__(self, closure: SSAValue, args: Sequence[SSAValue], result_type: StructInfoType):
        super().__init__(operands=[closure, args], result_types=[result_type])

    def infer_type(self) -> StructInfoType:
        for value in (self.closure, *self.args):
            relax_type(self.name, value)
        return relax_type(self.name, self.result, "result")

    @classmethod
    def parse(cls, parser: Parser) -> Operation:
        closure = parse_value(parser)
        args = parse_values(parser, parser.Delimiter.PAREN)
        return cls(closure, args, parse_result_type(parser))

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.closure)
        printer.print_string("(")
        print_values(printer, self.args)
        printer.print_string(")")
        print_result_type(printer, self)


@irdl_op_definition
class InvokeClosureOp(InvokeClosureBase):
    """Call a closure, possibly with side effects (impure):
    ``relax.invoke_closure %c(%args...) : T``.

    Inference: none; the declared result type ``T`` (required) is the result's."""

    name = "relax.invoke_closure"
    traits = traits_def(Impure())


@irdl_op_definition
class InvokePureClosureOp(InvokeClosureBase):
    """Call a closure known to be pure: ``relax.invoke_pure_closure %c(%args...) : T``.

    Inference: none; the declared result type ``T`` (required) is the result's."""

    name = "relax.invoke_pure_closure"
    traits = traits_def(Pure())


@irdl_op_definition
class ToVDeviceOp(OperatorOp):
    """Copy a tensor to the virtual device ``dst_vdevice`` (``"kind:index:scope"``,
    a device the module declares).

    Inference: the tensor's shape and data type, on ``dst_vdevice``."""

    name = "relax.to_vdevice"
    FUSION: ClassVar[FusionKind] = OpPattern.OPAQUE
    PLACEMENT: ClassVar[Placement] = Placement.OWN
    data = operand_def()
    dst_vdevice = prop_def(StringAttr)
    result = result_def()
    traits = traits_def(Pure())

    @property
    def destination(self) -> VDeviceRef:
        """The virtual device the tensor is copied to."""
        try:
            return VDeviceRef.parse(self.dst_vdevice.data)
        except ValueError as error:
            raise VerifyException(f"{self.name}: bad dst_vdevice: {error}") from None

    def infer_type(self) -> StructInfoType:
        data = self.tensor_of(self.data, "data")
        return TensorType(data.dims, data.data_type, data.rank, self.destination)


@irdl_op_definition
class HintOnDeviceOp(OperatorOp):
    """Hint that a tensor should live on the device ``device_type``/``index``
    (DLPack's numbering: 1 CPU, 2 CUDA, ...) in ``memory_scope``; TVM's
    ``RealizeVDevice`` turns hints into virtual devices.

    Inference: the tensor's type, unchanged."""

    name = "relax.hint_on_device"
    FUSION: ClassVar[FusionKind] = OpPattern.OPAQUE
    PLACEMENT: ClassVar[Placement] = Placement.DATA
    data = operand_def()
    device_type = prop_def(IntegerAttr)
    index = prop_def(IntegerAttr)
    memory_scope = opt_prop_def(StringAttr, default_value=attribute_of("global"))
    result = result_def()
    traits = traits_def(Pure())

    def infer_type(self) -> StructInfoType:
        return self.tensor_of(self.data, "data")


OPERATIONS: list[type[Operation]] = [
    ShapeOfOp,
    SizeOp,
    TensorToShapeOp,
    ShapeToTensorOp,
    NullValueOp,
    PrintOp,
    AssertOp,
    MakeClosureOp,
    InvokeClosureOp,
    InvokePureClosureOp,
    ToVDeviceOp,
    HintOnDeviceOp,
]
