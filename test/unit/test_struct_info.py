"""StructInfo types: construction checks, syntax, subtyping, join, erasure, calls."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.context import Context
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError, VerifyException

from relax_dialect.dialect import Relax
from relax_dialect.dtype import BOOL, FLOAT32, INT64, VOID, DataType
from relax_dialect.prim_expr import IntImm, Var
from relax_dialect.struct_info import (
    CallMismatch,
    Check,
    base_check,
    definable_vars,
    derive_call_ret,
    erase_vars,
    is_base_of,
    join,
    static_type,
    substitute_vars,
    used_vars,
)
from relax_dialect.types import (
    FuncType,
    ObjectType,
    PrimType,
    ShapeType,
    StructInfoType,
    TensorType,
    TupleType,
)

n, m = Var("n"), Var("m")
F32 = FLOAT32


def tensor(shape: list | None = None, dtype: DataType = F32, ndim: int | None = None) -> TensorType:
    return TensorType(shape, dtype, ndim)


def parse(text: str) -> StructInfoType:
    ctx = Context()
    ctx.load_dialect(Relax)
    parsed = Parser(ctx, text).parse_attribute()
    assert isinstance(parsed, StructInfoType)
    return parsed


# --- construction ---------------------------------------------------------------


def test_construction_checks_name_the_rule() -> None:
    with pytest.raises(VerifyException, match="rule 9"):
        TensorType([n, 4], F32, ndim=3)
    with pytest.raises(VerifyException, match="rule 9"):
        ShapeType([n], ndim=2)
    with pytest.raises(VerifyException, match="rule 15"):
        FuncType([ObjectType()], ObjectType(), derive_func="default_derive")
    with pytest.raises(VerifyException, match="rule 17"):
        PrimType(DataType("handle", 64, 0))
    with pytest.raises(VerifyException, match="does not match data type"):
        PrimType(INT64, 1.5)
    with pytest.raises(VerifyException, match="unknown derive function"):
        FuncType(None, ObjectType(), derive_func="mystery")


def test_parse_errors_are_located() -> None:
    with pytest.raises(ParseError) as error:
        parse("!relax.tensor<ndim = 3, [n, 4], f32>")
    assert "rule 9" in error.value.msg
    assert error.value.span.get_location().col == 14


@pytest.mark.parametrize(
    "text",
    [
        "!relax.object",
        "!relax.prim<i64, n + 1>",
        "!relax.shape",
        "!relax.shape<ndim = 3>",
        "!relax.shape<[n, 4]>",
        "!relax.tensor",
        "!relax.tensor<ndim = 2>",
        "!relax.tensor<[n, m], f16>",
        "!relax.tuple<tensor<[n], f32>, tuple<>, object>",
        "!relax.func<(tensor<[n], f32>, prim<i64, n>) -> tuple<shape<[n]>>, impure>",
        "!relax.func<... -> tensor<f32>>",
        '!relax.func<derive "empty_derive">',
    ],
)
def test_syntax_round_trip(text: str) -> None:
    parsed = parse(text)
    assert str(parsed) == text
    assert parse(str(parsed)) == parsed


# --- subtyping -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("base", "derived", "expected"),
    [
        (ObjectType(), tensor([n]), Check.PASS),
        (tensor(None, VOID), tensor([n]), Check.PASS),
        (tensor(None, F32, ndim=1), tensor([n]), Check.PASS),
        (tensor([n]), tensor([n]), Check.PASS),
        (tensor([n + 1 - 1]), tensor([n]), Check.PASS),
        (tensor([n]), tensor([m]), Check.FAIL_SYMBOLIC),
        (tensor([n]), tensor(None, F32, ndim=1), Check.FAIL_SYMBOLIC),
        (tensor([n]), tensor([n + 1]), Check.FAIL_STATIC),
        (tensor([n]), tensor(None, F32), Check.FAIL_RUNTIME),
        (tensor([n]), tensor([n], VOID), Check.FAIL_RUNTIME),
        (tensor([n]), tensor([n], INT64), Check.FAIL_STATIC),
        (tensor([n]), tensor([n, 1]), Check.FAIL_STATIC),
        (tensor([n]), ObjectType(), Check.FAIL_RUNTIME),
        (tensor([n]), ShapeType([n]), Check.FAIL_STATIC),
        (ShapeType(ndim=2), ShapeType([n, m]), Check.PASS),
        (ShapeType([n, m]), ShapeType(ndim=2), Check.FAIL_SYMBOLIC),
        (ShapeType([n]), ShapeType([3]), Check.FAIL_SYMBOLIC),
        (ShapeType([2]), ShapeType([3]), Check.FAIL_STATIC),
        (PrimType(INT64), PrimType(INT64, n), Check.PASS),
        (PrimType(INT64, n), PrimType(INT64), Check.FAIL_SYMBOLIC),
        (PrimType(INT64), PrimType(F32), Check.FAIL_STATIC),
        (TupleType([tensor(None)]), TupleType([tensor([n])]), Check.PASS),
        (TupleType([tensor([n])]), TupleType([tensor([n]), tensor([n])]), Check.FAIL_STATIC),
    ],
)
def test_base_check(base: StructInfoType, derived: StructInfoType, expected: Check) -> None:
    assert base_check(base, derived) == expected
    assert is_base_of(base, derived) == (expected == Check.PASS)


def test_function_subtyping() -> None:
    f = FuncType([tensor([n])], tensor([n]))
    g = FuncType([tensor([m])], tensor([m]))
    impure = FuncType([tensor([n])], tensor([n]), pure=False)
    wide = FuncType([tensor(None)], tensor([n]))
    assert is_base_of(f, g)  # alpha-equivalent signatures
    assert is_base_of(impure, f)  # pure functions are impure ones too
    assert base_check(f, impure) == Check.FAIL_STATIC
    assert is_base_of(f, wide)  # parameters are contravariant
    assert not is_base_of(wide, f)
    opaque = FuncType(None, ObjectType(), pure=False)
    assert is_base_of(opaque, f)


# --- join ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lhs", "rhs", "expected"),
    [
        (tensor([n, 4]), tensor([n, 4]), tensor([n, 4])),
        (tensor([n, 4]), tensor([n, 5]), tensor(None, F32, ndim=2)),
        (tensor([n, 4]), tensor([n, 4], INT64), tensor([n, 4], VOID)),
        (tensor([n, 4]), tensor([n]), tensor(None, F32)),
        (tensor([n]), ShapeType([n]), ObjectType()),
        (ShapeType([n]), ShapeType([m]), ShapeType(ndim=1)),
        (ShapeType([n]), ShapeType([n, m]), ShapeType()),
        (PrimType(INT64, n), PrimType(INT64, n), PrimType(INT64, n)),
        (PrimType(INT64, n), PrimType(INT64, m), PrimType(INT64)),
        (PrimType(INT64), PrimType(BOOL), ObjectType()),
        (
            TupleType([tensor([n]), PrimType(INT64)]),
            TupleType([tensor([m]), PrimType(INT64)]),
            TupleType([tensor(None, F32, ndim=1), PrimType(INT64)]),
        ),
        (TupleType([]), TupleType([ObjectType()]), ObjectType()),
        (
            FuncType([tensor([n])], tensor([n])),
            FuncType([tensor([n])], tensor([n]), pure=False),
            FuncType([tensor([n])], tensor([n]), pure=False),
        ),
    ],
)
def test_join(lhs: StructInfoType, rhs: StructInfoType, expected: StructInfoType) -> None:
    assert join(lhs, rhs) == expected
    assert join(rhs, lhs) == expected or expected == ObjectType()
    assert is_base_of(join(lhs, rhs), lhs) and is_base_of(join(lhs, rhs), rhs)


# --- symbolic variables ------------------------------------------------------------


def test_erase_substitute_and_vars() -> None:
    sinfo = TupleType(
        [tensor([n, m]), PrimType(INT64, n * 2), FuncType([tensor([m])], tensor([m]))]
    )
    assert used_vars(sinfo) == {"n", "m"}
    assert definable_vars([sinfo]) == {"n", "m"}
    erased = erase_vars(sinfo, lambda name: name == "n")
    assert erased == TupleType(
        [tensor(None, F32, ndim=2), PrimType(INT64, n * 2), FuncType([tensor([m])], tensor([m]))]
    )
    assert substitute_vars(tensor([n * 2]), {"n": IntImm(3)}) == tensor([6])
    assert static_type(sinfo) == TupleType(
        [
            tensor(None, F32, ndim=2),
            PrimType(INT64),
            FuncType([tensor(None, F32, ndim=1)], tensor(None, F32, ndim=1)),
        ]
    )


def test_call_derivation() -> None:
    callee = FuncType([tensor([n, m]), ShapeType([m])], tensor([m, n * 2]))
    result = derive_call_ret(callee, [tensor([3, Var("k")]), ShapeType([Var("k")])], ObjectType())
    assert result == tensor([Var("k"), 6])
    unknown = derive_call_ret(callee, [tensor(None, F32, ndim=2), ShapeType(ndim=1)], ObjectType())
    assert unknown == tensor(None, F32, ndim=2)
    with pytest.raises(CallMismatch, match="argument 0"):
        derive_call_ret(callee, [tensor([3]), ShapeType([3])], ObjectType())
    with pytest.raises(CallMismatch, match="expects 2 arguments"):
        derive_call_ret(callee, [tensor([3, 3])], ObjectType())
    packed = FuncType(None, ObjectType(), pure=False, derive_func="default_derive")
    assert derive_call_ret(packed, [], tensor([n])) == tensor([n])
    empty = FuncType(None, ObjectType(), pure=False, derive_func="empty_derive")
    assert derive_call_ret(empty, [], tensor([n])) == ObjectType()


# --- properties -----------------------------------------------------------------------

dims = st.one_of(st.integers(0, 4).map(IntImm), st.sampled_from([n, m, n * 2, m + 1]))
dtypes = st.sampled_from([F32, INT64, VOID, BOOL])


def struct_infos() -> st.SearchStrategy[StructInfoType]:
    leaves = st.one_of(
        st.just(ObjectType()),
        st.builds(lambda d: PrimType(d), st.sampled_from([F32, INT64, BOOL])),
        st.builds(lambda s: ShapeType(s), st.lists(dims, max_size=3)),
        st.builds(lambda r: ShapeType(ndim=r), st.integers(-1, 3)),
        st.builds(lambda s, d: TensorType(s, d), st.lists(dims, max_size=3), dtypes),
        st.builds(lambda r, d: TensorType(None, d, r), st.integers(-1, 3), dtypes),
    )
    return st.recursive(
        leaves,
        lambda children: st.builds(TupleType, st.lists(children, max_size=3)),
        max_leaves=6,
    )


@settings(max_examples=300, deadline=None)
@given(struct_infos(), struct_infos())
def test_join_is_an_upper_bound(lhs: StructInfoType, rhs: StructInfoType) -> None:
    joined = join(lhs, rhs)
    assert is_base_of(joined, lhs)
    assert is_base_of(joined, rhs)


@settings(max_examples=300, deadline=None)
@given(struct_infos())
def test_reflexive_and_object_on_top(sinfo: StructInfoType) -> None:
    assert is_base_of(sinfo, sinfo)
    assert is_base_of(ObjectType(), sinfo)
    assert is_base_of(static_type(sinfo), sinfo)
    assert parse(str(sinfo)) == sinfo
