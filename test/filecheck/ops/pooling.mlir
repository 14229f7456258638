// RUN: relax-opt %s --split-input-file | filecheck %s
// RUN: relax-opt %s --split-input-file %generic-roundtrip | filecheck %s

// Output sizes: (in + pad_before + pad_after - dilation * (pool_size - 1) - 1) floordiv stride + 1.
// CHECK-LABEL: @pool2d
relax.function @pool2d(%x: !relax.tensor<[n, c, h, 10], f32>, %i: !relax.tensor<[2, 3, 7, 7], i8>) -> !relax.object {
  // CHECK: relax.nn.max_pool2d %x : !relax.tensor<[n, c, h, 10], f32>
  %0 = relax.nn.max_pool2d %x
  // CHECK: relax.nn.max_pool2d %x {pool_size = [3], strides = [2], padding = [1]} : !relax.tensor<[n, c, (h + 1) floordiv 2, 5], f32>
  %1 = relax.nn.max_pool2d %x {pool_size = [3], strides = [2], padding = [1]}
  // CHECK: relax.nn.avg_pool2d %x {pool_size = [2, 3], strides = [1, 2], padding = [0, 1, 2, 2], dilation = [2]} : !relax.tensor<[n, c, h, 5], f32>
  %2 = relax.nn.avg_pool2d %x {pool_size = [2, 3], strides = [1, 2], padding = [0, 1, 2, 2], dilation = [2]}
  // CHECK: relax.nn.avg_pool2d %i {pool_size = [2], strides = [2], count_include_pad = true} : !relax.tensor<[2, 3, 3, 3], i8>
  %3 = relax.nn.avg_pool2d %i {pool_size = [2], strides = [2], count_include_pad = true}
  relax.return %0
}

// -----

// ceil_mode keeps a last partial window unless it would start in the padding
// after the data; when that depends on the size, the result is a select.
// CHECK-LABEL: @ceil_mode
relax.function @ceil_mode(%x: !relax.tensor<[n, c, w], f32>, %y: !relax.tensor<[n, c, 7, 10], f32>) -> !relax.object {
  // CHECK: relax.nn.max_pool1d %x {pool_size = [3], strides = [2], padding = [1], ceil_mode = true} : !relax.tensor<[n, c, w floordiv 2 + 1], f32>
  %0 = relax.nn.max_pool1d %x {pool_size = [3], strides = [2], padding = [1], ceil_mode = true}
  // CHECK: relax.nn.max_pool1d %x {pool_size = [1], strides = [2], padding = [1], ceil_mode = true} : !relax.tensor<[n, c, w floordiv 2 + 1], f32>
  %1 = relax.nn.max_pool1d %x {pool_size = [1], strides = [2], padding = [1], ceil_mode = true}
  // CHECK: relax.nn.avg_pool1d %x {pool_size = [2], strides = [3], padding = [1], ceil_mode = true} : !relax.tensor<[n, c, select(ge(3 * ((w + 2) floordiv 3), w + 1), (w + 2) floordiv 3, (w + 2) floordiv 3 + 1)], f32>
  %2 = relax.nn.avg_pool1d %x {pool_size = [2], strides = [3], padding = [1], ceil_mode = true}
  // CHECK: relax.nn.max_pool2d %y {pool_size = [2], strides = [2], ceil_mode = true} : !relax.tensor<[n, c, 4, 5], f32>
  %3 = relax.nn.max_pool2d %y {pool_size = [2], strides = [2], ceil_mode = true}
  // the fifth row of windows would start in the padding: 4 rows
  // CHECK: relax.nn.max_pool2d %y {pool_size = [2], strides = [2], padding = [1], ceil_mode = true} : !relax.tensor<[n, c, 4, 6], f32>
  %4 = relax.nn.max_pool2d %y {pool_size = [2], strides = [2], padding = [1], ceil_mode = true}
  relax.return %0
}

// -----

// CHECK-LABEL: @pool1d_pool3d
relax.function @pool1d_pool3d(%x: !relax.tensor<[n, c, w], f16>, %y: !relax.tensor<[n, d, h, 5, c], i32>, %z: !relax.tensor<[n, c, d, h, w], f32>) -> !relax.object {
  // CHECK: relax.nn.avg_pool1d %x {pool_size = [3], strides = [2], padding = [2, 1], dilation = [2]} : !relax.tensor<[n, c, w floordiv 2], f16>
  %0 = relax.nn.avg_pool1d %x {pool_size = [3], strides = [2], padding = [2, 1], dilation = [2]}
  // CHECK: relax.nn.max_pool1d %x {layout = "NWC"} : !relax.tensor<[n, c, w], f16>
  %1 = relax.nn.max_pool1d %x {layout = "NWC"}
  // CHECK: relax.nn.max_pool3d %y {pool_size = [2, 3, 1], strides = [2], padding = [1], layout = "NDHWC", out_layout = "NCDHW"} : !relax.tensor<[n, c, d floordiv 2 + 1, (h + 1) floordiv 2, 4], i32>
  %2 = relax.nn.max_pool3d %y {pool_size = [2, 3, 1], strides = [2], padding = [1], layout = "NDHWC", out_layout = "NCDHW"}
  // CHECK: relax.nn.avg_pool3d %z {pool_size = [3], padding = [1, 0, 0, 1, 0, 0]} : !relax.tensor<[n, c, d, h - 2, w - 2], f32>
  %3 = relax.nn.avg_pool3d %z {pool_size = [3], padding = [1, 0, 0, 1, 0, 0]}
  relax.return %0
}

// -----

// CHECK-LABEL: @layouts_unknown
relax.function @layouts_unknown(%p: !relax.tensor<[n, c, h, w, 4], f32>, %r: !relax.tensor<ndim = 4, f32>, %a: !relax.tensor<i8>, %v: !relax.tensor<[n, 4, h, w]>) -> !relax.object {
  // CHECK: relax.nn.avg_pool2d %p {pool_size = [2], strides = [2], layout = "NCHW4c"} : !relax.tensor<[n, c, h floordiv 2, w floordiv 2, 4], f32>
  %0 = relax.nn.avg_pool2d %p {pool_size = [2], strides = [2], layout = "NCHW4c"}
  // CHECK: relax.nn.max_pool2d %p {layout = "NCHW4c", out_layout = "NHWC"} : !relax.tensor<[n, h, w, 4 * c], f32>
  %1 = relax.nn.max_pool2d %p {layout = "NCHW4c", out_layout = "NHWC"}
  // CHECK: relax.nn.max_pool2d %r : !relax.tensor<ndim = 4, f32>
  %2 = relax.nn.max_pool2d %r
  // CHECK: relax.nn.avg_pool2d %a {out_layout = "NCHW8c"} : !relax.tensor<ndim = 5, i8>
  %3 = relax.nn.avg_pool2d %a {out_layout = "NCHW8c"}
  // CHECK: relax.nn.max_pool2d %v {pool_size = [2]} : !relax.tensor<[n, 4, h - 1, w - 1]>
  %4 = relax.nn.max_pool2d %v {pool_size = [2]}
  // CHECK: relax.nn.adaptive_avg_pool2d %r {output_size = [1]} : !relax.tensor<ndim = 4, f32>
  %5 = relax.nn.adaptive_avg_pool2d %r {output_size = [1]}
  relax.return %0
}

// -----

// Adaptive pooling: the spatial sizes become output_size (default: unchanged).
// CHECK-LABEL: @adaptive
relax.function @adaptive(%x: !relax.tensor<[n, c, w], f32>, %y: !relax.tensor<[n, h, w, c], f32>, %z: !relax.tensor<[n, c, d, h, 5], f16>) -> !relax.object {
  // CHECK: relax.nn.adaptive_avg_pool1d %x {output_size = [3]} : !relax.tensor<[n, c, 3], f32>
  %0 = relax.nn.adaptive_avg_pool1d %x {output_size = [3]}
  // CHECK: relax.nn.adaptive_avg_pool1d %x : !relax.tensor<[n, c, w], f32>
  %1 = relax.nn.adaptive_avg_pool1d %x
  // CHECK: relax.nn.adaptive_avg_pool2d %y {output_size = [3, 5], layout = "NHWC", out_layout = "NCHW"} : !relax.tensor<[n, c, 3, 5], f32>
  %2 = relax.nn.adaptive_avg_pool2d %y {output_size = [3, 5], layout = "NHWC", out_layout = "NCHW"}
  // CHECK: relax.nn.adaptive_avg_pool2d %y {layout = "NHWC", out_layout = "NCHW"} : !relax.tensor<[n, c, h, w], f32>
  %3 = relax.nn.adaptive_avg_pool2d %y {layout = "NHWC", out_layout = "NCHW"}
  // CHECK: relax.nn.adaptive_avg_pool3d %z {output_size = [2]} : !relax.tensor<[n, c, 2, 2, 2], f16>
  %4 = relax.nn.adaptive_avg_pool3d %z {output_size = [2]}
  // CHECK: relax.nn.adaptive_avg_pool3d %z {output_size = [1, 2, 3]} : !relax.tensor<[n, c, 1, 2, 3], f16>
  %5 = relax.nn.adaptive_avg_pool3d %z {output_size = [1, 2, 3]}
  relax.return %0
}
