"""Steps of the schedule's entry point whose matchers see linalg operations only.

``transform.foreach_match`` tries every matcher of a step on every operation nested in the
functions: once the pools, convolutions and products are vectorised, thousands of vector and
loop operations, each against every matcher (18 for `outer_threads`, 13 for the products), and
each try costs the transform interpreter a scope and its handles. A gated step walks the
functions with one matcher, `MATCH_LINALG`, and runs the step's own matchers and actions on
each linalg operation alone (``foreach_match restrict_root``, the same walk order): the same
actions on the same operations, for about a quarter less of the interpreter's CPU on ResNet-18's
and MobileNetV2's kernel batches (docs/benchmarks.md).
"""

from __future__ import annotations

from collections.abc import Sequence

MATCH_LINALG = """
  transform.named_sequence @match_linalg(%op: !op {transform.readonly}) -> !op {
    transform.match.structured failures(propagate) %op : !op {
    ^bb0(%s: !op):
      transform.match.structured.yield
    }
    transform.yield %op : !op
  }
"""
"""Matches a linalg operation."""


def sequence(step: str, pairs: Sequence[tuple[str, str]]) -> str:
    """The named sequence ``@<step>_each``: the matcher-action ``pairs`` on one operation."""
    dispatch = ",\n".join(f"        @{matcher} -> @{action}" for matcher, action in pairs)
    return f"""
  transform.named_sequence @{step}_each(%op: !op {{transform.consumed}}) {{
    %each = transform.foreach_match restrict_root in %op
{dispatch} : (!op) -> !op
    transform.yield
  }}
"""


def step(step: str, functions: str, rewritten: str) -> str:
    """The entry point's step running ``@<step>_each`` on the linalg operations of the handle
    ``functions`` (the same functions are the handle ``rewritten`` after it)."""
    return f"""
    {rewritten} = transform.foreach_match in {functions}
        @match_linalg -> @{step}_each : (!op) -> !op"""


def measured_equals(query: str, value: int) -> str:
    """A matcher's lines checking that ``query`` (a ``transform.match.structured`` query of
    ``%s``, e.g. ``transform.match.structured.rank %s``) of ``%op`` is ``value``."""
    return f"""
    %measured = transform.match.structured %op : (!op) -> !param {{
    ^bb0(%s: !op):
      %value = {query} : (!op) -> !param
      transform.match.structured.yield %value : !param
    }}
    %wanted = transform.param.constant {value} : i64 -> !param
    transform.match.param.cmpi eq %measured, %wanted : !param"""
