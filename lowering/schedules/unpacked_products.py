"""Batched products register-tiled in place, without packing (the tiling schedule).

A batched product marked `UNPACKED` (`lowering/unpacked_products.py`: loops ``batch..., m, n,
k``, the left operand read along k and the right one and the result along n in their last
axes, whole register tiles of columns: attention's probabilities · values) is tiled straight
into register blocks: one matrix of the batch at a time (the threads' ``scf.forall``, or the
tile of the threads' loop its fused epilogue made, `tiling.IN_TILE`), strips of the register
tile's rows (the last one peeled and tiled one row at a time: ragged and symbolic rows need no
masks), blocks of the tile's columns, each block's k loop one outer product per step (each
row's left value broadcast, the right operand's row of the block read in place), unrolled by
`tiling.K_UNROLL`. Packing the operands and unpacking the result took about a third of a
96 × 128 × 128 × 64 product's time; a head's operands stay in L1 and L2 read in place
(docs/benchmarks.md).
"""

from __future__ import annotations

from ..crash_report import SCHEDULE_REMARK
from . import gate

UNPACKED = "relax.unpacked_product"
"""The attribute marking a batched product to register-tile in place."""


def _action(batch: int, rows: int, shared: bool) -> str:
    """Splits a marked product with ``batch`` batch dimensions into strips of ``rows`` rows
    (the last one peeled), one matrix of the batch per iteration of the threads' loop
    (``shared``; else the product is one matrix of a tile of that loop already), and tiles
    each strip (`_strip`)."""
    name = f"tile_unpacked_{batch}" + ("" if shared else "_in_tile")
    product = "%product" if shared else "%op"
    if shared:
        split = f"""
    %fill = transform.include @zero_fill_of failures(suppress) (%op) : (!op) -> !op
    %product, %loop = transform.structured.tile_using_forall %op
        tile_sizes {[1] * batch} : (!op) -> (!op, !op)
    %fused, %fused_loop = transform.structured.fuse_into_containing_op %fill into %loop
        : (!op, !op) -> (!op, !op)"""
    else:
        split = """
    %loop = transform.get_parent_op %op {op_name = "scf.forall"} : (!op) -> !op"""
    return f"""
  transform.named_sequence @{name}(%op: !op {{transform.consumed}}) {{
    transform.debug.emit_remark_at %op, "{SCHEDULE_REMARK}: {name}" : !op{split}
    %strip, %strips = transform.structured.tile_using_for {product}
        tile_sizes {[0] * batch + [rows, 0, 0]} : (!op) -> (!op, !op)
    transform.include @peel failures(suppress) (%strips) : (!op) -> ()
    %tiled = transform.foreach_match in %loop
        @match_strip_{batch} -> @tile_strip_{batch}_{rows},
        @match_float_{batch} -> @tile_strip_{batch}_1 : (!op) -> !op
    transform.yield
  }}
"""


def _strip(batch: int, rows: int, columns: int, k_unroll: int) -> str:
    """Tiles a strip of ``rows`` rows (static) into blocks of ``columns`` columns, each block's
    k loop one outer product per step, unrolled by ``k_unroll``."""
    return f"""
  transform.named_sequence @tile_strip_{batch}_{rows}(%op: !op {{transform.consumed}}) {{
    %block, %blocks:2 = transform.structured.tile_using_for %op
        tile_sizes {[0] * batch + [rows, columns, 0]} : (!op) -> (!op, !op, !op)
    %step, %steps = transform.structured.tile_using_for %block
        tile_sizes {[0] * (batch + 2) + [1]} : (!op) -> (!op, !op)
    transform.structured.vectorize %step : !op
    transform.loop.unroll %steps {{factor = {k_unroll}}} : !op
    transform.yield
  }}
"""


def _strip_matcher(batch: int, rows: int) -> str:
    """Matches a product of ``match_float_<batch>`` with ``rows`` rows (a whole strip)."""
    return f"""
  transform.named_sequence @match_strip_{batch}(%op: !op {{transform.readonly}}) -> !op {{
    %matched = transform.include @match_float_{batch} failures(propagate) (%op)
        : (!op) -> !op{gate.measured_equals(f"transform.match.structured.dim %s[{batch}]", rows)}
    transform.yield %op : !op
  }}
"""


FILL_OF = """
  transform.named_sequence @zero_fill_of(%op: !op {transform.readonly}) -> !op {
    %fill = transform.get_producer_of_operand %op[2] : (!op) -> !op
    transform.match.operation_name %fill ["linalg.fill"] : !op
    transform.yield %fill : !op
  }
"""
"""The zero fill of a product's result, fused into the tiles of one matrix: filled whole
first, the result came back from memory (96 heads of 128 × 128 · 128 × 64: 0.66× main's time
with the fill apart, 0.60× with it fused; docs/benchmarks.md)."""


def sequences(rows: int, columns: int, k_unroll: int, batches: int, in_tile: str) -> str:
    """The actions for products of up to ``batches`` batch dimensions in blocks of ``rows ×
    columns``, and the sequence dispatching a marked product to its own (``<matcher><in_tile>``
    for one in a tile of the threads' loop; the schedule's contraction matchers)."""
    text, pairs = "", []
    for batch in range(1, batches + 1):
        text += _action(batch, rows, shared=False) + _action(batch, rows, shared=True)
        text += _strip_matcher(batch, rows) + _strip(batch, rows, columns, k_unroll)
        text += _strip(batch, 1, columns, k_unroll)
        pairs += [
            (f"match_float_{batch}{in_tile}", f"tile_unpacked_{batch}_in_tile"),
            (f"match_float_{batch}", f"tile_unpacked_{batch}"),
        ]
    return FILL_OF + text + gate.sequence("unpacked", pairs)


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
