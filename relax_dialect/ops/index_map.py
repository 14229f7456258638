"""Index maps (TVM's ``tirx.IndexMap``) as MLIR affine maps: ``lambda i, j: (i // 4,
j, i % 4)`` is ``affine_map<(d0, d1) -> (d0 floordiv 4, d1, d0 mod 4)>``.

``fold`` evaluates an affine expression in any domain (NumPy index arrays for the
kernel, ``arith`` values for the lowering, symbolic bounds here); ``map_shape`` is
TVM's ``IndexMap::MapShape``, the shape of the tensor an index map lays a tensor
out into.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import TypeVar

from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)
from xdsl.utils.exceptions import VerifyException

from ..prim_expr import IntImm, PrimExpr, to_text
from ..prim_expr_simplify import prove_equal, simplify

T = TypeVar("T")

Binary = Callable[[AffineBinaryOpKind, T, T], T]
"""Computes ``lhs <kind> rhs`` (``Add``, ``Mul``, ``FloorDiv``, ``Mod``, ``CeilDiv``)."""


def fold(expr: AffineExpr, dims: Sequence[T], constant: Callable[[int], T], binary: Binary[T]) -> T:
    """``expr`` evaluated with dimension ``k`` standing for ``dims[k]``."""
    if isinstance(expr, AffineDimExpr):
        return dims[expr.position]
    if isinstance(expr, AffineConstantExpr):
        return constant(expr.value)
    if isinstance(expr, AffineBinaryOpExpr):
        lhs = fold(expr.lhs, dims, constant, binary)
        return binary(expr.kind, lhs, fold(expr.rhs, dims, constant, binary))
    raise VerifyException(f"an index map has no symbols, got {expr}")


def check_index_map(op_name: str, index_map: AffineMap) -> None:
    """An index map has no symbols, and divides only by positive constants."""
    if index_map.num_symbols:
        raise VerifyException(f"{op_name}: the index map must not have symbols")

    def constant_divisors(expr: AffineExpr) -> bool:
        if not isinstance(expr, AffineBinaryOpExpr):
            return True
        divides = expr.kind in (AffineBinaryOpKind.Mod, AffineBinaryOpKind.FloorDiv)
        if divides and (not isinstance(expr.rhs, AffineConstantExpr) or expr.rhs.value <= 0):
            return False
        return constant_divisors(expr.lhs) and constant_divisors(expr.rhs)

    if not all(constant_divisors(result) for result in index_map.results):
        raise VerifyException(f"{op_name}: the index map divides only by positive constants")


# --- MapShape ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Split:
    """``scale * ((d_dim floordiv lower) mod extent)``: TVM's ``IterSplitExpr``."""

    dim: int
    lower: int
    extent: PrimExpr
    scale: int


Sum = tuple[tuple[Split, ...], int]
"""A sum of splits plus a constant base: TVM's ``IterSumExpr``."""


def _ceildiv(value: PrimExpr, divisor: int) -> PrimExpr:
    """``ceil(value / divisor)`` as TVM's simplifier writes it."""
    return simplify((value - value % IntImm(-divisor)) // IntImm(divisor))


def _iter_sum(expr: AffineExpr, extents: Sequence[PrimExpr]) -> Sum | None:
    """``expr`` as a sum of splits of the input dimensions, or None (a simplified
    version of TVM's ``DetectIterMap``, without checks: ``NoCheck``)."""
    if isinstance(expr, AffineDimExpr):
        return (Split(expr.position, 1, extents[expr.position], 1),), 0
    if isinstance(expr, AffineConstantExpr):
        return (), expr.value
    if not isinstance(expr, AffineBinaryOpExpr):
        return None
    lhs = _iter_sum(expr.lhs, extents)
    rhs = _iter_sum(expr.rhs, extents)
    if lhs is None or rhs is None:
        return None
    kind = expr.kind
    if kind is AffineBinaryOpKind.Add:
        return lhs[0] + rhs[0], lhs[1] + rhs[1]
    if kind is AffineBinaryOpKind.Mul:
        (splits, base), (constant_splits, factor) = (lhs, rhs) if not rhs[0] else (rhs, lhs)
        if constant_splits:
            return None
        return tuple(
            Split(s.dim, s.lower, s.extent, s.scale * factor) for s in splits
        ), base * factor
    if rhs[0] or len(lhs[0]) != 1 or lhs[1] or lhs[0][0].scale != 1:
        return None
    split, divisor = lhs[0][0], rhs[1]
    if kind is AffineBinaryOpKind.FloorDiv:
        extent = _ceildiv(split.extent, divisor)
        return (Split(split.dim, split.lower * divisor, extent, 1),), 0
    if kind is AffineBinaryOpKind.Mod:
        return (Split(split.dim, split.lower, IntImm(divisor), 1),), 0
    return None


def _fuses(splits: Sequence[Split]) -> bool:
    """Whether the splits of one output make one iterator (TVM fuses them): each
    scale, in increasing order, is the previous one times its extent."""
    ordered = sorted(splits, key=lambda s: s.scale)
    return all(
        prove_equal(IntImm(outer.scale), simplify(inner.extent * IntImm(inner.scale)))
        for inner, outer in pairwise(ordered)
    )


def _iter_extent(splits: Sequence[Split]) -> PrimExpr:
    """The extent of the iterator the splits fuse into: the outermost one's extent
    times its scale (1 without any)."""
    if not splits:
        return IntImm(1)
    outer = max(splits, key=lambda s: s.scale)
    return simplify(outer.extent * IntImm(outer.scale))


Interval = tuple[PrimExpr, PrimExpr]


def _interval(expr: AffineExpr, bounds: Sequence[Interval]) -> Interval:
    """The smallest and largest values of ``expr`` when dimension ``k`` ranges over
    ``bounds[k]`` (TVM's ``EvalSet``)."""
    if isinstance(expr, AffineDimExpr):
        return bounds[expr.position]
    if isinstance(expr, AffineConstantExpr):
        return IntImm(expr.value), IntImm(expr.value)
    assert isinstance(expr, AffineBinaryOpExpr)
    kind = expr.kind
    if kind is AffineBinaryOpKind.Add:
        lhs, rhs = _interval(expr.lhs, bounds), _interval(expr.rhs, bounds)
        return simplify(lhs[0] + rhs[0]), simplify(lhs[1] + rhs[1])
    variable, constant = expr.lhs, expr.rhs
    if not isinstance(constant, AffineConstantExpr):
        variable, constant = constant, variable
    assert isinstance(constant, AffineConstantExpr)
    low, high = _interval(variable, bounds)
    factor = IntImm(constant.value)
    if kind is AffineBinaryOpKind.Mul:
        low, high = simplify(low * factor), simplify(high * factor)
        return (low, high) if constant.value >= 0 else (high, low)
    if kind is AffineBinaryOpKind.FloorDiv:
        return simplify(low // factor), simplify(high // factor)
    if kind is AffineBinaryOpKind.CeilDiv:
        return _ceildiv(low, constant.value), _ceildiv(high, constant.value)
    within = (
        isinstance(low, IntImm)
        and isinstance(high, IntImm)
        and low.value >= 0
        and high.value < constant.value
    )
    return (low, high) if within else (IntImm(0), IntImm(constant.value - 1))


def map_shape(op_name: str, index_map: AffineMap, dims: Sequence[PrimExpr]) -> list[PrimExpr]:
    """The shape ``dims`` maps to: per output, the extent of its iterator when every
    output is a sum of splits of the input dimensions that fuse (TVM's preferred
    route), else of its range over the input; every output must start at 0."""
    sums = [_iter_sum(result, dims) for result in index_map.results]
    if all(s is not None and _fuses(s[0]) for s in sums):
        ranges = [(IntImm(s[1]), _iter_extent(s[0])) for s in sums if s is not None]
    else:
        ranges = []
        bounds = [(IntImm(0), simplify(dim - IntImm(1))) for dim in dims]
        for result in index_map.results:
            low, high = _interval(result, bounds)
            ranges.append((low, simplify(high - low + IntImm(1))))
    for low, _ in ranges:
        if not prove_equal(low, IntImm(0)):
            raise VerifyException(
                f"{op_name}: the index map's outputs must start at 0, one starts at {to_text(low)}"
            )
    return [extent for _, extent in ranges]
