"""Shape manipulation → ``tensor`` reshapes and slices, ``linalg.transpose`` and
``linalg.generic``.

* reshaping (``reshape``, ``flatten``): ``tensor.collapse_shape`` to one axis then
  ``tensor.expand_shape`` to the target (a gather when the target has several
  dynamic sizes), the element counts checked at run time unless provably equal;
  ``expand_dims``/``squeeze``: ``expand_shape``/``collapse_shape`` of unit axes (a
  squeezed symbolic axis is checked to be 1);
* ``permute_dims``: ``linalg.transpose``; ``flip``: a gather (``linalg.index`` and
  ``tensor.extract`` at ``n - 1 - i``);
* ``concat``/``stack``: ``tensor.insert_slice`` into a ``tensor.empty``;
  ``split``: ``tensor.extract_slice`` (split points clamped as NumPy does);
* ``broadcast_to``, ``meshgrid``: a ``linalg.generic`` reading through
  broadcasting maps; ``tile``/``repeat``: a ``linalg.generic`` over the result
  split into (copy, element) axis pairs, then ``collapse_shape``;
* ``collapse_sum_*``: a sum reduction over the broadcast axes;
* ``gather_elements``, ``gather_nd``, ``one_hot``: gathers (negative indices count
  from the end, as NumPy indexing does); ``index_tensor``: a gather through the
  index tensors broadcast together, every index checked to lie in its axis.

``scatter_elements`` and ``scatter_nd`` apply their updates one after the other,
in row-major order: an ``scf.for`` over the updates carries the result, combining
each update into it with ``tensor.extract``/``tensor.insert``; indices outside the
data fail a ``cf.assert`` (``scatter_elements`` counts negative ones from the end).
``index_put`` is such a loop over the broadcast index positions; ``slice_scatter``
an ``scf.for`` over the positions its slice hits, inserting cross-sections of ``src``.
``layout_transform`` by a map that splits and reorders the input axes (NCHW to
NCHW4c) is a gather over the result (each input index rebuilt from the outputs' indices,
the pad value past the input); by any other map a scatter: into a tensor filled with
the pad value, an ``scf.for`` over the input inserts each element at the position the
index map gives (its affine expressions computed with ``arith`` on ``index`` values).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise

from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, IntegerType, TensorType, i64
from xdsl.dialects.linalg.ops import TransposeOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)

from relax_dialect.dtype import DataType
from relax_dialect.ops import manipulate as ops
from relax_dialect.ops.index_map import fold, map_shape
from relax_dialect.ops.inference import normalize_axes, normalize_axis
from relax_dialect.ops.manipulate import product
from relax_dialect.prim_expr import IntImm, PrimExpr, call
from relax_dialect.prim_expr_simplify import prove_equal, simplify
from relax_dialect.types import ShapeType, TupleType
from relax_dialect.types import TensorType as RelaxTensor

from ..lowerer import INDEX, Lowerer
from . import lowers
from .common import (
    binary,
    broadcast,
    check_every,
    check_index,
    collapse,
    collapse_unit_dims,
    compare,
    constant,
    coordinates,
    data_type,
    expand,
    expand_unit_dims,
    extract,
    extract_slice,
    fill,
    flatten,
    insert_slice,
    loop_indices,
    mixed,
    outside,
    outside_axis,
    parallel,
    reduce,
    select,
    sizes_of,
    symbol,
    tensor_shape,
    to_index,
)

# -- helpers -----------------------------------------------------------------------------


def result_of(lw: Lowerer, op: Operation) -> tuple[RelaxTensor, TensorType[Attribute]]:
    """The inferred result type and its builtin type (a located error if it has none)."""
    result = lw.result_type(op)
    (type,) = lw.types_of(op, result, "the result")
    assert isinstance(type, TensorType)
    return result, type


def result_sizes(
    lw: Lowerer, result: RelaxTensor, otherwise: Callable[[], list[SSAValue]]
) -> list[SSAValue]:
    """The result's sizes from its symbolic dims, else computed by ``otherwise``."""
    if result.dims is None:
        return otherwise()
    return [lw.index_of(d) for d in result.dims]


def reshape(lw: Lowerer, value: SSAValue, sizes: Sequence[SSAValue], type: TensorType) -> SSAValue:
    """The elements of a lowered tensor in row-major order laid out as ``type``
    (of ``sizes``; the element counts agree): ``collapse_shape`` to one axis, then
    ``expand_shape`` (a copying gather when several sizes are dynamic: see
    ``common.expand``)."""
    flat = flatten(lw, value)
    shape = type.get_shape()
    if len(shape) == 1:
        return lw.cast(flat, type)
    if not shape:
        return collapse(lw, lw.cast(flat, TensorType(type.get_element_type(), [1])), [])
    return expand(lw, flat, [list(range(len(shape)))], list(shape), sizes)


def _check_count(
    lw: Lowerer,
    op: Operation,
    source: tuple[Sequence[PrimExpr] | None, Sequence[SSAValue]],
    target: tuple[Sequence[PrimExpr] | None, Sequence[SSAValue]],
) -> None:
    """Check at run time that a reshape keeps the element count, unless provable."""
    (source_dims, source_sizes), (target_dims, target_sizes) = source, target
    if (
        source_dims is not None
        and target_dims is not None
        and prove_equal(product(source_dims), product(target_dims))
    ):
        return
    lw.check_equal(
        lw.product(target_sizes),
        lw.product(source_sizes),
        op,
        f"{op.name}: the target shape does not hold the element count of the data",
    )


def _known_dims(sinfo: Attribute) -> list[PrimExpr | None] | None:
    dims = sinfo.dims if isinstance(sinfo, RelaxTensor | ShapeType) else None
    return None if dims is None else list(dims)


# -- reshaping -----------------------------------------------------------------------------


@lowers(ops.ReshapeOp)
def lower_reshape(lw: Lowerer, op: ops.ReshapeOp) -> SSAValue:
    result, type = result_of(lw, op)
    sizes = result_sizes(lw, result, lambda: list(lw.lowered(op.shape)))
    data = op.x.type
    assert isinstance(data, RelaxTensor)
    _check_count(lw, op, (data.dims, lw.dims(op.x)), (result.dims, sizes))
    return reshape(lw, lw.operand(op, 0), sizes, type)


@lowers(ops.FlattenOp)
def lower_flatten(lw: Lowerer, op: ops.FlattenOp) -> SSAValue:
    result, type = result_of(lw, op)
    sizes = result_sizes(lw, result, lambda: [lw.product(lw.dims(op.x))])
    return reshape(lw, lw.operand(op, 0), sizes, type)


@lowers(ops.ExpandDimsOp)
def lower_expand_dims(lw: Lowerer, op: ops.ExpandDimsOp) -> SSAValue:
    result, type = result_of(lw, op)
    x = lw.operand(op, 0)
    axis = op.int_list("axis") or []
    if not axis:
        return x
    units = normalize_axes(op.name, axis, result.rank)
    sizes = iter(lw.dims(op.x))
    one = lw.constant_index(1)
    all_sizes = [one if a in units else next(sizes) for a in range(result.rank)]
    return lw.cast(expand_unit_dims(lw, x, units, all_sizes), type)


@lowers(ops.SqueezeOp)
def lower_squeeze(lw: Lowerer, op: ops.SqueezeOp) -> SSAValue:
    _, type = result_of(lw, op)
    x = lw.operand(op, 0)
    if op.attr("axis") == ():
        return x
    removed = op.squeezed_axes()
    assert removed is not None  # else the result's rank is unknown
    data = op.x.type
    assert isinstance(data, RelaxTensor)
    sizes = lw.dims(op.x)
    one = lw.constant_index(1)
    for axis in removed:
        if data.dims is None or data.dims[axis] != IntImm(1):
            lw.check_equal(sizes[axis], one, op, f"{op.name}: dimension {axis} is not 1")
    return lw.cast(collapse_unit_dims(lw, x, removed), type)


# -- reordering ------------------------------------------------------------------------------


@lowers(ops.PermuteDimsOp)
def lower_permute_dims(lw: Lowerer, op: ops.PermuteDimsOp) -> SSAValue:
    result, type = result_of(lw, op)
    x = lw.operand(op, 0)
    axes = op.int_list("axes")
    rank = result.rank
    order = list(reversed(range(rank))) if axes is None else normalize_axes(op.name, axes, rank)
    if order == sorted(order):
        return x
    sizes = lw.dims(op.x)
    init = lw.empty(type, [sizes[a] for a in order])
    permutation = DenseArrayBase.from_list(i64, order)
    return lw.make(TransposeOp, x, init, permutation, type)


@lowers(ops.FlipOp)
def lower_flip(lw: Lowerer, op: ops.FlipOp) -> SSAValue:
    result, type = result_of(lw, op)
    x = lw.operand(op, 0)
    axis = normalize_axis(op.name, op.attr("axis"), result.rank)
    sizes = lw.dims(op.data)
    last = lw.make(arith.SubiOp, sizes[axis], lw.constant_index(1))

    def element(lw: Lowerer, _: Sequence[SSAValue]) -> SSAValue:
        at = loop_indices(lw, result.rank)
        at[axis] = lw.make(arith.SubiOp, last, at[axis])
        return extract(lw, x, at)

    return parallel(lw, [], [], sizes, type, element)


# -- joining and splitting -------------------------------------------------------------------


def _fields(lw: Lowerer, op: Operation, value: SSAValue) -> list[tuple[SSAValue, list[SSAValue]]]:
    """The lowered tensors of a tuple operand with their sizes."""
    sinfo = value.type
    assert isinstance(sinfo, TupleType)
    fields = []
    for field, lowered in zip(sinfo.types, lw.lowered(value), strict=True):
        dims = _known_dims(field)
        sizes = sizes_of(lw, lowered) if dims is None else [lw.index_of(d) for d in dims]
        fields.append((lowered, sizes))
    return fields


def _check_same(
    lw: Lowerer, op: Operation, fields: Sequence[tuple[SSAValue, list[SSAValue]]], free: int | None
) -> None:
    """Check at run time that the tensors agree in every axis but ``free``."""
    first = fields[0][1]
    for index, (_, sizes) in enumerate(fields[1:], 1):
        for axis, (size, expected) in enumerate(zip(sizes, first, strict=True)):
            if axis != free:
                message = f"{op.name}: dimension {axis} of tensor {index} differs from tensor 0's"
                lw.check_equal(size, expected, op, message)


@lowers(ops.ConcatOp)
def lower_concat(lw: Lowerer, op: ops.ConcatOp) -> SSAValue:
    result, type = result_of(lw, op)
    fields = _fields(lw, op, op.tensors)
    if len(fields) == 1:
        return fields[0][0]
    axis = normalize_axis(op.name, op.attr("axis"), result.rank)
    if result.dims is None:
        _check_same(lw, op, fields, axis)
    offsets = [lw.constant_index(0)]
    for _, sizes in fields:
        offsets.append(lw.make(arith.AddiOp, offsets[-1], sizes[axis]))
    total = list(fields[0][1])
    total[axis] = offsets[-1]
    out = lw.empty(type, result_sizes(lw, result, lambda: total))
    zero = [0] * result.rank
    for (value, sizes), offset in zip(fields, offsets, strict=False):
        at: list[SSAValue | int] = list(zero)
        at[axis] = offset
        out = insert_slice(lw, value, out, at, sizes)
    return out


@lowers(ops.StackOp)
def lower_stack(lw: Lowerer, op: ops.StackOp) -> SSAValue:
    result, type = result_of(lw, op)
    fields = _fields(lw, op, op.tensors)
    axis = normalize_axis(op.name, op.attr("axis"), result.rank)
    if result.dims is None:
        _check_same(lw, op, fields, None)
    one = lw.constant_index(1)
    sizes = list(fields[0][1])
    sizes.insert(axis, lw.constant_index(len(fields)))
    out = lw.empty(type, result_sizes(lw, result, lambda: sizes))
    for index, (value, field_sizes) in enumerate(fields):
        unit = [*field_sizes[:axis], one, *field_sizes[axis:]]
        at: list[SSAValue | int] = [0] * result.rank
        at[axis] = index
        out = insert_slice(lw, expand_unit_dims(lw, value, [axis], unit), out, at, unit)
    return out


@lowers(ops.SplitOp)
def lower_split(lw: Lowerer, op: ops.SplitOp) -> SSAValue | list[SSAValue]:
    x = lw.operand(op, 0)
    sinfo = lw.result_sinfo
    if not isinstance(sinfo, TupleType):
        return x  # one piece: x itself
    types = lw.types_of(op, sinfo, "the result")
    data = op.x.type
    assert isinstance(data, RelaxTensor)
    axis = normalize_axis(op.name, op.attr("axis"), data.rank)
    sizes = lw.dims(op.x)
    dims = data.dims if data.dims is not None else [symbol(lw, s) for s in sizes]
    length = dims[axis]
    spec = op.attr("indices_or_sections")
    if isinstance(spec, int):
        size = (length + (spec - 1)) // spec
        points = [call("min", size * i, length) for i in range(1, spec)]
    else:
        points = [
            call("min", call("max", i, 0), length) for i in op.int_list("indices_or_sections") or ()
        ]
    bounds = [IntImm(0), *points, length]
    pieces = []
    for (start, end), type in zip(pairwise(bounds), types, strict=True):
        offsets: list[SSAValue | int] = [0] * data.rank
        offsets[axis] = mixed(lw, simplify(start))
        extents = [mixed(lw, d) for d in dims]
        extents[axis] = mixed(lw, simplify(call("max", end - start, 0)))
        piece = extract_slice(lw, x, offsets, extents, [1] * data.rank)
        pieces.append(lw.cast(piece, type))
    return pieces


@lowers(ops.MeshgridOp)
def lower_meshgrid(lw: Lowerer, op: ops.MeshgridOp) -> list[SSAValue]:
    sinfo = lw.result_sinfo
    assert isinstance(sinfo, TupleType)
    types = lw.types_of(op, sinfo, "the result")
    fields = _fields(lw, op, op.tensors)
    lengths = [sizes[0] for _, sizes in fields]
    axes = list(range(len(fields)))
    if op.attr("indexing") == "xy" and len(fields) >= 2:
        axes[:2] = [1, 0]
        lengths[:2] = lengths[1::-1]
    return [
        parallel(lw, [value], [[axis]], lengths, type, lambda lw, args: args[0])
        for (value, _), axis, type in zip(fields, axes, types, strict=True)
    ]


# -- replication and its adjoint -------------------------------------------------------------


@lowers(ops.BroadcastToOp)
def lower_broadcast_to(lw: Lowerer, op: ops.BroadcastToOp) -> SSAValue:
    result, type = result_of(lw, op)
    target = _known_dims(op.shape.type) or [None] * result.rank
    shapes = [tensor_shape(lw, op.x), (target, lw.lowered(op.shape))]
    sizes, maps = broadcast(lw, op, shapes, result.dims, result.rank)
    return parallel(lw, [lw.operand(op, 0)], maps[:1], sizes, type, lambda lw, args: args[0])


def _pairs(
    lw: Lowerer,
    x: SSAValue,
    sizes: Sequence[Sequence[SSAValue]],
    source: Sequence[int],
    type: TensorType[Attribute],
) -> SSAValue:
    """A tensor whose result axis ``a`` is split into the loops of ``sizes[a]``
    (one or two), reading ``x`` at the loops ``source``; the split axes are
    collapsed back into ``type`` (an empty result is just ``tensor.empty``: MLIR's
    folding gives a collapsed group holding a static 0 a static size)."""
    if 0 in type.get_shape():
        return lw.empty(type, [lw.product(pair) for pair in sizes])
    loops = [s for pair in sizes for s in pair]
    element = type.get_element_type()
    shape = [DYNAMIC_INDEX] * len(loops)
    expanded = parallel(
        lw, [x], [list(source)], loops, TensorType(element, shape), lambda lw, a: a[0]
    )
    groups, start = [], 0
    for pair in sizes:
        groups.append(list(range(start, start + len(pair))))
        start += len(pair)
    return lw.cast(collapse(lw, expanded, groups), type)


@lowers(ops.TileOp)
def lower_tile(lw: Lowerer, op: ops.TileOp) -> SSAValue:
    result, type = result_of(lw, op)
    repeats = list(op.int_list("repeats") or ())
    data_sizes = lw.dims(op.data)
    rank, ndim = len(data_sizes), result.rank
    counts = [1] * (ndim - len(repeats)) + repeats
    one = lw.constant_index(1)
    padded = [one] * (ndim - rank) + data_sizes
    sizes = [(lw.constant_index(c), s) for c, s in zip(counts, padded, strict=True)]
    source = [2 * (a + ndim - rank) + 1 for a in range(rank)]
    return _pairs(lw, lw.operand(op, 0), sizes, source, type)


@lowers(ops.RepeatOp)
def lower_repeat(lw: Lowerer, op: ops.RepeatOp) -> SSAValue:
    _, type = result_of(lw, op)
    x = lw.operand(op, 0)
    sizes = lw.dims(op.data)
    axis = op.attr("axis")
    if axis is None:
        count = lw.product(sizes)
        x = reshape(lw, x, [count], TensorType(x.type.get_element_type(), [DYNAMIC_INDEX]))  # pyright: ignore
        sizes, axis = [count], 0
    axis = normalize_axis(op.name, axis, len(sizes))
    split: list[tuple[SSAValue, ...]] = [(s,) for s in sizes]
    split[axis] = (sizes[axis], lw.constant_index(op.attr("repeats")))
    source = [a if a <= axis else a + 1 for a in range(len(sizes))]
    return _pairs(lw, x, split, source, type)


def _collapse_sum(lw: Lowerer, op: Operation, data: SSAValue) -> SSAValue:
    result, type = result_of(lw, op)
    if result.dims is None:
        lw.error(op, "the target shape must be known")
    sizes = lw.dims(data)
    lead = len(sizes) - result.rank
    units = [a for a, d in enumerate(result.dims) if d == IntImm(1)]
    axes = [*range(lead), *(lead + a for a in units)]
    dtype = data_type(result)
    if dtype.is_bool:

        def add(lw: Lowerer, x: SSAValue, acc: SSAValue) -> SSAValue:
            return lw.make(arith.OrIOp, acc, x)
    else:

        def add(lw: Lowerer, x: SSAValue, acc: SSAValue) -> SSAValue:
            return binary(lw, dtype, arith.AddfOp, arith.AddiOp, acc, x)

    zero = constant(lw, 0, dtype)
    summed, _ = reduce(lw, lw.lowered(data)[0], sizes, axes, False, zero, add)
    out_sizes = [lw.index_of(d) for d in result.dims]
    return lw.cast(expand_unit_dims(lw, summed, units, out_sizes), type)


@lowers(ops.CollapseSumLikeOp, ops.CollapseSumToOp)
def lower_collapse_sum(lw: Lowerer, op: ops.CollapseSumOp) -> SSAValue:
    return _collapse_sum(lw, op, op.operands[0])


# -- gathers and scatters -------------------------------------------------------------------


def wrap_negative(lw: Lowerer, index: SSAValue, extent: SSAValue) -> SSAValue:
    """A negative index counted from the end of an axis of ``extent``."""
    zero = lw.constant_index(0)
    negative = lw.make(arith.CmpiOp, index, zero, "slt")
    shifted = lw.make(arith.AddiOp, index, extent)
    return select(lw, negative, shifted, index)


@lowers(ops.GatherElementsOp)
def lower_gather_elements(lw: Lowerer, op: ops.GatherElementsOp) -> SSAValue:
    result, type = result_of(lw, op)
    data = lw.operand(op, 0)
    axis = normalize_axis(op.name, op.attr("axis"), result.rank)
    extent = lw.dims(op.data)[axis]
    dtype = data_type(op.indices.type)

    def wrapped(lw: Lowerer, index: SSAValue) -> SSAValue:
        return wrap_negative(lw, to_index(lw, index, dtype), extent)

    indices = lw.operand(op, 1)
    check_every(
        lw,
        indices,
        result.rank,
        lambda lw, i: outside(lw, wrapped(lw, i), extent),
        op,
        outside_axis(op, axis),
    )

    def element(lw: Lowerer, args: Sequence[SSAValue]) -> SSAValue:
        at = loop_indices(lw, result.rank)
        at[axis] = wrapped(lw, args[0])
        return extract(lw, data, at)

    sizes = lw.dims(op.indices)
    return parallel(lw, [indices], [list(range(result.rank))], sizes, type, element)


@lowers(ops.GatherNDOp)
def lower_gather_nd(lw: Lowerer, op: ops.GatherNDOp) -> SSAValue:
    result, type = result_of(lw, op)
    data, indices = lw.operand(op, 0), lw.operand(op, 1)
    batch = op.attr("batch_dims")
    index_sizes, data_sizes = lw.dims(op.indices), lw.dims(op.data)
    outer = len(index_sizes) - 1
    depth = len(data_sizes) - batch - (result.rank - outer)
    dtype = data_type(op.indices.type)

    def wrong(lw: Lowerer, raw: SSAValue) -> SSAValue:
        """Whether a coordinate lies outside its axis (the one of its position)."""
        position = loop_indices(lw, len(index_sizes))[-1]
        extent = data_sizes[batch]
        for c in range(1, depth):
            here = lw.make(arith.CmpiOp, position, lw.constant_index(c), "eq")
            extent = select(lw, here, data_sizes[batch + c], extent)
        return outside(lw, wrap_negative(lw, to_index(lw, raw, dtype), extent), extent)

    message = f"{op.name}: an index is outside its axis of the data"
    check_every(lw, indices, len(index_sizes), wrong, op, message)

    def element(lw: Lowerer, _: Sequence[SSAValue]) -> SSAValue:
        at = loop_indices(lw, result.rank)
        coordinates = []
        for c in range(depth):
            raw = extract(lw, indices, [*at[:outer], lw.constant_index(c)])
            coordinates.append(wrap_negative(lw, to_index(lw, raw, dtype), data_sizes[batch + c]))
        return extract(lw, data, [*at[:batch], *coordinates, *at[outer:]])

    sizes = [*index_sizes[:outer], *data_sizes[batch + depth :]]
    return parallel(lw, [], [], sizes, type, element)


# Scatters: the tensor carried by the loop starts as ``data``; once bufferized, the
# inserts write in place into one copy of it (the bundled interpreter: ``in_place``).

ScatterCombine = Callable[[Lowerer, SSAValue, SSAValue], SSAValue]
"""Emits the combination of the element in place (first) with an update."""


def _scatter_combine(reduction: str, dtype: DataType) -> ScatterCombine | None:
    """A scatter's ``reduction`` as the reference kernels compute it (None for
    ``update``: the update replaces the element). ``mean`` averages the two; ``min``
    and ``max`` keep the element only when it compares smaller (larger), so NaN on
    either side gives the update; on ``bool`` ``add`` is ``or`` and ``mul`` ``and``."""
    if reduction == "update":
        return None
    if reduction in ("min", "max"):
        predicate = "lt" if reduction == "min" else "gt"
        return lambda lw, old, new: select(lw, compare(lw, predicate, old, new, dtype), old, new)
    if reduction == "mean":

        def mean(lw: Lowerer, old: SSAValue, new: SSAValue) -> SSAValue:
            total = lw.make(arith.AddfOp, old, new)
            return lw.make(arith.DivfOp, total, constant(lw, 2, dtype))

        return mean
    if dtype.is_bool:
        logical = arith.OrIOp if reduction == "add" else arith.AndIOp
        return lambda lw, old, new: lw.make(logical, old, new)
    float_op, int_op = (
        (arith.AddfOp, arith.AddiOp) if reduction == "add" else (arith.MulfOp, arith.MuliOp)
    )
    return lambda lw, old, new: binary(lw, dtype, float_op, int_op, old, new)


def _scatter(
    lw: Lowerer,
    op: Operation,
    updates: SSAValue,
    sizes: Sequence[SSAValue],
    reduction: str,
    target: Callable[[Lowerer, list[SSAValue]], list[SSAValue]],
) -> SSAValue:
    """``data`` (operand 0) with the elements of ``updates`` (of ``sizes``) combined
    in by ``reduction``, one after the other, into the elements at
    ``target(coordinates of the update)``."""
    result, type = result_of(lw, op)
    combine = _scatter_combine(reduction, result.data_type)
    count = lw.product(sizes)
    block = Block(arg_types=[INDEX, type])
    with lw.inside(block):
        position, out = block.args
        at = coordinates(lw, position, sizes)
        value = extract(lw, updates, at)
        where = target(lw, at)
        if combine is not None:
            value = combine(lw, extract(lw, out, where), value)
        lw.emit(scf.YieldOp(lw.make(tensor.InsertOp, value, out, where)))
    data = lw.cast(lw.operand(op, 0), type)
    zero, one = lw.constant_index(0), lw.constant_index(1)
    return lw.make(scf.ForOp, zero, count, one, [data], block)


def _check_shape(
    lw: Lowerer,
    op: Operation,
    actual: tuple[Sequence[PrimExpr | None], Sequence[SSAValue]],
    expected: tuple[Sequence[PrimExpr | None], Sequence[SSAValue]],
    what: str,
) -> None:
    """Check at run time that a shape (symbolic dims, sizes) is the ``expected`` one
    (``NAME: dimension 1 of WHAT``), where the dims do not prove it."""
    for axis, (dim, size, known, wanted) in enumerate(zip(*actual, *expected, strict=True)):
        if dim is None or known is None or not prove_equal(dim, known):
            lw.check_equal(size, wanted, op, f"{op.name}: dimension {axis} of {what}")


@lowers(ops.ScatterElementsOp)
def lower_scatter_elements(lw: Lowerer, op: ops.ScatterElementsOp) -> SSAValue:
    rank = lw.result_type(op).rank
    axis = normalize_axis(op.name, op.attr("axis"), rank)
    data_dims, data_sizes = tensor_shape(lw, op.data)
    shape = tensor_shape(lw, op.indices)
    _check_shape(
        lw, op, tensor_shape(lw, op.updates), shape, "the updates differs from the indices'"
    )
    for a, (dim, size, known, extent) in enumerate(zip(*shape, data_dims, data_sizes, strict=True)):
        difference = None if dim is None or known is None else simplify(known - dim)
        if a != axis and not (isinstance(difference, IntImm) and difference.value >= 0):
            fits = lw.make(arith.CmpiOp, size, extent, "ule")
            lw.check(fits, op, f"{op.name}: dimension {a} of the indices exceeds the data's")
    indices, extent = lw.operand(op, 1), data_sizes[axis]
    dtype = data_type(op.indices.type)

    def target(lw: Lowerer, at: list[SSAValue]) -> list[SSAValue]:
        index = wrap_negative(lw, to_index(lw, extract(lw, indices, at), dtype), extent)
        check_index(lw, op, index, extent, axis)
        return [index if a == axis else c for a, c in enumerate(at)]

    return _scatter(lw, op, lw.operand(op, 2), shape[1], op.attr("reduction"), target)


@lowers(ops.ScatterNDOp)
def lower_scatter_nd(lw: Lowerer, op: ops.ScatterNDOp) -> SSAValue:
    indices = lw.operand(op, 1)
    index_shape = indices.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    depth = index_shape[-1] if index_shape else DYNAMIC_INDEX
    if depth == DYNAMIC_INDEX:
        lw.error(op, "the last dimension of the indices must be a constant")
    data_dims, data_sizes = tensor_shape(lw, op.data)
    if depth > len(data_sizes):
        lw.error(op, f"the indices address {depth} axes but the data has {len(data_sizes)}")
    index_dims, index_sizes = tensor_shape(lw, op.indices)
    batch = len(index_sizes) - 1
    expected = (
        [*index_dims[:batch], *data_dims[depth:]],
        [*index_sizes[:batch], *data_sizes[depth:]],
    )
    updates = tensor_shape(lw, op.updates)
    if len(updates[1]) != len(expected[1]):
        lw.error(op, f"the updates have rank {len(updates[1])}, expected {len(expected[1])}")
    what = f"the updates differs from indices.shape[:-1] + data.shape[{depth}:]"
    _check_shape(lw, op, updates, expected, what)
    dtype = data_type(op.indices.type)

    def target(lw: Lowerer, at: list[SSAValue]) -> list[SSAValue]:
        coordinates = []
        for c in range(depth):
            raw = extract(lw, indices, [*at[:batch], lw.constant_index(c)])
            coordinates.append(to_index(lw, raw, dtype))
            check_index(lw, op, coordinates[-1], data_sizes[c], c)
        return [*coordinates, *at[batch:]]

    return _scatter(lw, op, lw.operand(op, 2), expected[1], op.attr("reduction"), target)


def _index_tensors(
    lw: Lowerer, indices: SSAValue
) -> list[tuple[SSAValue, tuple[list[PrimExpr | None], list[SSAValue]], DataType]]:
    """The lowered index tensors of a tuple (or tensor) operand: each with its
    symbolic dims and sizes, and its data type."""
    sinfo = indices.type
    fields = sinfo.types if isinstance(sinfo, TupleType) else (sinfo,)
    found = []
    for field, lowered in zip(fields, lw.lowered(indices), strict=True):
        assert isinstance(field, RelaxTensor)
        dims = list(field.dims) if field.dims is not None else [None] * field.rank
        found.append((lowered, (dims, sizes_of(lw, lowered)), field.data_type))
    return found


def _at(lw: Lowerer, loops: Sequence[int | None], at: Sequence[SSAValue]) -> list[SSAValue]:
    """An operand's coordinates from the loop coordinates ``at`` through its
    broadcast map (0 where it is broadcast)."""
    return [lw.constant_index(0) if d is None else at[d] for d in loops]


@lowers(ops.IndexTensorOp)
def lower_index_tensor(lw: Lowerer, op: ops.IndexTensorOp) -> SSAValue:
    result, type = result_of(lw, op)
    data = lw.operand(op, 0)
    data_sizes = lw.dims(op.data)
    indices = _index_tensors(lw, op.indices)
    count = result.rank - len(data_sizes) + len(indices)
    common = None if result.dims is None else result.dims[:count]
    sizes, maps = broadcast(lw, op, [shape for _, shape, _ in indices], common, count)
    for axis, (index, (_, index_sizes), dtype) in enumerate(indices):
        extent = data_sizes[axis]
        check_every(
            lw,
            index,
            len(index_sizes),
            lambda lw, i: outside(lw, to_index(lw, i, dtype), extent),  # noqa: B023
            op,
            outside_axis(op, axis),
        )

    def element(lw: Lowerer, args: Sequence[SSAValue]) -> SSAValue:
        at = loop_indices(lw, result.rank)
        coordinates = [
            to_index(lw, value, dtype) for value, (_, _, dtype) in zip(args, indices, strict=True)
        ]
        return extract(lw, data, [*coordinates, *at[count:]])

    inputs = [index for index, _, _ in indices]
    all_sizes = [*sizes, *data_sizes[len(indices) :]]
    return parallel(lw, inputs, maps, all_sizes, type, element)


@lowers(ops.IndexPutOp)
def lower_index_put(lw: Lowerer, op: ops.IndexPutOp) -> SSAValue:
    _, type = result_of(lw, op)
    data_sizes = lw.dims(op.data)
    indices = _index_tensors(lw, op.indices)
    if not indices or len(indices) != len(data_sizes):
        lw.error(
            op,
            f"{len(indices)} index tensors for data of {len(data_sizes)} dimensions "
            "(TVM builds one per axis, at least one)",
        )
    rank = max(len(shape[1]) for _, shape, _ in indices)
    sizes, maps = broadcast(lw, op, [shape for _, shape, _ in indices], None, rank)
    values = lw.operand(op, 2)
    count = lw.product(sizes)
    message = f"{op.name}: the values are not one per indexed position"
    lw.check_equal(lw.product(lw.dims(op.values)), count, op, message)
    element = type.get_element_type()
    spread = reshape(lw, values, sizes, TensorType(element, [DYNAMIC_INDEX] * rank))

    def target(lw: Lowerer, at: list[SSAValue]) -> list[SSAValue]:
        coordinates = []
        for axis, ((index, _, dtype), loops) in enumerate(zip(indices, maps, strict=True)):
            raw = extract(lw, index, _at(lw, loops, at))
            coordinate = wrap_negative(lw, to_index(lw, raw, dtype), data_sizes[axis])
            check_index(lw, op, coordinate, data_sizes[axis], axis)
            coordinates.append(coordinate)
        return coordinates

    reduction = "add" if op.attr("accumulate") else "update"
    return _scatter(lw, op, spread, sizes, reduction, target)


@lowers(ops.SliceScatterOp)
def lower_slice_scatter(lw: Lowerer, op: ops.SliceScatterOp) -> SSAValue:
    """An ``scf.for`` over the positions the slice hits inside the axis, each
    replaced by its cross-section of ``src`` (``extract_slice``/``insert_slice``)."""
    result, type = result_of(lw, op)
    axis = normalize_axis(op.name, op.attr("axis"), result.rank)
    bounds = op.bounds()
    assert bounds is not None
    start, end, step = bounds
    ordered = call("and", call("ge", step, IntImm(1)), call("ge", end, start))
    lw.check(lw.index_of(ordered), op, f"{op.name}: the slice is backward or its step below 1")
    data_dims, data_sizes = tensor_shape(lw, op.input_tensor)
    extent = data_dims[axis]
    if extent is None:
        extent = symbol(lw, data_sizes[axis])
    length = simplify(call("floordiv", end - start + step - 1, step))
    expected = list(data_dims), list(data_sizes)
    expected[0][axis], expected[1][axis] = length, lw.index_of(length)
    _check_shape(lw, op, tensor_shape(lw, op.src), expected, "src differs from the slice's")
    skipped = call("max", IntImm(0), call("floordiv", step - 1 - start, step))
    first = simplify(start + skipped * step)
    inside = call("min", end, extent) - first
    hits = call("max", IntImm(0), call("floordiv", inside + step - 1, step))
    src = lw.operand(op, 1)
    cross_section: list[SSAValue | int] = list(data_sizes)
    cross_section[axis] = 1
    block = Block(arg_types=[INDEX, type])
    with lw.inside(block):
        hit, out = block.args
        k = symbol(lw, hit)
        at: list[SSAValue | int] = [0] * result.rank
        at[axis] = lw.index_of(call("min", skipped + k, extent - 1))
        piece = extract_slice(lw, src, at, cross_section, [1] * result.rank)
        at[axis] = lw.index_of(first + k * step)
        lw.emit(scf.YieldOp(insert_slice(lw, piece, out, at, cross_section)))
    data = lw.cast(lw.operand(op, 0), type)
    zero, one = lw.constant_index(0), lw.constant_index(1)
    return lw.make(scf.ForOp, zero, lw.index_of(simplify(hits)), one, [data], block)


@lowers(ops.OneHotOp)
def lower_one_hot(lw: Lowerer, op: ops.OneHotOp) -> SSAValue:
    result, type = result_of(lw, op)
    axis = normalize_axis(op.name, op.attr("axis"), result.rank)
    on, off = lw.operand(op, 1), lw.operand(op, 2)
    dtype = data_type(op.indices.type)
    sizes = lw.dims(op.indices)
    sizes.insert(axis, lw.constant_index(op.attr("depth")))
    kept = [a for a in range(result.rank) if a != axis]
    i64_type = IntegerType(64)

    def element(lw: Lowerer, args: Sequence[SSAValue]) -> SSAValue:
        position = lw.make(arith.IndexCastOp, loop_indices(lw, axis + 1)[axis], i64_type)
        index = lw.make(arith.IndexCastOp, to_index(lw, args[0], dtype), i64_type)
        hit = lw.make(arith.CmpiOp, index, position, "eq")
        return select(lw, hit, on, off)

    return parallel(lw, [lw.operand(op, 0)], [kept], sizes, type, element)


def _floor_mod(lw: Lowerer, a: SSAValue, b: SSAValue) -> SSAValue:
    """``a mod b`` for a positive ``b``, rounding down as affine maps do."""
    remainder = lw.make(arith.RemSIOp, a, b)
    negative = lw.make(arith.CmpiOp, remainder, lw.constant_index(0), "slt")
    return select(lw, negative, lw.make(arith.AddiOp, remainder, b), remainder)


AFFINE_ARITH: dict[AffineBinaryOpKind, Callable[[Lowerer, SSAValue, SSAValue], SSAValue]] = {
    AffineBinaryOpKind.Add: lambda lw, a, b: lw.make(arith.AddiOp, a, b),
    AffineBinaryOpKind.Mul: lambda lw, a, b: lw.make(arith.MuliOp, a, b),
    AffineBinaryOpKind.FloorDiv: lambda lw, a, b: lw.make(arith.FloorDivSIOp, a, b),
    AffineBinaryOpKind.CeilDiv: lambda lw, a, b: lw.make(arith.CeilDivSIOp, a, b),
    AffineBinaryOpKind.Mod: _floor_mod,
}
"""The affine operations on ``index`` values."""


Part = tuple[int, int, int | None]
"""One output of an index map as a split of an input axis ``d``: ``(axis, lower,
extent)`` for ``(d floordiv lower) mod extent`` (``extent`` None: no ``mod``)."""


def _part(expr: AffineExpr) -> Part | None:
    """``expr`` as a split of one input axis, if it is one."""
    if isinstance(expr, AffineDimExpr):
        return expr.position, 1, None
    if not isinstance(expr, AffineBinaryOpExpr) or not isinstance(expr.rhs, AffineConstantExpr):
        return None
    inner = _part(expr.lhs)
    if inner is None or inner[2] is not None:
        return None
    axis, lower, _ = inner
    if expr.kind is AffineBinaryOpKind.FloorDiv:
        return axis, lower * expr.rhs.value, None
    return (axis, lower, expr.rhs.value) if expr.kind is AffineBinaryOpKind.Mod else None


def tiling(index_map: AffineMap) -> list[list[tuple[int, int]]] | None:
    """Per input axis, the (output, factor) pairs whose sum of ``output index *
    factor`` is the axis' index, when the map splits and reorders the input axes
    (``(d0, d1) -> (d0 floordiv 4, d1, d0 mod 4)``): every output is a split of one
    axis, and the splits of each axis tile it (the innermost of factor 1, each next
    one's factor the previous one's times its extent, the outermost without
    ``mod``). None for other maps."""
    parts = [_part(expr) for expr in index_map.results]
    by_axis: list[list[tuple[int, int, int | None]]] = [[] for _ in range(index_map.num_dims)]
    for output, part in enumerate(parts):
        if part is None:
            return None
        by_axis[part[0]].append((output, part[1], part[2]))
    for splits in by_axis:
        splits.sort(key=lambda split: split[1])
        factor = 1
        for k, (_, lower, extent) in enumerate(splits):
            if lower != factor or (extent is None) != (k == len(splits) - 1):
                return None
            factor = lower * (extent or 1)
        if not splits:
            return None
    return [[(output, lower) for output, lower, _ in splits] for splits in by_axis]


@lowers(ops.LayoutTransformOp)
def lower_layout_transform(lw: Lowerer, op: ops.LayoutTransformOp) -> SSAValue:
    index_map = op.affine_map()
    result, type = result_of(lw, op)
    x = lw.operand(op, 0)
    sizes = sizes_of(lw, x)

    def mapped_sizes() -> list[SSAValue]:
        dims = map_shape(op.name, index_map, [symbol(lw, size) for size in sizes])
        return [lw.index_of(d) for d in dims]

    pad = constant(lw, op.padding(result.data_type), result.data_type)
    out_sizes = result_sizes(lw, result, mapped_sizes)
    tiles = tiling(index_map)
    if tiles is not None:
        return _gather_tiles(lw, x, sizes, tiles, out_sizes, type, pad)
    out = fill(lw, pad, lw.empty(type, out_sizes))
    block = Block(arg_types=[INDEX, type])
    with lw.inside(block):
        position, carried = block.args
        at = coordinates(lw, position, sizes)
        where = [
            fold(expr, at, lw.constant_index, lambda kind, a, b: AFFINE_ARITH[kind](lw, a, b))
            for expr in index_map.results
        ]
        lw.emit(scf.YieldOp(lw.make(tensor.InsertOp, extract(lw, x, at), carried, where)))
    zero, one = lw.constant_index(0), lw.constant_index(1)
    return lw.make(scf.ForOp, zero, lw.product(sizes), one, [out], block)


def _gather_tiles(
    lw: Lowerer,
    x: SSAValue,
    sizes: Sequence[SSAValue],
    tiles: list[list[tuple[int, int]]],
    out_sizes: Sequence[SSAValue],
    type: TensorType,
    pad: SSAValue,
) -> SSAValue:
    """A map that tiles the input axes as a gather over the result: each input index
    is its outputs' indices times their factors; positions past the input (where a
    split does not divide) take ``pad``."""

    def body(lw: Lowerer, _: Sequence[SSAValue]) -> SSAValue:
        loops = loop_indices(lw, len(out_sizes))
        at, inside = [], None
        for splits, size in zip(tiles, sizes, strict=True):
            index = None
            for output, factor in splits:
                term = lw.make(arith.MuliOp, loops[output], lw.constant_index(factor))
                index = term if index is None else lw.make(arith.AddiOp, index, term)
            assert index is not None
            here = lw.make(arith.CmpiOp, index, size, "ult")
            inside = here if inside is None else lw.make(arith.AndIOp, inside, here)
            last = lw.make(arith.SubiOp, size, lw.constant_index(1))
            at.append(lw.make(arith.MinUIOp, index, last))
        assert inside is not None
        return select(lw, inside, extract(lw, x, at), pad)

    return parallel(lw, [], [], out_sizes, type, body)
