"""linalg on NumPy arrays: every structured operation of xDSL's linalg dialect.

``linalg.generic`` and the named operations (elementwise, ``matmul`` with any indexing
maps, convolutions and pooling with strides and dilations, ...) run on the
iteration-space engine of ``structured.py``; ``fill``, ``copy``, ``transpose`` and
``broadcast`` are direct NumPy calls, ``linalg.reduce`` runs on the engine with the
maps its dimensions imply. On memref operands the outputs are written in place.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from xdsl.dialects.linalg import Linalg
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.interpreter import InterpreterFunctions, register_impls
from xdsl.ir import Operation, Region
from xdsl.ir.affine import AffineDimExpr, AffineMap

from . import arith
from .core import Env, Kernel, KernelTable
from .structured import MAXIMUM, Combiner, StructuredKernel
from .values import dtype_of

KERNELS = KernelTable()
KERNELS.returning(linalg.YieldOp)
KERNELS.provide(linalg.IndexOp)


def _cast_kernel(op: Operation) -> Kernel:
    return arith.KERNELS.plain[type(op)](op)


def _engine(
    op: Operation,
    env: Env,
    maps: Sequence[AffineMap],
    reductions: Sequence[bool],
    body: Region,
    fold: Combiner | None = None,
) -> Kernel:
    index_ops = [inner for inner in body.walk() if isinstance(inner, linalg.IndexOp)]
    runner = env.region(body, [inner.result for inner in index_ops])
    return StructuredKernel(
        op,
        maps,
        reductions,
        len(op.operands) - len(_outputs(op)),
        body.block,
        runner,
        [inner.dim.value.data for inner in index_ops],
        _cast_kernel,
        fold,
    )


def _outputs(op: Operation) -> Sequence[Any]:
    if isinstance(op, LinalgStructuredOperation):
        return op.outputs
    return (op.operands[1],)


_STRUCTURED = [
    op_type
    for op_type in Linalg.operations
    if issubclass(op_type, LinalgStructuredOperation)
    and op_type not in (linalg.FillOp, linalg.CopyOp, linalg.TransposeOp, linalg.PoolingNchwMaxOp)
]


@KERNELS.region_kernel(*_STRUCTURED)
def _structured(op: LinalgStructuredOperation, env: Env) -> Kernel:
    maps = [attribute.data for attribute in op.get_indexing_maps()]
    reductions = [kind.data != IteratorType.PARALLEL for kind in op.get_iterator_types()]
    return _engine(op, env, maps, reductions, op.body)


@KERNELS.region_kernel(linalg.PoolingNchwMaxOp)
def _pooling_max(op: linalg.PoolingNchwMaxOp, env: Env) -> Kernel:
    # xDSL's hidden region takes the maximum of the input and the window operand; in
    # MLIR it is the maximum of the input and the output.
    maps = [attribute.data for attribute in op.get_indexing_maps()]
    reductions = [kind.data != IteratorType.PARALLEL for kind in op.get_iterator_types()]
    return _engine(op, env, maps, reductions, op.body, fold=MAXIMUM)


@KERNELS.region_kernel(linalg.ReduceOp)
def _reduce(op: linalg.ReduceOp, env: Env) -> Kernel:
    rank = len(op.input.type.get_shape())
    dimensions = set(op.dimensions.get_values())
    kept = tuple(AffineDimExpr(dim) for dim in range(rank) if dim not in dimensions)
    maps = [AffineMap.identity(rank), AffineMap(rank, 0, kept)]
    return _engine(op, env, maps, [dim in dimensions for dim in range(rank)], op.region)


def _into_output(op: Operation, compute: Callable[..., np.ndarray]) -> Kernel:
    """A kernel whose result is compute(inputs..., output): returned for a tensor
    output, written into a memref output."""
    dtype = dtype_of(_outputs(op)[0].type)
    if op.results:
        return lambda *operands: compute(dtype, *operands)

    def in_place(*operands: Any) -> tuple[()]:
        operands[-1][...] = compute(dtype, *operands)
        return ()

    return in_place


@KERNELS.kernel(linalg.FillOp)
def _fill(op: linalg.FillOp) -> Kernel:
    return _into_output(op, lambda dtype, value, output: np.full(output.shape, value, dtype))


@KERNELS.kernel(linalg.CopyOp)
def _copy(op: linalg.CopyOp) -> Kernel:
    return _into_output(op, lambda dtype, value, output: np.asarray(value).astype(dtype))


@KERNELS.kernel(linalg.TransposeOp)
def _transpose(op: linalg.TransposeOp) -> Kernel:
    permutation = tuple(op.permutation.get_values())
    return _into_output(
        op, lambda dtype, value, output: np.transpose(value, permutation).astype(dtype, copy=False)
    )


@KERNELS.kernel(linalg.BroadcastOp)
def _broadcast(op: linalg.BroadcastOp) -> Kernel:
    dimensions = op.dimensions.get_values()

    def broadcast(dtype: np.dtype[Any], value: np.ndarray, output: np.ndarray) -> np.ndarray:
        expanded = np.expand_dims(value, dimensions) if dimensions else value
        return np.broadcast_to(expanded, output.shape).astype(dtype, copy=False)

    return _into_output(op, broadcast)


@register_impls
@KERNELS.implement
class LinalgFunctions(InterpreterFunctions):
    """linalg on NumPy arrays, for xDSL's interpreter."""
