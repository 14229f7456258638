"""Padding as a fill and a copy that the loop lowering compiles.

Bufferized as is, ``tensor.pad`` becomes a fill and a ``memref.copy`` of the data into a
strided view of the result, which the LLVM lowering can only hand to the runtime's generic
``memrefCopy`` (an element at a time, strides recomputed for each): most of the time of a
depthwise convolution went there. Rewritten into destination-passing style (``tensor.empty``,
``linalg.fill``, ``tensor.insert_slice``) and the insertion into a ``linalg.copy``, the copy is
loops whose innermost one LLVM vectorises.
"""

from __future__ import annotations

from ..crash_report import SCHEDULE_REMARK

SEQUENCES = f"""
  transform.named_sequence @match_pad(%op: !op {{transform.readonly}}) -> !op {{
    transform.match.operation_name %op ["tensor.pad"] : !op
    transform.yield %op : !op
  }}

  transform.named_sequence @pad_as_copy(%op: !op {{transform.consumed}}) {{
    transform.debug.emit_remark_at %op, "{SCHEDULE_REMARK}: pad_as_copy" : !op
    %inserted = transform.structured.rewrite_in_destination_passing_style %op
        : (!op) -> !op
    %copy = transform.structured.insert_slice_to_copy %inserted : (!op) -> !op
    transform.yield
  }}
"""
"""The matcher and the action (the schedule's ``!op`` alias is assumed)."""


def rewrite_step(functions: str, rewritten: str) -> str:
    """The entry point's step rewriting the pads of the handle ``functions`` (the same
    functions are the handle ``rewritten`` after it)."""
    return f"""
    {rewritten} = transform.foreach_match in {functions}
        @match_pad -> @pad_as_copy : (!op) -> !op"""
