"""``relax.memory.view`` → an element-wise ``arith.bitcast`` (a conversion between
``bool`` and a byte, whose storage is one byte), then the first elements of the
result laid out in the view's shape. A view changing the size of the elements
is not lowered (a located error)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.ir import SSAValue

from relax_dialect.ops.manipulate import product
from relax_dialect.ops.memory import ViewOp, storage_bytes
from relax_dialect.prim_expr_simplify import prove_equal
from relax_dialect.types import TensorType as RelaxTensor

from ..lowerer import Lowerer
from ..type_conversion import element_type
from . import lowers
from .common import convert, data_type, elementwise, extract_slice, flatten
from .manipulate import reshape, result_of, result_sizes


@lowers(ViewOp)
def lower_view(lw: Lowerer, op: ViewOp) -> SSAValue:
    source = data_type(op.x.type)
    result, type = result_of(lw, op)
    target = result.data_type
    if storage_bytes(source) != storage_bytes(target):
        lw.error(
            op, f"a view of {source} elements as {target} ones (of another size) is not lowered"
        )
    data = op.x.type
    assert isinstance(data, RelaxTensor)

    def body(lw: Lowerer, xs: Sequence[SSAValue]) -> SSAValue:
        if source.is_bool or target.is_bool:
            return convert(lw, xs[0], source, target)
        return lw.make(arith.BitcastOp, xs[0], element_type(target))

    same_shape = RelaxTensor(data.dims, target, data.rank)
    viewed = (
        lw.operand(op, 0) if source == target else elementwise(lw, op, [op.x], body, same_shape)
    )
    if op.shape is None:
        return lw.cast(viewed, type)
    sizes = result_sizes(lw, result, lambda: list(lw.lowered(op.shape)))
    flat = flatten(lw, viewed)
    if (
        data.dims is None
        or result.dims is None
        or not prove_equal(product(data.dims), product(result.dims))
    ):
        count, total = lw.product(sizes), lw.product(lw.dims(op.x))
        fits = lw.make(arith.CmpiOp, count, total, "ule")
        lw.check(fits, op, f"{op.name}: the view reads past the end of the tensor")
        flat = extract_slice(lw, flat, [0], [count], [1])
    return reshape(lw, flat, sizes, type)
