// RUN: relax-opt %s --split-input-file -p relax-lower-to-linalg,outline-kernels | filecheck %s

// A convolution's padding goes into its kernel (through a grouped convolution's reshape):
// there the tiling schedule pads by a vectorised copy, or the phase split reads the input
// before its padding; the host keeps no tensor.pad. So does the zero fill of a grouped
// convolution's result behind its reshape (the kernel fills a fresh buffer instead of copying
// one the host filled).
relax.function @main(%x: !relax.tensor<[n, 6, 17, 17], f32>, %w: !relax.tensor<[6, 1, 3, 3], f32>, %v: !relax.tensor<[4, 6, 3, 3], f32>) -> !relax.tensor<[n, 4, 9, 9], f32> {
  %d = relax.nn.conv2d %x, %w {groups = 6, strides = [2, 2], padding = [1]}
  %r = relax.nn.conv2d %d, %v {padding = [1]}
  relax.return %r
}
// CHECK-LABEL: func.func @main(
// CHECK-NOT:     linalg.fill
// CHECK-NOT:     tensor.pad
// CHECK:         %[[D:.*]] = func.call @[[DEPTHWISE:relax_kernel_[0-9a-f]+]](%0,
// CHECK-NOT:     tensor.pad
// CHECK:         %[[C:.*]] = tensor.collapse_shape %[[D]]
// CHECK-NOT:     tensor.pad
// CHECK:         func.call @[[CONVOLUTION:relax_kernel_[0-9a-f]+]](%[[C]],
// CHECK-NOT:     tensor.pad
// CHECK:         func.return

// CHECK:       func.func private @[[DEPTHWISE]](
// CHECK:         %[[PADDED:.*]] = tensor.pad %{{[0-9]+}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:         %[[GROUPED:.*]] = tensor.expand_shape %[[PADDED]]
// CHECK:         %[[ZEROS:.*]] = linalg.fill
// CHECK:         %[[INIT:.*]] = tensor.expand_shape %[[ZEROS]]
// CHECK:         linalg.conv_2d_ngchw_gfchw {{.*}} ins(%[[GROUPED]], %{{.*}} : {{.*}}) outs(%[[INIT]] :

// CHECK:       func.func private @[[CONVOLUTION]](
// CHECK:         %[[PADDED:.*]] = tensor.pad %{{[0-9]+}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:         linalg.conv_2d_nchw_fchw {{.*}} ins(%[[PADDED]], %{{.*}} :

// -----

// So does a convolution whose epilogue the schedule fuses into its tiles (here a ReLU): the
// schedule makes the pad a copy before the loop of the tiles (schedules/epilogue.py), which
// then read the padded buffer.
relax.function @main(%x: !relax.tensor<[n, 6, 17, 17], f32>, %v: !relax.tensor<[4, 6, 3, 3], f32>) -> !relax.tensor<[n, 4, 17, 17], f32> {
  %c = relax.nn.conv2d %x, %v {padding = [1]}
  %r = relax.nn.relu %c
  relax.return %r
}
// CHECK-LABEL: func.func @main(
// CHECK-NOT:     tensor.pad
// CHECK:         func.call @[[FUSED:relax_kernel_[0-9a-f]+]](%0,
// CHECK-NOT:     tensor.pad
// CHECK:         func.return
// CHECK:       func.func private @[[FUSED]](
// CHECK:         %[[PADDED:.*]] = tensor.pad %{{[0-9]+}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:         linalg.conv_2d_nchw_fchw {{.*}} ins(%[[PADDED]], %{{.*}} :
// CHECK:         {relax.epilogue}
