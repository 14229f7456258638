"""TIR expressions (``PrimExpr``) read from ``ast`` into ``arith``/``math``
operations on typed scalars, with TVM's typing (``scalars``) and numerics:
``//`` and ``%`` floor, ``T.truncdiv``/``T.truncmod`` truncate, float
``T.max``/``T.min`` select on an ordered comparison, ``T.round`` rounds half to
even, ``T.if_then_else`` evaluates only the branch it takes (``scf.if``),
``T.Select`` both.
"""

from __future__ import annotations

import ast
import math as pymath
from collections.abc import Sequence

import numpy as np
from xdsl.dialects import arith, math, scf, tensor
from xdsl.ir import Block, Operation, SSAValue

from ....dtype import BOOL, DataType
from ..annotations import TVMScriptError, dotted_name
from .buffers import Buffer
from .scalars import Scalar, ScalarBuilder, TIRTypeError, common_type, is_signed, mlir_type

Symbol = Scalar | Buffer
"""What a name means in a TIR function: a scalar (parameter, loop or block
variable, let binding, symbolic size) or a buffer."""

DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
DTYPES += ("float16", "float32", "float64")
"""The data types a TIR function of the subset computes on (``T.<dtype>(...)``)."""


def dtype_named(name: object) -> DataType | None:
    """The data type of the subset ``name`` spells (``"float32"``), else None."""
    return DataType.parse(name) if isinstance(name, str) and name in DTYPES else None


_OPERATORS = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "floordiv",
    ast.Mod: "floormod",
    ast.BitAnd: "&",
    ast.BitOr: "|",
    ast.BitXor: "^",
    ast.LShift: "<<",
    ast.RShift: ">>",
}
_COMPARISONS = {
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Eq: "==",
    ast.NotEq: "!=",
}
_FLOAT_OPS = {"+": arith.AddfOp, "-": arith.SubfOp, "*": arith.MulfOp, "/": arith.DivfOp}
_INT_OPS = {
    "+": arith.AddiOp,
    "-": arith.SubiOp,
    "*": arith.MuliOp,
    "&": arith.AndIOp,
    "|": arith.OrIOp,
    "^": arith.XOrIOp,
    "<<": arith.ShLIOp,
}
_SIGNED_OPS = {
    "truncdiv": (arith.DivSIOp, arith.DivUIOp),
    "truncmod": (arith.RemSIOp, arith.RemUIOp),
    "floordiv": (arith.FloorDivSIOp, arith.DivUIOp),
    ">>": (arith.ShRSIOp, arith.ShRUIOp),
    "max": (arith.MaxSIOp, arith.MaxUIOp),
    "min": (arith.MinSIOp, arith.MinUIOp),
}
_FLOAT_FUNCTIONS: dict[str, type[Operation]] = {
    "exp": math.ExpOp,
    "exp2": math.Exp2Op,
    "log": math.LogOp,
    "log2": math.Log2Op,
    "log10": math.Log10Op,
    "log1p": math.Log1pOp,
    "sqrt": math.SqrtOp,
    "rsqrt": math.RsqrtOp,
    "tanh": math.TanhOp,
    "sin": math.SinOp,
    "cos": math.CosOp,
    "tan": math.TanOp,
    "asin": math.AsinOp,
    "acos": math.AcosOp,
    "atan": math.AtanOp,
    "sinh": math.SinhOp,
    "cosh": math.CoshOp,
    "asinh": math.AsinhOp,
    "acosh": math.AcoshOp,
    "atanh": math.AtanhOp,
    "erf": math.ErfOp,
    "fabs": math.AbsFOp,
}
_ROUNDING: dict[str, type[Operation]] = {
    "floor": math.FloorOp,
    "ceil": math.CeilOp,
    "trunc": math.TruncOp,
    "round": math.RoundEvenOp,
    "nearbyint": math.RoundEvenOp,
}
"""Rounding functions: the identity on integers, as in TVM."""
_BINARY_CALLS = {
    "max": "max",
    "min": "min",
    "floordiv": "floordiv",
    "floormod": "floormod",
    "truncdiv": "truncdiv",
    "truncmod": "truncmod",
    "Div": "/",
    "Mod": "truncmod",
    "bitwise_and": "&",
    "bitwise_or": "|",
    "bitwise_xor": "^",
    "shift_left": "<<",
    "shift_right": ">>",
}


class ExpressionReader(ScalarBuilder):
    """Reads TIR expressions of a function into the current block."""

    def __init__(self, block: Block, tir: str):
        super().__init__(block)
        self.tir = tir
        self.names: list[dict[str, Symbol]] = [{}]
        self.tensors: dict[Buffer, SSAValue] = {}
        """The current contents of each buffer."""

    # --- names --------------------------------------------------------------------------

    def lookup(self, name: str) -> Symbol | None:
        for scope in reversed(self.names):
            if name in scope:
                return scope[name]
        return None

    def define(self, name: str, symbol: Symbol) -> None:
        self.names[-1][name] = symbol

    def buffer(self, node: ast.expr) -> Buffer:
        """The buffer ``node`` names."""
        found = self.lookup(node.id) if isinstance(node, ast.Name) else None
        if not isinstance(found, Buffer):
            raise TVMScriptError(node, f"'{ast.unparse(node)}' is not a buffer")
        return found

    def tir_function(self, node: ast.expr) -> str | None:
        """``exp`` for ``T.exp`` (the TIR module's alias), else None."""
        name = dotted_name(node) or ""
        prefix, _, last = name.rpartition(".")
        return last if prefix == self.tir else None

    # --- expressions --------------------------------------------------------------------

    def expr(self, node: ast.expr) -> Scalar:
        """The value of a TIR expression."""
        try:
            return self._expr(node)
        except TIRTypeError as error:
            raise TVMScriptError(node, str(error)) from None

    def _expr(self, node: ast.expr) -> Scalar:
        if isinstance(node, ast.Constant) and isinstance(node.value, bool | int | float):
            return self.literal(node.value)
        if isinstance(node, ast.Name):
            found = self.lookup(node.id)
            if not isinstance(found, Scalar):
                problem = "is a buffer, not a value" if found else "is not defined"
                raise TVMScriptError(node, f"'{node.id}' {problem}")
            return found
        if isinstance(node, ast.Subscript):
            return self.load(node)
        if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
            return self.binary(
                _OPERATORS[type(node.op)], self.expr(node.left), self.expr(node.right)
            )
        if isinstance(node, ast.UnaryOp):
            return self._unary(node)
        if isinstance(node, ast.Compare):
            return self._compare(node)
        if isinstance(node, ast.BoolOp):
            values = [self.condition(value) for value in node.values]
            op = arith.AndIOp if isinstance(node.op, ast.And) else arith.OrIOp
            result = values[0]
            for value in values[1:]:
                result = Scalar(self.value(op(result.value, value.value)), BOOL)
            return result
        if isinstance(node, ast.Call):
            return self._call(node)
        raise TVMScriptError(node, f"'{ast.unparse(node)}' is outside the TIR subset")

    def condition(self, node: ast.expr) -> Scalar:
        """A ``bool`` expression."""
        value = self.expr(node)
        if not value.dtype.is_bool:
            raise TVMScriptError(node, f"a condition must be bool, not {value.dtype.tvm_name()}")
        return value

    def indices(self, buffer: Buffer, node: ast.Subscript) -> list[SSAValue]:
        """The subscripts of ``buffer[...]`` as ``index`` values."""
        subscript = node.slice
        parts = subscript.elts if isinstance(subscript, ast.Tuple) else [subscript]
        if len(parts) != len(buffer.sizes):
            raise TVMScriptError(
                node, f"buffer '{buffer.name}' has {len(buffer.sizes)} dimensions, not {len(parts)}"
            )
        indices = []
        for part in parts:
            if isinstance(part, ast.Slice):
                raise TVMScriptError(part, "vector accesses (slices) are outside the TIR subset")
            try:
                indices.append(self.index(self.expr(part)))
            except TIRTypeError as error:
                raise TVMScriptError(part, str(error)) from None
        return indices

    def load(self, node: ast.Subscript) -> Scalar:
        """``buffer[indices]``: a ``tensor.extract``."""
        buffer = self.buffer(node.value)
        indices = self.indices(buffer, node)
        element = mlir_type(buffer.dtype)
        extract = tensor.ExtractOp(self.tensors[buffer], indices, element)
        return Scalar(self.value(extract), buffer.dtype)

    def binary(self, operator: str, lhs: Scalar, rhs: Scalar) -> Scalar:
        """``lhs operator rhs`` on the common type of the operands."""
        lhs, rhs = self.match_types(lhs, rhs)
        dtype = lhs.dtype
        a, b = lhs.value, rhs.value
        if dtype.is_float:
            if operator in _FLOAT_OPS:
                return Scalar(self.value(_FLOAT_OPS[operator](a, b)), dtype)
            if operator in ("max", "min"):
                taken = self.compare(">" if operator == "max" else "<", lhs, rhs)
                return Scalar(self.value(arith.SelectOp(taken.value, a, b)), dtype)
            raise TIRTypeError(f"'{operator}' needs integer operands, not {dtype.tvm_name()}")
        if operator == "/":
            raise TIRTypeError(
                "'/' of integers is ambiguous in TIR: use '//' (floor), T.truncdiv or T.floordiv"
            )
        if operator in _INT_OPS:
            return Scalar(self.value(_INT_OPS[operator](a, b)), dtype)
        if operator == "floormod" and is_signed(dtype):
            quotient = self.binary("floordiv", lhs, rhs)
            product = self.binary("*", quotient, rhs)
            return self.binary("-", lhs, product)
        signed, unsigned = _SIGNED_OPS["truncmod" if operator == "floormod" else operator]
        op = signed if is_signed(dtype) else unsigned
        return Scalar(self.value(op(a, b)), dtype)

    def _unary(self, node: ast.UnaryOp) -> Scalar:
        if isinstance(node.op, ast.Not):
            return self.logical_not(self.condition(node.operand))
        operand = self.expr(node.operand)
        if isinstance(node.op, ast.UAdd):
            return operand
        if isinstance(node.op, ast.USub):
            if operand.dtype.is_float:
                return Scalar(self.value(arith.NegfOp(operand.value)), operand.dtype)
            return self.binary("-", self.constant(0, operand.dtype), operand)
        return self.binary("^", operand, self.constant(-1, operand.dtype))

    def logical_not(self, value: Scalar) -> Scalar:
        return self.binary("^", value, self.constant(True, BOOL))

    def _compare(self, node: ast.Compare) -> Scalar:
        left = self.expr(node.left)
        result = None
        for op, comparator in zip(node.ops, node.comparators, strict=True):
            if type(op) not in _COMPARISONS:
                raise TVMScriptError(node, f"'{ast.unparse(node)}' is outside the TIR subset")
            right = self.expr(comparator)
            test = self.compare(_COMPARISONS[type(op)], left, right)
            result = test if result is None else self.binary("&", result, test)
            left = right
        assert result is not None
        return result

    # --- calls --------------------------------------------------------------------------

    def _call(self, node: ast.Call) -> Scalar:
        name = self.tir_function(node.func)
        if name is None:
            raise TVMScriptError(
                node, f"call of '{ast.unparse(node.func)}' is outside the TIR subset"
            )
        if node.keywords:
            raise TVMScriptError(node.keywords[0], f"T.{name} takes no keyword arguments here")
        args = node.args
        dtype = dtype_named(name)
        if dtype is not None:
            return self._typed(node, dtype)
        handler = _CALLS.get(name)
        if handler is None:
            raise TVMScriptError(
                node,
                f"T.{name} is outside the TIR subset: legalize it in TVM first, or write the "
                "kernel as a destination-passing func.func in MLIR (docs/tvmscript.md)",
            )
        arity, method = handler
        if len(args) != arity:
            raise TVMScriptError(node, f"T.{name} takes {arity} arguments, not {len(args)}")
        return getattr(self, method)(name, args)

    def _typed(self, node: ast.Call, dtype: DataType) -> Scalar:
        """``T.float32(0.5)``, ``T.int64(4)``, ``T.float32("inf")``; of an
        expression, a cast."""
        if len(node.args) != 1:
            raise TVMScriptError(node, f"T.{dtype.tvm_name()}(...) takes one value here")
        arg = node.args[0]
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            try:
                return self.constant(float(arg.value), dtype)
            except ValueError:
                raise TVMScriptError(arg, f"'{arg.value}' is not a number") from None
        if isinstance(arg, ast.Constant) and isinstance(arg.value, bool | int | float):
            return self.constant(arg.value, dtype)
        if isinstance(arg, ast.UnaryOp) and isinstance(arg.op, ast.USub):
            inner = arg.operand
            if isinstance(inner, ast.Constant) and isinstance(inner.value, int | float):
                return self.constant(-inner.value, dtype)
        return self.cast(self.expr(arg), dtype)

    def _math(self, name: str, args: Sequence[ast.expr]) -> Scalar:
        value = self.expr(args[0])
        if name in _ROUNDING and not value.dtype.is_float:
            return value
        if not value.dtype.is_float:
            raise TVMScriptError(args[0], f"T.{name} needs a float, not {value.dtype.tvm_name()}")
        op = (_FLOAT_FUNCTIONS | _ROUNDING)[name]
        return Scalar(self.value(op(value.value)), value.dtype)  # pyright: ignore[reportCallIssue]

    def _binary_call(self, name: str, args: Sequence[ast.expr]) -> Scalar:
        return self.binary(_BINARY_CALLS[name], self.expr(args[0]), self.expr(args[1]))

    def _pow(self, name: str, args: Sequence[ast.expr]) -> Scalar:
        base, exponent = self.match_types(self.expr(args[0]), self.expr(args[1]))
        if not base.dtype.is_float:
            raise TVMScriptError(args[0], f"T.{name} needs floats, not {base.dtype.tvm_name()}")
        op = math.PowFOp if name == "pow" else math.Atan2Op
        return Scalar(self.value(op(base.value, exponent.value)), base.dtype)

    def _abs(self, name: str, args: Sequence[ast.expr]) -> Scalar:
        value = self.expr(args[0])
        if value.dtype.is_float:
            return Scalar(self.value(math.AbsFOp(value.value)), value.dtype)
        if not is_signed(value.dtype):
            return value
        return Scalar(self.value(math.AbsIOp(value.value)), value.dtype)

    def _sigmoid(self, name: str, args: Sequence[ast.expr]) -> Scalar:
        """``1 / (1 + exp(-x))``, as TVM computes it."""
        value = self.expr(args[0])
        if not value.dtype.is_float:
            raise TVMScriptError(args[0], f"T.sigmoid needs a float, not {value.dtype.tvm_name()}")
        negated = Scalar(self.value(arith.NegfOp(value.value)), value.dtype)
        exp = Scalar(self.value(math.ExpOp(negated.value)), value.dtype)
        one = self.constant(1.0, value.dtype)
        return self.binary("/", one, self.binary("+", one, exp))

    def _classify(self, name: str, args: Sequence[ast.expr]) -> Scalar:
        """``T.isnan``, ``T.isinf``, ``T.isfinite`` (false, false, true on integers)."""
        value = self.expr(args[0])
        if not value.dtype.is_float:
            return self.constant(name == "isfinite", BOOL)
        if name == "isnan":
            return Scalar(self.value(arith.CmpfOp(value.value, value.value, "uno")), BOOL)
        magnitude = Scalar(self.value(math.AbsFOp(value.value)), value.dtype)
        infinity = self.constant(pymath.inf, value.dtype)
        predicate = "oeq" if name == "isinf" else "olt"
        return Scalar(self.value(arith.CmpfOp(magnitude.value, infinity.value, predicate)), BOOL)

    def _cast(self, name: str, args: Sequence[ast.expr]) -> Scalar:
        """``T.Cast("float32", x)`` and ``T.cast(x, "float32")``."""
        dtype_node, value_node = args if name == "Cast" else reversed(args)
        return self.cast(self.expr(value_node), self.dtype_of(dtype_node))

    def dtype_of(self, node: ast.expr) -> DataType:
        """A data type written as a string: ``"float32"``."""
        dtype = dtype_named(node.value) if isinstance(node, ast.Constant) else None
        if dtype is None:
            raise TVMScriptError(
                node, f"expected a data type of the TIR subset ({', '.join(DTYPES)})"
            )
        return dtype

    def _limit(self, name: str, args: Sequence[ast.expr]) -> Scalar:
        """``T.min_value``, ``T.max_value`` and ``T.infinity`` of a data type."""
        dtype = self.dtype_of(args[0])
        if dtype.is_float:
            if name == "infinity":
                return self.constant(pymath.inf, dtype)
            finfo = np.finfo(dtype.to_numpy())
            return self.constant(float(finfo.max if name == "max_value" else finfo.min), dtype)
        if name == "infinity":
            raise TVMScriptError(args[0], "T.infinity needs a float data type")
        bits = dtype.bits
        low, high = (
            (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1) if is_signed(dtype) else (0, 2**bits - 1)
        )
        return self.constant(high if name == "max_value" else low, dtype)

    def _select(self, name: str, args: Sequence[ast.expr]) -> Scalar:
        """``T.Select(c, a, b)``: both evaluated."""
        condition = self.condition(args[0])
        a, b = self.match_types(self.expr(args[1]), self.expr(args[2]))
        return Scalar(self.value(arith.SelectOp(condition.value, a.value, b.value)), a.dtype)

    def _if_then_else(self, name: str, args: Sequence[ast.expr]) -> Scalar:
        """``T.if_then_else(c, a, b)``: only the branch taken is evaluated (a load
        it guards may be out of bounds otherwise), an ``scf.if``."""
        condition = self.condition(args[0])
        branches = []
        for arg in args[1:]:
            with self.into(Block()) as block:
                branches.append((block, self.expr(arg)))
        common = common_type(branches[0][1].dtype, branches[1][1].dtype)
        for block, value in branches:
            with self.into(block):
                block.add_op(scf.YieldOp(self.cast(value, common).value))
        blocks = [block for block, _ in branches]
        op = scf.IfOp(condition.value, [mlir_type(common)], [blocks[0]], [blocks[1]])
        return Scalar(self.value(op), common)

    def _logical(self, name: str, args: Sequence[ast.expr]) -> Scalar:
        """``T.Not``, ``T.And``, ``T.Or``."""
        values = [self.condition(arg) for arg in args]
        if name == "Not":
            return self.logical_not(values[0])
        return self.binary("&" if name == "And" else "|", values[0], values[1])

    def _identity(self, name: str, args: Sequence[ast.expr]) -> Scalar:
        """``T.likely(c)``: a hint."""
        return self.expr(args[0])

    def _bitwise_not(self, name: str, args: Sequence[ast.expr]) -> Scalar:
        value = self.expr(args[0])
        return self.binary("^", value, self.constant(-1, value.dtype))


_CALLS: dict[str, tuple[int, str]] = {
    **{name: (1, "_math") for name in _FLOAT_FUNCTIONS | _ROUNDING},
    **{name: (2, "_binary_call") for name in _BINARY_CALLS},
    "pow": (2, "_pow"),
    "atan2": (2, "_pow"),
    "abs": (1, "_abs"),
    "sigmoid": (1, "_sigmoid"),
    "isnan": (1, "_classify"),
    "isinf": (1, "_classify"),
    "isfinite": (1, "_classify"),
    "Cast": (2, "_cast"),
    "cast": (2, "_cast"),
    "min_value": (1, "_limit"),
    "max_value": (1, "_limit"),
    "infinity": (1, "_limit"),
    "Select": (3, "_select"),
    "if_then_else": (3, "_if_then_else"),
    "Not": (1, "_logical"),
    "And": (2, "_logical"),
    "Or": (2, "_logical"),
    "likely": (1, "_identity"),
    "bitwise_not": (1, "_bitwise_not"),
}
"""The TIR functions of the subset: their arity and the method reading them."""
