// RUN: relax-opt %s --split-input-file | filecheck %s
// RUN: relax-opt %s --split-input-file %generic-roundtrip | filecheck %s

// The height and width become the size operand's dimensions, in the data's layout.
// CHECK-LABEL: @resize2d
relax.function @resize2d(%x: !relax.tensor<[n, c, h, w], f32>, %y: !relax.tensor<[n, h, w, c], ui8>, %p: !relax.tensor<[n, c, h, w, 4], f32>, %s: !relax.shape<[a, b]>) -> !relax.object {
  %size = relax.shape [2 * h, 7]
  // CHECK: relax.image.resize2d %x, %size : !relax.tensor<[n, c, 2 * h, 7], f32>
  %0 = relax.image.resize2d %x, %size
  // CHECK: relax.image.resize2d %y, %size {layout = "NHWC", method = "nearest_neighbor", coordinate_transformation_mode = "asymmetric", rounding_method = "floor"} : !relax.tensor<[n, 2 * h, 7, c], ui8>
  %1 = relax.image.resize2d %y, %size {layout = "NHWC", method = "nearest_neighbor", coordinate_transformation_mode = "asymmetric", rounding_method = "floor"}
  // CHECK: relax.image.resize2d %y, %s {layout = "NHWC", method = "cubic", cubic_alpha = -0.5, cubic_exclude = 1, out_dtype = f32} : !relax.tensor<[n, a, b, c], f32>
  %2 = relax.image.resize2d %y, %s {layout = "NHWC", method = "cubic", cubic_alpha = -0.5, cubic_exclude = 1, out_dtype = f32}
  // CHECK: relax.image.resize2d %x, %s {roi = [0.1, 0.2, 0.9, 0.8], coordinate_transformation_mode = "tf_crop_and_resize", extrapolation_value = -1.0} : !relax.tensor<[n, c, a, b], f32>
  %3 = relax.image.resize2d %x, %s {roi = [0.1, 0.2, 0.9, 0.8], coordinate_transformation_mode = "tf_crop_and_resize", extrapolation_value = -1.0}
  // CHECK: relax.image.resize2d %p, %s {layout = "NCHW4c"} : !relax.tensor<[n, c, a, b, 4], f32>
  %4 = relax.image.resize2d %p, %s {layout = "NCHW4c"}
  relax.return %0
}

// -----

// An unknown data shape or size keeps the rank of the layout.
// CHECK-LABEL: @unknown
relax.function @unknown(%x: !relax.tensor<[n, c, h, w], f16>, %r: !relax.tensor<ndim = 4, f16>, %a: !relax.tensor<f16>, %s: !relax.shape<ndim = 2>, %t: !relax.shape<[5, 6]>, %v: !relax.tensor<[1, 3, h, w]>) -> !relax.object {
  // CHECK: relax.image.resize2d %x, %s : !relax.tensor<ndim = 4, f16>
  %0 = relax.image.resize2d %x, %s
  // CHECK: relax.image.resize2d %r, %t : !relax.tensor<ndim = 4, f16>
  %1 = relax.image.resize2d %r, %t
  // CHECK: relax.image.resize2d %a, %t {layout = "NCHW8c"} : !relax.tensor<ndim = 5, f16>
  %2 = relax.image.resize2d %a, %t {layout = "NCHW8c"}
  // CHECK: relax.image.resize2d %v, %t : !relax.tensor<[1, 3, 5, 6]>
  %3 = relax.image.resize2d %v, %t
  // CHECK: relax.image.resize2d %v, %t {out_dtype = i32} : !relax.tensor<[1, 3, 5, 6], i32>
  %4 = relax.image.resize2d %v, %t {out_dtype = i32}
  relax.return %0
}

// -----

// grid_sample: the height and width become the grid's last two dimensions, in the data's layout.
// CHECK-LABEL: @grid_sample
relax.function @grid_sample(%x: !relax.tensor<[n, c, h, w], f32>, %y: !relax.tensor<[n, h, w, c], f16>, %g: !relax.tensor<[n, 2, a, b], f32>, %r: !relax.tensor<ndim = 4, f32>, %u: !relax.tensor<f32>, %v: !relax.tensor<ndim = 4>) -> !relax.object {
  // CHECK: relax.image.grid_sample %x, %g : !relax.tensor<[n, c, a, b], f32>
  %0 = relax.image.grid_sample %x, %g
  // CHECK: relax.image.grid_sample %y, %g {method = "bicubic", layout = "NHWC", padding_mode = "reflection", align_corners = true} : !relax.tensor<[n, a, b, c], f16>
  %1 = relax.image.grid_sample %y, %g {method = "bicubic", layout = "NHWC", padding_mode = "reflection", align_corners = true}
  // CHECK: relax.image.grid_sample %x, %r {method = "nearest", padding_mode = "border"} : !relax.tensor<ndim = 4, f32>
  %2 = relax.image.grid_sample %x, %r {method = "nearest", padding_mode = "border"}
  // CHECK: relax.image.grid_sample %u, %g : !relax.tensor<ndim = 4, f32>
  %3 = relax.image.grid_sample %u, %g
  // CHECK: relax.image.grid_sample %v, %g : !relax.tensor<ndim = 4>
  %4 = relax.image.grid_sample %v, %g
  relax.return %0
}
