// What the conversion to Relax refuses is a located error naming it.
// RUN: not relax-opt %s --split-input-file 2>&1 | filecheck %s

func.func @main(%x: tensor<4xi32>) -> tensor<4xi32> {
  // CHECK: errors.mlir:[[# @LINE + 1]]:3: error: stablehlo.popcnt: has no Relax counterpart
  %0 = stablehlo.popcnt %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: errors.mlir:[[# @LINE + 1]]:3: error: stablehlo.custom_call: custom call @Sharding is not supported
  %0 = stablehlo.custom_call @Sharding(%x) {mhlo.sharding = "{replicated}"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @main(%x: tensor<4xf32>, %init: tensor<f32>) -> tensor<f32> {
  // CHECK: errors.mlir:[[# @LINE + 1]]:3: error: stablehlo.reduce: has a body other than one add, multiply, maximum, minimum, and, or
  %0 = stablehlo.reduce(%x init: %init) applies stablehlo.atan2 across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @main(%x: tensor<1x4x4x1xf32>, %k: tensor<3x3x1x1xf32>) -> tensor<1x9x9x1xf32> {
  // CHECK: errors.mlir:[[# @LINE + 1]]:3: error: stablehlo.convolution: input (lhs) dilation, a transposed convolution, is not supported
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[2, 2], [2, 2]], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x9x9x1xf32>
  return %0 : tensor<1x9x9x1xf32>
}

// -----

func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: errors.mlir:[[# @LINE + 1]]:3: error: stablehlo.add: 'stablehlo.add' takes 2 operands, not 1
  %0 = "stablehlo.add"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: errors.mlir:[[# @LINE + 1]]:31: error: expected 'dims = ...'
  %0 = stablehlo.transpose %x : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: errors.mlir:[[# @LINE + 1]]:3: error: stablehlo.rng_bit_generator: is not supported by the conversion to Relax
  %s, %0 = "stablehlo.rng_bit_generator"(%x) <{rng_algorithm = 0 : i32}> : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %0 : tensor<2xf32>
}
