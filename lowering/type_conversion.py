"""StructInfo → builtin types: what a Relax value becomes after lowering.

=================================  ==========================================
Relax type                         lowered values (flattened, depth-first)
=================================  ==========================================
``!relax.tensor<[n, 4], f32>``     one ``tensor<?x4xf32>`` (a static size
                                   stays static, any other dimension is ``?``)
``!relax.shape<[n, 4]>``           one ``index`` per dimension
``!relax.prim<i64>``               one scalar of the element type (``i64``)
``!relax.tuple<a, b>``             the values of ``a``, then those of ``b``
=================================  ==========================================

Element types are signless (``ui8`` and ``i8`` are both ``i8``; ``bool`` is
``i1``): unsigned-ness only chooses the ``arith`` operation. Objects,
functions, tensors of unknown rank or data type and shapes of unknown rank have
no lowered form (``Unconvertible``).
"""

from __future__ import annotations

from functools import cache

from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, TensorType
from xdsl.ir import Attribute

from relax_dialect.builtin_types import element_type as builtin_element_type
from relax_dialect.dtype import DataType
from relax_dialect.prim_expr import IntImm, PrimExpr
from relax_dialect.types import (
    PrimType,
    ShapeType,
    StructInfoType,
    TupleType,
    struct_info_text,
)
from relax_dialect.types import (
    TensorType as RelaxTensor,
)


class Unconvertible(Exception):
    """A Relax type without a lowered form; the message says why."""


@cache
def element_type(dtype: DataType) -> Attribute:
    """The builtin element type of ``dtype`` (signless integers, ``i1`` for bool)."""
    if dtype.is_void:
        raise Unconvertible("the data type is unknown (void)")
    try:
        return builtin_element_type(dtype)
    except ValueError as error:
        raise Unconvertible(str(error)) from None


def static_size(dim: PrimExpr) -> int:
    """The builtin size of a dimension: its value when constant, else dynamic."""
    return dim.value if isinstance(dim, IntImm) else DYNAMIC_INDEX


@cache
def tensor_type(sinfo: RelaxTensor) -> TensorType[Attribute]:
    """``tensor<...>`` of a Relax tensor type of known rank and data type."""
    if sinfo.rank < 0:
        raise Unconvertible(f"{struct_info_text(sinfo)} has an unknown rank")
    dims = sinfo.dims
    shape = [DYNAMIC_INDEX] * sinfo.rank if dims is None else [static_size(d) for d in dims]
    return TensorType(element_type(sinfo.data_type), shape)


@cache
def flat_types(sinfo: StructInfoType) -> tuple[Attribute, ...]:
    """The builtin types of a Relax value's lowered values, depth-first."""
    if isinstance(sinfo, RelaxTensor):
        return (tensor_type(sinfo),)
    if isinstance(sinfo, PrimType):
        return (element_type(sinfo.data_type),)
    if isinstance(sinfo, ShapeType):
        if sinfo.rank < 0:
            raise Unconvertible(f"{struct_info_text(sinfo)} has an unknown rank")
        return (IndexType(),) * sinfo.rank
    if isinstance(sinfo, TupleType):
        return tuple(t for field in sinfo.types for t in flat_types(field))
    raise Unconvertible(f"a value of type {struct_info_text(sinfo)} has no lowered form")


def field_offsets(sinfo: TupleType) -> list[int]:
    """Where each field's values start among the tuple's lowered values (and the end)."""
    offsets = [0]
    for field in sinfo.types:
        offsets.append(offsets[-1] + len(flat_types(field)))
    return offsets


def is_unsigned(dtype: DataType) -> bool:
    """Whether integer operations on ``dtype`` use the unsigned ``arith`` variants
    (``bool`` counts as unsigned: it is 0 or 1)."""
    return dtype.code == "uint"
