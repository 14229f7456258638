"""Kernels of the shape manipulation operators.

Scatters apply their updates in index order, as TVM's kernels do: updates that
hit the same position are combined one after the other (the last ``update``
wins, ``mean`` averages pairwise in order), in as many vectorised rounds as
the most repeated position has updates.

``layout_transform`` scatters every element to the position its index map gives, into
a tensor filled with the pad value.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.ir.affine import AffineBinaryOpKind

from ..dtype import DataType
from ..ops.index_map import fold, map_shape
from ..ops.manipulate import (
    BroadcastToOp,
    CollapseSumLikeOp,
    CollapseSumToOp,
    ConcatOp,
    ExpandDimsOp,
    FlattenOp,
    FlipOp,
    GatherElementsOp,
    GatherNDOp,
    IndexPutOp,
    IndexTensorOp,
    LayoutTransformOp,
    MeshgridOp,
    OneHotOp,
    PermuteDimsOp,
    RepeatOp,
    ReshapeOp,
    ScatterElementsOp,
    ScatterNDOp,
    SliceScatterOp,
    SplitOp,
    SqueezeOp,
    StackOp,
    TileOp,
)
from ..ops.operator import OperatorOp
from ..prim_expr import IntImm, PrimExpr
from ..values import PrimValue, ShapeValue
from . import evaluates
from .common import Kernel, quiet_kernel, result_form

Combine = Callable[[np.ndarray, np.ndarray], np.ndarray]

COMBINE: dict[str, Combine] = {
    "update": lambda old, new: new,
    "add": np.add,
    "mul": np.multiply,
    "mean": lambda old, new: (old + new) / 2,
    # TVM's min/max select the old value only when it compares smaller/larger,
    # so a NaN on either side yields the new value
    "min": lambda old, new: np.where(old < new, old, new),
    "max": lambda old, new: np.where(old > new, old, new),
}


@evaluates(ReshapeOp)
def _reshape(op: ReshapeOp) -> Kernel:
    zeros, inferred = op.placeholders()

    def reshape(x: np.ndarray, shape: ShapeValue) -> np.ndarray:
        dims = list(shape.dims)
        for i in zeros:
            dims[i] = x.shape[i]
        if inferred is not None:
            dims[inferred] = x.size // math.prod(d for d in dims if d > 0)
        return x.reshape(dims)

    return quiet_kernel(op, reshape)


@evaluates(FlattenOp)
def _flatten(op: FlattenOp) -> Kernel:
    return quiet_kernel(op, lambda x: x.reshape(-1))


@evaluates(SqueezeOp)
def _squeeze(op: SqueezeOp) -> Kernel:
    axes = op.squeezed_axes()
    if axes is None:
        axes = op.attr("axis")
    return quiet_kernel(op, lambda x: np.squeeze(x, axes))


WITH_ATTRIBUTE: dict[type[OperatorOp], tuple[Callable[[Any, Any], np.ndarray], str]] = {
    ExpandDimsOp: (np.expand_dims, "axis"),
    PermuteDimsOp: (np.transpose, "axes"),
    FlipOp: (np.flip, "axis"),
    ConcatOp: (np.concatenate, "axis"),
    StackOp: (np.stack, "axis"),
    TileOp: (np.tile, "repeats"),
}
"""The operators computing ``function(operand, attribute)``: the function and the
attribute's name."""


@evaluates(*WITH_ATTRIBUTE)
def _with_attribute(op: OperatorOp) -> Kernel:
    function, name = WITH_ATTRIBUTE[type(op)]
    value = op.attr(name)
    return quiet_kernel(op, lambda operand: function(operand, value))


@evaluates(SplitOp)
def _split(op: SplitOp) -> Kernel:
    spec = op.attr("indices_or_sections")
    axis = op.attr("axis")
    if spec == 1 or spec == ():
        return quiet_kernel(op, lambda x: x)

    def split(x: np.ndarray) -> tuple[np.ndarray, ...]:
        length = x.shape[axis]
        if isinstance(spec, int):
            size = -(-length // spec)
            points = [size * i for i in range(1, spec)]
        else:
            points = list(spec)
        return tuple(np.split(x, np.clip(points, 0, length), axis))

    return split


@evaluates(MeshgridOp)
def _meshgrid(op: MeshgridOp) -> Kernel:
    indexing = op.attr("indexing")
    return lambda tensors: tuple(np.meshgrid(*tensors, indexing=indexing))


@evaluates(BroadcastToOp)
def _broadcast_to(op: BroadcastToOp) -> Kernel:
    return quiet_kernel(op, lambda x, shape: np.broadcast_to(x, shape.dims).copy())


@evaluates(RepeatOp)
def _repeat(op: RepeatOp) -> Kernel:
    repeats, axis = op.attr("repeats"), op.attr("axis")
    return quiet_kernel(op, lambda data: np.repeat(data, repeats, axis))


def collapse_sum(data: np.ndarray, target: tuple[int, ...]) -> np.ndarray:
    """``data`` summed to ``target``, a shape it broadcasts from: leading axes
    are summed away, aligned axes where ``target`` is 1 summed and kept."""
    lead = data.ndim - len(target)
    aligned = data.shape[lead:] if lead >= 0 else ()
    if lead < 0 or any(h != w and w != 1 for h, w in zip(aligned, target, strict=True)):
        raise ValueError(
            f"a tensor of shape {list(data.shape)} does not collapse to {list(target)}"
        )
    kept = [lead + i for i, (h, w) in enumerate(zip(aligned, target, strict=True)) if h != w]
    return data.sum(axis=(*range(lead), *kept), keepdims=True).reshape(target)


@evaluates(CollapseSumLikeOp)
def _collapse_sum_like(op: CollapseSumLikeOp) -> Kernel:
    return quiet_kernel(op, lambda data, target: collapse_sum(data, target.shape))


@evaluates(CollapseSumToOp)
def _collapse_sum_to(op: CollapseSumToOp) -> Kernel:
    return quiet_kernel(op, lambda data, shape: collapse_sum(data, shape.dims))


@evaluates(GatherElementsOp)
def _gather_elements(op: GatherElementsOp) -> Kernel:
    axis = op.attr("axis")

    def gather(data: np.ndarray, indices: np.ndarray) -> np.ndarray:
        coordinates = list(np.indices(indices.shape, sparse=True))
        coordinates[axis] = indices
        return data[tuple(coordinates)]

    return quiet_kernel(op, gather)


@evaluates(GatherNDOp)
def _gather_nd(op: GatherNDOp) -> Kernel:
    batch_dims = op.attr("batch_dims")

    def gather(data: np.ndarray, indices: np.ndarray) -> np.ndarray:
        batch = np.indices(indices.shape[:-1], sparse=True)[:batch_dims]
        return data[(*batch, *np.moveaxis(indices, -1, 0))]

    return quiet_kernel(op, gather)


def scatter_rows(
    rows: np.ndarray, targets: np.ndarray, values: np.ndarray, combine: Combine
) -> None:
    """``rows[targets[i]] = combine(rows[targets[i]], values[i])`` for each
    ``i`` in order, one vectorised round per repetition of a target."""
    if targets.size == 0:
        return
    order = np.argsort(targets, kind="stable")
    ranked = targets[order]
    count = np.arange(targets.size)
    starts = np.maximum.accumulate(np.where(np.r_[True, ranked[1:] != ranked[:-1]], count, 0))
    repetition = np.empty_like(count)
    repetition[order] = count - starts
    for round_ in range(repetition.max() + 1):
        chosen = repetition == round_
        hit = targets[chosen]
        rows[hit] = combine(rows[hit], values[chosen])


@evaluates(ScatterElementsOp)
def _scatter_elements(op: ScatterElementsOp) -> Kernel:
    axis, combine = op.attr("axis"), COMBINE[op.attr("reduction")]

    def scatter(data: np.ndarray, indices: np.ndarray, updates: np.ndarray) -> np.ndarray:
        if indices.shape != updates.shape:
            raise ValueError(
                f"indices of shape {list(indices.shape)} and updates of shape "
                f"{list(updates.shape)} differ"
            )
        coordinates = list(np.indices(indices.shape))
        position = indices.astype(np.int64)
        coordinates[axis] = np.where(position < 0, position + data.shape[axis], position)
        targets = np.ravel_multi_index(tuple(coordinates), data.shape).reshape(-1)
        out = data.copy()
        scatter_rows(out.reshape(-1, 1), targets, updates.reshape(-1, 1), combine)
        return out

    return quiet_kernel(op, scatter)


@evaluates(ScatterNDOp)
def _scatter_nd(op: ScatterNDOp) -> Kernel:
    combine = COMBINE[op.attr("reduction")]

    def scatter(data: np.ndarray, indices: np.ndarray, updates: np.ndarray) -> np.ndarray:
        depth = indices.shape[-1]
        expected = (*indices.shape[:-1], *data.shape[depth:])
        if updates.shape != expected:
            raise ValueError(f"updates have shape {list(updates.shape)}, expected {list(expected)}")
        coordinates = tuple(np.moveaxis(indices, -1, 0).astype(np.int64))
        addressed = data.shape[:depth]
        targets = (
            np.ravel_multi_index(coordinates, addressed)
            if depth
            else np.zeros(indices.shape[:-1], dtype=np.intp)
        )
        out = data.copy()
        rows = out.reshape(math.prod(addressed), math.prod(data.shape[depth:]))
        scatter_rows(rows, targets.reshape(-1), updates.reshape(targets.size, -1), combine)
        return out

    return quiet_kernel(op, scatter)


def check_positions(indices: np.ndarray, extent: int, axis: int) -> None:
    """Every index lies in ``[0, extent)`` (an ``IndexError`` otherwise)."""
    if indices.size and (indices.min() < 0 or indices.max() >= extent):
        raise IndexError(f"an index is outside axis {axis} of length {extent}")


@evaluates(IndexTensorOp)
def _index_tensor(op: IndexTensorOp) -> Kernel:
    def gather(data: np.ndarray, indices: tuple[np.ndarray, ...]) -> np.ndarray:
        for axis, index in enumerate(indices):
            check_positions(index, data.shape[axis], axis)
        return data[indices]

    return quiet_kernel(op, gather)


@evaluates(IndexPutOp)
def _index_put(op: IndexPutOp) -> Kernel:
    combine = COMBINE["add" if op.attr("accumulate") else "update"]

    def put(data: np.ndarray, indices: object, values: np.ndarray) -> np.ndarray:
        given = indices if isinstance(indices, tuple) else (indices,)
        if not given or len(given) != data.ndim:
            raise ValueError(
                f"{len(given)} index tensors for data of {data.ndim} dimensions "
                "(TVM builds one per axis, at least one)"
            )
        coordinates = []
        for axis, index in enumerate(np.broadcast_arrays(*given)):
            wrapped = np.where(index < 0, index + data.shape[axis], index).reshape(-1)
            check_positions(wrapped, data.shape[axis], axis)
            coordinates.append(wrapped)
        if values.size != coordinates[0].size:
            raise ValueError(f"{values.size} values for {coordinates[0].size} indexed positions")
        out = data.copy()
        targets = np.ravel_multi_index(tuple(coordinates), data.shape)
        scatter_rows(out.reshape(-1, 1), targets, values.reshape(-1, 1), combine)
        return out

    return quiet_kernel(op, put)


@evaluates(SliceScatterOp)
def _slice_scatter(op: SliceScatterOp) -> Kernel:
    axis = op.attr("axis")

    def scatter(
        data: np.ndarray, src: np.ndarray, start: PrimValue, end: PrimValue, step: PrimValue
    ) -> np.ndarray:
        first, last, stride = int(start.value), int(end.value), int(step.value)
        if stride < 1 or last < first:
            raise ValueError(f"the slice {first}:{last}:{stride} is empty or backward")
        expected = list(data.shape)
        expected[axis] = (last - first + stride - 1) // stride
        if list(src.shape) != expected:
            raise ValueError(f"src has shape {list(src.shape)}, expected {expected}")
        extent = data.shape[axis]
        positions = np.arange(extent)
        hit = positions[
            (positions >= first) & (positions < last) & ((positions - first) % stride == 0)
        ]
        out = data.copy()
        sources = np.clip((hit - first) // stride, 0, extent - 1)
        np.moveaxis(out, axis, 0)[hit] = np.moveaxis(src, axis, 0)[sources]
        return out

    return quiet_kernel(op, scatter)


@evaluates(OneHotOp)
def _one_hot(op: OneHotOp) -> Kernel:
    depth, axis = op.attr("depth"), op.attr("axis")

    def one_hot(indices: np.ndarray, on: PrimValue, off: PrimValue) -> np.ndarray:
        hit = np.moveaxis(indices[..., np.newaxis] == np.arange(depth), -1, axis)
        return np.where(hit, on.value, off.value)

    return quiet_kernel(op, one_hot)


AFFINE_NUMPY: dict[AffineBinaryOpKind, Combine] = {
    AffineBinaryOpKind.Add: np.add,
    AffineBinaryOpKind.Mul: np.multiply,
    AffineBinaryOpKind.FloorDiv: np.floor_divide,
    AffineBinaryOpKind.Mod: np.mod,
    AffineBinaryOpKind.CeilDiv: lambda a, b: -np.floor_divide(-a, b),
}
"""The affine operations on index arrays (``mod`` and the divisions round down)."""


def size_of(dim: PrimExpr) -> int:
    """A dimension computed from static sizes."""
    assert isinstance(dim, IntImm)
    return dim.value


@evaluates(LayoutTransformOp)
def _layout_transform(op: LayoutTransformOp) -> Kernel:
    index_map = op.affine_map()
    form = result_form(op)

    def layout_transform(x: np.ndarray) -> object:
        out_shape = [
            size_of(d) for d in map_shape(op.name, index_map, [IntImm(n) for n in x.shape])
        ]
        indices = list(np.indices(x.shape, dtype=np.int64))
        positions = [
            fold(result, indices, np.int64, lambda kind, a, b: AFFINE_NUMPY[kind](a, b))
            for result in index_map.results
        ]
        positions = [np.broadcast_to(p, x.shape) for p in positions]
        try:
            flat = np.ravel_multi_index(positions, out_shape)
        except ValueError:
            message = f"{op.name}: the index map sends an element outside the result"
            raise ValueError(message) from None
        if np.unique(flat).size != flat.size:
            raise ValueError(f"{op.name}: the index map sends two elements to one position")
        out = np.full(out_shape, op.padding(DataType.from_numpy(x.dtype)), x.dtype)
        out.reshape(-1)[flat.reshape(-1)] = x.reshape(-1)
        return form(out)

    return layout_transform
