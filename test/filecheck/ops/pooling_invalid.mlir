// RUN: %verify-diagnostics %s

relax.function @main(%x: !relax.tensor<[1, 4, 8, 8], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.max_pool2d: pool_size has 3 values, expected 1 or 2}}
  %0 = relax.nn.max_pool2d %x {pool_size = [1, 2, 3]}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.avg_pool1d: pool_size must be at least 1, got [0]}}
  %0 = relax.nn.avg_pool1d %x {pool_size = [0]}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.max_pool1d: strides has 2 values, expected 1}}
  %0 = relax.nn.max_pool1d %x {strides = [1, 1]}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8, 8, 8], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.avg_pool3d: strides must be at least 1, got [0, 0, 0]}}
  %0 = relax.nn.avg_pool3d %x {strides = [0]}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8, 8, 8], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.max_pool3d: dilation must be at least 1, got [1, 0, 1]}}
  %0 = relax.nn.max_pool3d %x {dilation = [1, 0, 1]}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8, 8], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.avg_pool2d: padding has 3 values, expected 1, 2 or 4}}
  %0 = relax.nn.avg_pool2d %x {padding = [1, 2, 3]}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8, 8], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.max_pool2d: invalid data layout 'NCHW4'}}
  %0 = relax.nn.max_pool2d %x {layout = "NCHW4"}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8, 8], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.max_pool2d: the output layout 'NCW' is not convertible to NCHW}}
  %0 = relax.nn.max_pool2d %x {out_layout = "NCW"}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.avg_pool2d: layout NCHW expects the data to have 4 dimensions, got 3}}
  %0 = relax.nn.avg_pool2d %x
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 2, 8, 8, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.avg_pool2d: axis c of the data has size 3, layout NCHW4c requires 4}}
  %0 = relax.nn.avg_pool2d %x {layout = "NCHW4c"}
  relax.return %x
}

// -----

relax.function @main(%p: !relax.prim<f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.max_pool1d: the data operand has type prim<f32>, expected a tensor}}
  %0 = relax.nn.max_pool1d %p
  relax.return %p
}

// -----

relax.function @main(%x: !relax.tensor<ndim = 4, f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.adaptive_avg_pool2d: output_size has 3 values, expected 1 or 2}}
  %0 = relax.nn.adaptive_avg_pool2d %x {output_size = [1, 2, 3]}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.adaptive_avg_pool1d: output_size must be at least 1, got [0]}}
  %0 = relax.nn.adaptive_avg_pool1d %x {output_size = [0]}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<ndim = 3, f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.adaptive_avg_pool3d: layout NCDHW expects the data to have 5 dimensions, got 3}}
  %0 = relax.nn.adaptive_avg_pool3d %x
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.adaptive_avg_pool1d: the data layout 'NCWH' is not convertible to NCW}}
  %0 = relax.nn.adaptive_avg_pool1d %x {layout = "NCWH"}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8, 8], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.max_pool2d: result type tensor<[1, 4, 8, 8], f32> contradicts the inferred type tensor<[1, 4, 4, 4], f32>}}
  %0 = relax.nn.max_pool2d %x {pool_size = [2], strides = [2]} : !relax.tensor<[1, 4, 8, 8], f32>
  relax.return %x
}
