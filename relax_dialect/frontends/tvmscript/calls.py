"""TVMScript calls: operators (``R.add(x, y)``, ``R.nn.conv2d(...)``), their
Python-operator sugar, and the special forms (``R.shape``, ``R.const``,
``R.call_packed``, ``R.call_tir``, ...). ``CallReader`` is the part of the
module reader that turns a call into a binding to make."""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

import numpy as np
from xdsl.dialects.builtin import AffineMapAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import VarOperandDef
from xdsl.utils.exceptions import VerifyException

from ...attributes import PrimExprAttr
from ...builder import AnnotationError, Builder, Expr, Shape
from ...ops import operator_class
from ...ops.base import BindingOp, check_annotation
from ...ops.calls import (
    CallDPSPackedOp,
    CallInplacePackedOp,
    CallOp,
    CallPackedOp,
    CallPurePackedOp,
    CallTIRInplaceOp,
    CallTIROp,
    InvokeOp,
)
from ...ops.core import InvokeClosureOp, InvokePureClosureOp, MakeClosureOp
from ...ops.match_cast import MatchCastOp
from ...ops.operator import SEGMENTS, OperatorOp, attribute_kind, attribute_of
from ...ops.references import EXTERN_FUNC_TYPE, ExternFuncOp
from ...ops.values import PrimValueOp
from ...prim_expr import BoolImm, FloatImm, IntImm, PrimExpr
from ...types import ObjectType, PrimType, StructInfoType, TensorType, TupleType
from .annotations import ExprReader, TVMScriptError, dotted_name, literal
from .index_maps import read_index_map
from .spelling import OperatorSpelling, operator_spelling

if TYPE_CHECKING:
    from .tir import TIRKernels

SHAPE_OPERANDS = ("shape", "size")
"""Operand names whose literal tuples are shapes (other literal tuples of numbers
are tuples of prim values, as ``strided_slice``'s bounds)."""

PACKED_CALLS = {
    "call_packed": CallPackedOp,
    "call_pure_packed": CallPurePackedOp,
    "call_inplace_packed": CallInplacePackedOp,
}
TIR_CALLS = {"call_tir": CallTIROp, "call_tir_inplace": CallTIRInplaceOp}
TIR_CALL_ARGUMENTS = {
    "call_tir": ("gvar", "args", "out_sinfo", "tir_vars", "out_ty"),
    "call_tir_inplace": ("gvar", "args", "inplace_indices", "out_sinfo", "tir_vars", "out_ty"),
}
"""The parameters of TVM's ``R.call_tir`` and ``R.call_tir_inplace`` in order (``out_ty``,
the newer spelling of ``out_sinfo``, by keyword)."""
CLOSURE_CALLS = {"invoke_closure": InvokeClosureOp, "invoke_pure_closure": InvokePureClosureOp}


@dataclass(frozen=True)
class Function:
    """A module function named in the source (``cls.f`` refers to it)."""

    name: str


@dataclass(frozen=True)
class Deferred:
    """A binding built once its name and annotation are known; ``declared`` is
    the result type of an operation that declares it (``sinfo_args``), or, for a
    ``literal``, the type its spelling gives (``T.float16(1.5)``), which a binding
    annotation may weaken (a call's declared type it may not)."""

    make: Callable[[StructInfoType], BindingOp]
    declared: StructInfoType | None = None
    literal: bool = False


class CallReader:
    """Reads calls into bindings; the module reader supplies the scope."""

    builder: Builder
    exprs: ExprReader
    tir_kernels: TIRKernels
    module_name: str
    last_node: ast.AST | None

    def expr(self, node: ast.expr, number_as_constant: bool = False) -> Expr:
        raise NotImplementedError

    def lookup(self, name: str) -> object:
        raise NotImplementedError

    def _arithmetic(self, node: ast.BinOp | ast.UnaryOp | ast.Compare) -> Expr | Deferred:
        """Python operators: symbolic arithmetic on symbolic values, Relax operators
        (``x + y`` is ``R.add(x, y)``) on Relax values, as TVM overloads them."""
        if isinstance(node, ast.BinOp):
            parts, op = [node.left, node.right], type(node.op)
        elif isinstance(node, ast.UnaryOp):
            parts, op = [node.operand], type(node.op)
        else:
            if len(node.ops) != 1:
                raise TVMScriptError(node, "chained comparisons are not supported")
            parts, op = [node.left, node.comparators[0]], type(node.ops[0])
        values = [self.expr(part) for part in parts]
        if all(isinstance(value, PrimExpr) for value in values):
            return self.exprs.prim_expr(node)
        operator = TENSOR_OPERATORS.get((len(values), op))
        if operator is None:
            raise TVMScriptError(node, "this Python operator has no Relax meaning")
        on_prims = all(not isinstance(v, SSAValue) or isinstance(v.type, PrimType) for v in values)
        for part, value in zip(parts, values, strict=True):
            if isinstance(value, PrimExpr) and not on_prims:
                raise TVMScriptError(part, f"convert {ast.unparse(part)} with R.const first")
        bound = [self.builder.normalize(value) for value in values]
        return Deferred(lambda t: operator_class(operator).build(bound, t))  # pyright: ignore

    def _callee(self, node: ast.Call) -> str | None:
        """``add`` for ``R.add(...)``, ``nn.conv2d`` for ``R.nn.conv2d(...)``."""
        name = dotted_name(node.func)
        prefix = f"{self.exprs.relax}."
        return name[len(prefix) :] if name is not None and name.startswith(prefix) else None

    def call(self, node: ast.Call) -> Expr | Deferred:
        callee = self._callee(node)
        if callee is None:
            return self._function_call(node)
        special = SPECIAL_CALLS.get(callee)
        if special is not None:
            return special(self, node)
        if callee == "nn.attention" and (
            len(node.args) > 3 or any(k.arg == "bias" for k in node.keywords)
        ):
            callee = "nn.attention_bias"  # TVM's R.nn.attention with a bias
        op = operator_class(f"relax.{callee}")
        if op is None:
            raise TVMScriptError(node.func, f"unknown Relax operator 'R.{callee}'")
        return self._operator(op, node)

    def _values(self, nodes: Sequence[ast.expr]) -> list[SSAValue]:
        return [self.builder.normalize(self.expr(node)) for node in nodes]

    def _call_function(self, name: str, nodes: Sequence[ast.expr]) -> Deferred:
        if self.builder.function_named(name) is None:
            raise TVMScriptError(self.last_node, f"the module has no Relax function '{name}'")
        args = self._values(nodes)
        return Deferred(lambda t: CallOp(name, args, t))

    def _function_call(self, node: ast.Call) -> Expr | Deferred:
        if node.keywords:
            raise TVMScriptError(node, "a function call takes positional arguments only")
        func = node.func
        target = (
            func.value.id
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
            else None
        )
        if target is not None and (
            target == self.module_name or self.lookup(target) == self.module_name
        ):
            return self._call_function(func.attr, node.args)  # pyright: ignore[reportAttributeAccessIssue]
        if isinstance(func, ast.Name):
            found = self.lookup(func.id)
            if isinstance(found, Function):
                return self._call_function(found.name, node.args)
            if isinstance(found, SSAValue):
                args = self._values(node.args)
                return Deferred(lambda t: InvokeOp(found, args, t))
        raise TVMScriptError(
            node.func, f"unknown function '{dotted_name(func) or ast.unparse(func)}'"
        )

    def _operator(self, op: type[OperatorOp], node: ast.Call) -> Deferred:
        """``R.op(operands..., attributes...)``: arguments bind to the operands,
        then the attributes, in their order; keywords bind by name; omitted
        operands take the defaults of TVM's Python API."""
        definition = op.get_irdl_definition()
        bound = self._arguments(op, node)
        if op.name == "relax.arange" and bound.get("end") is None:  # R.arange(n): 0 to n
            bound["start"], bound["end"] = ast.Constant(0), bound.get("start")
        for name, default in OPERAND_DEFAULTS.get(op.name, {}).items():
            if bound.get(name) is None:
                bound[name] = bound[default] if default in bound else ast.Constant(default)
        operands: list[Expr] = []
        for name, operand in definition.operands:
            given = bound.get(name)
            if given is None:
                if not isinstance(operand, VarOperandDef):
                    raise TVMScriptError(node, f"{_spelled(op)} needs argument '{name}'")
            elif isinstance(given, list):
                operands.extend(self._operand(element, name) for element in given)
            else:
                operands.append(self._operand(given, name))
        spelling = operator_spelling(op.name)
        attributes = {
            name: self._operator_attribute(
                spelling, name, value, definition.properties[name].constr
            )  # pyright: ignore
            for name, value in bound.items()
            if name in definition.properties and value is not None
        }
        values = [self.builder.normalize(operand) for operand in operands]
        self._check_prim_value_types(spelling, bound, values)
        return Deferred(lambda t: op.build(values, t, **attributes))  # pyright: ignore

    def _arguments(
        self, op: type[OperatorOp], node: ast.Call
    ) -> dict[str, ast.expr | list[ast.expr] | None]:
        """The call's arguments by operand or attribute name (``None``: not given)."""
        slots, variadic = _slots(op)
        bound: dict[str, ast.expr | list[ast.expr] | None] = {}
        positional = list(node.args)
        for name in slots:
            if not positional:
                break
            bound[name] = positional if name in variadic else positional.pop(0)
            positional = [] if name in variadic else positional
        if positional:
            raise TVMScriptError(
                positional[0], f"{_spelled(op)} takes at most {_count(len(slots), 'argument')}"
            )
        for keyword in node.keywords:
            if keyword.arg not in slots:
                raise TVMScriptError(keyword, f"{_spelled(op)} has no argument '{keyword.arg}'")
            if keyword.arg in bound:
                raise TVMScriptError(keyword, f"argument '{keyword.arg}' given twice")
            value = keyword.value
            bound[keyword.arg] = _elements(value) if keyword.arg in variadic else value
        return {k: None if _is_none(v) else v for k, v in bound.items()}

    def _operand(self, node: ast.expr, slot: str) -> Expr:
        if isinstance(node, ast.Tuple | ast.List) and self._all_prim(node.elts):
            dims = [self.exprs.prim_expr(element) for element in node.elts]
            return Shape(tuple(dims)) if slot in SHAPE_OPERANDS else dims
        return self.expr(node)

    def _all_prim(self, nodes: list[ast.expr]) -> bool:
        def prim(node: ast.expr) -> bool:
            if isinstance(node, ast.Constant):
                return isinstance(node.value, int | float | bool)
            if isinstance(node, ast.Name):
                return isinstance(self.lookup(node.id), PrimExpr)
            return isinstance(node, ast.BinOp | ast.UnaryOp) or (
                isinstance(node, ast.Call) and _call_prefix(node) == self.exprs.tir
            )

        return all(prim(node) for node in nodes)

    def _operator_attribute(
        self, spelling: OperatorSpelling, name: str, node: ast.expr, constraint: object
    ) -> object:
        """An attribute as its operator spells it: an index map, a value written
        ``R.prim_value(...)``, else a literal."""
        if name in spelling.index_maps:
            return AffineMapAttr(read_index_map(node, self.exprs.tir))
        if name in spelling.prim_value_attributes and self._is_prim_value(node):
            assert isinstance(node, ast.Call)
            if len(node.args) != 1 or node.keywords:
                raise TVMScriptError(node, "R.prim_value takes one value")
            node = node.args[0]
        return self._attribute_value(node, constraint)

    def _check_prim_value_types(
        self,
        spelling: OperatorSpelling,
        bound: dict[str, ast.expr | list[ast.expr] | None],
        values: Sequence[SSAValue],
    ) -> None:
        """An attribute written ``R.prim_value(T.<dtype>(...))`` has the data type of
        the first operand, as TVM requires."""
        for name in spelling.prim_value_attributes:
            node = bound.get(name)
            if not isinstance(node, ast.Call) or not self._is_prim_value(node) or not node.args:
                continue
            _, dtype = self.exprs.typed_prim(node.args[0])
            sinfo = values[0].type if values else None
            if dtype is None or not isinstance(sinfo, TensorType) or sinfo.data_type.is_void:
                continue
            if dtype != sinfo.data_type:
                theirs = sinfo.data_type.tvm_name()
                raise TVMScriptError(
                    node, f"{name} has data type {dtype.tvm_name()}, the input {theirs}"
                )

    def _is_prim_value(self, node: ast.expr) -> bool:
        return isinstance(node, ast.Call) and self._callee(node) == "prim_value"

    def _attribute_value(self, node: ast.expr, constraint: object) -> object:
        kind = attribute_kind(constraint)
        value = self._attribute_literal(node)
        if value is None:
            return None
        if kind == "dtype":
            return self.exprs.dtype(node)
        if kind == "list":
            values = value if isinstance(value, list | tuple) else [value]
            if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
                raise TVMScriptError(node, "expected a list of numbers")
            return tuple(values)
        if kind == "float" and isinstance(value, int) and not isinstance(value, bool):
            return float(value)
        expected = {"int": int, "bool": bool, "float": float, "str": str}.get(kind)
        if expected is not None and (
            not isinstance(value, expected) or (expected is int and isinstance(value, bool))
        ):
            raise TVMScriptError(node, f"expected {kind}, got {value!r}")
        return value

    def _attribute_literal(self, node: ast.expr) -> object:
        """An attribute's Python value: literals, lists of them, and typed
        constants such as ``T.float32(0.5)``."""
        if isinstance(node, ast.Tuple | ast.List):
            return [self._attribute_literal(element) for element in node.elts]
        if isinstance(node, ast.Call) and self._callee(node) == "str":
            return self._string(node)
        if isinstance(node, ast.Call) and _call_prefix(node) == self.exprs.tir:
            value = self.exprs.prim_expr(node)
            if isinstance(value, IntImm | FloatImm | BoolImm):
                return value.value
            raise TVMScriptError(node, "an attribute must be a constant")
        return literal(node)

    def _shape(self, node: ast.Call) -> Expr:
        if len(node.args) != 1 or not isinstance(node.args[0], ast.Tuple | ast.List):
            raise TVMScriptError(node, "R.shape takes a list of dimensions")
        return Shape(tuple(self.exprs.prim_expr(dim) for dim in node.args[0].elts))

    def _prim_value(self, node: ast.Call) -> Expr | Deferred:
        if len(node.args) != 1:
            raise TVMScriptError(node, "R.prim_value takes one value")
        value, dtype = self.exprs.typed_prim(node.args[0])
        if dtype is None:
            return value
        sinfo = PrimType(dtype, value)
        return Deferred(lambda t: PrimValueOp(PrimExprAttr(value), t), sinfo, literal=True)

    def _string(self, node: ast.Call) -> Expr:
        value = literal(node.args[0]) if len(node.args) == 1 else None
        if not isinstance(value, str):
            raise TVMScriptError(node, "R.str takes a string")
        return value

    def _data_type(self, node: ast.Call) -> Expr:
        if len(node.args) != 1:
            raise TVMScriptError(node, "R.dtype takes a data type string")
        return self.exprs.dtype(node.args[0])

    def _const(self, node: ast.Call) -> Expr:
        args = _bind_args(node, ("value", "dtype"))
        value = literal(args["value"]) if "value" in args else None
        if value is None:
            raise TVMScriptError(node, "R.const takes a number or a nested list of numbers")
        dtype = self.exprs.dtype(args["dtype"]) if "dtype" in args else None
        try:
            array = np.array(value, dtype.to_numpy() if dtype else const_dtype(value))
        except (TypeError, ValueError) as error:
            raise TVMScriptError(node, f"R.const: {error}") from None
        return array

    def _tuple(self, node: ast.Call) -> Expr:
        return [self.expr(arg) for arg in node.args]

    def _match_cast_args(self, node: ast.Call) -> tuple[Expr, StructInfoType]:
        args = _bind_args(node, ("value", "struct_info"))
        if len(args) != 2:
            raise TVMScriptError(node, "R.match_cast takes a value and a StructInfo")
        return self.expr(args["value"]), self.exprs.struct_info(args["struct_info"])

    def _match_cast(self, node: ast.Call) -> Deferred:
        value, sinfo = self._match_cast_args(node)
        bound = self.builder.normalize(value)
        return Deferred(lambda _: MatchCastOp(bound, sinfo), sinfo)

    def _extern_func(self, node: ast.Call) -> Deferred:
        args = _bind_args(node, ("global_symbol", "struct_info"))
        symbol = literal(args["global_symbol"]) if "global_symbol" in args else None
        if not isinstance(symbol, str):
            raise TVMScriptError(node, "R.ExternFunc takes the function's name")
        sinfo = self.exprs.struct_info(args["struct_info"]) if "struct_info" in args else None
        declared = sinfo if sinfo is not None else EXTERN_FUNC_TYPE
        return Deferred(lambda t: ExternFuncOp(symbol, t), declared)

    def _declared_type(self, args: dict[str, ast.expr], names: tuple[str, ...]) -> StructInfoType:
        """The result type of a call that declares it: the argument of the first of
        ``names`` given (``out_sinfo``, or its newer spelling ``out_ty``), by
        position or by keyword; a list of StructInfo is a tuple of them (of one:
        that one). ``object`` when none is given."""
        value = next((args[name] for name in names if name in args), None)
        if value is None:
            return ObjectType()
        if isinstance(value, ast.Tuple | ast.List):
            fields = [self.exprs.struct_info(field) for field in value.elts]
            return fields[0] if len(fields) == 1 else TupleType(fields)
        return self.exprs.struct_info(value)

    def _argument_tuple(self, node: ast.expr | None) -> list[SSAValue]:
        """The arguments of a call that takes them as one tuple (``R.call_tir(f, (x, y),
        ...)``): a tuple literal, or a value that is not a tuple, which stands for
        the tuple of itself, as in TVM's Python API. A tuple variable is refused,
        as TVM refuses it: these calls take their arguments written in line."""
        if node is None or isinstance(node, ast.Tuple | ast.List) or _is_none(node):
            return self._values(_elements(node))
        value = self.builder.normalize(self.expr(node))
        if isinstance(value.type, TupleType):
            text = ast.unparse(node)
            fields = ", ".join(f"{text}[{i}]" for i in range(len(value.type.types)))
            raise TVMScriptError(
                node,
                f"the arguments must be a tuple written in line, as ({fields}), "
                f"not the tuple value {text}",
            )
        return [value]

    def _packed(self, node: ast.Call) -> Deferred:
        callee = self._callee(node)
        op = PACKED_CALLS[callee]  # pyright: ignore[reportArgumentType]
        if not node.args:
            raise TVMScriptError(node, f"R.{callee} takes the function's name first")
        name = literal(node.args[0])
        if not isinstance(name, str):
            raise TVMScriptError(node.args[0], "the packed function's name must be a string")
        args = self._values(node.args[1:])
        attrs = self._keywords(node, ("sinfo_args", "ty_args", "inplace_indices"))
        sinfo = self._declared_type(attrs, ("sinfo_args", "ty_args"))
        if op is CallInplacePackedOp:
            indices = self._indices(node, attrs)
            return Deferred(lambda t: _with_indices(op(name, args, t), indices), sinfo)
        return Deferred(lambda t: op(name, args, t), sinfo)

    def _dps_packed(self, node: ast.Call) -> Deferred:
        args = _bind_args(node, ("func", "args", "out_sinfo", "out_ty"))
        name = literal(args.get("func"))  # pyright: ignore[reportArgumentType]
        if not isinstance(name, str):
            raise TVMScriptError(node, "R.call_dps_packed takes the function's name first")
        values = self._argument_tuple(args.get("args"))
        sinfo = self._declared_type(args, ("out_sinfo", "out_ty"))
        return Deferred(lambda t: CallDPSPackedOp(name, values, t), sinfo)

    def _call_tir(self, node: ast.Call) -> Deferred:
        callee = self._callee(node)
        args = _bind_args(node, TIR_CALL_ARGUMENTS[callee])  # pyright: ignore[reportArgumentType]
        function = args.get("gvar")
        if not isinstance(function, ast.Attribute):
            raise TVMScriptError(node, f"R.{callee} takes a module function (cls.f) first")
        values = self._argument_tuple(args.get("args"))
        sinfo = self._declared_type(args, ("out_sinfo", "out_ty"))
        tir_vars = None
        if "tir_vars" in args:
            tir_vars = self.builder.normalize(self._operand(args["tir_vars"], "shape"))
        attributes: dict[str, Attribute] = {}
        inplace = None
        if callee == "call_tir_inplace":
            indices = literal(args.get("inplace_indices"))  # pyright: ignore[reportArgumentType]
            inplace = tuple(indices if isinstance(indices, list | tuple) else [indices])
            attributes["inplace_indices"] = attribute_of(inplace)  # pyright: ignore
        op = TIR_CALLS[callee]  # pyright: ignore[reportArgumentType]
        kernels = self.tir_kernels

        def make(t: StructInfoType) -> BindingOp:
            name = kernels.prepare(function.attr, len(values), t, inplace)  # pyright: ignore
            return op(name, values, t, tir_vars, attributes)

        return Deferred(make, sinfo)

    def _closure_call(self, node: ast.Call) -> Deferred:
        callee = self._callee(node)
        args = _bind_args(node, ("closure", "args", "sinfo_args", "ty_args"))
        closure = self.builder.normalize(self.expr(args["closure"]))
        values = self._argument_tuple(args.get("args"))
        sinfo = self._declared_type(args, ("sinfo_args", "ty_args"))
        op = CLOSURE_CALLS[callee]  # pyright: ignore[reportArgumentType]
        return Deferred(lambda t: op(closure, values, t), sinfo)

    def _make_closure(self, node: ast.Call) -> Deferred:
        args = _bind_args(node, ("func", "args"))
        function = args.get("func")
        if not isinstance(function, ast.Attribute):
            raise TVMScriptError(node, "R.make_closure takes a module function (cls.f) first")
        values = self._argument_tuple(args.get("args"))
        return Deferred(lambda t: MakeClosureOp(function.attr, values, t))

    def _assert(self, node: ast.Call) -> Deferred:
        args = _bind_args(node, ("condition", "format_args", "format"))
        values = [self.expr(args["condition"]), *map(self.expr, _elements(args.get("format_args")))]
        template = self._attribute_literal(args["format"]) if "format" in args else ""
        bound = [self.builder.normalize(value) for value in values]
        op = operator_class("relax.assert_op")
        return Deferred(lambda t: op.build(bound, t, format=template))  # pyright: ignore

    def _to_vdevice(self, node: ast.Call) -> Deferred:
        """``R.to_vdevice(x, "cuda:0")``: the destination names a declared device."""
        args = _bind_args(node, ("data", "dst_vdevice"))
        if "data" not in args or "dst_vdevice" not in args:
            raise TVMScriptError(node, "R.to_vdevice takes the data and dst_vdevice")
        destination = str(self.exprs.vdevice(args["dst_vdevice"]))
        (data,) = self._values([args["data"]])
        op = operator_class("relax.to_vdevice")
        return Deferred(lambda t: op.build([data], t, dst_vdevice=destination))  # pyright: ignore

    def _hint_on_device(self, node: ast.Call) -> Deferred:
        """``R.hint_on_device(x, R.device(device_type, index), memory_scope)``."""
        args = _bind_args(node, ("data", "dst_vdevice", "memory_scope"))
        device = args.get("dst_vdevice")
        if "data" not in args or not (
            isinstance(device, ast.Call) and self._callee(device) == "device"
        ):
            raise TVMScriptError(node, "R.hint_on_device takes the data and R.device(type, index)")
        placement = {
            name: literal(value)
            for name, value in _bind_args(device, ("device_type", "index")).items()
        }
        if set(placement) != {"device_type", "index"} or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in placement.values()
        ):
            raise TVMScriptError(device, "R.device takes an integer device_type and index")
        scope = literal(args["memory_scope"]) if "memory_scope" in args else "global"
        if not isinstance(scope, str):
            raise TVMScriptError(args["memory_scope"], "memory_scope must be a string")
        (data,) = self._values([args["data"]])
        op = operator_class("relax.hint_on_device")
        return Deferred(lambda t: op.build([data], t, **placement, memory_scope=scope))  # pyright: ignore

    def _keywords(self, node: ast.Call, allowed: tuple[str, ...]) -> dict[str, ast.expr]:
        found = {}
        for keyword in node.keywords:
            if keyword.arg not in allowed:
                raise TVMScriptError(keyword, f"unexpected keyword argument '{keyword.arg}'")
            found[keyword.arg] = keyword.value
        return found

    def _indices(self, node: ast.Call, attrs: dict[str, ast.expr]) -> list[int]:
        value = literal(attrs["inplace_indices"]) if "inplace_indices" in attrs else None
        values = value if isinstance(value, list | tuple) else [value]
        if not all(isinstance(v, int) for v in values):
            raise TVMScriptError(node, "inplace_indices must be integers")
        return list(values)  # pyright: ignore[reportReturnType]


OPERAND_DEFAULTS: dict[str, dict[str, object]] = {
    "relax.eye": {"m": "n", "k": 0},
    "relax.eye_like": {"k": 0},
    "relax.tril": {"k": 0},
    "relax.triu": {"k": 0},
    "relax.arange": {"step": 1},
    "relax.unique": {
        "sorted": True,
        "return_index": False,
        "return_inverse": False,
        "return_counts": False,
    },
}
"""Operands TVM's Python API lets users leave out: a value, or the name of the
operand whose argument is repeated (``R.eye(n)`` is ``R.eye(n, n, 0)``)."""

TENSOR_OPERATORS = {
    (2, ast.Add): "relax.add",
    (2, ast.Sub): "relax.subtract",
    (2, ast.Mult): "relax.multiply",
    (2, ast.Div): "relax.divide",
    (2, ast.FloorDiv): "relax.floor_divide",
    (2, ast.Mod): "relax.mod",
    (2, ast.Pow): "relax.power",
    (2, ast.Lt): "relax.less",
    (2, ast.LtE): "relax.less_equal",
    (2, ast.Gt): "relax.greater",
    (2, ast.GtE): "relax.greater_equal",
    (1, ast.USub): "relax.negative",
}
"""Python operators on Relax values (TVM's ``ExprWithOp`` overloads)."""

SPECIAL_CALLS = {
    "shape": CallReader._shape,
    "prim_value": CallReader._prim_value,
    "str": CallReader._string,
    "dtype": CallReader._data_type,
    "const": CallReader._const,
    "tuple": CallReader._tuple,
    "match_cast": CallReader._match_cast,
    "ExternFunc": CallReader._extern_func,
    "extern": CallReader._extern_func,
    "call_packed": CallReader._packed,
    "call_pure_packed": CallReader._packed,
    "call_inplace_packed": CallReader._packed,
    "call_dps_packed": CallReader._dps_packed,
    "call_tir": CallReader._call_tir,
    "call_tir_inplace": CallReader._call_tir,
    "invoke_closure": CallReader._closure_call,
    "invoke_pure_closure": CallReader._closure_call,
    "make_closure": CallReader._make_closure,
    "assert_op": CallReader._assert,
    "to_vdevice": CallReader._to_vdevice,
    "hint_on_device": CallReader._hint_on_device,
}


@cache
def _slots(op: type[OperatorOp]) -> tuple[tuple[str, ...], frozenset[str]]:
    """An operator's argument names in order (operands, then attributes) and its
    variadic operands, worked out once per operator."""
    definition = op.get_irdl_definition()
    operands = definition.operands
    properties = [name for name in definition.properties if name != SEGMENTS]
    variadic = frozenset(name for name, d in operands if type(d) is VarOperandDef)
    return (*(name for name, _ in operands), *properties), variadic


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _spelled(op: type[OperatorOp]) -> str:
    return "R." + op.name.removeprefix("relax.")


def _is_none(node: object) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _with_indices(op: BindingOp, indices: list[int]) -> BindingOp:
    op.properties["inplace_indices"] = attribute_of(tuple(indices))
    return op


def _elements(node: ast.expr | None) -> list[ast.expr]:
    if node is None or (isinstance(node, ast.Constant) and node.value is None):
        return []
    return list(node.elts) if isinstance(node, ast.Tuple | ast.List) else [node]


def _bind_args(node: ast.Call, names: tuple[str, ...]) -> dict[str, ast.expr]:
    """Arguments of a special form bound to parameter names."""
    if len(node.args) > len(names):
        raise TVMScriptError(node, f"takes at most {_count(len(names), 'argument')}")
    bound = dict(zip(names, node.args, strict=False))
    for keyword in node.keywords:
        if keyword.arg not in names:
            raise TVMScriptError(keyword, f"unexpected keyword argument '{keyword.arg}'")
        if keyword.arg in bound:
            raise TVMScriptError(keyword, f"argument '{keyword.arg}' given twice")
        bound[keyword.arg] = keyword.value
    return bound


def const_dtype(value: object) -> str:
    """TVM's ``R.const`` data type for a Python value."""
    flat = value
    while isinstance(flat, list | tuple) and flat:
        flat = flat[0]
    if isinstance(flat, bool):
        return "bool"
    if isinstance(flat, int):
        return "int32"
    return "float32"


def _call_prefix(node: ast.Call) -> str:
    return (dotted_name(node.func) or "").rpartition(".")[0]


def check_binding(annotation: StructInfoType, inferred: StructInfoType) -> None:
    """A binding's annotation must not contradict the StructInfo of its value."""
    try:
        check_annotation("binding", annotation, inferred)
    except VerifyException as error:
        raise AnnotationError(str(error)) from None
