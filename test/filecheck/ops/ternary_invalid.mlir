// RUN: %verify-diagnostics %s
// Errors of relax.ewise_fma.

relax.function @main(%x: !relax.prim<f32>, %y: !relax.tensor<[4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.ewise_fma: the first operand has type prim<f32>, expected a tensor}}
  %0 = relax.ewise_fma %x, %y, %y
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[4], f32>, %t: !relax.tuple<>) -> !relax.object {
  // expected-error @+1 {{relax.ewise_fma: the third operand has type tuple<>, expected a tensor}}
  %0 = relax.ewise_fma %x, %x, %t
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[4], f32>, %y: !relax.tensor<f32>, %z: !relax.tensor<ndim = 2, f32>) -> !relax.object {
  // expected-error @+1 {{relax.ewise_fma: operands have different ranks [1, 2]}}
  %0 = relax.ewise_fma %x, %y, %z
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[4], f32>, %y: !relax.tensor<[4], f32>, %z: !relax.tensor<[4], bool>) -> !relax.object {
  // expected-error @+1 {{relax.ewise_fma: operands have different data types f32, f32, bool}}
  %0 = relax.ewise_fma %x, %y, %z
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>, %y: !relax.tensor<[n, 5], f32>) -> !relax.object {
  // expected-error @+1 {{relax.ewise_fma: dimensions 4 and 5 (axis 1) differ}}
  %0 = relax.ewise_fma %x, %x, %y
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>, %y: !relax.tensor<[4, 4], f32>, %z: !relax.tensor<[5, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.ewise_fma: dimensions 4 and 5 (axis 0) differ}}
  %0 = relax.ewise_fma %x, %y, %z
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n + 1], f32>, %y: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.ewise_fma: dimensions n + 1 and n (axis 0) differ}}
  %0 = relax.ewise_fma %x, %y, %y
  relax.return %0
}
