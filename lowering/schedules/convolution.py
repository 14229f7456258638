"""Convolutions as contractions (the tiling schedule's `compile_module(tile=True)`).

A 2-D convolution ``linalg.conv_2d_nchw_fchw`` (every float convolution with one group, after
the lowering has brought its operands to ``NCHW``/``OIHW`` and padded the data) whose sizes
are static except the batch is rewritten, one image at a time, into *im2col*: the windows of
the image copied into a ``C·KH·KW × OH·OW`` matrix, then the product of the ``F × C·KH·KW``
weight matrix with it. With the image's unit dimension folded away the product is a plain
matrix product, which the contraction schedule then packs, tiles and vectorises; strides and
padding are in the copy's indexing map. Dilated convolutions (MLIR's im2col has no dilation),
convolutions with a symbolic size other than the batch, and grouped or depthwise ones
(``linalg.conv_2d_ngchw_gfchw``, generics) keep the loop lowering.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..crash_report import SCHEDULE_REMARK

CONVOLUTION = "linalg.conv_2d_nchw_fchw"
STATIC_LOOPS = (1, 2, 3, 4, 5, 6)
"""The loops of the convolution whose sizes must be static: all but the batch (0)."""
WIDTH = 3
"""The loop of the convolution along an output row."""


@dataclass(frozen=True)
class Convolution:
    """A named convolution the matchers take: its operation, the loops whose sizes must be
    static, its loop along an output row and the loops that must have size 1."""

    op: str = CONVOLUTION
    static_loops: tuple[int, ...] = STATIC_LOOPS
    width: int = WIDTH
    unit_loops: tuple[int, ...] = ()


def matcher(
    name: str,
    unit_strides: bool = False,
    min_width: int = 0,
    convolution: Convolution = Convolution(),
    most_strides: tuple[int, int] | None = None,
) -> str:
    """The matcher ``name`` of the ``convolution`` (by default `CONVOLUTION`) with static loops
    and no dilation (the rewrites handle neither), unit loops where it says, with unit strides
    if ``unit_strides``, strides at most ``most_strides`` (rows, columns) if given, and output
    rows of at least ``min_width`` columns.
    ``match.structured.dim {static}`` accepts dynamic loops: each size is compared with zero
    instead (a dynamic one is negative)."""
    static = convolution.static_loops
    sizes = ", ".join(f"%s{loop}" for loop in static)
    types = ", ".join(["!param"] * (len(static) + 2))
    dims = "".join(
        f"""
      %s{loop} = transform.match.structured.dim %s[{loop}] : (!op) -> !param"""
        for loop in static
    )
    checks = "".join(
        f"""
    transform.match.param.cmpi ge %sizes#{i}, %zero : !param"""
        for i in range(len(static))
    )
    checks += "".join(
        f"""
    transform.match.param.cmpi eq %sizes#{static.index(loop)}, %one : !param"""
        for loop in convolution.unit_loops
    )
    if min_width:
        checks += f"""
    %min_width = transform.param.constant {min_width} : i64 -> !param
    transform.match.param.cmpi ge %sizes#{static.index(convolution.width)}, %min_width : !param"""
    windows = ["%dilations"] + (["%strides"] if unit_strides else [])
    checks += "".join(
        f"""
    transform.match.param.cmpi eq {window}, %ones : !param"""
        for window in windows
    )
    if most_strides:
        rows, columns = most_strides
        checks += f"""
    %most_rows = transform.param.constant {rows} : i64 -> !param
    %most_columns = transform.param.constant {columns} : i64 -> !param
    %most_strides = transform.merge_handles %most_rows, %most_columns : !param
    transform.match.param.cmpi le %strides, %most_strides : !param"""
    return f"""
  transform.named_sequence @{name}(%op: !op {{transform.readonly}}) -> !op {{
    transform.match.operation_name %op ["{convolution.op}"] : !op
    %sizes:{len(static)}, %strides, %dilations = transform.match.structured %op
        : (!op) -> ({types}) {{
    ^bb0(%s: !op):{dims}
      %b, %o, %c, %f, %i, %d, %stride, %dilation =
          transform.match.structured.classify_convolution_dims %s
          : (!op) -> (!param, !param, !param, !param, !param, !param, !param, !param)
      transform.match.structured.yield {sizes}, %stride, %dilation : {types}
    }}
    %zero = transform.param.constant 0 : i64 -> !param
    %one = transform.param.constant 1 : i64 -> !param
    %ones = transform.merge_handles %one, %one : !param{checks}
    transform.yield %op : !op
  }}
"""


_ACTION = f"""
  transform.named_sequence @im2col(%op: !op {{transform.consumed}}) {{
    transform.debug.emit_remark_at %op, "{SCHEDULE_REMARK}: im2col" : !op
    %image, %images = transform.structured.tile_using_for %op tile_sizes [1]
        : (!op) -> (!op, !op)
    %columns, %product = transform.structured.convert_conv2d_to_img2col %image
        : (!op) -> (!op, !op)
    transform.apply_patterns to %images {{
      transform.apply_patterns.linalg.fold_unit_extent_dims_via_slices
      transform.apply_patterns.canonicalization
    }} : !op
    transform.yield
  }}
"""

SEQUENCES = matcher("match_convolution") + _ACTION
"""The matcher and the action (the schedule's ``!op`` and ``!param`` aliases are assumed)."""


def rewrite_step(functions: str, rewritten: str) -> str:
    """The entry point's step rewriting the convolutions of the handle ``functions`` (the
    same functions are the handle ``rewritten`` after it)."""
    return f"""
    {rewritten} = transform.foreach_match in {functions}
        @match_convolution -> @im2col : (!op) -> !op"""
