// RUN: relax-opt %s | filecheck %s
// RUN: relax-opt %s %generic-roundtrip | filecheck %s

// One result row per region: [num_roi, C, pooled_h, pooled_w] (NCHW) or
// [num_roi, pooled_h, pooled_w, C] (NHWC), of the data's type; only the rank when a
// shape is unknown.
// CHECK-LABEL: @roi_align
relax.function @roi_align(%x: !relax.tensor<[b, c, h, w], f32>, %y: !relax.tensor<[b, h, w, c], f16>, %r: !relax.tensor<[n, 5], f32>, %u: !relax.tensor<ndim = 4, f32>, %q: !relax.tensor<[n, k], f32>, %a: !relax.tensor<f32>, %z: !relax.tensor<ndim = 2, f32>) -> !relax.object {
  // CHECK: relax.vision.roi_align %x, %r {pooled_size = [2, 3], spatial_scale = 0.5} : !relax.tensor<[n, c, 2, 3], f32>
  %0 = relax.vision.roi_align %x, %r {pooled_size = [2, 3], spatial_scale = 0.5}
  // CHECK: relax.vision.roi_align %y, %r {pooled_size = [7, 7], spatial_scale = 0.25, sample_ratio = 2, aligned = true, layout = "NHWC", mode = "max"} : !relax.tensor<[n, 7, 7, c], f16>
  %1 = relax.vision.roi_align %y, %r {pooled_size = [7, 7], spatial_scale = 0.25, sample_ratio = 2, aligned = true, layout = "NHWC", mode = "max"}
  // CHECK: relax.vision.roi_align %u, %r {pooled_size = [2, 2], spatial_scale = 1.0} : !relax.tensor<ndim = 4, f32>
  %2 = relax.vision.roi_align %u, %r {pooled_size = [2, 2], spatial_scale = 1.0}
  // CHECK: relax.vision.roi_align %x, %q {pooled_size = [2, 2], spatial_scale = 1.0} : !relax.tensor<[n, c, 2, 2], f32>
  %3 = relax.vision.roi_align %x, %q {pooled_size = [2, 2], spatial_scale = 1.0}
  // CHECK: relax.vision.roi_align %a, %r {pooled_size = [2, 2], spatial_scale = 1.0} : !relax.tensor<ndim = 4, f32>
  %4 = relax.vision.roi_align %a, %r {pooled_size = [2, 2], spatial_scale = 1.0}
  // CHECK: relax.vision.roi_align %x, %z {pooled_size = [2, 2], spatial_scale = 1.0} : !relax.tensor<ndim = 4, f32>
  %5 = relax.vision.roi_align %x, %z {pooled_size = [2, 2], spatial_scale = 1.0}
  relax.return %0
}
