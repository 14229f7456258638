"""Matrix-vector products streamed from their weights (the tiling schedule of `compile_module`).

A product whose left operand is one static row (a classifier's dense layer, ``1 × 512 · 512 ×
1000``) is memory-bound: each weight is used once. The register-tiled schedule (`tiling`) packed
it into ``8 × 32`` blocks of which one row was used and, with the weights as parameters, packed
them on every call (read, written, read again). Here nothing is packed: its weights are read
as ``n × k`` rows (ONNX ``Gemm``'s ``transB`` parameters read through the transpose, constants
stored transposed at compile time, `transposed_operands`), each row along its contiguous
``k``. The columns are shared among the threads (an ``scf.forall``), then taken `ROWS` at a
time; their k loop is split (``tile_reduction_using_for``) into `ROWS` × `LANES` partial sums
in vector registers, a ``ROWS × LANES`` block of the rows and `LANES` of the row vector
multiplied and added to them each step, the sums reduced across their lanes once at the end.
Each output is the same sequence of additions whatever the threads. Ragged rows and depths
are masked. A bias (the kernel's epilogue, `epilogue`) is added in the same tile of columns.
"""

from __future__ import annotations

from ..crash_report import SCHEDULE_REMARK

ROWS = 8
"""Rows of the weights (columns of the result) per block: eight streams read together."""

LANES = 16
"""Partial sums per row: one AVX-512 register of f32 (two AVX2 ones)."""

LOOPS = {"m": 0, "n": 1, "k": 2}
"""The loops of the products taken, as ``linalg.matmul`` and `transposed_operands` order
them."""


def matcher(contraction: str) -> str:
    """``@match_matrix_vector``: a product of the matcher ``contraction`` (one m, n and k
    dimension, no batch one, the float multiply-add body: the one tested) with the loops of
    `LOOPS`, one row and a static depth (the shapes tested: a symbolic size reads as negative;
    the columns are dynamic in a tile of the fused epilogue, and masked), a ``linalg.generic``:
    a ``linalg.matmul`` reads its weights ``k × n``, across their rows (`transposed_operands`
    made a generic of those it reads ``n × k``)."""
    checks = "".join(
        f"""
    %{kind}_loop = transform.param.constant {loop} : i64 -> !param
    transform.match.param.cmpi eq %{kind}, %{kind}_loop : !param"""
        for kind, loop in LOOPS.items()
    )
    return f"""
  transform.named_sequence @match_matrix_vector(%op: !op {{transform.readonly}}) -> !op {{
    %matched = transform.include @{contraction} failures(propagate) (%op) : (!op) -> !op
    transform.match.operation_name %op ["linalg.generic"] : !op
    %m, %n, %k, %rows, %depth = transform.match.structured failures(propagate) %op
        : (!op) -> (!param, !param, !param, !param, !param) {{
    ^bb0(%s: !op):
      %b0, %m0, %n0, %k0 = transform.match.structured.classify_contraction_dims %s
          : (!op) -> (!param, !param, !param, !param)
      %rows0 = transform.match.structured.dim %s[{LOOPS["m"]}] : (!op) -> !param
      %depth0 = transform.match.structured.dim %s[{LOOPS["k"]}] : (!op) -> !param
      transform.match.structured.yield %m0, %n0, %k0, %rows0, %depth0
          : !param, !param, !param, !param, !param
    }}{checks}
    %zero = transform.param.constant 0 : i64 -> !param
    %one = transform.param.constant 1 : i64 -> !param
    transform.match.param.cmpi eq %rows, %one : !param
    transform.match.param.cmpi gt %depth, %zero : !param
    transform.yield %op : !op
  }}
"""


def action(threads: int) -> str:
    """``@tile_matrix_vector``: the matched product's columns shared among ``threads``, in
    blocks of `ROWS` whose k loop accumulates `LANES` partial sums per row."""
    shared = "%op"
    sharing = ""
    if threads:
        shared = "%shared"
        sharing = f"""
    %shared, %threads = transform.structured.tile_using_forall %op
        num_threads [0, {threads}, 0] : (!op) -> (!op, !op)"""
    sizes = f"[1, {ROWS}, {LANES}]"
    return f"""
  transform.named_sequence @tile_matrix_vector(%op: !op {{transform.consumed}}) {{
    transform.debug.emit_remark_at %op, "{SCHEDULE_REMARK}: tile_matrix_vector" : !op{sharing}
    %block, %blocks = transform.structured.tile_using_for {shared}
        tile_sizes [0, {ROWS}, 0] : (!op) -> (!op, !op)
    %fill, %partial, %combine, %steps = transform.structured.tile_reduction_using_for %block
        by tile_sizes = [0, 0, {LANES}] : (!op) -> (!op, !op, !op, !op)
    transform.structured.vectorize %fill vector_sizes {sizes} : !op
    transform.structured.vectorize %partial vector_sizes {sizes} : !op
    transform.structured.vectorize %combine vector_sizes {sizes} : !op
    %function = transform.get_parent_op %steps {{op_name = "func.func"}} : (!op) -> !op
    transform.apply_patterns to %function {{
      transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = "innerreduction"
    }} : !op
    transform.yield
  }}
"""
