// RUN: %verify-diagnostics %s

relax.function @main(%x: !relax.tensor<[1, 3, 4, 4], f32>, %r: !relax.tensor<[2, 5], f32>) -> !relax.object {
  // expected-error @+1 {{relax.vision.roi_align: mode 'min' is not one of 'avg', 'max'}}
  %0 = relax.vision.roi_align %x, %r {pooled_size = [2, 2], spatial_scale = 1.0, mode = "min"}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 3, 4, 4], f32>, %r: !relax.tensor<[2, 5], f32>) -> !relax.object {
  // expected-error @+1 {{relax.vision.roi_align: layout 'HWCN' is not one of 'NCHW', 'NHWC'}}
  %0 = relax.vision.roi_align %x, %r {pooled_size = [2, 2], spatial_scale = 1.0, layout = "HWCN"}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 3, 4, 4], f32>, %r: !relax.tensor<[2, 5], f32>) -> !relax.object {
  // expected-error @+1 {{relax.vision.roi_align: pooled_size has 3 values, expected 2 (height, width)}}
  %0 = relax.vision.roi_align %x, %r {pooled_size = [2, 2, 2], spatial_scale = 1.0}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 3, 4, 4], f32>, %r: !relax.tensor<[2, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.vision.roi_align: the rois must be [num_roi, 5] (batch index, x1, y1, x2, y2), got a last dimension of 4}}
  %0 = relax.vision.roi_align %x, %r {pooled_size = [2, 2], spatial_scale = 1.0}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[3, 4, 4], f32>, %r: !relax.tensor<[2, 5], f32>) -> !relax.object {
  // expected-error @+1 {{relax.vision.roi_align: the data must have 4 dimensions, got 3}}
  %0 = relax.vision.roi_align %x, %r {pooled_size = [2, 2], spatial_scale = 1.0}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 3, 4, 4], f32>, %r: !relax.tensor<[5], f32>) -> !relax.object {
  // expected-error @+1 {{relax.vision.roi_align: the rois must have 2 dimensions, got 1}}
  %0 = relax.vision.roi_align %x, %r {pooled_size = [2, 2], spatial_scale = 1.0}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 3, 4, 4], f32>, %r: !relax.shape<[2, 5]>) -> !relax.object {
  // expected-error @+1 {{relax.vision.roi_align: the rois operand has type shape<[2, 5]>, expected a tensor}}
  %0 = relax.vision.roi_align %x, %r {pooled_size = [2, 2], spatial_scale = 1.0}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 3, 4, 4], f32>, %r: !relax.tensor<[2, 5], f32>) -> !relax.object {
  // expected-error @+1 {{property 'spatial_scale' expected in operation 'relax.vision.roi_align'}}
  %0 = relax.vision.roi_align %x, %r {pooled_size = [2, 2]}
  relax.return %x
}
