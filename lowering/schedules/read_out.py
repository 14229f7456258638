"""A pixels × filters product read out of its blocks, and the element-wise chain after it, shared
among the threads by panels of filters (the tiling schedule's step after the contractions').

An implicit GEMM or a pointwise convolution (`implicit_gemm.replace_by_pixel_product`) leaves
its ``N·OH·OW × F`` product in ``m × n`` blocks, read out into the ``N × F × OH × OW`` result
through ``floordiv``/``mod`` maps, then its epilogue (a bias add, a residual add, a ReLU).
`outer_threads` does not share the read-out (its maps are not projected permutations), so on
two threads it ran on one, and the chain after it passed over the whole result once per
operation. Here the last operation of the chain is tiled
into an ``scf.forall`` of one panel of ``n`` filters per iteration (the threads take whole
panels), and the rest of the chain and the read-out are fused into it, so each panel is read
out and finished while it is in cache. A tile starting at a panel's first filter reads whole
blocks of the product: MLIR's slice of a ``mod`` map is right only then (``f mod n`` over
``[c, c + s)`` is ``[0, s)`` when ``n`` divides ``c`` and ``s ≤ n``), which is why the tile is
one panel and the pixels are never split.
"""

from __future__ import annotations

from xdsl.dialects.builtin import UnitAttr
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineMap

from ..crash_report import SCHEDULE_REMARK

READ_OUT = "relax.read_out"
"""Marks the read-out and every operation of its chain but the last."""
READ_OUT_LAST = "relax.read_out_last"
"""Marks the last operation of a read-out's chain (the read-out, when it has no chain)."""


def mark_read_out(read_out: SSAValue) -> None:
    """Mark the read-out of ``read_out`` and the chain of element-wise operations after it
    (each the only user of the one before, reading it through the identity, of the same shape)
    for the step."""
    last = read_out.owner
    assert isinstance(last, GenericOp)
    while (user := _chained_user(last)) is not None:
        last.attributes[READ_OUT] = UnitAttr()
        last = user
    last.attributes[READ_OUT_LAST] = UnitAttr()


def _chained_user(op: GenericOp) -> GenericOp | None:
    """The element-wise operation that is the only user of ``op``'s result, if any."""
    result = op.results[0]
    user = result.get_user_of_unique_use()
    if not isinstance(user, GenericOp) or user.parent_block() is not op.parent_block():
        return None
    if any(kind.data != IteratorType.PARALLEL for kind in user.iterator_types):
        return None
    if user.res[0].type != result.type:
        return None
    identity = AffineMap.identity(len(user.iterator_types))
    maps = [m.data for m in user.indexing_maps]
    reads = [m for value, m in zip(user.operands, maps, strict=True) if value is result]
    return user if maps[-1] == identity and reads == [identity] else None


def sequences(panel: int) -> str:
    """The step's action for panels of ``panel`` filters (a register tile's ``n``)."""
    return f"""
  transform.named_sequence @share_read_out(%last: !op {{transform.consumed}}) {{
    transform.debug.emit_remark_at %last, "{SCHEDULE_REMARK}: share_read_out" : !op
    %kernel = transform.get_parent_op %last {{op_name = "func.func"}} : (!op) -> !op
    %chain = transform.structured.match attributes{{{READ_OUT}}} in %kernel : (!op) -> !op
    %tiled, %panels = transform.structured.tile_using_forall %last tile_sizes [0, {panel}]
        : (!op) -> (!op, !op)
    %fused, %in = transform.structured.fuse_into_containing_op %chain into %panels
        : (!op, !op) -> (!op, !op)
    transform.yield
  }}
"""


def rewrite_step() -> str:
    """The entry point's step sharing the marked read-outs (found in the entry point's
    ``%root``)."""
    return f"""
    %read_outs = transform.structured.match attributes{{{READ_OUT_LAST}}} in %root
        : (!op) -> !op
    transform.foreach %read_outs : !op {{
    ^bb0(%last: !op):
      transform.include @share_read_out failures(propagate) (%last) : (!op) -> ()
    }}"""
