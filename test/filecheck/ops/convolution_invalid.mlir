// RUN: %verify-diagnostics %s

relax.function @main(%x: !relax.tensor<[1, 4, 8, 8], f32>, %w: !relax.tensor<[6, 4, 3, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.conv2d: groups must be positive, got 0}}
  %0 = relax.nn.conv2d %x, %w {groups = 0}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8, 8], f32>, %w: !relax.tensor<[6, 4, 3, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.conv2d: strides has 3 values, expected 1 or 2}}
  %0 = relax.nn.conv2d %x, %w {strides = [1, 1, 1]}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8, 8], f32>, %w: !relax.tensor<[6, 4, 3, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.conv2d: strides must be at least 1, got [0, 1]}}
  %0 = relax.nn.conv2d %x, %w {strides = [0, 1]}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8, 8], f32>, %w: !relax.tensor<[6, 4, 3, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.conv2d: strides must be integers, got [1.5]}}
  %0 = relax.nn.conv2d %x, %w {strides = [1.5]}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8, 8], f32>, %w: !relax.tensor<[6, 4, 3, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.conv2d: dilation must be at least 1, got [0, 0]}}
  %0 = relax.nn.conv2d %x, %w {dilation = [0]}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8, 8], f32>, %w: !relax.tensor<[6, 4, 3, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.conv2d: padding has 3 values, expected 1, 2 or 4}}
  %0 = relax.nn.conv2d %x, %w {padding = [1, 2, 3]}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8, 8], f32>, %w: !relax.tensor<[6, 4, 3, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.conv2d: padding must be integers, got [0.5]}}
  %0 = relax.nn.conv2d %x, %w {padding = [0.5]}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8], f32>, %w: !relax.tensor<[6, 4, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.conv1d: dilation has 2 values, expected 1}}
  %0 = relax.nn.conv1d %x, %w {dilation = [1, 1]}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8], f32>, %w: !relax.tensor<[6, 4, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.conv1d: padding has 3 values, expected 1 or 2}}
  %0 = relax.nn.conv1d %x, %w {padding = [1, 1, 1]}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8, 8, 8], f32>, %w: !relax.tensor<[6, 4, 3, 3, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.conv3d: padding has 2 values, expected 1, 3 or 6}}
  %0 = relax.nn.conv3d %x, %w {padding = [1, 1]}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8, 8], f32>, %w: !relax.tensor<[4, 6, 3, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.conv2d_transpose: output_padding [1, 2] must be less than the strides [2, 2]}}
  %0 = relax.nn.conv2d_transpose %x, %w {strides = [2], output_padding = [1, 2]}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8], f32>, %w: !relax.tensor<[4, 6, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.conv1d_transpose: output_padding has 2 values, expected 1}}
  %0 = relax.nn.conv1d_transpose %x, %w {output_padding = [0, 0]}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<ndim = 5, f32>, %w: !relax.tensor<[4, 6, 3, 3, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.conv3d_transpose: output_padding must be at least 0, got [-1, -1, -1]}}
  %0 = relax.nn.conv3d_transpose %x, %w {output_padding = [-1]}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8, 8], f32>, %w: !relax.tensor<[6, 4, 3, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.conv2d: invalid data layout 'NCHc': inner axis c needs a positive size}}
  %0 = relax.nn.conv2d %x, %w {data_layout = "NCHc"}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8, 8], f32>, %w: !relax.tensor<[6, 4, 3, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.conv2d: invalid kernel layout 'O4IHW': a size precedes primal axis I}}
  %0 = relax.nn.conv2d %x, %w {kernel_layout = "O4IHW"}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8, 8], f32>, %w: !relax.tensor<[6, 4, 3, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.conv2d: invalid output layout 'NC-HW'}}
  %0 = relax.nn.conv2d %x, %w {out_layout = "NC-HW"}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8, 8], f32>, %w: !relax.tensor<[6, 4, 3, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.conv2d: invalid data layout 'NCHW4c2c': repeated axis}}
  %0 = relax.nn.conv2d %x, %w {data_layout = "NCHW4c2c"}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8, 8], f32>, %w: !relax.tensor<[6, 4, 3, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.conv2d: the data layout 'NCDH' is not convertible to NCHW}}
  %0 = relax.nn.conv2d %x, %w {data_layout = "NCDH"}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8, 8], f32>, %w: !relax.tensor<[6, 4, 3, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.conv2d: the kernel layout 'OIHW4d' is not convertible to OIHW}}
  %0 = relax.nn.conv2d %x, %w {kernel_layout = "OIHW4d"}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8, 8], f32>, %w: !relax.tensor<[6, 4, 3, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.conv2d_transpose: the kernel layout 'IOHWD' is not convertible to IOHW}}
  %0 = relax.nn.conv2d_transpose %x, %w {kernel_layout = "IOHWD"}
  relax.return %x
}

// -----

relax.function @main(%s: !relax.shape<[1, 4, 8, 8]>, %w: !relax.tensor<[6, 4, 3, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.conv2d: the data operand has type shape<[1, 4, 8, 8]>, expected a tensor}}
  %0 = relax.nn.conv2d %s, %w
  relax.return %w
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8, 8], f32>, %p: !relax.prim<f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.conv2d: the weight operand has type prim<f32>, expected a tensor}}
  %0 = relax.nn.conv2d %x, %p
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8], f32>, %w: !relax.tensor<[6, 4, 3, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.conv2d: layout NCHW expects the data to have 4 dimensions, got 3}}
  %0 = relax.nn.conv2d %x, %w
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 8, 8, 4], f32>, %w: !relax.tensor<ndim = 3, f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.conv2d: layout HWIO expects the weight to have 4 dimensions, got 3}}
  %0 = relax.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8, 8], i8>, %w: !relax.tensor<[6, 4, 3, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.conv2d: operands have different data types i8 and f32}}
  %0 = relax.nn.conv2d %x, %w
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[n, 8, 8, 8], f32>, %w: !relax.tensor<[6, 4, 3, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.conv2d: the data has 8 channels, expected 4 (weight input channels) * 1 (groups)}}
  %0 = relax.nn.conv2d %x, %w
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[n, 8, w], f32>, %w: !relax.tensor<[6, 2, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.conv1d: 6 output channels are not divisible by 4 groups}}
  %0 = relax.nn.conv1d %x, %w {groups = 4}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[n, 6, 8, 8], f32>, %w: !relax.tensor<[8, 3, 3, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.conv2d_transpose: the data has 6 channels, the weight expects 8}}
  %0 = relax.nn.conv2d_transpose %x, %w
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[n, 9, 8, 8, 8], f32>, %w: !relax.tensor<[9, 3, 3, 3, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.conv3d_transpose: 9 input channels are not divisible by 2 groups}}
  %0 = relax.nn.conv3d_transpose %x, %w {groups = 2}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[n, 2, 8, 8, 3], f32>, %w: !relax.tensor<[6, 8, 3, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.conv2d: axis c of the data has size 3, layout NCHW4c requires 4}}
  %0 = relax.nn.conv2d %x, %w {data_layout = "NCHW4c"}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[1, 4, 8, 8], f32>, %w: !relax.tensor<[6, 4, 3, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.conv2d: result type tensor<[1, 6, 5, 5], f32> contradicts the inferred type tensor<[1, 6, 6, 6], f32>}}
  %0 = relax.nn.conv2d %x, %w : !relax.tensor<[1, 6, 5, 5], f32>
  relax.return %x
}
