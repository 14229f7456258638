"""Depthwise convolutions in vector registers (the tiling schedule's `compile_module(tile=True)`).

A depthwise 2-D convolution is the lowering's ``linalg.conv_2d_ngchw_gfchw`` with one input and
one output channel per group (loops ``n, g, f, oh, ow, c, kh, kw``, ``f`` and ``c`` of size 1).
One whose loops other than the batch are static, with unit strides and dilations, is tiled into
strips of `ROWS` output rows × ``columns`` output columns of one channel, and the window taps
``kh, kw`` into single taps: with the unit loops folded, each tap is the strip plus one weight
(broadcast) times a block of the input (consecutive columns), vectorised, the strip an
accumulator that stays in registers across the taps (hoisted by the entry point); once LLVM
unrolls the taps, an input row is loaded once for the taps of the strip's rows that read it.
The channels are shared among the threads (an ``scf.forall``). As in `direct_convolution`, the
row and column loops are peeled and a ragged strip split into halves down to four columns
(`column_strips`: static vectors, no masks); the padding is the padded copy the lowering made
(`padding`), so no strip tests a bound per element. ``linalg::vectorize`` refuses a strip whose
input map is ``2 · ow`` (mlir-opt-22 crashed on the failed action): strided ones are split into
phases on native code's kernels first (`phase_split`), a ``linalg.generic`` marked `PHASED`
with the same loops for one image and one channel (inside the ``scf.forall`` over them that
the threads share), whose taps each read a unit-stride strip of one phase, and get the same
strips (`@depthwise_strips`, without a loop for the threads); elsewhere (a module compiled
whole) they keep the window reordering (`sliding_windows`).
"""

from __future__ import annotations

from ..crash_report import SCHEDULE_REMARK
from .column_strips import halving_sequences, halving_steps
from .convolution import Convolution, matcher

GROUPED = "linalg.conv_2d_ngchw_gfchw"
COLUMNS = 4
"""The loop of the grouped convolution along an output row."""
ROWS = 3
"""Output rows per strip: with unit strides each input row loaded serves up to three taps."""
PHASED = "relax.phased"
"""The attribute marking a depthwise convolution over its input's phases (`phase_split`)."""
DEPTHWISE = Convolution(
    op=GROUPED, static_loops=(1, 2, 3, 4, 5, 6, 7), width=COLUMNS, unit_loops=(2, 5)
)
"""The grouped convolution with static loops but the batch (0) and one output (2) and one
input (5) channel per group."""


def sequences(columns: int, threads: int) -> str:
    """The matcher and the action for strips of ``columns`` output columns, the channels
    shared among ``threads`` (the schedule's ``!op`` and ``!param`` aliases and
    `column_strips.PEEL` are assumed)."""
    splits, strips = halving_steps(columns, COLUMNS, "%loops#0")
    return (
        matcher("match_depthwise", unit_strides=True, convolution=DEPTHWISE)
        + halving_sequences(columns, COLUMNS)
        + f"""
  transform.named_sequence @depthwise(%op: !op {{transform.consumed}}) {{
    transform.debug.emit_remark_at %op, "{SCHEDULE_REMARK}: depthwise" : !op
    %generic = transform.structured.generalize %op : (!op) -> !op
    %shared, %threads = transform.structured.tile_using_forall %generic
        num_threads [0, {threads}] : (!op) -> (!op, !op)
    transform.include @depthwise_strips failures(propagate) (%shared) : (!op) -> ()
    transform.yield
  }}

  transform.named_sequence @depthwise_strips(%op: !op {{transform.consumed}}) {{
    %strip, %loops:4 = transform.structured.tile_using_for %op
        tile_sizes [1, 1, 0, {ROWS}, {columns}] : (!op) -> (!op, !op, !op, !op, !op)
    transform.include @peel failures(suppress) (%loops#3) : (!op) -> ()
    transform.include @peel failures(suppress) (%loops#2) : (!op) -> ()
    transform.apply_patterns to %loops#0 {{
      transform.apply_patterns.canonicalization
    }} : !op
{splits}
    %strips = transform.structured.match ops{{["linalg.generic"]}} in {strips} : (!op) -> !op
    %tap, %taps:2 = transform.structured.tile_using_for %strips
        tile_sizes [0, 0, 0, 0, 0, 0, 1, 1] : (!op) -> (!op, !op, !op)
    transform.apply_patterns to {strips} {{
      transform.apply_patterns.linalg.fold_unit_extent_dims_via_slices
      transform.apply_patterns.canonicalization
    }} : !op
    %vectorised = transform.foreach_match in {strips}
        @match_strip_tap -> @vectorise_strip_tap : (!op) -> !op
    transform.yield
  }}

  transform.named_sequence @match_strip_tap(%op: !op {{transform.readonly}}) -> !op {{
    transform.match.operation_name %op ["linalg.generic"] : !op
    %rank = transform.match.structured %op : (!op) -> !param {{
    ^bb0(%s: !op):
      %loops = transform.match.structured.rank %s : (!op) -> !param
      transform.match.structured.yield %loops : !param
    }}
    %one = transform.param.constant 1 : i64 -> !param
    %two = transform.param.constant 2 : i64 -> !param
    transform.match.param.cmpi ge %rank, %one : !param
    transform.match.param.cmpi le %rank, %two : !param
    transform.yield %op : !op
  }}

  transform.named_sequence @vectorise_strip_tap(%op: !op {{transform.consumed}}) {{
    transform.structured.vectorize %op : !op
    transform.yield
  }}
"""
    )


def rewrite_step(functions: str, rewritten: str) -> str:
    """The entry point's step rewriting the depthwise convolutions of the handle
    ``functions`` (the same functions are the handle ``rewritten`` after it); those split
    into phases are found by their mark (a matcher cannot read an attribute)."""
    return f"""
    {rewritten} = transform.foreach_match in {functions}
        @match_depthwise -> @depthwise : (!op) -> !op
    transform.foreach {rewritten} : !op {{
    ^bb0(%function: !op):
      %phased = transform.structured.match attributes{{{PHASED}}} in %function
          : (!op) -> !op
      transform.foreach %phased : !op {{
      ^bb0(%convolution: !op):
        transform.debug.emit_remark_at %convolution, "{SCHEDULE_REMARK}: depthwise" : !op
        transform.include @depthwise_strips failures(propagate) (%convolution) : (!op) -> ()
      }}
    }}"""
