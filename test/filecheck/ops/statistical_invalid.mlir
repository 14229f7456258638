// RUN: %verify-diagnostics %s
// Every error of the reductions and scans.

relax.function @main(%x: !relax.shape<[2]>) -> !relax.object {
  // expected-error @+1 {{relax.sum: the x operand has type shape<[2]>, expected a tensor}}
  %0 = relax.sum %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.prim<f32>) -> !relax.object {
  // expected-error @+1 {{relax.mean: the x operand has type prim<f32>, expected a tensor}}
  %0 = relax.mean %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.object) -> !relax.object {
  // expected-error @+1 {{relax.max: the x operand has type object, expected a tensor}}
  %0 = relax.max %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tuple<>) -> !relax.object {
  // expected-error @+1 {{relax.min: the x operand has type tuple<>, expected a tensor}}
  %0 = relax.min %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.shape) -> !relax.object {
  // expected-error @+1 {{relax.prod: the x operand has type shape, expected a tensor}}
  %0 = relax.prod %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.prim<i32>) -> !relax.object {
  // expected-error @+1 {{relax.std: the x operand has type prim<i32>, expected a tensor}}
  %0 = relax.std %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.object) -> !relax.object {
  // expected-error @+1 {{relax.variance: the x operand has type object, expected a tensor}}
  %0 = relax.variance %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.prim<f32>) -> !relax.object {
  // expected-error @+1 {{relax.cumsum: the data operand has type prim<f32>, expected a tensor}}
  %0 = relax.cumsum %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.shape<[n]>) -> !relax.object {
  // expected-error @+1 {{relax.cumprod: the data operand has type shape<[n]>, expected a tensor}}
  %0 = relax.cumprod %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.sum: axis 2 is out of range for a tensor of 2 dimensions (expected [-2, 2))}}
  %0 = relax.sum %x {axis = [2]}
  relax.return %0
}

// -----

// a known rank is enough to check the axes
relax.function @main(%x: !relax.tensor<ndim = 3, f32>) -> !relax.object {
  // expected-error @+1 {{relax.mean: axis -4 is out of range for a tensor of 3 dimensions (expected [-3, 3))}}
  %0 = relax.mean %x {axis = [0, -4], keepdims = true}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[], f32>) -> !relax.object {
  // expected-error @+1 {{relax.max: axis 0 is out of range for a tensor of 0 dimensions (expected [0, 0))}}
  %0 = relax.max %x {axis = [0]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.variance: axes [1, -1] repeat an axis}}
  %0 = relax.variance %x {axis = [1, -1]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.std: axis must be a list of integers}}
  %0 = relax.std %x {axis = [0.5]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.prod: result type tensor<[n, 1], f32> contradicts the inferred type tensor<[1, 4], f32>; use relax.match_cast to check it at run time}}
  %0 = relax.prod %x {axis = [0], keepdims = true} : !relax.tensor<[n, 1], f32>
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.min: result type tensor<ndim = 2, f32> contradicts the inferred type tensor<[], f32>}}
  %0 = relax.min %x : !relax.tensor<ndim = 2, f32>
  relax.return %0
}

// -----

// TVM checks the axis of a scan only when the kernel runs
relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.cumsum: axis 2 is out of range for a tensor of 2 dimensions (expected [-2, 2))}}
  %0 = relax.cumsum %x {axis = 2}
  relax.return %0
}

// -----

// a scalar has no axis to scan (flatten it by leaving the axis unset)
relax.function @main(%x: !relax.tensor<[], i32>) -> !relax.object {
  // expected-error @+1 {{relax.cumprod: axis -1 is out of range for a tensor of 0 dimensions (expected [0, 0))}}
  %0 = relax.cumprod %x {axis = -1}
  relax.return %0
}

// -----

// without an axis the result is flat
relax.function @main(%x: !relax.tensor<ndim = 3, f32>) -> !relax.object {
  // expected-error @+1 {{relax.cumsum: result type tensor<ndim = 3, f32> contradicts the inferred type tensor<ndim = 1, f32>}}
  %0 = relax.cumsum %x : !relax.tensor<ndim = 3, f32>
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], i32>) -> !relax.object {
  // expected-error @+1 {{relax.cumsum: result type tensor<[n, 4], i32> contradicts the inferred type tensor<[n, 4], i64>}}
  %0 = relax.cumsum %x {axis = 0, dtype = i64} : !relax.tensor<[n, 4], i32>
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.median: axes [1, -1] repeat an axis}}
  %0 = relax.median %x {axis = [1, -1]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.median: axis 2 is out of range for a tensor of 2 dimensions (expected [-2, 2))}}
  %0 = relax.median %x {axis = [2]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.median: result type tensor<[n], f32> contradicts the inferred type tuple<tensor<[n], f32>, tensor<[n], i64>>}}
  %0 = relax.median %x {axis = [1]} : !relax.tensor<[n], f32>
  relax.return %0
}
