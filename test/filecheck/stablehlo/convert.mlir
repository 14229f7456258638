// convert-stablehlo-to-relax: dot_general, convolution, reduce_window and while
// as Relax; a symbolic dimension named by JAX's shape assertion.
// RUN: relax-opt -f mlir %s --split-input-file -p convert-stablehlo-to-relax | filecheck %s
// RUN: relax-opt %s --split-input-file | filecheck %s

// CHECK-LABEL: relax.function @main(%x: !relax.tensor<[batch, 784], f32>, %w: !relax.tensor<[784, 10], f32>)
// CHECK-NEXT:    %0 = relax.matmul %x, %w : !relax.tensor<[batch, 10], f32>
// CHECK:         relax.broadcast_to %{{.*}} : !relax.tensor<[batch, 10], f32>
// CHECK-NEXT:    %6 = relax.maximum %0, %5 : !relax.tensor<[batch, 10], f32>
// CHECK-NEXT:    relax.return %6
func.func public @main(%x: tensor<?x784xf32>, %w: tensor<784x10xf32>) -> tensor<?x10xf32> {
  %c = stablehlo.constant dense<1> : tensor<i32>
  %d = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x784xf32>) -> tensor<i32>
  %ok = stablehlo.compare GE, %d, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  stablehlo.custom_call @shape_assertion(%ok, %d) {api_version = 2 : i32, error_message = "Expected value >= 1 for dimension variable 'batch'", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<?x784xf32>, tensor<784x10xf32>) -> tensor<?x10xf32>
  %c10 = stablehlo.constant dense<10> : tensor<1xi32>
  %r = stablehlo.reshape %d : (tensor<i32>) -> tensor<1xi32>
  %s = stablehlo.concatenate %r, %c10, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %z = stablehlo.dynamic_broadcast_in_dim %zero, %s, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x10xf32>
  %1 = stablehlo.maximum %0, %z : tensor<?x10xf32>
  return %1 : tensor<?x10xf32>
}

// -----

// CHECK-LABEL: relax.function @main
// CHECK-NEXT:    %0 = relax.permute_dims %b {axes = [0, 2, 1]} : !relax.tensor<[2, 4, 5], f32>
// CHECK-NEXT:    %1 = relax.matmul %a, %0 : !relax.tensor<[2, 3, 5], f32>
func.func @main(%a: tensor<2x3x4xf32>, %b: tensor<2x5x4xf32>) -> tensor<2x3x5xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

// CHECK-LABEL: relax.function @main
// CHECK-NEXT:    %0 = relax.permute_dims %x {axes = [0, 3, 1, 2]} : !relax.tensor<[1, 3, 8, 8], f32>
// CHECK-NEXT:    %1 = relax.permute_dims %k {axes = [3, 2, 0, 1]} : !relax.tensor<[4, 3, 3, 3], f32>
// CHECK-NEXT:    %2 = relax.nn.conv2d %0, %1 {strides = [2, 2], padding = [1, 1, 1, 1], dilation = [1, 1], groups = 1} : !relax.tensor<[1, 4, 4, 4], f32>
// CHECK-NEXT:    %3 = relax.permute_dims %2 {axes = [0, 2, 3, 1]} : !relax.tensor<[1, 4, 4, 4], f32>
func.func @main(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// The -inf initial value is the identity of max: the pooling alone.
// CHECK-LABEL: relax.function @main
// CHECK:         relax.nn.max_pool2d %2 {pool_size = [2, 2], strides = [2, 2], dilation = [1, 1], padding = [0, 0, 0, 0]} : !relax.tensor<[4, 1, 4, 4], f32>
// CHECK:         %6 = relax.permute_dims %5 {axes = [0, 2, 3, 1]} : !relax.tensor<[1, 4, 4, 4], f32>
// CHECK-NEXT:    relax.return %6
func.func @main(%x: tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32> {
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %init) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// CHECK-LABEL: relax.function @main
// CHECK:         %1 = relax.call @while1(%0, %x, %n)
// CHECK-NEXT:    %2 = relax.tuple_get_item %1[1] : !relax.tensor<[2, 4], f32>
// CHECK:       relax.function private @while1(%carried0: !relax.tensor<[], i32>, %carried1: !relax.tensor<[2, 4], f32>, %captured0: !relax.tensor<[], i32>) -> !relax.tuple<tensor<[], i32>, tensor<[2, 4], f32>>
// CHECK-NEXT:    %0 = relax.less %carried0, %captured0 : !relax.tensor<[], bool>
// CHECK-NEXT:    %1 = relax.if %0
// CHECK:           %5 = relax.call @while1(%3, %4, %captured0)
// CHECK:         } else {
// CHECK-NEXT:      %6 = relax.tuple(%carried0, %carried1)
func.func @main(%x: tensor<2x4xf32>, %n: tensor<i32>) -> tensor<2x4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%i = %c0, %acc = %x) : tensor<i32>, tensor<2x4xf32>
   cond {
    %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %next = stablehlo.add %i, %one : tensor<i32>
    %t = stablehlo.tanh %acc : tensor<2x4xf32>
    stablehlo.return %next, %t : tensor<i32>, tensor<2x4xf32>
  }
  return %0#1 : tensor<2x4xf32>
}
