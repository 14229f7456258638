"""TVMScript → the Relax dialect, by reading Python's ``ast`` (never executing it).

Accepts what TVM 0.25 prints (``R.Tensor(("n", 4), dtype="float32")``,
``n = T.int64()`` in a body, ``sinfo_args=``/``out_sinfo=``,
``metadata["relax.expr.Constant"][i]``) and the newer spellings
(module-level ``n = T.int64()`` / ``TypeVar("n")``, ``R.Any``,
``ty_args=``/``out_ty=``). Bindings go through ``Builder``, so each one's
StructInfo is inferred (and checked against its annotation) as it is read;
nested expressions become bindings of their own, left to right.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import VarOperandDef
from xdsl.utils.exceptions import ParseError, VerifyException

from ..attributes import PrimExprAttr
from ..builder import AnnotationError, Builder, Expr, Shape, operator_class
from ..diagnostics import Diagnostic, DiagnosticError, SourceLocation, from_parse_error
from ..ops.base import BindingOp, check_annotation
from ..ops.calls import (
    CallDPSPackedOp,
    CallInplacePackedOp,
    CallOp,
    CallPackedOp,
    CallPurePackedOp,
    CallTIRInplaceOp,
    CallTIROp,
    InvokeOp,
)
from ..ops.core import InvokeClosureOp, InvokePureClosureOp, MakeClosureOp
from ..ops.functions import FunctionLike
from ..ops.match_cast import MatchCastOp
from ..ops.operator import SEGMENTS, OperatorOp, attribute_kind, attribute_of
from ..ops.references import EXTERN_FUNC_TYPE, ExternFuncOp, GlobalVarOp
from ..ops.values import PrimValueOp, TupleGetItemOp
from ..prim_expr import BoolImm, FloatImm, IntImm, PrimExpr, Var
from ..types import ObjectType, PrimType, StructInfoType, TupleType, struct_info_text
from .annotations import ExprReader, TVMScriptError, dotted_name
from .spelling import CONSTANTS, DPS_KERNELS

SHAPE_OPERANDS = ("shape", "size")
"""Operand names whose literal tuples are shapes (other literal tuples of numbers
are tuples of prim values, as ``strided_slice``'s bounds)."""

PACKED_CALLS = {
    "call_packed": CallPackedOp,
    "call_pure_packed": CallPurePackedOp,
    "call_inplace_packed": CallInplacePackedOp,
}
TIR_CALLS = {"call_tir": CallTIROp, "call_tir_inplace": CallTIRInplaceOp}
CLOSURE_CALLS = {"invoke_closure": InvokeClosureOp, "invoke_pure_closure": InvokePureClosureOp}


def parse_tvmscript(
    text: str,
    filename: str = "<tvmscript>",
    constants: Sequence[np.ndarray] = (),
    ctx: Context | None = None,
    line_offset: int = 0,
) -> ModuleOp:
    """The module a TVMScript source defines; ``constants`` are the arrays its
    ``metadata["relax.expr.Constant"][i]`` refer to; ``line_offset`` lines
    precede ``text`` in the file. Raises ``DiagnosticError`` located in the source."""
    try:
        tree = ast.parse("\n" * line_offset + text, filename)
    except SyntaxError as error:
        location = SourceLocation(filename, error.lineno or 1, error.offset or 1)
        raise DiagnosticError([Diagnostic(location, f"invalid syntax: {error.msg}")]) from None
    reader = ModuleReader(filename, list(constants), ctx)
    try:
        return reader.read(tree)
    except TVMScriptError as error:
        raise DiagnosticError([Diagnostic(reader.where(error.node), error.message)]) from None


@dataclass(frozen=True)
class Function:
    """A module function named in the source (``cls.f`` refers to it)."""

    name: str


@dataclass(frozen=True)
class DeadValue:
    """A dataflow variable after its block (a use is an error)."""

    name: str


Symbol = SSAValue | PrimExpr | Function | DeadValue | str


@dataclass(frozen=True)
class Deferred:
    """A binding built once its name and annotation are known; ``declared`` is
    the result type of an operation that declares it (``sinfo_args``)."""

    make: Callable[[StructInfoType], BindingOp]
    declared: StructInfoType | None = None


class ModuleReader:
    """Reads one TVMScript module into a ``Builder``."""

    def __init__(self, filename: str, constants: list[np.ndarray], ctx: Context | None):
        self.filename = filename
        self.constants = constants
        self.ctx = ctx
        self.builder = Builder()
        self.aliases: dict[str, str] = {"R": "relax", "T": "tir", "I": "ir"}
        self.scopes: list[dict[str, Symbol]] = [{}]
        self.module_name = "Module"
        self.exprs = ExprReader(self._symbolic, "T", "R")
        self.last_node: ast.AST | None = None

    # --- locations and scopes -----------------------------------------------------------

    def where(self, node: ast.AST | None) -> SourceLocation | None:
        node = node if node is not None else self.last_node
        if node is None or not hasattr(node, "lineno"):
            return None
        return SourceLocation(self.filename, node.lineno, node.col_offset + 1)  # pyright: ignore

    def _locate(self, node: ast.AST) -> None:
        self.last_node = node
        self.builder.location = FileLineColLoc(
            StringAttr(self.filename),
            IntAttr(node.lineno),
            IntAttr(node.col_offset + 1),  # pyright: ignore
        )

    def lookup(self, name: str) -> Symbol | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def define(self, name: str, symbol: Symbol) -> None:
        self.scopes[-1][name] = symbol

    @contextmanager
    def scope(self) -> Iterator[dict[str, Symbol]]:
        self.scopes.append({})
        try:
            yield self.scopes[-1]
        finally:
            self.scopes.pop()

    def _symbolic(self, name: str) -> PrimExpr | bool:
        found = self.lookup(name)
        return found if isinstance(found, PrimExpr) else found is not None

    @contextmanager
    def located(self, node: ast.AST) -> Iterator[None]:
        """Build at ``node``; a verifier's complaint becomes an error there."""
        previous = self.builder.location, self.last_node
        self._locate(node)
        try:
            yield
        except AnnotationError:
            raise  # located at the annotation by the binding's reader
        except VerifyException as error:
            raise TVMScriptError(node, str(error).splitlines()[0]) from None
        finally:
            self.builder.location, self.last_node = previous

    # --- module -------------------------------------------------------------------------

    def read(self, tree: ast.Module) -> ModuleOp:
        classes = []
        for statement in tree.body:
            if isinstance(statement, ast.Import | ast.ImportFrom):
                self._import(statement)
            elif isinstance(statement, ast.ClassDef | ast.FunctionDef):
                classes.append(statement)
            elif isinstance(statement, ast.Assign):
                self._declaration(statement)
            elif not _is_docstring(statement):
                raise TVMScriptError(statement, "expected an @I.ir_module class")
        if not classes:
            raise TVMScriptError(tree.body[0] if tree.body else None, "no module is defined")
        if len(classes) > 1:
            raise TVMScriptError(classes[1], "one module per file")
        definition = classes[0]
        if isinstance(definition, ast.FunctionDef):
            self._functions([definition], {})
        else:
            self._class(definition)
        return self.builder.module

    def _import(self, statement: ast.Import | ast.ImportFrom) -> None:
        for alias in statement.names:
            local = alias.asname or alias.name
            if local in ("relax", "tirx", "tir", "ir"):
                self.aliases[local] = {"tirx": "tir"}.get(alias.name, alias.name)
        self.exprs.relax = self._alias("relax")
        self.exprs.tir = self._alias("tir")

    def _alias(self, module: str) -> str:
        for local, target in self.aliases.items():
            if target == module:
                return local
        return module

    def _declaration(self, statement: ast.Assign) -> None:
        """A module-level symbolic variable: ``n = T.int64()`` or ``n = TypeVar("n")``."""
        target = statement.targets[0] if len(statement.targets) == 1 else None
        if not isinstance(target, ast.Name) or not self._declares_var(statement.value):
            raise TVMScriptError(statement, "expected a symbolic variable declaration")
        self.define(target.id, Var(target.id))

    def _declares_var(self, node: ast.expr) -> bool:
        if not isinstance(node, ast.Call):
            return False
        name = dotted_name(node.func) or ""
        prefix, _, kind = name.rpartition(".")
        integer = prefix == self.exprs.tir and kind.startswith(("int", "uint")) and not node.args
        return integer or (kind in ("TypeVar", "Var") and prefix in ("", self.exprs.tir))

    def _class(self, definition: ast.ClassDef) -> None:
        if not any(
            dotted_name(d) == f"{self._alias('ir')}.ir_module" for d in definition.decorator_list
        ):
            raise TVMScriptError(definition, "the module class must be decorated with @I.ir_module")
        self.module_name = definition.name
        functions, kernels = [], {}
        for statement in definition.body:
            if isinstance(statement, ast.FunctionDef):
                functions.append(statement)
            elif isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
                kernels.update(self._module_attrs(statement.value))
            elif not _is_docstring(statement) and not isinstance(statement, ast.Pass):
                raise TVMScriptError(statement, "expected a function of the module")
        self._functions(functions, kernels)

    def _module_attrs(self, node: ast.Call) -> dict[str, str]:
        if dotted_name(node.func) != f"{self._alias('ir')}.module_attrs" or len(node.args) != 1:
            raise TVMScriptError(node, "expected a function of the module or I.module_attrs")
        entries = _literal(node.args[0])
        if not isinstance(entries, dict):
            raise TVMScriptError(node, "I.module_attrs takes a dictionary")
        kernels = entries.get(DPS_KERNELS, "")
        return {DPS_KERNELS: kernels} if isinstance(kernels, str) and kernels else {}

    def _functions(self, functions: list[ast.FunctionDef], attrs: dict[str, str]) -> None:
        relax_functions = []
        for function in functions:
            decorator = self._decorator(function)
            if decorator == "tir":
                self._prim_func(function, attrs)
            else:
                relax_functions.append(function)
        for function in relax_functions:
            self.define(function.name, Function(function.name))
        for function in relax_functions:
            self._declare(function)
        for function in relax_functions:
            self._function_body(function)

    def _decorator(self, function: ast.FunctionDef) -> str:
        for decorator in function.decorator_list:
            name = dotted_name(decorator.func if isinstance(decorator, ast.Call) else decorator)
            if name == f"{self.exprs.relax}.function":
                return "relax"
            if name == f"{self.exprs.tir}.prim_func":
                return "tir"
        raise TVMScriptError(function, "a module function must be decorated with @R.function")

    def _prim_func(self, function: ast.FunctionDef, attrs: dict[str, str]) -> None:
        """A ``T.prim_func``: only the stub the printer writes for a ``func.func``
        whose MLIR text travels in ``I.module_attrs`` is accepted."""
        kernels = attrs.get(DPS_KERNELS)
        if kernels is not None and self._kernel_names(kernels) >= {function.name}:
            return
        raise TVMScriptError(
            function.decorator_list[0],
            f"T.prim_func '{function.name}' is not supported: TIR is outside this project; "
            "write the call_tir target as a destination-passing func.func (inputs, then "
            "outputs) in MLIR (linalg/tensor/arith), see docs/tvmscript.md",
        )

    def _kernel_names(self, text: str) -> set[str]:
        from ..parser import parse_module

        if self.ctx is None:
            raise TVMScriptError(None, "call_tir kernels need an MLIR context")
        if not getattr(self, "_kernels_loaded", False):
            self._kernels_loaded = True
            try:
                kernels = parse_module(self.ctx, text, f"{self.filename}:{DPS_KERNELS}")
            except ParseError as error:
                raise DiagnosticError([from_parse_error(error)]) from None
            for op in list(kernels.body.block.ops):
                op.detach()
                self.builder.module.body.block.add_op(op)
        names = set()
        for op in self.builder.module.body.block.ops:
            sym = op.properties.get("sym_name") or op.attributes.get("sym_name")
            if isinstance(sym, StringAttr):
                names.add(sym.data)
        return names

    # --- functions ----------------------------------------------------------------------

    def _function_options(self, function: ast.FunctionDef) -> dict[str, bool]:
        options = {"private": False, "pure": True}
        for decorator in function.decorator_list:
            if not isinstance(decorator, ast.Call):
                continue
            for keyword in decorator.keywords:
                if keyword.arg not in options:
                    raise TVMScriptError(keyword, f"unexpected @R.function option '{keyword.arg}'")
                value = _literal(keyword.value)
                if not isinstance(value, bool):
                    raise TVMScriptError(keyword, f"{keyword.arg} must be True or False")
                options[keyword.arg] = value
        return options

    def _signature(
        self, function: ast.FunctionDef
    ) -> tuple[dict[str, StructInfoType], StructInfoType | None]:
        """Parameter and return annotations; string dimensions define variables."""
        params: dict[str, StructInfoType] = {}
        arguments = function.args
        if arguments.vararg or arguments.kwarg or arguments.kwonlyargs or arguments.defaults:
            raise TVMScriptError(function, "parameters must be plain annotated names")
        for arg in arguments.args:
            if arg.annotation is None:
                raise TVMScriptError(arg, f"parameter '{arg.arg}' needs a StructInfo annotation")
            self._define_string_vars(arg.annotation)
            params[arg.arg] = self.exprs.struct_info(arg.annotation)
        ret = None
        if function.returns is not None:
            self._define_string_vars(function.returns)
            ret = self.exprs.struct_info(function.returns)
        return params, ret

    def _define_string_vars(self, annotation: ast.expr) -> None:
        for node in ast.walk(annotation):
            name = node.value if isinstance(node, ast.Constant) else None
            fresh = isinstance(name, str) and name.isidentifier() and self.lookup(name) is None
            if fresh and _is_dimension(annotation, node):  # pyright: ignore[reportArgumentType]
                self.define(name, Var(name))  # pyright: ignore[reportArgumentType]

    def _declare(self, function: ast.FunctionDef) -> None:
        with self.scope(), self.located(function):
            params, ret = self._signature(function)
            options = self._function_options(function)
            self.builder.declare_function(
                function.name, params, ret, private=options["private"], pure=options["pure"]
            )

    def _function_body(self, function: ast.FunctionDef) -> None:
        with self.scope():
            params, ret = self._signature(function)
            options = self._function_options(function)
            with (
                self.located(function),
                self.builder.function(
                    function.name, params, ret, private=options["private"], pure=options["pure"]
                ) as frame,
            ):
                for arg, value in zip(function.args.args, frame.params, strict=True):
                    self.define(arg.arg, value)
                    value.location = self.builder.location  # pyright: ignore[reportAttributeAccessIssue]
                self._body(function.body, function)

    def _body(self, statements: list[ast.stmt], owner: ast.AST) -> None:
        """A function body: bindings ending with ``return``."""
        for index, statement in enumerate(statements):
            if isinstance(statement, ast.Return):
                if index != len(statements) - 1:
                    raise TVMScriptError(statements[index + 1], "code after return")
                if statement.value is None:
                    raise TVMScriptError(statement, "a Relax function returns a value")
                with self.located(statement.value):
                    value = self.builder.normalize(self.expr(statement.value))
                    self._check_return(value)
                    self.builder.emit_func_output(value)
                return
            self.statement(statement)
        raise TVMScriptError(owner, "the function body must end with a return statement")

    def _check_return(self, value: SSAValue) -> None:
        """The returned value must not contradict the return annotation."""
        function = self.builder.block.parent_op()
        ret = function.ret_type if isinstance(function, FunctionLike) else None
        if isinstance(ret, StructInfoType):
            try:
                check_annotation("return", ret, value.type)  # pyright: ignore[reportArgumentType]
            except VerifyException:
                raise VerifyException(
                    f"the returned value has type {struct_info_text(value.type)}, which "
                    f"contradicts the return annotation {struct_info_text(ret)}"
                ) from None

    # --- statements ---------------------------------------------------------------------

    def statement(self, statement: ast.stmt) -> None:
        with self.located(statement):
            if isinstance(statement, ast.Assign):
                self._assign(statement.targets, statement.value, None)
            elif isinstance(statement, ast.AnnAssign):
                if statement.value is None:
                    raise TVMScriptError(statement, "an annotated binding needs a value")
                self._assign([statement.target], statement.value, statement.annotation)
            elif isinstance(statement, ast.With):
                self._with(statement)
            elif isinstance(statement, ast.If):
                self._if(statement)
            elif isinstance(statement, ast.FunctionDef):
                self._local_function(statement)
            elif isinstance(statement, ast.Expr):
                self._expression_statement(statement)
            elif isinstance(statement, ast.Return):
                raise TVMScriptError(statement, "return must be the last statement of a function")
            elif isinstance(statement, ast.For | ast.While | ast.AsyncFor):
                kind = "while" if isinstance(statement, ast.While) else "for"
                raise TVMScriptError(
                    statement, f"{kind} loops are not supported in a Relax function"
                )
            elif not isinstance(statement, ast.Pass):
                raise TVMScriptError(
                    statement, f"unsupported statement ({type(statement).__name__})"
                )

    def _assign(
        self, targets: list[ast.expr], value: ast.expr, annotation: ast.expr | None
    ) -> None:
        if len(targets) != 1:
            raise TVMScriptError(targets[1], "chained assignments (a = b = c) are not supported")
        target = targets[0]
        if isinstance(target, ast.Name) and self._declares_var(value):
            self.define(target.id, Var(target.id))  # n = T.int64()
            return
        if isinstance(target, ast.Name) and self._is_module_alias(value):
            self.define(target.id, self.module_name)  # cls = Module
            return
        if isinstance(target, ast.Tuple):
            bound = self.bound(value)
            for index, element in enumerate(target.elts):
                if not isinstance(element, ast.Name):
                    raise TVMScriptError(element, "expected a variable name")
                self.define(element.id, self.builder.tuple_get_item(bound, index, element.id))
            return
        if not isinstance(target, ast.Name):
            raise TVMScriptError(target, "expected a variable name")
        sinfo = None if annotation is None else self._binding_annotation(annotation)
        try:
            self.define(target.id, self.bound(value, target.id, sinfo))
        except AnnotationError as error:
            raise TVMScriptError(annotation, str(error).splitlines()[0]) from None

    def _binding_annotation(self, annotation: ast.expr) -> StructInfoType:
        """A binding's annotation (quoted dimensions are not allowed in it)."""
        self.exprs.strings = False
        try:
            return self.exprs.struct_info(annotation)
        finally:
            self.exprs.strings = True

    def _is_module_alias(self, node: ast.expr) -> bool:
        return isinstance(node, ast.Name) and node.id == self.module_name

    def _with(self, statement: ast.With) -> None:
        item = statement.items[0] if len(statement.items) == 1 else None
        if (
            item is None
            or dotted_name(_call_func(item.context_expr)) != f"{self.exprs.relax}.dataflow"
        ):
            raise TVMScriptError(statement, "only 'with R.dataflow():' blocks are supported")
        if item.optional_vars is not None:
            raise TVMScriptError(item.optional_vars, "'with R.dataflow()' binds no variable")
        outputs: list[tuple[str, SSAValue]] = []
        with self.scope() as local, self.builder.dataflow():
            for index, inner in enumerate(statement.body):
                call = inner.value if isinstance(inner, ast.Expr) else None
                if isinstance(call, ast.Call) and self._callee(call) == "output":
                    if index != len(statement.body) - 1:
                        raise TVMScriptError(inner, "R.output must end the dataflow block")
                    outputs = self._outputs(call)
                elif isinstance(inner, ast.Return):
                    raise TVMScriptError(
                        inner, "a function cannot return from inside a dataflow block"
                    )
                else:
                    self.statement(inner)
            inner_names = set(local)
        for name in inner_names:
            self.define(name, DeadValue(name))
        for name, value in outputs:
            self.define(name, self.builder.normalize(value))

    def _outputs(self, call: ast.Call) -> list[tuple[str, SSAValue]]:
        outputs = []
        for arg in call.args:
            if not isinstance(arg, ast.Name):
                raise TVMScriptError(arg, "R.output takes variables of the dataflow block")
            value = self.expr(arg)
            assert isinstance(value, SSAValue)
            outputs.append((arg.id, self.builder.emit_output(value, arg.id)))
        if call.keywords:
            raise TVMScriptError(call, "R.output takes no keyword arguments")
        return outputs

    def _if(self, statement: ast.If) -> None:
        if not statement.orelse:
            raise TVMScriptError(statement, "an if needs an else branch in Relax")
        names = [self._branch_result(branch) for branch in (statement.body, statement.orelse)]
        if names[0] != names[1]:
            raise TVMScriptError(
                statement,
                f"both branches must end by assigning the same variable ('{names[0]}' and "
                f"'{names[1]}')",
            )
        condition = self.expr(statement.test)
        with self.located(statement.test):
            result = self.builder.emit_if(
                condition,
                lambda: self._branch(statement.body),
                lambda: self._branch(statement.orelse),
                names[0],
            )
        self.define(names[0], result)

    def _branch_result(self, branch: list[ast.stmt]) -> str:
        last = branch[-1]
        target = (
            last.targets[0] if isinstance(last, ast.Assign) and len(last.targets) == 1 else None
        )
        if isinstance(last, ast.AnnAssign):
            target = last.target
        if not isinstance(target, ast.Name):
            raise TVMScriptError(last, "a branch must end by assigning its value to a variable")
        return target.id

    def _branch(self, branch: list[ast.stmt]) -> SSAValue:
        with self.scope():
            for statement in branch:
                self.statement(statement)
            value = self.lookup(self._branch_result(branch))
        assert isinstance(value, SSAValue)
        return value

    def _local_function(self, function: ast.FunctionDef) -> None:
        if self._decorator(function) != "relax":
            raise TVMScriptError(function, "a local function must be decorated with @R.function")
        recursive = _calls_itself(function)
        with self.scope():
            params, ret = self._signature(function)
            options = self._function_options(function)
            with self.builder.closure(
                params, ret, pure=options["pure"], name=function.name, recursive=recursive
            ) as frame:
                values = frame.params[1:] if recursive else frame.params
                if recursive:
                    self.define(function.name, frame.params[0])
                for arg, value in zip(function.args.args, values, strict=True):
                    self.define(arg.arg, value)
                self._body(function.body, function)
        assert frame.value is not None
        self.define(function.name, frame.value)

    def _expression_statement(self, statement: ast.Expr) -> None:
        if _is_docstring(statement):
            return
        callee = self._callee(statement.value) if isinstance(statement.value, ast.Call) else None
        if callee == "func_attr":
            self._func_attr(statement.value)  # pyright: ignore[reportArgumentType]
            return
        if callee == "output":
            raise TVMScriptError(statement, "R.output outside a dataflow block")
        value = self.builder.emit(self.expr(statement.value), "_")
        if value.type != TupleType([]):
            raise TVMScriptError(
                statement, "a value that is not the empty tuple must be bound to a variable"
            )

    def _func_attr(self, call: ast.Call) -> None:
        if len(call.args) != 1 or not isinstance(call.args[0], ast.Dict):
            raise TVMScriptError(call, "R.func_attr takes a dictionary")
        function = self.builder.function_named(self._current_function())
        entries = _literal(call.args[0])
        assert isinstance(entries, dict) and function is not None
        for key, value in entries.items():
            function.attributes[str(key)] = _attribute_of_literal(call, value)

    def _current_function(self) -> str:
        block = self.builder.block
        op = block.parent_op()
        while op is not None and op.parent_op() is not None and op.name != "relax.function":
            op = op.parent_op()
        sym = op.properties.get("sym_name") if op is not None else None
        return sym.data if isinstance(sym, StringAttr) else ""

    # --- expressions --------------------------------------------------------------------

    def expr(self, node: ast.expr, number_as_constant: bool = False) -> Expr:
        """A Relax expression (still to be normalised by the builder)."""
        self.last_node = node
        if isinstance(node, ast.Name):
            return self._name(node)
        if isinstance(node, ast.Constant):
            if number_as_constant and isinstance(node.value, int | float | bool):
                return np.array(node.value, _numpy_default(node.value))
            if isinstance(node.value, str):
                return node.value
            if isinstance(node.value, int | float | bool):
                return self.exprs.prim_expr(node)
            raise TVMScriptError(node, f"unsupported constant {node.value!r}")
        if isinstance(node, ast.Tuple | ast.List):
            return [self.expr(element) for element in node.elts]
        if isinstance(node, ast.Call | ast.BinOp | ast.UnaryOp | ast.Compare | ast.Subscript):
            value = self._value(node)
            return self._bind(node, value) if isinstance(value, Deferred) else value
        if isinstance(node, ast.Attribute):
            return self._attribute(node)
        if isinstance(node, ast.BoolOp):
            return self.exprs.prim_expr(node)
        raise TVMScriptError(node, f"unsupported expression ({type(node).__name__})")

    def bound(
        self, node: ast.expr, name: str | None = None, annotation: StructInfoType | None = None
    ) -> SSAValue:
        """The value of ``node`` bound (named ``name``). As in TVM, a new binding
        takes the ``annotation`` as its StructInfo (it must not contradict the
        inferred one); a variable bound to a variable keeps its own."""
        with self.located(node):
            value = self._value(node, True)
            if annotation is None:
                return self._bind(node, value, name)
            if isinstance(value, SSAValue):
                value = self.builder.normalize(value)
                _check(annotation, value.type)  # pyright: ignore[reportArgumentType]
                return value
            if isinstance(value, Deferred):
                if value.declared is None:
                    return self.builder.add_binding(value.make, name, annotation)
                bound = self._bind(node, value, name)
                _check(annotation, bound.type)  # pyright: ignore[reportArgumentType]
                return bound
            return self.builder.emit(value, name, annotation)

    def _value(self, node: ast.expr, number_as_constant: bool = False) -> Expr | Deferred:
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.BinOp | ast.UnaryOp | ast.Compare):
            return self._arithmetic(node)
        if isinstance(node, ast.Subscript):
            return self._subscript(node)
        return self.expr(node, number_as_constant)

    def _bind(self, node: ast.expr, value: Expr | Deferred, name: str | None = None) -> SSAValue:
        with self.located(node):
            if isinstance(value, Deferred):
                return self.builder.add_binding(value.make, name, value.declared)
            return self.builder.emit(value, name)

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

    def _name(self, node: ast.Name) -> Expr:
        found = self.lookup(node.id)
        if isinstance(found, DeadValue):
            raise TVMScriptError(
                node,
                f"'{node.id}' is a dataflow variable, not visible after its block "
                "(list it in R.output)",
            )
        if isinstance(found, Function):
            return self._global_var(found.name, node)
        if found is None or isinstance(found, str):
            raise TVMScriptError(node, f"'{node.id}' is not defined")
        return found

    def _attribute(self, node: ast.Attribute) -> Expr:
        if isinstance(node.value, ast.Name):
            owner = self.lookup(node.value.id)
            if owner == self.module_name or node.value.id == self.module_name:
                return self._global_var(node.attr, node)
        raise TVMScriptError(node, f"unsupported expression '{dotted_name(node)}'")

    def _global_var(self, name: str, node: ast.AST) -> SSAValue:
        function = self.builder.function_named(name)
        if function is None:
            raise TVMScriptError(node, f"the module has no Relax function '{name}'")
        func_type = function.function_type()
        return self.builder.add_binding(lambda t: GlobalVarOp(name, t), annotation=func_type)

    def _subscript(self, node: ast.Subscript) -> Expr | Deferred:
        if isinstance(node.value, ast.Subscript) and _is_metadata(node.value):
            return self._metadata(node)
        index = _literal(node.slice)
        if not isinstance(index, int) or isinstance(index, bool):
            raise TVMScriptError(node.slice, "a tuple index must be an integer constant")
        value = self.builder.normalize(self.expr(node.value))
        return Deferred(lambda t: TupleGetItemOp(value, index, t))

    def _metadata(self, node: ast.Subscript) -> Expr:
        index = _literal(node.slice)
        if not isinstance(index, int) or not 0 <= index < len(self.constants):
            raise TVMScriptError(
                node,
                f"metadata constant {index} is not supplied ({len(self.constants)} given; "
                "pass them as an .npz with --metadata)",
            )
        return self.constants[index]

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

    # --- operators ----------------------------------------------------------------------

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
        attributes = {
            name: self._attribute_value(value, definition.properties[name].constr)  # pyright: ignore
            for name, value in bound.items()
            if name in definition.properties and value is not None
        }
        values = [self.builder.normalize(operand) for operand in operands]
        return Deferred(lambda t: op.build(values, t, **attributes))  # pyright: ignore

    def _arguments(
        self, op: type[OperatorOp], node: ast.Call
    ) -> dict[str, ast.expr | list[ast.expr] | None]:
        """The call's arguments by operand or attribute name (``None``: not given)."""
        definition = op.get_irdl_definition()
        operands = list(definition.operands)
        slots = [name for name, _ in operands]
        slots += [name for name in definition.properties if name != SEGMENTS]
        variadic = {n for n, d in operands if type(d) is VarOperandDef}
        bound: dict[str, ast.expr | list[ast.expr] | None] = {}
        positional = list(node.args)
        for name in slots:
            if positional:
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
        return _literal(node)

    # --- special forms ------------------------------------------------------------------

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
        return Deferred(lambda t: PrimValueOp(PrimExprAttr(value), t), sinfo)

    def _string(self, node: ast.Call) -> Expr:
        value = _literal(node.args[0]) if len(node.args) == 1 else None
        if not isinstance(value, str):
            raise TVMScriptError(node, "R.str takes a string")
        return value

    def _data_type(self, node: ast.Call) -> Expr:
        if len(node.args) != 1:
            raise TVMScriptError(node, "R.dtype takes a data type string")
        return self.exprs.dtype(node.args[0])

    def _const(self, node: ast.Call) -> Expr:
        args = _bind_args(node, ("value", "dtype"))
        value = _literal(args["value"]) if "value" in args else None
        if value is None:
            raise TVMScriptError(node, "R.const takes a number or a nested list of numbers")
        dtype = self.exprs.dtype(args["dtype"]) if "dtype" in args else None
        try:
            array = np.array(value, dtype.to_numpy() if dtype else _numpy_default(value))
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
        symbol = _literal(args["global_symbol"]) if "global_symbol" in args else None
        if not isinstance(symbol, str):
            raise TVMScriptError(node, "R.ExternFunc takes the function's name")
        sinfo = self.exprs.struct_info(args["struct_info"]) if "struct_info" in args else None
        declared = sinfo if sinfo is not None else EXTERN_FUNC_TYPE
        return Deferred(lambda t: ExternFuncOp(symbol, t), declared)

    def _declared_type(self, node: ast.Call, names: tuple[str, ...]) -> StructInfoType:
        """The result type of a call that declares it (``sinfo_args``, ``out_sinfo``...)."""
        for keyword in node.keywords:
            if keyword.arg in names:
                value = keyword.value
                if isinstance(value, ast.Tuple | ast.List):
                    fields = [self.exprs.struct_info(field) for field in value.elts]
                    return fields[0] if len(fields) == 1 else TupleType(fields)
                return self.exprs.struct_info(value)
        return ObjectType()

    def _packed(self, node: ast.Call) -> Deferred:
        callee = self._callee(node)
        op = PACKED_CALLS[callee]  # pyright: ignore[reportArgumentType]
        if not node.args:
            raise TVMScriptError(node, f"R.{callee} takes the function's name first")
        name = _literal(node.args[0])
        if not isinstance(name, str):
            raise TVMScriptError(node.args[0], "the packed function's name must be a string")
        args = self._values(node.args[1:])
        sinfo = self._declared_type(node, ("sinfo_args", "ty_args"))
        attrs = self._keywords(node, ("sinfo_args", "ty_args", "inplace_indices"))
        if op is CallInplacePackedOp:
            indices = self._indices(node, attrs)
            return Deferred(lambda t: _with_indices(op(name, args, t), indices), sinfo)
        return Deferred(lambda t: op(name, args, t), sinfo)

    def _dps_packed(self, node: ast.Call) -> Deferred:
        args = _bind_args(node, ("func", "args", "out_sinfo", "out_ty"))
        name = _literal(args.get("func"))  # pyright: ignore[reportArgumentType]
        if not isinstance(name, str):
            raise TVMScriptError(node, "R.call_dps_packed takes the function's name first")
        values = self._values(_elements(args.get("args")))
        sinfo = self._declared_type(node, ("out_sinfo", "out_ty"))
        return Deferred(lambda t: CallDPSPackedOp(name, values, t), sinfo)

    def _call_tir(self, node: ast.Call) -> Deferred:
        callee = self._callee(node)
        names = ("gvar", "args", "out_sinfo", "tir_vars", "inplace_indices", "out_ty")
        args = _bind_args(node, names if callee == "call_tir_inplace" else names[:4] + names[5:])
        function = args.get("gvar")
        if not isinstance(function, ast.Attribute):
            raise TVMScriptError(node, f"R.{callee} takes a module function (cls.f) first")
        values = self._values(_elements(args.get("args")))
        sinfo = self._declared_type(node, ("out_sinfo", "out_ty"))
        tir_vars = None
        if "tir_vars" in args:
            tir_vars = self.builder.normalize(self._operand(args["tir_vars"], "shape"))
        attributes: dict[str, Attribute] = {}
        if callee == "call_tir_inplace":
            indices = _literal(args.get("inplace_indices"))  # pyright: ignore[reportArgumentType]
            values_list = indices if isinstance(indices, list | tuple) else [indices]
            attributes["inplace_indices"] = attribute_of(tuple(values_list))  # pyright: ignore
        op = TIR_CALLS[callee]  # pyright: ignore[reportArgumentType]
        return Deferred(lambda t: op(function.attr, values, t, tir_vars, attributes), sinfo)

    def _closure_call(self, node: ast.Call) -> Deferred:
        callee = self._callee(node)
        args = _bind_args(node, ("closure", "args", "sinfo_args", "ty_args"))
        closure = self.builder.normalize(self.expr(args["closure"]))
        values = self._values(_elements(args.get("args")))
        sinfo = self._declared_type(node, ("sinfo_args", "ty_args"))
        op = CLOSURE_CALLS[callee]  # pyright: ignore[reportArgumentType]
        return Deferred(lambda t: op(closure, values, t), sinfo)

    def _make_closure(self, node: ast.Call) -> Deferred:
        args = _bind_args(node, ("func", "args"))
        function = args.get("func")
        if not isinstance(function, ast.Attribute):
            raise TVMScriptError(node, "R.make_closure takes a module function (cls.f) first")
        values = self._values(_elements(args.get("args")))
        return Deferred(lambda t: MakeClosureOp(function.attr, values, t))

    def _assert(self, node: ast.Call) -> Deferred:
        args = _bind_args(node, ("condition", "format_args", "format"))
        values = [self.expr(args["condition"]), *map(self.expr, _elements(args.get("format_args")))]
        template = self._attribute_literal(args["format"]) if "format" in args else ""
        bound = [self.builder.normalize(value) for value in values]
        op = operator_class("relax.assert_op")
        return Deferred(lambda t: op.build(bound, t, format=template))  # pyright: ignore

    def _keywords(self, node: ast.Call, allowed: tuple[str, ...]) -> dict[str, ast.expr]:
        found = {}
        for keyword in node.keywords:
            if keyword.arg not in allowed:
                raise TVMScriptError(keyword, f"unexpected keyword argument '{keyword.arg}'")
            found[keyword.arg] = keyword.value
        return found

    def _indices(self, node: ast.Call, attrs: dict[str, ast.expr]) -> list[int]:
        value = _literal(attrs["inplace_indices"]) if "inplace_indices" in attrs else None
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
    "shape": ModuleReader._shape,
    "prim_value": ModuleReader._prim_value,
    "str": ModuleReader._string,
    "dtype": ModuleReader._data_type,
    "const": ModuleReader._const,
    "tuple": ModuleReader._tuple,
    "match_cast": ModuleReader._match_cast,
    "ExternFunc": ModuleReader._extern_func,
    "extern": ModuleReader._extern_func,
    "call_packed": ModuleReader._packed,
    "call_pure_packed": ModuleReader._packed,
    "call_inplace_packed": ModuleReader._packed,
    "call_dps_packed": ModuleReader._dps_packed,
    "call_tir": ModuleReader._call_tir,
    "call_tir_inplace": ModuleReader._call_tir,
    "invoke_closure": ModuleReader._closure_call,
    "invoke_pure_closure": ModuleReader._closure_call,
    "make_closure": ModuleReader._make_closure,
    "assert_op": ModuleReader._assert,
}


# --- helpers ----------------------------------------------------------------------------


def _check(annotation: StructInfoType, inferred: StructInfoType) -> None:
    try:
        check_annotation("binding", annotation, inferred)
    except VerifyException as error:
        raise AnnotationError(str(error)) from None


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _spelled(op: type[OperatorOp]) -> str:
    return "R." + op.name.removeprefix("relax.")


def _is_none(node: object) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _with_indices(op: BindingOp, indices: list[int]) -> BindingOp:
    op.properties["inplace_indices"] = attribute_of(tuple(indices))
    return op


def _is_docstring(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def _call_func(node: ast.expr) -> ast.expr:
    return node.func if isinstance(node, ast.Call) else node


def _call_prefix(node: ast.Call) -> str:
    return (dotted_name(node.func) or "").rpartition(".")[0]


def _is_metadata(node: ast.Subscript) -> bool:
    return (
        isinstance(node.value, ast.Name)
        and node.value.id == "metadata"
        and _literal(node.slice) == CONSTANTS
    )


def _is_dimension(annotation: ast.expr, string: ast.Constant) -> bool:
    """Whether a string in an annotation names a dimension (not a data type)."""
    for node in ast.walk(annotation):
        if isinstance(node, ast.Tuple | ast.List) and any(e is string for e in node.elts):
            return True
        if isinstance(node, ast.keyword) and node.arg == "value" and node.value is string:
            return True
    return False


def _calls_itself(function: ast.FunctionDef) -> bool:
    return any(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == function.name
        for statement in function.body
        for node in ast.walk(statement)
    )


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


def _literal(node: ast.expr | None) -> object:
    """A Python literal (numbers, strings, booleans, None, lists, tuples, dicts)."""
    if node is None:
        return None
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        raise TVMScriptError(node, "expected a literal value") from None


def _numpy_default(value: object) -> str:
    """TVM's ``R.const`` data type for a Python value."""
    flat = value
    while isinstance(flat, list | tuple) and flat:
        flat = flat[0]
    if isinstance(flat, bool):
        return "bool"
    if isinstance(flat, int):
        return "int32"
    return "float32"


def _attribute_of_literal(node: ast.AST, value: object) -> Attribute:
    if isinstance(value, list):
        value = tuple(value)
    if not isinstance(value, int | float | str | bool | tuple):
        raise TVMScriptError(node, f"unsupported function attribute value {value!r}")
    return attribute_of(value)  # pyright: ignore[reportArgumentType]
