// RUN: relax-opt %s -p relax-fold-batch-norm --split-input-file | filecheck %s

// Two output channels: W * gamma / sqrt(var + eps) per channel (eps = 0 here), and the
// bias beta - mean * gamma / sqrt(var + eps) broadcast along the output's channel axis.

// CHECK-LABEL: @conv_bn
// CHECK:         %[[W:.*]] = relax.constant dense<[2, 1, 1, 1], f32, [2.0, -6.0]>
// CHECK-NEXT:    %[[B:.*]] = relax.constant dense<[1, 2, 1, 1], f32, [-1.0, 4.0]>
// CHECK-NEXT:    %[[C:.*]] = relax.nn.conv2d %x, %[[W]]
// CHECK-NEXT:    %[[Y:.*]] = relax.add %[[C]], %[[B]] : !relax.tensor<[n, 2, 3, 3], f32>
// CHECK-NOT:     relax.nn.batch_norm
relax.function @conv_bn(%x: !relax.tensor<[n, 1, 3, 3], f32>) -> !relax.tensor<[n, 2, 3, 3], f32> {
  %w = relax.constant dense<[2, 1, 1, 1], f32, [1.0, 3.0]>
  %gamma = relax.constant dense<[2], f32, [4.0, -2.0]>
  %beta = relax.constant dense<[2], f32, [1.0, 2.0]>
  %mean = relax.constant dense<[2], f32, [1.0, 1.0]>
  %var = relax.constant dense<[2], f32, [4.0, 1.0]>
  %c = relax.nn.conv2d %x, %w
  %t = relax.nn.batch_norm %c, %gamma, %beta, %mean, %var {axis = 1, epsilon = 0.0, training = false}
  %y = relax.tuple_get_item %t[0]
  relax.return %y
}

// -----

// NHWC output, HWIO kernel, no gamma (scale = false): the channel is the last axis.

// CHECK-LABEL: @nhwc_no_scale
// CHECK:         relax.constant dense<[1, 1, 1, 2], f32, [0.5, 3.0]>
// CHECK-NEXT:    relax.constant dense<[1, 1, 1, 2], f32, [0.5, 1.0]>
// CHECK-NOT:     relax.nn.batch_norm
relax.function @nhwc_no_scale(%x: !relax.tensor<[1, 3, 3, 1], f32>) -> !relax.tensor<[1, 3, 3, 2], f32> {
  %w = relax.constant dense<[1, 1, 1, 2], f32, [1.0, 3.0]>
  %gamma = relax.constant dense<[2], f32, [4.0, -2.0]>
  %beta = relax.constant dense<[2], f32, [1.0, 2.0]>
  %mean = relax.constant dense<[2], f32, [1.0, 1.0]>
  %var = relax.constant dense<[2], f32, [4.0, 1.0]>
  %c = relax.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"}
  %t = relax.nn.batch_norm %c, %gamma, %beta, %mean, %var {axis = 3, epsilon = 0.0, scale = false, training = false}
  %y = relax.tuple_get_item %t[0]
  relax.return %y
}

// -----

// Left alone: training statistics, weights that are a parameter, a convolution used twice.

// CHECK-LABEL: @kept
// CHECK-COUNT-3: relax.nn.batch_norm
relax.function @kept(%x: !relax.tensor<[1, 1, 3, 3], f32>, %p: !relax.tensor<[2, 1, 1, 1], f32>) {
  %w = relax.constant dense<[2, 1, 1, 1], f32, [1.0, 3.0]>
  %g = relax.constant dense<[2], f32, [1.0, 1.0]>
  %z = relax.constant dense<[2], f32, [0.0, 0.0]>
  %c = relax.nn.conv2d %x, %w
  %t = relax.nn.batch_norm %c, %g, %z, %z, %g {axis = 1, training = true}
  %a = relax.tuple_get_item %t[0]
  %cp = relax.nn.conv2d %x, %p
  %tp = relax.nn.batch_norm %cp, %g, %z, %z, %g {axis = 1, training = false}
  %b = relax.tuple_get_item %tp[0]
  %c2 = relax.nn.conv2d %x, %w
  %t2 = relax.nn.batch_norm %c2, %g, %z, %z, %g {axis = 1, training = false}
  %d = relax.tuple_get_item %t2[0]
  %r = relax.tuple(%a, %b, %d, %c2)
  relax.return %r
}

// -----

// The moving statistics of an inference norm are its operands: once they are taken from
// there, the folded norm and the old convolution are unused and erased (TVM's importer binds
// all three outputs of every batch norm).

// CHECK-LABEL: @statistics
// CHECK-NOT:     relax.nn.batch_norm
// CHECK:         %[[C:.*]] = relax.nn.conv2d %x
// CHECK-NOT:     relax.nn.conv2d
// CHECK:         relax.tuple(%{{.*}}, %mean, %var)
relax.function @statistics(%x: !relax.tensor<[1, 1, 3, 3], f32>) {
  %w = relax.constant dense<[2, 1, 1, 1], f32, [1.0, 3.0]>
  %gamma = relax.constant dense<[2], f32, [4.0, -2.0]>
  %beta = relax.constant dense<[2], f32, [1.0, 2.0]>
  %mean = relax.constant dense<[2], f32, [1.0, 1.0]>
  %var = relax.constant dense<[2], f32, [4.0, 1.0]>
  %c = relax.nn.conv2d %x, %w
  %t = relax.nn.batch_norm %c, %gamma, %beta, %mean, %var {axis = 1, training = false}
  %y = relax.tuple_get_item %t[0]
  %m = relax.tuple_get_item %t[1]
  %v = relax.tuple_get_item %t[2]
  %r = relax.tuple(%y, %m, %v)
  relax.return %r
}
