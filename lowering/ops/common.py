"""Builders the operator lowerings share.

* scalars: ``constant``, ``convert`` (TIR's casts), ``pick``/``binary`` (the
  ``arith`` operation for a data type), ``compare``, ``select``, ``element_count``;
* ``generic``: a ``linalg.generic`` whose body a Python function emits; ``for_loop``:
  an ``scf.for`` from 0 carrying values;
* ``elementwise``: an element-wise ``linalg.generic`` over tensors and prim
  values with symbolic broadcasting (below);
* ``reduce``: a reduction ``linalg.generic`` over some axes, output filled with
  the combiner's identity first;
* ``expand_unit_dims``/``collapse_unit_dims``: insert or remove axes of size 1;
* slices and gathers: ``extract_slice``/``insert_slice`` with static or dynamic
  parameters (``mixed``), and ``loop_indices``/``extract`` for ``linalg.generic``
  bodies reading an operand at computed positions; ``to_index`` and ``symbol``
  turn run-time integers into ``index`` values and symbolic expressions;
* shapes: ``transpose`` (a copying generic), ``collapse``/``expand`` (reassociations;
  ``expand`` never gives ``mlir-opt-22`` a group of several dynamic sizes),
  ``flatten`` (to one axis), ``pad`` (``tensor.pad`` with a scalar; negative amounts
  crop).

A *scalar function* (``Scalar``) receives the element values and emits the
operations computing the result element into the current block (a
``linalg.generic`` body, or the function body when every operand is a prim
value); it returns the result element.

Broadcasting: a dimension known to be ``1`` (``IntImm(1)`` in the operand's
type) is broadcast; any other dimension must equal the result's, proven
statically (the simplifier) or checked at run time with ``cf.assert`` (as
torch-mlir does). A symbolic dimension that turns out to be 1 at run time
while the result's is not fails that check, where the reference interpreter
would broadcast it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from math import prod

from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    ArrayAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    i1,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import IndexOp, YieldOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from relax_dialect.dtype import BOOL, FLOAT32, INT64, DataType
from relax_dialect.prim_expr import IntImm, PrimExpr, Var
from relax_dialect.prim_expr_simplify import prove_equal
from relax_dialect.types import PrimType
from relax_dialect.types import TensorType as RelaxTensor

from ..building import (
    array_of,
    build,
    fill_op,
    float_attr,
    generic_op,
    insert_slice_op,
    integer_attr,
    pad_op,
    tensor_of,
)
from ..lowerer import INDEX, Lowerer, static_index
from ..type_conversion import element_type, is_unsigned, tensor_type

Scalar = Callable[[Lowerer, Sequence[SSAValue]], SSAValue]
"""Emits the computation of one result element from the operand elements."""

OpClass = type[Operation]

PARALLEL = IteratorTypeAttr.parallel()
REDUCTION = IteratorTypeAttr.reduction()

# -- scalars -------------------------------------------------------------------------


def constant(lw: Lowerer, value: float | int | bool, dtype: DataType) -> SSAValue:
    """A scalar constant of ``dtype`` (shared within a scope)."""
    type = element_type(dtype)
    if dtype.is_float:
        return lw.constant(float_attr(float(value), type))
    if dtype.is_bool:
        value = int(bool(value))
    elif is_unsigned(dtype) and value < 0:
        value += 1 << dtype.bits
    return lw.constant(integer_attr(int(value), type))


def element_count(lw: Lowerer, sizes: Sequence[SSAValue], dtype: DataType) -> SSAValue:
    """The product of ``index`` sizes as a scalar of ``dtype`` (a constant when the
    sizes are); shared within a scope."""
    count = lw.product(sizes)
    static = static_index(count)
    if static is not None:
        return constant(lw, static, dtype)

    def converted() -> SSAValue:
        return convert(lw, lw.make(arith.IndexCastOp, count, i64), INT64, dtype)

    return lw.shared((element_count, count, dtype), converted)


def pick(dtype: DataType, float_op: OpClass, int_op: OpClass, uint_op: OpClass | None = None):
    """The ``arith`` operation computing on ``dtype``: the float, signed or unsigned
    variant (``bool`` is unsigned)."""
    if dtype.is_float:
        return float_op
    return uint_op if uint_op is not None and is_unsigned(dtype) else int_op


def binary(lw: Lowerer, dtype: DataType, float_op: OpClass, int_op: OpClass, *args: SSAValue):
    """``float_op`` or ``int_op`` (signless) applied to ``args`` of ``dtype``."""
    return lw.make(pick(dtype, float_op, int_op), *args)


_ORDERED = {"eq": "oeq", "ne": "one", "lt": "olt", "le": "ole", "gt": "ogt", "ge": "oge"}
_SIGNED = {"eq": "eq", "ne": "ne", "lt": "slt", "le": "sle", "gt": "sgt", "ge": "sge"}
_UNSIGNED = {"eq": "eq", "ne": "ne", "lt": "ult", "le": "ule", "gt": "ugt", "ge": "uge"}


def compare(lw: Lowerer, predicate: str, lhs: SSAValue, rhs: SSAValue, dtype: DataType):
    """``lhs <predicate> rhs`` (``eq``, ``ne``, ``lt``, ...) as ``i1``; on floats the
    ordered comparison (false when either is NaN)."""
    if dtype.is_float:
        return lw.make(arith.CmpfOp, lhs, rhs, _ORDERED[predicate])
    table = _UNSIGNED if is_unsigned(dtype) else _SIGNED
    return lw.make(arith.CmpiOp, lhs, rhs, table[predicate])


def emit_op(lw: Lowerer, op_class: OpClass, *args: object) -> SSAValue:
    """Emit ``op_class(*args)`` and return its result."""
    return lw.make(op_class, *args)


def select(lw: Lowerer, condition: SSAValue, if_true: SSAValue, if_false: SSAValue) -> SSAValue:
    return lw.make(arith.SelectOp, condition, if_true, if_false)


FLOAT16 = DataType("float", 16)


def accumulation_type(dtype: DataType) -> DataType:
    """The type sums of ``dtype`` products accumulate in: ``f32`` for ``f16``, as the
    reference's NumPy computes ``matmul`` and last-axis sums of float16 (in float32, rounded
    to float16 once); native code rounding every step to ``f16`` drifts by ulps."""
    return FLOAT32 if dtype == FLOAT16 else dtype


def convert(lw: Lowerer, value: SSAValue, source: DataType, target: DataType) -> SSAValue:
    """TIR's cast from ``source`` to ``target``: float to integer truncates toward
    zero, anything to ``bool`` is ``x != 0`` (NaN is true), ``bool`` is 0 or 1. The
    extension float formats convert to and from ``f32`` only (``extf``, ``truncf``);
    any other conversion goes through ``f32`` (which holds all their values), as
    ml_dtypes and TVM convert: ``f64`` or ``i64`` to ``bf16`` rounds twice."""
    if source == target:
        return value
    if FLOAT32 not in (source, target) and (source.is_extension_float or target.is_extension_float):
        return convert(lw, convert(lw, value, source, FLOAT32), FLOAT32, target)
    to_type = element_type(target)
    if target.is_bool:
        zero = constant(lw, 0, source)
        predicate = "une" if source.is_float else "ne"
        cmp = arith.CmpfOp if source.is_float else arith.CmpiOp
        return lw.make(cmp, value, zero, predicate)
    if source.is_float and target.is_float:
        op = arith.ExtFOp if target.bits > source.bits else arith.TruncFOp
        return lw.make(op, value, to_type)
    if source.is_float:
        op = arith.FPToUIOp if is_unsigned(target) else arith.FPToSIOp
        return lw.make(op, value, to_type)
    unsigned = is_unsigned(source)
    if target.is_float:
        op = arith.UIToFPOp if unsigned else arith.SIToFPOp
        return lw.make(op, value, to_type)
    if target.bits == source.bits:
        return value
    if target.bits < source.bits:
        return lw.make(arith.TruncIOp, value, to_type)
    op = arith.ExtUIOp if unsigned else arith.ExtSIOp
    return lw.make(op, value, to_type)


class FloatScalars:
    """Emits scalar arithmetic in one floating-point data type (in a ``linalg.generic``
    body): constants, operations, and conversions from and to ``index``."""

    def __init__(self, lw: Lowerer, dtype: DataType) -> None:
        self.lw, self.dtype = lw, dtype

    def f(self, value: float) -> SSAValue:
        """A constant of the data type."""
        return constant(self.lw, value, self.dtype)

    def op(self, op_class: OpClass, *args: object) -> SSAValue:
        return emit_op(self.lw, op_class, *args)

    def to_float(self, index: SSAValue) -> SSAValue:
        """An ``index`` as a value of the data type."""
        return convert(self.lw, self.lw.make(arith.IndexCastOp, index, i64), INT64, self.dtype)

    def to_index(self, value: SSAValue) -> SSAValue:
        """A value of the data type truncated toward zero, as an ``index``."""
        return self.lw.as_index(self.lw.make(arith.FPToSIOp, value, i64))


def data_type(sinfo: Attribute) -> DataType:
    """The data type of a tensor or prim type."""
    assert isinstance(sinfo, RelaxTensor | PrimType)
    return sinfo.data_type


# -- linalg.generic --------------------------------------------------------------------

MapExprs = Sequence[int | AffineExpr | None]
"""An indexing map as the loop dimension of each operand axis (None: constant 0), or
an affine expression of the loops (``d2 * 2 + d5``: sliding windows)."""


def _map_expr(axis: int | AffineExpr | None) -> AffineExpr:
    if axis is None:
        return AffineExpr.constant(0)
    return axis if isinstance(axis, AffineExpr) else AffineExpr.dimension(axis)


@lru_cache(maxsize=4096)
def _indexing_maps(
    n_loops: int, maps: tuple[tuple[int | AffineExpr | None, ...], ...]
) -> ArrayAttr:
    """The ``indexing_maps`` of a ``linalg.generic``, memoised: a few repeat
    throughout a module."""
    return ArrayAttr(
        [AffineMapAttr(AffineMap(n_loops, 0, tuple(_map_expr(a) for a in m))) for m in maps]
    )


def generic(
    lw: Lowerer,
    inputs: Sequence[SSAValue],
    init: SSAValue,
    maps: Sequence[MapExprs],
    iterators: Sequence[Attribute],
    body: Callable[[Lowerer, Sequence[SSAValue]], SSAValue],
) -> SSAValue:
    """``linalg.generic`` over ``inputs`` into ``init``; ``maps`` holds one map per
    input and one for the output; ``body`` gets the input elements then the output
    element and returns the element to yield."""
    [result] = generic_results(lw, inputs, [init], maps, iterators, lambda lw, a: [body(lw, a)])
    return result


def generic_results(
    lw: Lowerer,
    inputs: Sequence[SSAValue],
    inits: Sequence[SSAValue],
    maps: Sequence[MapExprs],
    iterators: Sequence[Attribute],
    body: Callable[[Lowerer, Sequence[SSAValue]], Sequence[SSAValue]],
) -> list[SSAValue]:
    """A ``linalg.generic`` with several outputs (``inits``), one map per input then
    per output; ``body`` returns one element per output."""
    arg_types = [v.type.get_element_type() for v in (*inputs, *inits)]  # pyright: ignore
    block = Block(arg_types=arg_types)
    with lw.inside(block):
        lw.emit(build(YieldOp, *body(lw, block.args)))
    maps_attr = _indexing_maps(len(iterators), tuple(map(tuple, maps)))
    op = generic_op(inputs, inits, block, maps_attr, array_of(tuple(iterators)))
    return list(lw.emit(op).results)


def for_loop(
    lw: Lowerer,
    upper: SSAValue,
    carried: Sequence[SSAValue],
    body: Callable[[SSAValue, list[SSAValue]], Sequence[SSAValue]],
) -> list[SSAValue]:
    """``scf.for %i = 0 to upper`` carrying ``carried``; ``body(i, values)`` emits one
    iteration and returns the next values."""
    block = Block(arg_types=[INDEX, *(v.type for v in carried)])
    with lw.inside(block):
        lw.emit(scf.YieldOp(*body(block.args[0], list(block.args[1:]))))
    zero, one = lw.constant_index(0), lw.constant_index(1)
    return list(lw.emit(scf.ForOp(zero, upper, one, list(carried), block)).results)


def fill(lw: Lowerer, value: SSAValue, into: SSAValue) -> SSAValue:
    """``linalg.fill`` of a tensor with a scalar."""
    return lw.emit_value(fill_op(value, into))


def outside(lw: Lowerer, index: SSAValue, extent: SSAValue) -> SSAValue:
    """Whether an ``index`` value lies outside ``[0, extent)``: one unsigned comparison."""
    return lw.make(arith.CmpiOp, index, extent, "uge")


def outside_axis(op: Operation, axis: int) -> str:
    """The message of a failed index check."""
    return f"{op.name}: an index is outside axis {axis} of the data"


def check_index(lw: Lowerer, op: Operation, index: SSAValue, extent: SSAValue, axis: int):
    """Check that an index is in ``[0, extent)`` (one unsigned comparison)."""
    inside = lw.make(arith.CmpiOp, index, extent, "ult")
    lw.check(inside, op, outside_axis(op, axis))


def check_every(
    lw: Lowerer,
    values: SSAValue,
    rank: int,
    wrong: Callable[[Lowerer, SSAValue], SSAValue],
    op: Operation,
    message: str,
) -> None:
    """A run-time check that ``wrong`` (an ``i1`` of one element) holds for no
    element of the tensor ``values``: a reduction into one flag, then ``cf.assert``."""
    flags = fill(lw, constant(lw, False, BOOL), lw.empty(TensorType(i1, []), []))

    def any_wrong(lw: Lowerer, args: Sequence[SSAValue]) -> SSAValue:
        return lw.make(arith.OrIOp, args[1], wrong(lw, args[0]))

    identity = list(range(rank))
    found = generic(lw, [values], flags, [identity, []], [REDUCTION] * rank, any_wrong)
    found_one = lw.make(tensor.ExtractOp, found, [], i1)
    lw.check(lw.make(arith.XOrIOp, found_one, constant(lw, True, BOOL)), op, message)


# -- broadcasting ------------------------------------------------------------------------


def broadcast(
    lw: Lowerer,
    op: Operation,
    shapes: Sequence[tuple[Sequence[PrimExpr | None], Sequence[SSAValue]]],
    result: Sequence[PrimExpr] | None,
    rank: int,
) -> tuple[list[SSAValue], list[list[int | None]]]:
    """Broadcast operand shapes (each: symbolic dims, actual sizes), right-aligned,
    to ``rank`` axes whose dims are ``result`` when known. Returns the result sizes
    and each operand's axes as loop dimensions (None where broadcast: an axis of 1 on a
    result axis not known to be 1; on a result axis of 1 it is the loop dimension, so that a
    unit batch keeps the maps projected permutations, the form the tiling schedule matches)."""
    sizes: list[SSAValue] = []
    maps: list[list[int | None]] = [[] for _ in shapes]
    for axis in range(rank):
        expected = None if result is None else result[axis]
        size = None if expected is None else lw.index_of(expected)
        for k, (exprs, actual) in enumerate(shapes):
            position = axis - (rank - len(exprs))
            if position < 0:
                continue
            expr = exprs[position]
            if expr == IntImm(1) and expected == IntImm(1):
                maps[k].append(axis)
                continue
            if expr == IntImm(1):
                maps[k].append(None)
                continue
            maps[k].append(axis)
            if size is None:
                size, expected = actual[position], expr
            elif not (expr is not None and expected is not None and prove_equal(expr, expected)):
                lw.check_equal(
                    actual[position],
                    size,
                    op,
                    f"{op.name}: dimension {position} of operand {k} does not match the "
                    f"broadcast result (after lowering only dimensions known to be 1 broadcast)",
                )
        sizes.append(size if size is not None else lw.constant_index(1))
    return sizes, maps


def tensor_shape(lw: Lowerer, value: SSAValue) -> tuple[list[PrimExpr | None], list[SSAValue]]:
    """A Relax tensor operand's symbolic dims (None where unknown) and sizes."""
    sinfo = value.type
    assert isinstance(sinfo, RelaxTensor)
    exprs = list(sinfo.dims) if sinfo.dims is not None else [None] * sinfo.rank
    return exprs, lw.dims(value)


def elementwise(
    lw: Lowerer,
    op: Operation,
    operands: Sequence[SSAValue],
    body: Scalar,
    result: RelaxTensor | PrimType,
) -> SSAValue:
    """Apply ``body`` to the elements of Relax tensors and prim values, broadcast
    together; a prim value is one scalar for every element. Without tensor
    operands (``result`` a prim type) the body computes the scalar result."""
    lowered = [lw.lowered(v)[0] for v in operands]
    if isinstance(result, PrimType):
        return body(lw, lowered)
    tensors = [i for i, v in enumerate(operands) if isinstance(v.type, RelaxTensor)]
    shapes = [tensor_shape(lw, operands[i]) for i in tensors]
    sizes, maps = broadcast(lw, op, shapes, result.dims, result.rank)

    def element(lw: Lowerer, args: Sequence[SSAValue]) -> SSAValue:
        scalars = list(lowered)
        for position, index in enumerate(tensors):
            scalars[index] = args[position]
        return body(lw, scalars)

    inputs = [lowered[i] for i in tensors]
    return parallel(lw, inputs, maps, sizes, tensor_type(result), element)


def parallel(
    lw: Lowerer,
    inputs: Sequence[SSAValue],
    maps: Sequence[MapExprs],
    sizes: Sequence[SSAValue],
    type: Attribute,
    body: Callable[[Lowerer, Sequence[SSAValue]], SSAValue],
) -> SSAValue:
    """A new tensor of builtin ``type`` and ``sizes`` whose elements ``body``
    computes from the ``inputs`` elements (read through ``maps``; the output
    element is not passed)."""
    init = lw.empty(type, sizes)
    rank = len(sizes)
    return generic(
        lw,
        inputs,
        init,
        [*maps, list(range(rank))],
        [PARALLEL] * rank,
        lambda lw, args: body(lw, args[: len(inputs)]),
    )


def sizes_of(lw: Lowerer, value: SSAValue) -> list[SSAValue]:
    """The sizes of a lowered tensor (constants where static)."""
    return [lw.dim(value, axis) for axis in range(len(value.type.get_shape()))]  # pyright: ignore


# -- reductions ----------------------------------------------------------------------------

Combine = Callable[[Lowerer, SSAValue, SSAValue], SSAValue]
"""Emits ``accumulator ⊕ element`` (arguments: element, accumulator)."""


def reduce(
    lw: Lowerer,
    source: SSAValue,
    sizes: Sequence[SSAValue],
    axes: Sequence[int],
    keepdims: bool,
    identity: SSAValue,
    combine: Combine,
) -> tuple[SSAValue, list[SSAValue]]:
    """Reduce the lowered tensor ``source`` (of ``sizes``) over ``axes``, starting
    from ``identity`` (whose type is the result's element type); the reduced axes
    are dropped, or kept as 1 with ``keepdims`` (``tensor.expand_shape``). Returns
    the result and its sizes."""
    rank = len(sizes)
    reduced = set(axes)
    kept = [a for a in range(rank) if a not in reduced]
    shape = source.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    type = tensor_of(identity.type, tuple(shape[a] for a in kept))
    init = fill(lw, identity, lw.empty(type, [sizes[a] for a in kept]))
    iterators = [REDUCTION if a in reduced else PARALLEL for a in range(rank)]
    result = generic(
        lw,
        [source],
        init,
        [list(range(rank)), kept],
        iterators,
        lambda lw, args: combine(lw, args[0], args[1]),
    )
    if not keepdims:
        return result, [sizes[a] for a in kept]
    out_sizes = [lw.constant_index(1) if a in reduced else sizes[a] for a in range(rank)]
    return expand_unit_dims(lw, result, sorted(reduced), out_sizes), out_sizes


def expand_unit_dims(
    lw: Lowerer, value: SSAValue, units: Sequence[int], sizes: Sequence[SSAValue]
) -> SSAValue:
    """``tensor.expand_shape`` inserting size-1 axes at positions ``units`` of the
    result (whose sizes are ``sizes``)."""
    shape = list(value.type.get_shape())  # pyright: ignore[reportAttributeAccessIssue]
    rank = len(sizes)
    kept = [a for a in range(rank) if a not in set(units)]
    out_shape = [1 if a in units else shape[kept.index(a)] for a in range(rank)]
    return expand(lw, value, unit_groups(rank, units), out_shape, sizes)


def collapse_unit_dims(lw: Lowerer, value: SSAValue, units: Sequence[int]) -> SSAValue:
    """``tensor.collapse_shape`` removing the axes ``units`` of a lowered tensor, whose
    sizes the caller has checked to be 1 (they are cast to a static 1 first)."""
    shape = list(value.type.get_shape())  # pyright: ignore[reportAttributeAccessIssue]
    element = value.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    value = lw.cast(
        value, TensorType(element, [1 if a in units else s for a, s in enumerate(shape)])
    )
    return collapse(lw, value, unit_groups(len(shape), units))


def unit_groups(rank: int, units: Sequence[int]) -> list[list[int]]:
    """The axis groups between ``rank`` axes and those without ``units``: each unit
    axis joins the group of the next kept axis (the last group after the last one)."""
    kept = [a for a in range(rank) if a not in set(units)]
    groups: list[list[int]] = [[] for _ in kept]
    for axis in range(rank) if kept else ():
        before = sum(1 for k in kept if k < axis)
        groups[min(before, len(kept) - 1)].append(axis)
    return groups


def reassociation(groups: Sequence[Sequence[int]]) -> ArrayAttr:
    """The ``reassociation`` of ``expand_shape``/``collapse_shape``: axis groups."""
    return _reassociation(tuple(map(tuple, groups)))


@lru_cache(maxsize=1024)
def _reassociation(groups: tuple[tuple[int, ...], ...]) -> ArrayAttr:
    return ArrayAttr([ArrayAttr([IntegerAttr(a, 64) for a in g]) for g in groups])


def all_axes(axes: Sequence[int] | None, rank: int) -> list[int]:
    """Reduction axes normalised to ``[0, rank)`` (every axis when None)."""
    if axes is None:
        return list(range(rank))
    return [a + rank if a < 0 else a for a in axes]


# -- slices and gathers -----------------------------------------------------------------

Mixed = SSAValue | int
"""An offset, size or stride of a slice: static (``int``) or an ``index`` value."""


def mixed(lw: Lowerer, expr: PrimExpr) -> Mixed:
    """A symbolic size as a slice parameter: static when constant."""
    return expr.value if isinstance(expr, IntImm) else lw.index_of(expr)


def extract_slice(
    lw: Lowerer,
    source: SSAValue,
    offsets: Sequence[Mixed],
    sizes: Sequence[Mixed],
    strides: Sequence[Mixed],
) -> SSAValue:
    """``tensor.extract_slice`` (result sizes static where ``sizes`` are). An
    empty slice starts at 0: MLIR wants every offset inside the source, even
    where nothing is read."""
    offsets = [0 if size == 0 else offset for offset, size in zip(offsets, sizes, strict=True)]
    element = source.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    type = TensorType(element, [s if isinstance(s, int) else DYNAMIC_INDEX for s in sizes])
    return lw.make(tensor.ExtractSliceOp, source, offsets, sizes, strides, type)


def insert_slice(
    lw: Lowerer, source: SSAValue, dest: SSAValue, offsets: Sequence[Mixed], sizes: Sequence[Mixed]
) -> SSAValue:
    """``tensor.insert_slice`` of ``source`` (of ``sizes``) into ``dest`` at ``offsets``
    (unit strides)."""
    shape = source.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    sizes = [
        size if static == DYNAMIC_INDEX else static
        for size, static in zip(sizes, shape, strict=True)
    ]
    return lw.emit_value(insert_slice_op(source, dest, offsets, sizes, [1] * len(sizes)))


def loop_indices(lw: Lowerer, count: int) -> list[SSAValue]:
    """``linalg.index`` of the first ``count`` loops (inside a ``linalg.generic`` body)."""
    return [lw.make(IndexOp, d) for d in range(count)]


def extract(lw: Lowerer, source: SSAValue, indices: Sequence[SSAValue]) -> SSAValue:
    """``tensor.extract`` of one element (a gather, inside a ``linalg.generic`` body)."""
    element = source.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    return lw.make(tensor.ExtractOp, source, list(indices), element)


def coordinates(lw: Lowerer, position: SSAValue, sizes: Sequence[SSAValue]) -> list[SSAValue]:
    """The coordinates of element ``position`` (row-major) of a tensor of ``sizes``."""
    inner = []
    for size in reversed(sizes[1:]):
        inner.append(lw.make(arith.RemUIOp, position, size))
        position = lw.make(arith.DivUIOp, position, size)
    return [position, *reversed(inner)] if sizes else []


def to_index(lw: Lowerer, value: SSAValue, dtype: DataType) -> SSAValue:
    """An integer scalar of ``dtype`` as an ``index`` (unsigned values zero-extended)."""
    if is_unsigned(dtype) and not dtype.is_bool and dtype.bits < 64:
        value = lw.make(arith.ExtUIOp, value, IntegerType(64))
    return lw.as_index(value)


def symbol(lw: Lowerer, value: SSAValue) -> PrimExpr:
    """An ``index`` value known only at run time as a symbolic expression (a fresh
    variable bound to it in the current scope), for ``index_of`` arithmetic."""
    var = Var(f"%{next(lw.fresh)}")
    lw.symbols[var.name] = value
    return var


# -- shapes ----------------------------------------------------------------------------------


def transpose(lw: Lowerer, value: SSAValue, permutation: Sequence[int]) -> SSAValue:
    """Axis ``k`` of the result is axis ``permutation[k]`` of the lowered tensor ``value``
    (a copying ``linalg.generic``; the identity permutation returns ``value``)."""
    if list(permutation) == sorted(permutation):
        return value
    shape = value.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    sizes = sizes_of(lw, value)
    element = value.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    type = tensor_of(element, tuple(shape[p] for p in permutation))
    reads = [permutation.index(axis) for axis in range(len(permutation))]
    return parallel(
        lw, [value], [reads], [sizes[p] for p in permutation], type, lambda lw, xs: xs[0]
    )


def collapse(lw: Lowerer, value: SSAValue, groups: Sequence[Sequence[int]]) -> SSAValue:
    """``tensor.collapse_shape`` merging each group of consecutive axes into one
    (shared within a scope: the query, key and value products collapse one input)."""
    key = (tensor.CollapseShapeOp, value, tuple(map(tuple, groups)))
    return lw.shared(key, lambda: _collapsed(lw, value, groups))


def _collapsed(lw: Lowerer, value: SSAValue, groups: Sequence[Sequence[int]]) -> SSAValue:
    return lw.emit_value(collapse_op(value, groups))


def collapse_op(value: SSAValue, groups: Sequence[Sequence[int]]) -> tensor.CollapseShapeOp:
    """The ``tensor.collapse_shape`` of ``value`` merging each group of consecutive axes into
    one (dynamic where the group holds a dynamic axis), not inserted."""
    shape = value.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    out = []
    for group in groups:
        sizes = [shape[a] for a in group]
        out.append(DYNAMIC_INDEX if DYNAMIC_INDEX in sizes else prod(sizes))
    type = tensor_of(value.type.get_element_type(), tuple(out))  # pyright: ignore
    return tensor.CollapseShapeOp.create(
        operands=[value], result_types=[type], properties={"reassociation": reassociation(groups)}
    )


def flatten(lw: Lowerer, value: SSAValue) -> SSAValue:
    """A lowered tensor as one axis of its elements in row-major order (a 0-d tensor
    as one element)."""
    rank = len(value.type.get_shape())  # pyright: ignore[reportAttributeAccessIssue]
    if rank == 1:
        return value
    if rank == 0:
        return expand(lw, value, [], [1], [lw.constant_index(1)])
    return collapse(lw, value, [list(range(rank))])


def expand(
    lw: Lowerer,
    value: SSAValue,
    groups: Sequence[Sequence[int]],
    shape: Sequence[int],
    sizes: Sequence[SSAValue],
) -> SSAValue:
    """``tensor.expand_shape`` splitting axis ``k`` into the axes ``groups[k]`` of the
    result, whose static ``shape`` is ``DYNAMIC_INDEX`` where ``sizes`` gives the size.
    When a group gets several dynamic sizes it is a gather (``_gather_expanded``)
    instead: ``mlir-opt-22`` crashes in ``expand-strided-metadata`` on such an
    ``expand_shape`` (llvm-project issue 186830, fixed in LLVM 23). A 0-d ``value``
    (no groups; xDSL's verifier rejects that ``expand_shape``) is
    ``tensor.from_elements`` of its element."""
    type = tensor_of(value.type.get_element_type(), tuple(shape))  # pyright: ignore
    if not groups:
        return lw.emit_value(tensor.FromElementsOp(extract(lw, value, []), result_type=type))
    if any([shape[a] for a in group].count(DYNAMIC_INDEX) > 1 for group in groups):
        return _gather_expanded(lw, value, groups, sizes, type)
    source = value.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]
    collapsed = [
        DYNAMIC_INDEX if any(shape[a] == DYNAMIC_INDEX for a in group) else size
        for size, group in zip(source, groups, strict=True)
    ]  # MLIR wants an axis dynamic where it expands into a dynamic one
    value = lw.cast(value, tensor_of(type.get_element_type(), tuple(collapsed)))
    dynamic = [s for s, static in zip(sizes, shape, strict=True) if static == DYNAMIC_INDEX]
    return lw.make(tensor.ExpandShapeOp, value, dynamic, reassociation(groups), list(shape), type)


def _gather_expanded(
    lw: Lowerer,
    value: SSAValue,
    groups: Sequence[Sequence[int]],
    sizes: Sequence[SSAValue],
    type: Attribute,
) -> SSAValue:
    """What ``expand`` computes, as a copying ``linalg.generic`` over the result that
    reads axis ``k`` of ``value`` at the row-major position of the loops ``groups[k]``
    (``tensor.extract``)."""

    def element(lw: Lowerer, _: Sequence[SSAValue]) -> SSAValue:
        loops = loop_indices(lw, len(sizes))
        at = []
        for group in groups:
            position = loops[group[0]]
            for axis in group[1:]:
                position = lw.make(arith.MuliOp, position, sizes[axis])
                position = lw.make(arith.AddiOp, position, loops[axis])
            at.append(position)
        return extract(lw, value, at)

    return parallel(lw, [], [], sizes, type, element)


def pad(
    lw: Lowerer,
    value: SSAValue,
    low: Sequence[int | SSAValue],
    high: Sequence[int | SSAValue],
    padding: SSAValue,
) -> SSAValue:
    """``tensor.pad`` of the lowered tensor ``value`` with the scalar ``padding``:
    ``low[k]``/``high[k]`` elements before/after axis ``k``; a negative static amount
    crops instead (``tensor.extract_slice``)."""
    shape = list(value.type.get_shape())  # pyright: ignore[reportAttributeAccessIssue]
    element = value.type.get_element_type()  # pyright: ignore[reportAttributeAccessIssue]
    crops = [
        (-b if isinstance(b, int) and b < 0 else 0, -a if isinstance(a, int) and a < 0 else 0)
        for b, a in zip(low, high, strict=True)
    ]
    if any(b or a for b, a in crops):
        sizes: list[int | SSAValue] = []
        for axis, (b, a) in enumerate(crops):
            if shape[axis] != DYNAMIC_INDEX:
                shape[axis] -= b + a
                sizes.append(shape[axis])
            elif b + a:
                cut = lw.constant_index(b + a)
                sizes.append(lw.make(arith.SubiOp, lw.dim(value, axis), cut))
            else:
                sizes.append(lw.dim(value, axis))
        value = extract_slice(lw, value, [b for b, _ in crops], sizes, [1] * len(shape))
    low = [max(b, 0) if isinstance(b, int) else b for b in low]
    high = [max(a, 0) if isinstance(a, int) else a for a in high]
    if all(isinstance(a, int) and a == 0 for a in (*low, *high)):
        return value
    for axis, (b, a) in enumerate(zip(low, high, strict=True)):
        static = isinstance(b, int) and isinstance(a, int) and shape[axis] != DYNAMIC_INDEX
        shape[axis] = shape[axis] + b + a if static else DYNAMIC_INDEX  # pyright: ignore
    return lw.emit_value(pad_op(value, low, high, padding, tensor_of(element, tuple(shape))))
