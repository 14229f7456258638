// RUN: %verify-diagnostics %s
// Every error of quantize and dequantize.

relax.function @main(%x: !relax.tensor<[2, 4], f32>, %s: !relax.tensor<[], f32>, %z: !relax.tensor<[], i8>) -> !relax.object {
  // expected-error @+1 {{relax.quantize: out_dtype has data type i32, expected i8, ui8, i16, ui16}}
  %0 = relax.quantize %x, %s, %z {out_dtype = i32}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 4], i8>, %s: !relax.tensor<[], f32>, %z: !relax.tensor<[], i8>) -> !relax.object {
  // expected-error @+1 {{relax.dequantize: out_dtype has data type f64, expected f32, f16}}
  %0 = relax.dequantize %x, %s, %z {out_dtype = f64}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 4], f64>, %s: !relax.tensor<[], f32>, %z: !relax.tensor<[], i8>) -> !relax.object {
  // expected-error @+1 {{relax.quantize: data has data type f64, expected f16, f32}}
  %0 = relax.quantize %x, %s, %z
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 4], i64>, %s: !relax.tensor<[], f32>, %z: !relax.tensor<[], i8>) -> !relax.object {
  // expected-error @+1 {{relax.dequantize: data has data type i64, expected i8, ui8, i16, ui16, i32, f16, f32}}
  %0 = relax.dequantize %x, %s, %z
  relax.return %0
}

// -----

// an unknown data type is rejected, as in TVM
relax.function @main(%x: !relax.tensor<[2, 4], f32>, %s: !relax.tensor<[]>, %z: !relax.tensor<[], i8>) -> !relax.object {
  // expected-error @+1 {{relax.quantize: scale has data type void, expected f16, f32}}
  %0 = relax.quantize %x, %s, %z
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 4], f32>, %s: !relax.tensor<[], f32>, %z: !relax.tensor<[], f32>) -> !relax.object {
  // expected-error @+1 {{relax.quantize: zero_point has data type f32, expected i8, ui8, i16, ui16, i32, ui32, f16}}
  %0 = relax.quantize %x, %s, %z
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 4], f32>, %s: !relax.prim<f32>, %z: !relax.tensor<[], i8>) -> !relax.object {
  // expected-error @+1 {{relax.quantize: the scale operand has type prim<f32>, expected a tensor}}
  %0 = relax.quantize %x, %s, %z
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 4], f32>, %s: !relax.tensor<[], f32>, %z: !relax.tensor<[], i8>) -> !relax.object {
  // expected-error @+1 {{relax.quantize: axis 2 is out of range for a tensor of 2 dimensions}}
  %0 = relax.quantize %x, %s, %z {axis = 2}
  relax.return %0
}

// -----

// a scalar has no axis to quantize along
relax.function @main(%x: !relax.tensor<[], f32>, %s: !relax.tensor<[], f32>, %z: !relax.tensor<[], i8>) -> !relax.object {
  // expected-error @+1 {{relax.quantize: axis -1 is out of range for a tensor of 0 dimensions}}
  %0 = relax.quantize %x, %s, %z
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<f32>, %s: !relax.tensor<[], f32>, %z: !relax.tensor<[], i8>) -> !relax.object {
  // expected-error @+1 {{relax.quantize: axis -1 is out of range for a tensor of unknown rank}}
  %0 = relax.quantize %x, %s, %z
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 4], f32>, %s: !relax.tensor<[2], f32>, %z: !relax.tensor<[], i8>) -> !relax.object {
  // expected-error @+1 {{relax.quantize: scale has shape [2], expected [4] (dimension 1 of data) or one element}}
  %0 = relax.quantize %x, %s, %z
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], i8>, %s: !relax.tensor<[], f32>, %z: !relax.tensor<[m], i8>) -> !relax.object {
  // expected-error @+1 {{relax.dequantize: zero_point has shape [m], expected [n] (dimension 0 of data) or one element}}
  %0 = relax.dequantize %x, %s, %z {axis = 0}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<ndim = 2, f32>, %s: !relax.tensor<[4], f32>, %z: !relax.tensor<[], i8>) -> !relax.object {
  // expected-error @+1 {{relax.quantize: a per-axis scale needs known shapes of data and scale}}
  %0 = relax.quantize %x, %s, %z
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 4], f32>, %s: !relax.tensor<[], f32>, %z: !relax.tensor<ndim = 1, i8>) -> !relax.object {
  // expected-error @+1 {{relax.quantize: a per-axis zero_point needs known shapes of data and zero_point}}
  %0 = relax.quantize %x, %s, %z
  relax.return %0
}
