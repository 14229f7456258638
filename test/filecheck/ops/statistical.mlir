// RUN: relax-opt %s --split-input-file | filecheck %s

// Reductions drop the reduced axes (or keep them as 1 with keepdims) and keep
// the data type; scans keep the shape, or flatten it without an axis.

// CHECK-LABEL: @sum
relax.function @sum(%a: !relax.tensor<[n, 3, 4], f32>, %z: !relax.tensor<[], f32>) -> !relax.object {
  // no axis: every axis
  // CHECK: relax.sum %a : !relax.tensor<[], f32>
  %0 = relax.sum %a
  // CHECK: relax.sum %a {keepdims = true} : !relax.tensor<[1, 1, 1], f32>
  %1 = relax.sum %a {keepdims = true}
  // CHECK: relax.sum %a {axis = [1]} : !relax.tensor<[n, 4], f32>
  %2 = relax.sum %a {axis = [1]}
  // negative axes count from the end
  // CHECK: relax.sum %a {axis = [0, -1], keepdims = true} : !relax.tensor<[1, 3, 1], f32>
  %3 = relax.sum %a {axis = [0, -1], keepdims = true}
  // CHECK: relax.sum %a {axis = [-1, 0]} : !relax.tensor<[3], f32>
  %4 = relax.sum %a {axis = [-1, 0]}
  // an empty axis list reduces nothing
  // CHECK: relax.sum %a {axis = [], keepdims = false} : !relax.tensor<[n, 3, 4], f32>
  %5 = relax.sum %a {axis = [], keepdims = false}
  // CHECK: relax.sum %a {axis = [0, 1, 2]} : !relax.tensor<[], f32>
  %6 = relax.sum %a {axis = [0, 1, 2]}
  // CHECK: relax.sum %z {keepdims = true} : !relax.tensor<[], f32>
  %7 = relax.sum %z {keepdims = true}
  relax.return %0
}

// -----

// Without a shape only the rank is known, except for a full reduction (TVM:
// `[]`, or all ones with keepdims); with an unknown rank only a full reduction
// without keepdims is known.
// CHECK-LABEL: @unknown
relax.function @unknown(%r: !relax.tensor<ndim = 3, f32>, %u: !relax.tensor<f16>, %v: !relax.tensor<[n, m]>) -> !relax.object {
  // CHECK: relax.sum %r : !relax.tensor<[], f32>
  %0 = relax.sum %r
  // CHECK: relax.sum %r {keepdims = true} : !relax.tensor<[1, 1, 1], f32>
  %1 = relax.sum %r {keepdims = true}
  // CHECK: relax.sum %r {axis = [1]} : !relax.tensor<ndim = 2, f32>
  %2 = relax.sum %r {axis = [1]}
  // CHECK: relax.sum %r {axis = [1], keepdims = true} : !relax.tensor<ndim = 3, f32>
  %3 = relax.sum %r {axis = [1], keepdims = true}
  // CHECK: relax.sum %r {axis = [0, 1, -1]} : !relax.tensor<[], f32>
  %4 = relax.sum %r {axis = [0, 1, -1]}
  // CHECK: relax.sum %u : !relax.tensor<[], f16>
  %5 = relax.sum %u
  // CHECK: relax.sum %u {keepdims = true} : !relax.tensor<f16>
  %6 = relax.sum %u {keepdims = true}
  // with an unknown rank the axes are not checked
  // CHECK: relax.sum %u {axis = [7]} : !relax.tensor<f16>
  %7 = relax.sum %u {axis = [7]}
  // an unknown data type stays unknown
  // CHECK: relax.sum %v {axis = [0]} : !relax.tensor<[m]>
  %8 = relax.sum %v {axis = [0]}
  relax.return %0
}

// -----

// The other reductions share the rule; the data type is the input's (integer
// data gives an integer mean, variance and std, as in TVM).
// CHECK-LABEL: @reductions
relax.function @reductions(%a: !relax.tensor<[n, 3], f32>, %i: !relax.tensor<[2, n], i32>, %b: !relax.tensor<[4], bool>) -> !relax.object {
  // CHECK: relax.mean %a {axis = [1]} : !relax.tensor<[n], f32>
  %0 = relax.mean %a {axis = [1]}
  // CHECK: relax.mean %i {axis = [-1], keepdims = true} : !relax.tensor<[2, 1], i32>
  %1 = relax.mean %i {axis = [-1], keepdims = true}
  // CHECK: relax.max %a {axis = [0]} : !relax.tensor<[3], f32>
  %2 = relax.max %a {axis = [0]}
  // CHECK: relax.min %i : !relax.tensor<[], i32>
  %3 = relax.min %i
  // CHECK: relax.prod %i {axis = [0]} : !relax.tensor<[n], i32>
  %4 = relax.prod %i {axis = [0]}
  // CHECK: relax.std %i {axis = [1]} : !relax.tensor<[2], i32>
  %5 = relax.std %i {axis = [1]}
  // CHECK: relax.variance %a {keepdims = true} : !relax.tensor<[1, 1], f32>
  %6 = relax.variance %a {keepdims = true}
  // CHECK: relax.sum %b : !relax.tensor<[], bool>
  %7 = relax.sum %b
  relax.return %0
}

// -----

// cumsum / cumprod: the data's shape with `dtype` (default: the data's);
// without an axis the flattened length.
// CHECK-LABEL: @scans
relax.function @scans(%a: !relax.tensor<[n, 3, 4], f32>, %i: !relax.tensor<[2, n], i32>, %z: !relax.tensor<[], f32>, %r: !relax.tensor<ndim = 3, f16>, %u: !relax.tensor<f16>) -> !relax.object {
  // CHECK: relax.cumsum %a : !relax.tensor<[12 * n], f32>
  %0 = relax.cumsum %a
  // CHECK: relax.cumsum %a {axis = 1} : !relax.tensor<[n, 3, 4], f32>
  %1 = relax.cumsum %a {axis = 1}
  // CHECK: relax.cumsum %i {axis = -1, dtype = i64, exclusive = true} : !relax.tensor<[2, n], i64>
  %2 = relax.cumsum %i {axis = -1, dtype = i64, exclusive = true}
  // CHECK: relax.cumprod %i {dtype = f32} : !relax.tensor<[2 * n], f32>
  %3 = relax.cumprod %i {dtype = f32}
  // a scalar flattens to one element
  // CHECK: relax.cumprod %z : !relax.tensor<[1], f32>
  %4 = relax.cumprod %z
  // CHECK: relax.cumprod %r {axis = 2, exclusive = false} : !relax.tensor<ndim = 3, f16>
  %5 = relax.cumprod %r {axis = 2, exclusive = false}
  // flattening an unknown shape gives a 1-D tensor (TVM keeps the input rank)
  // CHECK: relax.cumsum %r : !relax.tensor<ndim = 1, f16>
  %6 = relax.cumsum %r
  // CHECK: relax.cumsum %u : !relax.tensor<ndim = 1, f16>
  %7 = relax.cumsum %u
  // with an unknown rank the axis is not checked
  // CHECK: relax.cumsum %u {axis = 4} : !relax.tensor<f16>
  %8 = relax.cumsum %u {axis = 4}
  // `void` means the data's type
  // CHECK: relax.cumsum %a {axis = 0, dtype = void} : !relax.tensor<[n, 3, 4], f32>
  %9 = relax.cumsum %a {axis = 0, dtype = void}
  relax.return %0
}

// -----

// median: a reduction's shape; over one axis a tuple with the i64 positions.
// CHECK-LABEL: @median
relax.function @median(%a: !relax.tensor<[n, 3, 4], f32>, %r: !relax.tensor<ndim = 3, f16>, %u: !relax.tensor<i32>, %v: !relax.tensor<ndim = 1, f32>) -> !relax.object {
  // CHECK: relax.median %a : !relax.tensor<[], f32>
  %0 = relax.median %a
  // CHECK: relax.median %a {keepdims = true} : !relax.tensor<[1, 1, 1], f32>
  %1 = relax.median %a {keepdims = true}
  // CHECK: relax.median %a {axis = [1]} : !relax.tuple<tensor<[n, 4], f32>, tensor<[n, 4], i64>>
  %2 = relax.median %a {axis = [1]}
  // CHECK: relax.median %a {axis = [-1], keepdims = true} : !relax.tuple<tensor<[n, 3, 1], f32>, tensor<[n, 3, 1], i64>>
  %3 = relax.median %a {axis = [-1], keepdims = true}
  // several axes give the values only
  // CHECK: relax.median %a {axis = [0, 2]} : !relax.tensor<[3], f32>
  %4 = relax.median %a {axis = [0, 2]}
  // without a shape, TVM's fallback: a tuple whenever dimensions remain
  // CHECK: relax.median %r {axis = [0, 1]} : !relax.tuple<tensor<ndim = 1, f16>, tensor<ndim = 1, i64>>
  %5 = relax.median %r {axis = [0, 1]}
  // CHECK: relax.median %r {keepdims = true} : !relax.tensor<[1, 1, 1], f16>
  %6 = relax.median %r {keepdims = true}
  // CHECK: relax.median %v {axis = [0]} : !relax.tensor<[], f32>
  %7 = relax.median %v {axis = [0]}
  // CHECK: relax.median %u : !relax.tensor<[], i32>
  %8 = relax.median %u
  // CHECK: relax.median %u {keepdims = true} : !relax.tuple<tensor<i32>, tensor<i64>>
  %9 = relax.median %u {keepdims = true}
  // CHECK: relax.median %u {axis = [3]} : !relax.tuple<tensor<i32>, tensor<i64>>
  %10 = relax.median %u {axis = [3]}
  relax.return %0
}
