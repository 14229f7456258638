// RUN: relax-opt %s --split-input-file | filecheck %s
// RUN: relax-opt %s --split-input-file %generic-roundtrip | filecheck %s

// StructInfo inference of the neural-network operators (relax.nn.*): static,
// symbolic, rank-only and unknown inputs, negative axes, attributes.

// Activations keep the data's StructInfo; relu accepts any data type.
// CHECK-LABEL: @activations
relax.function @activations(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<ndim = 3, f16>, %c: !relax.tensor, %d: !relax.tensor<[2, m]>, %i: !relax.tensor<[n], i32>) -> !relax.object {
  // CHECK: relax.nn.relu %a : !relax.tensor<[n, 4], f32>
  %0 = relax.nn.relu %a
  // CHECK: relax.nn.relu %i : !relax.tensor<[n], i32>
  %1 = relax.nn.relu %i
  // CHECK: relax.nn.gelu %b : !relax.tensor<ndim = 3, f16>
  %2 = relax.nn.gelu %b
  // CHECK: relax.nn.gelu_tanh %c : !relax.tensor
  %3 = relax.nn.gelu_tanh %c
  // CHECK: relax.nn.selu %d : !relax.tensor<[2, m]>
  %4 = relax.nn.selu %d
  // CHECK: relax.nn.silu %a : !relax.tensor<[n, 4], f32>
  %5 = relax.nn.silu %a
  // CHECK: relax.nn.leakyrelu %a : !relax.tensor<[n, 4], f32>
  %6 = relax.nn.leakyrelu %a
  // CHECK: relax.nn.leakyrelu %b {alpha = 0.2} : !relax.tensor<ndim = 3, f16>
  %7 = relax.nn.leakyrelu %b {alpha = 0.2}
  // CHECK: relax.nn.softplus %a {beta = 2.0, threshold = 10.0} : !relax.tensor<[n, 4], f32>
  %8 = relax.nn.softplus %a {beta = 2.0, threshold = 10.0}
  relax.return %0
}

// -----

// softmax, log_softmax and prelu check their axis (negative counts from the
// end); with an unknown rank TVM checks neither axis nor data type.
// CHECK-LABEL: @along_axis
relax.function @along_axis(%a: !relax.tensor<[n, 4, 5], f32>, %b: !relax.tensor<ndim = 2>, %c: !relax.tensor<i32>, %alpha: !relax.tensor<[4], f32>, %w: !relax.tensor<[1], i64>) -> !relax.object {
  // CHECK: relax.nn.softmax %a : !relax.tensor<[n, 4, 5], f32>
  %0 = relax.nn.softmax %a
  // CHECK: relax.nn.softmax %a {axis = -3} : !relax.tensor<[n, 4, 5], f32>
  %1 = relax.nn.softmax %a {axis = -3}
  // CHECK: relax.nn.log_softmax %b {axis = 1} : !relax.tensor<ndim = 2>
  %2 = relax.nn.log_softmax %b {axis = 1}
  // CHECK: relax.nn.softmax %c {axis = 7} : !relax.tensor<i32>
  %3 = relax.nn.softmax %c {axis = 7}
  // CHECK: relax.nn.prelu %a, %alpha : !relax.tensor<[n, 4, 5], f32>
  %4 = relax.nn.prelu %a, %alpha
  // alpha's shape and data type are not checked
  // CHECK: relax.nn.prelu %a, %w {axis = -1} : !relax.tensor<[n, 4, 5], f32>
  %5 = relax.nn.prelu %a, %w {axis = -1}
  // CHECK: relax.nn.prelu %c, %alpha {axis = 9} : !relax.tensor<i32>
  %6 = relax.nn.prelu %c, %alpha {axis = 9}
  relax.return %0
}

// -----

// CHECK-LABEL: @pad
relax.function @pad(%a: !relax.tensor<[n, 3], f32>, %b: !relax.tensor<ndim = 2, i8>, %c: !relax.tensor<f16>, %d: !relax.tensor<[n, m, 4]>) -> !relax.object {
  // CHECK: relax.nn.pad %a {pad_width = [1, 2, 0, 0]} : !relax.tensor<[n + 3, 3], f32>
  %0 = relax.nn.pad %a {pad_width = [1, 2, 0, 0]}
  // negative widths crop
  // CHECK: relax.nn.pad %a {pad_width = [0, -1, -1, 2], pad_mode = "reflect"} : !relax.tensor<[n - 1, 4], f32>
  %1 = relax.nn.pad %a {pad_width = [0, -1, -1, 2], pad_mode = "reflect"}
  // CHECK: relax.nn.pad %b {pad_width = [1, 1, 2, 2], pad_value = 3.5} : !relax.tensor<ndim = 2, i8>
  %2 = relax.nn.pad %b {pad_width = [1, 1, 2, 2], pad_value = 3.5}
  // an unknown rank takes the rank of pad_width
  // CHECK: relax.nn.pad %c {pad_width = [1, 1, 2, 2, 0, 1], pad_mode = "circular"} : !relax.tensor<ndim = 3, f16>
  %3 = relax.nn.pad %c {pad_width = [1, 1, 2, 2, 0, 1], pad_mode = "circular"}
  // CHECK: relax.nn.pad %d {pad_width = [0, 0, 2, 2, 1, 0], pad_mode = "replicate"} : !relax.tensor<[n, m + 4, 5]>
  %4 = relax.nn.pad %d {pad_width = [0, 0, 2, 2, 1, 0], pad_mode = "replicate"}
  // non-finite values read back as they print
  // CHECK: relax.nn.pad %a {pad_width = [0, 0, 1, 1], pad_value = -inf} : !relax.tensor<[n, 5], f32>
  %5 = relax.nn.pad %a {pad_width = [0, 0, 1, 1], pad_value = -inf}
  // CHECK: relax.nn.pad %a {pad_width = [0, 0, 1, 1], pad_value = nan} : !relax.tensor<[n, 5], f32>
  %6 = relax.nn.pad %a {pad_width = [0, 0, 1, 1], pad_value = nan}
  relax.return %0
}

// -----

// CHECK-LABEL: @pixel_shuffle
relax.function @pixel_shuffle(%a: !relax.tensor<[n, 8, h, 5], f32>, %b: !relax.tensor<[18, 2, 3], f16>, %c: !relax.tensor<ndim = 4, f32>, %d: !relax.tensor<f32>, %e: !relax.tensor<[2, c, 3, 3]>) -> !relax.object {
  // CHECK: relax.nn.pixel_shuffle %a {upscale_factor = 2} : !relax.tensor<[n, 2, 2 * h, 10], f32>
  %0 = relax.nn.pixel_shuffle %a {upscale_factor = 2}
  // CHECK: relax.nn.pixel_shuffle %b {upscale_factor = 3} : !relax.tensor<[2, 6, 9], f16>
  %1 = relax.nn.pixel_shuffle %b {upscale_factor = 3}
  // CHECK: relax.nn.pixel_shuffle %c {upscale_factor = 2} : !relax.tensor<ndim = 4, f32>
  %2 = relax.nn.pixel_shuffle %c {upscale_factor = 2}
  // CHECK: relax.nn.pixel_shuffle %d {upscale_factor = 2} : !relax.tensor<f32>
  %3 = relax.nn.pixel_shuffle %d {upscale_factor = 2}
  // symbolic channels are divided (the remainder is checked at run time)
  // CHECK: relax.nn.pixel_shuffle %e {upscale_factor = 2} : !relax.tensor<[2, c floordiv 4, 6, 6]>
  %4 = relax.nn.pixel_shuffle %e {upscale_factor = 2}
  relax.return %0
}

// -----

// CHECK-LABEL: @batch_flatten
relax.function @batch_flatten(%a: !relax.tensor<[n, 3, m, 2], f32>, %b: !relax.tensor<[n, 3], i32>, %c: !relax.tensor<ndim = 3, f32>, %d: !relax.tensor<f16>, %e: !relax.tensor<[n, 3, 4]>) -> !relax.object {
  // CHECK: relax.nn.batch_flatten %a : !relax.tensor<[n, 6 * m], f32>
  %0 = relax.nn.batch_flatten %a
  // CHECK: relax.nn.batch_flatten %b : !relax.tensor<[n, 3], i32>
  %1 = relax.nn.batch_flatten %b
  // CHECK: relax.nn.batch_flatten %c : !relax.tensor<ndim = 2, f32>
  %2 = relax.nn.batch_flatten %c
  // CHECK: relax.nn.batch_flatten %d : !relax.tensor<ndim = 2, f16>
  %3 = relax.nn.batch_flatten %d
  // CHECK: relax.nn.batch_flatten %e : !relax.tensor<[n, 12]>
  %4 = relax.nn.batch_flatten %e
  relax.return %0
}

// -----

// CHECK-LABEL: @dropout
relax.function @dropout(%a: !relax.tensor<[n, 3], f32>, %b: !relax.tensor<i32>) -> !relax.object {
  // CHECK: relax.nn.dropout %a : !relax.tuple<tensor<[n, 3], f32>, tensor<[n, 3], f32>>
  %0 = relax.nn.dropout %a
  // CHECK: relax.nn.dropout %b {rate = 0.1} : !relax.tuple<tensor<i32>, tensor<i32>>
  %1 = relax.nn.dropout %b {rate = 0.1}
  relax.return %0
}

// -----

// batch_norm returns (data, moving_mean, moving_var) when every size is
// provably the channel count, rank-only tensors otherwise.
// CHECK-LABEL: @batch_norm
relax.function @batch_norm(%x: !relax.tensor<[n, 4, h], f32>, %p: !relax.tensor<[4], f32>, %q: !relax.tensor<[c], f32>, %r: !relax.tensor<ndim = 1, f32>, %y: !relax.tensor<[n, c, 2], f32>, %u: !relax.tensor<f32>, %z: !relax.tensor<[n, c], void>, %v: !relax.tensor<[c], void>) -> !relax.object {
  // CHECK: relax.nn.batch_norm %x, %p, %p, %p, %p {axis = 1} : !relax.tuple<tensor<[n, 4, h], f32>, tensor<[4], f32>, tensor<[4], f32>>
  %0 = relax.nn.batch_norm %x, %p, %p, %p, %p {axis = 1}
  // CHECK: relax.nn.batch_norm %x, %p, %p, %r, %r {axis = -2, epsilon = 0.001, center = false, scale = false, momentum = 0.5, training = false} : !relax.tuple<tensor<[n, 4, h], f32>, tensor<ndim = 1, f32>, tensor<ndim = 1, f32>>
  %1 = relax.nn.batch_norm %x, %p, %p, %r, %r {axis = -2, epsilon = 0.001, center = false, scale = false, momentum = 0.5, training = false}
  // CHECK: relax.nn.batch_norm %y, %q, %q, %q, %q {axis = 1} : !relax.tuple<tensor<[n, c, 2], f32>, tensor<[c], f32>, tensor<[c], f32>>
  %2 = relax.nn.batch_norm %y, %q, %q, %q, %q {axis = 1}
  // c against 4: not provable either way, only ranks are kept
  // CHECK: relax.nn.batch_norm %y, %p, %p, %p, %p {axis = 1} : !relax.tuple<tensor<ndim = 3, f32>, tensor<ndim = 1, f32>, tensor<ndim = 1, f32>>
  %3 = relax.nn.batch_norm %y, %p, %p, %p, %p {axis = 1}
  // CHECK: relax.nn.batch_norm %u, %p, %p, %r, %p {axis = 1} : !relax.tuple<tensor<f32>, tensor<ndim = 1, f32>, tensor<[4], f32>>
  %4 = relax.nn.batch_norm %u, %p, %p, %r, %p {axis = 1}
  // CHECK: relax.nn.batch_norm %z, %v, %v, %v, %v {axis = 1} : !relax.tuple<tensor<[n, c]>, tensor<[c]>, tensor<[c]>>
  %5 = relax.nn.batch_norm %z, %v, %v, %v, %v {axis = 1}
  relax.return %0
}

// -----

// CHECK-LABEL: @layer_and_rms_norm
relax.function @layer_and_rms_norm(%x: !relax.tensor<[n, s, 8], f16>, %g: !relax.tensor<[8], f16>, %g2: !relax.tensor<[s, 8], f16>, %k: !relax.tensor<[k], f16>, %u: !relax.tensor<f16>, %e: !relax.tensor<[], f16>) -> !relax.object {
  // CHECK: relax.nn.layer_norm %x, %g, %g {axes = [-1]} : !relax.tensor<[n, s, 8], f16>
  %0 = relax.nn.layer_norm %x, %g, %g {axes = [-1]}
  // CHECK: relax.nn.layer_norm %x, %g2, %g2 {axes = [1, 2], epsilon = 1.0e-06, center = false, scale = false} : !relax.tensor<[n, s, 8], f16>
  %1 = relax.nn.layer_norm %x, %g2, %g2 {axes = [1, 2], epsilon = 1.0e-06, center = false, scale = false}
  // s against k: only the rank is kept
  // CHECK: relax.nn.layer_norm %x, %k, %k {axes = [1]} : !relax.tensor<ndim = 3, f16>
  %2 = relax.nn.layer_norm %x, %k, %k {axes = [1]}
  // CHECK: relax.nn.layer_norm %u, %g, %g {axes = [0]} : !relax.tensor<f16>
  %3 = relax.nn.layer_norm %u, %g, %g {axes = [0]}
  // no axes: 0-d parameters
  // CHECK: relax.nn.layer_norm %x, %e, %e {axes = []} : !relax.tensor<[n, s, 8], f16>
  %4 = relax.nn.layer_norm %x, %e, %e {axes = []}
  // CHECK: relax.nn.rms_norm %x, %g : !relax.tensor<[n, s, 8], f16>
  %5 = relax.nn.rms_norm %x, %g
  // CHECK: relax.nn.rms_norm %x, %g2 {axes = [-2, -1], epsilon = 0.01} : !relax.tensor<[n, s, 8], f16>
  %6 = relax.nn.rms_norm %x, %g2 {axes = [-2, -1], epsilon = 0.01}
  // CHECK: relax.nn.rms_norm %x, %k : !relax.tensor<ndim = 3, f16>
  %7 = relax.nn.rms_norm %x, %k
  relax.return %0
}

// -----

// group_norm and instance_norm keep the data's StructInfo; instance_norm
// accepts any data type.
// CHECK-LABEL: @channel_norms
relax.function @channel_norms(%x: !relax.tensor<[n, 6, h, w], f32>, %g: !relax.tensor<[6], f32>, %c: !relax.tensor<[c], f32>, %y: !relax.tensor<[n, c, 4], f32>, %u: !relax.tensor<f32>, %r: !relax.tensor<ndim = 1, f32>, %i: !relax.tensor<[2, 3, 5], i32>, %j: !relax.tensor<[3], i32>) -> !relax.object {
  // CHECK: relax.nn.group_norm %x, %g, %g {num_groups = 3, channel_axis = 1, axes = [2, 3]} : !relax.tensor<[n, 6, h, w], f32>
  %0 = relax.nn.group_norm %x, %g, %g {num_groups = 3, channel_axis = 1, axes = [2, 3]}
  // CHECK: relax.nn.group_norm %y, %c, %r {num_groups = 4, channel_axis = -2, axes = [-1], epsilon = 0.001, center = false, scale = false} : !relax.tensor<[n, c, 4], f32>
  %1 = relax.nn.group_norm %y, %c, %r {num_groups = 4, channel_axis = -2, axes = [-1], epsilon = 0.001, center = false, scale = false}
  // CHECK: relax.nn.group_norm %u, %g, %g {num_groups = 5, channel_axis = 9, axes = [8]} : !relax.tensor<f32>
  %2 = relax.nn.group_norm %u, %g, %g {num_groups = 5, channel_axis = 9, axes = [8]}
  // CHECK: relax.nn.instance_norm %x, %g, %g {channel_axis = 1, axes = [2, 3]} : !relax.tensor<[n, 6, h, w], f32>
  %3 = relax.nn.instance_norm %x, %g, %g {channel_axis = 1, axes = [2, 3]}
  // CHECK: relax.nn.instance_norm %y, %c, %c {channel_axis = 1, axes = [-1], epsilon = 0.1} : !relax.tensor<[n, c, 4], f32>
  %4 = relax.nn.instance_norm %y, %c, %c {channel_axis = 1, axes = [-1], epsilon = 0.1}
  // CHECK: relax.nn.instance_norm %i, %j, %j {channel_axis = 1, axes = [2]} : !relax.tensor<[2, 3, 5], i32>
  %5 = relax.nn.instance_norm %i, %j, %j {channel_axis = 1, axes = [2]}
  relax.return %0
}

// -----

// CHECK-LABEL: @cross_entropy
relax.function @cross_entropy(%p: !relax.tensor<[n, 4], f32>, %l: !relax.tensor<[n, 4], f32>, %m: !relax.tensor<[k, 4], f32>, %b: !relax.tensor<[n, 4], bool>, %u: !relax.tensor<f16>, %v: !relax.tensor<[3]>, %i: !relax.tensor<[3], i32>) -> !relax.object {
  // CHECK: relax.nn.cross_entropy_with_logits %p, %l : !relax.tensor<[], f32>
  %0 = relax.nn.cross_entropy_with_logits %p, %l
  // n against k cannot be decided: left to run time
  // CHECK: relax.nn.cross_entropy_with_logits %p, %m : !relax.tensor<[], f32>
  %1 = relax.nn.cross_entropy_with_logits %p, %m
  // bool mixes with any data type
  // CHECK: relax.nn.cross_entropy_with_logits %p, %b : !relax.tensor<[], f32>
  %2 = relax.nn.cross_entropy_with_logits %p, %b
  // CHECK: relax.nn.cross_entropy_with_logits %u, %u : !relax.tensor<[], f16>
  %3 = relax.nn.cross_entropy_with_logits %u, %u
  // CHECK: relax.nn.cross_entropy_with_logits %v, %i : !relax.tensor<[]>
  %4 = relax.nn.cross_entropy_with_logits %v, %i
  relax.return %0
}

// -----

// CHECK-LABEL: @nll_loss
relax.function @nll_loss(%p: !relax.tensor<[n, 5], f32>, %t: !relax.tensor<[n], i64>, %w: !relax.tensor<[5], f32>, %p3: !relax.tensor<[n, 5, d], f16>, %t3: !relax.tensor<[n, d], ui8>, %c: !relax.tensor<[5], f32>, %s: !relax.tensor<[], i32>, %q: !relax.tensor<ndim = 3, f32>, %r: !relax.tensor<ndim = 2, i64>, %u: !relax.tensor<f32>, %v: !relax.tensor<[n]>) -> !relax.object {
  // CHECK: relax.nn.nll_loss %p, %t : !relax.tensor<[], f32>
  %0 = relax.nn.nll_loss %p, %t
  // CHECK: relax.nn.nll_loss %p, %t, %w {reduction = "none"} : !relax.tensor<[n], f32>
  %1 = relax.nn.nll_loss %p, %t, %w {reduction = "none"}
  // CHECK: relax.nn.nll_loss %p3, %t3 {reduction = "none", ignore_index = 2} : !relax.tensor<[n, d], f16>
  %2 = relax.nn.nll_loss %p3, %t3 {reduction = "none", ignore_index = 2}
  // CHECK: relax.nn.nll_loss %p3, %t3 {reduction = "sum"} : !relax.tensor<[], f16>
  %3 = relax.nn.nll_loss %p3, %t3 {reduction = "sum"}
  // predictions [C] take a scalar target
  // CHECK: relax.nn.nll_loss %c, %s, %w {reduction = "none"} : !relax.tensor<[], f32>
  %4 = relax.nn.nll_loss %c, %s, %w {reduction = "none"}
  // CHECK: relax.nn.nll_loss %q, %r {reduction = "none"} : !relax.tensor<ndim = 2, f32>
  %5 = relax.nn.nll_loss %q, %r {reduction = "none"}
  // CHECK: relax.nn.nll_loss %u, %t {reduction = "none"} : !relax.tensor<f32>
  %6 = relax.nn.nll_loss %u, %t {reduction = "none"}
  // the targets' data type may be unknown; the weights' joins the predictions'
  // CHECK: relax.nn.nll_loss %p, %v, %u : !relax.tensor<[], f32>
  %7 = relax.nn.nll_loss %p, %v, %u
  relax.return %0
}

// -----

// attention takes [batch, seq, heads, head_dim] tensors; query heads may be a
// multiple of the key/value heads (grouped-query attention).
// CHECK-LABEL: @attention
relax.function @attention(%q: !relax.tensor<[b, s, 8, 64], f16>, %k: !relax.tensor<[b, t, 2, 64], f16>, %v: !relax.tensor<[b, t, 2, 32], f16>, %bias: !relax.tensor<[1, 8, 1, t], f16>, %b2: !relax.tensor<[b, 1, s, t], f16>, %x: !relax.tensor<ndim = 4, f32>, %y: !relax.tensor<ndim = 4, f16>) -> !relax.object {
  // CHECK: relax.nn.attention %q, %k, %v : !relax.tensor<[b, s, 8, 32], f16>
  %0 = relax.nn.attention %q, %k, %v
  // CHECK: relax.nn.attention %q, %k, %v {scale = 0.125, causal_mask = "TopLeft"} : !relax.tensor<[b, s, 8, 32], f16>
  %1 = relax.nn.attention %q, %k, %v {scale = 0.125, causal_mask = "TopLeft"}
  // CHECK: relax.nn.attention %q, %k, %v {causal_mask = "BottomRight", window_size = 4} : !relax.tensor<[b, s, 8, 32], f16>
  %2 = relax.nn.attention %q, %k, %v {causal_mask = "BottomRight", window_size = 4}
  // CHECK: relax.nn.attention_bias %q, %k, %v, %bias : !relax.tensor<[b, s, 8, 32], f16>
  %3 = relax.nn.attention_bias %q, %k, %v, %bias
  // CHECK: relax.nn.attention_bias %q, %k, %v, %b2 {causal_mask = "BottomRight"} : !relax.tensor<[b, s, 8, 32], f16>
  %4 = relax.nn.attention_bias %q, %k, %v, %b2 {causal_mask = "BottomRight"}
  // shapes known only by rank: the result's rank is 4, its data type the query's
  // CHECK: relax.nn.attention %x, %k, %v : !relax.tensor<ndim = 4, f32>
  %5 = relax.nn.attention %x, %k, %v
  // CHECK: relax.nn.attention_bias %q, %k, %v, %y : !relax.tensor<[b, s, 8, 32], f16>
  %6 = relax.nn.attention_bias %q, %k, %v, %y
  relax.return %0
}
