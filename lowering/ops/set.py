"""Set operators → two phases, as MLIR computes data-dependent shapes: count the
result's length, allocate the result (``tensor.empty`` of the counted size), fill
it in an ``scf.for``.

``nonzero`` counts with a reduction ``linalg.generic``, then walks the elements in
row-major order carrying the next free column: each element's coordinates are
written there, and the column advances past a non-zero element. The writes are
unconditional (a zero element's coordinates land where the next non-zero one
goes, or in one scratch column past the end that the result leaves out), so the
loop updates its tensor in place.

``unique`` works on slices along its axis (flattened: the elements, slices of one).
It orders the slices by a radix sort: one stable sort of their indices per element,
the last element first (``sorting.py``'s network: ascending, NaN last), so that
they end up in lexicographic order. A loop counts the runs of equal slices (NaNs
one value when flattened, as NumPy's ``equal_nan``; a slice holding NaN unlike
every slice along an axis, as NumPy's structured comparison; ``-0.0`` equals
``0.0``); the outputs are allocated with that count, and a loop over the sorted
slices carrying the run number writes each run's first index (the stable sort
puts it first) and count, and every slice's run (the inverse). In order of first
occurrence (``sorted`` false, or known only at run time), a walk over the input
numbers the runs in the order their first slices appear and the outputs move
accordingly. The values are the runs' first slices, gathered.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType, i1, i64
from xdsl.dialects.linalg.ops import IndexOp
from xdsl.ir import SSAValue

from relax_dialect.dtype import BOOL, INT64, DataType
from relax_dialect.ops.set import UNIQUE_OUTPUTS, NonzeroOp, UniqueOp
from relax_dialect.prim_expr import BoolImm, IntImm
from relax_dialect.types import PrimType, TupleType

from ..building import integer_attr, tensor_of
from ..lowerer import Lowerer, static_index
from ..type_conversion import element_type, flat_types
from . import lowers
from .common import (
    PARALLEL,
    constant,
    coordinates,
    data_type,
    extract,
    extract_slice,
    fill,
    flatten,
    for_loop,
    generic,
    loop_indices,
    parallel,
    reduce,
    select,
)
from .sorting import Network

I64 = TensorType(i64, [DYNAMIC_INDEX])


def _insert(lw: Lowerer, value: SSAValue, into: SSAValue, at: Sequence[SSAValue]) -> SSAValue:
    return lw.make(tensor.InsertOp, value, into, list(at))


def _as_i64(lw: Lowerer, index: SSAValue) -> SSAValue:
    return lw.make(arith.IndexCastOp, index, i64)


def _is_nonzero(lw: Lowerer, value: SSAValue, dtype: DataType) -> SSAValue:
    """``value != 0`` (NaN is non-zero, ``-0.0`` is zero)."""
    zero = constant(lw, 0, dtype)
    if dtype.is_float:
        return lw.make(arith.CmpfOp, value, zero, "une")
    return lw.make(arith.CmpiOp, value, zero, "ne")


@lowers(NonzeroOp)
def lower_nonzero(lw: Lowerer, op: NonzeroOp) -> SSAValue:
    dtype = data_type(op.x.type)
    sizes = lw.dims(op.x)
    flat = flatten(lw, lw.operand(op, 0))
    total = lw.product(sizes)

    def add_nonzero(lw: Lowerer, element: SSAValue, sum: SSAValue) -> SSAValue:
        return lw.make(
            arith.AddiOp, sum, lw.make(arith.ExtUIOp, _is_nonzero(lw, element, dtype), i64)
        )

    counted, _ = reduce(lw, flat, [total], [0], False, constant(lw, 0, INT64), add_nonzero)
    count = lw.as_index(extract(lw, counted, []))
    rows = max(len(sizes), 1)
    with_scratch = lw.make(arith.AddiOp, count, lw.constant_index(1))
    empty = lw.empty(
        TensorType(i64, [rows, DYNAMIC_INDEX]), [lw.constant_index(rows), with_scratch]
    )

    def visit(position: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
        column, out = carried
        at = coordinates(lw, position, sizes) or [lw.constant_index(0)]
        for row, coordinate in enumerate(at):
            out = _insert(lw, _as_i64(lw, coordinate), out, [lw.constant_index(row), column])
        nonzero = _is_nonzero(lw, extract(lw, flat, [position]), dtype)
        return [lw.make(arith.AddiOp, column, lw.as_index(nonzero)), out]

    _, out = for_loop(lw, total, [lw.constant_index(0), empty], visit)
    return extract_slice(lw, out, [0, 0], [rows, count], [1, 1])


class Slices:
    """The slices of a lowered tensor along ``axis``, in the order ``unique`` sorts
    them (lexicographically, each element ascending with NaN last, stably), and
    their runs of equal slices."""

    def __init__(self, lw: Lowerer, x: SSAValue, sizes: list[SSAValue], axis: int, dtype: DataType):
        self.lw, self.x, self.sizes, self.axis, self.dtype = lw, x, sizes, axis, dtype
        self.others = sizes[:axis] + sizes[axis + 1 :]
        self.count = sizes[axis]
        self.length = lw.product(self.others)
        """The number of elements of a slice."""

    def element(self, i: SSAValue, k: SSAValue) -> SSAValue:
        """Element ``k`` (row-major) of slice ``i``."""
        at = coordinates(self.lw, k, self.others)
        return extract(self.lw, self.x, [*at[: self.axis], i, *at[self.axis :]])

    def order(self) -> SSAValue:
        """The slices' indices (``i64``) in sorted order: a stable sort by each
        element, the last first (a radix sort)."""
        lw, m = self.lw, self.count

        def position(lw: Lowerer, _: Sequence[SSAValue]) -> SSAValue:
            return _as_i64(lw, lw.make(IndexOp, 0))

        def by_element(t: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
            (order,) = carried
            last = lw.make(arith.SubiOp, self.length, lw.constant_index(1))
            k = lw.make(arith.SubiOp, last, t)
            element = element_type(self.dtype)

            def key(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
                return self.element(lw.as_index(xs[0]), k)

            keys = parallel(lw, [order], [[0]], [m], TensorType(element, [DYNAMIC_INDEX]), key)
            _, moved = Network(lw, keys, [m], 0, self.dtype, descending=False).sort()

            # the new order is written over the carried one, from a copy: a loop
            # must yield its own tensor to bufferize without an allocation
            copy = parallel(lw, [order], [[0]], [m], I64, lambda lw, xs: xs[0])

            def follow(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
                return extract(lw, copy, [lw.as_index(xs[0])])

            moved = extract_slice(lw, moved, [0], [m], [1])
            return [generic(lw, [moved], order, [[0], [0]], [PARALLEL], follow)]

        start = parallel(lw, [], [], [m], I64, position)
        return for_loop(lw, self.length, [start], by_element)[0]

    def starts(self, order: SSAValue, i: SSAValue, nan_equal: bool) -> SSAValue:
        """Whether a run starts at sorted position ``i``: the first slice, or one
        unlike its predecessor (NaNs equal when ``nan_equal``)."""
        lw = self.lw
        zero, one = lw.constant_index(0), lw.constant_index(1)
        previous = lw.make(arith.MaxSIOp, lw.make(arith.SubiOp, i, one), zero)
        a, b = (lw.as_index(extract(lw, order, [j])) for j in (i, previous))

        def differ(k: SSAValue) -> SSAValue:
            return self._differ(self.element(a, k), self.element(b, k), nan_equal)

        if static_index(self.length) == 1:
            unlike = differ(zero)
        else:

            def any_element(k: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                return [lw.make(arith.OrIOp, carried[0], differ(k))]

            false = constant(lw, False, BOOL)
            unlike = for_loop(lw, self.length, [false], any_element)[0]
        return lw.make(arith.OrIOp, lw.make(arith.CmpiOp, i, zero, "eq"), unlike)

    def _differ(self, a: SSAValue, b: SSAValue, nan_equal: bool) -> SSAValue:
        lw = self.lw
        if not self.dtype.is_float:
            return lw.make(arith.CmpiOp, a, b, "ne")
        unequal = lw.make(arith.CmpfOp, a, b, "une")
        if not nan_equal:
            return unequal
        both_nan = lw.make(
            arith.AndIOp, lw.make(arith.CmpfOp, a, a, "uno"), lw.make(arith.CmpfOp, b, b, "uno")
        )
        true = constant(lw, True, BOOL)
        return lw.make(arith.AndIOp, unequal, lw.make(arith.XOrIOp, both_nan, true))

    def gather(self, first: SSAValue, count: SSAValue) -> SSAValue:
        """The slices ``first`` (``i64`` indices, ``count`` of them) along the axis."""
        lw, axis = self.lw, self.axis
        sizes = [count if a == axis else s for a, s in enumerate(self.sizes)]
        type = tensor_of(element_type(self.dtype), (DYNAMIC_INDEX,) * len(sizes))

        def element(lw: Lowerer, _: Sequence[SSAValue]) -> SSAValue:
            at = loop_indices(lw, len(sizes))
            at[axis] = lw.as_index(extract(lw, first, [at[axis]]))
            return extract(lw, self.x, at)

        return parallel(lw, [], [], sizes, type, element)


@lowers(UniqueOp)
def lower_unique(lw: Lowerer, op: UniqueOp) -> SSAValue | list[SSAValue]:
    dtype = data_type(op.x.type)
    x = lw.operand(op, 0)
    if op.axis is None:  # flattened; NaNs are one value (NumPy's equal_nan)
        x = flatten(lw, x)
        slices = Slices(lw, x, [lw.product(lw.dims(op.x))], 0, dtype)
    else:  # slices with a NaN are unlike every slice (NumPy's structured comparison)
        sizes = lw.dims(op.x)
        axis = _axis(lw, op, len(sizes))
        slices = Slices(lw, x, sizes, axis, dtype)
    nan_equal = op.axis is None
    order = slices.order()
    m = slices.count

    def count_runs(i: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
        start = slices.starts(order, i, nan_equal)
        return [lw.make(arith.AddiOp, carried[0], lw.as_index(start))]

    count = for_loop(lw, m, [lw.constant_index(0)], count_runs)[0]
    outputs = [
        lw.empty(I64, [count]),
        lw.empty(I64, [m]),
        fill(lw, constant(lw, 0, INT64), lw.empty(I64, [count])),
    ]

    def visit(i: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
        run, first, inverse, counts = carried
        start = slices.starts(order, i, nan_equal)
        run = lw.make(arith.AddiOp, run, lw.as_index(start))
        index = extract(lw, order, [i])
        earlier = extract(lw, first, [run])
        first = _insert(lw, select(lw, start, index, earlier), first, [run])
        inverse = _insert(lw, _as_i64(lw, run), inverse, [lw.as_index(index)])
        tally = lw.make(arith.AddiOp, extract(lw, counts, [run]), constant(lw, 1, INT64))
        return [run, first, inverse, _insert(lw, tally, counts, [run])]

    _, *outputs = for_loop(lw, m, [lw.constant_index(-1), *outputs], visit)
    sorted_flag = _sorted_flag(lw, op)
    if sorted_flag is not True:
        outputs = _by_first_occurrence(lw, outputs, count, m, sorted_flag)
    first, inverse, counts = outputs
    extras = [first, inverse, counts]
    requested = [v for v, name in zip(extras, UNIQUE_OUTPUTS, strict=True) if op.flag(name)]
    results = [slices.gather(first, count), *requested]
    sinfo = lw.result_sinfo
    types = flat_types(sinfo) if isinstance(sinfo, TupleType) else (flat_types(sinfo)[0],)
    cast = [lw.cast(v, t) for v, t in zip(results, types, strict=True)]
    return cast if len(cast) > 1 else cast[0]


def _axis(lw: Lowerer, op: UniqueOp, rank: int) -> int:
    """The (constant) axis of ``unique``, normalised."""
    assert op.axis is not None
    sinfo = op.axis.type
    assert isinstance(sinfo, PrimType)
    known = sinfo.known_value
    if not isinstance(known, IntImm):
        lw.error(op, "relax.unique: an axis known only at run time cannot be lowered")
    return known.value + rank if known.value < 0 else known.value


def _sorted_flag(lw: Lowerer, op: UniqueOp) -> bool | SSAValue:
    """``sorted`` as a constant, or as an ``i1`` known at run time."""
    sinfo = op.sorted.type
    assert isinstance(sinfo, PrimType)
    known = sinfo.known_value
    if isinstance(known, IntImm | BoolImm):
        return bool(known.value)
    flag = lw.operand(op, 1)
    if flag.type == i1:
        return flag
    return lw.make(arith.CmpiOp, flag, lw.constant(integer_attr(0, flag.type)), "ne")


def _by_first_occurrence(
    lw: Lowerer,
    outputs: list[SSAValue],
    count: SSAValue,
    length: SSAValue,
    sorted_flag: bool | SSAValue,
) -> list[SSAValue]:
    """The sorted ``first, inverse, counts`` reordered by first occurrence (kept when
    ``sorted_flag`` turns out true at run time)."""
    first, inverse, counts = outputs

    def number(position: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
        seen, rank = carried
        run = lw.as_index(extract(lw, inverse, [position]))
        is_first = lw.make(arith.CmpiOp, lw.as_index(extract(lw, first, [run])), position, "eq")
        place = seen if sorted_flag is False else select(lw, sorted_flag, run, seen)
        earlier = extract(lw, rank, [run])
        rank = _insert(lw, select(lw, is_first, _as_i64(lw, place), earlier), rank, [run])
        return [lw.make(arith.AddiOp, seen, lw.as_index(is_first)), rank]

    _, rank = for_loop(lw, length, [lw.constant_index(0), lw.empty(I64, [count])], number)
    moved = [first, counts]

    def move(run: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
        place = lw.as_index(extract(lw, rank, [run]))
        return [
            _insert(lw, extract(lw, v, [run]), out, [place])
            for v, out in zip(moved, carried, strict=True)
        ]

    first, counts = for_loop(lw, count, [lw.empty(I64, [count]) for _ in moved], move)

    def renumber(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        return extract(lw, rank, [lw.as_index(xs[0])])

    return [first, parallel(lw, [inverse], [[0]], [length], I64, renumber), counts]
