// RUN: %verify-diagnostics %s
// Every error of the sorting operators.

relax.function @main(%x: !relax.prim<f32>) -> !relax.object {
  // expected-error @+1 {{relax.sort: the data operand has type prim<f32>, expected a tensor}}
  %0 = relax.sort %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.shape<[2]>) -> !relax.object {
  // expected-error @+1 {{relax.argsort: the data operand has type shape<[2]>, expected a tensor}}
  %0 = relax.argsort %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.object) -> !relax.object {
  // expected-error @+1 {{relax.topk: the data operand has type object, expected a tensor}}
  %0 = relax.topk %x
  relax.return %0
}

// -----

// TVM checks the axis of sort and argsort only when the kernel runs.
relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.sort: axis 2 is out of range for a tensor of 2 dimensions (expected [-2, 2))}}
  %0 = relax.sort %x {axis = 2}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[], f32>) -> !relax.object {
  // expected-error @+1 {{relax.sort: axis -1 is out of range for a tensor of 0 dimensions (expected [0, 0))}}
  %0 = relax.sort %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<ndim = 3, f32>) -> !relax.object {
  // expected-error @+1 {{relax.argsort: axis -4 is out of range for a tensor of 3 dimensions (expected [-3, 3))}}
  %0 = relax.argsort %x {axis = -4}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.topk: axis -3 is out of range for a tensor of 2 dimensions (expected [-2, 2))}}
  %0 = relax.topk %x {axis = -3}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<ndim = 2, f32>) -> !relax.object {
  // expected-error @+1 {{relax.topk: axis 2 is out of range for a tensor of 2 dimensions (expected [-2, 2))}}
  %0 = relax.topk %x {axis = 2}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.topk: ret_type 'all' is not one of 'both', 'values', 'indices'}}
  %0 = relax.topk %x {ret_type = "all"}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.topk: result type tensor<[n, 2], f32> contradicts the inferred type tuple<tensor<[n, 2], f32>, tensor<[n, 2], i32>>}}
  %0 = relax.topk %x {k = 2} : !relax.tensor<[n, 2], f32>
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.argsort: result type tensor<[n, 4], i64> contradicts the inferred type tensor<[n, 4], i32>}}
  %0 = relax.argsort %x : !relax.tensor<[n, 4], i64>
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  // expected-error @+1 {{Expected attribute i1 but got i64}}
  %0 = relax.sort %x {descending = 1}
  relax.return %0
}
