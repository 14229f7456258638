"""``gather`` and ``scatter`` in the forms indexing along one axis takes
(``x[idx]``, ``jnp.take``, ``x.at[idx].add/set/mul/max/min``): ``take`` and
``scatter_nd``. Other dimension numbers are a located error that names them."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Operation, SSAValue

from ...builder import Expr, Shape, call
from . import ops
from .attributes import GatherDimensionNumbers, ScatterDimensionNumbers
from .convert_contractions import permuted
from .convert_shapes import ints, same
from .converter import Converter, converts, refuse


def index_vector(
    cv: Converter, op: Operation, indices: SSAValue, index_vector_dim: int
) -> SSAValue:
    """The indices of one axis: the index vector dimension (of size 1) dropped."""
    dims = cv.relax_dims(indices, op)
    if index_vector_dim == len(dims):
        return indices
    if index_vector_dim != len(dims) - 1 or not same(dims[-1], 1):
        refuse(op, "indexes more than one axis (or not along its last dimension)")
    return cv.emit(call("relax.reshape", indices, Shape(tuple(dims[:-1]))))


@converts(ops.GatherOp)
def gather(cv: Converter, op: Operation) -> Sequence[Expr]:
    numbers = op.properties.get("dimension_numbers")
    if not isinstance(numbers, GatherDimensionNumbers):
        refuse(op, "needs #stablehlo.gather<...> dimension numbers")
    x = cv.value(op.operands[0])
    dims = cv.relax_dims(x, op)
    sizes = ints(op, "slice_sizes")
    start_map, collapsed = numbers.list("start_index_map"), numbers.list("collapsed_slice_dims")
    if (
        numbers.list("operand_batching_dims")
        or len(start_map) != 1
        or tuple(collapsed) != tuple(start_map)
        or sizes[start_map[0]] != 1
        or any(
            not same(s, d)
            for i, (s, d) in enumerate(zip(sizes, dims, strict=True))
            if i != start_map[0]
        )
    ):
        refuse(
            op,
            f"gathers with {numbers}; only whole slices along one axis are supported",
        )
    axis = start_map[0]
    indices = index_vector(cv, op, cv.value(op.operands[1]), numbers.integer("index_vector_dim"))
    batch = len(cv.relax_dims(indices, op))
    taken = cv.emit(call("relax.take", x, indices, axis=axis, mode="clip"))
    offsets = list(numbers.list("offset_dims"))
    rank = batch + len(offsets)
    batch_positions = [p for p in range(rank) if p not in offsets]
    axes = [0] * rank
    for k, position in enumerate(offsets):
        axes[position] = k if k < axis else k + batch
    for j, position in enumerate(batch_positions):
        axes[position] = axis + j
    return [permuted(cv, taken, axes)]


SCATTER_REDUCTIONS = {
    "stablehlo.add": "add",
    "stablehlo.multiply": "mul",
    "stablehlo.maximum": "max",
    "stablehlo.minimum": "min",
}


def scatter_reduction(op: Operation) -> str:
    """How a scatter combines: its body returns the update (``update``) or
    applies one operation to the current value and the update."""
    block = op.regions[0].block
    body = list(block.ops)
    if (
        len(body) == 1
        and isinstance(body[0], ops.ReturnOp)
        and tuple(body[0].operands) == (block.args[1],)
    ):
        return "update"
    if (
        len(body) == 2
        and body[0].name in SCATTER_REDUCTIONS
        and tuple(body[0].operands) == tuple(block.args)
        and isinstance(body[1], ops.ReturnOp)
        and tuple(body[1].operands) == tuple(body[0].results)
    ):
        return SCATTER_REDUCTIONS[body[0].name]
    refuse(op, "has a body other than a set, add, multiply, maximum or minimum")


@converts(ops.ScatterOp)
def scatter(cv: Converter, op: Operation) -> Sequence[Expr]:
    numbers = op.properties.get("scatter_dimension_numbers")
    if not isinstance(numbers, ScatterDimensionNumbers):
        refuse(op, "needs #stablehlo.scatter<...> dimension numbers")
    if len(op.operands) != 3:
        refuse(op, "scatters several operands together")
    reduction = scatter_reduction(op)
    x, indices, updates = (cv.value(o) for o in op.operands)
    inserted, mapped = (
        numbers.list("inserted_window_dims"),
        numbers.list("scatter_dims_to_operand_dims"),
    )
    if numbers.list("input_batching_dims") or len(mapped) != 1 or tuple(inserted) != tuple(mapped):
        refuse(
            op,
            f"scatters with {numbers}; only whole slices along one axis are supported",
        )
    axis = mapped[0]
    rank = len(cv.relax_dims(x, op))
    to_front = [axis] + [i for i in range(rank) if i != axis]
    indices = index_vector(cv, op, indices, numbers.integer("index_vector_dim"))
    column = cv.emit(call("relax.expand_dims", indices, axis=[len(cv.relax_dims(indices, op))]))
    window = list(numbers.list("update_window_dims"))
    update_rank = len(cv.relax_dims(updates, op))
    update_order = [p for p in range(update_rank) if p not in window] + window
    scattered = cv.emit(
        call(
            "relax.scatter_nd",
            permuted(cv, x, to_front),
            column,
            permuted(cv, updates, update_order),
            reduction=reduction,
        )
    )
    back = [to_front.index(i) for i in range(rank)]
    return [permuted(cv, scattered, back)]
