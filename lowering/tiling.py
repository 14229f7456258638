"""Tiling and vectorisation of `linalg.matmul` for the MLIR toolchain (`compile_module(tile=True)`).

A transform-dialect schedule, run by `transform-interpreter` on the tensor IR before
bufferization, for each `linalg.matmul` (m, n, k):
1. pack the right operand into 32-column panels stored contiguously, `B[k][n]` →
   `Bp[n/32][k][32]` (zero-padded when n is dynamic or not a multiple of 32), so the inner
   loop streams memory without the cache-set conflicts of a power-of-two row stride;
2. reorder the packed iteration space to (n/32, k, m, 32), tile it for the caches
   (256 columns × 128 of k × 64 rows), then into 8×32 register tiles with k innermost;
3. vectorise the register tile (masked where sizes are dynamic), turn it into a
   `vector.contract` and lower that to outer products (8 × 2 AVX-512 FMAs per k step on
   this host); the accumulators are hoisted out of the k loop;
4. lower the pack/unpack to pad + transpose / collapse + copy.
The vector passes after bufferization (`VECTOR_LOWERING`) finish the lowering. Other ops
(`linalg.batch_matmul`, generic contractions) keep the default loop lowering.
"""

TRANSFORM_SCRIPT = """\
!op = !transform.any_op
!generic = !transform.op<"linalg.generic">
!pack = !transform.op<"linalg.pack">
!unpack = !transform.op<"linalg.unpack">
module attributes {transform.with_named_sequence} {
  transform.named_sequence @relax_tile_matmul(%root: !op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!op) -> !op
    transform.foreach %mm : !op {
    ^bb0(%one: !op):
      %packed = transform.structured.pack %one packed_sizes = [0, 32, 0] : (!op) -> !generic
      %pack_b = transform.get_producer_of_operand %packed[1] : (!generic) -> !pack
      %mmt, %pack_bt, %none = transform.structured.pack_transpose %pack_b
        with_compute_op(%packed) outer_perm = [1, 0] : (!pack, !generic) -> (!generic, !pack, !op)
      %ig = transform.structured.interchange %mmt iterator_interchange = [1, 2, 0, 3]
        : (!generic) -> !op
      %t1, %l1:3 = transform.structured.tile_using_for %ig tile_sizes [8, 128, 64, 0]
        : (!op) -> (!op, !op, !op, !op)
      %t2, %l2:3 = transform.structured.tile_using_for %t1 tile_sizes [1, 1, 8, 0]
        interchange = [0, 2, 1, 3]
        : (!op) -> (!op, !op, !op, !op)
      transform.structured.vectorize %t2 vector_sizes [1, 1, 8, 32] : !op
      transform.yield
    }
    %packs = transform.structured.match ops{["linalg.pack"]} in %root : (!op) -> !pack
    transform.structured.lower_pack %packs
      : (!pack) -> (!transform.op<"tensor.pad">, !transform.op<"tensor.expand_shape">,
                    !transform.op<"linalg.transpose">)
    %unpacks = transform.structured.match ops{["linalg.unpack"]} in %root : (!op) -> !unpack
    transform.structured.lower_unpack %unpacks
      : (!unpack) -> (!transform.op<"tensor.empty">, !transform.op<"linalg.transpose">,
                      !transform.op<"tensor.collapse_shape">, !transform.op<"tensor.extract_slice">)
    %f = transform.structured.match ops{["func.func"]} in %root : (!op) -> !op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.reduction_to_contract
      transform.apply_patterns.vector.transfer_permutation_patterns
      transform.apply_patterns.vector.lower_masked_transfers
    } : !op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.cast_away_vector_leading_one_dim
    } : !op
    transform.apply_patterns to %f {
      transform.apply_patterns.vector.lower_contraction lowering_strategy = "outerproduct"
      transform.apply_patterns.vector.lower_outerproduct
      transform.apply_patterns.vector.lower_masks
      transform.apply_patterns.canonicalization
    } : !op
    %loops = transform.structured.match ops{["scf.for"]} in %f : (!op) -> !op
    transform.apply_licm to %loops : !op
    transform.loop.hoist_loop_invariant_subsets %loops : !op
    transform.yield
  }
}
"""

ENTRY_POINT = "relax_tile_matmul"

VECTOR_LOWERING = ("func.func(convert-vector-to-scf{full-unroll=true})", "convert-vector-to-llvm")


def tiling_passes(library: str) -> tuple[str, ...]:
    """Passes that run the schedule stored in the file `library` (before bufferization)."""
    return (
        f"transform-preload-library{{transform-library-paths={library}}}",
        f"transform-interpreter{{entry-point={ENTRY_POINT}}}",
        "canonicalize",
    )
