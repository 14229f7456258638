// The StableHLO and CHLO dialects: each pretty form JAX prints reads and prints
// back as written, and through the generic form.
// RUN: relax-opt -f mlir %s | filecheck %s
// RUN: relax-opt -f mlir %s --print-op-generic | relax-opt -f mlir | filecheck %s
// RUN: relax-opt -f mlir %s --print-op-generic | filecheck %s --check-prefix=GENERIC

func.func @elementwise(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %p: tensor<2x3xi1>) -> tensor<2x3xf32> {
  // CHECK: %0 = stablehlo.add %a, %b : tensor<2x3xf32>
  %0 = stablehlo.add %a, %b : tensor<2x3xf32>
  // CHECK-NEXT: %1 = stablehlo.exponential %0 : tensor<2x3xf32>
  %1 = stablehlo.exponential %0 : tensor<2x3xf32>
  // CHECK-NEXT: %2 = stablehlo.convert %1 : (tensor<2x3xf32>) -> tensor<2x3xi32>
  %2 = stablehlo.convert %1 : (tensor<2x3xf32>) -> tensor<2x3xi32>
  // CHECK-NEXT: %3 = stablehlo.select %p, %a, %1 : tensor<2x3xi1>, tensor<2x3xf32>
  %3 = stablehlo.select %p, %a, %1 : tensor<2x3xi1>, tensor<2x3xf32>
  // CHECK-NEXT: %4 = stablehlo.clamp %a, %3, %b : tensor<2x3xf32>
  %4 = stablehlo.clamp %a, %3, %b : tensor<2x3xf32>
  // CHECK-NEXT: %5 = stablehlo.compare GT, %a, %4, FLOAT : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  // GENERIC: "stablehlo.compare"(%{{.*}}, %{{.*}}) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}>
  %5 = stablehlo.compare GT, %a, %4, FLOAT : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  // CHECK-NEXT: %6 = stablehlo.constant dense<1.000000e+00> : tensor<2x3xf32>
  %6 = stablehlo.constant dense<1.0> : tensor<2x3xf32>
  func.return %6 : tensor<2x3xf32>
}

func.func @shapes(%x: tensor<?x4xf32>, %i: tensor<i32>, %s: tensor<2xi32>) -> tensor<4x?xf32> {
  // CHECK: %d = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %d = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  // CHECK-NEXT: %0 = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [0, 1] : (tensor<?x4xf32>, tensor<2xi32>) -> tensor<?x4xf32>
  %0 = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [0, 1] : (tensor<?x4xf32>, tensor<2xi32>) -> tensor<?x4xf32>
  // CHECK-NEXT: %1 = stablehlo.dynamic_reshape %0, %s : (tensor<?x4xf32>, tensor<2xi32>) -> tensor<?x4xf32>
  %1 = stablehlo.dynamic_reshape %0, %s : (tensor<?x4xf32>, tensor<2xi32>) -> tensor<?x4xf32>
  // CHECK-NEXT: %2 = stablehlo.transpose %1, dims = [1, 0] : (tensor<?x4xf32>) -> tensor<4x?xf32>
  // GENERIC: "stablehlo.transpose"(%{{.*}}) <{permutation = array<i64: 1, 0>}>
  %2 = stablehlo.transpose %1, dims = [1, 0] : (tensor<?x4xf32>) -> tensor<4x?xf32>
  // CHECK-NEXT: %3 = stablehlo.iota dim = 1 : tensor<2x4xi32>
  %3 = stablehlo.iota dim = 1 : tensor<2x4xi32>
  // CHECK-NEXT: %4 = stablehlo.slice %3 [0:2, 1:4:2] : (tensor<2x4xi32>) -> tensor<2x2xi32>
  // GENERIC: "stablehlo.slice"(%{{.*}}) <{limit_indices = array<i64: 2, 4>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 2>}>
  %4 = stablehlo.slice %3 [0:2, 1:4:2] : (tensor<2x4xi32>) -> tensor<2x2xi32>
  // CHECK-NEXT: %5 = stablehlo.concatenate %4, %4, dim = 1 : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x4xi32>
  %5 = stablehlo.concatenate %4, %4, dim = 1 : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x4xi32>
  // CHECK-NEXT: %6 = stablehlo.dynamic_slice %5, %i, %i, sizes = [1, 2] : (tensor<2x4xi32>, tensor<i32>, tensor<i32>) -> tensor<1x2xi32>
  %6 = stablehlo.dynamic_slice %5, %i, %i, sizes = [1, 2] : (tensor<2x4xi32>, tensor<i32>, tensor<i32>) -> tensor<1x2xi32>
  // CHECK-NEXT: %7 = stablehlo.dynamic_update_slice %5, %6, %i, %i : (tensor<2x4xi32>, tensor<1x2xi32>, tensor<i32>, tensor<i32>) -> tensor<2x4xi32>
  %7 = stablehlo.dynamic_update_slice %5, %6, %i, %i : (tensor<2x4xi32>, tensor<1x2xi32>, tensor<i32>, tensor<i32>) -> tensor<2x4xi32>
  // CHECK-NEXT: %8 = stablehlo.pad %7, %i, low = [1, 0], high = [0, 2], interior = [0, 1] : (tensor<2x4xi32>, tensor<i32>) -> tensor<3x9xi32>
  %8 = stablehlo.pad %7, %i, low = [1, 0], high = [0, 2], interior = [0, 1] : (tensor<2x4xi32>, tensor<i32>) -> tensor<3x9xi32>
  // CHECK-NEXT: %9 = stablehlo.reverse %8, dims = [0] : tensor<3x9xi32>
  %9 = stablehlo.reverse %8, dims = [0] : tensor<3x9xi32>
  // CHECK-NEXT: %10, %11 = stablehlo.optimization_barrier %9, %x : tensor<3x9xi32>, tensor<?x4xf32>
  %10, %11 = stablehlo.optimization_barrier %9, %x : tensor<3x9xi32>, tensor<?x4xf32>
  // CHECK-NEXT: stablehlo.custom_call @shape_assertion(%i, %d) {api_version = 2 : i32, error_message = "b", has_side_effect = true} : (tensor<i32>, tensor<i32>) -> ()
  stablehlo.custom_call @shape_assertion(%i, %d) {api_version = 2 : i32, error_message = "b", has_side_effect = true} : (tensor<i32>, tensor<i32>) -> ()
  func.return %2 : tensor<4x?xf32>
}

func.func @structured(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>) -> tensor<2x3x5xf32> {
  // CHECK: %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, HIGHEST] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  // GENERIC: #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, HIGHEST] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  // CHECK-NEXT: %1 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], pad = [[1, 1], [0, 2]], rhs_dilate = [1, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x4x6x4xf32>
  // GENERIC: #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>
  %1 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], pad = [[1, 1], [0, 2]], rhs_dilate = [1, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x4x6x4xf32>
  // CHECK-NEXT: %2 = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
  %2 = "stablehlo.convolution"(%x, %k) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 3], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2, 3]>, feature_group_count = 1 : i64}> : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x4x6x4xf32>
  // CHECK: %3 = "stablehlo.gather"(%a, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3, 4>}> : (tensor<2x3x4xf32>, tensor<5x1xi32>) -> tensor<5x3x4xf32>
  %i = stablehlo.constant dense<0> : tensor<5x1xi32>
  %3 = "stablehlo.gather"(%a, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3, 4>}> : (tensor<2x3x4xf32>, tensor<5x1xi32>) -> tensor<5x3x4xf32>
  func.return %0 : tensor<2x3x5xf32>
}

func.func @regions(%x: tensor<2x3xf32>, %n: tensor<i32>) -> tensor<2xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  // CHECK: %0 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  %0 = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  // CHECK-NEXT: %1, %2 = stablehlo.reduce(%x init: %zero), (%x init: %zero) across dimensions = [0] : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>, tensor<f32>) -> (tensor<3xf32>, tensor<3xf32>) reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<f32>, %d: tensor<f32>) {
  // CHECK-NEXT:   %3 = stablehlo.maximum %a, %c : tensor<f32>
  // CHECK-NEXT:   %4 = stablehlo.minimum %b, %d : tensor<f32>
  // CHECK-NEXT:   stablehlo.return %3, %4 : tensor<f32>, tensor<f32>
  // CHECK-NEXT: }
  %1:2 = stablehlo.reduce(%x init: %zero), (%x init: %zero) across dimensions = [0] : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>, tensor<f32>) -> (tensor<3xf32>, tensor<3xf32>)
   reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<f32>, %d: tensor<f32>)  {
    %3 = stablehlo.maximum %a, %c : tensor<f32>
    %4 = stablehlo.minimum %b, %d : tensor<f32>
    stablehlo.return %3, %4 : tensor<f32>, tensor<f32>
  }
  // CHECK: %5, %6 = stablehlo.while(%i = %n, %acc = %0) : tensor<i32>, tensor<2xf32> cond {
  // CHECK-NEXT:   %7 = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
  // CHECK-NEXT:   stablehlo.return %7 : tensor<i1>
  // CHECK-NEXT: } do {
  // CHECK-NEXT:   %8 = stablehlo.add %acc, %acc : tensor<2xf32>
  // CHECK-NEXT:   stablehlo.return %i, %8 : tensor<i32>, tensor<2xf32>
  // CHECK-NEXT: }
  %5:2 = stablehlo.while(%i = %n, %acc = %0) : tensor<i32>, tensor<2xf32>
   cond {
    %7 = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %7 : tensor<i1>
  } do {
    %8 = stablehlo.add %acc, %acc : tensor<2xf32>
    stablehlo.return %i, %8 : tensor<i32>, tensor<2xf32>
  }
  // CHECK: %9 = stablehlo.composite "my.op" %x {decomposition = @helper, version = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %9 = stablehlo.composite "my.op" %x {decomposition = @helper, version = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %10 = chlo.erf %9 : tensor<2x3xf32> -> tensor<2x3xf32>
  %10 = chlo.erf %9 : tensor<2x3xf32> -> tensor<2x3xf32>
  // CHECK-NEXT: %11, %12 = chlo.top_k(%10, k = 2) : tensor<2x3xf32> -> (tensor<2x2xf32>, tensor<2x2xi32>)
  %11, %12 = chlo.top_k(%10, k = 2) : tensor<2x3xf32> -> (tensor<2x2xf32>, tensor<2x2xi32>)
  func.return %5#1 : tensor<2xf32>
}

func.func private @helper(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  func.return %x : tensor<2x3xf32>
}
