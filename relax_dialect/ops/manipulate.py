"""Shape manipulation operators (TVM's ``tensor/manipulate.cc``).

Reshaping (``reshape``, ``flatten``, ``expand_dims``, ``squeeze``), reordering
(``permute_dims``, ``flip``), joining and splitting (``concat``, ``stack``,
``split``, ``meshgrid``), replication (``broadcast_to``, ``tile``, ``repeat``)
and its adjoint (``collapse_sum_like``, ``collapse_sum_to``), and element
gathers and scatters (``gather_elements``, ``gather_nd``, ``scatter_elements``,
``scatter_nd``, ``index_tensor``, ``index_put``, ``slice_scatter``,
``one_hot``), and ``layout_transform`` by an index map. A target shape is a
shape operand (a ``relax.shape`` value or a shape-typed variable); a tuple of
tensors is one tuple operand.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import reduce
from itertools import pairwise
from operator import mul
from typing import ClassVar

from xdsl.dialects.builtin import (
    AffineMapAttr,
    BoolAttr,
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    i64,
)
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from ..dtype import INT64, VOID, DataType
from ..prim_expr import IntImm, PrimExpr, call, float_text, to_text
from ..prim_expr_simplify import prove_equal, prove_not_equal, simplify
from ..types import (
    UNKNOWN_NDIM,
    PrimType,
    StructInfoType,
    TensorType,
    TupleType,
    struct_info_text,
)
from .base import relax_type
from .fusion import FusionKind, OpPattern
from .index_map import check_index_map, map_shape
from .inference import check_choice, dims_text, normalize_axes, normalize_axis
from .operator import OperatorOp, attribute_of
from .placement import Placement

Dims = Sequence[PrimExpr]

SCATTER_ELEMENTS_REDUCTIONS = ("update", "add", "mul", "mean", "min", "max")
SCATTER_ND_REDUCTIONS = ("update", "add", "mul", "min", "max")
MESHGRID_INDEXINGS = ("ij", "xy")


def _int(value: int) -> IntegerAttr:
    return IntegerAttr(value, i64)


class ManipulateOp(OperatorOp):
    """An operator of this family: pure, with one result."""

    PLACEMENT: ClassVar[Placement] = Placement.DATA

    result = result_def()
    traits = traits_def(Pure())

    def tensors_of(self, value: SSAValue, which: str = "tensors") -> list[TensorType]:
        """The fields of a tuple-of-tensors operand (at least one)."""
        sinfo = relax_type(self.name, value)
        fields = sinfo.types if isinstance(sinfo, TupleType) else None
        if fields is None or not all(isinstance(f, TensorType) for f in fields):
            raise VerifyException(
                f"{self.name}: the {which} operand has type {struct_info_text(sinfo)}, "
                "expected a tuple of tensors"
            )
        if not fields:
            raise VerifyException(f"{self.name}: the tuple of {which} is empty")
        return list(fields)  # pyright: ignore[reportReturnType]


# --- shared inference ---------------------------------------------------------------


def product(dims: Dims) -> PrimExpr:
    """The element count of a shape, simplified."""
    return simplify(reduce(mul, dims, IntImm(1)))


def quotient(dividend: Dims, divisor: Dims) -> PrimExpr:
    """``product(dividend) floordiv product(divisor)``, simplified after
    cancelling the factors the two have in common (``[n, 4] / [n, 2]`` is 2)."""
    remaining = list(dividend)
    kept = []
    for factor in divisor:
        same = next((i for i, d in enumerate(remaining) if prove_equal(d, factor)), None)
        if same is None:
            kept.append(factor)
        else:
            del remaining[same]
    return simplify(product(remaining) // product(kept))


def _known(rank: int) -> bool:
    return rank != UNKNOWN_NDIM


def _tensor(dims: Dims | None, dtype: DataType, ndim: int) -> TensorType:
    """A tensor of the given dimensions, or of rank ``ndim`` when they are unknown."""
    return TensorType(dtype=dtype, ndim=ndim) if dims is None else TensorType(dims, dtype)


def _is_constant_except_one(dim: PrimExpr) -> bool:
    return isinstance(dim, IntImm) and dim.value != 1


def _common_dtype(op_name: str, tensors: Sequence[TensorType]) -> DataType:
    """The data type the tensors share (``void`` ones are ignored)."""
    known = [t.data_type for t in tensors if not t.data_type.is_void]
    for dtype in known[1:]:
        if dtype != known[0]:
            raise VerifyException(
                f"{op_name}: tensors have different data types {known[0]} and {dtype}"
            )
    return known[0] if known else VOID


def _joined_dtype(op_name: str, tensors: Sequence[TensorType]) -> DataType:
    """The shared data type, ``void`` when any tensor's is unknown (concat, stack)."""
    dtype = _common_dtype(op_name, tensors)
    return VOID if any(t.data_type.is_void for t in tensors) else dtype


def _common_rank(op_name: str, tensors: Sequence[TensorType]) -> int:
    """The rank the tensors share (unknown ranks are ignored)."""
    known = [t.rank for t in tensors if _known(t.rank)]
    for rank in known[1:]:
        if rank != known[0]:
            raise VerifyException(f"{op_name}: tensors have different ranks {known[0]} and {rank}")
    return known[0] if known else UNKNOWN_NDIM


def _dims_agree(op_name: str, shapes: Sequence[Dims], free_axis: int | None) -> bool:
    """Whether the shapes provably agree on every axis but ``free_axis``; a
    provable difference is an error, an undecidable one gives False."""
    agree = True
    for axis in range(len(shapes[0]) if shapes else 0):
        if axis == free_axis:
            continue
        for shape in shapes[1:]:
            first, other = shapes[0][axis], shape[axis]
            if prove_not_equal(first, other):
                rule = (
                    "tensors must have the same shape"
                    if free_axis is None
                    else f"only axis {free_axis} may differ"
                )
                raise VerifyException(
                    f"{op_name}: tensors differ in dimension {axis} ({to_text(first)} and "
                    f"{to_text(other)}); {rule}"
                )
            agree = agree and prove_equal(first, other)
    return agree


def _check_collapse(op_name: str, data: TensorType, target_dims: Dims | None, rank: int) -> None:
    """``data`` must be a broadcast of the target: aligned from the right, each
    target dimension equals the data's or is 1 (provably, as TVM requires)."""
    if _known(data.rank) and _known(rank) and rank > data.rank:
        raise VerifyException(
            f"{op_name}: the target has {rank} dimensions, more than the data's {data.rank}"
        )
    if data.dims is None or target_dims is None:
        return
    for offset in range(1, len(target_dims) + 1):
        have, want = data.dims[-offset], target_dims[-offset]
        if want == IntImm(1) or prove_equal(have, want):
            continue
        where = f"dimension {to_text(have)} (axis {data.rank - offset}) of the data"
        if isinstance(have, IntImm) and isinstance(want, IntImm):
            raise VerifyException(f"{op_name}: {where} cannot be collapsed to {want}")
        raise VerifyException(
            f"{op_name}: {where} is not provably equal to the target's {to_text(want)}, "
            "which is not 1; use relax.match_cast to make the shapes agree"
        )


def _check_index_dtype(
    op_name: str, indices: TensorType, accepts: Callable[[DataType], bool], expected: str
) -> None:
    dtype = indices.data_type
    if not dtype.is_void and not accepts(dtype):
        raise VerifyException(f"{op_name}: indices have data type {dtype}, expected {expected}")


def _is_signed(dtype: DataType) -> bool:
    return dtype.code == "int"


def _is_integer(dtype: DataType) -> bool:
    return dtype.code in ("int", "uint")


# --- reshaping ----------------------------------------------------------------------


@irdl_op_definition
class ReshapeOp(ManipulateOp):
    """``x`` with its elements in row-major order laid out in the dimensions of ``shape``.

    Constant target dimensions ``-1`` (at most one: the length that keeps the
    element count) and ``0`` (the length of ``x`` at that position) are
    resolved from the shape of ``x``, which must then be known, as TVM does
    when it builds the call.

    Inference: the target's dimensions (its rank when they are unknown) with
    the data type of ``x``; element counts provably different are an error
    (``[n, 4]`` to ``[n, 2, 2]`` holds, to ``[3, 5]`` is an error, to ``[n, 3]`` is
    left to run time).
    """

    name = "relax.reshape"
    FUSION: ClassVar[FusionKind] = OpPattern.INJECTIVE
    x = operand_def()
    shape = operand_def()

    def placeholders(self) -> tuple[tuple[int, ...], int | None]:
        """Positions of the constant target dimensions ``0`` and ``-1``."""
        dims = self.shape_of(self.shape, "shape").dims or ()
        zeros = tuple(i for i, d in enumerate(dims) if d == IntImm(0))
        inferred = [i for i, d in enumerate(dims) if d == IntImm(-1)]
        negative = [d for d in dims if isinstance(d, IntImm) and d.value < -1]
        if negative or len(inferred) > 1:
            raise VerifyException(
                f"{self.name}: target shape {dims_text(dims)} may hold positive lengths, "
                "0 (copy) and a single -1 (inferred)"
            )
        return zeros, inferred[0] if inferred else None

    def infer_type(self) -> StructInfoType:
        data = self.tensor_of(self.x, "x")
        target = self.shape_of(self.shape, "shape")
        dims = target.dims
        zeros, inferred = self.placeholders()
        if dims is not None and (zeros or inferred is not None):
            dims = self._resolve(data, list(dims), zeros, inferred)
        if dims is not None and data.dims is not None:
            before, after = product(data.dims), product(dims)
            if prove_not_equal(before, after):
                raise VerifyException(
                    f"{self.name}: cannot reshape {dims_text(data.dims)} ({to_text(before)} "
                    f"elements) to {dims_text(dims)} ({to_text(after)} elements)"
                )
        return _tensor(dims, data.data_type, target.rank)

    def _resolve(
        self, data: TensorType, dims: list[PrimExpr], zeros: tuple[int, ...], inferred: int | None
    ) -> list[PrimExpr]:
        if data.dims is None:
            raise VerifyException(
                f"{self.name}: a target shape with 0 or -1 needs the shape of x to be known"
            )
        for i in zeros:
            if i >= data.rank:
                raise VerifyException(
                    f"{self.name}: target dimension {i} is 0 (the length of x there) but x "
                    f"has rank {data.rank}"
                )
            dims[i] = data.dims[i]
        if inferred is not None:
            known = [d for d in dims if not (isinstance(d, IntImm) and d.value <= 0)]
            dims[inferred] = quotient(data.dims, known)
        return dims


@irdl_op_definition
class FlattenOp(ManipulateOp):
    """``x`` as a 1-D tensor of its elements in row-major order (a scalar gives ``[1]``).

    Inference: ``[product of the dimensions]``; rank 1 only when the shape is
    unknown.
    """

    name = "relax.flatten"
    FUSION: ClassVar[FusionKind] = OpPattern.INJECTIVE
    x = operand_def()

    def infer_type(self) -> StructInfoType:
        data = self.tensor_of(self.x, "x")
        if data.rank == 1:
            return data
        dims = None if data.dims is None else [product(data.dims)]
        return _tensor(dims, data.data_type, 1)


@irdl_op_definition
class ExpandDimsOp(ManipulateOp):
    """``x`` with new axes of length 1 at the positions ``axis`` of the result.

    Inference: the rank grows by ``len(axis)``; axes are taken in
    ``[-ndim - 1, ndim]`` of the input (positions in the result), distinct;
    ``axis = []`` leaves ``x`` as is.
    """

    name = "relax.expand_dims"
    FUSION: ClassVar[FusionKind] = OpPattern.BROADCAST
    x = operand_def()
    axis = prop_def(DenseArrayBase)

    def infer_type(self) -> StructInfoType:
        data = self.tensor_of(self.x, "x")
        axis = self.int_list("axis")
        if not axis:
            return data
        if not _known(data.rank):
            return TensorType(dtype=data.data_type, ndim=UNKNOWN_NDIM)
        ndim = data.rank + len(axis)
        new = set(normalize_axes(self.name, axis, ndim))
        if data.dims is None:
            return TensorType(dtype=data.data_type, ndim=ndim)
        kept = iter(data.dims)
        return TensorType(
            [IntImm(1) if i in new else next(kept) for i in range(ndim)], data.data_type
        )


@irdl_op_definition
class SqueezeOp(ManipulateOp):
    """``x`` without the listed axes of length 1 (every length-1 axis when ``axis`` is unset).

    A listed axis whose length is a constant other than 1 stays (a no-op, as in
    TVM and PyTorch); a symbolic one is removed (it must be 1 at run time).

    Inference: without ``axis``, a symbolic dimension makes the rank unknown;
    without a known shape only the rank is kept (``axis`` given) or nothing;
    ``axis = []`` leaves ``x`` as is.
    """

    name = "relax.squeeze"
    FUSION: ClassVar[FusionKind] = OpPattern.BROADCAST
    x = operand_def()
    axis = opt_prop_def(DenseArrayBase)

    def squeezed_axes(self) -> tuple[int, ...] | None:
        """The axes removed as the type of ``x`` determines them; None when run
        time decides (``axis`` as given, or every axis of length 1)."""
        data = self.tensor_of(self.x, "x")
        axis = self.int_list("axis")
        if not _known(data.rank):
            return None
        if axis is None:
            dims = data.dims
            return None if dims is None else tuple(i for i, d in enumerate(dims) if d == IntImm(1))
        axes = normalize_axes(self.name, axis, data.rank)
        if data.dims is None:
            return tuple(axes)
        return tuple(a for a in axes if not _is_constant_except_one(data.dims[a]))

    def infer_type(self) -> StructInfoType:
        data = self.tensor_of(self.x, "x")
        axis = self.attr("axis")
        if axis == ():
            return data
        removed = self.squeezed_axes()
        unknown_rank = TensorType(dtype=data.data_type, ndim=UNKNOWN_NDIM)
        if removed is None:
            return unknown_rank
        if data.dims is None:
            return TensorType(dtype=data.data_type, ndim=data.rank - len(removed))
        if axis is None and not all(isinstance(d, IntImm) for d in data.dims):
            return unknown_rank
        return TensorType([d for i, d in enumerate(data.dims) if i not in removed], data.data_type)


# --- reordering -----------------------------------------------------------------------


@irdl_op_definition
class PermuteDimsOp(ManipulateOp):
    """``x`` with its axes reordered: result axis ``i`` is input axis ``axes[i]``
    (reversed when ``axes`` is unset).

    Inference: ``axes`` must be a permutation of the input's axes (negative
    values count from the end); the identity permutation leaves ``x`` as is;
    an unknown rank becomes ``len(axes)``.
    """

    name = "relax.permute_dims"
    FUSION: ClassVar[FusionKind] = OpPattern.INJECTIVE
    x = operand_def()
    axes = opt_prop_def(DenseArrayBase)

    def infer_type(self) -> StructInfoType:
        data = self.tensor_of(self.x, "x")
        axes = self.int_list("axes")
        if axes is None:
            if not _known(data.rank):
                return data
            order = list(reversed(range(data.rank)))
        else:
            if _known(data.rank) and len(axes) != data.rank:
                raise VerifyException(
                    f"{self.name}: {len(axes)} axes given for a tensor of {data.rank} dimensions"
                )
            order = normalize_axes(self.name, axes, len(axes))
            if not _known(data.rank):
                return TensorType(dtype=data.data_type, ndim=len(axes))
        if order == sorted(order):
            return data
        dims = None if data.dims is None else [data.dims[a] for a in order]
        return _tensor(dims, data.data_type, data.rank)


@irdl_op_definition
class FlipOp(ManipulateOp):
    """``data`` with the order of its elements reversed along ``axis``.

    Inference: the type of ``data``; ``axis`` must be in range when the rank is
    known.
    """

    name = "relax.flip"
    FUSION: ClassVar[FusionKind] = OpPattern.INJECTIVE
    data = operand_def()
    axis = prop_def(IntegerAttr)

    def infer_type(self) -> StructInfoType:
        data = self.tensor_of(self.data, "data")
        if _known(data.rank):
            normalize_axis(self.name, self.attr("axis"), data.rank)
        return data


# --- joining and splitting ----------------------------------------------------------------


@irdl_op_definition
class ConcatOp(ManipulateOp):
    """The tensors of a tuple joined along the existing axis ``axis``.

    TVM's ``axis = None`` (joining flattened 1-D tensors) is ``axis = 0`` here,
    the same computation.

    Inference: the tensors share rank and data type (``void`` makes the result
    ``void``); the other dimensions must agree (a provable difference is an
    error, an undecidable one keeps only the rank); the joined length is the
    sum. A single tensor is returned as is.
    """

    name = "relax.concat"
    FUSION: ClassVar[FusionKind] = OpPattern.INJECTIVE
    PLACEMENT: ClassVar[Placement] = Placement.COMMON
    tensors = operand_def()
    axis = opt_prop_def(IntegerAttr, default_value=_int(0))

    def infer_type(self) -> StructInfoType:
        tensors = self.tensors_of(self.tensors)
        dtype = _joined_dtype(self.name, tensors)
        rank = _common_rank(self.name, tensors)
        if not _known(rank):
            return tensors[0] if len(tensors) == 1 else TensorType(dtype=dtype, ndim=rank)
        axis = normalize_axis(self.name, self.attr("axis"), rank)
        if len(tensors) == 1:
            return tensors[0]
        shapes = [t.dims for t in tensors if t.dims is not None]
        if not _dims_agree(self.name, shapes, axis) or len(shapes) < len(tensors):
            return TensorType(dtype=dtype, ndim=rank)
        dims = list(shapes[0])
        dims[axis] = simplify(sum((s[axis] for s in shapes), IntImm(0)))
        return TensorType(dims, dtype)


@irdl_op_definition
class StackOp(ManipulateOp):
    """The tensors of a tuple joined along a new axis ``axis`` of the result.

    Inference: the tensors share shape and data type (``void`` makes the result
    ``void``); the new axis has the tensor count as length; an undecidable
    shape keeps only the rank.
    """

    name = "relax.stack"
    FUSION: ClassVar[FusionKind] = OpPattern.BROADCAST
    PLACEMENT: ClassVar[Placement] = Placement.COMMON
    tensors = operand_def()
    axis = opt_prop_def(IntegerAttr, default_value=_int(0))

    def infer_type(self) -> StructInfoType:
        tensors = self.tensors_of(self.tensors)
        dtype = _joined_dtype(self.name, tensors)
        rank = _common_rank(self.name, tensors)
        if not _known(rank):
            return TensorType(dtype=dtype, ndim=UNKNOWN_NDIM)
        axis = normalize_axis(self.name, self.attr("axis"), rank + 1)
        shapes = [t.dims for t in tensors if t.dims is not None]
        if not _dims_agree(self.name, shapes, None) or len(shapes) < len(tensors):
            return TensorType(dtype=dtype, ndim=rank + 1)
        dims = list(shapes[0])
        return TensorType([*dims[:axis], IntImm(len(tensors)), *dims[axis:]], dtype)


@irdl_op_definition
class SplitOp(ManipulateOp):
    """A tuple of the pieces of ``x`` along ``axis``: ``indices_or_sections`` is
    a count of equal sections (the last one shorter) or a list of split indices.

    Indices are clamped to ``[0, length]`` and a piece between decreasing
    indices is empty.

    Inference: ``n`` sections have length ``ceildiv(length, n)``, the last the
    remainder (a provably negative remainder is an error); with indices, piece
    ``i`` has length ``max(min(end, length) - min(start, length), 0)``. One
    section (or no index) gives ``x`` itself, not a tuple.
    """

    name = "relax.split"
    FUSION: ClassVar[FusionKind] = OpPattern.INJECTIVE
    x = operand_def()
    indices_or_sections = prop_def(IntegerAttr | DenseArrayBase)
    axis = opt_prop_def(IntegerAttr, default_value=_int(0))

    def infer_type(self) -> StructInfoType:
        data = self.tensor_of(self.x, "x")
        spec: int | tuple[int, ...] = self.attr("indices_or_sections")
        if isinstance(spec, tuple):
            spec = self.int_list("indices_or_sections") or ()
        axis = normalize_axis(self.name, self.attr("axis"), data.rank) if _known(data.rank) else 0
        if isinstance(spec, int) and spec <= 0:
            raise VerifyException(
                f"{self.name}: the number of sections must be positive, got {spec}"
            )
        count = spec if isinstance(spec, int) else len(spec) + 1
        if count == 1:
            return data
        if data.dims is None:
            return TupleType([TensorType(dtype=data.data_type, ndim=data.rank)] * count)
        length = data.dims[axis]
        pieces = (
            self._sections(length, spec) if isinstance(spec, int) else self._pieces(length, spec)
        )
        return TupleType(
            [
                TensorType([*data.dims[:axis], piece, *data.dims[axis + 1 :]], data.data_type)
                for piece in pieces
            ]
        )

    def _sections(self, length: PrimExpr, count: int) -> list[PrimExpr]:
        size = simplify((length + (count - 1)) // count)
        last = simplify(length - size * (count - 1))
        if isinstance(last, IntImm) and last.value < 0:
            raise VerifyException(
                f"{self.name}: a dimension of length {to_text(length)} cannot be split into "
                f"{count} sections of {to_text(size)}"
            )
        return [size] * (count - 1) + [last]

    def _pieces(self, length: PrimExpr, indices: tuple[int, ...]) -> list[PrimExpr]:
        bounds = [call("min", call("max", i, 0), length) for i in (0, *indices)] + [length]
        return [simplify(call("max", end - start, 0)) for start, end in pairwise(bounds)]


@irdl_op_definition
class MeshgridOp(ManipulateOp):
    """Coordinate grids of the 1-D tensors of a tuple: result ``i`` repeats
    tensor ``i`` along axis ``i`` (``indexing = "ij"``) or, with ``"xy"``, with
    the first two axes swapped.

    Inference: a tuple of tensors of shape ``[len_0, len_1, ...]`` (the first
    two swapped for ``"xy"``) with the shared data type; only the rank when a
    length is unknown. Every input must be 1-D.
    """

    name = "relax.meshgrid"
    FUSION: ClassVar[FusionKind] = OpPattern.BROADCAST
    PLACEMENT: ClassVar[Placement] = Placement.COMMON
    tensors = operand_def()
    indexing = opt_prop_def(StringAttr, default_value=StringAttr("ij"))

    def infer_type(self) -> StructInfoType:
        tensors = self.tensors_of(self.tensors)
        indexing = self.attr("indexing")
        check_choice(self.name, "indexing", indexing, MESHGRID_INDEXINGS)
        for i, tensor in enumerate(tensors):
            if tensor.rank != 1:
                raise VerifyException(
                    f"{self.name}: tensor {i} has type {struct_info_text(tensor)}, expected 1-D"
                )
        dtype = _common_dtype(self.name, tensors)
        lengths = [t.dims[0] for t in tensors if t.dims is not None]
        if indexing == "xy" and len(lengths) >= 2:
            lengths[:2] = lengths[1::-1]
        known = len(lengths) == len(tensors)
        grid = _tensor(lengths if known else None, dtype, len(tensors))
        return TupleType([grid] * len(tensors))


# --- replication and its adjoint --------------------------------------------------------


@irdl_op_definition
class BroadcastToOp(ManipulateOp):
    """``x`` broadcast (NumPy rules) to the dimensions of ``shape``.

    Inference: the target's dimensions (its rank when they are unknown) with the
    data type of ``x``; the target has at least the rank of ``x`` and, aligned
    from the right, each dimension of ``x`` is 1 or not provably different.
    """

    name = "relax.broadcast_to"
    FUSION: ClassVar[FusionKind] = OpPattern.BROADCAST
    x = operand_def()
    shape = operand_def()

    def infer_type(self) -> StructInfoType:
        data = self.tensor_of(self.x, "x")
        target = self.shape_of(self.shape, "shape")
        if _known(data.rank) and _known(target.rank) and target.rank < data.rank:
            raise VerifyException(
                f"{self.name}: the target shape has {target.rank} dimensions, fewer than "
                f"the {data.rank} of x"
            )
        if data.dims is not None and target.dims is not None:
            for offset in range(1, data.rank + 1):
                have, want = data.dims[-offset], target.dims[-offset]
                if have != IntImm(1) and prove_not_equal(have, want):
                    raise VerifyException(
                        f"{self.name}: dimension {to_text(have)} (axis {data.rank - offset}) of "
                        f"x cannot be broadcast to {to_text(want)}"
                    )
        return _tensor(target.dims, data.data_type, target.rank)


@irdl_op_definition
class TileOp(ManipulateOp):
    """``data`` repeated ``repeats[i]`` times along each axis (NumPy ``tile``):
    the shorter of the rank and ``repeats`` is padded with leading 1s.

    Inference: rank ``max(ndim, len(repeats))``, each dimension multiplied by
    its repeat count; repeats must not be negative.
    """

    name = "relax.tile"
    FUSION: ClassVar[FusionKind] = OpPattern.INJECTIVE
    data = operand_def()
    repeats = prop_def(DenseArrayBase)

    def infer_type(self) -> StructInfoType:
        data = self.tensor_of(self.data, "data")
        repeats = self.int_list("repeats") or ()
        if any(r < 0 for r in repeats):
            raise VerifyException(f"{self.name}: repeats {list(repeats)} must not be negative")
        if data.dims is None:
            if not _known(data.rank) or len(repeats) > data.rank:
                return TensorType(dtype=data.data_type, ndim=max(data.rank, len(repeats)))
            if all(r == 1 for r in repeats):
                return data
            return TensorType(dtype=data.data_type, ndim=data.rank)
        ndim = max(data.rank, len(repeats))
        dims = [IntImm(1)] * (ndim - data.rank) + list(data.dims)
        counts = [1] * (ndim - len(repeats)) + list(repeats)
        return TensorType(
            [simplify(d * r) for d, r in zip(dims, counts, strict=True)], data.data_type
        )


@irdl_op_definition
class RepeatOp(ManipulateOp):
    """Each element of ``data`` repeated ``repeats`` times along ``axis`` (of
    the flattened tensor when ``axis`` is unset), NumPy ``repeat``.

    Inference: the dimension at ``axis`` (or the element count) multiplied by
    ``repeats``, which must not be negative.
    """

    name = "relax.repeat"
    FUSION: ClassVar[FusionKind] = OpPattern.INJECTIVE
    data = operand_def()
    repeats = prop_def(IntegerAttr)
    axis = opt_prop_def(IntegerAttr)

    def infer_type(self) -> StructInfoType:
        data = self.tensor_of(self.data, "data")
        repeats: int = self.attr("repeats")
        axis: int | None = self.attr("axis")
        if repeats < 0:
            raise VerifyException(f"{self.name}: repeats must not be negative, got {repeats}")
        if axis is not None and _known(data.rank):
            axis = normalize_axis(self.name, axis, data.rank)
        if data.dims is None:
            if axis is None:
                return TensorType(dtype=data.data_type, ndim=1)
            return data if repeats == 1 else TensorType(dtype=data.data_type, ndim=data.rank)
        if axis is None:
            return TensorType([simplify(product(data.dims) * repeats)], data.data_type)
        dims = list(data.dims)
        dims[axis] = simplify(dims[axis] * repeats)
        return TensorType(dims, data.data_type)


class CollapseSumOp(ManipulateOp):
    """A sum of ``data`` down to a target shape it was broadcast from."""

    FUSION: ClassVar[FusionKind] = OpPattern.COMM_REDUCE

    def collapse(self, value: SSAValue, dims: Dims | None, rank: int) -> TensorType:
        """The result of collapsing ``value`` to a target of these dimensions (or rank)."""
        data = self.tensor_of(value, "data")
        _check_collapse(self.name, data, dims, rank)
        return _tensor(dims, data.data_type, rank)


@irdl_op_definition
class CollapseSumLikeOp(CollapseSumOp):
    """``data`` summed down to the shape of ``collapse_target`` (the adjoint of
    broadcasting): leading axes are summed away and axes where the target has
    length 1 are summed with the length kept.

    Inference: the target's shape (its rank when unknown) with the data type of
    ``data``; aligned from the right each target dimension must provably equal
    the data's or be 1 (TVM asks for a ``match_cast`` otherwise), and the
    target has no more dimensions than the data.
    """

    name = "relax.collapse_sum_like"
    PLACEMENT: ClassVar[Placement] = Placement.OWN
    data = operand_def()
    collapse_target = operand_def()

    def infer_type(self) -> StructInfoType:
        """On the target's virtual device, as TVM places it."""
        target = self.tensor_of(self.collapse_target, "collapse_target")
        return self.collapse(self.data, target.dims, target.rank).on_device(target.device)


@irdl_op_definition
class CollapseSumToOp(CollapseSumOp):
    """``data`` summed down to the dimensions of ``shape`` (the adjoint of
    broadcasting), as ``relax.collapse_sum_like``.

    Inference: as ``relax.collapse_sum_like``, with the target shape value.
    """

    name = "relax.collapse_sum_to"
    data = operand_def()
    shape = operand_def()

    def infer_type(self) -> StructInfoType:
        target = self.shape_of(self.shape, "shape")
        return self.collapse(self.data, target.dims, target.rank)


# --- gathers and scatters --------------------------------------------------------------


@irdl_op_definition
class GatherElementsOp(ManipulateOp):
    """Elements of ``data`` picked along ``axis`` by ``indices`` (ONNX
    GatherElements): ``out[i][j] = data[indices[i][j]][j]`` for ``axis = 0``.

    Inference: the shape of ``indices`` with the data type of ``data``; both
    have the same rank, ``axis`` is in range and indices are signed integers.
    """

    name = "relax.gather_elements"
    FUSION: ClassVar[FusionKind] = OpPattern.OPAQUE
    data = operand_def()
    indices = operand_def()
    axis = opt_prop_def(IntegerAttr, default_value=_int(0))

    def infer_type(self) -> StructInfoType:
        data = self.tensor_of(self.data, "data")
        indices = self.tensor_of(self.indices, "indices")
        _check_index_dtype(self.name, indices, _is_signed, "a signed integer type")
        if not _known(data.rank) or not _known(indices.rank):
            return TensorType(dtype=data.data_type, ndim=UNKNOWN_NDIM)
        normalize_axis(self.name, self.attr("axis"), data.rank)
        if data.rank != indices.rank:
            raise VerifyException(
                f"{self.name}: data has {data.rank} dimensions and indices {indices.rank}; "
                "they must have the same rank"
            )
        return _tensor(indices.dims, data.data_type, indices.rank)


@irdl_op_definition
class GatherNDOp(ManipulateOp):
    """Slices of ``data`` addressed by the last axis of ``indices`` (ONNX
    GatherND): the first ``batch_dims`` axes are shared batch axes, and
    ``indices[..., :]`` gives the coordinates of the next ``indices.shape[-1]``
    axes of ``data``.

    Inference: ``indices.shape[:-1] + data.shape[batch_dims + k:]`` with
    ``k = indices.shape[-1]``, which must be a constant (else the rank is
    unknown) no larger than ``data.ndim - batch_dims``; indices are ``i64``.
    """

    name = "relax.gather_nd"
    FUSION: ClassVar[FusionKind] = OpPattern.OPAQUE
    data = operand_def()
    indices = operand_def()
    batch_dims = opt_prop_def(IntegerAttr, default_value=_int(0))

    def infer_type(self) -> StructInfoType:
        data = self.tensor_of(self.data, "data")
        indices = self.tensor_of(self.indices, "indices")
        batch_dims: int = self.attr("batch_dims")
        if batch_dims < 0:
            raise VerifyException(f"{self.name}: batch_dims must not be negative, got {batch_dims}")
        _check_index_dtype(self.name, indices, lambda d: d == INT64, str(INT64))
        dtype = data.data_type
        if not _known(data.rank) or not _known(indices.rank):
            return TensorType(dtype=dtype, ndim=UNKNOWN_NDIM)
        if batch_dims > data.rank or batch_dims > indices.rank - 1:
            raise VerifyException(
                f"{self.name}: batch_dims {batch_dims} exceeds the rank of data ({data.rank}) "
                f"or of indices minus one ({indices.rank - 1})"
            )
        depth = indices.dims[-1] if indices.dims is not None else None
        if not isinstance(depth, IntImm):
            return TensorType(dtype=dtype, ndim=UNKNOWN_NDIM)
        if depth.value > data.rank - batch_dims:
            raise VerifyException(
                f"{self.name}: indices address {depth.value} axes but data has "
                f"{data.rank - batch_dims} after {batch_dims} batch axes"
            )
        assert indices.dims is not None
        dims = (
            None
            if data.dims is None
            else [*indices.dims[:-1], *data.dims[batch_dims + depth.value :]]
        )
        return _tensor(dims, dtype, indices.rank - 1 + data.rank - batch_dims - depth.value)


class ScatterOp(ManipulateOp):
    """``data`` with elements written from ``updates`` at positions given by
    ``indices``, combined by ``reduction``."""

    FUSION: ClassVar[FusionKind] = OpPattern.OPAQUE

    REDUCTIONS: ClassVar[tuple[str, ...]]

    data = operand_def()
    indices = operand_def()
    updates = operand_def()
    reduction = opt_prop_def(StringAttr, default_value=StringAttr("update"))

    def checked_operands(self) -> tuple[TensorType, TensorType, TensorType]:
        """The three operands, checked: a known reduction and integer indices."""
        check_choice(self.name, "reduction", self.attr("reduction"), self.REDUCTIONS)
        data = self.tensor_of(self.data, "data")
        indices = self.tensor_of(self.indices, "indices")
        updates = self.tensor_of(self.updates, "updates")
        _check_index_dtype(self.name, indices, _is_integer, "an integer type")
        known = [t.data_type for t in (data, updates) if not t.data_type.is_void]
        if len(known) == 2 and known[0] != known[1]:
            raise VerifyException(
                f"{self.name}: data has data type {known[0]} and updates {known[1]}; "
                "they must agree"
            )
        return data, indices, updates


@irdl_op_definition
class ScatterElementsOp(ScatterOp):
    """``data`` with ``updates[i][j]`` combined into ``out[indices[i][j]][j]``
    for ``axis = 0`` (ONNX ScatterElements); ``reduction`` is ``update``,
    ``add``, ``mul``, ``mean`` (the average of old and new), ``min`` or
    ``max``, applied in index order; negative indices count from the end.

    Inference: the type of ``data``; ``indices`` and ``updates`` share its rank
    and must not have provably different shapes; ``axis`` is in range;
    ``mean`` needs floating-point data (TVM cannot build it for integers).
    """

    name = "relax.scatter_elements"
    REDUCTIONS: ClassVar[tuple[str, ...]] = SCATTER_ELEMENTS_REDUCTIONS
    axis = opt_prop_def(IntegerAttr, default_value=_int(0))

    def infer_type(self) -> StructInfoType:
        data, indices, updates = self.checked_operands()
        dtype = data.data_type
        if self.attr("reduction") == "mean" and not (dtype.is_void or dtype.is_float):
            raise VerifyException(
                f"{self.name}: reduction mean needs floating-point data, got {dtype}"
            )
        if not _known(data.rank):
            return TensorType(dtype=dtype, ndim=UNKNOWN_NDIM)
        normalize_axis(self.name, self.attr("axis"), data.rank)
        ranks = {data.rank, indices.rank, updates.rank}
        if UNKNOWN_NDIM not in ranks and len(ranks) > 1:
            raise VerifyException(
                f"{self.name}: data, indices and updates have ranks {data.rank}, "
                f"{indices.rank} and {updates.rank}; they must be equal"
            )
        if (
            indices.dims is not None
            and updates.dims is not None
            and any(map(prove_not_equal, indices.dims, updates.dims))
        ):
            raise VerifyException(
                f"{self.name}: indices {dims_text(indices.dims)} and updates "
                f"{dims_text(updates.dims)} must have the same shape"
            )
        return _tensor(data.dims, data.data_type, data.rank)


@irdl_op_definition
class ScatterNDOp(ScatterOp):
    """``data`` with slices of ``updates`` combined in at the coordinates given
    by the last axis of ``indices`` (ONNX ScatterND); ``reduction`` is
    ``update``, ``add``, ``mul``, ``min`` or ``max``, applied in index order.

    Inference: the type of ``data``; data types must be known and equal; with
    every shape known, ``k = indices.shape[-1]`` must be a constant at most
    ``data.ndim`` and ``updates.shape`` provably
    ``indices.shape[:-1] + data.shape[k:]``.
    """

    name = "relax.scatter_nd"
    REDUCTIONS: ClassVar[tuple[str, ...]] = SCATTER_ND_REDUCTIONS

    def infer_type(self) -> StructInfoType:
        data, indices, updates = self.checked_operands()
        if data.data_type.is_void or updates.data_type.is_void:
            raise VerifyException(f"{self.name}: data and updates need known data types")
        if data.dims is not None and indices.dims is not None and updates.dims is not None:
            self._check_shapes(data.dims, indices.dims, updates.dims)
        return _tensor(data.dims, data.data_type, data.rank)

    def _check_shapes(self, data: Dims, indices: Dims, updates: Dims) -> None:
        depth = indices[-1] if indices else None
        if not isinstance(depth, IntImm):
            raise VerifyException(
                f"{self.name}: the last dimension of indices {dims_text(indices)} must be "
                "a constant"
            )
        k = depth.value
        if k > len(data):
            raise VerifyException(f"{self.name}: indices address {k} axes but data has {len(data)}")
        expected = [*indices[:-1], *data[k:]]
        if len(expected) != len(updates) or not all(map(prove_equal, expected, updates)):
            raise VerifyException(
                f"{self.name}: updates have shape {dims_text(updates)}, expected "
                f"{dims_text(expected)} (indices.shape[:-1] + data.shape[{k}:])"
            )


@irdl_op_definition
class IndexTensorOp(ManipulateOp):
    """``data[i0, i1, ...]`` with a tuple of integer index tensors (NumPy's
    advanced indexing): the index tensors broadcast together to a shape ``B``,
    and the result is ``B + data.shape[k:]`` for ``k`` index tensors. Indices
    must lie in their axis (TVM reads outside the tensor otherwise).

    Inference (TVM's): at most ``data.ndim`` index tensors, of signed integer
    (or unknown) data types; ``B`` is known when every index shape is and the
    broadcast is decided aligned from the right (a 1 takes the other
    dimension, equal constants stay, different constants are an error,
    anything else leaves the rank unknown); the shape is then ``B`` followed by
    the known trailing dimensions of ``data`` (only the rank without them).
    """

    name = "relax.index_tensor"
    FUSION: ClassVar[FusionKind] = OpPattern.OPAQUE
    data = operand_def()
    indices = operand_def()

    def infer_type(self) -> StructInfoType:
        data = self.tensor_of(self.data, "data")
        indices = self.tensors_of(self.indices, "indices")
        for position, index in enumerate(indices):
            _check_index_dtype(
                self.name, index, _is_signed, f"a signed integer type (index {position})"
            )
        count = len(indices)
        if _known(data.rank) and count > data.rank:
            raise VerifyException(
                f"{self.name}: {count} index tensors for data of {data.rank} dimensions"
            )
        shapes = [index.dims for index in indices]
        common = None if None in shapes else self._broadcast(shapes)  # pyright: ignore
        dtype = data.data_type
        if common is None or not _known(data.rank):
            return TensorType(dtype=dtype, ndim=UNKNOWN_NDIM)
        dims = None if data.dims is None else [*common, *data.dims[count:]]
        return _tensor(dims, dtype, len(common) + data.rank - count)

    def _broadcast(self, shapes: Sequence[Dims]) -> list[PrimExpr] | None:
        """The index shapes broadcast as TVM does, None when it cannot decide."""
        common: list[PrimExpr] = [IntImm(1)] * max(map(len, shapes))
        for shape in shapes:
            for offset in range(1, len(shape) + 1):
                have, new = common[-offset], shape[-offset]
                if have == IntImm(1):
                    common[-offset] = new
                elif new == IntImm(1):
                    continue
                elif isinstance(have, IntImm) and isinstance(new, IntImm) and have != new:
                    raise VerifyException(
                        f"{self.name}: index shapes do not broadcast: {have} and {new} at axis "
                        f"{len(common) - offset}"
                    )
                elif not prove_equal(have, new):
                    return None
        return common


@irdl_op_definition
class IndexPutOp(ManipulateOp):
    """``data`` with ``data[i0, i1, ...] = values`` (``+=`` with
    ``accumulate``): one integer index tensor per axis (or a single tensor for
    1-D data), broadcast together; ``values`` holds one element per broadcast
    position, read in row-major order. Negative indices count from the end; a
    position hit twice takes the last value, or the sum with ``accumulate``.

    Inference (TVM's): the type of ``data``; with a known rank, one index
    tensor per axis, each of at least one dimension and an integer (or
    unknown) data type; ``data`` and ``values`` share a known data type.
    """

    name = "relax.index_put"
    FUSION: ClassVar[FusionKind] = OpPattern.OPAQUE
    data = operand_def()
    indices = operand_def()
    values = operand_def()
    accumulate = opt_prop_def(BoolAttr, default_value=BoolAttr.from_bool(False))

    def index_tensors(self) -> list[TensorType]:
        """The index tensors: the tuple's fields, or the one tensor."""
        sinfo = relax_type(self.name, self.indices)
        if isinstance(sinfo, TensorType):
            return [sinfo]
        fields = sinfo.types if isinstance(sinfo, TupleType) else None
        if fields is None or not all(isinstance(f, TensorType) for f in fields):
            raise VerifyException(
                f"{self.name}: the indices operand has type {struct_info_text(sinfo)}, "
                "expected a tensor or a tuple of tensors"
            )
        return list(fields)  # pyright: ignore[reportReturnType]

    def infer_type(self) -> StructInfoType:
        data = self.tensor_of(self.data, "data")
        values = self.tensor_of(self.values, "values")
        indices = self.index_tensors()
        if not _known(data.rank):
            return data
        for position, index in enumerate(indices):
            if _known(index.rank) and index.rank < 1:
                raise VerifyException(
                    f"{self.name}: index tensor {position} has no dimensions; each needs one"
                )
            _check_index_dtype(self.name, index, _is_integer, f"an integer type (index {position})")
        if len(indices) != data.rank:
            raise VerifyException(
                f"{self.name}: {len(indices)} index tensors for data of {data.rank} dimensions; "
                "one per axis is needed"
            )
        dtypes = (data.data_type, values.data_type)
        if not any(d.is_void for d in dtypes) and dtypes[0] != dtypes[1]:
            raise VerifyException(
                f"{self.name}: data has data type {dtypes[0]} and values {dtypes[1]}; "
                "they must agree"
            )
        return data


def _whole_axis_copy(op: SliceScatterOp) -> OpPattern:
    """``ELEMWISE`` for a slice covering its axis (TVM legalizes it to a copy of
    ``src``), else ``OPAQUE``."""
    data = op.input_tensor.type
    bounds = op.bounds()
    if not isinstance(data, TensorType) or data.dims is None or bounds is None:
        return OpPattern.OPAQUE
    start, end, step = bounds
    extent = data.dims[normalize_axis(op.name, op.attr("axis"), data.rank)]
    whole = start == IntImm(0) and step == IntImm(1) and prove_equal(end, extent)
    return OpPattern.ELEMWISE if whole else OpPattern.OPAQUE


@irdl_op_definition
class SliceScatterOp(ManipulateOp):
    """``input_tensor`` with the slice ``start:end:step`` of ``axis`` replaced
    by ``src`` (PyTorch's ``slice_scatter``): position ``start + k * step``
    takes ``src[k]`` along ``axis``, for positions inside the axis.

    Inference (TVM's): the type of ``input_tensor``; with a known rank,
    ``axis`` is in range, ``src`` has the same rank and data type (when
    known), and ``start``, ``end``, ``step`` are integer prim values with
    known values, ``step`` not provably below 1 nor ``end`` below ``start``.
    With both shapes known, no dimension but ``axis`` provably differs and
    ``src`` is not provably other than ``(end - start + step - 1) // step``
    long along ``axis``.
    """

    name = "relax.slice_scatter"
    FUSION: ClassVar[FusionKind] = _whole_axis_copy
    input_tensor = operand_def()
    src = operand_def()
    start = operand_def()
    end = operand_def()
    step = operand_def()
    axis = opt_prop_def(IntegerAttr, default_value=_int(0))

    def bounds(self) -> tuple[PrimExpr, PrimExpr, PrimExpr] | None:
        """``start``, ``end`` and ``step``, when their types know their values."""
        operands = (self.start, self.end, self.step)
        values = [v.type.known_value if isinstance(v.type, PrimType) else None for v in operands]
        return None if None in values else tuple(values)  # pyright: ignore[reportReturnType]

    def infer_type(self) -> StructInfoType:
        data = self.tensor_of(self.input_tensor, "input_tensor")
        src = self.tensor_of(self.src, "src")
        if not _known(data.rank):
            return data
        axis = normalize_axis(self.name, self.attr("axis"), data.rank)
        if _known(src.rank) and src.rank != data.rank:
            raise VerifyException(
                f"{self.name}: input_tensor has {data.rank} dimensions and src {src.rank}; "
                "they must have the same rank"
            )
        _common_dtype(self.name, [data, src])
        start, end, step = (
            self._bound(self.start, "start"),
            self._bound(self.end, "end"),
            self._bound(self.step, "step"),
        )
        if _provably_negative(step - 1):
            raise VerifyException(f"{self.name}: step {to_text(step)} must be at least 1")
        if _provably_negative(end - start):
            raise VerifyException(
                f"{self.name}: end {to_text(end)} is below start {to_text(start)}"
            )
        if data.dims is not None and src.dims is not None:
            _dims_agree(self.name, [data.dims, src.dims], axis)
            length = simplify(call("floordiv", end - start + step - 1, step))
            if prove_not_equal(src.dims[axis], length):
                raise VerifyException(
                    f"{self.name}: src has {to_text(src.dims[axis])} elements along axis {axis}, "
                    f"the slice {to_text(length)}"
                )
        return data

    def _bound(self, value: SSAValue, which: str) -> PrimExpr:
        prim = self.prim_of(value, which)
        if prim.known_value is None or not _is_integer(prim.data_type):
            raise VerifyException(
                f"{self.name}: {which} has type {struct_info_text(prim)}, expected an integer "
                "prim value with a known value"
            )
        return prim.known_value


def _provably_negative(expr: PrimExpr) -> bool:
    value = simplify(expr)
    return isinstance(value, IntImm) and value.value < 0


@irdl_op_definition
class OneHotOp(ManipulateOp):
    """A tensor that is ``on_value`` where a new axis ``axis`` matches
    ``indices`` and ``off_value`` elsewhere (indices outside ``[0, depth)``
    match nothing).

    Inference: ``indices.shape`` with ``depth`` inserted at ``axis`` (in
    ``[-ndim - 1, ndim]``); the data type of the prim values ``on_value`` and
    ``off_value``, which must agree; integer indices; ``depth`` positive.
    """

    name = "relax.one_hot"
    FUSION: ClassVar[FusionKind] = OpPattern.BROADCAST
    indices = operand_def()
    on_value = operand_def()
    off_value = operand_def()
    depth = prop_def(IntegerAttr)
    axis = opt_prop_def(IntegerAttr, default_value=_int(-1))

    def infer_type(self) -> StructInfoType:
        indices = self.tensor_of(self.indices, "indices")
        on = self.prim_of(self.on_value, "on_value").data_type
        off = self.prim_of(self.off_value, "off_value").data_type
        if on != off:
            raise VerifyException(
                f"{self.name}: on_value is {on} and off_value {off}; they must agree"
            )
        depth: int = self.attr("depth")
        if depth <= 0:
            raise VerifyException(f"{self.name}: depth must be positive, got {depth}")
        _check_index_dtype(self.name, indices, _is_integer, "an integer type")
        if not _known(indices.rank):
            return TensorType(dtype=on, ndim=UNKNOWN_NDIM)
        axis = normalize_axis(self.name, self.attr("axis"), indices.rank + 1)
        if indices.dims is None:
            return TensorType(dtype=on, ndim=indices.rank + 1)
        dims = list(indices.dims)
        return TensorType([*dims[:axis], IntImm(depth), *dims[axis:]], on)


def layout_transform_pattern(op: OperatorOp) -> OpPattern:
    """TVM's kinds of its legalizations: ``ELEMWISE`` for the identity map,
    ``INJECTIVE`` for a reordering of the axes or a map that pads (fewer elements
    in than out, unless provably as many), ``OPAQUE`` for other splits and fusions."""
    assert isinstance(op, LayoutTransformOp)
    index_map = op.affine_map()
    axes = [r.position if isinstance(r, AffineDimExpr) else None for r in index_map.results]
    if None not in axes:
        identity = axes == list(range(index_map.num_dims))
        return OpPattern.ELEMWISE if identity else OpPattern.INJECTIVE
    data, result = op.x.type, op.results[0].type
    assert isinstance(data, TensorType) and isinstance(result, TensorType)
    assert data.dims is not None and result.dims is not None
    same_count = prove_equal(product(data.dims), product(result.dims))
    return OpPattern.OPAQUE if same_count else OpPattern.INJECTIVE


@irdl_op_definition
class LayoutTransformOp(ManipulateOp):
    """``x`` laid out by an index map: the element at index ``idx`` moves to
    ``index_map(idx)``. The map is an affine map of the input's indices
    (``lambda i, j: (i // 4, j, i % 4)`` is ``affine_map<(d0, d1) -> (d0 floordiv
    4, d1, d0 mod 4)>``; additions, multiplications by constants, ``floordiv``
    and ``mod`` by positive constants) that must send distinct elements to
    distinct positions; the positions no element reaches (where a split does not
    divide the shape) take ``pad_value`` (default 0; an integer or a float of
    the input's kind). ``axis_separators`` and ``input_axis_separators``
    (default empty) only describe how TVM flattens the buffers; they change no
    value.

    Inference: the input's rank must be the map's number of dimensions; the
    result has the map's number of results, each of the extent TVM's
    ``IndexMap.map_shape`` gives (a split ``i // c`` of an axis of size ``n``
    has ``ceildiv(n, c)``, ``i % c`` has ``c``, ``i * c + j`` with ``j`` of
    size ``c`` fuses to ``n * c``; otherwise the range of the expression over
    the input), each starting at 0. An unknown shape keeps only the rank.
    """

    name = "relax.layout_transform"
    FUSION: ClassVar[FusionKind] = layout_transform_pattern
    x = operand_def()
    index_map = prop_def(AffineMapAttr)
    pad_value = opt_prop_def(FloatAttr | IntegerAttr)
    axis_separators = opt_prop_def(DenseArrayBase, default_value=attribute_of(()))
    input_axis_separators = opt_prop_def(DenseArrayBase, default_value=attribute_of(()))

    def affine_map(self) -> AffineMap:
        """The index map, checked."""
        index_map = self.index_map.data
        check_index_map(self.name, index_map)
        return index_map

    def padding(self, dtype: DataType) -> int | float | bool:
        """The value of the positions no element reaches, for a tensor of ``dtype``."""
        value = self.attr("pad_value", 0)
        if isinstance(value, float) and not (dtype.is_float or dtype.is_void):
            raise VerifyException(
                f"{self.name}: the pad value {float_text(value)} is not a {dtype} value"
            )
        return value

    def infer_type(self) -> StructInfoType:
        index_map = self.affine_map()
        data = self.tensor_of(self.x, "x")
        self.padding(data.data_type)
        self.int_list("axis_separators")
        self.int_list("input_axis_separators")
        ndim = len(index_map.results)
        if _known(data.rank) and data.rank != index_map.num_dims:
            raise VerifyException(
                f"{self.name}: the input has {data.rank} dimensions, the index map "
                f"{index_map.num_dims}"
            )
        if data.dims is None:
            return TensorType(dtype=data.data_type, ndim=ndim)
        return TensorType(map_shape(self.name, index_map, data.dims), data.data_type)


OPERATIONS: list[type[Operation]] = [
    ReshapeOp,
    FlattenOp,
    ExpandDimsOp,
    SqueezeOp,
    PermuteDimsOp,
    FlipOp,
    ConcatOp,
    StackOp,
    SplitOp,
    MeshgridOp,
    BroadcastToOp,
    TileOp,
    RepeatOp,
    CollapseSumLikeOp,
    CollapseSumToOp,
    GatherElementsOp,
    GatherNDOp,
    ScatterElementsOp,
    ScatterNDOp,
    IndexTensorOp,
    IndexPutOp,
    SliceScatterOp,
    OneHotOp,
    LayoutTransformOp,
]
