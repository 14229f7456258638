// RUN: relax-opt %s --split-input-file | filecheck %s
// RUN: relax-opt %s --split-input-file %generic-roundtrip | filecheck %s

// relax.where broadcasts the values together, then the condition with them.
// CHECK-LABEL: @where
relax.function @where(%c: !relax.tensor<[4, 1], bool>, %x: !relax.tensor<[n, 1, 3], f32>, %y: !relax.tensor<[4, 1], f32>, %z: !relax.tensor<[m, 3], f32>, %k: !relax.tensor<[n, 4, 3], bool>, %r: !relax.tensor<ndim = 2, f32>, %u: !relax.tensor<bool>, %g: !relax.tensor<[4, 1], bool>, %v: !relax.tensor<[4, 1]>, %s: !relax.tensor<[], bool>) -> !relax.object {
  // CHECK: relax.where %c, %x, %y : !relax.tensor<[n, 4, 3], f32>
  %0 = relax.where %c, %x, %y
  // CHECK: relax.where %k, %y, %x : !relax.tensor<[n, 4, 3], f32>
  %1 = relax.where %k, %y, %x
  // a scalar condition
  // CHECK: relax.where %s, %z, %z : !relax.tensor<[m, 3], f32>
  %2 = relax.where %s, %z, %z
  // m against 4: undecidable, only the largest rank is kept
  // CHECK: relax.where %c, %z, %y : !relax.tensor<ndim = 2, f32>
  %3 = relax.where %c, %z, %y
  // the condition against the values: undecidable as well
  // CHECK: relax.where %k, %z, %z : !relax.tensor<ndim = 3, f32>
  %4 = relax.where %k, %z, %z
  // CHECK: relax.where %c, %r, %x : !relax.tensor<ndim = 3, f32>
  %5 = relax.where %c, %r, %x
  // CHECK: relax.where %u, %y, %y : !relax.tensor<f32>
  %6 = relax.where %u, %y, %y
  // bool values mix with any data type (the first one's wins); void gives void
  // CHECK: relax.where %c, %g, %y : !relax.tensor<[4, 1], bool>
  %7 = relax.where %c, %g, %y
  // CHECK: relax.where %c, %y, %g : !relax.tensor<[4, 1], f32>
  %8 = relax.where %c, %y, %g
  // CHECK: relax.where %c, %v, %y : !relax.tensor<[4, 1]>
  %9 = relax.where %c, %v, %y
  relax.return %0
}

// -----

// relax.argmax and relax.argmin: i64 indices over one axis or all of them.
// CHECK-LABEL: @index_reductions
relax.function @index_reductions(%x: !relax.tensor<[n, 4, 5], f32>, %s: !relax.tensor<[], i32>, %r: !relax.tensor<ndim = 3, f16>, %v: !relax.tensor<ndim = 1, f16>, %u: !relax.tensor<f32>) -> !relax.object {
  // CHECK: relax.argmax %x : !relax.tensor<[], i64>
  %0 = relax.argmax %x
  // CHECK: relax.argmax %x {keepdims = true} : !relax.tensor<[1, 1, 1], i64>
  %1 = relax.argmax %x {keepdims = true}
  // CHECK: relax.argmax %x {axis = 1} : !relax.tensor<[n, 5], i64>
  %2 = relax.argmax %x {axis = 1}
  // CHECK: relax.argmin %x {axis = -1, keepdims = true} : !relax.tensor<[n, 4, 1], i64>
  %3 = relax.argmin %x {axis = -1, keepdims = true}
  // CHECK: relax.argmin %x {axis = -3, keepdims = false} : !relax.tensor<[4, 5], i64>
  %4 = relax.argmin %x {axis = -3, keepdims = false}
  // CHECK: relax.argmin %s : !relax.tensor<[], i64>
  %5 = relax.argmin %s
  // CHECK: relax.argmax %s {keepdims = true} : !relax.tensor<[], i64>
  %6 = relax.argmax %s {keepdims = true}
  // known rank, unknown shape
  // CHECK: relax.argmax %r : !relax.tensor<[], i64>
  %7 = relax.argmax %r
  // CHECK: relax.argmax %r {keepdims = true} : !relax.tensor<[1, 1, 1], i64>
  %8 = relax.argmax %r {keepdims = true}
  // CHECK: relax.argmin %r {axis = 0} : !relax.tensor<ndim = 2, i64>
  %9 = relax.argmin %r {axis = 0}
  // CHECK: relax.argmin %r {axis = 2, keepdims = true} : !relax.tensor<ndim = 3, i64>
  %10 = relax.argmin %r {axis = 2, keepdims = true}
  // CHECK: relax.argmax %v {axis = -1} : !relax.tensor<[], i64>
  %11 = relax.argmax %v {axis = -1}
  // unknown rank: the axis is not checked
  // CHECK: relax.argmax %u : !relax.tensor<[], i64>
  %12 = relax.argmax %u
  // CHECK: relax.argmax %u {keepdims = true} : !relax.tensor<i64>
  %13 = relax.argmax %u {keepdims = true}
  // CHECK: relax.argmin %u {axis = 7} : !relax.tensor<i64>
  %14 = relax.argmin %u {axis = 7}
  relax.return %0
}

// -----

// relax.bucketize: the input's shape, i64 or i32.
// CHECK-LABEL: @bucketize
relax.function @bucketize(%x: !relax.tensor<[n, 3], f32>, %b: !relax.tensor<[k], f32>, %r: !relax.tensor<ndim = 2, i32>, %u: !relax.tensor<i32>, %w: !relax.tensor) -> !relax.object {
  // CHECK: relax.bucketize %x, %b : !relax.tensor<[n, 3], i64>
  %0 = relax.bucketize %x, %b
  // CHECK: relax.bucketize %x, %b {out_int32 = true, right = true} : !relax.tensor<[n, 3], i32>
  %1 = relax.bucketize %x, %b {out_int32 = true, right = true}
  // CHECK: relax.bucketize %r, %b {right = false} : !relax.tensor<ndim = 2, i64>
  %2 = relax.bucketize %r, %b {right = false}
  // CHECK: relax.bucketize %u, %w {out_int32 = false} : !relax.tensor<i64>
  %3 = relax.bucketize %u, %w {out_int32 = false}
  relax.return %0
}
