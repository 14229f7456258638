// RUN: %verify-diagnostics %s
// Every error of every indexing operator.

relax.function @main(%x: !relax.object, %i: !relax.tensor<[2], i64>) -> !relax.object {
  // expected-error @+1 {{relax.take: the data operand has type object, expected a tensor}}
  %0 = relax.take %x, %i {axis = 0}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[4], f32>, %i: !relax.shape<[2]>) -> !relax.object {
  // expected-error @+1 {{relax.take: the indices operand has type shape<[2]>, expected a tensor or prim value}}
  %0 = relax.take %x, %i
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[4], f32>, %i: !relax.tensor<[2], i64>) -> !relax.object {
  // expected-error @+1 {{relax.take: mode 'raise' is not one of 'fast', 'nan', 'wrap', 'clip'}}
  %0 = relax.take %x, %i {mode = "raise"}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[4], f32>, %i: !relax.tensor<[2], f32>) -> !relax.object {
  // expected-error @+1 {{relax.take: indices have data type f32, expected integers}}
  %0 = relax.take %x, %i
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[4], f32>, %i: !relax.prim<bool>) -> !relax.object {
  // expected-error @+1 {{relax.take: indices have data type bool, expected integers}}
  %0 = relax.take %x, %i
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[4], i64>, %i: !relax.tensor<[2], i64>) -> !relax.object {
  // expected-error @+1 {{relax.take: mode nan needs floating-point data, got i64 (TVM cannot build it)}}
  %0 = relax.take %x, %i {mode = "nan"}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[4, 4], f32>, %i: !relax.tensor<[2], i64>) -> !relax.object {
  // expected-error @+1 {{relax.take: without an axis the data must be 1-D, got tensor<[4, 4], f32>}}
  %0 = relax.take %x, %i
  relax.return %0
}

// -----

// Even an unknown rank: TVM requires a 1-D tensor when no axis is given.
relax.function @main(%x: !relax.tensor<f32>, %i: !relax.tensor<[2], i64>) -> !relax.object {
  // expected-error @+1 {{relax.take: without an axis the data must be 1-D, got tensor<f32>}}
  %0 = relax.take %x, %i
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[4, 4], f32>, %i: !relax.tensor<[2], i64>) -> !relax.object {
  // expected-error @+1 {{relax.take: axis -3 is out of range for a tensor of 2 dimensions (expected [-2, 2))}}
  %0 = relax.take %x, %i {axis = -3}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[4, 4], f32>, %i: !relax.tensor<[2], i64>) -> !relax.object {
  // expected-error @+1 {{relax.take: result type tensor<[4, 3], f32> contradicts the inferred type tensor<[4, 2], f32>; use relax.match_cast to check it at run time}}
  %0 = relax.take %x, %i {axis = 1} : !relax.tensor<[4, 3], f32>
  relax.return %0
}

// -----

relax.function @main(%x: !relax.object, %t: !relax.tuple<>) -> !relax.object {
  // expected-error @+1 {{relax.strided_slice: the data operand has type object, expected a tensor}}
  %0 = relax.strided_slice %x, %t, %t, %t
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[4], f32>, %t: !relax.tuple<prim<i64, 0>>, %a: !relax.tuple<prim<i32, 0>>) -> !relax.object {
  // expected-error @+1 {{relax.strided_slice: the axes operand has type tuple<prim<i32, 0>>, expected a tuple of i64 prim values}}
  %0 = relax.strided_slice %x, %a, %t, %t
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[4], f32>, %t: !relax.tuple<prim<i64, 0>>, %s: !relax.tensor<[1], i64>) -> !relax.object {
  // expected-error @+1 {{relax.strided_slice: the strides operand has type tensor<[1], i64>, expected a tuple of i64 prim values}}
  %0 = relax.strided_slice %x, %t, %t, %t, %s
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[4], f32>, %t: !relax.tuple<prim<i64, 0>>, %e: !relax.tuple<prim<i64>, prim<i64>>) -> !relax.object {
  // expected-error @+1 {{relax.strided_slice: axes, begin, end and strides must have one length; axes has 1, begin has 1, end has 2}}
  %0 = relax.strided_slice %x, %t, %t, %e
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[4, 4], f32>, %a: !relax.tuple<prim<i64, 2>>, %t: !relax.tuple<prim<i64, 0>>) -> !relax.object {
  // expected-error @+1 {{relax.strided_slice: axis 2 is out of range for a tensor of 2 dimensions (expected [-2, 2))}}
  %0 = relax.strided_slice %x, %a, %t, %t
  relax.return %0
}

// -----

// The axes are checked even when the shape is unknown.
relax.function @main(%x: !relax.tensor<ndim = 2, f32>, %a: !relax.tuple<prim<i64, 1>, prim<i64, -1>>, %t: !relax.tuple<prim<i64, 0>, prim<i64, 0>>) -> !relax.object {
  // expected-error @+1 {{relax.strided_slice: axes [1, -1] repeat an axis}}
  %0 = relax.strided_slice %x, %a, %t, %t
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>, %a: !relax.tuple<prim<i64, 1>>, %t: !relax.tuple<prim<i64, 0>>, %s: !relax.tuple<prim<i64, 0>>) -> !relax.object {
  // expected-error @+1 {{relax.strided_slice: the stride of axis 1 is zero}}
  %0 = relax.strided_slice %x, %a, %t, %t, %s
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 8], f32>, %a: !relax.tuple<prim<i64, 1>>, %b: !relax.tuple<prim<i64, 5>>, %e: !relax.tuple<prim<i64, 2>>) -> !relax.object {
  // expected-error @+1 {{relax.strided_slice: the slice of axis 1 from 5 to 2 with stride 1 has negative length -3}}
  %0 = relax.strided_slice %x, %a, %b, %e
  relax.return %0
}

// -----

relax.function @main(%x: !relax.prim<f32>, %b: !relax.tensor<[1], i64>) -> !relax.object {
  // expected-error @+1 {{relax.dynamic_strided_slice: the data operand has type prim<f32>, expected a tensor}}
  %0 = relax.dynamic_strided_slice %x, %b, %b, %b
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[4], f32>, %b: !relax.tensor<[1], i64>, %o: !relax.object) -> !relax.object {
  // expected-error @+1 {{relax.dynamic_strided_slice: the end operand has type object, expected a tensor}}
  %0 = relax.dynamic_strided_slice %x, %b, %o, %b
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[4], f32>, %b: !relax.tensor<[1], i64>, %s: !relax.tensor<[1, 1], i64>) -> !relax.object {
  // expected-error @+1 {{relax.dynamic_strided_slice: strides has type tensor<[1, 1], i64>, expected a 1-D tensor of static length}}
  %0 = relax.dynamic_strided_slice %x, %b, %b, %s
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n], f32>, %b: !relax.tensor<[n], i64>) -> !relax.object {
  // expected-error @+1 {{relax.dynamic_strided_slice: begin has type tensor<[n], i64>, expected a 1-D tensor of static length}}
  %0 = relax.dynamic_strided_slice %x, %b, %b, %b
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[4], f32>, %b: !relax.tensor<ndim = 1, i64>) -> !relax.object {
  // expected-error @+1 {{relax.dynamic_strided_slice: begin has type tensor<ndim = 1, i64>, expected a 1-D tensor of static length}}
  %0 = relax.dynamic_strided_slice %x, %b, %b, %b
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<ndim = 3, f32>, %b: !relax.tensor<[2], i64>) -> !relax.object {
  // expected-error @+1 {{relax.dynamic_strided_slice: begin has 2 elements for a tensor of 3 dimensions}}
  %0 = relax.dynamic_strided_slice %x, %b, %b, %b
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[4], f32>, %b: !relax.tensor<[1], i64>, %e: !relax.tensor<[1], i32>) -> !relax.object {
  // expected-error @+1 {{relax.dynamic_strided_slice: end has data type i32, expected i64}}
  %0 = relax.dynamic_strided_slice %x, %b, %e, %b
  relax.return %0
}
