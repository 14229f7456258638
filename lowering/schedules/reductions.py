"""Reductions along the last loop in vector registers (the tiling schedule's
`compile_module(tile=True)`): softmax's maximum and sum, layer and RMS norm's sums, ``sum``,
``max``, ``mean`` over the last axis.

The loop lowering of such a generic kept its accumulator in memory (a load and a store per
element, LLVM not reordering a float sum: 2 ns an element). A generic of 32-bit elements with
one input, one init, parallel loops and a last reduction loop whose body combines the init
with one operation (``reduction_position``) is tiled to one row (its parallel loops by 1),
then its reduction by `ACCUMULATORS` vector registers of partial results
(``tile_reduction_using_for``): the loop over the row adds (or takes the maximum of...) a
block of the row into the partial results, lane by lane, and a last reduction combines their
lanes. The loop's ragged last block is peeled and stays scalar; the whole blocks are
vectorised, the partial results hoisted into registers. Sums are taken in another order than
the reference's (floats may differ in the last bits); maxima and minima are unchanged.
"""

from __future__ import annotations

from ..crash_report import SCHEDULE_REMARK

ACCUMULATORS = 4
"""Vector registers of partial results: independent chains that hide the add's latency."""
RANKS = range(1, 6)
"""The loop counts of the reductions vectorised."""


def sequences(lanes: int) -> str:
    """The matchers and the actions for blocks of ``ACCUMULATORS × lanes`` elements (the
    schedule's ``!op`` and ``!param`` aliases and `column_strips.PEEL` are assumed)."""
    return "".join(_matcher(rank) + _action(rank, lanes) for rank in RANKS)


def _matcher(rank: int) -> str:
    return f"""
  transform.named_sequence @match_last_axis_reduction_{rank}(%op: !op {{transform.readonly}})
      -> !op {{
    transform.match.operation_name %op ["linalg.generic"] : !op
    %loops, %inputs, %inits, %bits = transform.match.structured failures(propagate) %op
        : (!op) -> (!param, !param, !param, !param) {{
    ^bb0(%s: !op):
      transform.match.structured.dim %s[-1] {{reduction}} : !op
      transform.match.structured.dim %s[except(-1)] {{parallel}} : !op
      transform.match.structured.input %s[all] {{permutation}} : !op
      transform.match.structured.init %s[all] {{projected_permutation}} : !op
      transform.match.structured.body %s {{reduction_position = 0}} : !op
      %l = transform.match.structured.rank %s : (!op) -> !param
      %i = transform.match.structured.num_inputs %s : (!op) -> !param
      %o = transform.match.structured.num_inits %s : (!op) -> !param
      %init = transform.match.structured.init %s[0] : (!op) -> !transform.any_value
      %b = transform.match.structured.elemental_bitwidth %init
          : (!transform.any_value) -> !param
      transform.match.structured.yield %l, %i, %o, %b : !param, !param, !param, !param
    }}
    %rank = transform.param.constant {rank} : i64 -> !param
    %one = transform.param.constant 1 : i64 -> !param
    %word = transform.param.constant 32 : i64 -> !param
    transform.match.param.cmpi eq %loops, %rank : !param
    transform.match.param.cmpi eq %inputs, %one : !param
    transform.match.param.cmpi eq %inits, %one : !param
    transform.match.param.cmpi eq %bits, %word : !param
    transform.yield %op : !op
  }}
"""


def _action(rank: int, lanes: int) -> str:
    rows = rank - 1
    row = f"%row, %rows:{rows}" if rows else "%row"
    loops = ", ".join(["!op"] * (rows + 1))
    tile_rows = (
        f"""
    {row} = transform.structured.tile_using_for %op tile_sizes {[1] * rows + [0]}
        : (!op) -> ({loops})"""
        if rows
        else """
    %row = transform.cast %op : !op to !op"""
    )
    block = [0] * rows + [ACCUMULATORS * lanes]
    return f"""
  transform.named_sequence @reduce_in_vectors_{rank}(%op: !op {{transform.consumed}}) {{
    transform.debug.emit_remark_at %op, "{SCHEDULE_REMARK}: reduce_in_vectors" : !op{tile_rows}
    %fill, %partial, %combine, %blocks = transform.structured.tile_reduction_using_for %row
        by tile_sizes = {block} : (!op) -> (!op, !op, !op, !op)
    transform.include @peel failures(suppress) (%blocks) : (!op) -> ()
    transform.apply_patterns to %blocks {{
      transform.apply_patterns.canonicalization
    }} : !op
    %whole = transform.structured.match ops{{["linalg.generic"]}} in %blocks : (!op) -> !op
    %function = transform.get_parent_op %blocks {{op_name = "func.func"}} : (!op) -> !op
    transform.structured.vectorize %whole : !op
    transform.structured.vectorize %fill : !op
    transform.structured.vectorize %combine : !op
    transform.apply_patterns to %function {{
      transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = "innerreduction"
    }} : !op
    transform.yield
  }}
"""


def rewrite_step(functions: str, rewritten: str) -> str:
    """The entry point's step vectorising the reductions of the handle ``functions`` (the same
    functions are the handle ``rewritten`` after it)."""
    dispatch = ",\n".join(
        f"        @match_last_axis_reduction_{rank} -> @reduce_in_vectors_{rank}" for rank in RANKS
    )
    return f"""
    {rewritten} = transform.foreach_match in {functions}
{dispatch} : (!op) -> !op"""
