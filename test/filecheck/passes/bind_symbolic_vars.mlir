// RUN: relax-opt %s -p 'relax-bind-symbolic-vars{bindings="batch = 1, k = 3"}' --split-input-file | filecheck %s
// RUN: relax-opt %s -p 'relax-bind-symbolic-vars{bindings="batch = 1, k = 3"},relax-bind-symbolic-vars{bindings="batch = 1, k = 3"}' --split-input-file | filecheck %s

// Variables in tensor shapes are replaced everywhere: parameters, return
// annotation, bindings (TVM's test_bind_tensors).

// CHECK-LABEL: @tensors
// CHECK-SAME:    (%x: !relax.tensor<[1, m], f32>, %w0: !relax.tensor<[m, n], f32>, %w1: !relax.tensor<[3, 10], f32>) -> !relax.tensor<[1, 3], f32>
// CHECK-NEXT:    %out = relax.dataflow {
// CHECK-NEXT:      %lv0 = relax.call_dps_packed "test0"(%x, %w0) : !relax.tensor<[1, n], f32>
// CHECK-NEXT:      %out_1 = relax.call_dps_packed "test1"(%lv0, %w1) : !relax.tensor<[1, 3], f32>
relax.function @tensors(%x: !relax.tensor<[batch, m], f32>, %w0: !relax.tensor<[m, n], f32>, %w1: !relax.tensor<[k, 10], f32>) -> !relax.tensor<[batch, k], f32> {
  %out = relax.dataflow {
    %lv0 = relax.call_dps_packed "test0"(%x, %w0) : !relax.tensor<[batch, n], f32>
    %out = relax.call_dps_packed "test1"(%lv0, %w1) : !relax.tensor<[batch, k], f32>
    relax.output %out
  }
  relax.return %out
}

// -----

// Variables in shape types (TVM's test_bind_shape).

// CHECK-LABEL: @shapes
// CHECK-SAME:    (%x: !relax.shape<[1, m]>, %w0: !relax.shape<[m, n]>, %w1: !relax.shape<[3, 10]>) -> !relax.tensor<[1, 3], f32>
// CHECK:           %lv0 = relax.call_dps_packed "test0"(%x, %w0) : !relax.tensor<[1, n], f32>
// CHECK-NEXT:      %out_1 = relax.call_dps_packed "test1"(%lv0, %w1) : !relax.tensor<[1, 3], f32>
relax.function @shapes(%x: !relax.shape<[batch, m]>, %w0: !relax.shape<[m, n]>, %w1: !relax.shape<[k, 10]>) -> !relax.tensor<[batch, k], f32> {
  %out = relax.dataflow {
    %lv0 = relax.call_dps_packed "test0"(%x, %w0) : !relax.tensor<[batch, n], f32>
    %out = relax.call_dps_packed "test1"(%lv0, %w1) : !relax.tensor<[batch, k], f32>
    relax.output %out
  }
  relax.return %out
}

// -----

// Literals, match_cast targets, closures and branches are specialised too, and
// what depends on them is re-inferred: the reshape learns its static shape, the
// cast binding k becomes a check.

// CHECK-LABEL: @everywhere
// CHECK-SAME:    (%x: !relax.tensor<[1, 12], f32>, %y: !relax.tensor<ndim = 1, f32>) -> !relax.object
// CHECK-NEXT:    %s = relax.shape [12] : !relax.shape<[12]>
// CHECK-NEXT:    %r = relax.reshape %x, %s : !relax.tensor<[12], f32>
// CHECK-NEXT:    %p = relax.prim_value 2 : !relax.prim<i64, 2>
// CHECK-NEXT:    %c = relax.match_cast %y : !relax.tensor<[3], f32>
// CHECK-NEXT:    %f = relax.lambda (%a: !relax.tensor<[1, 12], f32>) -> !relax.tensor<[3], f32> {
// CHECK-NEXT:      relax.return %c
relax.function @everywhere(%x: !relax.tensor<[batch, 12], f32>, %y: !relax.tensor<ndim = 1, f32>) -> !relax.object {
  %s = relax.shape [batch * 12]
  %r = relax.reshape %x, %s
  %p = relax.prim_value batch + 1
  %c = relax.match_cast %y : !relax.tensor<[k], f32>
  %f = relax.lambda (%a: !relax.tensor<[batch, 12], f32>) -> !relax.tensor<[k], f32> {
    relax.return %c
  }
  %t = relax.tuple(%r, %p, %f) : !relax.object
  relax.return %t
}

// -----

// Values are substituted into expressions, which are simplified; a parameter
// whose dimension was an expression keeps no variable (TVM's test_arith).

// CHECK-LABEL: @arith
// CHECK-SAME:    (%x: !relax.tensor<[1, 2], f32>, %w0: !relax.tensor<[m, n], f32>, %w1: !relax.tensor<[3, 10], f32>) -> !relax.tensor<[1, 3 * m], f32>
// CHECK-NEXT:    %out = relax.dataflow {
// CHECK-NEXT:      %lv0 = relax.call_dps_packed "test0"(%x, %w0) : !relax.tensor<[1, m + n], f32>
// CHECK-NEXT:      %out_1 = relax.call_dps_packed "test1"(%lv0, %w1) : !relax.tensor<[1, n + 3], f32>
relax.function @arith(%x: !relax.tensor<[batch, k - 1], f32>, %w0: !relax.tensor<[m, n], f32>, %w1: !relax.tensor<[k, 10], f32>) -> !relax.tensor<[batch, k * m], f32> {
  %out = relax.dataflow {
    %lv0 = relax.call_dps_packed "test0"(%x, %w0) : !relax.tensor<[batch, m + n], f32>
    %out = relax.call_dps_packed "test1"(%lv0, %w1) : !relax.tensor<[batch, k + n], f32>
    relax.output %out
  }
  relax.return %out
}

// -----

// Without func, every function binding a name is specialised (TVM's
// test_bind_multiple_variables_by_name); a function binding none is left alone.

// CHECK-LABEL: @first
// CHECK-SAME:    (%x: !relax.tensor<[m, 1], f32>) -> !relax.tensor<[m, 1], f32>
// CHECK-LABEL: @second
// CHECK-SAME:    (%x: !relax.tensor<[3, m], f32>) -> !relax.tensor<[3, m], f32>
// CHECK-LABEL: @third
// CHECK-SAME:    (%x: !relax.tensor<[m, n], f32>) -> !relax.tensor<[m, n], f32>
relax.function @first(%x: !relax.tensor<[m, batch], f32>) -> !relax.tensor<[m, batch], f32> {
  relax.return %x
}
relax.function @second(%x: !relax.tensor<[k, m], f32>) -> !relax.tensor<[k, m], f32> {
  relax.return %x
}
relax.function @third(%x: !relax.tensor<[m, n], f32>) -> !relax.tensor<[m, n], f32> {
  relax.return %x
}
