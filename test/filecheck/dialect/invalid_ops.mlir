// RUN: %verify-diagnostics %s
// Operation verifiers: operand kinds, StructInfo inference against the
// declared result types, calls, call_tir and the other expression forms.

relax.function @main(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<[5, m], f32>) -> !relax.object {
  // expected-error @+1 {{relax.matmul: inner dimensions 4 and 5 differ}}
  %0 = relax.matmul %a, %b : !relax.object
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<[n, 5], f32>) -> !relax.object {
  // expected-error @+1 {{relax.add: dimensions 4 (axis 1 of the first operand) and 5 (axis 1 of the second) cannot be broadcast together}}
  %0 = relax.add %a, %b : !relax.object
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[4], f32>, %b: !relax.tensor<[4], i32>) -> !relax.object {
  // expected-error @+1 {{relax.add: operands have different data types f32 and i32}}
  %0 = relax.add %a, %b
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[4], f32>, %s: !relax.shape<[4]>) -> !relax.object {
  // expected-error @+1 {{relax.add: the second operand has type shape<[4]>, expected a tensor or prim value}}
  %0 = relax.add %a, %s
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[], f32>, %b: !relax.tensor<[4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.matmul: the first operand is a scalar}}
  %0 = relax.matmul %a, %b
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[n, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.add: result type tensor<[n, 5], f32> contradicts the inferred type tensor<[n, 4], f32>; use relax.match_cast to check it at run time}}
  %0 = relax.add %a, %a : !relax.tensor<[n, 5], f32>
  relax.return %0
}

// -----

relax.function @main(%a: !relax.object) -> !relax.object {
  // expected-error @+1 {{relax.tuple_get_item: operand has type !relax.object, expected a tuple}}
  %0 = relax.tuple_get_item %a[0] : !relax.object
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tuple<object>) -> !relax.object {
  // expected-error @+1 {{relax.tuple_get_item: index 1 is out of range for a tuple of 1 fields}}
  %0 = relax.tuple_get_item %a[1] : !relax.object
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[2, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.match_cast: a value of type tensor<[2, 3], f32> can never match tensor<[2, 4], f32>}}
  %0 = relax.match_cast %a : !relax.tensor<[2, 4], f32>
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[2], f32>) -> !relax.object {
  // expected-error @+1 {{relax.call @helper: argument 0 has type tensor<[2], f32>, expected tensor<[n, n], f32>}}
  %0 = relax.call @helper(%a) : !relax.object
  relax.return %0
}
relax.function private @helper(%x: !relax.tensor<[n, n], f32>) -> !relax.tensor<[n, n], f32> {
  relax.return %x
}

// -----

relax.function @main(%a: !relax.tensor<[2], f32>) -> !relax.object {
  // expected-error @+1 {{relax.call @helper: expects 1 argument, got 2}}
  %0 = relax.call @helper(%a, %a) : !relax.object
  relax.return %0
}
relax.function private @helper(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  relax.return %x
}

// -----

relax.function @main(%a: !relax.tensor<[2], f32>) -> !relax.object {
  // expected-error @+1 {{relax.call @missing: @missing is not defined}}
  %0 = relax.call @missing(%a) : !relax.object
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[2], f32>) -> !relax.object {
  // expected-error @+1 {{relax.call @helper: argument 0 has type tensor<[2], f32>, expected tensor<[3], f32>}}
  %0 = relax.call @helper(%a) : !relax.tensor<[3], f32>
  relax.return %0
}
relax.function private @helper(%x: !relax.tensor<[3], f32>) -> !relax.tensor<[3], f32> {
  relax.return %x
}

// -----

// An object argument needs a match_cast before being passed as a tensor.
relax.function @main(%a: !relax.object) -> !relax.object {
  // expected-error @+1 {{relax.call @helper: argument 0 has type object, expected tensor<[n], f32>}}
  %0 = relax.call @helper(%a) : !relax.object
  relax.return %0
}
relax.function private @helper(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  relax.return %x
}

// -----

relax.function @main(%a: !relax.tensor<[2], f32>) -> !relax.object {
  %s = relax.str "not a function" : !relax.object
  // expected-error @+1 {{relax.invoke: the callee has type object, expected a function}}
  %0 = relax.invoke %s(%a) : !relax.object
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[2], f32>) -> !relax.object {
  // expected-error @+1 {{relax.op_ref: 'relax.nonexistent' is not a Relax operator}}
  %op = relax.op_ref "relax.nonexistent" : !relax.object
  relax.return %a
}

// -----

relax.function @main(%a: !relax.tensor<[2], f32>) -> !relax.object {
  // expected-error @+1 {{relax.global_var: result type func<(tensor<[3], f32>) -> tensor<[3], f32>> contradicts the inferred type func<(tensor<[2], f32>) -> tensor<[2], f32>>}}
  %g = relax.global_var @main2 : !relax.func<(tensor<[3], f32>) -> tensor<[3], f32>>
  relax.return %a
}
relax.function @main2(%x: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
  relax.return %x
}

// -----

relax.function @main(%c: !relax.tensor<[2], bool>, %a: !relax.tensor<[2], f32>) -> !relax.object {
  // expected-error @+1 {{relax.if: the condition has type tensor<[2], bool>, expected a boolean scalar (tensor<[], bool> or prim<bool>)}}
  %r = relax.if %c : !relax.object {
    relax.yield %a
  } else {
    relax.yield %a
  }
  relax.return %r
}

// -----

relax.function @main(%a: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.call_tir @kernel: output type tensor<f32> must be a tensor with a known shape and data type}}
  %0 = relax.call_tir @kernel(%a) : !relax.tensor<f32>
  relax.return %0
}
func.func @kernel(%a: tensor<?xf32>, %o: tensor<?xf32>) -> tensor<?xf32> {
  func.return %o : tensor<?xf32>
}

// -----

relax.function @main(%a: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.call_tir @kernel: the callee takes 2 arguments, expected 3 (2 inputs, 0 tir_vars, 1 outputs)}}
  %0 = relax.call_tir @kernel(%a, %a) : !relax.tensor<[n], f32>
  relax.return %0
}
func.func @kernel(%a: tensor<?xf32>, %o: tensor<?xf32>) -> tensor<?xf32> {
  func.return %o : tensor<?xf32>
}

// -----

relax.function @main(%a: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.call_tir @kernel: callee parameter 0 has element type i32, but the Relax value has type tensor<[n], f32>}}
  %0 = relax.call_tir @kernel(%a) : !relax.tensor<[n], f32>
  relax.return %0
}
func.func @kernel(%a: tensor<?xi32>, %o: tensor<?xf32>) -> tensor<?xf32> {
  func.return %o : tensor<?xf32>
}

// -----

relax.function @main(%a: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.call_tir @main: @main is not a func.func}}
  %0 = relax.call_tir @main(%a) : !relax.tensor<[n], f32>
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.call_dps_packed: output type object must be a tensor with a known shape and data type}}
  %0 = relax.call_dps_packed "f"(%a) : !relax.object
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.dataflow: the body must end with relax.output}}
  "relax.dataflow"() ({
    %x = relax.add %a, %a : !relax.tensor<[n], f32>
  }) : () -> ()
  relax.return %a
}

// -----

relax.function @main(%a: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.dataflow: result types must be the types of the relax.output values}}
  %o = "relax.dataflow"() ({
    relax.output %a
  }) : () -> !relax.object
  relax.return %a
}

// -----

// expected-error @+1 {{relax.function: the body must end with relax.return}}
"relax.function"() <{sym_name = "main", global_symbol = "main"}> ({
^bb0(%a: !relax.object):
  %s = relax.str "x" : !relax.object
}) : () -> ()

// -----

relax.function @main(%x: !relax.tensor<[2], f32>) -> !relax.object {
  // expected-error @+1 {{relax.lambda: the self argument must have the lambda's function type}}
  %f = "relax.lambda"() <{ret_type = !relax.object, recursive}> ({
  ^bb0(%self: !relax.object, %y: !relax.object):
    relax.return %y
  }) : () -> !relax.func<(object) -> object>
  relax.return %f
}

// -----

relax.function @main(%x: !relax.tensor<[2], f32>) -> !relax.object {
  // expected-error @+1 {{relax.dataflow: the body must end with relax.output}}
  relax.dataflow {
    // expected-error @+1 {{'relax.return' expects parent op to be one of 'relax.function', 'relax.lambda'}}
    relax.return %x
  }
  relax.return %x
}
