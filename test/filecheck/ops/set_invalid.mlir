// RUN: %verify-diagnostics %s
// Every error of the set operators.

relax.function @main(%x: !relax.prim<f32>) -> !relax.object {
  %t = relax.prim_value true
  // expected-error @+1 {{relax.unique: the input operand has type prim<f32>, expected a tensor}}
  %0 = relax.unique %x, %t, %t, %t, %t
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n], f32>, %s: !relax.tensor<[], bool>) -> !relax.object {
  %t = relax.prim_value true
  // expected-error @+1 {{relax.unique: sorted has type tensor<[], bool>, expected an integer or bool prim value}}
  %0 = relax.unique %x, %s, %t, %t, %t
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n], f32>) -> !relax.object {
  %t = relax.prim_value true
  %h = relax.prim_value 0.5
  // expected-error @+1 {{relax.unique: return_counts has type prim<f32, 0.5>, expected an integer or bool prim value}}
  %0 = relax.unique %x, %t, %t, %t, %h
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n], f32>, %r: !relax.prim<bool>) -> !relax.object {
  %t = relax.prim_value true
  // expected-error @+1 {{relax.unique: return_index must be a constant prim value, got an unknown value}}
  %0 = relax.unique %x, %t, %r, %t, %t
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n], f32>) -> !relax.object {
  %t = relax.prim_value true
  %r = relax.prim_value n
  // expected-error @+1 {{relax.unique: return_inverse must be a constant prim value, got n}}
  %0 = relax.unique %x, %t, %t, %r, %t
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n], f32>, %a: !relax.shape<[1]>) -> !relax.object {
  %t = relax.prim_value true
  // expected-error @+1 {{relax.unique: axis has type shape<[1]>, expected an integer or bool prim value}}
  %0 = relax.unique %x, %t, %t, %t, %t, %a
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  %t = relax.prim_value true
  %a = relax.prim_value -3
  // expected-error @+1 {{relax.unique: axis -3 is out of range for a tensor of 2 dimensions (expected [-2, 2))}}
  %0 = relax.unique %x, %t, %t, %t, %t, %a
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[], f32>) -> !relax.object {
  %t = relax.prim_value true
  %a = relax.prim_value 0
  // expected-error @+1 {{relax.unique: axis 0 is out of range for a tensor of 0 dimensions (expected [0, 0))}}
  %0 = relax.unique %x, %t, %t, %t, %t, %a
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n], f32>) -> !relax.object {
  %t = relax.prim_value true
  %f = relax.prim_value false
  // expected-error @+1 {{relax.unique: result type tensor<[n, 1], f32> contradicts the inferred type tensor<ndim = 1, f32>}}
  %0 = relax.unique %x, %t, %f, %f, %f : !relax.tensor<[n, 1], f32>
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n], f32>) -> !relax.object {
  %t = relax.prim_value true
  %f = relax.prim_value false
  // expected-error @+1 {{relax.unique: result type tensor<ndim = 1, f32> contradicts the inferred type tuple<tensor<ndim = 1, f32>, tensor<ndim = 1, i64>>}}
  %0 = relax.unique %x, %t, %f, %f, %t : !relax.tensor<ndim = 1, f32>
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tuple<>) -> !relax.object {
  // expected-error @+1 {{relax.nonzero: the input operand has type tuple<>, expected a tensor}}
  %0 = relax.nonzero %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nonzero: result type tensor<ndim = 1, i64> contradicts the inferred type tensor<ndim = 2, i64>}}
  %0 = relax.nonzero %x : !relax.tensor<ndim = 1, i64>
  relax.return %0
}
