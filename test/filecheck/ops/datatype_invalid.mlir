// RUN: %verify-diagnostics %s
// Every error of the data-type conversions.

relax.function @main(%x: !relax.prim<f32>) -> !relax.object {
  // expected-error @+1 {{relax.astype: the input operand has type prim<f32>, expected a tensor}}
  %0 = relax.astype %x {dtype = i32}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tuple<tensor<[2], f32>>) -> !relax.object {
  // expected-error @+1 {{relax.wrap_param: the input operand has type tuple<tensor<[2], f32>>, expected a tensor}}
  %0 = relax.wrap_param %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2], f32>) -> !relax.object {
  // expected-error @+1 {{property 'dtype' expected}}
  %0 = relax.astype %x : !relax.tensor<[2], f32>
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.astype: result type tensor<[n, 4], f32> contradicts the inferred type tensor<[n, 4], i32>}}
  %0 = relax.astype %x {dtype = i32} : !relax.tensor<[n, 4], f32>
  relax.return %0
}

// -----

// TVM accepts it, but no kernel can produce an unknown data type.
relax.function @main(%x: !relax.tensor<[2], f32>) -> !relax.object {
  // expected-error @+1 {{relax.wrap_param: cannot convert to void (an unknown data type)}}
  %0 = relax.wrap_param %x {dtype = void}
  relax.return %0
}
