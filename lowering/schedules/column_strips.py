"""Ragged output rows split into static strips: the column loop of a convolution's register
blocks peeled, and a ragged last block split into halves down to `NARROWEST_SPLIT` columns, so
every block has static sizes (no masks) and a width LLVM compiles well (accumulators of 12 or 14
lanes became shuffles through the stack, a third of the speed of whole blocks, measured).
Shared by the direct (`direct_convolution`) and the depthwise (`depthwise`) schedules."""

from __future__ import annotations

NARROWEST_SPLIT = 4
"""Ragged blocks of columns are split down to this width: a rest of 3 columns runs faster as
it is (``vector<6x3xf32>``) than as 2 + 1 (measured on the 7 × 7 images of ResNet-18)."""

PEEL = """
  transform.named_sequence @peel(%loop: !op {transform.readonly}) {
    %for = transform.cast %loop : !op to !transform.op<"scf.for">
    %full, %last = transform.loop.peel %for : (!transform.op<"scf.for">) -> (!op, !op)
    transform.yield
  }
"""
"""Peels the last iteration of an ``scf.for`` (suppress its failure: the loop may be gone)."""


def halvings(columns: int) -> list[int]:
    """The widths ragged column blocks are split into, largest first: halves of ``columns``
    down to `NARROWEST_SPLIT` (12 columns of 16 become 8 + 4, 14 become 8 + 4 + 2, 7 become
    4 + 3)."""
    return [
        columns >> shift
        for shift in range(1, columns.bit_length())
        if columns >> shift >= NARROWEST_SPLIT
    ]


def halving_sequences(columns: int, loop: int) -> str:
    """For each width of `halvings`, a matcher of the generics whose loop ``loop`` has more
    than ``width`` and fewer than ``2 · width`` iterations, and the action splitting them into
    ``width`` columns and the rest."""
    return "".join(_halving(width, loop) for width in halvings(columns))


def _halving(width: int, loop: int) -> str:
    tiles = [0] * loop + [width]
    return f"""
  transform.named_sequence @match_columns_{width}_{2 * width}_at_{loop}(
      %op: !op {{transform.readonly}}) -> !op {{
    transform.match.operation_name %op ["linalg.generic"] : !op
    %columns = transform.match.structured %op : (!op) -> !param {{
    ^bb0(%s: !op):
      %size = transform.match.structured.dim %s[{loop}] : (!op) -> !param
      transform.match.structured.yield %size : !param
    }}
    %low = transform.param.constant {width} : i64 -> !param
    %high = transform.param.constant {2 * width} : i64 -> !param
    transform.match.param.cmpi gt %columns, %low : !param
    transform.match.param.cmpi lt %columns, %high : !param
    transform.yield %op : !op
  }}

  transform.named_sequence @split_columns_{width}_at_{loop}(%op: !op {{transform.consumed}}) {{
    %block, %tiled = transform.structured.tile_using_for %op tile_sizes {tiles}
        : (!op) -> (!op, !op)
    transform.include @peel failures(suppress) (%tiled) : (!op) -> ()
    transform.yield
  }}
"""


def halving_steps(columns: int, loop: int, handle: str) -> tuple[str, str]:
    """The steps splitting the ragged blocks in ``handle`` (a loop holding them) with the
    sequences of `halving_sequences`; and the handle of that loop after them."""
    steps = ""
    for width in halvings(columns):
        split = f"%split_{width}"
        steps += f"""
    {split} = transform.foreach_match in {handle}
        @match_columns_{width}_{2 * width}_at_{loop} -> @split_columns_{width}_at_{loop}
        : (!op) -> !op
    transform.apply_patterns to {split} {{
      transform.apply_patterns.canonicalization
    }} : !op"""
        handle = split
    return steps, handle
