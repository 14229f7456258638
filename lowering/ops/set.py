"""Set operators → two phases, as MLIR computes data-dependent shapes: count the
result's length, allocate the result (``tensor.empty`` of the counted size), fill
it in an ``scf.for``.

``nonzero`` counts with a reduction ``linalg.generic``, then walks the elements in
row-major order carrying the next free column: each element's coordinates are
written there, and the column advances past a non-zero element. The writes are
unconditional (a zero element's coordinates land where the next non-zero one
goes, or in one scratch column past the end that the result leaves out), so the
loop updates its tensor in place.

``unique`` (flattened) sorts the elements (``sorting.py``'s network: ascending,
stable, NaN last; NaNs count as one value, ``-0.0`` equals ``0.0``, as NumPy), counts
the runs of equal values, then walks the sorted elements carrying the run number:
each run's value, its first index (the stable sort puts it first), its count, and
every element's run (the inverse). In order of first occurrence (``sorted`` false,
or unknown until run time), a walk over the input numbers the runs in the order
their first elements appear, and the outputs are permuted accordingly.
``unique`` along an axis is a located error.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType, i1, i64
from xdsl.ir import SSAValue

from relax_dialect.dtype import BOOL, INT64, DataType
from relax_dialect.ops.set import UNIQUE_OUTPUTS, NonzeroOp, UniqueOp
from relax_dialect.prim_expr import BoolImm, IntImm
from relax_dialect.types import PrimType, TupleType

from ..building import integer_attr
from ..lowerer import Lowerer
from ..type_conversion import element_type, flat_types
from . import lowers
from .common import (
    constant,
    coordinates,
    data_type,
    extract,
    extract_slice,
    fill,
    flatten,
    for_loop,
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


class Runs:
    """The runs of equal values of a sorted 1-D tensor of ``dtype``."""

    def __init__(self, lw: Lowerer, values: SSAValue, dtype: DataType):
        self.lw, self.values, self.dtype = lw, values, dtype

    def starts(self, i: SSAValue) -> SSAValue:
        """Whether a run starts at ``i``: the first element, or one unlike its predecessor."""
        lw = self.lw
        zero, one = lw.constant_index(0), lw.constant_index(1)
        previous = lw.make(arith.MaxSIOp, lw.make(arith.SubiOp, i, one), zero)
        a, b = extract(lw, self.values, [i]), extract(lw, self.values, [previous])
        first = lw.make(arith.CmpiOp, i, zero, "eq")
        return lw.make(arith.OrIOp, first, self._differ(a, b))

    def _differ(self, a: SSAValue, b: SSAValue) -> SSAValue:
        lw = self.lw
        if not self.dtype.is_float:
            return lw.make(arith.CmpiOp, a, b, "ne")
        unequal = lw.make(arith.CmpfOp, a, b, "une")
        both_nan = lw.make(
            arith.AndIOp, lw.make(arith.CmpfOp, a, a, "uno"), lw.make(arith.CmpfOp, b, b, "uno")
        )
        return lw.make(
            arith.AndIOp, unequal, lw.make(arith.XOrIOp, both_nan, constant(lw, True, BOOL))
        )

    def count(self, length: SSAValue) -> SSAValue:
        """The number of runs among the first ``length`` elements."""
        lw = self.lw

        def visit(i: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
            return [lw.make(arith.AddiOp, carried[0], lw.as_index(self.starts(i)))]

        return for_loop(lw, length, [lw.constant_index(0)], visit)[0]


@lowers(UniqueOp)
def lower_unique(lw: Lowerer, op: UniqueOp) -> SSAValue | list[SSAValue]:
    if op.axis is not None:
        lw.error(op, "relax.unique along an axis cannot be lowered")
    dtype = data_type(op.x.type)
    flat = flatten(lw, lw.operand(op, 0))
    length = lw.product(lw.dims(op.x))
    values, order = Network(lw, flat, [length], 0, dtype, descending=False).sort()
    runs = Runs(lw, values, dtype)
    count = runs.count(length)
    element = element_type(dtype)
    zero = constant(lw, 0, INT64)
    outputs = [
        lw.empty(TensorType(element, [DYNAMIC_INDEX]), [count]),
        lw.empty(I64, [count]),
        lw.empty(I64, [length]),
        fill(lw, zero, lw.empty(I64, [count])),
    ]

    def visit(i: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
        run, unique, first, inverse, counts = carried
        start = runs.starts(i)
        run = lw.make(arith.AddiOp, run, lw.as_index(start))
        index = extract(lw, order, [i])
        unique = _insert(lw, extract(lw, values, [i]), unique, [run])
        earlier = extract(lw, first, [run])
        first = _insert(lw, select(lw, start, index, earlier), first, [run])
        inverse = _insert(lw, _as_i64(lw, run), inverse, [lw.as_index(index)])
        tally = lw.make(arith.AddiOp, extract(lw, counts, [run]), constant(lw, 1, INT64))
        return [run, unique, first, inverse, _insert(lw, tally, counts, [run])]

    _, *outputs = for_loop(lw, length, [lw.constant_index(-1), *outputs], visit)
    sorted_flag = _sorted_flag(lw, op)
    if sorted_flag is not True:
        outputs = _by_first_occurrence(lw, outputs, count, length, sorted_flag)
    unique, first, inverse, counts = outputs
    extras = [first, inverse, counts]
    results = [
        unique,
        *(v for v, name in zip(extras, UNIQUE_OUTPUTS, strict=True) if op.flag(name)),
    ]
    sinfo = lw.result_sinfo
    types = flat_types(sinfo) if isinstance(sinfo, TupleType) else (flat_types(sinfo)[0],)
    cast = [lw.cast(v, t) for v, t in zip(results, types, strict=True)]
    return cast if len(cast) > 1 else cast[0]


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
    """The sorted ``unique, first, inverse, counts`` reordered by first occurrence
    (kept when ``sorted_flag`` turns out true at run time)."""
    unique, first, inverse, counts = outputs

    def number(position: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
        seen, rank = carried
        run = lw.as_index(extract(lw, inverse, [position]))
        is_first = lw.make(arith.CmpiOp, lw.as_index(extract(lw, first, [run])), position, "eq")
        place = seen if sorted_flag is False else select(lw, sorted_flag, run, seen)
        earlier = extract(lw, rank, [run])
        rank = _insert(lw, select(lw, is_first, _as_i64(lw, place), earlier), rank, [run])
        return [lw.make(arith.AddiOp, seen, lw.as_index(is_first)), rank]

    ranks = lw.empty(I64, [count])
    _, rank = for_loop(lw, length, [lw.constant_index(0), ranks], number)
    moved = [unique, first, counts]

    def move(run: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
        place = lw.as_index(extract(lw, rank, [run]))
        return [
            _insert(lw, extract(lw, v, [run]), out, [place])
            for v, out in zip(moved, carried, strict=True)
        ]

    empties = [lw.empty(v.type, [count]) for v in moved]
    unique, first, counts = for_loop(lw, count, empties, move)
    renumbered = parallel(
        lw, [inverse], [[0]], [length], I64, lambda lw, xs: extract(lw, rank, [lw.as_index(xs[0])])
    )
    return [unique, first, renumbered, counts]
