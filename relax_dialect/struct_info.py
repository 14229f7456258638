"""The spec's StructInfo relations: subtyping, join, erasure and call derivation.

``base_check(base, derived)`` answers "is ``derived`` a subtype of ``base``?"
with the four grades TVM uses: ``PASS``; ``FAIL_SYMBOLIC`` (symbolic values
could not be proven equal: may hold at run time); ``FAIL_RUNTIME`` (the
derived side lacks static information, e.g. it is ``object``: a
``match_cast`` could make it hold); ``FAIL_STATIC`` (provably never holds).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import IntEnum
from functools import lru_cache

from .dtype import VOID
from .prim_expr import PrimExpr, Var, free_vars, substitute
from .prim_expr_simplify import prove_equal, prove_not_equal, simplify
from .types import (
    UNKNOWN_NDIM,
    FuncType,
    ObjectType,
    PrimType,
    ShapeType,
    StructInfoType,
    TensorType,
    TupleType,
    struct_info_text,
)


class Check(IntEnum):
    """Outcome of a subtyping check, ordered from worst to best."""

    FAIL_STATIC = 0
    FAIL_RUNTIME = 1
    FAIL_SYMBOLIC = 2
    PASS = 3


OBJECT = ObjectType()


def _combine(results: Iterable[Check]) -> Check:
    worst = Check.PASS
    for result in results:
        if result == Check.FAIL_STATIC:
            return result
        worst = min(worst, result)
    return worst


def _value_check(base: PrimExpr, derived: PrimExpr) -> Check:
    if prove_equal(base, derived):
        return Check.PASS
    if prove_not_equal(base, derived):
        return Check.FAIL_STATIC
    return Check.FAIL_SYMBOLIC


def _dims_check(base: Sequence[PrimExpr], derived: Sequence[PrimExpr]) -> Check:
    if len(base) != len(derived):
        return Check.FAIL_STATIC
    return _combine(_value_check(b, d) for b, d in zip(base, derived, strict=True))


def _kind_mismatch(derived: StructInfoType) -> Check:
    return Check.FAIL_RUNTIME if isinstance(derived, ObjectType) else Check.FAIL_STATIC


def base_check(base: StructInfoType, derived: StructInfoType) -> Check:
    """How far ``derived`` is from being a subtype of ``base``."""
    if base == derived or isinstance(base, ObjectType):
        return Check.PASS
    if type(base) is not type(derived):
        return _kind_mismatch(derived)
    if isinstance(base, PrimType):
        assert isinstance(derived, PrimType)
        if base.data_type != derived.data_type:
            return Check.FAIL_STATIC
        if base.known_value is None:
            return Check.PASS
        if derived.known_value is None:
            return Check.FAIL_SYMBOLIC
        return _value_check(base.known_value, derived.known_value)
    if isinstance(base, ShapeType):
        assert isinstance(derived, ShapeType)
        return _rank_and_dims_check(base.rank, base.dims, derived.rank, derived.dims)
    if isinstance(base, TensorType):
        assert isinstance(derived, TensorType)
        if not base.data_type.is_void and base.data_type != derived.data_type:
            return Check.FAIL_RUNTIME if derived.data_type.is_void else Check.FAIL_STATIC
        if base.rank not in (UNKNOWN_NDIM, derived.rank):
            return Check.FAIL_RUNTIME if derived.rank == UNKNOWN_NDIM else Check.FAIL_STATIC
        if base.device is not None and base.device != derived.device:
            return Check.FAIL_RUNTIME if derived.device is None else Check.FAIL_STATIC
        return _rank_and_dims_check(base.rank, base.dims, derived.rank, derived.dims)
    if isinstance(base, TupleType):
        assert isinstance(derived, TupleType)
        if len(base.types) != len(derived.types):
            return Check.FAIL_STATIC
        return _combine(base_check(b, d) for b, d in zip(base.types, derived.types, strict=True))
    assert isinstance(base, FuncType) and isinstance(derived, FuncType)
    return _func_check(base, derived)


def _rank_and_dims_check(
    base_rank: int,
    base_dims: tuple[PrimExpr, ...] | None,
    rank: int,
    dims: tuple[PrimExpr, ...] | None,
) -> Check:
    if base_rank == UNKNOWN_NDIM:
        return Check.PASS
    if base_rank != rank:
        return Check.FAIL_RUNTIME if rank == UNKNOWN_NDIM else Check.FAIL_STATIC
    if base_dims is None:
        return Check.PASS
    if dims is None:
        return Check.FAIL_SYMBOLIC
    return _dims_check(base_dims, dims)


def _func_check(base: FuncType, derived: FuncType) -> Check:
    if base.is_pure and not derived.is_pure:
        return Check.FAIL_STATIC
    if base.is_opaque:
        if base.derive is not None:
            return Check.PASS if base.derive == derived.derive else Check.FAIL_SYMBOLIC
        return base_check(base.ret_type, derived.ret_type)
    if derived.is_opaque:
        return Check.FAIL_SYMBOLIC
    base_params, derived_params = base.param_types, derived.param_types
    assert base_params is not None and derived_params is not None
    if len(base_params) != len(derived_params):
        return Check.FAIL_STATIC
    # rename the derived signature's variables to the base's, then compare:
    # parameters contravariantly, results covariantly
    mapping = signature_mapping(derived_params, base_params)
    renamed = [substitute_vars(p, mapping) for p in derived_params]
    param_checks = [base_check(d, b) for d, b in zip(renamed, base_params, strict=True)]
    params = _combine(param_checks)
    if params == Check.FAIL_RUNTIME:
        params = Check.FAIL_SYMBOLIC
    ret = base_check(base.ret_type, substitute_vars(derived.ret_type, mapping))
    return _combine((params, ret))


def is_base_of(base: StructInfoType, derived: StructInfoType) -> bool:
    """``derived <: base`` is proven."""
    return base_check(base, derived) == Check.PASS


def never_matches(source: StructInfoType, target: StructInfoType) -> bool:
    """No value of type ``source`` can match ``target``: each provably fails the
    other's check (a ``relax.match_cast`` between them always fails)."""
    return (
        base_check(target, source) == Check.FAIL_STATIC
        and base_check(source, target) == Check.FAIL_STATIC
    )


# --- join (least upper bound) ----------------------------------------------


def join(lhs: StructInfoType, rhs: StructInfoType) -> StructInfoType:
    """The most specific StructInfo of which both are subtypes (modulo arithmetic)."""
    if lhs == rhs:
        return lhs
    if isinstance(lhs, ObjectType) or isinstance(rhs, ObjectType):
        return OBJECT
    if type(lhs) is not type(rhs):
        return OBJECT
    if isinstance(lhs, PrimType):
        assert isinstance(rhs, PrimType)
        if lhs.data_type != rhs.data_type:
            return OBJECT
        left, right = lhs.known_value, rhs.known_value
        if left is not None and right is not None and prove_equal(left, right):
            return lhs
        return PrimType(lhs.data_type)
    if isinstance(lhs, ShapeType):
        assert isinstance(rhs, ShapeType)
        if lhs.rank != rhs.rank:
            return ShapeType(ndim=UNKNOWN_NDIM)
        if _same_dims(lhs.dims, rhs.dims):
            return lhs
        return ShapeType(ndim=lhs.rank)
    if isinstance(lhs, TensorType):
        assert isinstance(rhs, TensorType)
        dtype = lhs.data_type if lhs.data_type == rhs.data_type else VOID
        device = lhs.device if lhs.device == rhs.device else None
        if lhs.rank != rhs.rank:
            return TensorType(dtype=dtype, ndim=UNKNOWN_NDIM, vdevice=device)
        if _same_dims(lhs.dims, rhs.dims):
            return TensorType(lhs.dims, dtype, vdevice=device)
        return TensorType(dtype=dtype, ndim=lhs.rank, vdevice=device)
    if isinstance(lhs, TupleType):
        assert isinstance(rhs, TupleType)
        if len(lhs.types) != len(rhs.types):
            return OBJECT
        return TupleType([join(a, b) for a, b in zip(lhs.types, rhs.types, strict=True)])
    assert isinstance(lhs, FuncType) and isinstance(rhs, FuncType)
    return _join_funcs(lhs, rhs)


def _same_dims(lhs: tuple[PrimExpr, ...] | None, rhs: tuple[PrimExpr, ...] | None) -> bool:
    if lhs is None or rhs is None or len(lhs) != len(rhs):
        return False
    return all(prove_equal(a, b) for a, b in zip(lhs, rhs, strict=True))


def _join_funcs(lhs: FuncType, rhs: FuncType) -> StructInfoType:
    pure = lhs.is_pure and rhs.is_pure
    lhs_params, rhs_params = lhs.param_types, rhs.param_types
    if (lhs_params is None) != (rhs_params is None):
        return OBJECT
    if lhs_params is None or rhs_params is None:
        if lhs.derive is not None or rhs.derive is not None:
            if lhs.derive == rhs.derive:
                return FuncType(None, OBJECT, pure, lhs.derive)
            return FuncType(None, OBJECT, pure, "empty_derive")
        return FuncType(None, join(lhs.ret_type, rhs.ret_type), pure)
    if len(lhs_params) != len(rhs_params):
        return OBJECT
    params = []
    for left, right in zip(lhs_params, rhs_params, strict=True):
        joined = join(left, right)
        if not (is_base_of(left, joined) and is_base_of(right, joined)):
            return OBJECT
        params.append(joined)
    return FuncType(params, join(lhs.ret_type, rhs.ret_type), pure)


# --- symbolic variables ------------------------------------------------------


def map_dims(sinfo: StructInfoType, fn: Callable[[PrimExpr], PrimExpr | None]) -> StructInfoType:
    """Rewrite every symbolic expression; ``None`` from ``fn`` erases that information."""
    if isinstance(sinfo, PrimType):
        value = sinfo.known_value
        new = None if value is None else fn(value)
        return sinfo if new is value else PrimType(sinfo.data_type, new)
    if isinstance(sinfo, ShapeType | TensorType):
        dims = sinfo.dims
        if dims is None:
            return sinfo
        new_dims = [fn(d) for d in dims]
        if all(n is d for n, d in zip(new_dims, dims, strict=True)):
            return sinfo
        kept = None if any(n is None for n in new_dims) else new_dims
        if isinstance(sinfo, ShapeType):
            return ShapeType(kept, ndim=sinfo.rank)  # pyright: ignore[reportArgumentType]
        return TensorType(kept, sinfo.data_type, sinfo.rank, sinfo.device)  # pyright: ignore
    if isinstance(sinfo, TupleType):
        fields = [map_dims(f, fn) for f in sinfo.types]
        if all(n is f for n, f in zip(fields, sinfo.types, strict=True)):
            return sinfo
        return TupleType(fields)
    if isinstance(sinfo, FuncType):
        params = sinfo.param_types
        new_params = None if params is None else [map_dims(p, fn) for p in params]
        ret = map_dims(sinfo.ret_type, fn)
        unchanged = ret is sinfo.ret_type and (
            params is None or all(n is p for n, p in zip(new_params or (), params, strict=True))
        )
        if unchanged:
            return sinfo
        return FuncType(new_params, ret, sinfo.is_pure, sinfo.derive)
    return sinfo


def substitute_expr(expr: PrimExpr, mapping: Mapping[str, PrimExpr]) -> PrimExpr:
    """Replace symbolic variables and simplify (``expr`` itself when none occurs)."""
    if free_vars(expr).isdisjoint(mapping):
        return expr
    return simplify(substitute(expr, mapping))


def substitute_vars(sinfo: StructInfoType, mapping: Mapping[str, PrimExpr]) -> StructInfoType:
    """Replace symbolic variables and simplify the affected expressions."""
    if not mapping:
        return sinfo
    return map_dims(sinfo, lambda expr: substitute_expr(expr, mapping))


def erase_vars(sinfo: StructInfoType, in_scope: Callable[[str], bool]) -> StructInfoType:
    """The spec's ``erase_to_well_defined``: forget information using out-of-scope
    variables. Variables bound by a function type's own parameters stay in scope."""
    if isinstance(sinfo, TupleType):
        fields = [erase_vars(f, in_scope) for f in sinfo.types]
        if all(n is f for n, f in zip(fields, sinfo.types, strict=True)):
            return sinfo
        return TupleType(fields)
    if isinstance(sinfo, FuncType):
        params = sinfo.param_types
        bound = definable_vars(params or ())

        def inner(name: str) -> bool:
            return name in bound or in_scope(name)

        new_params = None if params is None else [erase_vars(p, inner) for p in params]
        ret = erase_vars(sinfo.ret_type, inner)
        if ret is sinfo.ret_type and (
            params is None or all(n is p for n, p in zip(new_params or (), params, strict=True))
        ):
            return sinfo
        return FuncType(new_params, ret, sinfo.is_pure, sinfo.derive)

    def keep(expr: PrimExpr) -> PrimExpr | None:
        return expr if all(in_scope(v) for v in free_vars(expr)) else None

    return map_dims(sinfo, keep)


def definable_vars(types: Iterable[StructInfoType]) -> set[str]:
    """Variables in binding position: a dimension or prim value that is a bare name.
    Function types are not looked into (their variables are their own)."""
    found: set[str] = set()
    for sinfo in types:
        if isinstance(sinfo, PrimType):
            if isinstance(sinfo.known_value, Var):
                found.add(sinfo.known_value.name)
        elif isinstance(sinfo, ShapeType | TensorType):
            found.update(d.name for d in sinfo.dims or () if isinstance(d, Var))
        elif isinstance(sinfo, TupleType):
            found |= definable_vars(sinfo.types)
    return found


@lru_cache(maxsize=1 << 14)
def used_vars(sinfo: StructInfoType) -> frozenset[str]:
    """Free symbolic variables of a type (a function type binds its own)."""
    if isinstance(sinfo, PrimType):
        value = sinfo.known_value
        return frozenset() if value is None else free_vars(value)
    if isinstance(sinfo, ShapeType | TensorType):
        return frozenset(v for d in sinfo.dims or () for v in free_vars(d))
    if isinstance(sinfo, TupleType):
        return frozenset(v for f in sinfo.types for v in used_vars(f))
    if isinstance(sinfo, FuncType):
        params = sinfo.param_types or ()
        inner = {v for p in (*params, sinfo.ret_type) for v in used_vars(p)}
        return frozenset(inner - definable_vars(params))
    return frozenset()


def signature_mapping(
    params: Sequence[StructInfoType], args: Sequence[StructInfoType]
) -> dict[str, PrimExpr]:
    """Bind each parameter variable in binding position to the matching argument
    expression (the spec's ``get_shape_var_mapping``); first occurrence wins."""
    mapping: dict[str, PrimExpr] = {}
    for param, arg in zip(params, args, strict=True):
        _collect_mapping(param, arg, mapping)
    return mapping


def _collect_mapping(param: StructInfoType, arg: StructInfoType, out: dict[str, PrimExpr]) -> None:
    if isinstance(param, TupleType) and isinstance(arg, TupleType):
        if len(param.types) == len(arg.types):
            for p, a in zip(param.types, arg.types, strict=True):
                _collect_mapping(p, a, out)
    elif isinstance(param, PrimType) and isinstance(arg, PrimType):
        value, given = param.known_value, arg.known_value
        if isinstance(value, Var) and given is not None:
            out.setdefault(value.name, given)
    elif isinstance(param, ShapeType | TensorType) and type(param) is type(arg):
        dims, given = param.dims, arg.dims  # pyright: ignore[reportAttributeAccessIssue]
        if dims is not None and given is not None and len(dims) == len(given):
            for dim, value in zip(dims, given, strict=True):
                if isinstance(dim, Var):
                    out.setdefault(dim.name, value)


class CallMismatch(Exception):
    """An argument that can never match its parameter (or a wrong argument count)."""


def derive_call_ret(
    callee: FuncType, arg_types: Sequence[StructInfoType], declared: StructInfoType
) -> StructInfoType:
    """The StructInfo of a call's result (the spec's derivation rule for ``Call``).

    ``declared`` stands for the call's ``sinfo_args`` where a derive function
    uses them. Raises ``CallMismatch`` on a provable argument mismatch.
    """
    return _derive_call_ret(callee, tuple(arg_types), declared)


@lru_cache(maxsize=1 << 14)
def _derive_call_ret(
    callee: FuncType, arg_types: tuple[StructInfoType, ...], declared: StructInfoType
) -> StructInfoType:
    """``derive_call_ret``, memoised: a program calls the same functions with the
    same argument types many times, and each derivation builds new types."""
    params = callee.param_types
    if params is None:
        if callee.derive == "empty_derive":
            return OBJECT
        if callee.derive == "default_derive":
            return declared
        return callee.ret_type
    if len(params) != len(arg_types):
        noun = "argument" if len(params) == 1 else "arguments"
        raise CallMismatch(f"expects {len(params)} {noun}, got {len(arg_types)}")
    mapping = signature_mapping(params, arg_types)
    for index, (param, arg) in enumerate(zip(params, arg_types, strict=True)):
        expected = substitute_vars(param, mapping)
        if base_check(expected, arg) <= Check.FAIL_RUNTIME:
            raise CallMismatch(
                f"argument {index} has type {struct_info_text(arg)}, "
                f"expected {struct_info_text(expected)}"
            )
    unbound = definable_vars(params) - mapping.keys()
    ret = erase_vars(callee.ret_type, lambda name: name not in unbound)
    return substitute_vars(ret, mapping)


def static_type(sinfo: StructInfoType) -> StructInfoType:
    """The spec's ``erase_struct_info``: drop every symbolic expression, keeping
    kinds, ranks and data types (the "traditional type" of a value)."""
    return map_dims(sinfo, lambda _: None)
