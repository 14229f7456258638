// RUN: %verify-diagnostics %s
// Every error of every element-wise unary operator.

// An operand that is not a tensor (clip excepted: TVM does not check it).
relax.function @main(%x: !relax.prim<f32>) -> !relax.object {
  // expected-error @+1 {{relax.abs: the input operand has type prim<f32>, expected a tensor}}
  %0 = relax.abs %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.shape<[n]>, %n: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.acos: the input operand has type shape<[n]>, expected a tensor}}
  %0 = relax.acos %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tuple<tensor<[n], f32>>, %n: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.acosh: the input operand has type tuple<tensor<[n], f32>>, expected a tensor}}
  %0 = relax.acosh %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.object) -> !relax.object {
  // expected-error @+1 {{relax.asin: the input operand has type object, expected a tensor}}
  %0 = relax.asin %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.prim<f32>) -> !relax.object {
  // expected-error @+1 {{relax.asinh: the input operand has type prim<f32>, expected a tensor}}
  %0 = relax.asinh %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.shape<[n]>, %n: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.atan: the input operand has type shape<[n]>, expected a tensor}}
  %0 = relax.atan %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tuple<tensor<[n], f32>>, %n: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.atanh: the input operand has type tuple<tensor<[n], f32>>, expected a tensor}}
  %0 = relax.atanh %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.object) -> !relax.object {
  // expected-error @+1 {{relax.bitwise_not: the input operand has type object, expected a tensor}}
  %0 = relax.bitwise_not %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.prim<f32>) -> !relax.object {
  // expected-error @+1 {{relax.ceil: the input operand has type prim<f32>, expected a tensor}}
  %0 = relax.ceil %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.shape<[n]>, %n: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.cos: the input operand has type shape<[n]>, expected a tensor}}
  %0 = relax.cos %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tuple<tensor<[n], f32>>, %n: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.cosh: the input operand has type tuple<tensor<[n], f32>>, expected a tensor}}
  %0 = relax.cosh %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.object) -> !relax.object {
  // expected-error @+1 {{relax.erf: the input operand has type object, expected a tensor}}
  %0 = relax.erf %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.prim<f32>) -> !relax.object {
  // expected-error @+1 {{relax.exp: the input operand has type prim<f32>, expected a tensor}}
  %0 = relax.exp %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.shape<[n]>, %n: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.floor: the input operand has type shape<[n]>, expected a tensor}}
  %0 = relax.floor %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tuple<tensor<[n], f32>>, %n: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.isfinite: the input operand has type tuple<tensor<[n], f32>>, expected a tensor}}
  %0 = relax.isfinite %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.object) -> !relax.object {
  // expected-error @+1 {{relax.isinf: the input operand has type object, expected a tensor}}
  %0 = relax.isinf %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.prim<f32>) -> !relax.object {
  // expected-error @+1 {{relax.isnan: the input operand has type prim<f32>, expected a tensor}}
  %0 = relax.isnan %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.shape<[n]>, %n: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.log: the input operand has type shape<[n]>, expected a tensor}}
  %0 = relax.log %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tuple<tensor<[n], f32>>, %n: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.logical_not: the input operand has type tuple<tensor<[n], f32>>, expected a tensor}}
  %0 = relax.logical_not %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.object) -> !relax.object {
  // expected-error @+1 {{relax.negative: the input operand has type object, expected a tensor}}
  %0 = relax.negative %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.prim<f32>) -> !relax.object {
  // expected-error @+1 {{relax.round: the input operand has type prim<f32>, expected a tensor}}
  %0 = relax.round %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.shape<[n]>, %n: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.rsqrt: the input operand has type shape<[n]>, expected a tensor}}
  %0 = relax.rsqrt %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tuple<tensor<[n], f32>>, %n: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.sigmoid: the input operand has type tuple<tensor<[n], f32>>, expected a tensor}}
  %0 = relax.sigmoid %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.object) -> !relax.object {
  // expected-error @+1 {{relax.sign: the input operand has type object, expected a tensor}}
  %0 = relax.sign %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.prim<f32>) -> !relax.object {
  // expected-error @+1 {{relax.sin: the input operand has type prim<f32>, expected a tensor}}
  %0 = relax.sin %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.shape<[n]>, %n: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.sinh: the input operand has type shape<[n]>, expected a tensor}}
  %0 = relax.sinh %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tuple<tensor<[n], f32>>, %n: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.sqrt: the input operand has type tuple<tensor<[n], f32>>, expected a tensor}}
  %0 = relax.sqrt %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.object) -> !relax.object {
  // expected-error @+1 {{relax.square: the input operand has type object, expected a tensor}}
  %0 = relax.square %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.prim<f32>) -> !relax.object {
  // expected-error @+1 {{relax.tan: the input operand has type prim<f32>, expected a tensor}}
  %0 = relax.tan %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.shape<[n]>, %n: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.tanh: the input operand has type shape<[n]>, expected a tensor}}
  %0 = relax.tanh %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tuple<tensor<[n], f32>>, %n: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.trunc: the input operand has type tuple<tensor<[n], f32>>, expected a tensor}}
  %0 = relax.trunc %x
  relax.return %0
}

// -----

// Operators defined on float tensors only.
relax.function @main(%x: !relax.tensor<[n, 4], i32>) -> !relax.object {
  // expected-error @+1 {{relax.acos: the input has data type i32, expected a float data type}}
  %0 = relax.acos %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<ndim = 2, i64>) -> !relax.object {
  // expected-error @+1 {{relax.acosh: the input has data type i64, expected a float data type}}
  %0 = relax.acosh %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[], bool>) -> !relax.object {
  // expected-error @+1 {{relax.asin: the input has data type bool, expected a float data type}}
  %0 = relax.asin %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], ui8>) -> !relax.object {
  // expected-error @+1 {{relax.asinh: the input has data type ui8, expected a float data type}}
  %0 = relax.asinh %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<ndim = 2, i8>) -> !relax.object {
  // expected-error @+1 {{relax.atan: the input has data type i8, expected a float data type}}
  %0 = relax.atan %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[], i16>) -> !relax.object {
  // expected-error @+1 {{relax.atanh: the input has data type i16, expected a float data type}}
  %0 = relax.atanh %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], i32>) -> !relax.object {
  // expected-error @+1 {{relax.cos: the input has data type i32, expected a float data type}}
  %0 = relax.cos %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<ndim = 2, i64>) -> !relax.object {
  // expected-error @+1 {{relax.cosh: the input has data type i64, expected a float data type}}
  %0 = relax.cosh %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[], bool>) -> !relax.object {
  // expected-error @+1 {{relax.erf: the input has data type bool, expected a float data type}}
  %0 = relax.erf %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], ui8>) -> !relax.object {
  // expected-error @+1 {{relax.exp: the input has data type ui8, expected a float data type}}
  %0 = relax.exp %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<ndim = 2, i8>) -> !relax.object {
  // expected-error @+1 {{relax.log: the input has data type i8, expected a float data type}}
  %0 = relax.log %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[], i16>) -> !relax.object {
  // expected-error @+1 {{relax.rsqrt: the input has data type i16, expected a float data type}}
  %0 = relax.rsqrt %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], i32>) -> !relax.object {
  // expected-error @+1 {{relax.sigmoid: the input has data type i32, expected a float data type}}
  %0 = relax.sigmoid %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<ndim = 2, i64>) -> !relax.object {
  // expected-error @+1 {{relax.sin: the input has data type i64, expected a float data type}}
  %0 = relax.sin %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[], bool>) -> !relax.object {
  // expected-error @+1 {{relax.sinh: the input has data type bool, expected a float data type}}
  %0 = relax.sinh %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], ui8>) -> !relax.object {
  // expected-error @+1 {{relax.sqrt: the input has data type ui8, expected a float data type}}
  %0 = relax.sqrt %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<ndim = 2, i8>) -> !relax.object {
  // expected-error @+1 {{relax.tan: the input has data type i8, expected a float data type}}
  %0 = relax.tan %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[], i16>) -> !relax.object {
  // expected-error @+1 {{relax.tanh: the input has data type i16, expected a float data type}}
  %0 = relax.tanh %x
  relax.return %0
}

// -----

// clip: bounds must be prim values.
relax.function @main(%x: !relax.tensor<[n, 4], f32>, %t: !relax.tensor<[], f32>) -> !relax.object {
  %hi = relax.prim_value 1.0
  // expected-error @+1 {{relax.clip: the min operand has type tensor<[], f32>, expected a prim value}}
  %0 = relax.clip %x, %t, %hi
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>, %s: !relax.shape<[n]>) -> !relax.object {
  %lo = relax.prim_value 0
  // expected-error @+1 {{relax.clip: the max operand has type shape<[n]>, expected a prim value}}
  %0 = relax.clip %x, %lo, %s
  relax.return %0
}

// -----

// Declared result types that contradict the inferred ones.
relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.isnan: result type tensor<[n, 4], f32> contradicts the inferred type tensor<[n, 4], bool>; use relax.match_cast to check it at run time}}
  %0 = relax.isnan %x : !relax.tensor<[n, 4], f32>
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.exp: result type tensor<[n, 5], f32> contradicts the inferred type tensor<[n, 4], f32>; use relax.match_cast to check it at run time}}
  %0 = relax.exp %x : !relax.tensor<[n, 5], f32>
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  %lo = relax.prim_value 0
  // expected-error @+1 {{relax.clip: result type tensor<[n, 4], i32> contradicts the inferred type tensor<[n, 4], f32>; use relax.match_cast to check it at run time}}
  %0 = relax.clip %x, %lo, %lo : !relax.tensor<[n, 4], i32>
  relax.return %0
}
