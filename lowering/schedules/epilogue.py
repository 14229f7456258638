"""Epilogues fused into their contraction's tiles (the tiling schedule of `compile_module`).

A kernel (`kernels.py`) holds a contraction and its epilogue, the chain of element-wise
operations consuming its result, the last of which carries `EPILOGUE`. IREE's way: the last
operation is tiled into an ``scf.forall`` (the threads' loop) and the chain, the contraction
and its fill are fused into each tile (``transform.structured.fuse``: producers computed on
the slices the tile reads), so that each tile of the contraction's result is finished while
it is in cache instead of the chain passing over the whole result once per operation. The
contraction's tile is then scheduled as a contraction on its own (the register-tiled product,
or the direct convolution). The tiles:

* a matrix product (one m, one n and one k dimension, no batch): all its rows × one cache
  tile of columns (`tiling.CACHE_TILE`, 256), which the contraction schedule then packs and
  register-tiles. Tiling the rows too repacked the right operand once per block of rows:
  1.15× the time of the unfused kernel on 128 × 768 × 3,072 with GELU, against 0.83× for
  columns alone (measured in one process);
* a direct convolution (`direct_convolution`): one output row of every channel of one image,
  which the direct schedule then register-blocks (its operands stay read in place).

Other contractions (batched products, im2col convolutions, whose copy would be repeated per
tile, pooling, reductions) keep the epilogue in their kernel as loops after the contraction.
"""

from __future__ import annotations

from ..crash_report import SCHEDULE_REMARK

EPILOGUE = "relax.epilogue"
"""The attribute marking the last operation of a kernel's epilogue (`kernels.py`)."""


FORALL = " {use_forall}"
"""The tiles' loop an ``scf.forall``: the threads' loop (a direct convolution's rows)."""
FOR = ""
"""The tiles' loop an ``scf.for``: a product's tile holds the threads' loop (`tiling`: its
columns split between the threads), so that every tile runs on all of them."""


def _action(name: str, tile_sizes: list[int], loop: str) -> str:
    """The action ``name`` fusing the epilogue of the matched contraction's kernel into tiles
    of ``tile_sizes`` (over the result's dimensions) of a ``loop`` (`FORALL` or `FOR`);
    nothing where the kernel has no marked epilogue (none, or one behind a reshape)."""
    return f"""
  transform.named_sequence @{name}(%op: !op {{transform.readonly}}) {{
    %kernel = transform.get_parent_op %op {{op_name = "func.func"}} : (!op) -> !op
    %last = transform.structured.match attributes{{{EPILOGUE}}} in %kernel : (!op) -> !op
    transform.debug.emit_remark_at %last, "{SCHEDULE_REMARK}: {name}" : !op
    %tiled, %loop = transform.structured.fuse %last tile_sizes {tile_sizes}{loop}
        : (!op) -> (!op, !op)
    transform.yield
  }}
"""


def _matcher(name: str, contraction: str) -> str:
    """The matcher ``name`` of the operations ``contraction`` matches that are in a function's
    body (not yet in a tile: each tile's contraction is the same operation)."""
    return f"""
  transform.named_sequence @{name}(%op: !op {{transform.readonly}}) -> !op {{
    %matched = transform.include @{contraction} failures(propagate) (%op) : (!op) -> !op
    %parent = transform.get_parent_op %op : (!op) -> !op
    transform.match.operation_name %parent ["func.func"] : !op
    transform.yield %op : !op
  }}
"""


MATCHERS = {
    "match_untiled_convolution": "match_direct_convolution",
    "match_untiled_float_product": "match_float_0",
    "match_untiled_int_product": "match_int_0",
}
ACTIONS = {
    "match_untiled_convolution": "fuse_convolution_epilogue",
    "match_untiled_float_product": "fuse_product_epilogue",
    "match_untiled_int_product": "fuse_product_epilogue",
}


def sequences(columns: int) -> str:
    """The matchers and actions, for a product's cache tile of ``columns`` (the contraction
    and direct-convolution matchers they refine are the schedule's)."""
    matchers = "".join(_matcher(name, refined) for name, refined in MATCHERS.items())
    return (
        matchers
        + _action("fuse_product_epilogue", [0, columns], FOR)
        + _action("fuse_convolution_epilogue", [1, 0, 1, 0], FORALL)
    )


def rewrite_step(functions: str, rewritten: str) -> str:
    """The entry point's step fusing the epilogues of the kernels of the handle ``functions``
    (the same functions are the handle ``rewritten`` after it), then dropping what the fusion
    left unused. (Canonicalising inside the walk would fold a tile loop of one iteration, and
    the walk would meet the tile's contraction again, in the function's body.)"""
    pairs = ",\n".join(f"        @{matcher} -> @{action}" for matcher, action in ACTIONS.items())
    return f"""
    {rewritten} = transform.foreach_match in {functions}
{pairs} : (!op) -> !op
    transform.apply_patterns to {rewritten} {{
      transform.apply_patterns.canonicalization
    }} : !op"""
