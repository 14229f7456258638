"""TVMScript annotations and symbolic expressions, read from Python ``ast`` nodes.

``R.Tensor((n, 4), "float32")``, ``R.Shape([n])``, ``R.Prim("int64")``,
``R.Tuple(...)``, ``R.Object``/``R.Any``, ``R.Callable((...), ret)`` become
StructInfo types; ``n * 4``, ``T.min(n, 8)``, ``n // 2`` become ``PrimExpr``s.
Nothing is evaluated: the nodes are interpreted.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable
from dataclasses import dataclass

from ...dtype import VOID, DataType
from ...prim_expr import (
    BoolImm,
    FloatImm,
    IntImm,
    PrimExpr,
    Var,
    call,
    dimension_problem,
    int64_problem,
)
from ...types import (
    UNKNOWN_NDIM,
    FuncType,
    ObjectType,
    PrimType,
    ShapeType,
    StructInfoType,
    TensorType,
    TupleType,
)
from ...vdevice import VDeviceRef


class TVMScriptError(Exception):
    """An error at a node of the TVMScript source."""

    def __init__(self, node: ast.AST | None, message: str):
        super().__init__(message)
        self.node = node
        self.message = message


def dotted_name(node: ast.expr) -> str | None:
    """``R.nn.conv2d`` for the attribute chain of that name, else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


BINARY = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.FloorDiv: "floordiv"}
COMPARE = {ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge", ast.Eq: "eq", ast.NotEq: "ne"}
FUNCTIONS = {
    "min": "min",
    "max": "max",
    "floordiv": "floordiv",
    "floormod": "floormod",
    "Select": "select",
    "if_then_else": "select",
    "And": "and",
    "Or": "or",
    "Not": "not",
}


def _undeclared(node: ast.expr) -> VDeviceRef:
    raise TVMScriptError(
        node, "no virtual device is declared: add I.module_global_infos to the module"
    )


@dataclass
class ExprReader:
    """Reads symbolic expressions and annotations. ``symbol`` resolves a name to
    a symbolic variable (or None); ``tir`` and ``relax`` are the module aliases
    (``T``, ``R``); ``define`` allows string dimensions to introduce variables."""

    symbol: Callable[[str], PrimExpr | bool]
    """A name's symbolic variable; False when the name is not defined at all."""
    tir: str = "T"
    relax: str = "R"
    strings: bool = True
    """Whether quoted dimensions (``"n"``) may name variables: in signatures and
    ``R.match_cast`` targets, not in binding annotations (as in TVM)."""
    vdevice: Callable[[ast.expr], VDeviceRef] = _undeclared
    """The declared virtual device a ``vdevice`` argument names (see ``vdevices``)."""

    # --- symbolic expressions -----------------------------------------------------------

    def prim_expr(self, node: ast.expr) -> PrimExpr:
        """A symbolic expression: numbers, variables, ``+ - * // %``, comparisons,
        ``T.min``/``T.max``/``T.floordiv``/``T.floormod``/``T.Select``/``T.int64(5)``."""
        if isinstance(node, ast.Constant):
            return self._constant(node)
        if isinstance(node, ast.Name):
            found = self.symbol(node.id)
            if found is False:
                raise TVMScriptError(node, f"'{node.id}' is not defined")
            if not isinstance(found, PrimExpr):
                raise TVMScriptError(node, f"'{node.id}' is not a symbolic variable")
            return found
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            operand = self.prim_expr(node.operand)
            if isinstance(operand, IntImm | FloatImm):
                return type(operand)(-operand.value)
            return IntImm(-1) * operand
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return call("not", self.prim_expr(node.operand))
        if isinstance(node, ast.BinOp):
            return self._binary(node)
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in COMPARE:
            left, right = self.prim_expr(node.left), self.prim_expr(node.comparators[0])
            return call(COMPARE[type(node.ops[0])], left, right)
        if isinstance(node, ast.BoolOp):
            name = "and" if isinstance(node.op, ast.And) else "or"
            values = [self.prim_expr(value) for value in node.values]
            result = values[0]
            for value in values[1:]:
                result = call(name, result, value)
            return result
        if isinstance(node, ast.Call):
            return self._prim_call(node)
        raise TVMScriptError(node, "expected a symbolic expression")

    def typed_prim(self, node: ast.expr) -> tuple[PrimExpr, DataType | None]:
        """A symbolic expression and the data type a typed literal gives it
        (``T.uint32(2)``), if any."""
        name = dotted_name(node.func) if isinstance(node, ast.Call) else None
        prefix, _, function = (name or "").rpartition(".")
        dtype = DataType.parse(function) if prefix == self.tir else None
        return self.prim_expr(node), dtype

    def _constant(self, node: ast.Constant) -> PrimExpr:
        value = node.value
        if isinstance(value, bool):
            return BoolImm(value)
        if isinstance(value, int):
            if (problem := int64_problem(value)) is not None:
                raise TVMScriptError(node, problem)
            return IntImm(value)
        if isinstance(value, float):
            return FloatImm(value)
        if isinstance(value, str):
            return self._string_expr(node, value)
        raise TVMScriptError(node, f"expected a number or a symbolic variable, got {value!r}")

    def _string_expr(self, node: ast.Constant, text: str) -> PrimExpr:
        """A dimension written as a string: a variable (``"n"``) or an expression
        over variables in scope (``"n * 4"``), read like TVM reads it."""
        if not self.strings:
            raise TVMScriptError(
                node,
                f"a quoted dimension ('{text}') is only allowed in the signature and in "
                "R.match_cast; use the variable itself",
            )
        if text.isidentifier():
            return Var(text)
        try:
            parsed = ast.parse(text, mode="eval").body
        except SyntaxError:
            raise TVMScriptError(node, f"'{text}' is not a symbolic expression") from None
        for inner in ast.walk(parsed):
            if hasattr(inner, "lineno"):
                ast.copy_location(inner, node)
        return self.prim_expr(parsed)

    def _binary(self, node: ast.BinOp) -> PrimExpr:
        left, right = self.prim_expr(node.left), self.prim_expr(node.right)
        if isinstance(node.op, ast.Mod):
            return call("floormod", left, right)
        if type(node.op) not in BINARY:
            symbol = "/" if isinstance(node.op, ast.Div) else type(node.op).__name__
            raise TVMScriptError(
                node, f"'{symbol}' is not supported in symbolic expressions (use '//' or '%')"
            )
        name = BINARY[type(node.op)]
        if name == "add":
            return left + right
        if name == "sub":
            return left - right
        if name == "mul":
            return left * right
        return call("floordiv", left, right)

    def _prim_call(self, node: ast.Call) -> PrimExpr:
        name = dotted_name(node.func)
        prefix, _, function = (name or "").rpartition(".")
        if prefix != self.tir:
            raise TVMScriptError(node, f"'{name}' is not a symbolic expression function")
        if DataType.parse(function) is not None:  # a typed literal: T.float16(1.5)
            if len(node.args) != 1:
                raise TVMScriptError(node, f"{name}(value) takes one value")
            return self.prim_expr(node.args[0])
        if function not in FUNCTIONS:
            raise TVMScriptError(node, f"'{name}' is not a supported symbolic function")
        args = [self.prim_expr(arg) for arg in node.args]
        try:
            return call(FUNCTIONS[function], *args)
        except ValueError as error:
            raise TVMScriptError(node, f"{name}: {error}") from None

    # --- data types ---------------------------------------------------------------------

    def dtype(self, node: ast.expr) -> DataType:
        """A data type: ``"float32"`` (or ``R.dtype("float32")``)."""
        spelled = isinstance(node, ast.Call) and dotted_name(node.func) == f"{self.relax}.dtype"
        if spelled and len(node.args) == 1:  # pyright: ignore[reportAttributeAccessIssue]
            node = node.args[0]  # pyright: ignore[reportAttributeAccessIssue]
        if isinstance(node, ast.Constant) and node.value is None:
            return VOID
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            raise TVMScriptError(node, 'expected a data type string such as "float32"')
        dtype = DataType.parse(node.value) if node.value else VOID
        if dtype is None:
            raise TVMScriptError(node, f"unknown data type '{node.value}'")
        return dtype

    def element_dtype(self, node: ast.expr) -> DataType:
        """The data type of a tensor or prim value (well-formedness rule 18)."""
        dtype = self.dtype(node)
        if (problem := dtype.problem()) is not None:
            raise TVMScriptError(node, f"invalid data type: {problem}")
        return dtype

    # --- StructInfo ---------------------------------------------------------------------

    def struct_info(self, node: ast.expr) -> StructInfoType:
        """The StructInfo an annotation spells."""
        name = dotted_name(node.func if isinstance(node, ast.Call) else node)
        prefix, _, kind = (name or "").rpartition(".")
        if prefix == self.tir and not isinstance(node, ast.Call) and DataType.parse(kind):
            return PrimType(DataType.parse(kind))  # T.int64: the newer spelling of R.Prim  # pyright: ignore
        reader = STRUCT_INFO.get(kind) if prefix == self.relax else None
        if reader is None:
            raise TVMScriptError(node, "expected a StructInfo annotation such as R.Tensor(...)")
        args, keywords = (node.args, node.keywords) if isinstance(node, ast.Call) else ([], [])
        named = {keyword.arg: keyword.value for keyword in keywords if keyword.arg is not None}
        return reader(self, node, list(args), named)

    def _tensor(self, node: ast.expr, args: list[ast.expr], named: dict) -> StructInfoType:
        shape, dtype, vdevice = _take(node, args, named, ("shape", "dtype", "vdevice", "ndim"))[:3]
        ndim_node = named.get("ndim")
        if isinstance(shape, ast.Constant) and isinstance(shape.value, str):
            shape, dtype = None, shape  # R.Tensor("float32")
        data_type = VOID if dtype is None else self.element_dtype(dtype)
        ndim = UNKNOWN_NDIM if ndim_node is None else self._int(ndim_node)
        device = None if _is_none_node(vdevice) else self.vdevice(vdevice)  # pyright: ignore
        if _is_none_node(shape):
            return TensorType(dtype=data_type, ndim=ndim, vdevice=device)
        dims = self._dims(shape)  # pyright: ignore[reportArgumentType]
        for dim, dim_node in zip(dims, getattr(shape, "elts", ()), strict=False):
            if (problem := dimension_problem(dim)) is not None:
                raise TVMScriptError(dim_node, problem)
        if ndim not in (UNKNOWN_NDIM, len(dims)):
            raise TVMScriptError(node, f"ndim={ndim} does not match the {len(dims)} dimensions")
        return TensorType(dims, data_type, vdevice=device)

    def _shape(self, node: ast.expr, args: list[ast.expr], named: dict) -> StructInfoType:
        values, ndim_node = _take(node, args, named, ("values", "ndim"))
        ndim = UNKNOWN_NDIM if ndim_node is None else self._int(ndim_node)
        if values is None or (isinstance(values, ast.Constant) and values.value is None):
            return ShapeType(ndim=ndim)
        return ShapeType(self._dims(values))

    def _prim(self, node: ast.expr, args: list[ast.expr], named: dict) -> StructInfoType:
        dtype, value = _take(node, args, named, ("dtype", "value"))
        if value is None:
            if dtype is None:
                raise TVMScriptError(node, "R.Prim needs a data type or a value")
            return PrimType(self.element_dtype(dtype))
        expr, typed = self.typed_prim(value)
        if dtype is not None:
            typed = self.element_dtype(dtype)
        return PrimType(typed or _default_dtype(expr), expr)

    def _tuple(self, node: ast.expr, args: list[ast.expr], named: dict) -> StructInfoType:
        if named:
            raise TVMScriptError(node, "R.Tuple takes its fields as positional arguments")
        if len(args) == 1 and isinstance(args[0], ast.Tuple | ast.List):
            args = list(args[0].elts)
        return TupleType([self.struct_info(field) for field in args])

    def _object(self, node: ast.expr, args: list[ast.expr], named: dict) -> StructInfoType:
        if args or named:
            raise TVMScriptError(node, "R.Object takes no arguments")
        return ObjectType()

    def _callable(self, node: ast.expr, args: list[ast.expr], named: dict) -> StructInfoType:
        params, ret, purity, derive = _take(
            node, args, named, ("params", "ret", "purity", "derive_func")
        )
        opaque = params is None or (isinstance(params, ast.Constant) and params.value is None)
        pure = not opaque if purity is None else self._bool(purity)  # TVM's defaults
        result = ObjectType() if ret is None else self.struct_info(ret)
        if opaque:
            return FuncType(None, result, pure, self._derive_func(derive))
        fields = params.elts if isinstance(params, ast.Tuple | ast.List) else [params]
        return FuncType([self.struct_info(field) for field in fields], result, pure)

    def _derive_func(self, node: ast.expr | None) -> str | None:
        if node is None or (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            return None if node is None else node.value  # pyright: ignore[reportAttributeAccessIssue]
        raise TVMScriptError(node, "derive_func must be the derive function's name")

    def _dims(self, node: ast.expr) -> list[PrimExpr]:
        if not isinstance(node, ast.Tuple | ast.List):
            raise TVMScriptError(node, "expected a shape: a tuple or list of dimensions")
        return [self.prim_expr(dim) for dim in node.elts]

    def _int(self, node: ast.expr) -> int:
        value = self.prim_expr(node)
        if not isinstance(value, IntImm):
            raise TVMScriptError(node, "expected an integer")
        return value.value

    def _bool(self, node: ast.expr) -> bool:
        if isinstance(node, ast.Constant) and isinstance(node.value, bool):
            return node.value
        raise TVMScriptError(node, "expected True or False")


def _is_none_node(node: ast.expr | None) -> bool:
    return node is None or (isinstance(node, ast.Constant) and node.value is None)


def _default_dtype(expr: PrimExpr) -> DataType:
    if isinstance(expr, BoolImm):
        return DataType.parse("bool")  # pyright: ignore[reportReturnType]
    if isinstance(expr, FloatImm):
        return DataType.parse("float32")  # pyright: ignore[reportReturnType]
    return DataType.parse("int64")  # pyright: ignore[reportReturnType]


def _take(
    node: ast.expr, args: list[ast.expr], named: dict[str, ast.expr], names: tuple[str, ...]
) -> list[ast.expr | None]:
    """Arguments bound to ``names`` (positional first, then keywords)."""
    if len(args) > len(names):
        raise TVMScriptError(node, f"takes at most {len(names)} arguments, got {len(args)}")
    for keyword in named:
        if keyword not in names:
            raise TVMScriptError(node, f"unexpected keyword argument '{keyword}'")
    bound: list[ast.expr | None] = [*args, *[None] * (len(names) - len(args))]
    for index, name in enumerate(names):
        if name in named:
            if bound[index] is not None:
                raise TVMScriptError(node, f"argument '{name}' given twice")
            bound[index] = named[name]
    return bound


StructInfoReader = Callable[[ExprReader, ast.expr, list[ast.expr], dict], StructInfoType]
STRUCT_INFO: dict[str, StructInfoReader] = {
    "Tensor": ExprReader._tensor,
    "Shape": ExprReader._shape,
    "Prim": ExprReader._prim,
    "Tuple": ExprReader._tuple,
    "Object": ExprReader._object,
    "Any": ExprReader._object,
    "Callable": ExprReader._callable,
}


def literal(node: ast.expr | None) -> object:
    """A Python literal (numbers, strings, booleans, None, lists, tuples, dicts; the
    non-finite floats as the printer writes them, ``float("nan")``, ``float("-inf")``)."""
    if node is None:
        return None
    try:
        return ast.literal_eval(_NonFiniteFloats().visit(copy.deepcopy(node)))
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        raise TVMScriptError(node, "expected a literal value") from None


class _NonFiniteFloats(ast.NodeTransformer):
    """``float("nan")``, ``float("inf")`` and ``float("-inf")`` as constants (the only
    calls a literal may hold; nothing is evaluated)."""

    def visit_Call(self, node: ast.Call) -> ast.AST:
        if (
            isinstance(node.func, ast.Name)
            and node.func.id == "float"
            and len(node.args) == 1
            and not node.keywords
            and isinstance(text := node.args[0], ast.Constant)
            and text.value in ("nan", "inf", "-inf")
        ):
            return ast.copy_location(ast.Constant(float(text.value)), node)
        return node
