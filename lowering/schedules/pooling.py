"""2-D pooling in vector registers, the channels in the lanes (the tiling schedule's
`compile_module(tile=True)`).

The lowering's pooling generic (loops ``n, c, oh, ow, kh, kw``, `lowering/ops/pooling.py`) is
specialised into linalg's ``linalg.pooling_nchw_max`` or ``linalg.pooling_nchw_sum`` (maxima;
the sums of average pooling). One whose channels and output columns are static is tiled into
blocks of ``lanes`` channels × one output row × `COLUMNS` output columns × one window row,
the output rows shared among the threads (an ``scf.forall``); the ragged last blocks are peeled
(static too). Each block is decomposed into a 1-D pooling (``linalg.pooling_ncw_*``), which
``linalg::vectorize`` turns into vector code with the channels in the lanes: the block's input
columns are read whole and transposed in registers, then each output column is the maximum (or
sum) of the window's columns. Strided windows (ResNet's 3 × 3 / 2 max pool) thus need no
strided load, which the vectoriser refuses along a row, and the output stays in registers
across the window's columns (the loop lowering stored every partial maximum through a masked
store, slow on AMD CPUs). Sums are taken in another order than the reference's (floating-point
averages may differ in the last bits); maxima are unchanged. The other pools (a symbolic
channel count or width, reductions linalg has no named pooling for) are generics again for
`sliding_windows`. Native code's kernels take most pools over their window's taps first
(`window_taps`: a parallel generic marked `TAPS`), whose rows the threads share (`pool_taps`).
"""

from __future__ import annotations

from ..crash_report import SCHEDULE_REMARK
from . import gate

POOLS = ("linalg.pooling_nchw_max", "linalg.pooling_nchw_sum")
"""The named poolings the lowering's generics specialise into."""
CHANNELS, WIDTH = 1, 3
"""The loops of the pooling along the channels and along an output row."""
COLUMNS = 4
"""Output columns per block: 4 took 1.28 ms on ResNet's max pool, 8 1.57 ms, 7 1.73 ms (16
channels per block instead of 8: 3.1 ms)."""
POOLED = ("linalg.pooling_ncw_max", "linalg.pooling_ncw_sum")
"""The 1-D poolings a block decomposes into."""
TAPS = "relax.window_taps"
"""The attribute marking a max pool over its window's taps (`window_taps`): a parallel generic
whose output rows (loop 2) the threads share; LLVM's loop vectoriser takes its rows."""


PAIRS = [("match_vector_pooling", "pool_in_vectors"), ("match_named_pooling", "generalise_pooling")]
"""The second step's matchers and actions, tried in order (a gated step, `gate`)."""


def _quoted(names: tuple[str, ...]) -> str:
    return ", ".join(f'"{name}"' for name in names)


def sequences(lanes: int, threads: int) -> str:
    """The matchers and the actions for blocks of ``lanes`` channels, the rows shared among
    ``threads`` (the schedule's ``!op`` and ``!param`` aliases, `column_strips.PEEL` and
    `sliding_windows`' ``@match_pooling`` and `gate.MATCH_LINALG` are assumed)."""
    return f"""
  transform.named_sequence @match_pooling_body(%op: !op {{transform.readonly}}) -> !op {{
    %window = transform.include @match_pooling failures(propagate) (%op) : (!op) -> !op
    transform.match.structured %window : !op {{
    ^bb0(%s: !op):
      transform.match.structured.body %s {{reduction_position = 0}} : !op
      transform.match.structured.yield
    }}
    transform.yield %window : !op
  }}

  transform.named_sequence @specialise_pooling(%op: !op {{transform.consumed}}) {{
    transform.sequence %op : !op failures(suppress) {{
    ^bb0(%generic: !op):
      %named = transform.structured.specialize %generic : (!op) -> !op
    }}
    transform.yield
  }}

  transform.named_sequence @match_named_pooling(%op: !op {{transform.readonly}}) -> !op {{
    transform.match.operation_name %op [{_quoted(POOLS)}] : !op
    transform.yield %op : !op
  }}

  transform.named_sequence @match_vector_pooling(%op: !op {{transform.readonly}}) -> !op {{
    transform.match.operation_name %op [{_quoted(POOLS)}] : !op
    %channels, %columns = transform.match.structured %op : (!op) -> (!param, !param) {{
    ^bb0(%s: !op):
      %c = transform.match.structured.dim %s[{CHANNELS}] : (!op) -> !param
      %w = transform.match.structured.dim %s[{WIDTH}] : (!op) -> !param
      transform.match.structured.yield %c, %w : !param, !param
    }}
    %zero = transform.param.constant 0 : i64 -> !param
    transform.match.param.cmpi ge %channels, %zero : !param
    transform.match.param.cmpi ge %columns, %zero : !param
    transform.yield %op : !op
  }}

  transform.named_sequence @pool_in_vectors(%op: !op {{transform.consumed}}) {{
    transform.debug.emit_remark_at %op, "{SCHEDULE_REMARK}: pool_in_vectors" : !op
    %shared, %threads = transform.structured.tile_using_forall %op
        num_threads [0, 0, {threads}] : (!op) -> (!op, !op)
    %block, %loops:5 = transform.structured.tile_using_for %shared
        tile_sizes [1, {lanes}, 1, {COLUMNS}, 1, 0]
        : (!op) -> (!op, !op, !op, !op, !op, !op)
    transform.include @peel failures(suppress) (%loops#3) : (!op) -> ()
    transform.include @peel failures(suppress) (%loops#1) : (!op) -> ()
    transform.apply_patterns to %loops#0 {{
      transform.apply_patterns.canonicalization
    }} : !op
    %blocks = transform.structured.match ops{{[{_quoted(POOLS)}]}} in %loops#0 : (!op) -> !op
    %rows = transform.structured.decompose %blocks : (!op) -> !op
    transform.structured.vectorize %rows : !op
    transform.yield
  }}

  transform.named_sequence @generalise_pooling(%op: !op {{transform.consumed}}) {{
    %generic = transform.structured.generalize %op : (!op) -> !op
    transform.yield
  }}

  transform.named_sequence @pool_taps(%op: !op {{transform.consumed}}) {{
    transform.debug.emit_remark_at %op, "{SCHEDULE_REMARK}: pool_taps" : !op
    %shared, %threads = transform.structured.tile_using_forall %op
        num_threads [0, 0, {threads}] : (!op) -> (!op, !op)
    transform.yield
  }}
""" + gate.sequence("pool", PAIRS)


def rewrite_step(functions: str, rewritten: str) -> str:
    """The entry point's steps specialising the pooling generics of the handle ``functions``
    and vectorising them, or making them generics again, then sharing the rows of those over
    their taps among the threads, found by their mark (the same functions are the handle
    ``rewritten`` after them)."""
    return (
        f"""
    {rewritten}_named = transform.foreach_match in {functions}
        @match_pooling_body -> @specialise_pooling : (!op) -> !op
"""
        + gate.step("pool", f"{rewritten}_named", rewritten)
        + f"""
    transform.foreach {rewritten} : !op {{
    ^bb0(%function: !op):
      %taps = transform.structured.match attributes{{{TAPS}}} in %function : (!op) -> !op
      transform.foreach %taps : !op {{
      ^bb0(%pool: !op):
        transform.include @pool_taps failures(propagate) (%pool) : (!op) -> ()
      }}
    }}"""
    )
