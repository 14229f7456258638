// RUN: %verify-diagnostics %s

relax.function @main(%x: !relax.tensor<[1, 3, 4, 4], f32>, %s: !relax.shape<[8, 8]>) -> !relax.object {
  // expected-error @+1 {{relax.image.resize2d: method 'bilinear' is not one of 'nearest_neighbor', 'linear', 'cubic'}}
  %0 = relax.image.resize2d %x, %s {method = "bilinear"}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 3, 4, 4], f32>, %s: !relax.shape<[8, 8]>) -> !relax.object {
  // expected-error @+1 {{relax.image.resize2d: coordinate_transformation_mode 'corners' is not one of 'half_pixel', 'align_corners', 'asymmetric', 'pytorch_half_pixel', 'tf_half_pixel_for_nn', 'tf_crop_and_resize'}}
  %0 = relax.image.resize2d %x, %s {coordinate_transformation_mode = "corners"}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 3, 4, 4], f32>, %s: !relax.shape<[8, 8]>) -> !relax.object {
  // expected-error @+1 {{relax.image.resize2d: rounding_method 'nearest' is not one of 'round', 'round_prefer_floor', 'round_prefer_ceil', 'floor', 'ceil', ''}}
  %0 = relax.image.resize2d %x, %s {rounding_method = "nearest"}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 3, 4, 4], f32>, %s: !relax.shape<[8, 8]>) -> !relax.object {
  // expected-error @+1 {{relax.image.resize2d: roi has 2 values, expected 4 (start_h, start_w, end_h, end_w)}}
  %0 = relax.image.resize2d %x, %s {roi = [0.0, 1.0]}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 3, 4, 4], f32>, %s: !relax.shape<[8, 8]>) -> !relax.object {
  // expected-error @+1 {{relax.image.resize2d: the data layout 'NCHWD' is not convertible to NCHW}}
  %0 = relax.image.resize2d %x, %s {layout = "NCHWD"}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 3, 4, 4], f32>, %s: !relax.tensor<[2], i64>) -> !relax.object {
  // expected-error @+1 {{relax.image.resize2d: the size operand has type tensor<[2], i64>, expected a shape}}
  %0 = relax.image.resize2d %x, %s
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 3, 4, 4], f32>, %s: !relax.shape<[8, 8, 8]>) -> !relax.object {
  // expected-error @+1 {{relax.image.resize2d: the size must have 2 dimensions, got 3}}
  %0 = relax.image.resize2d %x, %s
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 3, 4, 4], f32>, %s: !relax.shape) -> !relax.object {
  // expected-error @+1 {{relax.image.resize2d: the size must have 2 dimensions, got unknown}}
  %0 = relax.image.resize2d %x, %s
  relax.return %x
}

// -----

relax.function @main(%x: !relax.shape<[1, 3, 4, 4]>, %s: !relax.shape<[8, 8]>) -> !relax.object {
  // expected-error @+1 {{relax.image.resize2d: the data operand has type shape<[1, 3, 4, 4]>, expected a tensor}}
  %0 = relax.image.resize2d %x, %s
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[3, 4, 4], f32>, %s: !relax.shape<[8, 8]>) -> !relax.object {
  // expected-error @+1 {{relax.image.resize2d: layout NHWC expects the data to have 4 dimensions, got 3}}
  %0 = relax.image.resize2d %x, %s {layout = "NHWC"}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 3, 4, 4, 2], f32>, %s: !relax.shape<[8, 8]>) -> !relax.object {
  // expected-error @+1 {{relax.image.resize2d: axis c of the data has size 2, layout NCHW4c requires 4}}
  %0 = relax.image.resize2d %x, %s {layout = "NCHW4c"}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 3, 4, 4], f32>, %g: !relax.tensor<[1, 2, 5, 5], f32>) -> !relax.object {
  // expected-error @+1 {{relax.image.grid_sample: method 'linear' is not one of 'bilinear', 'nearest', 'bicubic'}}
  %0 = relax.image.grid_sample %x, %g {method = "linear"}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 3, 4, 4], f32>, %g: !relax.tensor<[1, 2, 5, 5], f32>) -> !relax.object {
  // expected-error @+1 {{relax.image.grid_sample: padding_mode 'constant' is not one of 'zeros', 'border', 'reflection'}}
  %0 = relax.image.grid_sample %x, %g {padding_mode = "constant"}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 3, 4, 4], f32>, %g: !relax.tensor<[1, 5, 5], f32>) -> !relax.object {
  // expected-error @+1 {{relax.image.grid_sample: the grid must have 4 dimensions (N, 2, H_out, W_out), got 3}}
  %0 = relax.image.grid_sample %x, %g
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 3, 4], f32>, %g: !relax.tensor<[1, 2, 5, 5], f32>) -> !relax.object {
  // expected-error @+1 {{relax.image.grid_sample: layout NCHW expects the data to have 4 dimensions, got 3}}
  %0 = relax.image.grid_sample %x, %g
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 3, 4, 4], f32>, %g: !relax.shape<[1, 2, 5, 5]>) -> !relax.object {
  // expected-error @+1 {{relax.image.grid_sample: the grid operand has type shape<[1, 2, 5, 5]>, expected a tensor}}
  %0 = relax.image.grid_sample %x, %g
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 3, 4, 4], f32>, %g: !relax.tensor<[1, 2, 5, 5], f32>) -> !relax.object {
  // expected-error @+1 {{relax.image.grid_sample: the data layout 'NCW' is not convertible to NCHW}}
  %0 = relax.image.grid_sample %x, %g {layout = "NCW"}
  relax.return %x
}
