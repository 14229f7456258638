// RUN: relax-opt %s --split-input-file | filecheck %s

// Sorting: sort keeps the data's type, argsort its shape with the index data
// type, topk replaces the axis length by k.

// CHECK-LABEL: @sort
relax.function @sort(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<ndim = 3, i32>, %c: !relax.tensor<f16>, %d: !relax.tensor<[2, m]>) -> !relax.object {
  // CHECK: relax.sort %a : !relax.tensor<[n, 4], f32>
  %0 = relax.sort %a
  // CHECK: relax.sort %a {axis = 0, descending = true} : !relax.tensor<[n, 4], f32>
  %1 = relax.sort %a {axis = 0, descending = true}
  // CHECK: relax.sort %b {axis = -3} : !relax.tensor<ndim = 3, i32>
  %2 = relax.sort %b {axis = -3}
  // with an unknown rank the axis is checked at run time
  // CHECK: relax.sort %c {axis = 5} : !relax.tensor<f16>
  %3 = relax.sort %c {axis = 5}
  // CHECK: relax.sort %d {descending = false} : !relax.tensor<[2, m]>
  %4 = relax.sort %d {descending = false}
  relax.return %0
}

// -----

// argsort: indices are i32 unless `dtype` says otherwise; `void` means the data's type.
// CHECK-LABEL: @argsort
relax.function @argsort(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<ndim = 3, i32>, %c: !relax.tensor<f16>, %d: !relax.tensor<[2, m]>) -> !relax.object {
  // CHECK: relax.argsort %a : !relax.tensor<[n, 4], i32>
  %0 = relax.argsort %a
  // CHECK: relax.argsort %a {axis = -2, descending = true, dtype = i64} : !relax.tensor<[n, 4], i64>
  %1 = relax.argsort %a {axis = -2, descending = true, dtype = i64}
  // CHECK: relax.argsort %b {axis = 2} : !relax.tensor<ndim = 3, i32>
  %2 = relax.argsort %b {axis = 2}
  // CHECK: relax.argsort %c {dtype = void} : !relax.tensor<f16>
  %3 = relax.argsort %c {dtype = void}
  // CHECK: relax.argsort %a {dtype = void} : !relax.tensor<[n, 4], f32>
  %4 = relax.argsort %a {dtype = void}
  // CHECK: relax.argsort %d {dtype = void} : !relax.tensor<[2, m]>
  %5 = relax.argsort %d {dtype = void}
  // CHECK: relax.argsort %d {dtype = f32} : !relax.tensor<[2, m], f32>
  %6 = relax.argsort %d {dtype = f32}
  relax.return %0
}

// -----

// topk: a tuple (values, indices) by default, or one of them. The axis length
// becomes k unless it is a constant not above k; k < 1 keeps all elements.
// CHECK-LABEL: @topk
relax.function @topk(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<ndim = 3, i32>, %c: !relax.tensor<f16>, %d: !relax.tensor<[2, m]>) -> !relax.object {
  // CHECK: relax.topk %a : !relax.tuple<tensor<[n, 1], f32>, tensor<[n, 1], i32>>
  %0 = relax.topk %a
  // CHECK: relax.topk %a {k = 3, axis = 0} : !relax.tuple<tensor<[3, 4], f32>, tensor<[3, 4], i32>>
  %1 = relax.topk %a {k = 3, axis = 0}
  // CHECK: relax.topk %a {k = 4} : !relax.tuple<tensor<[n, 4], f32>, tensor<[n, 4], i32>>
  %2 = relax.topk %a {k = 4}
  // CHECK: relax.topk %a {k = 9} : !relax.tuple<tensor<[n, 4], f32>, tensor<[n, 4], i32>>
  %3 = relax.topk %a {k = 9}
  // CHECK: relax.topk %a {k = 0, axis = -2} : !relax.tuple<tensor<[n, 4], f32>, tensor<[n, 4], i32>>
  %4 = relax.topk %a {k = 0, axis = -2}
  // CHECK: relax.topk %a {k = -1, ret_type = "values"} : !relax.tensor<[n, 4], f32>
  %5 = relax.topk %a {k = -1, ret_type = "values"}
  // CHECK: relax.topk %a {k = 2, ret_type = "indices", largest = false, dtype = i64} : !relax.tensor<[n, 2], i64>
  %6 = relax.topk %a {k = 2, ret_type = "indices", largest = false, dtype = i64}
  // CHECK: relax.topk %a {k = 2, ret_type = "indices", dtype = void} : !relax.tensor<[n, 2], f32>
  %7 = relax.topk %a {k = 2, ret_type = "indices", dtype = void}
  // CHECK: relax.topk %b {k = 2, axis = 1} : !relax.tuple<tensor<ndim = 3, i32>, tensor<ndim = 3, i32>>
  %8 = relax.topk %b {k = 2, axis = 1}
  // CHECK: relax.topk %c {k = 2, axis = 7, ret_type = "values"} : !relax.tensor<f16>
  %9 = relax.topk %c {k = 2, axis = 7, ret_type = "values"}
  // CHECK: relax.topk %d {k = 5} : !relax.tuple<tensor<[2, 5]>, tensor<[2, 5], i32>>
  %10 = relax.topk %d {k = 5}
  // CHECK: relax.topk %d {k = 1, axis = 0, dtype = void} : !relax.tuple<tensor<[1, m]>, tensor<[1, m]>>
  %11 = relax.topk %d {k = 1, axis = 0, dtype = void}
  relax.return %0
}
