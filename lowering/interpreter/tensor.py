"""tensor on NumPy arrays, every operation of xDSL's tensor dialect.

Tensors are values: no kernel writes into an operand (``insert`` and ``insert_slice``
copy their destination, except in a loop that owns it: ``in_place``), so results may
share memory with operands. Static and dynamic offsets, sizes and strides mix as in
MLIR; ``tensor.empty`` is zero-filled.
"""

from __future__ import annotations

import math as pymath
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.interpreter import InterpreterFunctions, register_impls

from .core import Env, Kernel, KernelTable
from .in_place import writes_in_place
from .values import dtype_of

KERNELS = KernelTable()
KERNELS.returning(tensor.YieldOp)


def _filled(static: Sequence[int], dynamic: Iterator[Any]) -> list[int]:
    """static with each dynamic entry replaced by the next value of dynamic."""
    return [int(next(dynamic)) if value == DYNAMIC_INDEX else value for value in static]


def _shape_of(op: Any) -> Callable[[Sequence[Any]], tuple[int, ...]]:
    """The shape of op's result from its dynamic sizes."""
    static = tuple(op.results[0].type.get_shape())
    if DYNAMIC_INDEX not in static:
        return lambda sizes: static
    return lambda sizes: tuple(_filled(static, iter(sizes)))


@KERNELS.kernel(tensor.CastOp)
def _cast(op: tensor.CastOp) -> Kernel:
    return lambda value: value


@KERNELS.kernel(tensor.DimOp)
def _dim(op: tensor.DimOp) -> Kernel:
    return lambda value, index: np.int64(value.shape[index])


@KERNELS.kernel(tensor.EmptyOp)
def _empty(op: tensor.EmptyOp) -> Kernel:
    dtype, shape = dtype_of(op.tensor.type), _shape_of(op)
    return lambda *sizes: np.zeros(shape(sizes), dtype)


@KERNELS.kernel(tensor.SplatOp)
def _splat(op: tensor.SplatOp) -> Kernel:
    dtype, shape = dtype_of(op.result.type), _shape_of(op)
    return lambda value, *sizes: np.full(shape(sizes), value, dtype)


@KERNELS.kernel(tensor.FromElementsOp)
def _from_elements(op: tensor.FromElementsOp) -> Kernel:
    dtype = dtype_of(op.result.type)
    shape = op.result.type.get_shape()
    return lambda *elements: np.array(elements, dtype).reshape(shape)


@KERNELS.kernel(tensor.ExtractOp)
def _extract(op: tensor.ExtractOp) -> Kernel:
    return lambda value, *indices: value[tuple(indices)]


@KERNELS.kernel(tensor.InsertOp)
def _insert(op: tensor.InsertOp) -> Kernel:
    copy = not writes_in_place(op)

    def insert(element: Any, destination: np.ndarray, *indices: Any) -> np.ndarray:
        result = destination.copy() if copy else destination
        result[tuple(indices)] = element
        return result

    return insert


@KERNELS.kernel(tensor.CollapseShapeOp)
def _collapse_shape(op: tensor.CollapseShapeOp) -> Kernel:
    groups = [[dim.value.data for dim in group.data] for group in op.reassociation.data]
    return lambda value: value.reshape(
        [pymath.prod(value.shape[dim] for dim in group) for group in groups]
    )


@KERNELS.kernel(tensor.ExpandShapeOp)
def _expand_shape(op: tensor.ExpandShapeOp) -> Kernel:
    static = op.static_output_shape.get_values()
    return lambda value, *sizes: value.reshape(_filled(static, iter(sizes)))


@KERNELS.kernel(tensor.ReshapeOp)
def _reshape(op: tensor.ReshapeOp) -> Kernel:
    return lambda value, shape: value.reshape([int(size) for size in shape])


@KERNELS.kernel(tensor.ConcatOp)
def _concat(op: tensor.ConcatOp) -> Kernel:
    dim = op.dim.value.data
    return lambda *values: np.concatenate(values, axis=dim)


def _slice_index(op: Any, dynamic: Sequence[Any]) -> tuple[slice, ...]:
    """The NumPy index of the slice of an extract_slice or insert_slice."""
    values = iter(dynamic)
    offsets = _filled(op.static_offsets.get_values(), values)
    sizes = _filled(op.static_sizes.get_values(), values)
    strides = _filled(op.static_strides.get_values(), values)
    return tuple(
        slice(offset, offset + (size - 1) * stride + 1 if size else offset, stride)
        for offset, size, stride in zip(offsets, sizes, strides, strict=True)
    )


@KERNELS.kernel(tensor.ExtractSliceOp)
def _extract_slice(op: tensor.ExtractSliceOp) -> Kernel:
    # A rank-reducing slice drops dimensions of static size 1, so the dynamic
    # dimensions of the result are, in order, the dynamic sizes.
    static_shape = op.result.type.get_shape()

    def extract_slice(value: np.ndarray, *dynamic: Any) -> np.ndarray:
        region = value[_slice_index(op, dynamic)]
        return region.reshape(_filled(static_shape, iter(dynamic[len(op.offsets) :])))

    return extract_slice


@KERNELS.kernel(tensor.InsertSliceOp)
def _insert_slice(op: tensor.InsertSliceOp) -> Kernel:
    copy = not writes_in_place(op)

    def insert_slice(source: np.ndarray, destination: np.ndarray, *dynamic: Any) -> np.ndarray:
        result = destination.copy() if copy else destination
        region = result[_slice_index(op, dynamic)]
        region[...] = np.reshape(source, region.shape)
        return result

    return insert_slice


@KERNELS.region_kernel(tensor.PadOp)
def _pad(op: tensor.PadOp, env: Env) -> Kernel:
    runner = env.region(op.region)
    dtype = dtype_of(op.result.type)
    lows = len(op.low)

    def pad(context: Any, source: np.ndarray, *dynamic: Any) -> tuple[np.ndarray]:
        low = _filled(op.static_low.get_values(), iter(dynamic[:lows]))
        high = _filled(op.static_high.get_values(), iter(dynamic[lows:]))
        shape = [size + sum(pads) for size, *pads in zip(source.shape, low, high, strict=True)]
        indices = [
            np.arange(size, dtype=np.int64).reshape(
                [size if d == dim else 1 for d in range(len(shape))]
            )
            for dim, size in enumerate(shape)
        ]
        (value,) = runner(context, indices)
        result = np.empty(shape, dtype)
        result[...] = value
        inner = zip(low, source.shape, strict=True)
        result[tuple(slice(before, before + size) for before, size in inner)] = source
        return (result,)

    return pad


@register_impls
@KERNELS.implement
class TensorFunctions(InterpreterFunctions):
    """tensor on NumPy arrays, for xDSL's interpreter."""
