// RUN: %verify-diagnostics %s
// Every error of every neural-network operator (relax.nn.*).

// Operands must be tensors.
relax.function @main(%x: !relax.prim<f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.relu: the data operand has type prim<f32>, expected a tensor}}
  %0 = relax.nn.relu %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 3], f32>, %a: !relax.shape<[3]>) -> !relax.object {
  // expected-error @+1 {{relax.nn.prelu: the alpha operand has type shape<[3]>, expected a tensor}}
  %0 = relax.nn.prelu %x, %a
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 3], f32>, %p: !relax.tensor<[3], f32>, %o: !relax.object) -> !relax.object {
  // expected-error @+1 {{relax.nn.batch_norm: the moving_var operand has type object, expected a tensor}}
  %0 = relax.nn.batch_norm %x, %p, %p, %p, %o {axis = 1}
  relax.return %0
}

// -----

relax.function @main(%p: !relax.tensor<[2, 3], f32>, %t: !relax.tensor<[2], i64>, %w: !relax.tuple<>) -> !relax.object {
  // expected-error @+1 {{relax.nn.nll_loss: the weights operand has type tuple<>, expected a tensor}}
  %0 = relax.nn.nll_loss %p, %t, %w
  relax.return %0
}

// -----

relax.function @main(%q: !relax.tensor<[1, 2, 1, 4], f32>, %b: !relax.prim<f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.attention_bias: the bias operand has type prim<f32>, expected a tensor}}
  %0 = relax.nn.attention_bias %q, %q, %q, %b
  relax.return %0
}

// -----

relax.function @main(%p: !relax.tensor<[2, 3], f32>, %l: !relax.object) -> !relax.object {
  // expected-error @+1 {{relax.nn.cross_entropy_with_logits: the labels operand has type object, expected a tensor}}
  %0 = relax.nn.cross_entropy_with_logits %p, %l
  relax.return %0
}

// -----

// Float data types.
relax.function @main(%x: !relax.tensor<[n], i32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.gelu: the data has data type i32, expected a float data type}}
  %0 = relax.nn.gelu %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<ndim = 2, i64>) -> !relax.object {
  // expected-error @+1 {{relax.nn.gelu_tanh: the data has data type i64, expected a float data type}}
  %0 = relax.nn.gelu_tanh %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<bool>) -> !relax.object {
  // expected-error @+1 {{relax.nn.selu: the data has data type bool, expected a float data type}}
  %0 = relax.nn.selu %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[3], i8>) -> !relax.object {
  // expected-error @+1 {{relax.nn.silu: the data has data type i8, expected a float data type}}
  %0 = relax.nn.silu %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[3], ui8>) -> !relax.object {
  // expected-error @+1 {{relax.nn.leakyrelu: the data has data type ui8, expected a float data type}}
  %0 = relax.nn.leakyrelu %x {alpha = 0.1}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[3], i32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.softplus: the data has data type i32, expected a float data type}}
  %0 = relax.nn.softplus %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[3], i32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.softmax: the data has data type i32, expected a float data type}}
  %0 = relax.nn.softmax %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<ndim = 2, i64>) -> !relax.object {
  // expected-error @+1 {{relax.nn.log_softmax: the data has data type i64, expected a float data type}}
  %0 = relax.nn.log_softmax %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 3], i32>, %a: !relax.tensor<[3], i32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.prelu: the data has data type i32, expected a float data type}}
  %0 = relax.nn.prelu %x, %a
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 3], i32>, %p: !relax.tensor<[3], i32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.batch_norm: the data has data type i32, expected a float data type}}
  %0 = relax.nn.batch_norm %x, %p, %p, %p, %p {axis = 1}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 3], i32>, %p: !relax.tensor<[3], i32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.layer_norm: the data has data type i32, expected a float data type}}
  %0 = relax.nn.layer_norm %x, %p, %p {axes = [1]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 3], i32>, %p: !relax.tensor<[3], i32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.rms_norm: the data has data type i32, expected a float data type}}
  %0 = relax.nn.rms_norm %x, %p
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 4, 3], i32>, %p: !relax.tensor<[4], i32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.group_norm: the data has data type i32, expected a float data type}}
  %0 = relax.nn.group_norm %x, %p, %p {num_groups = 2, channel_axis = 1, axes = [2]}
  relax.return %0
}

// -----

// Axes out of range.
relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.softmax: axis 2 is out of range for a tensor of 2 dimensions (expected [-2, 2))}}
  %0 = relax.nn.softmax %x {axis = 2}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<ndim = 2, f16>) -> !relax.object {
  // expected-error @+1 {{relax.nn.log_softmax: axis -3 is out of range for a tensor of 2 dimensions (expected [-2, 2))}}
  %0 = relax.nn.log_softmax %x {axis = -3}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 3, 4], f32>, %a: !relax.tensor<[3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.prelu: axis 3 is out of range for a tensor of 3 dimensions (expected [-3, 3))}}
  %0 = relax.nn.prelu %x, %a {axis = 3}
  relax.return %0
}

// -----

// pad
relax.function @main(%x: !relax.tensor<[2, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.pad: pad_mode 'edge' is not one of 'constant', 'reflect', 'replicate', 'circular'}}
  %0 = relax.nn.pad %x {pad_width = [1, 1, 1, 1], pad_mode = "edge"}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.pad: pad_width has 2 entries, expected 4 (a before and an after width per dimension)}}
  %0 = relax.nn.pad %x {pad_width = [1, 1]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.pad: pad_width has 3 entries, expected an even number of (a before and an after width per dimension)}}
  %0 = relax.nn.pad %x {pad_width = [1, 1, 2]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.pad: padding makes axis 1 negative (-1)}}
  %0 = relax.nn.pad %x {pad_width = [0, 0, -2, -2]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 3], f32>) -> !relax.object {
  // expected-error @+1 {{property 'pad_width' expected}}
  %0 = relax.nn.pad %x : !relax.tensor<[n, 3], f32>
  relax.return %0
}

// -----

// pixel_shuffle
relax.function @main(%x: !relax.tensor<[1, 8, 2, 2], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.pixel_shuffle: upscale_factor must be positive, got 0}}
  %0 = relax.nn.pixel_shuffle %x {upscale_factor = 0}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[8, 2], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.pixel_shuffle: the data has 2 dimensions, expected at least 3 (channels, height, width)}}
  %0 = relax.nn.pixel_shuffle %x {upscale_factor = 2}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 6, 2, 2], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.pixel_shuffle: 6 channels are not divisible by upscale_factor squared (4)}}
  %0 = relax.nn.pixel_shuffle %x {upscale_factor = 2}
  relax.return %0
}

// -----

// batch_flatten
relax.function @main(%x: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.batch_flatten: the data has 1 dimensions, expected at least 2}}
  %0 = relax.nn.batch_flatten %x
  relax.return %0
}

// -----

// batch_norm
relax.function @main(%x: !relax.tensor<[2, 3], f32>, %p: !relax.tensor<[3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.batch_norm: axis 2 is out of range for a tensor of 2 dimensions (expected [-2, 2))}}
  %0 = relax.nn.batch_norm %x, %p, %p, %p, %p {axis = 2}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 3], f32>, %p: !relax.tensor<[3], f32>, %h: !relax.tensor<[3], f16>) -> !relax.object {
  // expected-error @+1 {{relax.nn.batch_norm: gamma has data type f16, expected the data's f32}}
  %0 = relax.nn.batch_norm %x, %h, %p, %p, %p {axis = 1}
  relax.return %0
}

// -----

// TVM requires the exact data type: an unknown one is an error too.
relax.function @main(%x: !relax.tensor<[2, 3], f32>, %p: !relax.tensor<[3], f32>, %v: !relax.tensor<[3]>) -> !relax.object {
  // expected-error @+1 {{relax.nn.batch_norm: beta has data type void, expected the data's f32}}
  %0 = relax.nn.batch_norm %x, %p, %v, %p, %p {axis = 1}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 3], f32>, %p: !relax.tensor<[3], f32>, %m: !relax.tensor<[1, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.batch_norm: moving_mean has 2 dimensions, expected 1 (one per normalized axis)}}
  %0 = relax.nn.batch_norm %x, %p, %p, %m, %p {axis = 1}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 3], f32>, %p: !relax.tensor<[3], f32>, %q: !relax.tensor<[4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.batch_norm: parameter sizes [4] differ from the normalized sizes [3]}}
  %0 = relax.nn.batch_norm %x, %p, %p, %p, %q {axis = -1}
  relax.return %0
}

// -----

// layer_norm
relax.function @main(%x: !relax.tensor<[2, 3], f32>, %p: !relax.tensor<[2, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.layer_norm: axes [1, -1] repeat an axis}}
  %0 = relax.nn.layer_norm %x, %p, %p {axes = [1, -1]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 3], f32>, %p: !relax.tensor<[3], f32>, %r: !relax.tensor<f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.layer_norm: gamma has an unknown number of dimensions, expected 1 (one per normalized axis)}}
  %0 = relax.nn.layer_norm %x, %r, %p {axes = [1]}
  relax.return %0
}

// -----

// With an unknown data shape the parameters are compared with each other.
relax.function @main(%x: !relax.tensor<f32>, %p: !relax.tensor<[3], f32>, %q: !relax.tensor<[4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.layer_norm: parameter sizes [4] differ from the normalized sizes [3]}}
  %0 = relax.nn.layer_norm %x, %p, %q {axes = [1]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 3], f32>, %p: !relax.tensor<[3], f32>) -> !relax.object {
  // expected-error @+1 {{property 'axes' expected}}
  %0 = relax.nn.layer_norm %x, %p, %p : !relax.tensor<[2, 3], f32>
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 3], f32>, %p: !relax.tensor<[3], f32>) -> !relax.object {
  // expected-error @+1 {{Expected attribute i64 but got f64}}
  %0 = relax.nn.layer_norm %x, %p, %p {axes = [1.5]}
  relax.return %0
}

// -----

// rms_norm
relax.function @main(%x: !relax.tensor<[2, 3], f32>, %p: !relax.tensor<[3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.rms_norm: axis -3 is out of range for a tensor of 2 dimensions (expected [-2, 2))}}
  %0 = relax.nn.rms_norm %x, %p {axes = [-3]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 3], f16>, %p: !relax.tensor<[3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.rms_norm: weight has data type f32, expected the data's f16}}
  %0 = relax.nn.rms_norm %x, %p
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 3], f32>, %p: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.rms_norm: weight has 1 dimensions, expected 2 (one per normalized axis)}}
  %0 = relax.nn.rms_norm %x, %p {axes = [0, 1]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 3], f32>, %p: !relax.tensor<[n, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.rms_norm: parameter sizes [n, 4] differ from the normalized sizes [n, 3]}}
  %0 = relax.nn.rms_norm %x, %p {axes = [0, 1]}
  relax.return %0
}

// -----

// group_norm
relax.function @main(%x: !relax.tensor<[2, 4, 3], f32>, %p: !relax.tensor<[4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.group_norm: num_groups must be positive, got 0}}
  %0 = relax.nn.group_norm %x, %p, %p {num_groups = 0, channel_axis = 1, axes = [2]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 4, 3], f32>, %p: !relax.tensor<[4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.group_norm: axis 3 is out of range for a tensor of 3 dimensions (expected [-3, 3))}}
  %0 = relax.nn.group_norm %x, %p, %p {num_groups = 2, channel_axis = 3, axes = [2]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 4, 3], f32>, %p: !relax.tensor<[4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.group_norm: axes [2, -1] repeat an axis}}
  %0 = relax.nn.group_norm %x, %p, %p {num_groups = 2, channel_axis = 1, axes = [2, -1]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 4, 3], f32>, %p: !relax.tensor<[4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.group_norm: channel_axis 1 cannot be one of the normalized axes [1, 2]}}
  %0 = relax.nn.group_norm %x, %p, %p {num_groups = 2, channel_axis = -2, axes = [1, 2]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 6, 3], f32>, %p: !relax.tensor<[6], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.group_norm: 6 channels cannot be split into 4 groups}}
  %0 = relax.nn.group_norm %x, %p, %p {num_groups = 4, channel_axis = 1, axes = [2]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 4, 3], f32>, %p: !relax.tensor<[4], f32>, %h: !relax.tensor<[4], f16>) -> !relax.object {
  // expected-error @+1 {{relax.nn.group_norm: gamma has data type f16, expected the data's f32}}
  %0 = relax.nn.group_norm %x, %h, %p {num_groups = 2, channel_axis = 1, axes = [2]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 4, 3], f32>, %p: !relax.tensor<[4], f32>, %m: !relax.tensor<[2, 2], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.group_norm: beta has 2 dimensions, expected 1}}
  %0 = relax.nn.group_norm %x, %p, %m {num_groups = 2, channel_axis = 1, axes = [2]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 4, 3], f32>, %p: !relax.tensor<[4], f32>, %q: !relax.tensor<[3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.group_norm: gamma has 3 elements, expected one per channel (4)}}
  %0 = relax.nn.group_norm %x, %q, %p {num_groups = 2, channel_axis = 1, axes = [2]}
  relax.return %0
}

// -----

// instance_norm
relax.function @main(%x: !relax.tensor<[2, 4, 3], f32>, %p: !relax.tensor<[4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.instance_norm: axis -4 is out of range for a tensor of 3 dimensions (expected [-3, 3))}}
  %0 = relax.nn.instance_norm %x, %p, %p {channel_axis = -4, axes = [1]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 4, 3], f32>, %p: !relax.tensor<[4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.instance_norm: channel_axis 1 cannot be one of the normalized axes [1]}}
  %0 = relax.nn.instance_norm %x, %p, %p {channel_axis = 1, axes = [-2]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 4, 3], i32>, %p: !relax.tensor<[4], i32>, %h: !relax.tensor<[4], i64>) -> !relax.object {
  // expected-error @+1 {{relax.nn.instance_norm: beta has data type i64, expected the data's i32}}
  %0 = relax.nn.instance_norm %x, %p, %h {channel_axis = 1, axes = [2]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 4, 3], f32>, %r: !relax.tensor<f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.instance_norm: gamma has an unknown number of dimensions, expected 1}}
  %0 = relax.nn.instance_norm %x, %r, %r {channel_axis = 1, axes = [2]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, c, 3], f32>, %p: !relax.tensor<[c], f32>, %q: !relax.tensor<[c + 1], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.instance_norm: beta has c + 1 elements, expected one per channel (c)}}
  %0 = relax.nn.instance_norm %x, %p, %q {channel_axis = 1, axes = [2]}
  relax.return %0
}

// -----

// cross_entropy_with_logits
relax.function @main(%p: !relax.tensor<[2, 3], f32>, %l: !relax.tensor<[2, 3], f16>) -> !relax.object {
  // expected-error @+1 {{relax.nn.cross_entropy_with_logits: operands have different data types f32 and f16}}
  %0 = relax.nn.cross_entropy_with_logits %p, %l
  relax.return %0
}

// -----

relax.function @main(%p: !relax.tensor<[2, 3], f32>, %l: !relax.tensor<ndim = 1, f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.cross_entropy_with_logits: predictions have 2 dimensions and labels 1; they must have the same shape}}
  %0 = relax.nn.cross_entropy_with_logits %p, %l
  relax.return %0
}

// -----

relax.function @main(%p: !relax.tensor<[n, 3], f32>, %l: !relax.tensor<[n, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.cross_entropy_with_logits: predictions and labels differ on axis 1 (3 and 4)}}
  %0 = relax.nn.cross_entropy_with_logits %p, %l
  relax.return %0
}

// -----

// nll_loss
relax.function @main(%p: !relax.tensor<[2, 3], f32>, %t: !relax.tensor<[2], i64>) -> !relax.object {
  // expected-error @+1 {{relax.nn.nll_loss: reduction 'max' is not one of 'none', 'mean', 'sum'}}
  %0 = relax.nn.nll_loss %p, %t {reduction = "max"}
  relax.return %0
}

// -----

relax.function @main(%p: !relax.tensor<[2, 3], f32>, %t: !relax.tensor<[2], i64>, %w: !relax.tensor<[3], f16>) -> !relax.object {
  // expected-error @+1 {{relax.nn.nll_loss: operands have different data types f32 and f16}}
  %0 = relax.nn.nll_loss %p, %t, %w
  relax.return %0
}

// -----

relax.function @main(%p: !relax.tensor<[2, 3], f32>, %t: !relax.tensor<[2], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.nll_loss: targets have data type f32, expected an int type}}
  %0 = relax.nn.nll_loss %p, %t
  relax.return %0
}

// -----

relax.function @main(%p: !relax.tensor<[2, 3], f32>, %t: !relax.tensor<[2], bool>) -> !relax.object {
  // expected-error @+1 {{relax.nn.nll_loss: targets have data type bool, expected an int type}}
  %0 = relax.nn.nll_loss %p, %t
  relax.return %0
}

// -----

relax.function @main(%p: !relax.tensor<[], f32>, %t: !relax.tensor<[], i64>) -> !relax.object {
  // expected-error @+1 {{relax.nn.nll_loss: predictions must have at least 1 dimension}}
  %0 = relax.nn.nll_loss %p, %t
  relax.return %0
}

// -----

relax.function @main(%p: !relax.tensor<[2, 3, 4], f32>, %t: !relax.tensor<[2], i64>) -> !relax.object {
  // expected-error @+1 {{relax.nn.nll_loss: predictions of 3 dimensions need targets of 2, got 1}}
  %0 = relax.nn.nll_loss %p, %t
  relax.return %0
}

// -----

relax.function @main(%p: !relax.tensor<[2, 3], f32>, %t: !relax.tensor<[2], i64>, %w: !relax.tensor<[3, 1], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.nll_loss: weights have 2 dimensions, expected 1}}
  %0 = relax.nn.nll_loss %p, %t, %w
  relax.return %0
}

// -----

relax.function @main(%p: !relax.tensor<[2, 3], f32>, %t: !relax.tensor<[], i64>) -> !relax.object {
  // expected-error @+1 {{relax.nn.nll_loss: predictions [N, C, ...] need targets [N, ...], got a scalar}}
  %0 = relax.nn.nll_loss %p, %t
  relax.return %0
}

// -----

relax.function @main(%p: !relax.tensor<[3], f32>, %t: !relax.tensor<[1], i64>) -> !relax.object {
  // expected-error @+1 {{relax.nn.nll_loss: predictions [C] need scalar targets, got 1 dimensions}}
  %0 = relax.nn.nll_loss %p, %t
  relax.return %0
}

// -----

relax.function @main(%p: !relax.tensor<[2, 3], f32>, %t: !relax.tensor<[5], i64>) -> !relax.object {
  // expected-error @+1 {{relax.nn.nll_loss: targets have 5 elements on axis 0, expected 2 from the predictions}}
  %0 = relax.nn.nll_loss %p, %t
  relax.return %0
}

// -----

relax.function @main(%p: !relax.tensor<[n, 3, d], f32>, %t: !relax.tensor<[n, d + 1], i64>) -> !relax.object {
  // expected-error @+1 {{relax.nn.nll_loss: targets have d + 1 elements on axis 1, expected d from the predictions}}
  %0 = relax.nn.nll_loss %p, %t
  relax.return %0
}

// -----

relax.function @main(%p: !relax.tensor<[n, 3], f32>, %t: !relax.tensor<[n], i64>, %w: !relax.tensor<[4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.nll_loss: weights have 4 elements, expected one per class (3)}}
  %0 = relax.nn.nll_loss %p, %t, %w
  relax.return %0
}

// -----

// attention
relax.function @main(%q: !relax.tensor<[2, 3, 4], f32>, %k: !relax.tensor<[2, 3, 4, 8], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.attention: the query has 3 dimensions, expected 4 ([batch, sequence, heads, head_dim])}}
  %0 = relax.nn.attention %q, %k, %k
  relax.return %0
}

// -----

relax.function @main(%q: !relax.tensor<[2, 3, 4, 8], f32>, %k: !relax.tensor<f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.attention: the key has an unknown number of dimensions, expected 4 ([batch, sequence, heads, head_dim])}}
  %0 = relax.nn.attention %q, %k, %q
  relax.return %0
}

// -----

relax.function @main(%q: !relax.tensor<[2, 3, 4, 8], f32>, %b: !relax.tensor<[4, 3, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.attention_bias: the bias has 3 dimensions, expected 4 ([batch, sequence, heads, head_dim])}}
  %0 = relax.nn.attention_bias %q, %q, %q, %b
  relax.return %0
}

// -----

relax.function @main(%q: !relax.tensor<[2, 3, 4, 8], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.attention: causal_mask 'Upper' is not one of 'TopLeft', 'BottomRight'}}
  %0 = relax.nn.attention %q, %q, %q {causal_mask = "Upper"}
  relax.return %0
}

// -----

relax.function @main(%q: !relax.tensor<[2, s, 4, 8], f32>, %k: !relax.tensor<[3, t, 4, 8], f32>, %v: !relax.tensor<[2, t, 4, 8], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.attention: the key has batch size 3, expected 2}}
  %0 = relax.nn.attention %q, %k, %v
  relax.return %0
}

// -----

relax.function @main(%q: !relax.tensor<[b, s, 4, 8], f32>, %k: !relax.tensor<[b, t, 4, 8], f32>, %v: !relax.tensor<[b + 1, t, 4, 8], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.attention: the value has batch size b + 1, expected b}}
  %0 = relax.nn.attention %q, %k, %v
  relax.return %0
}

// -----

relax.function @main(%q: !relax.tensor<[2, s, 4, 8], f32>, %k: !relax.tensor<[2, 5, 4, 8], f32>, %v: !relax.tensor<[2, 6, 4, 8], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.attention: the value has sequence length 6, expected 5}}
  %0 = relax.nn.attention %q, %k, %v
  relax.return %0
}

// -----

relax.function @main(%q: !relax.tensor<[2, s, 4, 8], f32>, %k: !relax.tensor<[2, t, 4, 16], f32>, %v: !relax.tensor<[2, t, 4, 8], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.attention: the key has head dimension 16, expected 8}}
  %0 = relax.nn.attention %q, %k, %v
  relax.return %0
}

// -----

relax.function @main(%q: !relax.tensor<[2, s, 4, 8], f32>, %k: !relax.tensor<[2, t, 3, 8], f32>, %v: !relax.tensor<[2, t, 4, 8], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.attention: the query's 4 heads are not a multiple of the key's 3}}
  %0 = relax.nn.attention %q, %k, %v
  relax.return %0
}

// -----

relax.function @main(%q: !relax.tensor<[2, s, 4, 8], f32>, %k: !relax.tensor<[2, t, 2, 8], f32>, %v: !relax.tensor<[2, t, 8, 8], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.attention: the query's 4 heads are not a multiple of the value's 8}}
  %0 = relax.nn.attention %q, %k, %v
  relax.return %0
}

// -----

relax.function @main(%q: !relax.tensor<[2, s, 4, 8], f32>, %k: !relax.tensor<[2, t, 4, 8], f32>, %b: !relax.tensor<[3, 4, s, t], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.attention_bias: the bias has batch size 3, expected 2}}
  %0 = relax.nn.attention_bias %q, %k, %k, %b
  relax.return %0
}

// -----

relax.function @main(%q: !relax.tensor<[2, s, 4, 8], f32>, %k: !relax.tensor<[2, t, 4, 8], f32>, %b: !relax.tensor<[1, 2, s, t], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.attention_bias: the bias has number of heads 2, expected 4}}
  %0 = relax.nn.attention_bias %q, %k, %k, %b
  relax.return %0
}

// -----

relax.function @main(%q: !relax.tensor<[2, 5, 4, 8], f32>, %k: !relax.tensor<[2, t, 4, 8], f32>, %b: !relax.tensor<[1, 1, 4, t], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.attention_bias: the bias has query sequence length 4, expected 5}}
  %0 = relax.nn.attention_bias %q, %k, %k, %b
  relax.return %0
}

// -----

// The key sequence length of the bias does not broadcast.
relax.function @main(%q: !relax.tensor<[2, s, 4, 8], f32>, %k: !relax.tensor<[2, 6, 4, 8], f32>, %b: !relax.tensor<[1, 1, 1, 1], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.attention_bias: the bias has key sequence length 1, expected 6}}
  %0 = relax.nn.attention_bias %q, %k, %k, %b
  relax.return %0
}

// -----

// A declared result type must not contradict the inferred one.
relax.function @main(%x: !relax.tensor<[n, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.nn.dropout: result type tensor<[n, 3], f32> contradicts the inferred type tuple<tensor<[n, 3], f32>, tensor<[n, 3], f32>>; use relax.match_cast to check it at run time}}
  %0 = relax.nn.dropout %x : !relax.tensor<[n, 3], f32>
  relax.return %0
}
