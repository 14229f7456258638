"""Shape and data-type inference shared by operator families (TVM's ``op_common``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from xdsl.utils.exceptions import VerifyException

from ..dtype import VOID, DataType
from ..prim_expr import IntImm, PrimExpr, to_text
from ..prim_expr_simplify import prove_equal
from ..types import UNKNOWN_NDIM, PrimType, ShapeType, StructInfoType, TensorType, struct_info_text

SInfo = TypeVar("SInfo", bound=StructInfoType)


def broadcast_dims(
    op_name: str, lhs: Sequence[PrimExpr], rhs: Sequence[PrimExpr]
) -> tuple[PrimExpr, ...] | None:
    """NumPy broadcasting of symbolic shapes; None when it cannot be decided
    statically (e.g. ``3`` against ``n``), an error when it provably fails."""
    out: list[PrimExpr] = []
    for i in range(1, min(len(lhs), len(rhs)) + 1):
        left, right = lhs[-i], rhs[-i]
        if left == IntImm(1):
            out.append(right)
        elif right == IntImm(1) or prove_equal(left, right):
            out.append(left)
        elif isinstance(left, IntImm) and isinstance(right, IntImm):
            raise VerifyException(
                f"{op_name}: dimensions {left} (axis {len(lhs) - i} of the first operand) and "
                f"{right} (axis {len(rhs) - i} of the second) cannot be broadcast together"
            )
        else:
            return None
    longer = lhs if len(lhs) > len(rhs) else rhs
    out.extend(reversed(longer[: len(longer) - len(out)]))
    return tuple(reversed(out))


def element_dtype(op_name: str, sinfo: StructInfoType, which: str) -> DataType:
    if isinstance(sinfo, TensorType | PrimType):
        return sinfo.data_type
    raise VerifyException(
        f"{op_name}: the {which} operand has type {struct_info_text(sinfo)}, "
        "expected a tensor or prim value"
    )


def binary_arith_dtype(op_name: str, lhs: StructInfoType, rhs: StructInfoType) -> DataType:
    """Both operands share a data type (``bool`` mixes with any); ``void`` wins."""
    left = element_dtype(op_name, lhs, "first")
    right = element_dtype(op_name, rhs, "second")
    if left.is_void or right.is_void:
        return VOID
    if left != right and not left.is_bool and not right.is_bool:
        raise VerifyException(f"{op_name}: operands have different data types {left} and {right}")
    return left


def tensor_operand(op_name: str, sinfo: StructInfoType, which: str) -> TensorType:
    """An operand that must be a tensor (``which``: e.g. "first", "data")."""
    return _operand_of_kind(op_name, sinfo, TensorType, which, "a tensor")


def prim_operand(op_name: str, sinfo: StructInfoType, which: str) -> PrimType:
    """An operand that must be a prim value."""
    return _operand_of_kind(op_name, sinfo, PrimType, which, "a prim value")


def shape_operand(op_name: str, sinfo: StructInfoType, which: str) -> ShapeType:
    """An operand that must be a shape."""
    return _operand_of_kind(op_name, sinfo, ShapeType, which, "a shape")


def known_prim(op_name: str, sinfo: StructInfoType, which: str) -> tuple[PrimExpr, DataType]:
    """A prim value operand whose value its type knows: the value and data type."""
    prim = prim_operand(op_name, sinfo, which)
    if prim.known_value is None:
        raise VerifyException(
            f"{op_name}: the {which} operand has type {struct_info_text(prim)}, "
            "expected a prim value with a known value"
        )
    return prim.known_value, prim.data_type


def _operand_of_kind(
    op_name: str, sinfo: StructInfoType, kind: type[SInfo], which: str, expected: str
) -> SInfo:
    if not isinstance(sinfo, kind):
        raise VerifyException(
            f"{op_name}: the {which} operand has type {struct_info_text(sinfo)}, "
            f"expected {expected}"
        )
    return sinfo


def require_float(op_name: str, sinfo: TensorType, which: str) -> None:
    """Reject a known data type that is not a float one (``void`` passes)."""
    dtype = sinfo.data_type
    if not dtype.is_void and not dtype.is_float:
        raise VerifyException(
            f"{op_name}: the {which} has data type {dtype}, expected a float data type"
        )


def check_choice(op_name: str, name: str, value: str, choices: Sequence[str]) -> None:
    """A string attribute that must be one of ``choices``."""
    if value not in choices:
        listed = ", ".join(f"'{choice}'" for choice in choices)
        raise VerifyException(f"{op_name}: {name} '{value}' is not one of {listed}")


def dims_text(dims: Sequence[PrimExpr]) -> str:
    """A shape as written in types: ``[n, 4]``."""
    return "[" + ", ".join(to_text(d) for d in dims) + "]"


def normalize_axis(op_name: str, axis: int, ndim: int) -> int:
    """A possibly negative axis as an index in ``[0, ndim)``."""
    if not -ndim <= axis < ndim:
        raise VerifyException(
            f"{op_name}: axis {axis} is out of range for a tensor of {ndim} dimensions "
            f"(expected [{-ndim}, {ndim}))"
        )
    return axis + ndim if axis < 0 else axis


def normalize_axes(op_name: str, axes: Sequence[int], ndim: int) -> list[int]:
    """Possibly negative, distinct axes as indices in ``[0, ndim)``."""
    normalized = [normalize_axis(op_name, axis, ndim) for axis in axes]
    if len(set(normalized)) != len(normalized):
        raise VerifyException(f"{op_name}: axes {list(axes)} repeat an axis")
    return normalized


def reduced_type(
    op_name: str, data: TensorType, axes: Sequence[int] | None, keepdims: bool, dtype: DataType
) -> TensorType:
    """The result of reducing ``data`` over ``axes`` (all when None), the reduced
    axes dropped or kept as 1 (TVM's ``InferStructInfoStatistical``): without a
    known shape only the rank, without a known rank only a full reduction's ``[]``."""
    if data.rank == UNKNOWN_NDIM:
        if axes is None and not keepdims:
            return TensorType([], dtype)
        return TensorType(dtype=dtype, ndim=UNKNOWN_NDIM)
    reduced = range(data.rank) if axes is None else normalize_axes(op_name, axes, data.rank)
    if data.dims is None:
        if axes is None and keepdims:
            return TensorType([1] * data.rank, dtype)
        ndim = data.rank if keepdims else data.rank - len(reduced)
        return TensorType([], dtype) if ndim == 0 else TensorType(dtype=dtype, ndim=ndim)
    dims = [
        IntImm(1) if i in reduced else dim
        for i, dim in enumerate(data.dims)
        if keepdims or i not in reduced
    ]
    return TensorType(dims, dtype)
