"""``convert-relax-to-linalg``: Relax functions → ``func.func`` on builtin types.

Every ``relax.function`` becomes a ``func.func`` of the same name (``private``
when it has no ``global_symbol``) whose parameters and results are the
flattened lowered values (``type_conversion``); tensor parameters carry
``{bufferization.writable = false}``. Symbolic variables are bound from the
first occurrence in the parameters (``tensor.dim``) and every other occurrence
is checked with ``cf.assert``, as are ``match_cast`` and the return annotation.
Structural operations lower here; operators through ``lowering.ops``.

=========================  ==================================================
Relax                      lowered
=========================  ==================================================
``relax.dataflow``         its bindings, inlined
``relax.if``               ``scf.if`` (a 0-d tensor condition is extracted)
``relax.match_cast``       ``cf.assert`` per unproven dimension, ``tensor.cast``
                           (to ``object``: nothing, the values are kept)
``relax.tuple``,           nothing: the flattened values are regrouped
``relax.tuple_get_item``
``relax.constant``         ``arith.constant dense<...>``
``relax.shape``,           ``arith`` on the bound symbolic ``index`` values
``relax.prim_value``
``relax.call @f``          ``func.call @f`` (static sizes of the callee's
                           parameters checked first)
``relax.call_tir @g``      ``tensor.empty`` outputs, ``func.call @g``
``relax.call_packed`` ...  ``func.call`` of a private declaration (below)
``relax.make_closure @f``  nothing: the captured values are regrouped
``relax.invoke_closure``   ``func.call @f`` with the captured values first,
                           when ``@f`` is known statically (``closures``)
=========================  ==================================================

Packed functions (``call_packed``, ``call_pure_packed``, ``call_dps_packed``)
are called through ``func.func private @relax_packed.<name>`` declarations (the
name with every character that is not a letter, digit or ``_`` replaced by ``_``;
``_1``, ``_2``, ... appended for further signatures of the same name; the scope
``relax_packed`` is ``PACKED_MODULE``, the module IREE imports them from) carrying
``relax.packed = "<name>"`` and ``relax.packed_kind = "call_packed"`` (or
``call_pure_packed``, ``call_dps_packed``). A ``call_dps_packed`` declaration
takes the arguments then the outputs and returns the outputs, as a
``call_tir`` callee does. ``relax.lambda`` and ``relax.invoke`` must be lifted
first (``relax-lambda-lift``; the ``relax-lower-to-linalg`` pipeline does). Function
values, strings, data types and ``object`` values whose content is not known
statically (``closures``) have no lowered form: a located error.

The module's declared virtual devices become ``relax.vdevices``, a builtin
dictionary from each device's ``"kind:index:scope"`` to its target, id and
memory scope; ``relax.to_vdevice`` lowers to a ``tensor.cast`` naming its
destination there (``lowering.ops.core``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func, scf, tensor
from xdsl.dialects.arith import ConstantOp, IndexCastOp, TruncIOp
from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    TensorType,
    i1,
    i8,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from relax_dialect.analysis.call_graph import functions, kernels, recursive_groups
from relax_dialect.analysis.effects import in_place_outputs
from relax_dialect.instrumentation import report
from relax_dialect.memo_printer import XDSL_HEX_ELEMENTS
from relax_dialect.ops.alias import AliasOp
from relax_dialect.ops.calls import (
    CallDPSPackedOp,
    CallOp,
    CallPackedOp,
    CallPurePackedOp,
    CallTIRInplaceOp,
    CallTIROp,
    InvokeOp,
    PackedCallOp,
    TIRCallBase,
    output_tensors,
)
from relax_dialect.ops.control_flow import IfOp
from relax_dialect.ops.core import (
    InvokeClosureBase,
    InvokeClosureOp,
    InvokePureClosureOp,
    MakeClosureOp,
)
from relax_dialect.ops.dataflow import DataflowOp
from relax_dialect.ops.functions import FunctionOp, LambdaOp
from relax_dialect.ops.match_cast import MatchCastOp
from relax_dialect.ops.operator import OperatorOp
from relax_dialect.ops.references import ExternFuncOp, GlobalVarOp, OpRefOp
from relax_dialect.ops.values import (
    ConstantOp as RelaxConstantOp,
)
from relax_dialect.ops.values import (
    DataTypeImmOp,
    PrimValueOp,
    ShapeOp,
    StringImmOp,
    TupleGetItemOp,
    TupleOp,
)
from relax_dialect.struct_info import CallMismatch, Check, base_check, derive_call_ret
from relax_dialect.types import FuncType, ObjectType, StructInfoType, TupleType, struct_info_text
from relax_dialect.types import TensorType as RelaxTensor
from relax_dialect.vdevice import declared_vdevices, reference_to, with_vdevices

from .building import build
from .call_depth import declare_counter, enter_call, leave_call
from .closures import Closure, Objects, argument_type
from .lowerer import Handler, Lowerer, LoweringError
from .ops import lowering_for
from .ops.common import PARALLEL, generic
from .type_conversion import field_offsets, tensor_type

WRITABLE = DictionaryAttr({"bufferization.writable": BoolAttr.from_bool(False)})
NO_ATTRS = DictionaryAttr({})
PACKED_MODULE = "relax_packed"
"""The scope of the declarations of packed functions (``@relax_packed.<name>``)."""

UNLOWERABLE: dict[type[Operation], str] = {
    LambdaOp: "closures cannot be lowered; run relax-lambda-lift first "
    "(the relax-lower-to-linalg pipeline does)",
    InvokeOp: "calls of function values cannot be lowered; run relax-lambda-lift first "
    "(the relax-lower-to-linalg pipeline does)",
    GlobalVarOp: "functions as values cannot be lowered",
    ExternFuncOp: "packed functions as values cannot be lowered; call them with relax.call_packed",
    OpRefOp: "operators as values cannot be lowered",
    StringImmOp: "strings cannot be lowered (remove unused ones with relax-dce)",
    DataTypeImmOp: "data types as values cannot be lowered (remove unused ones with relax-dce)",
}
"""Operations without a lowered form, and why."""

OBJECT_USERS = (MakeClosureOp, InvokeClosureBase, MatchCastOp, AliasOp, CallOp)
"""The operations that take ``object`` operands (whose content is known, ``closures``)."""
OBJECT_USE = (
    "an object (a closure, or a value cast to object) can only be invoked, captured by a "
    "closure, cast back with relax.match_cast or passed to a private function"
)

CHECKED_RESULTS = (OperatorOp, CallOp, TupleOp, TupleGetItemOp, RelaxConstantOp)
"""Bindings lowered with their inferred type, then cast (and checked, when the
declared type is stronger) to the declared one."""


@dataclass(frozen=True)
class Signature:
    """A lowered function's parameter and result types, with the Relax ones."""

    params: tuple[StructInfoType, ...]
    inputs: tuple[tuple[Attribute, ...], ...]
    ret: StructInfoType
    outputs: tuple[Attribute, ...]
    type: FuncType
    """The Relax function type, from which calls derive their result type."""
    unlowerable: LoweringError | None = None
    """Why the result has no lowered form (``outputs`` is empty): raised once the body
    is lowered, so that an operation of the body producing such a value (``unique``)
    is named first, or at a call."""


class ModuleLowering:
    """Lowers the Relax functions of a module; collects packed declarations."""

    def __init__(self, module: ModuleOp):
        self.module = module
        self.signatures: dict[str, Signature] = {}
        self.packed_symbols: dict[tuple[str, str, FunctionType], str] = {}
        self.declarations: list[func.FuncOp] = []
        self.handlers: dict[type[Operation], Handler] = {
            kind: getattr(self, method) for kind, method in STRUCTURAL.items()
        }
        self.kernels = kernels(module)
        self.objects = Objects(module)
        self.recursive = recursive_groups(module)
        self.current = ""
        """The name of the function being lowered."""
        self.counts_calls = False
        """Whether a call is wrapped in the call-depth guard (``call_depth``)."""

    def run(self) -> None:
        relax_functions = functions(self.module)
        probe = Lowerer(Block(), self.lower_op)
        for function in relax_functions:
            name = function.sym_name.data
            ret = function.result_info()
            inputs = tuple(
                probe.types_of(p, self.objects.lowered_type(p), f"@{name}: argument {i}")
                for i, p in enumerate(function.params)
            )
            try:
                outputs, unlowerable = probe.types_of(function, ret, f"@{name}: the result"), None
            except LoweringError as error:
                outputs, unlowerable = (), error
            params = tuple(function.param_types())
            self.signatures[name] = Signature(
                params, inputs, ret, outputs, FuncType(params, ret), unlowerable
            )
        lowered = []
        for function in relax_functions:
            lowered.append(self.lower_function(function))
            report("functions lowered", len(lowered), len(relax_functions))
        for function, new in zip(relax_functions, lowered, strict=True):
            self.module.body.block.insert_op_before(new, function)
            function.detach()
            function.erase(safe_erase=False)
        self.module.body.block.add_ops(self.declarations)
        if self.counts_calls:
            declare_counter(self.module)
        _lower_vdevices(self.module)

    # -- functions -------------------------------------------------------------------

    def lower_function(self, function: FunctionOp) -> func.FuncOp:
        name = self.current = function.sym_name.data
        signature = self.signatures[name]
        flat_inputs = [t for types in signature.inputs for t in types]
        block = Block(arg_types=flat_inputs)
        lw = Lowerer(block, self.lower_op)
        start = 0
        items = []
        for index, (param, types) in enumerate(zip(function.params, signature.inputs, strict=True)):
            values = list(block.args[start : start + len(types)])
            start += len(types)
            lw.values[param] = values
            target = self.objects.lowered_type(param)
            items.append((values, target, param, f"@{name}: argument {index}", None))
        lw.match_all(items)  # pyright: ignore[reportArgumentType]
        lw.lower_block(function.body.block)
        if signature.unlowerable is not None:
            raise signature.unlowerable
        returned = function.returned
        assert returned is not None
        values = lw.coerce(
            lw.lowered(returned), returned.type, signature.ret, returned, f"@{name}: return value"
        )
        values = [lw.cast(v, t) for v, t in zip(values, signature.outputs, strict=True)]
        lw.emit(func.ReturnOp(*values))
        arg_attrs = ArrayAttr(
            [WRITABLE if isinstance(t, TensorType) else NO_ATTRS for t in flat_inputs]
        )
        return func.FuncOp(
            name,
            (flat_inputs, signature.outputs),
            Region(block),
            None if function.global_symbol is not None else "private",
            arg_attrs=arg_attrs,
        )

    # -- bindings --------------------------------------------------------------------

    def lower_op(self, lw: Lowerer, op: Operation) -> None:
        """Lower one binding, recording its lowered values."""
        if not isinstance(op, OBJECT_USERS) and any(
            isinstance(operand.type, ObjectType) for operand in op.operands
        ):
            lw.error(op, OBJECT_USE)
        handler = self.handlers.get(type(op))
        if handler is None:
            if (reason := UNLOWERABLE.get(type(op))) is not None:
                lw.error(op, reason)
            handler = lowering_for(op)
            if handler is None:
                lw.error(op, f"operator {op.name} has no lowering")
        inferred = None
        if isinstance(op, CallOp):
            inferred = self.call_type(lw, op, op.callee_name, [a.type for a in op.args])
        elif isinstance(op, CHECKED_RESULTS):
            inferred = op.infer_type()  # pyright: ignore[reportAttributeAccessIssue]
        elif isinstance(op, InvokeClosureBase):
            inferred = self.invoked_type(lw, op)
        if inferred is not None:
            lw.result_sinfo = inferred
        result = handler(lw, op)
        if result is None:
            return
        values = [result] if isinstance(result, SSAValue) else list(result)
        declared = op.results[0].type
        assert isinstance(declared, StructInfoType)
        if inferred is not None:
            what = f"{op.name}: the result does not match its declared type"
            values = lw.coerce(values, inferred, declared, op, what)
        lw.values[op.results[0]] = values

    def dataflow(self, lw: Lowerer, op: DataflowOp) -> None:
        lw.lower_block(op.body.block)
        for result, output in zip(op.results, op.output_op.values, strict=True):
            lw.values[result] = lw.lowered(output)

    def if_(self, lw: Lowerer, op: IfOp) -> list[SSAValue]:
        condition = lw.operand(op, 0)
        if isinstance(condition.type, TensorType):
            condition = lw.make(tensor.ExtractOp, condition, [], IntegerType(1))
        sinfo = op.result.type
        assert isinstance(sinfo, StructInfoType)
        types = lw.types_of(op, sinfo)
        regions = []
        for region in (op.then_region, op.else_region):
            with lw.inside(Block()) as block:
                lw.lower_block(region.block)
                yielded = region.block.last_op.value  # pyright: ignore[reportAttributeAccessIssue]
                what = "relax.if: the branch result does not match the declared type"
                values = lw.coerce(lw.lowered(yielded), yielded.type, sinfo, yielded, what)
                lw.emit(build(scf.YieldOp, *values))
            regions.append(Region(block))
        return list(lw.emit(scf.IfOp(condition, types, *regions)).results)

    def match_cast(self, lw: Lowerer, op: MatchCastOp) -> list[SSAValue]:
        """An ``object`` keeps the lowered values of what it holds; a cast from it
        checks them against the StructInfo they had."""
        values = lw.lowered(op.value)
        target = op.target
        if isinstance(target, ObjectType):
            return values
        source = self.objects.content(op.value)
        if isinstance(source, Closure):
            text = struct_info_text(target)
            lw.error(op, f"the value is a closure of @{source.callee}, not a {text}")
        assert source is not None  # an object of unknown content has no lowered values
        if base_check(target, source) == Check.FAIL_STATIC:
            text = f"{struct_info_text(source)}, never a {struct_info_text(target)}"
            lw.error(op, f"the value is a {text}")
        return lw.match(values, target, op, "match_cast", source)

    def alias(self, lw: Lowerer, op: AliasOp) -> list[SSAValue]:
        """The lowered values of the value, cast to a weaker declared type (an
        ``object`` keeps them, as a ``match_cast`` to it does)."""
        values = lw.lowered(op.value)
        declared = op.result.type
        if isinstance(declared, ObjectType):
            return values
        return lw.coerce(values, op.infer_type(), declared, op, "relax.alias")  # pyright: ignore

    def make_closure(self, lw: Lowerer, op: MakeClosureOp) -> list[SSAValue]:
        return _flat(lw, op.captured)

    def constant(self, lw: Lowerer, op: RelaxConstantOp) -> SSAValue:
        array = op.value.array
        sinfo = lw.result_sinfo
        assert isinstance(sinfo, RelaxTensor)
        type = tensor_type(sinfo)
        if array.dtype != np.bool_:
            return lw.emit_value(ConstantOp(_dense(type, array)))
        if array.size > XDSL_HEX_ELEMENTS:
            return _bool_constant(lw, array, type)
        attr = DenseIntOrFPElementsAttr.from_list(type, array.reshape(-1).tolist())
        return lw.emit_value(ConstantOp(attr))

    def shape(self, lw: Lowerer, op: ShapeOp) -> list[SSAValue]:
        return [lw.index_of(dim, op) for dim in op.dims.data]

    def prim_value(self, lw: Lowerer, op: PrimValueOp) -> SSAValue:
        (type,) = lw.types_of(op, op.result.type)  # pyright: ignore[reportArgumentType]
        return lw.scalar_of(op.value.data, type, op)

    def tuple_(self, lw: Lowerer, op: TupleOp) -> list[SSAValue]:
        return _flat(lw, op.fields)

    def tuple_get_item(self, lw: Lowerer, op: TupleGetItemOp) -> list[SSAValue]:
        source = op.tuple_value.type
        assert isinstance(source, TupleType)
        offsets = field_offsets(source)
        index = op.index.data
        return lw.lowered(op.tuple_value)[offsets[index] : offsets[index + 1]]

    # -- calls -----------------------------------------------------------------------

    def call(self, lw: Lowerer, op: CallOp) -> list[SSAValue]:
        return self._call(lw, op, op.callee_name, _flat(lw, op.args))

    def invoke_closure(self, lw: Lowerer, op: InvokeClosureBase) -> list[SSAValue]:
        """``func.call`` of the closure's function, the captured values first."""
        closure = self.objects.content(op.closure)
        assert isinstance(closure, Closure)  # checked by ``invoked_type``
        return self._call(lw, op, closure.callee, lw.lowered(op.closure) + _flat(lw, op.args))

    def invoked_type(self, lw: Lowerer, op: InvokeClosureBase) -> StructInfoType:
        """The type of a closure invocation's result, derived as for a call of the
        closure's function with the captured values first."""
        closure = self.objects.content(op.closure)
        if not isinstance(closure, Closure):
            lw.error(op, "the value called is not a closure made by relax.make_closure")
        args = [argument_type(c) for c in closure.captured] + [a.type for a in op.args]
        return self.call_type(lw, op, closure.callee, args)

    def call_type(
        self, lw: Lowerer, op: Operation, callee: str, args: Sequence[Attribute]
    ) -> StructInfoType:
        """The type of the result of ``op`` calling ``@callee`` with arguments of
        types ``args``, derived from the callee's signature (as ``infer_type`` does,
        without looking the callee up again)."""
        declared = op.results[0].type
        try:
            return derive_call_ret(self.signatures[callee].type, args, declared)  # pyright: ignore
        except CallMismatch as mismatch:
            lw.error(op, f"@{callee}: {mismatch}")

    def _call(
        self, lw: Lowerer, op: Operation, name: str, values: Sequence[SSAValue]
    ) -> list[SSAValue]:
        """``func.call @name`` with the flattened argument ``values`` (static sizes of
        the callee's parameters checked first), the results of ``lw.result_sinfo``."""
        signature = self.signatures[name]
        if signature.unlowerable is not None:
            raise signature.unlowerable
        args: list[SSAValue] = []
        for index, types in enumerate(signature.inputs):
            start = len(args)
            what = f"@{name}: argument {index}"
            args += lw.cast_checked(values[start : start + len(types)], types, op, what)
        assert len(args) == len(values)
        counted = isinstance(op, InvokeClosureBase) or name in self.recursive.get(self.current, ())
        counter = enter_call(lw, op) if counted else None
        results = lw.emit(build(func.CallOp, name, args, signature.outputs)).results
        if counter is not None:
            leave_call(lw, counter)
            self.counts_calls = True
        types = lw.types_of(op, lw.result_sinfo)  # pyright: ignore[reportArgumentType]
        return [lw.cast(v, t) for v, t in zip(results, types, strict=True)]

    def call_tir(self, lw: Lowerer, op: TIRCallBase) -> list[SSAValue]:
        name = op.callee_name
        callee = self.kernels.get(name)
        if callee is None or not callee.function_type.outputs.data:
            lw.error(op, f"@{name} must be a func.func returning its output tensors")
        declared = op.result.type
        outputs = output_tensors(op.name, declared)
        inplace = in_place_outputs(op, len(outputs))
        operands = [lw.lowered(a)[0] for a in op.args]
        if op.tir_vars is not None:
            operands += lw.lowered(op.tir_vars)
        for out, index in zip(outputs, inplace, strict=True):
            if index >= 0:
                operands.append(operands[index])
            else:
                operands.append(
                    lw.empty(tensor_type(out), [lw.index_of(d, op) for d in out.dims or ()])
                )
        inputs = callee.function_type.inputs.data
        args = [
            self._argument(lw, op, value, type, f"@{name}: parameter {i}")
            for i, (value, type) in enumerate(zip(operands, inputs, strict=True))
        ]
        outputs = callee.function_type.outputs.data
        results = lw.emit(build(func.CallOp, name, args, outputs)).results
        types = lw.types_of(op, declared)  # pyright: ignore[reportArgumentType]
        return [lw.cast(v, t) for v, t in zip(results, types, strict=True)]

    def _argument(
        self, lw: Lowerer, op: Operation, value: SSAValue, type: Attribute, what: str
    ) -> SSAValue:
        """A value passed to a ``func.func`` parameter of builtin ``type``."""
        if isinstance(type, TensorType):
            return lw.cast_checked([value], [type], op, what)[0]
        if value.type == type:
            return value
        if isinstance(type, IndexType | IntegerType) and isinstance(value.type, IndexType):
            return lw.make(IndexCastOp, value, type)
        if isinstance(type, IndexType) and isinstance(value.type, IntegerType):
            return lw.as_index(value)
        lw.error(op, f"{what} has type {type}, the value {value.type}")

    def packed(self, lw: Lowerer, op: PackedCallOp) -> list[SSAValue]:
        args = _flat(lw, op.args)
        declared = op.result.type
        assert isinstance(declared, StructInfoType)
        results = lw.types_of(op, declared)
        if isinstance(op, CallDPSPackedOp):
            for out in output_tensors(op.name, declared):
                args.append(
                    lw.empty(tensor_type(out), [lw.index_of(d, op) for d in out.dims or ()])
                )
        kind = op.name.removeprefix("relax.")
        callee = self.declare_packed(op.callee.data, kind, [a.type for a in args], results)
        return list(lw.emit(build(func.CallOp, callee, args, results)).results)

    def declare_packed(
        self, name: str, kind: str, inputs: Sequence[Attribute], outputs: Sequence[Attribute]
    ) -> str:
        """The declaration calling packed function ``name`` with this signature."""
        type = FunctionType.from_lists(inputs, outputs)
        key = (name, kind, type)
        symbol = self.packed_symbols.get(key)
        if symbol is None:
            base = f"{PACKED_MODULE}." + re.sub(r"[^A-Za-z0-9_]", "_", name)
            taken = sum(1 for n, _, _ in self.packed_symbols if n == name)
            symbol = base if taken == 0 else f"{base}_{taken}"
            while symbol in self.signatures or symbol in self.kernels:
                symbol += "_"
            self.packed_symbols[key] = symbol
            declaration = func.FuncOp.external(symbol, list(inputs), list(outputs))
            declaration.attributes["relax.packed"] = StringAttr(name)
            declaration.attributes["relax.packed_kind"] = StringAttr(kind)
            self.declarations.append(declaration)
        return symbol


def _dense(type: TensorType, array: np.ndarray) -> DenseIntOrFPElementsAttr:
    """A dense attribute of ``array``'s little-endian bytes (its data type that of
    ``type``'s elements), made without a Python object per element."""
    data = np.ascontiguousarray(array, array.dtype.newbyteorder("<")).tobytes()
    return DenseIntOrFPElementsAttr(type, BytesAttr(data))


def _bool_constant(lw: Lowerer, array: np.ndarray, type: TensorType) -> SSAValue:
    """A large boolean constant as an ``i8`` one truncated element by element:
    xDSL writes ``i1`` hexadecimal data a byte per element, MLIR reads it bit-packed."""
    data = _dense(TensorType(i8, type.get_shape()), array.astype(np.int8))
    rank = array.ndim
    identity = list(range(rank))
    return generic(
        lw,
        [lw.emit_value(ConstantOp(data))],
        lw.make(tensor.EmptyOp, [], type),
        [identity, identity],
        [PARALLEL] * rank,
        lambda lw, args: lw.make(TruncIOp, args[0], i1),
    )


def _flat(lw: Lowerer, values: Sequence[SSAValue]) -> list[SSAValue]:
    """The lowered values of several Relax values, one after the other."""
    return [lowered for value in values for lowered in lw.lowered(value)]


STRUCTURAL: dict[type[Operation], str] = {
    DataflowOp: "dataflow",
    IfOp: "if_",
    MatchCastOp: "match_cast",
    AliasOp: "alias",
    MakeClosureOp: "make_closure",
    InvokeClosureOp: "invoke_closure",
    InvokePureClosureOp: "invoke_closure",
    RelaxConstantOp: "constant",
    ShapeOp: "shape",
    PrimValueOp: "prim_value",
    TupleOp: "tuple_",
    TupleGetItemOp: "tuple_get_item",
    CallOp: "call",
    CallTIROp: "call_tir",
    CallTIRInplaceOp: "call_tir",
    CallPackedOp: "packed",
    CallPurePackedOp: "packed",
    CallDPSPackedOp: "packed",
}
"""The ``ModuleLowering`` method lowering each structural operation (operators:
``lowering.ops``)."""


def _lower_vdevices(module: ModuleOp) -> None:
    """The declared virtual devices as builtin attributes, ``relax.vdevices = {"kind:index:scope"
    = {target = ..., vdevice_id = ..., memory_scope = ...}}``: what the lowered copies'
    ``relax.vdevice`` attributes name."""
    vdevices = declared_vdevices(module)
    with_vdevices(module, ())
    if vdevices:
        module.attributes["relax.vdevices"] = DictionaryAttr(
            {
                str(reference_to(vdevices, d)): DictionaryAttr(
                    {"target": d.target, "vdevice_id": IntegerAttr(d.vdevice_id.data, 64)}
                    | {"memory_scope": d.memory_scope}
                )
                for d in vdevices
            }
        )


@dataclass(frozen=True)
class ConvertRelaxToLinalgPass(ModulePass):
    """Rewrite every Relax function into ``func.func`` on builtin types, leaving only
    builtin/func/arith/math/linalg/tensor/scf/cf/bufferization operations. The
    module is unchanged when a construct cannot be lowered (a located
    ``LoweringError``)."""

    name = "convert-relax-to-linalg"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        ModuleLowering(op).run()
