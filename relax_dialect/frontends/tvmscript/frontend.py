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
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp, StringAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.exceptions import ParseError, VerifyException

from ...analysis.symbols import symbol_name
from ...builder import AnnotationError, Builder, Expr
from ...diagnostics import (
    Diagnostic,
    DiagnosticError,
    SourceLocation,
    file_location,
    from_parse_error,
)
from ...npz import read_npz
from ...ops.base import check_annotation
from ...ops.control_flow import IfOp
from ...ops.functions import FunctionLike, FunctionOp
from ...ops.operator import attribute_of
from ...ops.references import GlobalVarOp
from ...ops.values import TupleGetItemOp
from ...prim_expr import PrimExpr, Var
from ...rewriting.dataflow_blocks import merge_adjacent_dataflows
from ...types import StructInfoType, TupleType, struct_info_text
from ...vdevice import with_vdevices
from ..frontend import FrontendError
from . import placeholders
from .annotations import ExprReader, TVMScriptError, dotted_name, literal
from .calls import CallReader, Deferred, Function, check_binding, const_dtype
from .spelling import CONSTANTS, DPS_KERNELS
from .tir import TIRKernels
from .vdevices import read_global_infos, reference


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
    source = "\n" * line_offset + text
    try:
        tree, set_aside = placeholders.parse(source, filename)
    except SyntaxError as error:
        location = SourceLocation(filename, error.lineno or 1, error.offset or 1)
        message = "invalid syntax"
        if error.msg != message:  # Python's own message is often just "invalid syntax"
            message += f": {error.msg}"
        raise DiagnosticError([Diagnostic(location, message)]) from None
    reader = ModuleReader(filename, list(constants), ctx, source, set_aside)
    try:
        return reader.read(tree)
    except TVMScriptError as error:
        raise DiagnosticError([Diagnostic(reader.where(error.node), error.message)]) from None


def read(
    ctx: Context, source: str, name: str, options: Mapping[str, object], line_offset: int = 0
) -> ModuleOp:
    """The frontend's reader (see ``frontends.Reader``): ``parse_tvmscript`` with
    the arrays of the ``--metadata`` file."""
    constants = metadata_constants(options.get("metadata"))
    return parse_tvmscript(source, name, constants, ctx, line_offset)


def metadata_constants(path: object) -> list[np.ndarray]:
    """The arrays of a ``--metadata`` file in index order (keys ``0``, ``1``, ...)."""
    if path is None:
        return []
    try:
        arrays = {int(key): array for key, array in read_npz(str(path)).items()}
    except (OSError, ValueError) as error:
        raise FrontendError(f"cannot read metadata '{path}': {error}") from None
    return [arrays[index] for index in sorted(arrays)]


@dataclass(frozen=True)
class DeadValue:
    """A dataflow variable after its block (a use is an error)."""

    name: str


Symbol = SSAValue | PrimExpr | Function | DeadValue | str


class Located:
    """``ModuleReader.located``: a class rather than a generator, as every
    statement and binding enters one."""

    __slots__ = ("node", "previous", "reader")

    def __init__(self, reader: ModuleReader, node: ast.AST):
        self.reader = reader
        self.node = node

    def __enter__(self) -> None:
        reader = self.reader
        self.previous = reader.builder.location, reader.last_node
        reader._locate(self.node)

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, _) -> None:
        self.reader.builder.location, self.reader.last_node = self.previous
        if isinstance(error, VerifyException) and not isinstance(error, AnnotationError):
            # an annotation's error is located at the annotation by the binding's reader
            raise TVMScriptError(self.node, str(error).splitlines()[0]) from None


class ModuleReader(CallReader):
    """Reads one TVMScript module into a ``Builder``."""

    def __init__(
        self,
        filename: str,
        constants: list[np.ndarray],
        ctx: Context | None,
        source: str,
        set_aside: dict[placeholders.Position, str],
    ):
        self.filename = filename
        self.constants = constants
        self.ctx = ctx
        self.builder = Builder()
        self.tir_kernels = TIRKernels(self.builder.module)
        self.aliases: dict[str, str] = {"R": "relax", "T": "tir", "I": "ir"}
        self.scopes: list[dict[str, Symbol]] = [{}]
        self.module_name = "Module"
        self.exprs = ExprReader(self._symbolic, "T", "R")
        self.last_node: ast.AST | None = None
        self._file = StringAttr(filename)
        self._lines = None if "\r" in source else source.split("\n")
        """The source's lines, to key annotations by their text."""
        self._annotations: dict[tuple[str, ...], tuple[StructInfoType, tuple]] = {}
        """Binding annotations read before, by text: their StructInfo and the
        names they looked up, with what those meant."""
        self._set_aside = set_aside
        """The annotations ``placeholders.parse`` set aside, by position."""
        self._loaded_kernels: dict[str, Operation] | None = None
        """The ``call_tir`` kernels of ``I.module_attrs``, once read."""

    # --- locations and scopes -----------------------------------------------------------

    def where(self, node: ast.AST | None) -> SourceLocation:
        """Where an error at ``node`` is reported (the start of the file for an
        error about the whole of it)."""
        node = node if node is not None else self.last_node
        if node is None or not hasattr(node, "lineno"):
            return SourceLocation(self.filename, 1, 1)
        return SourceLocation(self.filename, node.lineno, node.col_offset + 1)  # pyright: ignore

    def _locate(self, node: ast.AST) -> None:
        self.last_node = node
        line, column = node.lineno, node.col_offset + 1  # pyright: ignore[reportAttributeAccessIssue]
        self.builder.location = file_location(self._file, line, column)

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

    def located(self, node: ast.AST) -> Located:
        """Build at ``node``; a verifier's complaint becomes an error there."""
        return Located(self, node)

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
        consolidate_dataflow_blocks(self.builder.module)
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
        if not isinstance(node, ast.Call) or not _may_declare_var(node):
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
            elif _calls(statement, f"{self._alias('ir')}.module_global_infos"):
                self._global_infos(statement.value)  # pyright: ignore[reportAttributeAccessIssue]
            elif isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
                kernels.update(self._module_attrs(statement.value))
            elif not _is_docstring(statement) and not isinstance(statement, ast.Pass):
                raise TVMScriptError(statement, "expected a function of the module")
        self._functions(functions, kernels)

    def _global_infos(self, node: ast.Call) -> None:
        """``I.module_global_infos({"vdevice": [...]})``: the module's virtual devices,
        which annotations and ``R.to_vdevice`` then name (``vdevices``)."""
        ir = self._alias("ir")
        declared = read_global_infos(node, ir)
        with_vdevices(self.builder.module, declared)
        self.exprs.vdevice = lambda where: reference(declared, where, ir)

    def _module_attrs(self, node: ast.Call) -> dict[str, str]:
        if dotted_name(node.func) != f"{self._alias('ir')}.module_attrs" or len(node.args) != 1:
            raise TVMScriptError(node, "expected a function of the module or I.module_attrs")
        entries = literal(node.args[0])
        if not isinstance(entries, dict):
            raise TVMScriptError(node, "I.module_attrs takes a dictionary")
        kernels = entries.get(DPS_KERNELS, "")
        return {DPS_KERNELS: kernels} if isinstance(kernels, str) and kernels else {}

    def _functions(self, functions: list[ast.FunctionDef], attrs: dict[str, str]) -> None:
        """The module's functions, in the order of the source."""
        relax_functions = [f for f in functions if self._decorator(f) == "relax"]
        for function in relax_functions:
            self.define(function.name, Function(function.name))
        for function in functions:
            if function in relax_functions:
                self._declare(function)
            else:
                self._prim_func(function, attrs)
        for function in relax_functions:
            self._function_body(function)
        self.tir_kernels.finish()

    def _decorator(self, function: ast.FunctionDef) -> str:
        for decorator in function.decorator_list:
            name = dotted_name(decorator.func if isinstance(decorator, ast.Call) else decorator)
            if name == f"{self.exprs.relax}.function":
                return "relax"
            if name == f"{self.exprs.tir}.prim_func":
                return "tir"
        raise TVMScriptError(function, "a module function must be decorated with @R.function")

    def _prim_func(self, function: ast.FunctionDef, attrs: dict[str, str]) -> None:
        """A ``T.prim_func``: the stub the printer writes for a ``func.func`` whose
        MLIR text travels in ``I.module_attrs``, or TIR (``tir``)."""
        kernels = attrs.get(DPS_KERNELS)
        if kernels is not None and (kernel := self._kernels(kernels).get(function.name)):
            kernel.detach()  # the kernel takes the place of its stub
            self.builder.module.body.block.add_op(kernel)
            return
        self.tir_kernels.add(function, self.exprs.tir)

    def _kernels(self, text: str) -> dict[str, Operation]:
        """The kernels of ``text`` (the module attribute's MLIR) by symbol name, added
        to the module at the first stub."""
        from ..mlir import parse_module

        if self.ctx is None:
            raise TVMScriptError(None, "call_tir kernels need an MLIR context")
        if self._loaded_kernels is None:
            try:
                kernels = parse_module(self.ctx, text, f"{self.filename}:{DPS_KERNELS}")
            except ParseError as error:
                raise DiagnosticError([from_parse_error(error)]) from None
            self._loaded_kernels = {}
            for op in list(kernels.body.block.ops):
                op.detach()
                self.builder.module.body.block.add_op(op)
                if (name := symbol_name(op)) is not None:
                    self._loaded_kernels[name] = op
        return self._loaded_kernels

    # --- functions ----------------------------------------------------------------------

    def _function_options(self, function: ast.FunctionDef) -> dict[str, bool]:
        options = {"private": False, "pure": True}
        for decorator in function.decorator_list:
            if not isinstance(decorator, ast.Call):
                continue
            for keyword in decorator.keywords:
                if keyword.arg not in options:
                    raise TVMScriptError(keyword, f"unexpected @R.function option '{keyword.arg}'")
                value = literal(keyword.value)
                if not isinstance(value, bool):
                    raise TVMScriptError(keyword, f"{keyword.arg} must be True or False")
                options[keyword.arg] = value
        return options

    def _signature(
        self, function: ast.FunctionDef
    ) -> tuple[dict[str, StructInfoType], StructInfoType | None]:
        """Parameter and return annotations. The parameters are one binding site, as
        in TVM: their string dimensions that are names define variables first, so
        that a parameter may use a variable that a later one binds (``"a * b"``
        before ``("a", "b")``)."""
        arguments = function.args
        if arguments.vararg or arguments.kwarg or arguments.kwonlyargs or arguments.defaults:
            raise TVMScriptError(function, "parameters must be plain annotated names")
        annotations: dict[str, ast.expr] = {}
        for arg in arguments.args:
            if arg.arg in annotations:
                raise TVMScriptError(arg, f"duplicate parameter '{arg.arg}'")
            if arg.annotation is None:
                raise TVMScriptError(arg, f"parameter '{arg.arg}' needs a StructInfo annotation")
            annotations[arg.arg] = arg.annotation
        for annotation in annotations.values():
            self._define_string_vars(annotation)
        params = {name: self.exprs.struct_info(node) for name, node in annotations.items()}
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
                    with self.located(arg):  # a run-time mismatch points at the parameter
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
        """A binding's annotation (quoted dimensions are not allowed in it). Most
        bindings repeat one of a few annotations, so a text is read once and its
        StructInfo reused while the names it looked up mean the same."""
        position = (annotation.lineno, annotation.col_offset)  # pyright: ignore
        set_aside = self._set_aside.get(position)
        text = set_aside if set_aside is not None else self._source_text(annotation)
        key = (text, self.exprs.tir, self.exprs.relax) if text is not None else None
        cached = self._annotations.get(key) if key is not None else None
        if cached is not None and all(self._symbolic(n) == v for n, v in cached[1]):
            return cached[0]
        looked_up: dict[str, PrimExpr | bool] = {}

        def symbol(name: str) -> PrimExpr | bool:
            looked_up[name] = found = self._symbolic(name)
            return found

        if set_aside is not None:
            annotation = placeholders.annotation_node(set_aside, position)
        self.exprs.strings, self.exprs.symbol = False, symbol
        try:
            sinfo = self.exprs.struct_info(annotation)
        finally:
            self.exprs.strings, self.exprs.symbol = True, self._symbolic
        if key is not None:
            self._annotations[key] = (sinfo, tuple(looked_up.items()))
        return sinfo

    def _source_text(self, node: ast.expr) -> str | None:
        """The text of a node on one line of ASCII source (None otherwise)."""
        line = node.lineno  # pyright: ignore[reportAttributeAccessIssue]
        if self._lines is None or node.end_lineno != line or not self._lines[line - 1].isascii():
            return None
        return self._lines[line - 1][node.col_offset : node.end_col_offset]  # pyright: ignore

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
        with self.scope() as local, self.builder.dataflow() as results:
            for index, inner in enumerate(statement.body):
                if self._is_output(inner):
                    if index != len(statement.body) - 1:
                        raise TVMScriptError(inner, "R.output must end the dataflow block")
                    outputs = self._outputs(inner.value)  # pyright: ignore[reportAttributeAccessIssue]
                elif isinstance(inner, ast.Return):
                    raise TVMScriptError(
                        inner, "a function cannot return from inside a dataflow block"
                    )
                else:
                    self.statement(inner)
            inner_names = set(local)
        for name in inner_names:
            self.define(name, DeadValue(name))
        for (name, _), result in zip(outputs, results, strict=True):
            self.define(name, result)  # each output its own result (two may hold one value)

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
        """The variable a branch's value is bound to: as in TVM, the one its last
        binding defines, whatever form that binding takes (``z = ...``, ``a, z = t``,
        an ``if`` whose arms end by binding ``z``, a closure ``def z``, a dataflow
        block whose last binding ``z`` it outputs); statements that bind no value
        (``n = T.int64()``, an empty dataflow block, ``pass``) do not count."""
        for statement in reversed(branch):
            name = self._bound_name(statement)
            if name is not None:
                return name
        raise TVMScriptError(branch[-1], "a branch must end by assigning its value to a variable")

    def _bound_name(self, statement: ast.stmt) -> str | None:
        """The variable the last binding of ``statement`` defines (None: it binds no
        value; an error: it binds one without a name)."""
        if isinstance(statement, ast.Assign | ast.AnnAssign):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            target = targets[-1]
            if isinstance(target, ast.Tuple) and target.elts:
                target = target.elts[-1]
            if isinstance(target, ast.Name) and statement.value is not None:
                value = statement.value
                return (
                    None if self._declares_var(value) or self._is_module_alias(value) else target.id
                )
        elif isinstance(statement, ast.If):
            return self._branch_result(statement.body)
        elif isinstance(statement, ast.FunctionDef):
            return statement.name
        elif isinstance(statement, ast.With):
            return next(filter(None, map(self._bound_name, reversed(statement.body))), None)
        elif (
            isinstance(statement, ast.Pass)
            or _is_docstring(statement)
            or self._is_output(statement)
        ):
            return None
        raise TVMScriptError(statement, "a branch must end by assigning its value to a variable")

    def _branch(self, branch: list[ast.stmt]) -> SSAValue:
        with self.scope():
            for statement in branch:
                self.statement(statement)
            result = ast.copy_location(ast.Name(self._branch_result(branch)), branch[-1])
            value = self.expr(result)  # a dataflow variable not output is an error here
        assert isinstance(value, SSAValue)
        return value

    def _is_output(self, statement: ast.stmt) -> bool:
        call = statement.value if isinstance(statement, ast.Expr) else None
        return isinstance(call, ast.Call) and self._callee(call) == "output"

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
        function = self._current_function()
        if not isinstance(function, FunctionOp):
            raise TVMScriptError(call, "R.func_attr is supported in module functions only")
        entries = literal(call.args[0])
        assert isinstance(entries, dict)
        attributes = {
            str(key): _attribute_of_literal(call, value) for key, value in entries.items()
        }
        try:
            function.set_attributes(attributes)
        except VerifyException as error:
            raise TVMScriptError(call, str(error)) from None

    def _current_function(self) -> FunctionLike | None:
        """The function (global or local) whose body is being read."""
        op = self.builder.block.parent_op()
        while op is not None:
            if isinstance(op, FunctionLike):
                return op
            op = op.parent_op()
        return None

    # --- expressions --------------------------------------------------------------------

    def expr(self, node: ast.expr, number_as_constant: bool = False) -> Expr:
        """A Relax expression (still to be normalised by the builder)."""
        self.last_node = node
        if isinstance(node, ast.Constant):
            if number_as_constant and isinstance(node.value, int | float | bool):
                return np.array(node.value, const_dtype(node.value))
            if isinstance(node.value, str):
                return node.value
            if isinstance(node.value, int | float | bool):
                return self.exprs.prim_expr(node)
            raise TVMScriptError(node, f"unsupported constant {node.value!r}")
        if isinstance(node, ast.Tuple | ast.List):
            return [self.expr(element) for element in node.elts]
        if isinstance(node, BOUND_BY_VALUE):
            value = self._value(node)
            return self._bind(node, value) if isinstance(value, Deferred) else value
        if isinstance(node, ast.BoolOp):
            return self.exprs.prim_expr(node)
        raise TVMScriptError(node, f"unsupported expression ({type(node).__name__})")

    def bound(
        self, node: ast.expr, name: str | None = None, annotation: StructInfoType | None = None
    ) -> SSAValue:
        """The value of ``node`` bound (named ``name``). As in TVM, a new binding
        takes the ``annotation`` as its StructInfo (it must not contradict the
        inferred one); a variable bound to a variable (``y = x``, a
        ``relax.alias``) has the StructInfo of the value, the annotation checked."""
        with self.located(node):
            value = self._value(node, True)
            if isinstance(value, SSAValue) and isinstance(node, ast.Name) and name is not None:
                if annotation is not None:
                    check_binding(annotation, value.type)  # pyright: ignore[reportArgumentType]
                return self.builder.alias(value, name)
            if annotation is None:
                return self._bind(node, value, name)
            if isinstance(value, SSAValue):
                value = self.builder.normalize(value)
                check_binding(annotation, value.type)  # pyright: ignore[reportArgumentType]
                return value
            if isinstance(value, Deferred):
                if value.declared is None or value.literal:
                    if value.declared is not None:
                        check_binding(annotation, value.declared)
                    return self.builder.add_binding(value.make, name, annotation)
                bound = self._bind(node, value, name)
                check_binding(annotation, bound.type)  # pyright: ignore[reportArgumentType]
                return bound
            return self.builder.emit(value, name, annotation)

    def _value(self, node: ast.expr, number_as_constant: bool = False) -> Expr | Deferred:
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.BinOp | ast.UnaryOp | ast.Compare):
            return self._arithmetic(node)
        if isinstance(node, ast.Subscript):
            return self._subscript(node)
        if isinstance(node, ast.Name):
            return self._name(node)
        if isinstance(node, ast.Attribute):
            return self._attribute(node)
        return self.expr(node, number_as_constant)

    def _bind(self, node: ast.expr, value: Expr | Deferred, name: str | None = None) -> SSAValue:
        with self.located(node):
            if isinstance(value, Deferred):
                return self.builder.add_binding(value.make, name, value.declared)
            return self.builder.emit(value, name)

    def _name(self, node: ast.Name) -> Expr | Deferred:
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

    def _attribute(self, node: ast.Attribute) -> Deferred:
        if isinstance(node.value, ast.Name):
            owner = self.lookup(node.value.id)
            if owner == self.module_name or node.value.id == self.module_name:
                return self._global_var(node.attr, node)
        raise TVMScriptError(node, f"unsupported expression '{dotted_name(node)}'")

    def _global_var(self, name: str, node: ast.AST) -> Deferred:
        function = self.builder.function_named(name)
        if function is None:
            raise TVMScriptError(node, f"the module has no Relax function '{name}'")
        return Deferred(lambda t: GlobalVarOp(name, t), function.function_type())

    def _subscript(self, node: ast.Subscript) -> Expr | Deferred:
        if isinstance(node.value, ast.Subscript) and _is_metadata(node.value):
            return self._metadata(node)
        index = literal(node.slice)
        if not isinstance(index, int) or isinstance(index, bool):
            raise TVMScriptError(node.slice, "a tuple index must be an integer constant")
        value = self.builder.normalize(self.expr(node.value))
        return Deferred(lambda t: TupleGetItemOp(value, index, t))

    def _metadata(self, node: ast.Subscript) -> Expr:
        index = literal(node.slice)
        if not isinstance(index, int) or not 0 <= index < len(self.constants):
            raise TVMScriptError(
                node,
                f"metadata constant {index} is not supplied ({len(self.constants)} given; "
                "pass them as an .npz with --metadata)",
            )
        return self.constants[index]


# --- helpers ----------------------------------------------------------------------------

BOUND_BY_VALUE = (
    ast.Name,
    ast.Attribute,
    ast.Call,
    ast.BinOp,
    ast.UnaryOp,
    ast.Compare,
    ast.Subscript,
)
"""The expressions ``ModuleReader._value`` reads (a binding to make, or a value)."""


def consolidate_dataflow_blocks(module: ModuleOp) -> None:
    """Normal form rule 4, as TVM's parser normalises every sequence it reads: in
    each body (functions, closures, branches) empty dataflow blocks are dropped
    and adjacent ones merged into one that outputs what they did."""
    bodies = [
        region.block
        for op in module.walk()
        if isinstance(op, FunctionLike | IfOp)
        for region in op.regions
    ]
    for body in bodies:
        merge_adjacent_dataflows(body, drop_unused=False)


def _calls(statement: ast.stmt, name: str) -> bool:
    """Whether ``statement`` is a call of the function ``name``."""
    value = statement.value if isinstance(statement, ast.Expr) else None
    return isinstance(value, ast.Call) and dotted_name(value.func) == name


def _is_docstring(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def _may_declare_var(call: ast.Call) -> bool:
    """A cheap first test for ``_declares_var``, which most bindings fail here."""
    func = call.func
    kind = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return kind in ("TypeVar", "Var") or (kind.startswith(("int", "uint")) and not call.args)


def _call_func(node: ast.expr) -> ast.expr:
    return node.func if isinstance(node, ast.Call) else node


def _is_metadata(node: ast.Subscript) -> bool:
    return (
        isinstance(node.value, ast.Name)
        and node.value.id == "metadata"
        and literal(node.slice) == CONSTANTS
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


def _attribute_of_literal(node: ast.AST, value: object) -> Attribute:
    """A function attribute (TVM's ``attrs`` hold any object): a number, string or
    bool; a list of numbers (an array); a list or dictionary of attributes."""
    if isinstance(value, int | float | str | bool):
        return attribute_of(value)
    if isinstance(value, dict):
        return DictionaryAttr({str(k): _attribute_of_literal(node, v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        if all(isinstance(v, int | float) and not isinstance(v, bool) for v in value):
            return attribute_of(tuple(value))  # pyright: ignore[reportArgumentType]
        return ArrayAttr([_attribute_of_literal(node, v) for v in value])
    raise TVMScriptError(node, f"unsupported function attribute value {value!r}")
