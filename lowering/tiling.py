"""Tiling and vectorisation of contractions for the MLIR toolchain (`compile_module(tile=True)`).

A transform-dialect schedule, run by `transform-interpreter` on the tensor IR before
bufferization. It applies to every *contraction* with a multiply-add body (float or integer,
conversions allowed): `linalg.matmul` and the `linalg.generic`s whose indexing maps are
projected permutations with one m dimension (of the left operand and the result), one n
dimension (right operand and result), one k dimension (both operands, reduced) and up to
`MAX_BATCH` batch dimensions (all three): matrix and batched products, attention's two
products, einsums; never a convolution (every operand's map must be a projected permutation:
packing a sliding window aborted mlir-opt-22 inside `linalg::vectorize`). First the rewrites
of `schedules/` run: pads become fills and copies (`padding`), 2-D convolutions with unit
strides register blocks over the input in place (`direct_convolution`), the other ones im2col
and such a product (`convolution`), grouped convolutions and pooling get their window loops
outside the output rows (`sliding_windows`).
`transform.foreach_match` picks the variant for the number of batch dimensions; each action
announces the operation it transforms in a remark, which names the kernel if the toolchain
crashes (`crash_report`). For each contraction:
1. `pack_greedily` packs the operands into zero-padded blocks sized by the register tile
   (`RegisterTile`, from the host's vector registers): the left one into `m × k` blocks, the
   right one into `k × n` and the result into `m × n` ones (`8 × 32`, `32 × 32`, `8 × 32` with
   AVX-512). Every block is contiguous whatever the operand's layout (no cache-set conflicts of
   power-of-two strides, no strided loads) and every register tile is static: ragged and
   symbolic sizes need no masks in the kernel. The operands' packs are tiled into single
   blocks and vectorised (a masked read, a transpose where the layout needs one);
2. the batch loops are tiled by 1, the blocks for the caches (about 256 columns × 128 of k ×
   64 rows), then one block at a time;
3. the block's unit dimensions are folded away and its k loop is tiled by 1: each step is the
   outer product of `m` left values and `n` right ones into an `m × n` accumulator of two
   vector registers per row (8 × 2 AVX-512 FMAs, 6 × 2 AVX2 ones); the accumulators are hoisted
   out of the k loops;
4. the packing of a zero-filled result folds into the fill; the other packs lower to pad +
   expand + transpose, the unpacks to transpose + collapse + slice.
The vector passes after bufferization (`VECTOR_LOWERING`) finish the lowering; other operations
keep the default loop lowering.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from .crash_report import SCHEDULE_REMARK
from .host import vector_register_bytes, vector_registers
from .schedules import convolution, direct_convolution, epilogue, padding, sliding_windows
from .threads import machine_cores


@dataclass(frozen=True)
class RegisterTile:
    """The packed block: rows of the result (m), columns (n, one panel), depth of k."""

    m: int
    n: int
    k: int = 32

    @staticmethod
    def for_registers(register_bytes: int, registers: int) -> RegisterTile:
        """Two f32 registers per row, as many rows as leave four registers for the operands:
        8 × 32 with AVX-512 (16 of 32 registers), 6 × 16 with AVX2 (12 of 16)."""
        return RegisterTile(m=min(8, (registers - 4) // 2), n=2 * register_bytes // 4)


CACHE_TILE = {"n": 256, "k": 128, "m": 64}
"""The cache tile in elements (columns × k × rows), rounded down to whole blocks."""

MAX_BATCH = 4
"""The most batch dimensions of a contraction the schedule handles."""

BODIES = {"float": ("arith.mulf", "arith.addf"), "int": ("arith.muli", "arith.addi")}
"""Multiply-add bodies of the contractions tiled."""

ENTRY_POINT = "relax_tile_contractions"


def _cache_columns(tile: RegisterTile) -> int:
    """The columns of a product's cache tile: whole register tiles (`CACHE_TILE`)."""
    return max(1, CACHE_TILE["n"] // tile.n) * tile.n


VECTOR_LOWERING = ("func.func(convert-vector-to-scf{full-unroll=true})", "convert-vector-to-llvm")


def _matcher(batch: int, body: str) -> str:
    """Matches a contraction with ``batch`` batch dimensions, one m, one n and one k
    dimension, and a multiply-add ``body``."""
    multiply, add = BODIES[body]
    counts = "".join(
        f"""
    %{dims}_count = transform.num_associations %{dims} : (!param) -> !param
    transform.match.param.cmpi eq %{dims}_count, %{wanted} : !param"""
        for dims, wanted in [("batch", "batches"), ("m", "one"), ("n", "one"), ("k", "one")]
    )
    return f"""
  transform.named_sequence @match_{body}_{batch}(%op: !op {{transform.readonly}}) -> !op {{
    %batch, %m, %n, %k = transform.match.structured failures(propagate) %op
        : (!op) -> (!param, !param, !param, !param) {{
    ^bb0(%s: !op):
      transform.match.structured.input %s[all] {{projected_permutation}} : !op
      transform.match.structured.init %s[all] {{projected_permutation}} : !op
      transform.match.structured.body %s {{contraction = ["{multiply}", "{add}"]}} : !op
      %b0, %m0, %n0, %k0 = transform.match.structured.classify_contraction_dims %s
          : (!op) -> (!param, !param, !param, !param)
      transform.match.structured.yield %b0, %m0, %n0, %k0 : !param, !param, !param, !param
    }}
    %one = transform.param.constant 1 : i64 -> !param
    %batches = transform.param.constant {batch} : i64 -> !param{counts}
    transform.yield %op : !op
  }}
"""


def _action(batch: int, tile: RegisterTile) -> str:
    """Packs, tiles and vectorises a contraction with ``batch`` batch dimensions.

    After packing the loops are ``batch..., M, K, N, mm, kk, nn``; they are reordered to
    ``batch..., N, K, M, kk, mm, nn`` and tiled for the caches, the outermost cache loop
    (the first batch dimension, else the columns) an ``scf.forall`` that threads share
    (`threads`), then to one block with the loops nested as N, M, K."""
    kept = list(range(batch))
    packed_m, packed_k, packed_n, mm, kk, nn = range(batch, batch + 6)
    order = [*kept, packed_n, packed_k, packed_m, kk, mm, nn]
    n, k, m = range(batch, batch + 3)  # positions in `order`
    blocks = [max(1, CACHE_TILE[d] // getattr(tile, d)) for d in "nkm"]
    cache = [1] * batch + [*blocks, 0, 0, 0]
    shared, cache[0] = cache[:1], 0  # the outermost cache loop is the threads' loop
    block = [0] * batch + [1, 1, 1, 0, 0, 0]
    nest = [*kept, n, m, k, kk, mm, nn]
    loops = ", ".join(["!op"] * (batch + 2))
    return f"""
  transform.named_sequence @tile_{batch}(%op: !op {{transform.consumed}}) {{
    transform.debug.emit_remark_at %op, "{SCHEDULE_REMARK}: tile_{batch}" : !op
    %packed = transform.structured.pack_greedily %op
        matmul_packed_sizes = [{tile.m}, {tile.n}, {tile.k}] matmul_inner_dims_order = [0, 2, 1]
        : (!op) -> !transform.op<"linalg.generic">
{_vectorised_pack(0, batch, (tile.m, tile.k))}{_vectorised_pack(1, batch, (tile.k, tile.n))}
    %ordered = transform.structured.interchange %packed iterator_interchange = {order}
        : (!transform.op<"linalg.generic">) -> !op
    %shared, %threads = transform.structured.tile_using_forall %ordered
        tile_sizes {shared} : (!op) -> (!op, !op)
    %cached, %cache_loops:{batch + 2} = transform.structured.tile_using_for %shared
        tile_sizes {cache} : (!op) -> (!op, {loops})
    %blocked, %inner:3 = transform.structured.tile_using_for %cached
        tile_sizes {block} interchange = {nest} : (!op) -> (!op, !op, !op, !op)
    transform.apply_patterns to %inner#2 {{
      transform.apply_patterns.linalg.fold_unit_extent_dims_via_slices
      transform.apply_patterns.canonicalization
    }} : !op
    %folded = transform.structured.match ops{{["linalg.generic"]}} in %inner#2 : (!op) -> !op
    %step, %steps = transform.structured.tile_using_for %folded tile_sizes [1, 0, 0]
        : (!op) -> (!op, !op)
    transform.structured.vectorize %step : !op
    transform.yield
  }}
"""


def _vectorised_pack(operand: int, batch: int, tile: tuple[int, int]) -> str:
    """Tiles the pack of operand ``operand`` (``batch`` batch dimensions, two others) into
    single blocks and vectorises it (a masked read of the block, a transpose)."""
    ones = [1] * (batch + 2)
    loops = ", ".join(["!op"] * (batch + 2))
    return f"""
    %pack{operand} = transform.get_producer_of_operand %packed[{operand}]
        : (!transform.op<"linalg.generic">) -> !op
    %block{operand}, %blocks{operand}:{batch + 2} = transform.structured.tile_using_for
        %pack{operand} tile_sizes {ones} : (!op) -> (!op, {loops})
    transform.structured.vectorize %block{operand} vector_sizes {[*ones, *tile]} : !op"""


def schedule(tile: RegisterTile, threads: int = 1) -> str:
    """The transform library: a matcher per body and number of batch dimensions, an action
    per number of batch dimensions, and the entry point dispatching between them; a direct
    convolution's rows are shared among ``threads`` (an ``scf.forall``)."""
    variants = [(batch, body) for batch in range(MAX_BATCH + 1) for body in BODIES]
    sequences = "".join(_matcher(batch, body) for batch, body in variants)
    sequences += "".join(_action(batch, tile) for batch in range(MAX_BATCH + 1))
    sequences += padding.SEQUENCES + direct_convolution.sequences(tile.m, tile.n, threads)
    sequences += convolution.SEQUENCES + sliding_windows.SEQUENCES
    sequences += epilogue.sequences(_cache_columns(tile))
    rewrite = epilogue.rewrite_step("%functions", "%fused")
    rewrite += padding.rewrite_step("%fused", "%padded")
    rewrite += direct_convolution.rewrite_step("%padded", "%direct")
    rewrite += convolution.rewrite_step("%direct", "%convolved")
    rewrite += sliding_windows.rewrite_step("%convolved", "%windowed")
    dispatch = ",\n".join(
        f"        @match_{body}_{batch} -> @tile_{batch}" for batch, body in variants
    )
    return f"""\
!op = !transform.any_op
!param = !transform.param<i64>
module attributes {{transform.with_named_sequence}} {{
{sequences}
  transform.named_sequence @{ENTRY_POINT}(%root: !op {{transform.readonly}}) {{
    %functions = transform.structured.match ops{{["func.func"]}} in %root : (!op) -> !op{rewrite}
    %f = transform.foreach_match in %windowed
{dispatch}
        : (!op) -> !op
    transform.apply_patterns to %f {{
      transform.apply_patterns.vector.reduction_to_contract
      transform.apply_patterns.vector.transfer_permutation_patterns
      transform.apply_patterns.vector.lower_masked_transfers
    }} : !op
    transform.apply_patterns to %f {{
      transform.apply_patterns.vector.cast_away_vector_leading_one_dim
    }} : !op
    transform.apply_patterns to %f {{
      transform.apply_patterns.vector.lower_contraction lowering_strategy = "outerproduct"
      transform.apply_patterns.vector.lower_outerproduct
      transform.apply_patterns.vector.lower_masks
      transform.apply_patterns.canonicalization
    }} : !op
    transform.apply_patterns to %f {{
      transform.apply_patterns.tensor.fold_into_pack_and_unpack
      transform.apply_patterns.canonicalization
    }} : !op
    %packs = transform.structured.match ops{{["linalg.pack"]}} in %root
        : (!op) -> !transform.op<"linalg.pack">
    transform.structured.lower_pack %packs : (!transform.op<"linalg.pack">)
        -> (!transform.op<"tensor.pad">, !transform.op<"tensor.expand_shape">,
            !transform.op<"linalg.transpose">)
    %unpacks = transform.structured.match ops{{["linalg.unpack"]}} in %root
        : (!op) -> !transform.op<"linalg.unpack">
    transform.structured.lower_unpack %unpacks : (!transform.op<"linalg.unpack">)
        -> (!transform.op<"tensor.empty">, !transform.op<"linalg.transpose">,
            !transform.op<"tensor.collapse_shape">, !transform.op<"tensor.extract_slice">)
    %loops = transform.structured.match ops{{["scf.for"]}} in %root : (!op) -> !op
    transform.apply_licm to %loops : !op
    transform.loop.hoist_loop_invariant_subsets %loops : !op
    transform.yield
  }}
}}
"""


@functools.cache
def transform_script() -> str:
    """The schedule for the host's vector registers and cores."""
    tile = RegisterTile.for_registers(vector_register_bytes(), vector_registers())
    return schedule(tile, machine_cores())


def tiling_passes(library: str) -> tuple[str, ...]:
    """Passes that run the schedule stored in the file `library` (before bufferization)."""
    return (
        f"transform-preload-library{{transform-library-paths={library}}}",
        f"transform-interpreter{{entry-point={ENTRY_POINT}}}",
        "canonicalize",
    )
