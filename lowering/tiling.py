"""Tiling and vectorisation of contractions for the MLIR toolchain (`compile_module(tile=True)`).

A transform-dialect schedule, run by `transform-interpreter` on the tensor IR before
bufferization. It applies to every *contraction* with a multiply-add body (float or integer,
conversions allowed): `linalg.matmul` and the `linalg.generic`s whose indexing maps are
projected permutations with one m dimension (of the left operand and the result), one n
dimension (right operand and result), one k dimension (both operands, reduced) and up to
`MAX_BATCH` batch dimensions (all three): matrix and batched products, attention's two
products, einsums; never a convolution (every operand's map must be a projected permutation:
packing a sliding window aborted mlir-opt-22 inside `linalg::vectorize`). First the rewrites
of `schedules/` run: pads become fills and copies (`padding`), element-wise epilogues are
fused into the tiles of their contraction (`epilogue`), 2-D convolutions with unit
strides register blocks over the input in place (`direct_convolution`), depthwise ones with unit
strides strips of output rows in vector registers (`depthwise`), the other ones im2col and such
a product (`convolution`), 2-D max and sum pooling with static channels and widths blocks of
channels in vector lanes (`pooling`), the other grouped convolutions and pooling get their
window loops outside the output rows (`sliding_windows`), reductions along the last loop
(softmax, norms) partial results in vector registers (`reductions`). Last, the pads that
lowering the packs leaves become copies too (`padding`), and every operation still in a
function's body shares its outer parallel loop among the threads (`outer_threads`).
`transform.foreach_match` picks the variant for the number of batch dimensions; each action
announces the operation it transforms in a remark, which names the kernel if the toolchain
crashes (`crash_report`). For each contraction:
1. `pack_greedily` packs the operands into zero-padded blocks sized by the register tile
   (`RegisterTile`, from the host's vector registers): the left one into `m × k` blocks, the
   right one into `k × n` and the result into `m × n` ones (`8 × 32`, `32 × 32`, `8 × 32` with
   AVX-512; `6 × 16`, `16 × 16`, `6 × 16` with AVX2). Every block is contiguous whatever
   the operand's layout (no cache-set conflicts of power-of-two strides, no strided loads)
   and every register tile is static: ragged and symbolic sizes need no masks in the kernel.
   The operands' packs are tiled into single blocks and vectorised (a masked read, a
   transpose where the layout needs one);
2. an ``scf.forall`` that the threads share (`threads`) takes the batch dimensions one at a
   time, else splits the columns into as many parts as threads; each part is tiled for the
   caches (about 256 columns × 256 of k × 32 rows), then one block at a time; without batch
   dimensions the right operand's pack is fused into the k loop of the cache tiles (packed
   there, a 256 × 256 tile at a time, and read back from the cache instead of memory: 10–15%
   on BERT's 128 × 768 × 3072 products), and the blocks are walked rows outside columns
   (`_blocks`); a matrix product in tiles of columns of its fused epilogue packs its left
   operand once (`IN_LOOP`);
3. the block's unit dimensions are folded away and its k loop is tiled by 1: each step is the
   outer product of `m` left values and `n` right ones into an `m × n` accumulator of two
   vector registers per row (8 × 2 AVX-512 FMAs, 6 × 2 AVX2 ones), four steps per iteration
   (`K_UNROLL`); the accumulators are hoisted out of the k loops;
4. the packing of a zero-filled result folds into the fill; the other packs lower to pad +
   expand + transpose, the unpacks to transpose + collapse + slice. A transposing pack's
   vector transposes are one ``shufflevector`` each (``lower_transpose`` ``shuffle_1d``): the
   default lowering moved a 32 × 32 block element by element (1,024 extracts and inserts),
   slower to run and to compile (a parameter filter's pack, `parameter_filters`).
A contraction that a kernel unit already holds packed, its constant operand packed at compile
time (`prepacked_weights`), skips step 1 but for its other operand's pack (`match_prepacked_*`,
`tile_prepacked_*`) and takes the same steps 2–4 (`tile_blocks_0`); so does an implicit GEMM's
product, whose left operand is gathered packed from the images (`implicit_gemm`,
`match_gathered`, `tile_gathered`). A product of one static row (a classifier's dense layer)
is not packed at all: its weights are streamed row by row (`matrix_vector`).
A batched product read along k (left) and n (right, result) in its operands' last axes, with
columns in whole register tiles, is marked by its unit's rewrite (`unpacked_products`) and
register-tiled in place instead (`schedules.unpacked_products`): no pack, no unpack.
The vector passes after bufferization (`VECTOR_LOWERING`) finish the lowering; other operations
keep the default loop lowering.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from .crash_report import SCHEDULE_REMARK
from .host import vector_register_bytes, vector_registers
from .schedules import (
    column_strips,
    convolution,
    depthwise,
    direct_convolution,
    epilogue,
    gate,
    matrix_vector,
    outer_threads,
    padding,
    pooling,
    read_out,
    reductions,
    sliding_windows,
    unpacked_products,
)
from .threads import machine_cores


@dataclass(frozen=True)
class RegisterTile:
    """The packed block: rows of the result (m), columns (n, one panel), depth of k."""

    m: int
    n: int
    k: int

    @staticmethod
    def for_registers(register_bytes: int, registers: int) -> RegisterTile:
        """Two f32 registers per row, as many rows as leave four registers for the operands:
        8 × 32 with AVX-512 (16 of 32 registers), 6 × 16 with AVX2 (12 of 16). The depth is
        the number of registers: the right operand's block, read whole into registers when it
        is packed, spills at most twice the register file (32 × 32 with AVX-512, 16 × 16 with
        AVX2: 3–6% faster on BERT's products than 32 × 16, which spilled four times over;
        8 × 16 was 25% slower; same-process A/B, docs/benchmarks.md)."""
        return RegisterTile(m=min(8, (registers - 4) // 2), n=2 * register_bytes // 4, k=registers)


CACHE_TILE = {"n": 256, "k": 256, "m": 32}
"""The cache tile in elements (columns × k × rows), rounded down to whole blocks: the kernel
sweeps one panel of the right operand's tile (256 of k × 16 or 32 columns) down the left one's
(32 rows × 256 of k, L1-sized), the right tile (256 KiB) staying in L2. Measured against
other sizes on BERT's products, same-process A/B (docs/benchmarks.md): 128 of k × 64 rows
(the former tile) 3–8% slower, 32 rows 3–7% slower with 128 of k."""

K_UNROLL = 4
"""Steps of k per iteration of the kernel's innermost loop (unrolled): 5–13% faster than one
on BERT's products (same-process A/B, docs/benchmarks.md); a divisor of `RegisterTile.k`."""

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


IN_TILE = "_in_tile"
"""The suffix of the sequences taking a batched contraction in a tile of its fused epilogue
(`schedules.epilogue`: one matrix of the batch, a tile of the threads' ``scf.forall``): its
packs and blocks run on the tile's thread, no loop of theirs shared again (a parallel loop
nested in another one is what mlir-opt-22's OpenMP lowering rejects)."""

IN_LOOP = "_in_loop"
"""The suffix of the sequences taking a matrix product in a tile of columns of its fused
epilogue (`schedules.epilogue`: all its rows, an ``scf.for`` over the columns, the right
operand a slice of columns). Its left operand is the same in every tile: packed by an
``scf.for`` of blocks, not shared among the threads, it is loop-invariant and hoisted out of
the tiles (``apply_licm``; an ``scf.forall`` is never hoisted), packed once instead of once per
256 columns (twelve times on a 1,024 × 768 · 768 × 3,072 product: 7% of its time)."""

PARENTS = {IN_TILE: "scf.forall", IN_LOOP: "scf.for"}
"""The loop that each suffix's contractions sit in."""

TILE_CHECKS = {
    IN_TILE: "",
    IN_LOOP: """
    %right = transform.get_producer_of_operand %op[1] : (!op) -> !op
    transform.match.operation_name %right ["tensor.extract_slice"] : !op""",
}
"""What else tells each suffix's tiles: a tile of columns reads a slice of the right operand
(an im2col convolution's product in its loop over images reads the image's im2col matrix;
with its weights' pack hoisted, llc-22 aborted on a 1-D transposed convolution: "Cannot
implicitly convert a scalable size to a fixed-width size")."""


def _in_loop_matcher(batch: int, body: str, suffix: str) -> str:
    """Matches a contraction of ``match_<body>_<batch>`` whose parent is the loop of
    ``suffix`` (`PARENTS`)."""
    return f"""
  transform.named_sequence @match_{body}_{batch}{suffix}(%op: !op {{transform.readonly}})
      -> !op {{
    %matched = transform.include @match_{body}_{batch} failures(propagate) (%op) : (!op) -> !op
    %parent = transform.get_parent_op %op : (!op) -> !op
    transform.match.operation_name %parent ["{PARENTS[suffix]}"] : !op{TILE_CHECKS[suffix]}
    transform.yield %op : !op
  }}
"""


def _action(batch: int, tile: RegisterTile, threads: int, in_loop: bool = False) -> str:
    """Packs a contraction with ``batch`` batch dimensions, vectorises the packs of its operands
    (their blocks shared among ``threads``; none shared with no ``threads``: in a tile of the
    threads' loop, `IN_TILE`) and tiles the packed contraction (`_blocks`); ``in_loop``
    (no batch dimension): the left operand's pack is not shared (`IN_LOOP`).
    Without batch dimensions the right operand is packed a cache tile at a time inside the k
    loop (outside the m one), where the block it writes is still in cache when the kernel reads
    it; with them it is packed whole first (a right operand without batch dimensions would be
    packed again for every batch)."""
    suffix = IN_LOOP if in_loop else "" if threads else IN_TILE
    left_threads = 0 if in_loop else threads
    if batch:
        right = _vectorised_pack(1, batch, (tile.k, tile.n), threads)
        blocks = f"@tile_blocks_{batch}{suffix} failures(propagate) (%packed)"
        handles = '!transform.op<"linalg.generic">'
    else:
        right = _producer(1)
        blocks = "@tile_blocks_0_packing_right failures(propagate) (%packed, %pack1)"
        handles = '!transform.op<"linalg.generic">, !op'
    return f"""
  transform.named_sequence @tile_{batch}{suffix}(%op: !op {{transform.consumed}}) {{
    transform.debug.emit_remark_at %op, "{SCHEDULE_REMARK}: tile_{batch}{suffix}" : !op
    %packed = transform.structured.pack_greedily %op
        matmul_packed_sizes = [{tile.m}, {tile.n}, {tile.k}] matmul_inner_dims_order = [0, 2, 1]
        : (!op) -> !transform.op<"linalg.generic">
{_vectorised_pack(0, batch, (tile.m, tile.k), left_threads)}{right}
    transform.include {blocks} : ({handles}) -> ()
    transform.yield
  }}
"""


def _blocks(batch: int, tile: RegisterTile, threads: int, packing_right: bool = False) -> str:
    """Tiles and vectorises a packed contraction with ``batch`` batch dimensions; with
    ``packing_right`` (no batch dimension), the pack of its right operand (``%pack1``) moves
    into the k loop and is vectorised there.

    Its loops are ``batch..., M, K, N, mm, kk, nn`` (as packing leaves them); they are reordered
    to ``batch..., N, K, M, kk, mm, nn``. An ``scf.forall`` that threads share (`threads`)
    takes every batch dimension one at a time (an attention product's heads, whatever the
    leading batch of 1), else splits the blocks of columns into ``threads`` even parts (a
    768-column product's 48 panels as 24 + 24, not three cache tiles as 2 + 1); with no
    ``threads`` (`IN_TILE`) there is no such loop. Each part is tiled for the caches, then to
    one block with the loops nested as N, M, K; the k steps of a block are unrolled by
    ``K_UNROLL``. With ``packing_right`` they are nested M, N, K: each block of rows walks
    the tile's column panels, so the blocks of the packed result it reloads at each cache
    tile of k are contiguous (the result's outer dimensions are M, N) and the hardware
    prefetcher streams them in, while the panels of the right operand's tile (256 KiB) come
    from L2. Nested N, M, K, the blocks reloaded are a row of blocks apart (up to 72 KiB) and
    come from memory once the result outgrows L2: 8% of BERT's 1,024-row products went to
    reloading accumulators (docs/benchmarks.md)."""
    kept = list(range(batch))
    packed_m, packed_k, packed_n, mm, kk, nn = range(batch, batch + 6)
    order = [*kept, packed_n, packed_k, packed_m, kk, mm, nn]
    n, k, m = range(batch, batch + 3)  # positions in `order`
    blocks = [max(1, CACHE_TILE[d] // getattr(tile, d)) for d in "nkm"]
    shared = f"tile_sizes {[1] * batch}" if batch else f"num_threads [{threads}]"
    cache = [0] * batch + [*blocks, 0, 0, 0]
    block = [0] * batch + [1, 1, 1, 0, 0, 0]
    nest = [*kept, m, n, k, kk, mm, nn] if packing_right else [*kept, n, m, k, kk, mm, nn]
    name, right, fused_right = f"tile_blocks_{batch}", "", ""
    parts = "%shared"
    sharing = f"""
    %shared, %threads = transform.structured.tile_using_forall %ordered
        {shared} : (!op) -> (!op, !op)"""
    if not threads:
        name, parts, sharing = name + IN_TILE, "%ordered", ""
    if packing_right:
        name += "_packing_right"
        right = ", %pack1: !op {transform.consumed}"
        fused_right = f"""
    %fused_in_threads, %threads_fused = transform.structured.fuse_into_containing_op %pack1
        into %threads : (!op, !op) -> (!op, !op)
    %fused, %k_fused = transform.structured.fuse_into_containing_op %fused_in_threads
        into %cache_loops#1 : (!op, !op) -> (!op, !op)
{_vectorised_blocks("%fused", "1", batch, (tile.k, tile.n))}"""
    return f"""
  transform.named_sequence @{name}(
      %packed: !transform.op<"linalg.generic"> {{transform.consumed}}{right}) {{
    %ordered = transform.structured.interchange %packed iterator_interchange = {order}
        : (!transform.op<"linalg.generic">) -> !op{sharing}
    %cached, %cache_loops:3 = transform.structured.tile_using_for {parts}
        tile_sizes {cache} : (!op) -> (!op, !op, !op, !op){fused_right}
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
    transform.loop.unroll %steps {{factor = {K_UNROLL}}} : !op
    transform.yield
  }}
"""


def _vectorised_pack(operand: int, batch: int, tile: tuple[int, int], threads: int) -> str:
    """The pack of operand ``operand``, packed whole in vectorised blocks shared among
    ``threads``."""
    pack = f"%pack{operand}"
    return _producer(operand) + _vectorised_blocks(pack, str(operand), batch, tile, threads)


def _producer(operand: int) -> str:
    """``%pack<operand>``: the pack of operand ``operand`` of the packed contraction."""
    return f"""
    %pack{operand} = transform.get_producer_of_operand %packed[{operand}]
        : (!transform.op<"linalg.generic">) -> !op"""


def _vectorised_blocks(
    pack: str, suffix: str, batch: int, tile: tuple[int, int], threads: int = 0
) -> str:
    """Tiles the pack ``pack`` (``batch`` batch dimensions, two others) into single blocks and
    vectorises it (a masked read of the block, a transpose); with ``threads``, its first loop
    after the batch dimensions (the left operand's blocks of rows) is first split into an
    ``scf.forall`` of one part per thread (not in a threads' loop already: a pack fused into
    one)."""
    ones = [1] * (batch + 2)
    loops = ", ".join(["!op"] * (batch + 2))
    shared = ""
    if threads:
        shared = f"""
    {pack}_shared, %pack_threads{suffix} = transform.structured.tile_using_forall {pack}
        num_threads {[0] * batch + [threads]} : (!op) -> (!op, !op)"""
        pack = f"{pack}_shared"
    return f"""{shared}
    %block{suffix}, %blocks{suffix}:{batch + 2} = transform.structured.tile_using_for
        {pack} tile_sizes {ones} : (!op) -> (!op, {loops})
    transform.structured.vectorize %block{suffix} vector_sizes {[*ones, *tile]} : !op"""


PREPACKED_LOOPS = {"m": [0, 3], "k": [1, 4], "n": [2, 5]}
"""The loops of each kind of a pre-packed contraction (``M, K, N, mm, kk, nn``)."""


def _prepacked_matcher(packed: int, tile: RegisterTile, name: str, producer: str) -> str:
    """The matcher ``name`` of a float contraction packed before the schedule
    (`prepacked_weights`, `implicit_gemm`): no batch dimension, the loops of `PREPACKED_LOOPS`
    with static blocks of ``tile``'s sizes, operand ``packed`` made by a ``producer`` (a
    ``linalg.pack``, or the reshaped gather of an implicit GEMM; the other one is a constant
    packed at compile time)."""
    multiply, add = BODIES["float"]
    constants = "".join(
        f"""
    %{kind}{i} = transform.param.constant {loop} : i64 -> !param"""
        for kind, loops in PREPACKED_LOOPS.items()
        for i, loop in enumerate(loops)
    )
    checks = "".join(
        f"""
    %{kind}_loops = transform.merge_handles %{kind}0, %{kind}1 : !param
    transform.match.param.cmpi eq %{kind}, %{kind}_loops : !param
    %{kind}_block = transform.param.constant {getattr(tile, kind)} : i64 -> !param
    transform.match.param.cmpi eq %{kind}_size, %{kind}_block : !param"""
        for kind in PREPACKED_LOOPS
    )
    sizes = "".join(
        f"""
      %{kind}_size0 = transform.match.structured.dim %s[{loops[1]}] : (!op) -> !param"""
        for kind, loops in PREPACKED_LOOPS.items()
    )
    return f"""
  transform.named_sequence @{name}(%op: !op {{transform.readonly}}) -> !op {{
    %batch, %m, %n, %k, %m_size, %k_size, %n_size, %pack = transform.match.structured
        failures(propagate) %op : (!op)
        -> (!param, !param, !param, !param, !param, !param, !param, !op) {{
    ^bb0(%s: !op):
      transform.match.structured.input %s[all] {{projected_permutation}} : !op
      transform.match.structured.init %s[all] {{projected_permutation}} : !op
      transform.match.structured.body %s {{contraction = ["{multiply}", "{add}"]}} : !op
      %b0, %m0, %n0, %k0 = transform.match.structured.classify_contraction_dims %s
          : (!op) -> (!param, !param, !param, !param){sizes}
      %pack0 = transform.match.structured.input %s[{packed}] : (!op) -> !op
      transform.match.structured.yield %b0, %m0, %n0, %k0, %m_size0, %k_size0, %n_size0,
          %pack0 : !param, !param, !param, !param, !param, !param, !param, !op
    }}
    transform.match.operation_name %pack ["{producer}"] : !op
    %no_batch = transform.num_associations %batch : (!param) -> !param
    %zero = transform.param.constant 0 : i64 -> !param
    transform.match.param.cmpi eq %no_batch, %zero : !param{constants}{checks}
    transform.yield %op : !op
  }}
"""


def _prepacked_action(packed: int, tile: RegisterTile, threads: int) -> str:
    """Vectorises the pack of operand ``packed`` of a pre-packed contraction (its blocks shared
    among ``threads``) and tiles it."""
    sizes = (tile.m, tile.k) if packed == 0 else (tile.k, tile.n)
    return f"""
  transform.named_sequence @tile_prepacked_{packed}(%op: !op {{transform.consumed}}) {{
    transform.debug.emit_remark_at %op, "{SCHEDULE_REMARK}: tile_prepacked" : !op
    %packed = transform.cast %op : !op to !transform.op<"linalg.generic">
{_vectorised_pack(packed, 0, sizes, threads)}
    transform.include @tile_blocks_0 failures(propagate) (%packed)
        : (!transform.op<"linalg.generic">) -> ()
    transform.yield
  }}
"""


def _gathered_action(threads: int) -> str:
    """Vectorises an implicit GEMM's gather (`implicit_gemm`: its left operand, behind a
    reshape), a row of ``k`` channels at a time, each a contiguous load of the
    ``tensor.extract`` in its body, its blocks of pixels shared among ``threads`` (an
    ``scf.forall``), and tiles its product."""
    return f"""
  transform.named_sequence @tile_gathered(%op: !op {{transform.consumed}}) {{
    transform.debug.emit_remark_at %op, "{SCHEDULE_REMARK}: tile_gathered" : !op
    %packed = transform.cast %op : !op to !transform.op<"linalg.generic">
    %reshaped = transform.get_producer_of_operand %packed[0]
        : (!transform.op<"linalg.generic">) -> !op
    %gather = transform.get_producer_of_operand %reshaped[0] : (!op) -> !op
    %shared, %threads = transform.structured.tile_using_forall %gather
        num_threads [{threads}] : (!op) -> (!op, !op)
    %row, %rows:5 = transform.structured.tile_using_for %shared tile_sizes [1, 1, 1, 1, 1]
        : (!op) -> (!op, !op, !op, !op, !op, !op)
    transform.structured.vectorize %row {{vectorize_nd_extract}} : !op
    transform.include @tile_blocks_0 failures(propagate) (%packed)
        : (!transform.op<"linalg.generic">) -> ()
    transform.yield
  }}
"""


def schedule(tile: RegisterTile, threads: int = 1) -> str:
    """The transform library: a matcher per body and number of batch dimensions, an action
    per number of batch dimensions, the pre-packed contractions' matchers and actions, and the
    entry point dispatching between them; a direct
    convolution's rows are shared among ``threads`` (an ``scf.forall``)."""
    variants = [(batch, body) for batch in range(MAX_BATCH + 1) for body in BODIES]
    sequences = "".join(_matcher(batch, body) for batch, body in variants)
    sequences += "".join(_action(batch, tile, threads) for batch in range(MAX_BATCH + 1))
    sequences += "".join(_blocks(batch, tile, threads) for batch in range(MAX_BATCH + 1))
    sequences += _blocks(0, tile, threads, packing_right=True)
    batched = [(batch, body) for batch, body in variants if batch]
    sequences += "".join(_in_loop_matcher(batch, body, IN_TILE) for batch, body in batched)
    sequences += "".join(
        _action(batch, tile, 0) + _blocks(batch, tile, 0) for batch in range(1, MAX_BATCH + 1)
    )
    sequences += "".join(_in_loop_matcher(0, body, IN_LOOP) for body in BODIES)
    sequences += _action(0, tile, threads, in_loop=True)
    sequences += "".join(
        _prepacked_matcher(p, tile, f"match_prepacked_{p}", "linalg.pack")
        + _prepacked_action(p, tile, threads)
        for p in (0, 1)
    )
    sequences += _prepacked_matcher(0, tile, "match_gathered", "tensor.collapse_shape")
    sequences += _gathered_action(threads)
    sequences += matrix_vector.matcher("match_float_0")
    sequences += matrix_vector.action(threads)
    sequences += column_strips.PEEL + padding.SEQUENCES
    filters = direct_convolution.block_filters(tile.k)  # the depth: the host's registers
    sequences += direct_convolution.sequences(filters, tile.n, threads)
    sequences += depthwise.sequences(tile.n, threads)
    sequences += convolution.SEQUENCES + sliding_windows.SEQUENCES
    sequences += pooling.sequences(tile.n // 2, threads)
    sequences += reductions.sequences(tile.n // 2)
    sequences += epilogue.sequences(_cache_columns(tile), MAX_BATCH)
    sequences += read_out.sequences(tile.n)
    sequences += outer_threads.sequences(threads)
    sequences += unpacked_products.sequences(tile.m, tile.n, K_UNROLL, MAX_BATCH, IN_TILE)
    rewrite = padding.rewrite_step("%functions", "%padded")
    rewrite += epilogue.rewrite_step("%padded", "%fused", MAX_BATCH)
    rewrite += direct_convolution.rewrite_step("%fused", "%direct")
    rewrite += depthwise.rewrite_step("%direct", "%depthwise")
    rewrite += convolution.rewrite_step("%depthwise", "%convolved")
    rewrite += pooling.rewrite_step("%convolved", "%pooled")
    rewrite += sliding_windows.rewrite_step("%pooled", "%windowed")
    rewrite += reductions.rewrite_step("%windowed", "%reduced")
    rewrite += unpacked_products.rewrite_step("%reduced")
    lowered = """
    %lowered = transform.structured.match ops{["func.func"]} in %root : (!op) -> !op"""
    shared = lowered + padding.rewrite_step("%lowered", "%copied")
    shared += read_out.rewrite_step() + outer_threads.rewrite_step("%copied")
    pairs = [("match_matrix_vector", "tile_matrix_vector")]
    pairs += [(f"match_{body}_{b}{IN_TILE}", f"tile_{b}{IN_TILE}") for b, body in batched]
    pairs += [(f"match_{body}_0{IN_LOOP}", f"tile_0{IN_LOOP}") for body in BODIES]
    pairs += [(f"match_{body}_{batch}", f"tile_{batch}") for batch, body in variants]
    pairs += [(f"match_prepacked_{p}", f"tile_prepacked_{p}") for p in (0, 1)]
    pairs += [("match_gathered", "tile_gathered")]
    sequences += gate.MATCH_LINALG + gate.sequence("tile_contraction", pairs)
    return f"""\
!op = !transform.any_op
!param = !transform.param<i64>
module attributes {{transform.with_named_sequence}} {{
{sequences}
  transform.named_sequence @{ENTRY_POINT}(%root: !op {{transform.readonly}}) {{
    %functions = transform.structured.match ops{{["func.func"]}} in %root : (!op) -> !op{rewrite}
{gate.step("tile_contraction", "%reduced", "%f")}
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
      transform.apply_patterns.vector.lower_transpose lowering_strategy = "shuffle_1d"
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
            !transform.op<"tensor.collapse_shape">, !transform.op<"tensor.extract_slice">){shared}
    %loops = transform.structured.match ops{{["scf.for"]}} in %root : (!op) -> !op
    transform.apply_licm to %loops : !op
    transform.loop.hoist_loop_invariant_subsets %loops : !op
    transform.yield
  }}
}}
"""


@functools.cache
def host_tile() -> RegisterTile:
    """The register tile of the host's vector registers."""
    return RegisterTile.for_registers(vector_register_bytes(), vector_registers())


@functools.cache
def transform_script() -> str:
    """The schedule for the host's vector registers and cores."""
    return schedule(host_tile(), machine_cores())


def tiling_passes(library: str) -> tuple[str, ...]:
    """Passes that run the schedule stored in the file `library` (before bufferization)."""
    return (
        f"transform-preload-library{{transform-library-paths={library}}}",
        f"transform-interpreter{{entry-point={ENTRY_POINT}}}",
        "canonicalize",
    )
