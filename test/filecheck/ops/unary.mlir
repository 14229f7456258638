// RUN: relax-opt %s --split-input-file | filecheck %s

// Element-wise unary operators: the result keeps the input's shape (static,
// symbolic, rank only or unknown). Arithmetic keeps the data type, checks
// give bool, an unknown data type stays unknown.

// CHECK-LABEL: @any_dtype
relax.function @any_dtype(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<ndim = 3, i32>, %c: !relax.tensor<f16>, %d: !relax.tensor<[2, m]>, %e: !relax.tensor<[], bool>, %u: !relax.tensor<[3], ui8>) -> !relax.object {
  // CHECK: relax.abs %a : !relax.tensor<[n, 4], f32>
  %0 = relax.abs %a
  // CHECK: relax.abs %b : !relax.tensor<ndim = 3, i32>
  %1 = relax.abs %b
  // CHECK: relax.bitwise_not %b : !relax.tensor<ndim = 3, i32>
  %2 = relax.bitwise_not %b
  // CHECK: relax.bitwise_not %u : !relax.tensor<[3], ui8>
  %3 = relax.bitwise_not %u
  // CHECK: relax.ceil %a : !relax.tensor<[n, 4], f32>
  %4 = relax.ceil %a
  // CHECK: relax.ceil %b : !relax.tensor<ndim = 3, i32>
  %5 = relax.ceil %b
  // CHECK: relax.floor %c : !relax.tensor<f16>
  %6 = relax.floor %c
  // CHECK: relax.logical_not %e : !relax.tensor<[], bool>
  %7 = relax.logical_not %e
  // TVM's inference does not check the data type of logical_not and bitwise_not.
  // CHECK: relax.logical_not %a : !relax.tensor<[n, 4], f32>
  %8 = relax.logical_not %a
  // CHECK: relax.bitwise_not %a : !relax.tensor<[n, 4], f32>
  %9 = relax.bitwise_not %a
  // CHECK: relax.negative %d : !relax.tensor<[2, m]>
  %10 = relax.negative %d
  // CHECK: relax.negative %b : !relax.tensor<ndim = 3, i32>
  %11 = relax.negative %b
  // CHECK: relax.round %a : !relax.tensor<[n, 4], f32>
  %12 = relax.round %a
  // CHECK: relax.round %u : !relax.tensor<[3], ui8>
  %13 = relax.round %u
  // CHECK: relax.sign %b : !relax.tensor<ndim = 3, i32>
  %14 = relax.sign %b
  // CHECK: relax.sign %c : !relax.tensor<f16>
  %15 = relax.sign %c
  // CHECK: relax.square %a : !relax.tensor<[n, 4], f32>
  %16 = relax.square %a
  // CHECK: relax.square %u : !relax.tensor<[3], ui8>
  %17 = relax.square %u
  // CHECK: relax.trunc %d : !relax.tensor<[2, m]>
  %18 = relax.trunc %d
  // CHECK: relax.trunc %e : !relax.tensor<[], bool>
  %19 = relax.trunc %e
  relax.return %0
}

// -----

// CHECK-LABEL: @float_only
relax.function @float_only(%a: !relax.tensor<[n, 4], f32>, %h: !relax.tensor<[2, n], f16>, %w: !relax.tensor<ndim = 2, f64>, %o: !relax.tensor<f32>, %v: !relax.tensor<[n]>, %any: !relax.tensor) -> !relax.object {
  // CHECK: relax.acos %a : !relax.tensor<[n, 4], f32>
  %0 = relax.acos %a
  // CHECK: relax.acosh %h : !relax.tensor<[2, n], f16>
  %1 = relax.acosh %h
  // CHECK: relax.asin %w : !relax.tensor<ndim = 2, f64>
  %2 = relax.asin %w
  // CHECK: relax.asinh %o : !relax.tensor<f32>
  %3 = relax.asinh %o
  // an unknown data type passes the float check and stays unknown
  // CHECK: relax.atan %v : !relax.tensor<[n]>
  %4 = relax.atan %v
  // CHECK: relax.atanh %any : !relax.tensor
  %5 = relax.atanh %any
  // CHECK: relax.cos %a : !relax.tensor<[n, 4], f32>
  %6 = relax.cos %a
  // CHECK: relax.cosh %h : !relax.tensor<[2, n], f16>
  %7 = relax.cosh %h
  // CHECK: relax.erf %w : !relax.tensor<ndim = 2, f64>
  %8 = relax.erf %w
  // CHECK: relax.exp %o : !relax.tensor<f32>
  %9 = relax.exp %o
  // CHECK: relax.log %v : !relax.tensor<[n]>
  %10 = relax.log %v
  // CHECK: relax.rsqrt %a : !relax.tensor<[n, 4], f32>
  %11 = relax.rsqrt %a
  // CHECK: relax.sigmoid %h : !relax.tensor<[2, n], f16>
  %12 = relax.sigmoid %h
  // CHECK: relax.sin %w : !relax.tensor<ndim = 2, f64>
  %13 = relax.sin %w
  // CHECK: relax.sinh %o : !relax.tensor<f32>
  %14 = relax.sinh %o
  // CHECK: relax.sqrt %any : !relax.tensor
  %15 = relax.sqrt %any
  // CHECK: relax.tan %a : !relax.tensor<[n, 4], f32>
  %16 = relax.tan %a
  // CHECK: relax.tanh %h : !relax.tensor<[2, n], f16>
  %17 = relax.tanh %h
  // a less specific declared type is accepted
  // CHECK: relax.exp %a : !relax.tensor<ndim = 2, f32>
  %18 = relax.exp %a : !relax.tensor<ndim = 2, f32>
  relax.return %0
}

// -----

// CHECK-LABEL: @checks
relax.function @checks(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<ndim = 3, i32>, %v: !relax.tensor<[n]>, %any: !relax.tensor, %e: !relax.tensor<[], bool>) -> !relax.object {
  // CHECK: relax.isfinite %a : !relax.tensor<[n, 4], bool>
  %0 = relax.isfinite %a
  // CHECK: relax.isfinite %b : !relax.tensor<ndim = 3, bool>
  %1 = relax.isfinite %b
  // CHECK: relax.isinf %v : !relax.tensor<[n], bool>
  %2 = relax.isinf %v
  // CHECK: relax.isinf %any : !relax.tensor<bool>
  %3 = relax.isinf %any
  // CHECK: relax.isnan %a : !relax.tensor<[n, 4], bool>
  %4 = relax.isnan %a
  // CHECK: relax.isnan %e : !relax.tensor<[], bool>
  %5 = relax.isnan %e
  relax.return %0
}

// -----

// clip returns the type of its first operand; the bounds are prim values of
// any data type (cast to the tensor's at run time).
// CHECK-LABEL: @clip
relax.function @clip(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<ndim = 3, i32>, %any: !relax.tensor, %lo: !relax.prim<i64, n>, %hi: !relax.prim<f32>, %p: !relax.prim<f64>, %s: !relax.shape<[n]>) -> !relax.object {
  %zero = relax.prim_value 0
  %half = relax.prim_value 0.5
  // CHECK: relax.clip %a, %zero, %half : !relax.tensor<[n, 4], f32>
  %0 = relax.clip %a, %zero, %half
  // CHECK: relax.clip %b, %lo, %hi : !relax.tensor<ndim = 3, i32>
  %1 = relax.clip %b, %lo, %hi
  // CHECK: relax.clip %any, %zero, %zero : !relax.tensor
  %2 = relax.clip %any, %zero, %zero
  // CHECK: relax.clip %p, %zero, %half : !relax.prim<f64>
  %3 = relax.clip %p, %zero, %half
  // TVM's inference does not check the first operand
  // CHECK: relax.clip %s, %zero, %zero : !relax.shape<[n]>
  %4 = relax.clip %s, %zero, %zero
  relax.return %0
}
