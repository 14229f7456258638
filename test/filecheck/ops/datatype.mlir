// RUN: relax-opt %s --split-input-file | filecheck %s

// Data-type conversion: the result keeps the input's shape (static, symbolic,
// rank only or unknown) and takes the data type of the `dtype` attribute.

// CHECK-LABEL: @astype
relax.function @astype(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<ndim = 3, i32>, %c: !relax.tensor<f16>, %d: !relax.tensor<[2, m]>, %e: !relax.tensor<[], bool>) -> !relax.object {
  // CHECK: relax.astype %a {dtype = i32} : !relax.tensor<[n, 4], i32>
  %0 = relax.astype %a {dtype = i32}
  // CHECK: relax.astype %b {dtype = f16} : !relax.tensor<ndim = 3, f16>
  %1 = relax.astype %b {dtype = f16}
  // CHECK: relax.astype %c {dtype = bool} : !relax.tensor<bool>
  %2 = relax.astype %c {dtype = bool}
  // an unknown input data type does not matter
  // CHECK: relax.astype %d {dtype = ui8} : !relax.tensor<[2, m], ui8>
  %3 = relax.astype %d {dtype = ui8}
  // TVM's spellings are accepted; the same type is a copy
  // CHECK: relax.astype %e {dtype = f64} : !relax.tensor<[], f64>
  %4 = relax.astype %e {dtype = float64}
  // CHECK: relax.astype %a {dtype = f32} : !relax.tensor<[n, 4], f32>
  %5 = relax.astype %a {dtype = f32}
  // a declared type may be weaker than the inferred one
  // CHECK: relax.astype %a {dtype = i8} : !relax.tensor<ndim = 2, i8>
  %6 = relax.astype %a {dtype = i8} : !relax.tensor<ndim = 2, i8>
  relax.return %0
}

// -----

// wrap_param converts to f32 unless told otherwise.
// CHECK-LABEL: @wrap_param
relax.function @wrap_param(%w: !relax.tensor<[n, 4], f16>, %v: !relax.tensor) -> !relax.object {
  // CHECK: relax.wrap_param %w : !relax.tensor<[n, 4], f32>
  %0 = relax.wrap_param %w
  // CHECK: relax.wrap_param %w {dtype = f16} : !relax.tensor<[n, 4], f16>
  %1 = relax.wrap_param %w {dtype = f16}
  // CHECK: relax.wrap_param %v : !relax.tensor<f32>
  %2 = relax.wrap_param %v
  relax.return %0
}
