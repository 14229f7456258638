"""Convolutions with stride 1 computed in place, without the im2col copy (the tiling schedule's
`compile_module(tile=True)`).

A 2-D convolution ``linalg.conv_2d_nchw_fchw`` with unit column strides (its rows' stride at
most `MOST_STRIDES`) and unit dilations whose sizes are static except the batch is tiled into
register blocks of `block_filters` output channels × ``n`` output columns of one output row
(`RegisterTile`). Both loops are peeled, so the ragged last blocks have static sizes too, and a
ragged block of columns is split into halves (``28 = 16 + 8 + 4``, ``14 = 8 + 4 + 2``,
``7 = 4 + 3``): LLVM turns accumulators of 12 or 14 lanes into shuffles through the stack (a
third of the speed of the whole blocks, measured). Rows whose ragged block is wider than half a
block, and rows narrower than a block, come as a ``linalg.generic`` over the flattened rows
instead (`flat_rows`, marked `FLAT_ROWS`), which the same action blocks, its rows blocks of
positions. The window loops ``kh, kw`` are tiled by one inside blocks of `block_channels` input
channels, and the unit dimensions folded away: what is left is the product of an ``m × C`` slice
of the weights with a ``C × n`` slice of the input (a row of the window's tap, contiguous since
the stride is 1). Its ``C`` loop is tiled by one and vectorised like the contraction schedule's
micro-kernel: each step broadcasts ``m`` weights and multiplies them with ``n`` input values
into the ``m × n`` accumulator, which stays in registers across the channel and window loops
(hoisted by the entry point). The input is read where it is: no im2col matrix, no packing.
Strided columns go through im2col (`convolution`), whose copy gathers them once for all output
channels, unless split into phases first (`phase_split`), and so do output rows narrower than a
block: measured against im2col in one process, the direct form took 0.52× the time on
ResNet-18's 3 × 3 convolutions of 56 × 56 images, 0.86× on 28 × 28, but 1.2× on 14 × 14 and
1.04× on 7 × 7 (and 0.53–0.61× on MobileNetV2's 1 × 1 ones, 56 × 56).
"""

from __future__ import annotations

from ..crash_report import SCHEDULE_REMARK
from . import gate
from .column_strips import halving_sequences, halving_steps
from .convolution import WIDTH as COLUMNS
from .convolution import matcher

FLAT_ROWS = "relax.flat_rows"
"""The attribute marking a convolution over flattened rows (`flat_rows`): a ``linalg.generic``
the direct convolution's action takes as it is."""

MOST_STRIDES = (3, 1)
"""The largest strides (rows, columns) of a convolution taken: a register block reads one input
row whatever the rows' stride (2 and 3 tested), its columns with unit stride (a strided window
split into phases along its columns alone, `phase_split`)."""

BLOCK_WEIGHTS = 256
"""The most weights of a register block per window tap in one pass over the taps
(`block_channels`): the pass's inputs and weights stay in L1."""


def block_filters(registers: int) -> int:
    """Output channels per register block on a host of ``registers`` vector registers: two
    accumulators each (``n`` columns), as many as leave four registers: 14 with AVX-512, 6 with
    AVX2. The products' blocks stop at 8 rows (`tiling.RegisterTile`); ResNet-18's 3 × 3 layers
    took 0.89–0.93× the time in blocks of 14 as in blocks of 8 (12: 0.91–0.98×) on AVX-512
    (same-process A/B, docs/benchmarks.md)."""
    return (registers - 4) // 2


def block_channels(filters: int) -> int:
    """Input channels per pass over the window taps for register blocks of ``filters`` output
    channels: the largest power of two within `BLOCK_WEIGHTS` weights a tap (32 for AVX2's 6
    filters, 16 for AVX-512's 14). With 14 filters, ResNet-18 took 0.97× the time in passes of 16
    channels as of 32 (8: 1.0×, 64: 0.99×; same-process A/B, docs/benchmarks.md); with 6, on AVX2,
    16 and 64 were within ±5% of 32."""
    return 1 << ((BLOCK_WEIGHTS // filters).bit_length() - 1)


UNROLLED_FMAS = 64
"""The most FMAs of an iteration of the block product's channel loop, unrolled
(`channel_unroll`)."""


def channel_unroll(filters: int) -> int:
    """Steps of the block product's channel loop per iteration for register blocks of
    ``filters`` output channels (two FMAs a filter a step): the largest power of two within
    `UNROLLED_FMAS`, 4 for AVX2's 6 filters, 2 for AVX-512's 14. With 6 filters ResNet-18's
    3 × 3 layers took 0.84–0.99× the time of one step per iteration, and 8 steps 1.04–1.2× that
    of 4 (AVX2); with 14, ResNet-18 took 0.97× the time with 2 steps as with 4 (1: 0.98×, 8:
    1.0×; same-process A/B, docs/benchmarks.md)."""
    return 1 << ((UNROLLED_FMAS // (2 * filters)).bit_length() - 1)


IN_TILE = """
  transform.named_sequence @match_direct_convolution_in_tile(%op: !op {transform.readonly})
      -> !op {
    %matched = transform.include @match_direct_convolution failures(propagate) (%op)
        : (!op) -> !op
    %parent = transform.get_parent_op %op : (!op) -> !op
    transform.match.operation_name %parent ["scf.forall"] : !op
    transform.yield %op : !op
  }
"""
"""Matches a convolution already in a tile of its fused epilogue (`epilogue`), an
``scf.forall`` the threads share: its rows are not shared again (a parallel loop nested in
another one leaves, after ``convert-scf-to-openmp``, an ``alloca_scope`` of several blocks
that mlir-opt-22 rejects)."""


def sequences(rows: int, columns: int, threads: int) -> str:
    """The matchers and the actions for register blocks of ``rows`` output channels ×
    ``columns`` output columns, the output rows shared among ``threads`` (but in a tile the
    threads share already; the schedule's ``!op`` and ``!param`` aliases are assumed)."""
    return (
        matcher("match_direct_convolution", min_width=columns, most_strides=MOST_STRIDES)
        + IN_TILE
        + halving_sequences(columns, COLUMNS)
        + _products(channel_unroll(rows))
        + _action("direct_convolution", rows, columns, threads)
        + _action("direct_convolution_in_tile", rows, columns)
    )


def _action(name: str, rows: int, columns: int, threads: int = 0) -> str:
    """The action ``name``: register blocks of ``rows`` output channels × ``columns`` output
    columns, the output rows first split into an ``scf.forall`` of ``threads`` parts (with
    ``threads``); else (in a tile of the epilogue, which holds the result's fill) with the
    fill fused into each block, so that its accumulators start from zeros in registers
    (`ZEROS`)."""
    splits, batch = halving_steps(columns, COLUMNS, "%loops#0")
    split, shared = "", "%generic"
    if threads:
        shared = "%shared"
        split = f"""
    %shared, %threads = transform.structured.tile_using_forall %generic
        num_threads [0, 0, {threads}] : (!op) -> (!op, !op)"""
    return f"""
  transform.named_sequence @{name}(%op: !op {{transform.consumed}}) {{
    transform.debug.emit_remark_at %op, "{SCHEDULE_REMARK}: {name}" : !op
    %generic = transform.structured.generalize %op : (!op) -> !op{split}
    %block, %loops:4 = transform.structured.{"tile_using_for" if threads else "fuse"} {shared}
        tile_sizes [1, {rows}, 1, {columns}] : (!op) -> (!op, !op, !op, !op, !op)
    transform.include @peel failures(suppress) (%loops#3) : (!op) -> ()
    transform.include @peel failures(suppress) (%loops#1) : (!op) -> ()
    transform.apply_patterns to %loops#0 {{
      transform.apply_patterns.canonicalization
    }} : !op
{splits}
    %blocks = transform.structured.match ops{{["linalg.generic"]}} in {batch} : (!op) -> !op
    %tap, %taps:3 = transform.structured.tile_using_for %blocks
        tile_sizes [0, 0, 0, 0, {block_channels(rows)}, 1, 1] : (!op) -> (!op, !op, !op, !op)
    transform.include @peel failures(suppress) (%taps#0) : (!op) -> ()
    transform.apply_patterns to {batch} {{
      transform.apply_patterns.canonicalization
    }} : !op
    %fills = transform.structured.match ops{{["linalg.fill"]}} in {batch} : (!op) -> !op
    %zeros = transform.structured.generalize %fills : (!op) -> !op
    transform.apply_patterns to {batch} {{
      transform.apply_patterns.linalg.fold_unit_extent_dims_via_slices
      transform.apply_patterns.canonicalization
    }} : !op
    %vectorised = transform.foreach_match in {batch}
        @match_zeros -> @vectorise_zeros,{_short_pairs(channel_unroll(rows))}
        @match_block_product -> @vectorise_block_product,
        @match_strip_product -> @vectorise_strip_product : (!op) -> !op
    transform.yield
  }}
"""


def computes(
    strides: tuple[int, ...], dilations: tuple[int, ...], width: int, columns: int
) -> bool:
    """Whether ``match_direct_convolution`` takes a convolution (its sizes static but the batch)
    of these ``strides`` and ``dilations`` whose output rows have ``width`` columns, for
    register blocks of ``columns`` columns."""
    within = all(s <= most for s, most in zip(strides, MOST_STRIDES, strict=True))
    return within and dilations == (1, 1) and width >= columns


def _product_matcher(name: str, loops: int) -> str:
    """The matcher ``name`` of the generics with ``loops`` loops."""
    return f"""
  transform.named_sequence @{name}(%op: !op {{transform.readonly}}) -> !op {{
    transform.match.operation_name %op ["linalg.generic"] : !op{
        gate.measured_equals("transform.match.structured.rank %s", loops)
    }
    transform.yield %op : !op
  }}
"""


ZEROS = """
  transform.named_sequence @match_zeros(%op: !op {transform.readonly}) -> !op {
    transform.match.operation_name %op ["linalg.generic"] : !op
    transform.match.structured %op : !op {
    ^bb0(%s: !op):
      transform.match.structured.dim %s[all] {parallel} : !op
      transform.match.structured.yield
    }
    transform.yield %op : !op
  }

  transform.named_sequence @vectorise_zeros(%op: !op {transform.consumed}) {
    transform.structured.vectorize %op : !op
    transform.yield
  }
"""
"""A block's fill (generalised, its unit loops folded: no reduction loop), vectorised: once the
accumulators are hoisted, reading the zeros it writes folds into a constant. The 1 × 1
convolutions of 16 and 24 channels on MobileNetV2's 112² and 56² images took 0.86–0.88× the
time of blocks reading a row of the result filled in memory (one process, docs/benchmarks.md)."""


def short_loops(unroll: int) -> range:
    """Channel loops of a block product unrolled whole (the 6 channels of ResNet-18's stem split
    into column phases) when the loop is unrolled by ``unroll``: unrolled by ``unroll``, such a
    loop left a loop of its last steps, which kept the accumulators from being hoisted out of
    the window's loops (stored and reloaded at every tap). Whole, the stem took 0.84–0.89× the
    time; 0.95–0.97× that of a loop unrolled by 2 (AVX2's unroll of 4, docs/benchmarks.md)."""
    return range(unroll + 1, 2 * unroll)


def _short_pairs(unroll: int) -> str:
    """The short loops' matchers and actions, first in the block products' ``foreach_match``."""
    return "".join(
        f"""
        @match_block_product_of_{steps} -> @vectorise_block_product_{steps},"""
        for steps in short_loops(unroll)
    )


def _short_product_matcher(steps: int) -> str:
    """The matcher of the block products whose channel loop has ``steps`` steps."""
    return f"""
  transform.named_sequence @match_block_product_of_{steps}(%op: !op {{transform.readonly}})
      -> !op {{
    %matched = transform.include @match_block_product failures(propagate) (%op)
        : (!op) -> !op{gate.measured_equals("transform.match.structured.dim %s[2]", steps)}
    transform.yield %op : !op
  }}
"""


def _vectorise_block(name: str, unroll: int) -> str:
    """The action ``name`` vectorising a block product, ``unroll`` channel steps an iteration."""
    return f"""
  transform.named_sequence @{name}(%op: !op {{transform.consumed}}) {{
    %columns_first = transform.structured.interchange %op iterator_interchange = [1, 0, 2]
        : (!op) -> !op
    %step, %steps = transform.structured.tile_using_for %columns_first tile_sizes [0, 0, 1]
        : (!op) -> (!op, !op)
    transform.structured.vectorize %step : !op
    transform.loop.unroll %steps {{factor = {unroll}}} : !op
    transform.yield
  }}
"""


def _products(unroll: int) -> str:
    """The products left by a register block once its unit loops are folded: ``columns ×
    channels × C`` (its loops ordered columns first, so that the outer-product lowering
    broadcasts the weights), or a strip of one channel or one column (``× C``), each vectorised
    along its ``C`` loop tiled by one (``unroll`` steps of a block per iteration, a loop of
    `short_loops` steps unrolled whole); a single output element is left to the loop lowering;
    and the block's fill (`ZEROS`)."""
    short = short_loops(unroll)
    return (
        ZEROS
        + _product_matcher("match_block_product", 3)
        + "".join(_short_product_matcher(steps) for steps in short)
        + _product_matcher("match_strip_product", 2)
        + _vectorise_block("vectorise_block_product", unroll)
        + "".join(_vectorise_block(f"vectorise_block_product_{steps}", steps) for steps in short)
        + """
  transform.named_sequence @vectorise_strip_product(%op: !op {transform.consumed}) {
    %step, %steps = transform.structured.tile_using_for %op tile_sizes [0, 1]
        : (!op) -> (!op, !op)
    transform.structured.vectorize %step : !op
    transform.yield
  }
"""
    )


def rewrite_step(functions: str, rewritten: str) -> str:
    """The entry point's step rewriting the convolutions of the handle ``functions``, those
    over flattened rows (`flat_rows`, marked, found in the entry point's ``%root``) first (the
    same functions are the handle ``rewritten`` after it)."""
    return f"""
    %flat_rows = transform.structured.match attributes{{{FLAT_ROWS}}} in %root : (!op) -> !op
    transform.foreach %flat_rows : !op {{
    ^bb0(%convolution: !op):
      transform.include @direct_convolution failures(propagate) (%convolution) : (!op) -> ()
    }}
    {rewritten} = transform.foreach_match in {functions}
        @match_direct_convolution_in_tile -> @direct_convolution_in_tile,
        @match_direct_convolution -> @direct_convolution : (!op) -> !op"""
