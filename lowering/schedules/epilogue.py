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
* a batched product whose result has its batch dimensions first (attention's scores and
  their scale, mask or bias; `kernels.py` marks no other): one matrix of the batch (one head),
  a tile of the threads' loop, which the contraction schedule then packs and register-tiles on
  its thread (`tiling.IN_TILE`). The chain reads the head's unpacked scores while they are in
  cache, instead of the whole batch's (8 × 12 heads of 128 × 128 scores: 6 MiB) coming back
  from memory once for the unpacking and once per operation of the chain. The tile's buffers
  are freed by plain deallocations in the threads' loop (``toolchain.SIMPLIFY_DEALLOCATIONS``);
* a direct convolution (`direct_convolution`): one output row of every channel of one image,
  which the direct schedule then register-blocks (its operands stay read in place). Its input
  pad, in the kernel too, is a fill and a copy by then (`padding`, the step before): fusion
  stops at the copy's insertion into the filled buffer, which is made once, before the loop
  of the tiles, and read by them. (Fused as a ``tensor.pad``, it was padded again in every
  tile: ResNet-18's 3 × 3 convolutions at 56² took 20 times longer.)

Other contractions (im2col convolutions, whose copy would be repeated per tile, pooling,
reductions) keep the epilogue in their kernel as loops after the contraction.
"""

from __future__ import annotations

from ..crash_report import SCHEDULE_REMARK

EPILOGUE = "relax.epilogue"
"""The attribute marking the last operation of a kernel's epilogue (`kernels.py`)."""


FORALL = " {use_forall}"
"""The tiles' loop an ``scf.forall``: the threads' loop (a direct convolution's rows, a batched
product's matrices)."""
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


def _fusions(batches: int) -> dict[str, tuple[str, str]]:
    """Each matcher of an untiled contraction → the contraction matcher it refines and the
    action fusing its epilogue; products with up to ``batches`` batch dimensions."""
    fusions = {
        "match_untiled_convolution": ("match_direct_convolution", "fuse_convolution_epilogue")
    }
    for batch in range(batches + 1):
        action = f"fuse_batched_product_epilogue_{batch}" if batch else "fuse_product_epilogue"
        for body in ("float", "int"):
            fusions[f"match_untiled_{body}_product_{batch}"] = (f"match_{body}_{batch}", action)
    return fusions


def sequences(columns: int, batches: int) -> str:
    """The matchers and actions, for a product's cache tile of ``columns`` and products with
    up to ``batches`` batch dimensions (the contraction and direct-convolution matchers they
    refine are the schedule's)."""
    fusions = _fusions(batches)
    matchers = "".join(_matcher(name, refined) for name, (refined, _) in fusions.items())
    batched = "".join(
        _action(f"fuse_batched_product_epilogue_{batch}", [1] * batch + [0, 0], FORALL)
        for batch in range(1, batches + 1)
    )
    return (
        matchers
        + _action("fuse_product_epilogue", [0, columns], FOR)
        + batched
        + _action("fuse_convolution_epilogue", [1, 0, 1, 0], FORALL)
    )


def rewrite_step(functions: str, rewritten: str, batches: int) -> str:
    """The entry point's step fusing the epilogues of the kernels of the handle ``functions``
    (products with up to ``batches`` batch dimensions; the same functions are the handle
    ``rewritten`` after it), then dropping what the fusion
    left unused. (Canonicalising inside the walk would fold a tile loop of one iteration, and
    the walk would meet the tile's contraction again, in the function's body.)"""
    pairs = ",\n".join(
        f"        @{matcher} -> @{action}" for matcher, (_, action) in _fusions(batches).items()
    )
    return f"""
    {rewritten} = transform.foreach_match in {functions}
{pairs} : (!op) -> !op
    transform.apply_patterns to {rewritten} {{
      transform.apply_patterns.canonicalization
    }} : !op"""
