// RUN: relax-opt %s --split-input-file | filecheck %s
// RUN: relax-opt %s --split-input-file %generic-roundtrip | filecheck %s

// relax.ewise_fma: three tensors of one shape, rank and data type.
// CHECK-LABEL: @ewise_fma
relax.function @ewise_fma(%x: !relax.tensor<[n, 4], f32>, %y: !relax.tensor<[m, 4], f32>, %r: !relax.tensor<ndim = 2, f32>, %u: !relax.tensor<f32>, %v: !relax.tensor<[n, 4]>, %s: !relax.tensor<[], i32>, %k: !relax.tensor<[n * 2, 4], f32>, %j: !relax.tensor<[2 * n, 4], f32>) -> !relax.object {
  // CHECK: relax.ewise_fma %x, %x, %x : !relax.tensor<[n, 4], f32>
  %0 = relax.ewise_fma %x, %x, %x
  // CHECK: relax.ewise_fma %s, %s, %s : !relax.tensor<[], i32>
  %1 = relax.ewise_fma %s, %s, %s
  // symbolic dimensions proven equal
  // CHECK: relax.ewise_fma %k, %j, %k : !relax.tensor<[n * 2, 4], f32>
  %2 = relax.ewise_fma %k, %j, %k
  // n against m cannot be decided: only the rank is kept
  // CHECK: relax.ewise_fma %x, %y, %x : !relax.tensor<ndim = 2, f32>
  %3 = relax.ewise_fma %x, %y, %x
  // CHECK: relax.ewise_fma %x, %r, %x : !relax.tensor<ndim = 2, f32>
  %4 = relax.ewise_fma %x, %r, %x
  // CHECK: relax.ewise_fma %u, %x, %u : !relax.tensor<ndim = 2, f32>
  %5 = relax.ewise_fma %u, %x, %u
  // CHECK: relax.ewise_fma %u, %u, %u : !relax.tensor<f32>
  %6 = relax.ewise_fma %u, %u, %u
  // an unknown data type makes the result's unknown
  // CHECK: relax.ewise_fma %x, %v, %x : !relax.tensor<[n, 4]>
  %7 = relax.ewise_fma %x, %v, %x
  relax.return %0
}
