// RUN: relax-opt %s --split-input-file | filecheck %s

// Set operators: their result lengths depend on the data, so only ranks are
// inferred. The flags of unique are prim values; the return_* flags must be
// constants since they decide the result type.

// CHECK-LABEL: @unique
relax.function @unique(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<ndim = 3, i32>, %c: !relax.tensor<f16>, %d: !relax.tensor<[2, m]>, %e: !relax.tensor<[], i8>, %s: !relax.prim<bool>, %k: !relax.prim<i64>) -> !relax.object {
  %t = relax.prim_value true
  %f = relax.prim_value false
  %one = relax.prim_value 1
  %zero = relax.prim_value 0
  %neg = relax.prim_value -1
  // the values of the flattened input
  // CHECK: relax.unique %a, %t, %f, %f, %f : !relax.tensor<ndim = 1, f32>
  %0 = relax.unique %a, %t, %f, %f, %f
  // CHECK: relax.unique %a, %f, %t, %t, %t : !relax.tuple<tensor<ndim = 1, f32>, tensor<ndim = 1, i64>, tensor<ndim = 1, i64>, tensor<ndim = 1, i64>>
  %1 = relax.unique %a, %f, %t, %t, %t
  // integer flags work as well; `sorted` may be unknown until run time
  // CHECK: relax.unique %a, %s, %zero, %one, %zero : !relax.tuple<tensor<ndim = 1, f32>, tensor<ndim = 1, i64>>
  %2 = relax.unique %a, %s, %zero, %one, %zero
  // along an axis: the slices keep the input's rank
  // CHECK: relax.unique %a, %t, %f, %f, %t, %one : !relax.tuple<tensor<ndim = 2, f32>, tensor<ndim = 1, i64>>
  %3 = relax.unique %a, %t, %f, %f, %t, %one
  // CHECK: relax.unique %b, %t, %f, %f, %f, %neg : !relax.tensor<ndim = 3, i32>
  %4 = relax.unique %b, %t, %f, %f, %f, %neg
  // an axis known only at run time
  // CHECK: relax.unique %b, %t, %t, %f, %f, %k : !relax.tuple<tensor<ndim = 3, i32>, tensor<ndim = 1, i64>>
  %5 = relax.unique %b, %t, %t, %f, %f, %k
  // unknown rank: the axis is checked at run time
  // CHECK: relax.unique %c, %t, %f, %f, %f, %one : !relax.tensor<f16>
  %6 = relax.unique %c, %t, %f, %f, %f, %one
  // CHECK: relax.unique %c, %t, %f, %t, %f : !relax.tuple<tensor<ndim = 1, f16>, tensor<ndim = 1, i64>>
  %7 = relax.unique %c, %t, %f, %t, %f
  // CHECK: relax.unique %d, %t, %f, %f, %f : !relax.tensor<ndim = 1>
  %8 = relax.unique %d, %t, %f, %f, %f
  // a scalar gives one value
  // CHECK: relax.unique %e, %t, %t, %t, %t : !relax.tuple<tensor<[1], i8>, tensor<[1], i64>, tensor<[1], i64>, tensor<[1], i64>>
  %9 = relax.unique %e, %t, %t, %t, %t
  relax.return %0
}

// -----

// CHECK-LABEL: @nonzero
relax.function @nonzero(%a: !relax.tensor<[n, 4], f32>, %c: !relax.tensor, %e: !relax.tensor<[], bool>) -> !relax.object {
  // CHECK: relax.nonzero %a : !relax.tensor<ndim = 2, i64>
  %0 = relax.nonzero %a
  // CHECK: relax.nonzero %c : !relax.tensor<ndim = 2, i64>
  %1 = relax.nonzero %c
  // CHECK: relax.nonzero %e : !relax.tensor<ndim = 2, i64>
  %2 = relax.nonzero %e
  relax.return %0
}

// -----

// A match_cast binds the data-dependent lengths to new symbolic variables,
// which the later bindings then use.
// CHECK-LABEL: @recover_shape
relax.function @recover_shape(%x: !relax.tensor<[n], i32>) -> !relax.object {
  %t = relax.prim_value true
  %f = relax.prim_value false
  %u = relax.unique %x, %t, %f, %f, %t
  %values = relax.tuple_get_item %u[0]
  %counts = relax.tuple_get_item %u[1]
  // CHECK: %v = relax.match_cast %values : !relax.tensor<[m], i32>
  %v = relax.match_cast %values : !relax.tensor<[m], i32>
  // CHECK: %c = relax.match_cast %counts : !relax.tensor<[m], i64>
  %c = relax.match_cast %counts : !relax.tensor<[m], i64>
  // CHECK: relax.add %v, %v : !relax.tensor<[m], i32>
  %0 = relax.add %v, %v
  // CHECK: relax.argsort %c {descending = true} : !relax.tensor<[m], i32>
  %1 = relax.argsort %c {descending = true}
  // CHECK: relax.topk %v {k = 2} : !relax.tuple<tensor<[2], i32>, tensor<[2], i32>>
  %2 = relax.topk %v {k = 2}
  %nz = relax.nonzero %x
  // CHECK: %z = relax.match_cast %nz : !relax.tensor<[1, p], i64>
  %z = relax.match_cast %nz : !relax.tensor<[1, p], i64>
  // CHECK: relax.shape [m, p] : !relax.shape<[m, p]>
  %3 = relax.shape [m, p]
  %4 = relax.tuple(%0, %1, %3)
  relax.return %4
}
