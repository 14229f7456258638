// RUN: %verify-diagnostics %s
// Errors of the element-wise binary operators: operand kinds, data types,
// broadcasting, declared result types. Each operator fails at least once.

relax.function @main(%a: !relax.shape<[4]>, %b: !relax.tensor<[4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.add: the first operand has type shape<[4]>, expected a tensor or prim value}}
  %0 = relax.add %a, %b
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[4], f32>, %b: !relax.object) -> !relax.object {
  // expected-error @+1 {{relax.subtract: the second operand has type object, expected a tensor or prim value}}
  %0 = relax.subtract %a, %b
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<[4], i32>) -> !relax.object {
  // expected-error @+1 {{relax.multiply: operands have different data types f32 and i32}}
  %0 = relax.multiply %a, %b
  relax.return %0
}

// -----

relax.function @main(%a: !relax.prim<i64>, %b: !relax.prim<f16>) -> !relax.object {
  // expected-error @+1 {{relax.divide: operands have different data types i64 and f16}}
  %0 = relax.divide %a, %b
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[n, 4], i32>, %b: !relax.tensor<[3, 5], i32>) -> !relax.object {
  // expected-error @+1 {{relax.floor_divide: dimensions 4 (axis 1 of the first operand) and 5 (axis 1 of the second) cannot be broadcast together}}
  %0 = relax.floor_divide %a, %b
  relax.return %0
}

// -----

relax.function @main(%a: !relax.prim<i32>, %b: !relax.prim<i32>) -> !relax.object {
  // expected-error @+1 {{relax.mod: result type tensor<[], i32> contradicts the inferred type prim<i32>; use relax.match_cast to check it at run time}}
  %0 = relax.mod %a, %b : !relax.tensor<[], i32>
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[n, 4], i32>) -> !relax.object {
  // expected-error @+1 {{relax.floor_mod: result type tensor<[n, 4], f32> contradicts the inferred type tensor<[n, 4], i32>; use relax.match_cast to check it at run time}}
  %0 = relax.floor_mod %a, %a : !relax.tensor<[n, 4], f32>
  relax.return %0
}

// -----

relax.function @main(%a: !relax.shape<[4]>, %b: !relax.tensor<[4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.power: the first operand has type shape<[4]>, expected a tensor or prim value}}
  %0 = relax.power %a, %b
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[4], f32>, %b: !relax.object) -> !relax.object {
  // expected-error @+1 {{relax.maximum: the second operand has type object, expected a tensor or prim value}}
  %0 = relax.maximum %a, %b
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<[4], i32>) -> !relax.object {
  // expected-error @+1 {{relax.minimum: operands have different data types f32 and i32}}
  %0 = relax.minimum %a, %b
  relax.return %0
}

// -----

relax.function @main(%a: !relax.prim<i64>, %b: !relax.prim<f16>) -> !relax.object {
  // expected-error @+1 {{relax.atan2: operands have different data types i64 and f16}}
  %0 = relax.atan2 %a, %b
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[n, 4], i32>, %b: !relax.tensor<[3, 5], i32>) -> !relax.object {
  // expected-error @+1 {{relax.log_add_exp: dimensions 4 (axis 1 of the first operand) and 5 (axis 1 of the second) cannot be broadcast together}}
  %0 = relax.log_add_exp %a, %b
  relax.return %0
}

// -----

relax.function @main(%a: !relax.prim<i32>, %b: !relax.prim<i32>) -> !relax.object {
  // expected-error @+1 {{relax.logical_and: result type tensor<[], i32> contradicts the inferred type prim<i32>; use relax.match_cast to check it at run time}}
  %0 = relax.logical_and %a, %b : !relax.tensor<[], i32>
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[n, 4], i32>) -> !relax.object {
  // expected-error @+1 {{relax.logical_or: result type tensor<[n, 4], f32> contradicts the inferred type tensor<[n, 4], i32>; use relax.match_cast to check it at run time}}
  %0 = relax.logical_or %a, %a : !relax.tensor<[n, 4], f32>
  relax.return %0
}

// -----

relax.function @main(%a: !relax.shape<[4]>, %b: !relax.tensor<[4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.logical_xor: the first operand has type shape<[4]>, expected a tensor or prim value}}
  %0 = relax.logical_xor %a, %b
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[4], f32>, %b: !relax.object) -> !relax.object {
  // expected-error @+1 {{relax.bitwise_and: the second operand has type object, expected a tensor or prim value}}
  %0 = relax.bitwise_and %a, %b
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<[4], i32>) -> !relax.object {
  // expected-error @+1 {{relax.bitwise_or: operands have different data types f32 and i32}}
  %0 = relax.bitwise_or %a, %b
  relax.return %0
}

// -----

relax.function @main(%a: !relax.prim<i64>, %b: !relax.prim<f16>) -> !relax.object {
  // expected-error @+1 {{relax.bitwise_xor: operands have different data types i64 and f16}}
  %0 = relax.bitwise_xor %a, %b
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[n, 4], i32>, %b: !relax.tensor<[3, 5], i32>) -> !relax.object {
  // expected-error @+1 {{relax.left_shift: dimensions 4 (axis 1 of the first operand) and 5 (axis 1 of the second) cannot be broadcast together}}
  %0 = relax.left_shift %a, %b
  relax.return %0
}

// -----

relax.function @main(%a: !relax.prim<i32>, %b: !relax.prim<i32>) -> !relax.object {
  // expected-error @+1 {{relax.right_shift: result type tensor<[], i32> contradicts the inferred type prim<i32>; use relax.match_cast to check it at run time}}
  %0 = relax.right_shift %a, %b : !relax.tensor<[], i32>
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[4], f32>, %b: !relax.tuple<>) -> !relax.object {
  // expected-error @+1 {{relax.equal: the second operand has type tuple<>, expected a tensor or prim value}}
  %0 = relax.equal %a, %b
  relax.return %0
}

// -----

relax.function @main(%a: !relax.shape, %b: !relax.prim<i64>) -> !relax.object {
  // expected-error @+1 {{relax.not_equal: the first operand has type shape, expected a tensor or prim value}}
  %0 = relax.not_equal %a, %b
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[2, n], f32>, %b: !relax.tensor<[3, 1], i8>) -> !relax.object {
  // expected-error @+1 {{relax.less: dimensions 2 (axis 0 of the first operand) and 3 (axis 0 of the second) cannot be broadcast together}}
  %0 = relax.less %a, %b
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[4], f32>, %b: !relax.tensor<[4], i8>) -> !relax.object {
  // expected-error @+1 {{relax.less_equal: result type tensor<[4], f32> contradicts the inferred type tensor<[4], bool>; use relax.match_cast to check it at run time}}
  %0 = relax.less_equal %a, %b : !relax.tensor<[4], f32>
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[4], f32>, %b: !relax.tuple<>) -> !relax.object {
  // expected-error @+1 {{relax.greater: the second operand has type tuple<>, expected a tensor or prim value}}
  %0 = relax.greater %a, %b
  relax.return %0
}

// -----

relax.function @main(%a: !relax.shape, %b: !relax.prim<i64>) -> !relax.object {
  // expected-error @+1 {{relax.greater_equal: the first operand has type shape, expected a tensor or prim value}}
  %0 = relax.greater_equal %a, %b
  relax.return %0
}
