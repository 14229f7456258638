"""Print a module of the dialect as TVMScript that TVM 0.25 parses back.

The text follows TVM's own printer: the imports as comments (TVM's parser
takes the source without them), ``@I.ir_module class Module``, one
``@R.function`` per function (``private=True``, ``pure=False``,
``R.func_attr`` for attributes other than the dialect's), the symbolic
variables of a function declared first (``n = T.int64()``, and
``cls = Module`` when module functions are referenced), ``with R.dataflow()``
blocks ending in ``R.output``, ``if``/``else`` assigning the result in both
branches, nested ``@R.function`` definitions for lambdas and
``R.match_cast``. Every binding is annotated with its StructInfo (see
``expressions``; a variable bound to a variable, ``y = x``, with ``x``'s,
which is what reading it gives), except that a binding of the empty tuple
that nothing uses is a bare statement (``R.print(...)``), as TVM prints it.
Functions keep the module's order (TVM sorts them by name).

Names: SSA name hints are the Python names, exactly (``w_12`` stays
``w_12``); values of one name are told apart by suffixes no other name of the
function has (``names.fresh_name``); values without one are ``lv``, ``lv1``,
...; no value is named ``R``, ``T``, ``I``, ``cls``, ``metadata``, ``Module``,
``float`` or a keyword. A function whose name is no identifier is renamed
(``@"my-f"`` is ``my_f``, also as its global symbol, since TVM requires them to
agree). A symbolic variable bound again in a sibling scope (a ``match_cast`` in
both branches of an ``if``) is another variable for TVM, with another name. A
branch whose last binding makes its value under the ``if``'s name (as the
frontend reads ``r = ...`` ending both branches) assigns the ``if``'s variable
there, with no alias.

A leaf value that has a name is a binding, as the source wrote it (``s:
R.Shape([m, n]) = R.shape([m, n])``, ``t: R.Tuple(...) = a, b``). One without
a name (written inline, or made by a pass) whose only uses are operands of
calls, fields of tuples or the returned value is printed inline at those uses,
as in TVM's normal form: shapes (``R.shape([n * 4])``), prim values
(``R.prim_value(0)``), strings, data types, constants, module functions
(``cls.f``) and tuples (``(x, R.prim_value(0))``, ``return (a, b)``);
operator references and extern functions are inlined into their calls
(``R.add(x, y)``, ``R.call_packed("f", x, sinfo_args=(...))``).
A scalar constant is ``R.const(1.5, "float32")``; a larger one is
``metadata["relax.expr.Constant"][i]`` when a ``metadata`` dictionary is
given (it collects the arrays under that key, for the caller to save), else
``R.const([[1, 2], [3, 4]], "int32")``. Operators are spelled as ``spelling``
says; ``call_tir`` targets are printed as ``kernels`` describes.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterator, Sequence
from contextlib import contextmanager

import numpy as np
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DictionaryAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Block, Operation, SSAValue, Use
from xdsl.irdl import IRDLOperation

from ...analysis.symbolic_vars import symbolic_names
from ...analysis.symbols import symbol_name
from ...dtype import FLOAT32, INT64, VOID
from ...names import SUFFIXED, LazyNames, fresh_name, values_of
from ...ops.alias import AliasOp
from ...ops.base import BindingOp
from ...ops.calls import CallOp, InvokeOp, PackedCallOp, TIRCallBase
from ...ops.control_flow import IfOp, YieldOp
from ...ops.core import InvokeClosureBase, MakeClosureOp
from ...ops.dataflow import DataflowOp
from ...ops.functions import FunctionLike, FunctionOp, LambdaOp, ReturnOp
from ...ops.match_cast import MatchCastOp
from ...ops.operator import SEGMENTS, OperatorOp, python_value
from ...ops.references import ExternFuncOp, GlobalVarOp, OpRefOp
from ...ops.values import (
    LEAVES,
    ConstantOp,
    DataTypeImmOp,
    PrimValueOp,
    ShapeOp,
    StringImmOp,
    TupleGetItemOp,
    TupleOp,
)
from ...prim_expr import FloatImm, IntImm
from ...struct_info import definable_vars
from ...types import FuncType, ObjectType, PrimType, StructInfoType, TensorType, TupleType
from ...vdevice import TargetValue, VDeviceAttr, declared_vdevices
from .expressions import (
    ExpressionPrinter,
    attribute_literal,
    scalar_literal,
    string_literal,
    tuple_text,
)
from .index_maps import index_map_text
from .kernels import kernels_text, prim_func_stub
from .spelling import (
    CALLS,
    CONSTANTS,
    DPS_KERNELS,
    RESERVED,
    VALUES,
    CallSpelling,
    operator_spelling,
)

Metadata = dict[str, list[np.ndarray]]
"""Arrays printed as metadata references, by section (``CONSTANTS``)."""
INDENT = "    "
HEADER = [
    "# from tvm.script import ir as I",
    "# from tvm.script import tirx as T",
    "# from tvm.script import relax as R",
    "",
    "@I.ir_module",
    "class Module:",
]

CONSUMERS = (
    OperatorOp,
    CallOp,
    InvokeOp,
    TIRCallBase,
    PackedCallOp,
    MakeClosureOp,
    InvokeClosureBase,
    TupleOp,
    ReturnOp,
)
"""The operations whose operands may be leaves written inline."""


def print_tvmscript(module: ModuleOp, metadata: Metadata | None = None) -> str:
    """``module`` as TVMScript; non-scalar constants go to ``metadata`` when given."""
    return "\n".join(_ModulePrinter(module, metadata).lines()) + "\n"


class Names:
    """Python names unique in one scope: a hint as ``names.fresh_name`` gives it
    (``x``, then ``x_1``, ... avoiding ``reserved``, the names the scope's values
    have); without a hint ``lv``, ``lv1``, ... (TVM's spellings)."""

    def __init__(self, reserved: Container[str] = ()):
        self.taken = dict.fromkeys(RESERVED, 1)
        self.reserved = reserved
        self.unnamed = 0

    def fresh(self, hint: str | None = None) -> str:
        if hint:
            return fresh_name(python_name(hint), self.taken, self.reserved)
        while (name := f"lv{self.unnamed or ''}") in self.taken or name in self.reserved:
            self.unnamed += 1
        self.taken[name] = 1
        return name


def python_name(hint: str) -> str:
    """A name hint as a Python name (an SSA name may hold ``.``, ``$``, ``-``)."""
    name = re.sub(r"\W", "_", hint)
    return f"v{name}" if name[0].isdigit() else name


class _ModulePrinter:
    """Prints the module: its Relax functions and the stubs of its kernels."""

    def __init__(self, module: ModuleOp, metadata: Metadata | None):
        self.module = module
        self.metadata = metadata
        self.calls: dict[str, TIRCallBase] = {}
        for op in module.walk():
            if isinstance(op, TIRCallBase):
                self.calls.setdefault(op.callee_name, op)
        names = Names({python_name(name) for op in module.ops if (name := symbol_name(op))})
        self.function_names = {
            op.sym_name.data: names.fresh(op.sym_name.data)
            for op in module.ops
            if isinstance(op, FunctionOp | FuncOp)
        }

    def lines(self) -> list[str]:
        """The module's lines: the kernels' text, then the functions (``pass``
        when there is nothing, as TVM prints an empty module)."""
        members: list[list[str]] = []
        for op in self.module.ops:
            name = self.function_names.get(symbol_name(op) or "", "")
            if isinstance(op, FunctionOp):
                printer = _FunctionPrinter(self, op)
                lines = printer.lines(name)
                if yielding := printer.yieldable():  # a value named as a symbolic variable
                    lines = _FunctionPrinter(self, op, yielding).lines(name)
                members.append(lines)
            elif isinstance(op, FuncOp):
                members.append(prim_func_stub(op, name, self.calls.get(name), Names().fresh))
        body = [line for member in members for line in ("", *member)][1:] or ["pass"]
        kernels = [op for op in self.module.ops if not isinstance(op, FunctionOp)]
        if kernels:
            text = string_literal(kernels_text(kernels))
            body.insert(0, f"I.module_attrs({{{string_literal(DPS_KERNELS)}: {text}}})")
        if vdevices := declared_vdevices(self.module):
            listed = ", ".join(_vdevice(d) for d in vdevices)
            body.insert(0, f'I.module_global_infos({{"vdevice": [{listed}]}})')
        return HEADER + [INDENT + line if line else line for line in body]

    def constant(self, array: np.ndarray) -> str:
        """A constant: inline when scalar or when there is no metadata to hold it."""
        dtype = string_literal("bool" if array.dtype == np.bool_ else str(array.dtype))
        if array.ndim == 0:
            return _call(VALUES["relax.constant"], scalar_literal(array[()]), dtype)
        if self.metadata is None:
            return _call(VALUES["relax.constant"], _nested_list(array), dtype)
        arrays = self.metadata.setdefault(CONSTANTS, [])
        arrays.append(array)
        return f"metadata[{string_literal(CONSTANTS)}][{len(arrays) - 1}]"


def _keywords(properties: dict[str, Attribute], names: Sequence[str]) -> list[str]:
    """``name=value`` for the properties ``names``."""
    return [f"{name}={attribute_literal(python_value(properties[name]))}" for name in names]


def _vdevice(vdevice: VDeviceAttr) -> str:
    """``I.vdevice(target, vdevice_id, memory_scope)``."""
    target = vdevice.target_value
    text = string_literal(target) if isinstance(target, str) else _target_literal(target)
    return f"I.vdevice({text}, {vdevice.vdevice_id.data}, {string_literal(vdevice.scope)})"


def _target_literal(value: TargetValue) -> str:
    """A target configuration as a Python literal."""
    if isinstance(value, dict):
        items = (f"{string_literal(k)}: {_target_literal(v)}" for k, v in value.items())
        return "{" + ", ".join(items) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_target_literal(v) for v in value) + "]"
    return string_literal(value) if isinstance(value, str) else repr(value)


def _nested_list(array: np.ndarray) -> str:
    if array.ndim == 0:
        return scalar_literal(array[()])
    return f"[{', '.join(_nested_list(item) for item in array)}]"


class _FunctionPrinter:
    """Prints one global function, with the functions nested in it."""

    def __init__(
        self, module: _ModulePrinter, function: FunctionOp, yielding: frozenset[str] = frozenset()
    ):
        """``yielding``: symbolic variables written only quoted in the signature, whose
        names a value of the function has: the value keeps the name (as in TVM)."""
        self.module = module
        self.function = function
        self.names = Names(LazyNames(lambda: _hints(function)))
        self.yielding = yielding
        self.symbols = {
            name: name if name in yielding else self.names.fresh(name)
            for name in symbolic_names([function])
        }
        self.in_body = False
        self.used_in_body: set[str] = set()
        """The symbolic variables the body writes (not only the signature, quoted)."""
        self.in_scope = definable_vars(function.param_types())
        self.bound = {self.symbols[name] for name in self.in_scope}
        self.declarations: list[str] = []
        self.values: dict[SSAValue, str] = {}
        self.body: list[str] = []
        self.exprs = ExpressionPrinter(self._symbolic)

    # --- declarations -------------------------------------------------------------------

    def _declare(self, line: str) -> None:
        if line not in self.declarations:
            self.declarations.append(line)

    def _symbolic(self, name: str) -> str:
        python = self.symbols[name]
        if self.in_body:
            self.used_in_body.add(name)
        if name not in self.yielding:
            self._declare(f"{python} = T.int64()")
        return python

    def yieldable(self) -> frozenset[str]:
        """The symbolic variables whose names should go to values (``yielding``)."""
        quoted_only = set(self.symbols) - self.used_in_body
        return frozenset(quoted_only & _hints(self.function))

    def _function_ref(self, symbol: SymbolRefAttr) -> str:
        self._declare("cls = Module")
        return f"cls.{self.module.function_names[symbol.root_reference.data]}"

    def _bind_symbols(self, op: MatchCastOp) -> None:
        """Record the symbolic variables ``op`` binds. One bound before in another
        scope (a sibling branch) is another variable for TVM: it gets a new name."""
        for name in sorted(op.defined_vars() - self.in_scope):
            if self.symbols[name] in self.bound:
                self.symbols[name] = self.names.fresh(name)
            self.bound.add(self.symbols[name])
            self.in_scope.add(name)

    @contextmanager
    def _scope(self) -> Iterator[None]:
        """A nested scope: the symbolic variables it binds are not visible after it."""
        saved = dict(self.symbols), set(self.in_scope)
        yield
        self.symbols, self.in_scope = saved

    # --- functions ----------------------------------------------------------------------

    def lines(self, name: str) -> list[str]:
        """The function as ``name``: its signature, then the declarations of the
        signature's variables, ``R.func_attr``, the others', then the body."""
        function = self.function
        signature = self._signature(function, name, quoted=True)
        in_signature = len(self.declarations)
        self.in_body = True
        self._block(function.body.block, 1)
        attributes = function.attributes
        attrs_line = [f"R.func_attr({_dict_literal(attributes)})"] if attributes else []
        prologue = self.declarations[:in_signature] + attrs_line + self.declarations[in_signature:]
        return [*signature, *(INDENT + line for line in prologue), *self.body]

    def _signature(self, function: FunctionLike, name: str, quoted: bool) -> list[str]:
        """The decorator and ``def`` line; ``quoted`` writes dimensions with
        variables as strings (as TVM does for global functions)."""
        keywords = [] if function.pure else ["pure=False"]
        if isinstance(function, FunctionOp) and function.global_symbol is None:
            keywords.append("private=True")
        decorator = f"@R.function({', '.join(keywords)})" if keywords else "@R.function"
        ret = self.exprs.struct_info(function.result_info(), quoted)
        params = ", ".join(
            f"{self._define(param)}: {self.exprs.struct_info(param_type, quoted)}"
            for param, param_type in zip(function.params, function.param_types(), strict=True)
        )
        return [decorator, f"def {name}({params}) -> {ret}:"]

    def _lambda(self, op: LambdaOp, depth: int) -> None:
        name = self._define(op.result)
        if op.self_reference is not None:
            self.values[op.self_reference] = name
        self._emit(depth, *self._signature(op, name, quoted=False))
        with self._scope():
            self.in_scope |= definable_vars(op.param_types())
            self._block(op.body.block, depth + 1)
        self._emit(depth, "")

    # --- blocks -------------------------------------------------------------------------

    def _emit(self, depth: int, *lines: str) -> None:
        self.body += [INDENT * depth + line if line else line for line in lines]

    def _define(self, value: SSAValue, hint: str | None = None) -> str:
        if value not in self.values:
            self.values[value] = self.names.fresh(value.name_hint or hint)
        return self.values[value]

    def _block(self, block: Block, depth: int) -> None:
        for op in block.ops:
            if isinstance(op, ReturnOp):
                self._emit(depth, f"return {self._value(op.value)}")
            elif isinstance(op, DataflowOp):
                self._dataflow(op, depth)
            elif isinstance(op, IfOp):
                self._if(op, depth)
            elif isinstance(op, LambdaOp):
                self._lambda(op, depth)
            elif isinstance(op, BindingOp) and not _inlinable(op):
                self._binding(op, depth)

    def _binding(self, op: BindingOp, depth: int) -> None:
        result = op.results[0]
        if isinstance(op, MatchCastOp):
            self._bind_symbols(op)
        if isinstance(op, AliasOp):
            self._assign_value(depth, result, op.value)
            return
        rhs = self._rhs(op)
        if result.type == TupleType([]) and not result.uses and not isinstance(op, MatchCastOp):
            self._emit(depth, rhs)
        else:
            self._assign(depth, result, rhs)

    def _assign(
        self, depth: int, result: SSAValue, rhs: str, sinfo: Attribute | None = None
    ) -> None:
        annotation = self.exprs.struct_info(sinfo or result.type)  # pyright: ignore[reportArgumentType]
        self._emit(depth, f"{self._define(result)}: {annotation} = {rhs}")

    def _assign_value(self, depth: int, result: SSAValue, value: SSAValue) -> None:
        """``result = value``. A variable bound to a variable has the value's
        StructInfo when read (TVM drops the annotation), so it is annotated with
        that; a leaf written inline, with the result's."""
        sinfo = value.type if value in self.values else result.type
        self._assign(depth, result, self._value(value), sinfo)

    def _dataflow(self, op: DataflowOp, depth: int) -> None:
        """``with R.dataflow():``; an output bound in the block is that binding's
        variable (named as the output unless the binding has a name of its own),
        any other (defined outside, or given twice) gets a binding."""
        aliases = []
        bound_here: set[SSAValue] = set()
        for result, value in zip(op.outputs, op.output_op.values, strict=True):
            owner = value.owner
            here = isinstance(owner, Operation) and owner.parent is op.body.block
            if here and value not in bound_here:
                bound_here.add(value)
                hint = result.name_hint if _same_name(value, result) else value.name_hint
                self.values[result] = self.values[value] = self.names.fresh(hint)
                continue
            aliases.append((result, value))
        self._emit(depth, "with R.dataflow():")
        self._block(op.body.block, depth + 1)
        for result, value in aliases:
            self._assign_value(depth + 1, result, value)
        self._emit(depth + 1, f"R.output({', '.join(self._values(op.outputs))})")

    def _if(self, op: IfOp, depth: int) -> None:
        """``if``/``else``, each branch ending by assigning the result: a branch
        whose last binding makes the value it yields under the result's name
        assigns it to the result's variable, as the source wrote it; another
        assigns the yielded value."""
        condition = self._value(op.cond)
        name = self._define(op.result)
        for header, region in ((f"if {condition}:", op.then_region), ("else:", op.else_region)):
            self._emit(depth, header)
            with self._scope():
                yielded = region.block.last_op
                assert isinstance(yielded, YieldOp)
                last = _last_binding(yielded, op.result)
                if last is not None:
                    self.values[last] = name
                self._block(region.block, depth + 1)
                if last is None:
                    self._assign_value(depth + 1, op.result, yielded.value)

    # --- values -------------------------------------------------------------------------

    def _value(self, value: SSAValue) -> str:
        """A value: its variable, or the expression of a leaf printed inline."""
        if value in self.values:
            return self.values[value]
        owner = value.owner
        assert isinstance(owner, BindingOp) and _inlinable(owner), f"{value} is unnamed"
        return self._rhs(owner)

    def _values(self, values: Sequence[SSAValue]) -> list[str]:
        return [self._value(v) for v in values]

    def _rhs(self, op: BindingOp) -> str:
        """The expression ``op`` binds."""
        if isinstance(op, OperatorOp):
            return self._operator(type(op), op.operands, op.properties)
        callee = op.callee.owner if isinstance(op, InvokeOp) else None
        if isinstance(callee, OpRefOp | ExternFuncOp) and _inlinable(callee):
            return self._inlined_callee(op, callee)  # pyright: ignore[reportArgumentType]
        if (spelling := CALLS.get(op.name)) is not None:
            return self._call_form(op, spelling)
        exprs = self.exprs
        match op:
            case AliasOp():
                return self._value(op.value)
            case MatchCastOp():
                target = exprs.struct_info(op.target)
                return _call(VALUES[op.name], self._value(op.value), target)
            case ConstantOp():
                return self.module.constant(op.value.array)
            case ShapeOp():
                return _call(VALUES[op.name], f"[{', '.join(map(exprs.dim, op.dims.data))}]")
            case PrimValueOp():
                return _call(VALUES[op.name], exprs.dim(op.value.data, op.data_type()))
            case StringImmOp():
                return _call(VALUES[op.name], string_literal(op.value.data))
            case DataTypeImmOp():
                return _call(VALUES[op.name], string_literal(op.value.data.tvm_name()))
            case TupleOp():
                return self._tuple(op)
            case TupleGetItemOp():
                return f"{self._value(op.tuple_value)}[{op.index.data}]"
            case GlobalVarOp():
                return self._function_ref(op.function)
            case ExternFuncOp():
                return self._extern_func(op)
            case OpRefOp():
                return operator_spelling(op.op_name.data).callee
        raise NotImplementedError(f"no TVMScript spelling for {op.name}")

    def _operator(
        self, op: type[Operation], operands: Sequence[SSAValue], properties: dict[str, Attribute]
    ) -> str:
        """``R.<name>(operands..., keyword=attribute...)`` as ``OPERATORS`` says,
        attributes taking their declared defaults when unset."""
        assert issubclass(op, IRDLOperation)
        spelling = operator_spelling(op.name)
        definition = op.get_irdl_definition()
        slots = [name for name, _ in definition.operands]
        args = [
            self._prim_operand(value) if slot in spelling.prim_values else self._value(value)
            for slot, value in zip(slots, operands, strict=False)
        ]
        args += self._values(operands[len(args) :])
        if spelling.list_from is not None and len(args) > spelling.list_from:
            args[spelling.list_from :] = [f"[{', '.join(args[spelling.list_from :])}]"]
        declared = definition.properties
        for name in spelling.attributes or declared:
            attribute = properties.get(name, declared[name].default_value)
            if name in spelling.prim_value_attributes:
                args.append(f"{name}={self._prim_value_attribute(attribute, operands[0])}")
                continue
            if name == SEGMENTS or attribute is None:
                continue
            if name in spelling.device:
                if name == spelling.device[0]:
                    args.append(_call("R.device", *_keywords(properties, spelling.device)))
                continue
            if name in spelling.index_maps:
                assert isinstance(attribute, AffineMapAttr)
                args.append(f"{name}={index_map_text(attribute.data)}")
                continue
            value = python_value(attribute)
            if name in spelling.integers and len(value) == 1:
                value = value[0]
            text = attribute_literal(value)
            args.append(f"{name}=R.str({text})" if name in spelling.strings else f"{name}={text}")
        return _call(spelling.callee, *args)

    def _prim_value_attribute(self, attribute: Attribute | None, operand: SSAValue) -> str:
        """``R.prim_value(value)`` in the data type of ``operand`` (``T.float32(1.5)``;
        an ``int64`` plain), or ``None``. (TVM 0.25 prints every integer plain, which
        it then reads as an ``int64`` that does not match an ``int32`` tensor.)"""
        if attribute is None:
            return "None"
        value = python_value(attribute)
        sinfo = operand.type
        dtype = sinfo.data_type if isinstance(sinfo, TensorType) else VOID
        if dtype.is_void:
            dtype = FLOAT32 if isinstance(value, float) else INT64
        literal = FloatImm(value) if isinstance(value, float) else IntImm(int(value))
        return _call("R.prim_value", self.exprs.literal(literal, dtype, typed=False))

    def _prim_operand(self, value: SSAValue) -> str:
        """An operand TVM takes only as ``R.prim_value(...)``: a prim value's
        binding is written as its expression, a variable whose type knows its
        value as that value."""
        if isinstance(owner := value.owner, PrimValueOp):
            return self._rhs(owner)
        sinfo = value.type
        if value in self.values and isinstance(sinfo, PrimType) and sinfo.known_value is not None:
            return _call("R.prim_value", self.exprs.dim(sinfo.known_value, sinfo.data_type))
        return self._value(value)

    def _inlined_callee(self, op: InvokeOp, callee: OpRefOp | ExternFuncOp) -> str:
        """A call of an operator reference is the operator's; of an extern function
        (with a derived result type), ``R.call_packed`` with that type."""
        if isinstance(callee, OpRefOp):
            return self._operator(callee.operator(), op.args, {})
        name = string_literal(callee.symbol.data)
        result = self._result_keyword("sinfo_args", op.result.type)
        return _call("R.call_packed", name, *self._values(op.args), result)

    def _call_form(self, op: BindingOp, spelling: CallSpelling) -> str:
        """A call as ``CALLS`` spells it."""
        target = getattr(op, spelling.target)
        if isinstance(target, SymbolRefAttr):
            callee = self._function_ref(target)
        elif isinstance(target, StringAttr):
            callee = string_literal(target.data)
        else:
            callee = self._value(target)
        args = self._values(getattr(op, spelling.arguments))
        if spelling.as_tuple:
            args = [tuple_text(args)]
        for keyword in spelling.keywords:
            if keyword in ("out_sinfo", "sinfo_args"):
                args.append(self._result_keyword(keyword, op.results[0].type))
            elif (value := getattr(op, keyword)) is not None:
                text = (
                    self._value(value)
                    if isinstance(value, SSAValue)
                    else attribute_literal(python_value(value))
                )
                args.append(f"{keyword}={text}")
        return (
            _call(callee, *args)
            if spelling.callee is None
            else _call(spelling.callee, callee, *args)
        )

    def _result_keyword(self, keyword: str, sinfo: Attribute) -> str:
        """``sinfo_args=(T,)``, or ``out_sinfo=T`` (a list for a tuple)."""
        assert isinstance(sinfo, StructInfoType)
        if keyword == "sinfo_args":
            return f"sinfo_args=({self.exprs.struct_info(sinfo)},)"
        if isinstance(sinfo, TupleType):
            return f"out_sinfo=[{', '.join(map(self.exprs.struct_info, sinfo.types))}]"
        return f"out_sinfo={self.exprs.struct_info(sinfo)}"

    def _tuple(self, op: TupleOp) -> str:
        """``(a, b)`` inline, ``a, b`` bound (as TVM prints them), ``R.tuple()``."""
        fields = self._values(op.fields)
        if not fields:
            return _call(VALUES[op.name])
        inline = _inlinable(op) or len(fields) == 1
        return tuple_text(fields) if inline else ", ".join(fields)

    def _extern_func(self, op: ExternFuncOp) -> str:
        """``R.ExternFunc("name")``, with its type unless it is TVM's default."""
        sinfo = op.result.type
        assert isinstance(sinfo, FuncType)
        default = sinfo.is_opaque and not sinfo.is_pure and isinstance(sinfo.ret_type, ObjectType)
        args = [string_literal(op.symbol.data)]
        return _call(VALUES[op.name], *args, *([] if default else [self.exprs.struct_info(sinfo)]))


def _hints(function: FunctionOp) -> set[str]:
    """The names the values of ``function`` have, as Python names."""
    return {python_name(hint) for value in values_of(function) if (hint := value.name_hint)}


def _call(callee: str, *args: str) -> str:
    return f"{callee}({', '.join(args)})"


def _inlinable(op: Operation) -> bool:
    """Whether ``op`` is a leaf written inline at its uses: one without a name (the
    source wrote it inline, or a pass made it) used only where TVM's normal form
    writes it inline; an operator reference, and an extern function called with a
    derived result type, inline into their calls."""
    result = op.results[0] if isinstance(op, LEAVES) else None
    if result is None or not result.uses:
        return False
    if isinstance(op, ExternFuncOp | OpRefOp):
        derived = isinstance(op, OpRefOp) or op.result.type.derive is not None  # pyright: ignore
        return derived and all(_is_callee(use) for use in result.uses)
    return not result.name_hint and all(isinstance(u.operation, CONSUMERS) for u in result.uses)


def _last_binding(yielded: YieldOp, result: SSAValue) -> SSAValue | None:
    """The value a branch yields when the binding just before the ``yield`` (a
    binding, or an ``if`` ending the branch) makes it for the ``yield`` alone,
    under the name of the ``if``'s ``result``."""
    value = yielded.value
    owner = value.owner
    binding = isinstance(owner, IfOp | BindingOp)
    if not binding or owner is not yielded.prev_op or not value.has_one_use():
        return None
    return value if _same_name(value, result) else None


def _same_name(inner: SSAValue, outer: SSAValue) -> bool:
    """Whether ``inner`` (a branch's or a dataflow block's value) has no name, or
    ``outer``'s (the ``if``'s or the block's result), or that name with a suffix
    (as the MLIR printer tells them apart)."""
    hint = inner.name_hint
    return not hint or SUFFIXED.sub("", hint) == SUFFIXED.sub("", outer.name_hint or "")


def _is_callee(use: Use) -> bool:
    return isinstance(use.operation, InvokeOp) and use.index == 0


def _dict_literal(attributes: dict[str, Attribute]) -> str:
    """Function attributes as a Python dictionary, keys sorted as TVM prints them."""
    entries = [f"{string_literal(k)}: {_attribute_value(v)}" for k, v in sorted(attributes.items())]
    return "{" + ", ".join(entries) + "}"


def _attribute_value(attribute: Attribute) -> str:
    if isinstance(attribute, ArrayAttr):
        return "[" + ", ".join(_attribute_value(a) for a in attribute.data) + "]"
    if isinstance(attribute, DictionaryAttr):
        return _dict_literal(attribute.data)
    value = python_value(attribute)
    return string_literal(str(value)) if isinstance(value, Attribute) else attribute_literal(value)
