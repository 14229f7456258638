// RUN: relax-opt %s --split-input-file | filecheck %s
// RUN: relax-opt %s --split-input-file %generic-roundtrip | filecheck %s

// CHECK-LABEL: @shapes
relax.function @shapes(%x: !relax.tensor<[n, 4], f32>, %u: !relax.tensor<ndim = 2, f32>, %v: !relax.tensor<f32>, %t: !relax.tensor<[3], i64>, %w: !relax.tensor<[k], i64>, %s: !relax.shape<[n, 5]>, %r: !relax.shape) -> !relax.object {
  // CHECK: relax.shape_of %x : !relax.shape<[n, 4]>
  %0 = relax.shape_of %x
  // CHECK: relax.shape_of %u : !relax.shape<ndim = 2>
  %1 = relax.shape_of %u
  // CHECK: relax.shape_of %v : !relax.shape
  %2 = relax.shape_of %v
  // CHECK: relax.size %x : !relax.tensor<[], i64>
  %3 = relax.size %x
  // CHECK: relax.tensor_to_shape %t : !relax.shape<ndim = 3>
  %4 = relax.tensor_to_shape %t
  // CHECK: relax.tensor_to_shape %w : !relax.shape
  %5 = relax.tensor_to_shape %w
  // CHECK: relax.shape_to_tensor %s : !relax.tensor<[2], i64>
  %6 = relax.shape_to_tensor %s
  // CHECK: relax.shape_to_tensor %r : !relax.tensor<ndim = 1, i64>
  %7 = relax.shape_to_tensor %r
  // CHECK: relax.null_value : !relax.object
  %8 = relax.null_value
  relax.return %x
}

// -----

// CHECK-LABEL: @effects
relax.function impure @effects(%x: !relax.tensor<[n], f32>, %c: !relax.tensor<[], bool>) -> !relax.object {
  // CHECK: relax.print %x, %c {format = "x = {}, c = {}"} : !relax.tuple<>
  %0 = relax.print %x, %c {format = "x = {}, c = {}"}
  // CHECK: relax.assert_op %c, %x {format = "bad {}"} : !relax.tuple<>
  %1 = relax.assert_op %c, %x {format = "bad {}"}
  // CHECK: relax.print : !relax.tuple<>
  %2 = relax.print
  relax.return %x
}

// -----

// CHECK-LABEL: @closures
relax.function impure @closures(%x: !relax.tensor<[n], f32>, %y: !relax.tensor<[n], f32>) -> !relax.object {
  // CHECK: %c = relax.make_closure @add(%x) : !relax.object
  %c = relax.make_closure @add(%x) : !relax.object
  // CHECK: relax.invoke_closure %c(%y) : !relax.tensor<[n], f32>
  %r = relax.invoke_closure %c(%y) : !relax.tensor<[n], f32>
  // CHECK: relax.invoke_pure_closure %c(%y) : !relax.tensor<[n], f32>
  %p = relax.invoke_pure_closure %c(%y) : !relax.tensor<[n], f32>
  relax.return %r
}
relax.function private @add(%a: !relax.tensor<[m], f32>, %b: !relax.tensor<[m], f32>) -> !relax.tensor<[m], f32> {
  %s = relax.add %a, %b : !relax.tensor<[m], f32>
  relax.return %s
}

// -----

// CHECK-LABEL: @in_place
relax.function @in_place(%x: !relax.tensor<[n], f32>, %y: !relax.tensor<[n], f32>) -> !relax.object {
  // CHECK: relax.call_tir_inplace @accumulate(%x, %y) {inplace_indices = [0]} : !relax.tensor<[n], f32>
  %a = relax.call_tir_inplace @accumulate(%x, %y) {inplace_indices = [0]} : !relax.tensor<[n], f32>
  // CHECK: relax.call_inplace_packed "my.scale"(%y) {inplace_indices = [0]} : !relax.tensor<[n], f32>
  %b = relax.call_inplace_packed "my.scale"(%y) {inplace_indices = [0]} : !relax.tensor<[n], f32>
  relax.return %a
}
func.func @accumulate(%x: tensor<?xf32>, %y: tensor<?xf32>, %out: tensor<?xf32>) -> tensor<?xf32> {
  func.return %out : tensor<?xf32>
}
