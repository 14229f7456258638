"""Sliding windows with few taps per output (grouped convolutions, the depthwise ones that
`depthwise` leaves: strided or dilated; 2-D pooling): the window loops moved outside the
output's spatial loops.

Lowered as written, a depthwise convolution or a pooling window reduces its few taps (3 × 3)
in the innermost loops, reading and writing the same output element each time: scalar code.
With the loops ``n, g, f, c, kh, kw, oh, ow`` (grouped convolution,
``linalg.conv_2d_ngchw_gfchw`` generalised, and the generics of that form the lowering writes
for grouped transposed, integer and converting 2-D convolutions: five parallel loops, three
reductions) or ``n, c, kh, kw, oh, ow`` (a pooling generic:
four parallel loops, then two reductions) the innermost loop runs along an output row and the
rows of the input, which LLVM's loop vectoriser turns into vector code. The sums are taken in
another order (floating-point results may differ in the last bits); maxima are unchanged.
"""

from __future__ import annotations

from ..crash_report import SCHEDULE_REMARK

GROUPED = "linalg.conv_2d_ngchw_gfchw"
GROUPED_ORDER = [0, 1, 2, 5, 6, 7, 3, 4]
"""``n, g, f, oh, ow, c, kh, kw`` → ``n, g, f, c, kh, kw, oh, ow``."""
POOLING_ORDER = [0, 1, 4, 5, 2, 3]
"""``n, c, oh, ow, kh, kw`` → ``n, c, kh, kw, oh, ow``."""


def _windows(parallel: int, reduction: int) -> str:
    """The body of a matcher of generics with ``parallel`` parallel loops then ``reduction``
    reductions, writing their result through a projected permutation."""
    loops = parallel + reduction
    return f"""    %rank = transform.match.structured %op : (!op) -> !param {{
    ^bb0(%s: !op):
      %loops = transform.match.structured.rank %s : (!op) -> !param
      transform.match.structured.dim %s{list(range(parallel))} {{parallel}} : !op
      transform.match.structured.dim %s{list(range(parallel, loops))} {{reduction}} : !op
      transform.match.structured.init %s[0] {{projected_permutation}} : !op
      transform.match.structured.yield %loops : !param
    }}
    %count = transform.param.constant {loops} : i64 -> !param
    transform.match.param.cmpi eq %rank, %count : !param"""


SEQUENCES = f"""
  transform.named_sequence @match_grouped_convolution(%op: !op {{transform.readonly}}) -> !op {{
    transform.match.operation_name %op ["{GROUPED}"] : !op
    transform.yield %op : !op
  }}

  transform.named_sequence @match_grouped_generic(%op: !op {{transform.readonly}}) -> !op {{
    transform.match.operation_name %op ["linalg.generic"] : !op
{_windows(5, 3)}
    transform.yield %op : !op
  }}

  transform.named_sequence @match_pooling(%op: !op {{transform.readonly}}) -> !op {{
    transform.match.operation_name %op ["linalg.generic"] : !op
{_windows(4, 2)}
    transform.yield %op : !op
  }}

  transform.named_sequence @windows_outside_generic(%op: !op {{transform.consumed}}) {{
    %moved = transform.structured.interchange %op iterator_interchange = {GROUPED_ORDER}
        : (!op) -> !op
    transform.yield
  }}

  transform.named_sequence @windows_outside_grouped(%op: !op {{transform.consumed}}) {{
    transform.debug.emit_remark_at %op, "{SCHEDULE_REMARK}: windows_outside" : !op
    %generic = transform.structured.generalize %op : (!op) -> !op
    transform.include @windows_outside_generic failures(propagate) (%generic) : (!op) -> ()
    transform.yield
  }}

  transform.named_sequence @windows_outside_pooling(%op: !op {{transform.consumed}}) {{
    transform.debug.emit_remark_at %op, "{SCHEDULE_REMARK}: windows_outside" : !op
    %moved = transform.structured.interchange %op iterator_interchange = {POOLING_ORDER}
        : (!op) -> !op
    transform.yield
  }}
"""
"""The matchers and the actions (the schedule's ``!op`` and ``!param`` aliases are assumed)."""


def rewrite_step(functions: str, rewritten: str) -> str:
    """The entry point's step reordering the windows of the handle ``functions`` (the same
    functions are the handle ``rewritten`` after it)."""
    return f"""
    {rewritten} = transform.foreach_match in {functions}
        @match_grouped_convolution -> @windows_outside_grouped,
        @match_grouped_generic -> @windows_outside_generic,
        @match_pooling -> @windows_outside_pooling : (!op) -> !op"""
