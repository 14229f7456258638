// RUN: %verify-diagnostics %s
// Every error of every creation operator.

relax.function @main(%s: !relax.tensor<[2], i64>) -> !relax.object {
  // expected-error @+1 {{relax.zeros: the shape operand has type tensor<[2], i64>, expected a shape}}
  %0 = relax.zeros %s {dtype = f32}
  relax.return %0
}

// -----

relax.function @main(%s: !relax.shape<[2]>) -> !relax.object {
  // expected-error @+1 {{relax.ones: the data type must be known, got void}}
  %0 = relax.ones %s {dtype = void}
  relax.return %0
}

// -----

relax.function @main(%s: !relax.shape<[2]>) -> !relax.object {
  // expected-error @+1 {{property 'dtype' expected}}
  %0 = relax.zeros %s
  relax.return %0
}

// -----

relax.function @main(%s: !relax.object, %c: !relax.tensor<[], f32>) -> !relax.object {
  // expected-error @+1 {{relax.full: the shape operand has type object, expected a shape}}
  %0 = relax.full %s, %c
  relax.return %0
}

// -----

relax.function @main(%s: !relax.shape<[2]>, %c: !relax.tensor<[1], f32>) -> !relax.object {
  // expected-error @+1 {{relax.full: the fill value has type tensor<[1], f32>, expected a 0-d tensor}}
  %0 = relax.full %s, %c
  relax.return %0
}

// -----

// A fill value of unknown rank may not be a scalar: TVM rejects it.
relax.function @main(%s: !relax.shape<[2]>, %c: !relax.tensor<f32>) -> !relax.object {
  // expected-error @+1 {{relax.full: the fill value has type tensor<f32>, expected a 0-d tensor}}
  %0 = relax.full %s, %c
  relax.return %0
}

// -----

relax.function @main(%s: !relax.shape<[2]>, %c: !relax.prim<f32>) -> !relax.object {
  // expected-error @+1 {{relax.full: the fill_value operand has type prim<f32>, expected a tensor}}
  %0 = relax.full %s, %c
  relax.return %0
}

// -----

relax.function @main(%x: !relax.shape<[2]>) -> !relax.object {
  // expected-error @+1 {{relax.zeros_like: the data operand has type shape<[2]>, expected a tensor}}
  %0 = relax.zeros_like %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.prim<i64>) -> !relax.object {
  // expected-error @+1 {{relax.ones_like: the data operand has type prim<i64>, expected a tensor}}
  %0 = relax.ones_like %x {dtype = f32}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.object, %c: !relax.tensor<[], f32>) -> !relax.object {
  // expected-error @+1 {{relax.full_like: the data operand has type object, expected a tensor}}
  %0 = relax.full_like %x, %c
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2], f32>, %c: !relax.tensor<ndim = 2, f32>) -> !relax.object {
  // expected-error @+1 {{relax.full_like: the fill value has type tensor<ndim = 2, f32>, expected a 0-d tensor}}
  %0 = relax.full_like %x, %c
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2], f32>, %c: !relax.tensor<[], i32>) -> !relax.object {
  // expected-error @+1 {{relax.full_like: result type tensor<[2], i32> contradicts the inferred type tensor<[2], f32>; use relax.match_cast to check it at run time}}
  %0 = relax.full_like %x, %c : !relax.tensor<[2], i32>
  relax.return %0
}

// -----

relax.function @main(%n: !relax.prim<i64>) -> !relax.object {
  // expected-error @+1 {{relax.eye: the n operand has type prim<i64>, expected a prim value with a known value}}
  %0 = relax.eye %n, %n, %n
  relax.return %0
}

// -----

relax.function @main(%n: !relax.prim<i64, 3>, %m: !relax.tensor<[], i64>) -> !relax.object {
  // expected-error @+1 {{relax.eye: the m operand has type tensor<[], i64>, expected a prim value}}
  %0 = relax.eye %n, %m, %n
  relax.return %0
}

// -----

relax.function @main(%n: !relax.prim<i64, 3>, %m: !relax.prim<f32, 2.5>) -> !relax.object {
  // expected-error @+1 {{relax.eye: m has data type f32, expected int}}
  %0 = relax.eye %n, %m, %n
  relax.return %0
}

// -----

relax.function @main(%n: !relax.prim<i64, 3>, %k: !relax.object) -> !relax.object {
  // expected-error @+1 {{relax.eye: the k operand has type object, expected a prim value}}
  %0 = relax.eye %n, %n, %k
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tuple<>, %k: !relax.prim<i64>) -> !relax.object {
  // expected-error @+1 {{relax.eye_like: the data operand has type tuple<>, expected a tensor}}
  %0 = relax.eye_like %x, %k
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 3, 4], f32>, %k: !relax.prim<i64>) -> !relax.object {
  // expected-error @+1 {{relax.eye_like: the data must be 2-D, got tensor<[2, 3, 4], f32>}}
  %0 = relax.eye_like %x, %k
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 3], f32>, %k: !relax.tensor<[], i64>) -> !relax.object {
  // expected-error @+1 {{relax.eye_like: the k operand has type tensor<[], i64>, expected a prim value}}
  %0 = relax.eye_like %x, %k
  relax.return %0
}

// -----

relax.function @main(%s: !relax.prim<i64, 0>, %e: !relax.prim<i64>) -> !relax.object {
  // expected-error @+1 {{relax.arange: the end operand has type prim<i64>, expected a prim value with a known value}}
  %0 = relax.arange %s, %e, %s
  relax.return %0
}

// -----

relax.function @main(%s: !relax.prim<i64, 0>, %e: !relax.tensor<[], i64>) -> !relax.object {
  // expected-error @+1 {{relax.arange: the step operand has type tensor<[], i64>, expected a prim value}}
  %0 = relax.arange %s, %s, %e
  relax.return %0
}

// -----

relax.function @main(%s: !relax.prim<i64, 0>, %e: !relax.prim<i64, n>) -> !relax.object {
  // expected-error @+1 {{relax.arange: the step is zero}}
  %0 = relax.arange %s, %e, %s
  relax.return %0
}

// -----

relax.function @main(%s: !relax.prim<f32, 0.0>, %e: !relax.prim<f32, 1.0>) -> !relax.object {
  // expected-error @+1 {{relax.arange: the step is zero}}
  %0 = relax.arange %s, %e, %s
  relax.return %0
}

// -----

relax.function @main(%s: !relax.prim<i64, 5>, %e: !relax.prim<i64, 0>, %step: !relax.prim<i64, 2>) -> !relax.object {
  // expected-error @+1 {{relax.arange: the range from 5 to 0 with step 2 has negative length -2}}
  %0 = relax.arange %s, %e, %step
  relax.return %0
}

// -----

relax.function @main(%s: !relax.prim<f32, 1.0>, %e: !relax.prim<f32, 0.0>, %step: !relax.prim<f32, 0.25>) -> !relax.object {
  // expected-error @+1 {{relax.arange: the range from 1.0 to 0.0 with step 0.25 has negative length -4}}
  %0 = relax.arange %s, %e, %step
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[4], f32>, %k: !relax.prim<i64>) -> !relax.object {
  // expected-error @+1 {{relax.tril: the data must have at least 2 dimensions, got tensor<[4], f32>}}
  %0 = relax.tril %x, %k
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<ndim = 1, f32>, %k: !relax.prim<i64>) -> !relax.object {
  // expected-error @+1 {{relax.triu: the data must have at least 2 dimensions, got tensor<ndim = 1, f32>}}
  %0 = relax.triu %x, %k
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[4, 4], f32>, %k: !relax.tensor<[], i64>) -> !relax.object {
  // expected-error @+1 {{relax.triu: the k operand has type tensor<[], i64>, expected a prim value}}
  %0 = relax.triu %x, %k
  relax.return %0
}

// -----

relax.function @main(%x: !relax.object, %k: !relax.prim<i64>) -> !relax.object {
  // expected-error @+1 {{relax.tril: the data operand has type object, expected a tensor}}
  %0 = relax.tril %x, %k
  relax.return %0
}
