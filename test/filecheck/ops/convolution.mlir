// RUN: relax-opt %s --split-input-file | filecheck %s
// RUN: relax-opt %s --split-input-file %generic-roundtrip | filecheck %s

// Output sizes: (in + pad_before + pad_after - dilation * (k - 1) - 1) floordiv stride + 1.
// CHECK-LABEL: @conv2d
relax.function @conv2d(%x: !relax.tensor<[n, 4, h, 10], f32>, %w: !relax.tensor<[6, 4, 3, 3], f32>, %g: !relax.tensor<[6, 2, 3, 3], f32>, %k: !relax.tensor<[6, 4, r, r], f32>, %i: !relax.tensor<[n, 4, 8, 8], i8>, %wi: !relax.tensor<[6, 4, 3, 3], i8>) -> !relax.object {
  // CHECK: relax.nn.conv2d %x, %w : !relax.tensor<[n, 6, h - 2, 8], f32>
  %0 = relax.nn.conv2d %x, %w
  // one value for all sides, one per axis for both its sides, or top, left, bottom, right
  // CHECK: relax.nn.conv2d %x, %w {padding = [1]} : !relax.tensor<[n, 6, h, 10], f32>
  %1 = relax.nn.conv2d %x, %w {padding = [1]}
  // CHECK: relax.nn.conv2d %x, %w {padding = [2, 0]} : !relax.tensor<[n, 6, h + 2, 8], f32>
  %2 = relax.nn.conv2d %x, %w {padding = [2, 0]}
  // CHECK: relax.nn.conv2d %x, %w {strides = [2], padding = [1, 2, 3, 4], dilation = [2]} : !relax.tensor<[n, 6, (h + 1) floordiv 2, 6], f32>
  %3 = relax.nn.conv2d %x, %w {strides = [2], padding = [1, 2, 3, 4], dilation = [2]}
  // CHECK: relax.nn.conv2d %x, %w {strides = [3, 1], dilation = [1, 3]} : !relax.tensor<[n, 6, h floordiv 3, 4], f32>
  %4 = relax.nn.conv2d %x, %w {strides = [3, 1], dilation = [1, 3]}
  // CHECK: relax.nn.conv2d %x, %g {groups = 2} : !relax.tensor<[n, 6, h - 2, 8], f32>
  %5 = relax.nn.conv2d %x, %g {groups = 2}
  // a symbolic kernel size
  // CHECK: relax.nn.conv2d %x, %k : !relax.tensor<[n, 6, h - r + 1, 11 - r], f32>
  %6 = relax.nn.conv2d %x, %k
  // CHECK: relax.nn.conv2d %i, %wi {out_dtype = i32} : !relax.tensor<[n, 6, 6, 6], i32>
  %7 = relax.nn.conv2d %i, %wi {out_dtype = i32}
  // CHECK: relax.nn.conv2d %i, %wi : !relax.tensor<[n, 6, 6, 6], i8>
  %8 = relax.nn.conv2d %i, %wi
  relax.return %0
}

// -----

// Layouts: the operands are read in their layouts, the result is written in out_layout.
// CHECK-LABEL: @layouts
relax.function @layouts(%x: !relax.tensor<[n, h, w, 4], f32>, %w: !relax.tensor<[3, 3, 4, 6], f32>, %p: !relax.tensor<[n, 2, h, w, 4], f32>, %o: !relax.tensor<[6, 8, 3, 3], f32>, %q: !relax.tensor<[3, 4, 3, 3, 2, 2], f32>, %c: !relax.tensor<[n, c, h, w, 4], f32>) -> !relax.object {
  // CHECK: relax.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : !relax.tensor<[n, h - 2, w - 2, 6], f32>
  %0 = relax.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"}
  // CHECK: relax.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO", out_layout = "NCHW"} : !relax.tensor<[n, 6, h - 2, w - 2], f32>
  %1 = relax.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO", out_layout = "NCHW"}
  // split channels: NCHW4c holds C = 2 * 4; the output keeps the data layout
  // CHECK: relax.nn.conv2d %p, %o {data_layout = "NCHW4c"} : !relax.tensor<[n, 2, h - 2, w - 2, 4], f32>
  %2 = relax.nn.conv2d %p, %o {data_layout = "NCHW4c"}
  // an outer axis rounds up: 6 channels in blocks of 4
  // CHECK: relax.nn.conv2d %p, %o {data_layout = "NCHW4c", out_layout = "NCHW4c"} : !relax.tensor<[n, 2, h - 2, w - 2, 4], f32>
  %3 = relax.nn.conv2d %p, %o {data_layout = "NCHW4c", out_layout = "NCHW4c"}
  // CHECK: relax.nn.conv2d %p, %q {data_layout = "NCHW4c", kernel_layout = "OIHW2i2o", out_layout = "NHWC"} : !relax.tensor<[n, h - 2, w - 2, 6], f32>
  %4 = relax.nn.conv2d %p, %q {data_layout = "NCHW4c", kernel_layout = "OIHW2i2o", out_layout = "NHWC"}
  // symbolic split channels: 4 * c against 8 is left to run time
  // CHECK: relax.nn.conv2d %c, %o {data_layout = "NCHW4c", out_layout = "NCHW"} : !relax.tensor<[n, 6, h - 2, w - 2], f32>
  %5 = relax.nn.conv2d %c, %o {data_layout = "NCHW4c", out_layout = "NCHW"}
  relax.return %0
}

// -----

// CHECK-LABEL: @conv1d_conv3d
relax.function @conv1d_conv3d(%x: !relax.tensor<[n, c, w], f16>, %k: !relax.tensor<[4, c, 3], f16>, %y: !relax.tensor<[n, w, 6], f16>, %j: !relax.tensor<[3, 2, 6], f16>, %v: !relax.tensor<[n, 2, d, h, 7], f32>, %m: !relax.tensor<[4, 2, 3, 2, 1], f32>, %u: !relax.tensor<[n, d, h, 7, 2], f32>, %l: !relax.tensor<[3, 2, 1, 2, 4], f32>) -> !relax.object {
  // CHECK: relax.nn.conv1d %x, %k {strides = [2], padding = [1, 2], dilation = [3]} : !relax.tensor<[n, 4, w floordiv 2 - 1], f16>
  %0 = relax.nn.conv1d %x, %k {strides = [2], padding = [1, 2], dilation = [3]}
  // CHECK: relax.nn.conv1d %y, %j {groups = 3, data_layout = "NWC", kernel_layout = "WIO"} : !relax.tensor<[n, w - 2, 6], f16>
  %1 = relax.nn.conv1d %y, %j {groups = 3, data_layout = "NWC", kernel_layout = "WIO"}
  // CHECK: relax.nn.conv3d %v, %m {strides = [1, 2, 3], padding = [1, 0, 2, 0, 1, 1]} : !relax.tensor<[n, 4, d - 1, (h + 1) floordiv 2, 4], f32>
  %2 = relax.nn.conv3d %v, %m {strides = [1, 2, 3], padding = [1, 0, 2, 0, 1, 1]}
  // CHECK: relax.nn.conv3d %u, %l {padding = [1], data_layout = "NDHWC", kernel_layout = "DHWIO"} : !relax.tensor<[n, d, h + 1, 9, 4], f32>
  %3 = relax.nn.conv3d %u, %l {padding = [1], data_layout = "NDHWC", kernel_layout = "DHWIO"}
  relax.return %0
}

// -----

// Transposed: (in - 1) * stride - pad_before - pad_after + dilation * (k - 1) + output_padding + 1,
// and O * groups output channels for an IO... weight.
// CHECK-LABEL: @transposed
relax.function @transposed(%x: !relax.tensor<[n, 4, h, w], f32>, %w: !relax.tensor<[4, 3, 3, 2], f32>, %y: !relax.tensor<[n, 4, l], f32>, %k: !relax.tensor<[4, 3, 4], f32>, %z: !relax.tensor<[n, 4, d, 5, 3], f32>, %m: !relax.tensor<[4, 2, 3, 3, 3], f32>, %u: !relax.tensor<[n, h, w, 4], f32>, %j: !relax.tensor<[3, 3, 5, 4], f32>) -> !relax.object {
  // CHECK: relax.nn.conv2d_transpose %x, %w : !relax.tensor<[n, 3, h + 2, w + 1], f32>
  %0 = relax.nn.conv2d_transpose %x, %w
  // CHECK: relax.nn.conv2d_transpose %x, %w {strides = [2, 3], padding = [1, 0, 2, 1], output_padding = [1, 2], groups = 2} : !relax.tensor<[n, 6, 2 * h - 1, 3 * w], f32>
  %1 = relax.nn.conv2d_transpose %x, %w {strides = [2, 3], padding = [1, 0, 2, 1], output_padding = [1, 2], groups = 2}
  // CHECK: relax.nn.conv1d_transpose %y, %k {strides = [3], padding = [2, 1], output_padding = [2], dilation = [2]} : !relax.tensor<[n, 3, 3 * l + 3], f32>
  %2 = relax.nn.conv1d_transpose %y, %k {strides = [3], padding = [2, 1], output_padding = [2], dilation = [2]}
  // CHECK: relax.nn.conv3d_transpose %z, %m {strides = [2], padding = [1]} : !relax.tensor<[n, 2, 2 * d - 1, 9, 5], f32>
  %3 = relax.nn.conv3d_transpose %z, %m {strides = [2], padding = [1]}
  // CHECK: relax.nn.conv2d_transpose %u, %j {data_layout = "NHWC", kernel_layout = "HWOI"} : !relax.tensor<[n, h + 2, w + 2, 5], f32>
  %4 = relax.nn.conv2d_transpose %u, %j {data_layout = "NHWC", kernel_layout = "HWOI"}
  relax.return %0
}

// -----

// Unknown shapes keep the rank of out_layout; unknown data types give void.
// CHECK-LABEL: @unknown
relax.function @unknown(%r: !relax.tensor<ndim = 4, f32>, %a: !relax.tensor<f32>, %w: !relax.tensor<[6, 4, 3, 3], f32>, %x: !relax.tensor<[n, 4, 8, 8]>, %h: !relax.tensor<[n, 4, 8, 8], f16>, %wh: !relax.tensor<[6, 4, 3, 3], f16>) -> !relax.object {
  // CHECK: relax.nn.conv2d %r, %w : !relax.tensor<ndim = 4, f32>
  %0 = relax.nn.conv2d %r, %w
  // CHECK: relax.nn.conv2d %a, %w : !relax.tensor<ndim = 4, f32>
  %1 = relax.nn.conv2d %a, %w
  // CHECK: relax.nn.conv2d %a, %w {out_layout = "NCHW16c"} : !relax.tensor<ndim = 5, f32>
  %2 = relax.nn.conv2d %a, %w {out_layout = "NCHW16c"}
  // CHECK: relax.nn.conv2d %x, %w : !relax.tensor<[n, 6, 6, 6]>
  %3 = relax.nn.conv2d %x, %w
  // CHECK: relax.nn.conv2d %x, %w {out_dtype = f16} : !relax.tensor<[n, 6, 6, 6], f16>
  %4 = relax.nn.conv2d %x, %w {out_dtype = f16}
  // CHECK: relax.nn.conv2d_transpose %a, %w : !relax.tensor<ndim = 4, f32>
  %5 = relax.nn.conv2d_transpose %a, %w
  // CHECK: relax.nn.conv2d %h, %wh {out_dtype = f32} : !relax.tensor<[n, 6, 6, 6], f32>
  %6 = relax.nn.conv2d %h, %wh {out_dtype = f32}
  relax.return %0
}
