"""Shape and data-type inference shared by operator families (TVM's ``op_common``)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.utils.exceptions import VerifyException

from ..dtype import VOID, DataType
from ..prim_expr import IntImm, PrimExpr
from ..prim_expr_simplify import prove_equal
from ..types import PrimType, StructInfoType, TensorType, struct_info_text


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
    if not isinstance(sinfo, TensorType):
        raise VerifyException(
            f"{op_name}: the {which} operand has type {struct_info_text(sinfo)}, expected a tensor"
        )
    return sinfo


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
