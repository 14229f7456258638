// RUN: %verify-diagnostics %s
// Errors of the search operators.

relax.function @main(%c: !relax.prim<bool>, %x: !relax.tensor<[4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.where: the condition operand has type prim<bool>, expected a tensor}}
  %0 = relax.where %c, %x, %x
  relax.return %0
}

// -----

relax.function @main(%c: !relax.tensor<[4], bool>, %x: !relax.tensor<[4], f32>, %p: !relax.prim<f32>) -> !relax.object {
  // expected-error @+1 {{relax.where: the second value operand has type prim<f32>, expected a tensor}}
  %0 = relax.where %c, %x, %p
  relax.return %0
}

// -----

relax.function @main(%c: !relax.tensor<[4], f32>, %x: !relax.tensor<[4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.where: the condition has data type f32, expected bool}}
  %0 = relax.where %c, %x, %x
  relax.return %0
}

// -----

relax.function @main(%c: !relax.tensor<[4]>, %x: !relax.tensor<[4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.where: the condition has data type void, expected bool}}
  %0 = relax.where %c, %x, %x
  relax.return %0
}

// -----

relax.function @main(%c: !relax.tensor<[4], bool>, %x: !relax.tensor<[4], f32>, %y: !relax.tensor<[4], i32>) -> !relax.object {
  // expected-error @+1 {{relax.where: operands have different data types f32 and i32}}
  %0 = relax.where %c, %x, %y
  relax.return %0
}

// -----

relax.function @main(%c: !relax.tensor<[4], bool>, %x: !relax.tensor<[n, 4], f32>, %y: !relax.tensor<[3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.where: dimensions 4 (axis 1 of the first operand) and 3 (axis 0 of the second) cannot be broadcast together}}
  %0 = relax.where %c, %x, %y
  relax.return %0
}

// -----

relax.function @main(%c: !relax.tensor<[5, 1], bool>, %x: !relax.tensor<[n, 1, 3], f32>, %y: !relax.tensor<[4, 1], f32>) -> !relax.object {
  // expected-error @+1 {{relax.where: the condition's shape [5, 1] cannot be broadcast with the values' shape [n, 4, 3]}}
  %0 = relax.where %c, %x, %y
  relax.return %0
}

// -----

relax.function @main(%c: !relax.tensor<[4], bool>, %x: !relax.tensor<[4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.where: result type tensor<[4], i32> contradicts the inferred type tensor<[4], f32>; use relax.match_cast to check it at run time}}
  %0 = relax.where %c, %x, %x : !relax.tensor<[4], i32>
  relax.return %0
}

// -----

relax.function @main(%x: !relax.shape<[4]>) -> !relax.object {
  // expected-error @+1 {{relax.argmax: the input operand has type shape<[4]>, expected a tensor}}
  %0 = relax.argmax %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.argmax: axis 2 is out of range for a tensor of 2 dimensions (expected [-2, 2))}}
  %0 = relax.argmax %x {axis = 2}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<ndim = 2, f32>) -> !relax.object {
  // expected-error @+1 {{relax.argmin: axis -3 is out of range for a tensor of 2 dimensions (expected [-2, 2))}}
  %0 = relax.argmin %x {axis = -3, keepdims = true}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[], i32>) -> !relax.object {
  // expected-error @+1 {{relax.argmin: axis 0 is out of range for a tensor of 0 dimensions (expected [0, 0))}}
  %0 = relax.argmin %x {axis = 0}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.object) -> !relax.object {
  // expected-error @+1 {{relax.argmin: the input operand has type object, expected a tensor}}
  %0 = relax.argmin %x {axis = 0}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.argmax: result type tensor<[n], i32> contradicts the inferred type tensor<[n], i64>; use relax.match_cast to check it at run time}}
  %0 = relax.argmax %x {axis = 1} : !relax.tensor<[n], i32>
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.argmin: result type tensor<[n, 4], i64> contradicts the inferred type tensor<[n, 1], i64>; use relax.match_cast to check it at run time}}
  %0 = relax.argmin %x {axis = 1, keepdims = true} : !relax.tensor<[n, 4], i64>
  relax.return %0
}

// -----

relax.function @main(%x: !relax.prim<f32>, %b: !relax.tensor<[4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.bucketize: the input operand has type prim<f32>, expected a tensor}}
  %0 = relax.bucketize %x, %b
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[4], f32>, %b: !relax.shape<[4]>) -> !relax.object {
  // expected-error @+1 {{relax.bucketize: the boundaries operand has type shape<[4]>, expected a tensor}}
  %0 = relax.bucketize %x, %b
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[4], f32>, %b: !relax.tensor<[2, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.bucketize: the boundaries have 2 dimensions, expected 1}}
  %0 = relax.bucketize %x, %b
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[4], f32>, %b: !relax.tensor<[], f32>) -> !relax.object {
  // expected-error @+1 {{relax.bucketize: the boundaries have 0 dimensions, expected 1}}
  %0 = relax.bucketize %x, %b {right = true}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[4], f32>, %b: !relax.tensor<[4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.bucketize: result type tensor<[4], i64> contradicts the inferred type tensor<[4], i32>; use relax.match_cast to check it at run time}}
  %0 = relax.bucketize %x, %b {out_int32 = true} : !relax.tensor<[4], i64>
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[4], f32>) -> !relax.object {
  // expected-error @+1 {{Expected attribute i1 but got i64}}
  %0 = relax.argmax %x {keepdims = 1}
  relax.return %0
}
