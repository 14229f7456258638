// RUN: relax-opt %s --split-input-file -p relax-lower-to-linalg --print-op-generic | mlir-opt-22 --split-input-file | filecheck %s

// A padded, strided 2-D convolution: tensor.pad, then the named
// linalg.conv_2d_nchw_fchw; max pooling, region by region of one output: the interior's
// windows (inside the data) read the data in place, each border's windows read a slice of it
// padded with the lowest float; a window generic per region, from -inf, inserted into the
// output, the window's extent given by a tensor.empty of its shape.
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
// CHECK:         %[[OUT:.*]] = tensor.empty(%{{.*}}) : tensor<?x4x4x4xf32>
// CHECK:         %[[LOWEST:.*]] = arith.constant -3.40282347E+38 : f32
// CHECK:         %[[INNER:.*]] = tensor.empty(%{{.*}}) : tensor<?x4x2x2xf32>
// CHECK:         %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[INNER]] : tensor<?x4x2x2xf32>)
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<3x3xf32>
// CHECK:         %[[I:.*]] = linalg.generic {indexing_maps = [#[[WINDOW]], #[[TAPS]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[C]], %[[E]] : tensor<?x4x4x4xf32>, tensor<3x3xf32>) outs(%[[INIT]] : tensor<?x4x2x2xf32>)
// CHECK:           arith.maximumf
// CHECK:         %[[OUT1:.*]] = tensor.insert_slice %[[I]] into %[[OUT]][0, 0, 1, 1] [%{{.*}}, 4, 2, 2]
// CHECK:         %[[TOP:.*]] = tensor.extract_slice %[[C]][0, 0, 0, 0] [%{{.*}}, 4, 2, 4] [1, 1, 1, 1]
// CHECK:         %[[P:.*]] = tensor.pad %[[TOP]] low[0, 0, 1, 1] high[0, 0, 0, 1]
// CHECK:           tensor.yield %[[LOWEST]]
// CHECK:         %[[ROW:.*]] = tensor.empty(%{{.*}}) : tensor<?x4x1x4xf32>
// CHECK:         %[[FILLED:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[ROW]] : tensor<?x4x1x4xf32>)
// CHECK:         %[[B:.*]] = linalg.generic {{.*}} ins(%[[P]], %[[E]] : tensor<?x4x3x6xf32>, tensor<3x3xf32>) outs(%[[FILLED]] : tensor<?x4x1x4xf32>)
// CHECK:         tensor.insert_slice %[[B]] into %[[OUT1]][0, 0, 0, 0] [%{{.*}}, 4, 1, 4]
// CHECK-COUNT-2: tensor.insert_slice
// CHECK:         %[[LAST:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 1, 3] [%{{.*}}, 4, 2, 1]
// CHECK:         return %[[LAST]]

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

// Transposed convolution with one group, stride 2: its four output phases (even and odd rows
// and columns), each the named linalg.conv_2d_nchw_fchw with unit strides of the data padded
// by what the phase reads beyond it (nothing for the first), by a sub-kernel of the weight
// (1 x 1, 1 x 2, 2 x 1 and 2 x 2 taps, a gather into OIHW); a generic picking each output's
// phase into [n, 3, 5, 2, 5, 2], collapsed.
relax.function @main(%x: !relax.tensor<[n, 4, 5, 5], f32>, %w: !relax.tensor<[4, 3, 3, 3], f32>) -> !relax.tensor<[n, 3, 10, 10], f32> {
  %c = relax.nn.conv2d_transpose %x, %w {strides = [2, 2], padding = [1], output_padding = [1]}
  relax.return %c
}
// CHECK-LABEL: func.func @main(
// CHECK:         %[[W00:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<3x4x1x1xf32>)
// CHECK:         %[[P00:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%arg0, %[[W00]] : tensor<?x4x5x5xf32>, tensor<3x4x1x1xf32>)
// CHECK:         %[[X01:.*]] = tensor.pad %arg0 low[0, 0, 0, 0] high[0, 0, 0, 1]
// CHECK:         %[[P01:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[X01]], %{{.*}} : tensor<?x4x5x6xf32>, tensor<3x4x1x2xf32>)
// CHECK:         %[[X10:.*]] = tensor.pad %arg0 low[0, 0, 0, 0] high[0, 0, 1, 0]
// CHECK:         %[[P10:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[X10]], %{{.*}} : tensor<?x4x6x5xf32>, tensor<3x4x2x1xf32>)
// CHECK:         %[[X11:.*]] = tensor.pad %arg0 low[0, 0, 0, 0] high[0, 0, 1, 1]
// CHECK:         %[[P11:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[X11]], %{{.*}} : tensor<?x4x6x6xf32>, tensor<3x4x2x2xf32>)
// CHECK:         %[[ALL:.*]] = linalg.generic {{.*}} ins(%[[P00]], %[[P01]], %[[P10]], %[[P11]] : {{.*}}) outs(%{{.*}} : tensor<?x3x5x2x5x2xf32>)
// CHECK:           arith.select
// CHECK:         %[[OUT:.*]] = tensor.collapse_shape %[[ALL]] {{\[}}[0], [1], [2, 3], [4, 5]{{\]}} : tensor<?x3x5x2x5x2xf32> into tensor<?x3x10x10xf32>
// CHECK:         return %[[OUT]]

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
