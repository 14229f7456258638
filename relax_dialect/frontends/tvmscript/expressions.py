"""Symbolic expressions, StructInfo and literals as TVMScript prints them.

=========================  ==================================================
dialect                    TVMScript
=========================  ==================================================
``n + 1``, ``2 * n``       ``n + 1``, ``2 * n``
``n floordiv 2``           ``n // 2`` (``floormod``: ``n % 2``)
``min``, ``max``           ``T.min(n, 4)``, ``T.max(n, 4)``
``select(c, a, b)``        ``T.Select(c, a, T.int64(4))`` (literal branches typed)
``lt(a, b)``, ...          ``a < b``, ``a == b``, ...
``and``, ``or``, ``not``   ``T.And(a, b)``, ``T.Or(a, b)``, ``T.Not(a)``
literal of type i32, f32   ``T.int32(3)``, ``T.float32(1.5)`` (``int64``: ``3``)
``object``                 ``R.Object``
``prim<i64>``              ``R.Prim("int64")``; with a value ``R.Prim(value=n)``
``shape<[n, 4]>``          ``R.Shape([n, 4])``; ``R.Shape(ndim=2)``, ``R.Shape(ndim=-1)``
``tensor<[n, 4], f32>``    ``R.Tensor((n, 4), dtype="float32")``; ``R.Tensor(dtype="float32",
                           ndim=2)``, ``R.Tensor((n,))`` (``void``), ``R.Tensor``
``tensor<[n], f32, ...>``  ``R.Tensor((n,), dtype="float32", vdevice="cuda:0:global")`` on
                           a virtual device (``vdevice = "cuda:0:global"``)
``tuple<a, b>``            ``R.Tuple(a, b)``; ``R.Tuple`` when empty
``func<(a) -> r>``         ``R.Callable((a,), r, True)``; opaque: ``R.Callable``,
                           ``R.Callable(ret=r, purity=True)``,
                           ``R.Callable(derive_func="default_derive")``
=========================  ==================================================

TVM prints ``and``/``or``/``not`` as Python operators, which its parser
rejects in parameter annotations; ``T.And``/``T.Or``/``T.Not`` always parse.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence

import numpy as np

from ...dtype import BOOL, INT64, DataType
from ...prim_expr import Apply, BoolImm, FloatImm, IntImm, PrimExpr, Var, free_vars
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

INFIX = {
    "add": ("+", 1),
    "sub": ("-", 1),
    "mul": ("*", 2),
    "floordiv": ("//", 2),
    "floormod": ("%", 2),
    "eq": ("==", 0),
    "ne": ("!=", 0),
    "lt": ("<", 0),
    "le": ("<=", 0),
    "gt": (">", 0),
    "ge": (">=", 0),
}
"""Infix operators with their Python precedence (comparisons do not chain)."""

FUNCTIONS = {
    "min": "T.min",
    "max": "T.max",
    "select": "T.Select",
    "and": "T.And",
    "or": "T.Or",
    "not": "T.Not",
}
LITERALS = (IntImm, FloatImm, BoolImm)


def string_literal(text: str) -> str:
    """A double-quoted Python string literal."""
    return json.dumps(text, ensure_ascii=False)


def float_literal(value: float) -> str:
    """A Python float literal (``float("nan")`` for the values without one)."""
    return repr(value) if math.isfinite(value) else f'float("{value}")'


def scalar_literal(value: np.generic) -> str:
    """A NumPy scalar as the shortest literal that reads back to it in its type."""
    if isinstance(value, np.floating):
        return str(value) if np.isfinite(value) else float_literal(float(value))
    return repr(value.item())


def attribute_literal(value: bool | int | float | str | DataType | tuple) -> str:
    """An operator attribute: ``True``, ``3``, ``0.5``, ``"NCHW"``, ``"float32"``,
    ``[0, 1]``."""
    if isinstance(value, tuple):
        return f"[{', '.join(attribute_literal(v) for v in value)}]"
    if isinstance(value, DataType):
        return string_literal(value.tvm_name())
    if isinstance(value, str):
        return string_literal(value)
    return float_literal(value) if isinstance(value, float) else str(value)


def tuple_text(items: Sequence[str]) -> str:
    """A Python tuple display: ``()``, ``(a,)``, ``(a, b)``."""
    return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"


class ExpressionPrinter:
    """Prints symbolic expressions and StructInfo; ``variable`` gives the Python
    name of a symbolic variable (and lets the caller declare it)."""

    def __init__(self, variable: Callable[[str], str]):
        self.variable = variable

    def expr(self, expr: PrimExpr, dtype: DataType = INT64, parent: int = 0) -> str:
        """``expr`` of data type ``dtype``, in a context of precedence ``parent``."""
        if isinstance(expr, LITERALS):
            return self.literal(expr, dtype, typed=False)
        if isinstance(expr, Var):
            return self.variable(expr.name)
        assert isinstance(expr, Apply)
        if expr.op in INFIX:
            symbol, precedence = INFIX[expr.op]
            operand_type = dtype if precedence else INT64
            lhs = self.expr(expr.args[0], operand_type, precedence + (precedence == 0))
            rhs = self.expr(expr.args[1], operand_type, precedence + 1)
            text = f"{lhs} {symbol} {rhs}"
            return f"({text})" if precedence < parent else text
        return self._call(expr, dtype)

    def _call(self, expr: Apply, dtype: DataType) -> str:
        args = expr.args
        if expr.op in ("and", "or", "not"):
            texts = [self.expr(a, BOOL) for a in args]
        elif expr.op == "select":
            cond, *branches = args
            texts = [self.expr(cond, BOOL), *(self._typed(b, dtype) for b in branches)]
        elif all(isinstance(a, LITERALS) for a in args):
            texts = [self._typed(a, dtype) for a in args]
        else:
            texts = [self.expr(a, dtype) for a in args]
        return f"{FUNCTIONS[expr.op]}({', '.join(texts)})"

    def _typed(self, expr: PrimExpr, dtype: DataType) -> str:
        """A literal with its data type spelled out (TVM would make an untyped
        ``4`` an ``int32`` and ``True`` an ``int64``); other expressions as usual."""
        if isinstance(expr, LITERALS):
            return self.literal(expr, dtype, typed=True)
        return self.expr(expr, dtype)

    @staticmethod
    def literal(expr: IntImm | FloatImm | BoolImm, dtype: DataType, typed: bool) -> str:
        """``3``/``True`` (typed: ``T.int64(3)``/``T.bool(True)``); other data types
        always typed, ``T.int32(3)``, ``T.float32(1.5)``."""
        if isinstance(expr, BoolImm):
            return f"T.bool({expr.value})" if typed else str(expr.value)
        if isinstance(expr, IntImm) and dtype == INT64 and not typed:
            return str(expr.value)
        value = float_literal(expr.value) if isinstance(expr, FloatImm) else str(expr.value)
        return f"T.{dtype.tvm_name()}({value})"

    def dim(self, expr: PrimExpr, dtype: DataType = INT64, quoted: bool = False) -> str:
        """A dimension or prim value; ``quoted`` writes one with variables as a
        string, as TVM does in the signature of a global function."""
        text = self._typed(expr, dtype) if isinstance(expr, BoolImm) else self.expr(expr, dtype)
        return string_literal(text) if quoted and free_vars(expr) else text

    def struct_info(self, sinfo: StructInfoType, quoted: bool = False) -> str:
        """The annotation spelling of ``sinfo``."""
        if isinstance(sinfo, ObjectType):
            return "R.Object"
        if isinstance(sinfo, PrimType):
            value = sinfo.known_value
            if value is None:
                return f"R.Prim({string_literal(sinfo.data_type.tvm_name())})"
            return f"R.Prim(value={self.dim(value, sinfo.data_type, quoted)})"
        if isinstance(sinfo, ShapeType):
            if sinfo.dims is None:
                return f"R.Shape(ndim={sinfo.rank})"
            return f"R.Shape([{', '.join(self.dim(d, quoted=quoted) for d in sinfo.dims)}])"
        if isinstance(sinfo, TensorType):
            return self._tensor(sinfo, quoted)
        if isinstance(sinfo, TupleType):
            fields = [self.struct_info(f, quoted) for f in sinfo.types]
            return f"R.Tuple({', '.join(fields)})" if fields else "R.Tuple"
        assert isinstance(sinfo, FuncType)
        return self._callable(sinfo, quoted)

    def _tensor(self, sinfo: TensorType, quoted: bool) -> str:
        parts = []
        if sinfo.dims is not None:
            parts.append(tuple_text([self.dim(d, quoted=quoted) for d in sinfo.dims]))
        if not sinfo.data_type.is_void:
            parts.append(f"dtype={string_literal(sinfo.data_type.tvm_name())}")
        if sinfo.dims is None and sinfo.rank != UNKNOWN_NDIM:
            parts.append(f"ndim={sinfo.rank}")
        if sinfo.device is not None:
            parts.append(f"vdevice={string_literal(str(sinfo.device))}")
        return f"R.Tensor({', '.join(parts)})" if parts else "R.Tensor"

    def _callable(self, sinfo: FuncType, quoted: bool) -> str:
        ret = self.struct_info(sinfo.ret_type, quoted)
        params = sinfo.param_types
        if params is not None:
            texts = [self.struct_info(p, quoted) for p in params]
            return f"R.Callable({tuple_text(texts)}, {ret}, {sinfo.is_pure})"
        keywords = [] if isinstance(sinfo.ret_type, ObjectType) else [f"ret={ret}"]
        keywords += ["purity=True"] if sinfo.is_pure else []
        if sinfo.derive is not None:
            keywords.append(f"derive_func={string_literal(sinfo.derive)}")
        return f"R.Callable({', '.join(keywords)})" if keywords else "R.Callable"
