// RUN: relax-opt %s --split-input-file -p relax-lower-to-linalg --print-op-generic | mlir-opt-22 --split-input-file | filecheck %s

// A padded, strided 2-D convolution: tensor.pad, then the named
// linalg.conv_2d_nchw_fchw; max pooling: a window generic over data padded with the
// lowest float, the window's extent given by a tensor.empty of its shape.
relax.function @main(%x: !relax.tensor<[n, 3, 8, 8], f32>, %w: !relax.tensor<[4, 3, 3, 3], f32>) -> !relax.tensor<[n, 4, 4, 4], f32> {
  %c = relax.nn.conv2d %x, %w {strides = [2], padding = [1]}
  %p = relax.nn.max_pool2d %c {pool_size = [3], strides = [1], padding = [1]}
  relax.return %p
}
// CHECK-DAG:   #[[WINDOW:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 + d4, d3 + d5)>
// CHECK-DAG:   #[[TAPS:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK-LABEL: func.func @main(
// CHECK:         %[[X:.*]] = tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:         %[[C:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[X]], %{{.*}} : tensor<?x3x10x10xf32>, tensor<4x3x3x3xf32>)
// CHECK:         arith.constant -3.40282347E+38 : f32
// CHECK:         %[[P:.*]] = tensor.pad %[[C]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<3x3xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[WINDOW]], #[[TAPS]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[P]], %[[E]] : tensor<?x4x6x6xf32>, tensor<3x3xf32>)
// CHECK:           arith.maximumf
// CHECK:         return

// -----

// Grouped convolution: the channels split into groups by tensor.expand_shape,
// linalg.conv_2d_ngchw_gfchw, collapsed back afterwards.
relax.function @main(%x: !relax.tensor<[n, 4, 5, 5], f32>, %w: !relax.tensor<[6, 2, 3, 3], f32>) -> !relax.tensor<[n, 6, 3, 3], f32> {
  %c = relax.nn.conv2d %x, %w {groups = 2}
  relax.return %c
}
// CHECK-LABEL: func.func @main(
// CHECK:         tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2], [3], [4]{{\]}} {{.*}} : tensor<?x4x5x5xf32> into tensor<?x2x2x5x5xf32>
// CHECK:         tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2], [3], [4]{{\]}} {{.*}} : tensor<6x2x3x3xf32> into tensor<2x3x2x3x3xf32>
// CHECK:         linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<?x2x2x5x5xf32>, tensor<2x3x2x3x3xf32>)
// CHECK:         tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2], [3], [4]{{\]}} : tensor<?x2x3x3x3xf32> into tensor<?x6x3x3xf32>

// -----

// Transposed convolution with one group: the data dilated by the stride (a gather) and padded by
// k - 1 - padding, the weight flipped and its axes swapped into OIHW (a gather), then the named
// linalg.conv_2d_nchw_fchw with unit strides.
relax.function @main(%x: !relax.tensor<[n, 4, 5, 5], f32>, %w: !relax.tensor<[4, 3, 3, 3], f32>) -> !relax.tensor<[n, 3, 10, 10], f32> {
  %c = relax.nn.conv2d_transpose %x, %w {strides = [2, 2], padding = [1], output_padding = [1]}
  relax.return %c
}
// CHECK-LABEL: func.func @main(
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<?x4x9x9xf32>)
// CHECK:         %[[X:.*]] = tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 2, 2]
// CHECK:         %[[W:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<3x4x3x3xf32>)
// CHECK:         linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[X]], %[[W]] : tensor<?x4x12x12xf32>, tensor<3x4x3x3xf32>)

// -----

// Softmax: a max reduction from -inf, exp(x - max), a sum reduction, a division.
relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32> {
  %s = relax.nn.softmax %x
  relax.return %s
}
// CHECK-LABEL: func.func @main(
// CHECK:         arith.constant 0xFF800000 : f32
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK:           arith.maximumf
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK:           math.exp
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK:           arith.addf
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK:           arith.divf
// CHECK:         return
