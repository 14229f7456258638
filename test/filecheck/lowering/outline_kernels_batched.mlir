// RUN: relax-opt %s -p relax-lower-to-linalg,outline-kernels | filecheck %s

// A batched product's chain is marked for the schedule (which fuses it into tiles of one
// matrix of the batch) when the batch loops are the result's leading dimensions; an einsum
// whose batch is inside its result ("bij,bjk->ibk") keeps its chain after it, unmarked.
relax.function @batched(%x: !relax.tensor<[3, n, 9], f32>, %w: !relax.tensor<[3, 9, 7], f32>, %b: !relax.tensor<[7], f32>) -> !relax.tensor<[3, n, 7], f32> {
  %m = relax.matmul %x, %w
  %r = relax.add %m, %b
  relax.return %r
}
relax.function @batch_inside(%x: !relax.tensor<[3, n, 9], f32>, %w: !relax.tensor<[3, 9, 7], f32>, %b: !relax.tensor<[7], f32>) -> !relax.tensor<[n, 3, 7], f32> {
  %t = relax.tuple(%x, %w)
  %e = relax.einsum %t {subscripts = "bij,bjk->ibk"}
  %r = relax.add %e, %b
  relax.return %r
}
// CHECK:       func.func private @relax_kernel_{{[0-9a-f]+}}({{.*}}) -> tensor<3x?x7xf32>
// CHECK:         linalg.generic {indexing_maps = [{{.*}}, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
// CHECK:           arith.mulf
// CHECK:         linalg.generic {{.*}} attrs = {relax.epilogue} {
// CHECK:           arith.addf
// CHECK:         func.return

// CHECK:       func.func private @relax_kernel_{{[0-9a-f]+}}({{.*}}) -> tensor<?x3x7xf32>
// CHECK:         linalg.generic {indexing_maps = [{{.*}}, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
// CHECK:           arith.mulf
// CHECK-NOT:     relax.epilogue
// CHECK:         func.return
