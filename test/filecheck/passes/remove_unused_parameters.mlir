// RUN: relax-opt %s -p relax-remove-unused-parameters --split-input-file | filecheck %s
// RUN: relax-opt %s -p relax-remove-unused-parameters,relax-remove-unused-parameters --split-input-file | filecheck %s

// An unused parameter of a private function goes, with the callers' argument
// (TVM's test_remove_unused_relax_parameter); a public function keeps its
// signature.

// CHECK-LABEL: @main
// CHECK-NEXT:    %r = relax.call @func(%A) : !relax.tensor
// CHECK-NEXT:    %p = relax.call @public(%A, %B) : !relax.tensor
// CHECK:       relax.function private @func(%A: !relax.tensor) -> !relax.tensor {
// CHECK:       relax.function @public(%A: !relax.tensor, %B: !relax.tensor) -> !relax.tensor {
relax.function @main(%A: !relax.tensor, %B: !relax.tensor) -> !relax.tuple<tensor, tensor> {
  %r = relax.call @func(%A, %B) : !relax.tensor
  %p = relax.call @public(%A, %B) : !relax.tensor
  %t = relax.tuple(%r, %p)
  relax.return %t
}
relax.function private @func(%A: !relax.tensor, %B: !relax.tensor) -> !relax.tensor {
  relax.return %A
}
relax.function @public(%A: !relax.tensor, %B: !relax.tensor) -> !relax.tensor {
  relax.return %A
}

// -----

// A removed parameter that defined symbolic variables the function still
// uses is replaced by `prim` parameters for them (TVM's
// test_replace_symbolic_variables).

// CHECK-LABEL: @main
// CHECK-NEXT:    %m = relax.prim_value m : !relax.prim<i64, m>
// CHECK-NEXT:    %n = relax.prim_value n : !relax.prim<i64, n>
// CHECK-NEXT:    %r = relax.call @func(%m, %n) : !relax.tensor<[m, n], f32>
// CHECK:       relax.function private @func(%param_m: !relax.prim<i64, m>, %param_n: !relax.prim<i64, n>) -> !relax.tensor<[m, n], f32> {
// CHECK-NEXT:    %s = relax.shape [m, n]
relax.function @main(%A: !relax.tensor<[m, n], f32>) -> !relax.tensor<[m, n], f32> {
  %r = relax.call @func(%A) : !relax.tensor<[m, n], f32>
  relax.return %r
}
relax.function private @func(%A: !relax.tensor<[m, n], f32>) -> !relax.tensor<[m, n], f32> {
  %s = relax.shape [m, n]
  %z = relax.zeros %s {dtype = f32}
  relax.return %z
}

// -----

// The callers' values for those variables are their own expressions.

// CHECK-LABEL: @main
// CHECK-NEXT:    %k = relax.prim_value 2 * n : !relax.prim<i64, 2 * n>
// CHECK-NEXT:    %r = relax.call @func(%k) : !relax.tensor<[2 * n], f32>
relax.function @main(%A: !relax.tensor<[n], f32>) -> !relax.tensor<[2 * n], f32> {
  %t = relax.tuple(%A, %A)
  %c = relax.concat %t {axis = 0}
  %r = relax.call @func(%c) : !relax.tensor<[2 * n], f32>
  relax.return %r
}
relax.function private @func(%A: !relax.tensor<[k], f32>) -> !relax.tensor<[k], f32> {
  %s = relax.shape [k]
  %z = relax.zeros %s {dtype = f32}
  relax.return %z
}

// -----

// No parameter is added when the variables are known from a kept parameter
// (TVM's test_no_extra_symbolic_variables), and parameters that only defined
// such variables go (TVM's test_remove_extra_prim_variables,
// test_remove_extra_shape_variables).

// CHECK-LABEL: @main
// CHECK-NEXT:    %r = relax.call @func(%A) : !relax.tensor<[m, n], f32>
// CHECK-NEXT:    relax.return %r
// CHECK:       relax.function private @func(%A: !relax.tensor<[m, n], f32>) -> !relax.tensor<[m, n], f32> {
relax.function @main(%A: !relax.tensor<[m, n], f32>) -> !relax.tensor<[m, n], f32> {
  %pm = relax.prim_value m
  %pn = relax.prim_value n
  %s = relax.shape [m, n]
  %r = relax.call @func(%A, %pm, %pn, %s) : !relax.tensor<[m, n], f32>
  relax.return %r
}
relax.function private @func(%A: !relax.tensor<[m, n], f32>, %_m: !relax.prim<i64, m>, %_n: !relax.prim<i64, n>, %_s: !relax.shape<[m, n]>) -> !relax.tensor<[m, n], f32> {
  %s = relax.shape [m, n]
  %z = relax.zeros %s {dtype = f32}
  %out = relax.add %A, %z
  relax.return %out
}

// -----

// Callees go first: a parameter that only fed a removed argument goes too. A
// function used as a value keeps its parameters.

// CHECK-LABEL: @main
// CHECK-NEXT:    %r = relax.call @outer(%x) : !relax.tensor<[4], f32>
// CHECK:       relax.function private @outer(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
// CHECK-NEXT:    %r = relax.call @inner(%x) : !relax.tensor<[4], f32>
// CHECK:       relax.function private @inner(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
// CHECK:       relax.function private @by_value(%x: !relax.tensor<[4], f32>, %y: !relax.tensor<[4], f32>)
relax.function @main(%x: !relax.tensor<[4], f32>, %y: !relax.tensor<[4], f32>) -> !relax.tuple<tensor<[4], f32>, object> {
  %r = relax.call @outer(%x, %y) : !relax.tensor<[4], f32>
  %f = relax.global_var @by_value : !relax.func<(tensor<[4], f32>, tensor<[4], f32>) -> tensor<[4], f32>>
  %t = relax.tuple(%r, %f)
  relax.return %t
}
relax.function private @outer(%x: !relax.tensor<[4], f32>, %y: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  %e = relax.exp %y
  %r = relax.call @inner(%x, %e) : !relax.tensor<[4], f32>
  relax.return %r
}
relax.function private @inner(%x: !relax.tensor<[4], f32>, %e: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  relax.return %x
}
relax.function private @by_value(%x: !relax.tensor<[4], f32>, %y: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  relax.return %x
}
