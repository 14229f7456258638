"""Batched products register-tiled in place, without packing (the tiling schedule).

A batched product marked `UNPACKED` (`lowering/unpacked_products.py`: its rows and columns
whole register tiles, its operands and result in row-major ``(batch..., rows, depth)``,
``(batch..., depth, columns)`` and ``(batch..., rows, columns)`` layouts, as attention's two
products are) is tiled straight into blocks of the register tile: one matrix of the batch at a
time (the threads' ``scf.forall``, or the tile of the threads' loop its fused epilogue already
made, `tiling.IN_TILE`), then panels of columns outside blocks of rows, each block's k loop
one outer product per step (a broadcast of each row's left value, the right operand's row of
the panel read in place), unrolled by `tiling.K_UNROLL`. Packing the operands and unpacking
the result took more than a third of a 12 × 128 × 128 × 64 product's time; the blocks of
such small matrices stay in the caches read in place (docs/benchmarks.md).
"""

from __future__ import annotations

from ..crash_report import SCHEDULE_REMARK
from . import gate

UNPACKED = "relax.unpacked_product"
"""The attribute marking a batched product to register-tile in place."""


def _action(batch: int, rows: int, columns: int, k_unroll: int, shared: bool) -> str:
    """Tiles a marked product with ``batch`` batch dimensions into ``rows × columns`` blocks,
    one matrix of the batch per iteration of the threads' loop (``shared``; else the product
    is one matrix of a tile of that loop already)."""
    name = f"tile_unpacked_{batch}" + ("" if shared else "_in_tile")
    op = "%op"
    sharing = ""
    if shared:
        op = "%shared"
        sharing = f"""
    %shared, %threads = transform.structured.tile_using_forall %op
        tile_sizes {[1] * batch} : (!op) -> (!op, !op)"""
    rows_loop, columns_loop, depth_loop = batch, batch + 1, batch + 2
    return f"""
  transform.named_sequence @{name}(%op: !op {{transform.consumed}}) {{
    transform.debug.emit_remark_at %op, "{SCHEDULE_REMARK}: {name}" : !op{sharing}
    %block, %blocks:{batch + 2} = transform.structured.tile_using_for {op}
        tile_sizes {[1] * batch + [rows, columns, 0]}
        interchange = {[*range(batch), columns_loop, rows_loop, depth_loop]}
        : (!op) -> (!op{", !op" * (batch + 2)})
    %step, %steps = transform.structured.tile_using_for %block
        tile_sizes {[0] * (batch + 2) + [1]} : (!op) -> (!op, !op)
    transform.structured.vectorize %step : !op
    transform.loop.unroll %steps {{factor = {k_unroll}}} : !op
    transform.yield
  }}
"""


def sequences(rows: int, columns: int, k_unroll: int, batches: int, in_tile: str) -> str:
    """The actions for products of up to ``batches`` batch dimensions and the sequence
    dispatching a marked product to its own (``<matcher><in_tile>`` for one in a tile of the
    threads' loop, the schedule's contraction matchers)."""
    actions, pairs = "", []
    for batch in range(1, batches + 1):
        actions += _action(batch, rows, columns, k_unroll, shared=False)
        actions += _action(batch, rows, columns, k_unroll, shared=True)
        pairs += [
            (f"match_float_{batch}{in_tile}", f"tile_unpacked_{batch}_in_tile"),
            (f"match_float_{batch}", f"tile_unpacked_{batch}"),
        ]
    return actions + gate.sequence("unpacked", pairs)


def rewrite_step(functions: str) -> str:
    """The entry point's step tiling the marked products in the functions of the handle
    ``functions`` (the same handle after it)."""
    return f"""
    transform.foreach {functions} : !op {{
    ^bb0(%function: !op):
      %unpacked = transform.structured.match attributes{{{UNPACKED}}} in %function
          : (!op) -> !op
      transform.foreach %unpacked : !op {{
      ^bb0(%product: !op):
        transform.include @unpacked_each failures(propagate) (%product) : (!op) -> ()
      }}
    }}"""
