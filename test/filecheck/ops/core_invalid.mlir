// RUN: %verify-diagnostics %s

relax.function @main(%s: !relax.shape<[2]>) -> !relax.object {
  // expected-error @+1 {{relax.shape_of: the first operand has type shape<[2]>, expected a tensor}}
  %0 = relax.shape_of %s
  relax.return %s
}

// -----

relax.function @main(%t: !relax.tensor<[2, 3], i64>) -> !relax.object {
  // expected-error @+1 {{relax.tensor_to_shape: expected a 1-d tensor, got tensor<[2, 3], i64>}}
  %0 = relax.tensor_to_shape %t
  relax.return %t
}

// -----

relax.function @main(%t: !relax.tensor<[2], f32>) -> !relax.object {
  // expected-error @+1 {{relax.shape_to_tensor: the shape operand has type tensor<[2], f32>, expected a shape}}
  %0 = relax.shape_to_tensor %t
  relax.return %t
}

// -----

relax.function impure @main(%t: !relax.tensor<[2], bool>) -> !relax.object {
  // expected-error @+1 {{relax.assert_op: the condition has type tensor<[2], bool>, expected a boolean scalar}}
  %0 = relax.assert_op %t
  relax.return %t
}

// -----

relax.function impure @main() -> !relax.object {
  // expected-error @+1 {{relax.assert_op: the condition is missing}}
  %0 = relax.assert_op
  relax.return %0
}

// -----

relax.function @main(%t: !relax.tensor<[2], f32>) -> !relax.object {
  // expected-error @+1 {{impure relax.print cannot appear in a pure function}}
  %0 = relax.print %t
  relax.return %t
}

// -----

relax.function @main(%t: !relax.tensor<[2], f32>) -> !relax.object {
  // expected-error @+1 {{relax.make_closure: @main takes 1 parameters, 2 are captured}}
  %c = relax.make_closure @main(%t, %t) : !relax.object
  relax.return %t
}

// -----

relax.function @main(%x: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.call_tir_inplace: 2 in-place indices for 1 outputs}}
  %a = relax.call_tir_inplace @k(%x) {inplace_indices = [0, -1]} : !relax.tensor<[n], f32>
  relax.return %a
}
func.func @k(%x: tensor<?xf32>, %out: tensor<?xf32>) -> tensor<?xf32> {
  func.return %out : tensor<?xf32>
}

// -----

relax.function @main(%x: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.call_tir_inplace: no output is in place (all indices are -1)}}
  %a = relax.call_tir_inplace @k(%x) {inplace_indices = [-1]} : !relax.tensor<[n], f32>
  relax.return %a
}
func.func @k(%x: tensor<?xf32>, %out: tensor<?xf32>) -> tensor<?xf32> {
  func.return %out : tensor<?xf32>
}

// -----

relax.function @main(%x: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.call_tir_inplace: in-place index 3 is out of range (-1 to 0)}}
  %a = relax.call_tir_inplace @k(%x) {inplace_indices = [3]} : !relax.tensor<[n], f32>
  relax.return %a
}
func.func @k(%x: tensor<?xf32>, %out: tensor<?xf32>) -> tensor<?xf32> {
  func.return %out : tensor<?xf32>
}

// -----

relax.function @main(%x: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.call_tir_inplace: output tensor<[4], f32> is argument 0, of type tensor<[n], f32>: the shape and data type must agree}}
  %a = relax.call_tir_inplace @k(%x) {inplace_indices = [0]} : !relax.tensor<[4], f32>
  relax.return %a
}
func.func @k(%x: tensor<?xf32>, %out: tensor<?xf32>) -> tensor<?xf32> {
  func.return %out : tensor<?xf32>
}

// -----

relax.function @main(%x: !relax.tensor<[n], f32>, %y: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.call_inplace_packed: in-place indices [0, 0] repeat an argument}}
  %a = relax.call_inplace_packed "f"(%x, %y) {inplace_indices = [0, 0]} : !relax.tuple<tensor<[n], f32>, tensor<[n], f32>>
  relax.return %a
}

// -----

relax.function @main(%x: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.call_inplace_packed: output tensor<[n], i32> does not match argument 0 of type tensor<[n], f32>}}
  %a = relax.call_inplace_packed "f"(%x) {inplace_indices = [0]} : !relax.tensor<[n], i32>
  relax.return %a
}
