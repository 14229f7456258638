"""Run-time StructInfo checks: ``match_cast`` and the implicit checks of calls.

A value is matched against a type in two passes, as the spec prescribes for
function signatures: first every symbolic variable standing alone in a
dimension (or prim value) that is not yet bound is bound to the value's size;
then every dimension is evaluated and compared. A mismatch raises
``MatchFailure`` with a message such as ``dimension n bound to 3, got 5``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..dtype import DataType
from ..prim_expr import IntImm, PrimExpr, Var, evaluate, to_text
from ..struct_info import Check, base_check, substitute_vars
from ..types import (
    FuncType,
    ObjectType,
    PrimType,
    ShapeType,
    StructInfoType,
    TensorType,
    TupleType,
    struct_info_text,
)
from ..values import Closure, OperatorValue, PackedFunc, PrimValue, ShapeValue, describe


class MatchFailure(Exception):
    """A value that does not have the StructInfo it is checked against."""


class ArgumentMismatch(MatchFailure):
    """An argument that does not match its parameter's annotation."""

    def __init__(self, index: int, failure: MatchFailure):
        super().__init__(f"argument {index}: {failure}")
        self.index = index


def match(value: object, sinfo: StructInfoType, symbols: dict[str, int]) -> None:
    """Check ``value`` against ``sinfo``, binding new symbolic variables."""
    bind_symbols(value, sinfo, symbols)
    check(value, sinfo, symbols)


def match_all(
    values: Sequence[object], types: Sequence[StructInfoType], symbols: dict[str, int]
) -> None:
    """Match several values at once: all bindings first, then all checks (so a
    parameter may use a variable bound by a later one)."""
    for value, sinfo in zip(values, types, strict=True):
        bind_symbols(value, sinfo, symbols)
    for index, (value, sinfo) in enumerate(zip(values, types, strict=True)):
        try:
            check(value, sinfo, symbols)
        except MatchFailure as failure:
            raise ArgumentMismatch(index, failure) from None


def bind_symbols(value: object, sinfo: StructInfoType, symbols: dict[str, int]) -> None:
    """Bind the unbound variables in binding position to the value's sizes."""
    if isinstance(sinfo, TupleType):
        if isinstance(value, tuple) and len(value) == len(sinfo.types):
            for item, field_type in zip(value, sinfo.types, strict=True):
                bind_symbols(item, field_type, symbols)
    elif isinstance(sinfo, PrimType):
        known = sinfo.known_value
        if isinstance(known, Var) and isinstance(value, PrimValue):
            symbols.setdefault(known.name, int(value.value))
    else:
        sizes = _sizes(value, sinfo)
        dims = getattr(sinfo, "dims", None)
        if sizes is not None and dims is not None and len(sizes) == len(dims):
            for dim, size in zip(dims, sizes, strict=True):
                if isinstance(dim, Var):
                    symbols.setdefault(dim.name, size)


def _sizes(value: object, sinfo: StructInfoType) -> tuple[int, ...] | None:
    if isinstance(sinfo, TensorType) and isinstance(value, np.ndarray):
        return value.shape
    if isinstance(sinfo, ShapeType) and isinstance(value, ShapeValue):
        return value.dims
    return None


def check(value: object, sinfo: StructInfoType, symbols: dict[str, int]) -> None:
    """Check a value against a type whose variables are all bound."""
    if isinstance(sinfo, ObjectType):
        return
    if isinstance(sinfo, TensorType):
        if not isinstance(value, np.ndarray):
            raise MatchFailure(f"expected a tensor, got {describe(value)}")
        dtype = DataType.from_numpy(value.dtype)
        if not sinfo.data_type.is_void and dtype != sinfo.data_type:
            raise MatchFailure(f"expected data type {sinfo.data_type}, got {dtype}")
        _check_sizes(value.shape, sinfo.rank, sinfo.dims, symbols, "dimension")
    elif isinstance(sinfo, ShapeType):
        if not isinstance(value, ShapeValue):
            raise MatchFailure(f"expected a shape, got {describe(value)}")
        _check_sizes(value.dims, sinfo.rank, sinfo.dims, symbols, "shape value")
    elif isinstance(sinfo, PrimType):
        if not isinstance(value, PrimValue):
            raise MatchFailure(f"expected a prim value, got {describe(value)}")
        if value.dtype != sinfo.data_type:
            raise MatchFailure(f"expected data type {sinfo.data_type}, got {value.dtype}")
        if sinfo.known_value is not None:
            _check_value(value.value, sinfo.known_value, symbols, "prim value", "")
    elif isinstance(sinfo, TupleType):
        if not isinstance(value, tuple):
            raise MatchFailure(f"expected a tuple, got {describe(value)}")
        if len(value) != len(sinfo.types):
            raise MatchFailure(f"expected a tuple of {len(sinfo.types)} fields, got {len(value)}")
        for index, (item, field_type) in enumerate(zip(value, sinfo.types, strict=True)):
            try:
                check(item, field_type, symbols)
            except MatchFailure as failure:
                raise MatchFailure(f"field {index}: {failure}") from None
    elif isinstance(sinfo, FuncType):
        _check_function(value, sinfo, symbols)


def _check_sizes(
    sizes: tuple[int, ...],
    rank: int,
    dims: tuple[PrimExpr, ...] | None,
    symbols: dict[str, int],
    what: str,
) -> None:
    if rank >= 0 and len(sizes) != rank:
        raise MatchFailure(f"expected {rank} dimensions, got {len(sizes)}")
    for index, (size, dim) in enumerate(zip(sizes, dims or (), strict=False)):
        _check_value(size, dim, symbols, what, f" {index}")


def _check_value(
    actual: int | float | bool,
    expected: PrimExpr,
    symbols: dict[str, int],
    what: str,
    position: str,
) -> None:
    """``dimension n bound to 3, got 5`` or ``dimension 1 is 4, expected n + 1 = 6``."""
    wanted = evaluate_symbolic(expected, symbols)
    if actual == wanted:
        return
    if isinstance(expected, Var):
        raise MatchFailure(f"{what} {expected.name} bound to {wanted}, got {actual}")
    shown = str(wanted) if isinstance(expected, IntImm) else f"{to_text(expected)} = {wanted}"
    raise MatchFailure(f"{what}{position} is {actual}, expected {shown}")


def evaluate_symbolic(expr: PrimExpr, symbols: dict[str, int]) -> int | float | bool:
    """Evaluate a symbolic expression with the bound variables."""
    try:
        return evaluate(expr, symbols)
    except KeyError as unbound:
        raise MatchFailure(f"symbolic variable {unbound.args[0]} is not bound") from None
    except ZeroDivisionError:
        raise MatchFailure(f"'{to_text(expr)}' divides by zero") from None


def _check_function(value: object, sinfo: FuncType, symbols: dict[str, int]) -> None:
    if isinstance(value, OperatorValue):
        return
    if not isinstance(value, Closure | PackedFunc):
        raise MatchFailure(f"expected a function, got {describe(value)}")
    known = {name: IntImm(size) for name, size in symbols.items()}
    expected = substitute_vars(sinfo, known)
    if base_check(expected, value.struct_info) in (Check.FAIL_STATIC, Check.FAIL_RUNTIME):
        raise MatchFailure(
            f"expected a function of type {struct_info_text(expected)}, got "
            f"{describe(value)} of type {struct_info_text(value.struct_info)}"
        )


def run_time_struct_info(sinfo: FuncType, symbols: dict[str, int]) -> FuncType:
    """A closure's StructInfo with the symbolic variables it captured made concrete."""
    known = {name: IntImm(size) for name, size in symbols.items()}
    concrete = substitute_vars(sinfo, known)
    assert isinstance(concrete, FuncType)
    return concrete
