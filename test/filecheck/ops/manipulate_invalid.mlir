// RUN: %verify-diagnostics %s
// Every error of the shape manipulation operators.

relax.function @main(%x: !relax.shape<[2]>, %s: !relax.shape<[2]>) -> !relax.object {
  // expected-error @+1 {{relax.reshape: the x operand has type shape<[2]>, expected a tensor}}
  %0 = relax.reshape %x, %s
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 3], f32>, %s: !relax.tensor<[6], i64>) -> !relax.object {
  // expected-error @+1 {{relax.reshape: the shape operand has type tensor<[6], i64>, expected a shape}}
  %0 = relax.reshape %x, %s
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 3, 4], f32>) -> !relax.object {
  %s = relax.shape [5, -1]
  // expected-error @+1 {{relax.reshape: cannot reshape [2, 3, 4] (24 elements) to [5, 4] (20 elements)}}
  %0 = relax.reshape %x, %s
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  %s = relax.shape [n + 1, 4]
  // expected-error @+1 {{relax.reshape: cannot reshape [n, 4] (4 * n elements) to [n + 1, 4] (4 * n + 4 elements)}}
  %0 = relax.reshape %x, %s
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  %s = relax.shape [3, 5]
  // expected-error @+1 {{relax.reshape: cannot reshape [n, 4] (4 * n elements) to [3, 5] (15 elements)}}
  %0 = relax.reshape %x, %s
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 3], f32>) -> !relax.object {
  %s = relax.shape [-1, -1]
  // expected-error @+1 {{relax.reshape: target shape [-1, -1] may hold positive lengths, 0 (copy) and a single -1 (inferred)}}
  %0 = relax.reshape %x, %s
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 3], f32>) -> !relax.object {
  %s = relax.shape [2, -3]
  // expected-error @+1 {{relax.reshape: target shape [2, -3] may hold positive lengths, 0 (copy) and a single -1 (inferred)}}
  %0 = relax.reshape %x, %s
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<ndim = 2, f32>) -> !relax.object {
  %s = relax.shape [2, -1]
  // expected-error @+1 {{relax.reshape: a target shape with 0 or -1 needs the shape of x to be known}}
  %0 = relax.reshape %x, %s
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[6], f32>) -> !relax.object {
  %s = relax.shape [3, 0]
  // expected-error @+1 {{relax.reshape: target dimension 1 is 0 (the length of x there) but x has rank 1}}
  %0 = relax.reshape %x, %s
  relax.return %0
}

// -----

relax.function @main(%x: !relax.object) -> !relax.object {
  // expected-error @+1 {{relax.flatten: the x operand has type object, expected a tensor}}
  %0 = relax.flatten %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.expand_dims: axis 3 is out of range for a tensor of 3 dimensions (expected [-3, 3))}}
  %0 = relax.expand_dims %x {axis = [3]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.expand_dims: axes [0, -4] repeat an axis}}
  %0 = relax.expand_dims %x {axis = [0, -4]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[1, 1], f32>) -> !relax.object {
  // expected-error @+1 {{relax.squeeze: axis 2 is out of range for a tensor of 2 dimensions (expected [-2, 2))}}
  %0 = relax.squeeze %x {axis = [2]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[1, 1], f32>) -> !relax.object {
  // expected-error @+1 {{relax.squeeze: axes [0, -2] repeat an axis}}
  %0 = relax.squeeze %x {axis = [0, -2]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, m, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.permute_dims: 2 axes given for a tensor of 3 dimensions}}
  %0 = relax.permute_dims %x {axes = [0, 1]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, m, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.permute_dims: axes [0, 1, 1] repeat an axis}}
  %0 = relax.permute_dims %x {axes = [0, 1, 1]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<f32>) -> !relax.object {
  // an unknown rank is the number of axes
  // expected-error @+1 {{relax.permute_dims: axis 2 is out of range for a tensor of 2 dimensions (expected [-2, 2))}}
  %0 = relax.permute_dims %x {axes = [0, 2]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.flip: axis 2 is out of range for a tensor of 2 dimensions (expected [-2, 2))}}
  %0 = relax.flip %x {axis = 2}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.concat: the tensors operand has type tensor<[2, 3], f32>, expected a tuple of tensors}}
  %0 = relax.concat %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tuple<tensor<[2], f32>, shape<[2]>>) -> !relax.object {
  // expected-error @+1 {{relax.concat: the tensors operand has type tuple<tensor<[2], f32>, shape<[2]>>, expected a tuple of tensors}}
  %0 = relax.concat %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tuple<>) -> !relax.object {
  // expected-error @+1 {{relax.concat: the tuple of tensors is empty}}
  %0 = relax.concat %x
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[2, 3], f32>, %b: !relax.tensor<[2, 3], i32>) -> !relax.object {
  %t = relax.tuple(%a, %b)
  // expected-error @+1 {{relax.concat: tensors have different data types f32 and i32}}
  %0 = relax.concat %t
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[2, 3], f32>, %b: !relax.tensor<[2], f32>) -> !relax.object {
  %t = relax.tuple(%a, %b)
  // expected-error @+1 {{relax.concat: tensors have different ranks 2 and 1}}
  %0 = relax.concat %t
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[2, 3], f32>, %b: !relax.tensor<[3, 4], f32>) -> !relax.object {
  %t = relax.tuple(%a, %b)
  // expected-error @+1 {{relax.concat: tensors differ in dimension 0 (2 and 3); only axis 1 may differ}}
  %0 = relax.concat %t {axis = 1}
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[n, 3], f32>, %b: !relax.tensor<[n + 1, 3], f32>) -> !relax.object {
  %t = relax.tuple(%a, %b)
  // expected-error @+1 {{relax.concat: tensors differ in dimension 0 (n and n + 1); only axis 1 may differ}}
  %0 = relax.concat %t {axis = -1}
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[2, 3], f32>) -> !relax.object {
  %t = relax.tuple(%a, %a)
  // expected-error @+1 {{relax.concat: axis 2 is out of range for a tensor of 2 dimensions (expected [-2, 2))}}
  %0 = relax.concat %t {axis = 2}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tuple<>) -> !relax.object {
  // expected-error @+1 {{relax.stack: the tuple of tensors is empty}}
  %0 = relax.stack %x
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[2, 3], f32>, %b: !relax.tensor<[2, 4], f32>) -> !relax.object {
  %t = relax.tuple(%a, %b)
  // expected-error @+1 {{relax.stack: tensors differ in dimension 1 (3 and 4); tensors must have the same shape}}
  %0 = relax.stack %t {axis = 1}
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[2, 3], f32>, %b: !relax.tensor<[2], f32>) -> !relax.object {
  %t = relax.tuple(%a, %b)
  // expected-error @+1 {{relax.stack: tensors have different ranks 2 and 1}}
  %0 = relax.stack %t
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[2, 3], f32>, %b: !relax.tensor<[2, 3], f16>) -> !relax.object {
  %t = relax.tuple(%a, %b)
  // expected-error @+1 {{relax.stack: tensors have different data types f32 and f16}}
  %0 = relax.stack %t
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[2, 3], f32>) -> !relax.object {
  %t = relax.tuple(%a, %a)
  // expected-error @+1 {{relax.stack: axis 3 is out of range for a tensor of 3 dimensions (expected [-3, 3))}}
  %0 = relax.stack %t {axis = 3}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.split: the number of sections must be positive, got 0}}
  %0 = relax.split %x {indices_or_sections = 0, axis = 1}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 3], f32>) -> !relax.object {
  // the last section would have length -1
  // expected-error @+1 {{relax.split: a dimension of length 3 cannot be split into 5 sections of 1}}
  %0 = relax.split %x {indices_or_sections = 5, axis = 1}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.split: axis 2 is out of range for a tensor of 2 dimensions (expected [-2, 2))}}
  %0 = relax.split %x {indices_or_sections = 2, axis = 2}
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[2], f32>) -> !relax.object {
  %t = relax.tuple(%a, %a)
  // TVM would silently treat it as ij
  // expected-error @+1 {{relax.meshgrid: indexing 'yx' is not one of 'ij', 'xy'}}
  %0 = relax.meshgrid %t {indexing = "yx"}
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[2], f32>, %b: !relax.tensor<[2, 3], f32>) -> !relax.object {
  %t = relax.tuple(%a, %b)
  // expected-error @+1 {{relax.meshgrid: tensor 1 has type tensor<[2, 3], f32>, expected 1-D}}
  %0 = relax.meshgrid %t
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[2], f32>, %b: !relax.tensor<f32>) -> !relax.object {
  %t = relax.tuple(%a, %b)
  // expected-error @+1 {{relax.meshgrid: tensor 1 has type tensor<f32>, expected 1-D}}
  %0 = relax.meshgrid %t
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[2], f32>, %b: !relax.tensor<[3], i32>) -> !relax.object {
  %t = relax.tuple(%a, %b)
  // expected-error @+1 {{relax.meshgrid: tensors have different data types f32 and i32}}
  %0 = relax.meshgrid %t
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tuple<>) -> !relax.object {
  // expected-error @+1 {{relax.meshgrid: the tuple of tensors is empty}}
  %0 = relax.meshgrid %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 1], f32>) -> !relax.object {
  %s = relax.shape [4]
  // expected-error @+1 {{relax.broadcast_to: the target shape has 1 dimensions, fewer than the 2 of x}}
  %0 = relax.broadcast_to %x, %s
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[3, 1], f32>) -> !relax.object {
  %s = relax.shape [2, 4, 4]
  // expected-error @+1 {{relax.broadcast_to: dimension 3 (axis 0) of x cannot be broadcast to 4}}
  %0 = relax.broadcast_to %x, %s
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n + 1, 1], f32>) -> !relax.object {
  %s = relax.shape [n, 4]
  // expected-error @+1 {{relax.broadcast_to: dimension n + 1 (axis 0) of x cannot be broadcast to n}}
  %0 = relax.broadcast_to %x, %s
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2], f32>, %s: !relax.tensor<[2], i64>) -> !relax.object {
  // expected-error @+1 {{relax.broadcast_to: the shape operand has type tensor<[2], i64>, expected a shape}}
  %0 = relax.broadcast_to %x, %s
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[3, 1], f32>, %s: !relax.shape<ndim = 1>) -> !relax.object {
  // expected-error @+1 {{relax.broadcast_to: the target shape has 1 dimensions, fewer than the 2 of x}}
  %0 = relax.broadcast_to %x, %s
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 3], f32>) -> !relax.object {
  // TVM would infer a negative length
  // expected-error @+1 {{relax.tile: repeats [2, -1] must not be negative}}
  %0 = relax.tile %x {repeats = [2, -1]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.repeat: repeats must not be negative, got -1}}
  %0 = relax.repeat %x {repeats = -1}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.repeat: axis 2 is out of range for a tensor of 2 dimensions (expected [-2, 2))}}
  %0 = relax.repeat %x {repeats = 2, axis = 2}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 3, 4], f32>, %t: !relax.tensor<[5, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.collapse_sum_like: dimension 3 (axis 1) of the data cannot be collapsed to 5}}
  %0 = relax.collapse_sum_like %x, %t
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 3, 4], f32>, %t: !relax.tensor<[m, 3, 4], f32>) -> !relax.object {
  // TVM asks for the shapes to be made provably compatible
  // expected-error @+1 {{relax.collapse_sum_like: dimension n (axis 0) of the data is not provably equal to the target's m, which is not 1; use relax.match_cast to make the shapes agree}}
  %0 = relax.collapse_sum_like %x, %t
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[3, 4], f32>, %t: !relax.tensor<ndim = 3, f32>) -> !relax.object {
  // TVM accepts this but cannot lower it
  // expected-error @+1 {{relax.collapse_sum_like: the target has 3 dimensions, more than the data's 2}}
  %0 = relax.collapse_sum_like %x, %t
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[3, 4], f32>, %t: !relax.shape<[3, 4]>) -> !relax.object {
  // expected-error @+1 {{relax.collapse_sum_like: the collapse_target operand has type shape<[3, 4]>, expected a tensor}}
  %0 = relax.collapse_sum_like %x, %t
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 3, 4], f32>) -> !relax.object {
  %s = relax.shape [2, 1]
  // expected-error @+1 {{relax.collapse_sum_to: dimension 3 (axis 1) of the data cannot be collapsed to 2}}
  %0 = relax.collapse_sum_to %x, %s
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 3, 4], f32>) -> !relax.object {
  %s = relax.shape [m, 1]
  // expected-error @+1 {{relax.collapse_sum_to: dimension 3 (axis 1) of the data is not provably equal to the target's m, which is not 1; use relax.match_cast to make the shapes agree}}
  %0 = relax.collapse_sum_to %x, %s
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[3, 4], f32>) -> !relax.object {
  %s = relax.shape [2, 3, 4]
  // expected-error @+1 {{relax.collapse_sum_to: the target has 3 dimensions, more than the data's 2}}
  %0 = relax.collapse_sum_to %x, %s
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[3, 4], f32>, %t: !relax.tensor<[3, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.collapse_sum_to: the shape operand has type tensor<[3, 4], f32>, expected a shape}}
  %0 = relax.collapse_sum_to %x, %t
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[m, 2], ui8>) -> !relax.object {
  // expected-error @+1 {{relax.gather_elements: indices have data type ui8, expected a signed integer type}}
  %0 = relax.gather_elements %x, %i
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[m, 2], i64>) -> !relax.object {
  // expected-error @+1 {{relax.gather_elements: axis 2 is out of range for a tensor of 2 dimensions (expected [-2, 2))}}
  %0 = relax.gather_elements %x, %i {axis = 2}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[m], i64>) -> !relax.object {
  // expected-error @+1 {{relax.gather_elements: data has 2 dimensions and indices 1; they must have the same rank}}
  %0 = relax.gather_elements %x, %i
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>, %i: !relax.prim<i64>) -> !relax.object {
  // expected-error @+1 {{relax.gather_elements: the indices operand has type prim<i64>, expected a tensor}}
  %0 = relax.gather_elements %x, %i
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4, 5], f32>, %i: !relax.tensor<[m, 2], i32>) -> !relax.object {
  // expected-error @+1 {{relax.gather_nd: indices have data type i32, expected i64}}
  %0 = relax.gather_nd %x, %i
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4, 5], f32>, %i: !relax.tensor<[m, 2], i64>) -> !relax.object {
  // expected-error @+1 {{relax.gather_nd: batch_dims must not be negative, got -1}}
  %0 = relax.gather_nd %x, %i {batch_dims = -1}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4, 5], f32>, %i: !relax.tensor<[m, 2], i64>) -> !relax.object {
  // expected-error @+1 {{relax.gather_nd: batch_dims 2 exceeds the rank of data (3) or of indices minus one (1)}}
  %0 = relax.gather_nd %x, %i {batch_dims = 2}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4, 5], f32>, %i: !relax.tensor<[m, 4], i64>) -> !relax.object {
  // expected-error @+1 {{relax.gather_nd: indices address 4 axes but data has 3 after 0 batch axes}}
  %0 = relax.gather_nd %x, %i
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<ndim = 3, f32>, %i: !relax.tensor<[n, 3], i64>) -> !relax.object {
  // decided from the rank of data alone
  // expected-error @+1 {{relax.gather_nd: indices address 3 axes but data has 2 after 1 batch axes}}
  %0 = relax.gather_nd %x, %i {batch_dims = 1}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[m, 2], i64>, %u: !relax.tensor<[m, 2], f32>) -> !relax.object {
  // TVM rejects an unknown reduction only when lowering
  // expected-error @+1 {{relax.scatter_elements: reduction 'sum' is not one of 'update', 'add', 'mul', 'mean', 'min', 'max'}}
  %0 = relax.scatter_elements %x, %i, %u {reduction = "sum"}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[m, 2], f32>, %u: !relax.tensor<[m, 2], f32>) -> !relax.object {
  // expected-error @+1 {{relax.scatter_elements: indices have data type f32, expected an integer type}}
  %0 = relax.scatter_elements %x, %i, %u
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[m, 2], i64>, %u: !relax.tensor<[m, 2], i32>) -> !relax.object {
  // expected-error @+1 {{relax.scatter_elements: data has data type f32 and updates i32; they must agree}}
  %0 = relax.scatter_elements %x, %i, %u
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], i32>, %i: !relax.tensor<[m, 2], i64>, %u: !relax.tensor<[m, 2], i32>) -> !relax.object {
  // TVM cannot lower an integer mean
  // expected-error @+1 {{relax.scatter_elements: reduction mean needs floating-point data, got i32}}
  %0 = relax.scatter_elements %x, %i, %u {reduction = "mean"}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[m, 2], i64>, %u: !relax.tensor<[m, 2], f32>) -> !relax.object {
  // expected-error @+1 {{relax.scatter_elements: axis -3 is out of range for a tensor of 2 dimensions (expected [-2, 2))}}
  %0 = relax.scatter_elements %x, %i, %u {axis = -3}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[m], i64>, %u: !relax.tensor<[m], f32>) -> !relax.object {
  // expected-error @+1 {{relax.scatter_elements: data, indices and updates have ranks 2, 1 and 1; they must be equal}}
  %0 = relax.scatter_elements %x, %i, %u
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[3, 2], i64>, %u: !relax.tensor<[3, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.scatter_elements: indices [3, 2] and updates [3, 3] must have the same shape}}
  %0 = relax.scatter_elements %x, %i, %u
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[3, 2], i64>, %u: !relax.object) -> !relax.object {
  // expected-error @+1 {{relax.scatter_elements: the updates operand has type object, expected a tensor}}
  %0 = relax.scatter_elements %x, %i, %u
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4, 5]>, %i: !relax.tensor<[m, 2], i64>, %u: !relax.tensor<[m, 5], f32>) -> !relax.object {
  // expected-error @+1 {{relax.scatter_nd: data and updates need known data types}}
  %0 = relax.scatter_nd %x, %i, %u
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4, 5], f32>, %i: !relax.tensor<[m, 2], i64>, %u: !relax.tensor<[m, 5], f32>) -> !relax.object {
  // expected-error @+1 {{relax.scatter_nd: reduction 'mean' is not one of 'update', 'add', 'mul', 'min', 'max'}}
  %0 = relax.scatter_nd %x, %i, %u {reduction = "mean"}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4, 5], f32>, %i: !relax.tensor<[m, n], i64>, %u: !relax.tensor<[m, 5], f32>) -> !relax.object {
  // expected-error @+1 {{relax.scatter_nd: the last dimension of indices [m, n] must be a constant}}
  %0 = relax.scatter_nd %x, %i, %u
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4, 5], f32>, %i: !relax.tensor<[m, 4], i64>, %u: !relax.tensor<[m], f32>) -> !relax.object {
  // expected-error @+1 {{relax.scatter_nd: indices address 4 axes but data has 3}}
  %0 = relax.scatter_nd %x, %i, %u
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4, 5], f32>, %i: !relax.tensor<[m, 2], i64>, %u: !relax.tensor<[m, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.scatter_nd: updates have shape [m, 4], expected [m, 5] (indices.shape[:-1] + data.shape[2:])}}
  %0 = relax.scatter_nd %x, %i, %u
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4, 5], f32>, %i: !relax.tensor<[m, 2], i64>, %u: !relax.tensor<[n, 5], f32>) -> !relax.object {
  // the update shape must be provably right, as TVM requires
  // expected-error @+1 {{relax.scatter_nd: updates have shape [n, 5], expected [m, 5] (indices.shape[:-1] + data.shape[2:])}}
  %0 = relax.scatter_nd %x, %i, %u
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4, 5], f32>, %i: !relax.tensor<[m, 2], i64>, %u: !relax.tensor<[m, 5], f16>) -> !relax.object {
  // expected-error @+1 {{relax.scatter_nd: data has data type f32 and updates f16; they must agree}}
  %0 = relax.scatter_nd %x, %i, %u
  relax.return %0
}

// -----

relax.function @main(%i: !relax.tensor<[3], i32>, %on: !relax.tensor<[], f32>, %off: !relax.prim<f32>) -> !relax.object {
  // expected-error @+1 {{relax.one_hot: the on_value operand has type tensor<[], f32>, expected a prim value}}
  %0 = relax.one_hot %i, %on, %off {depth = 2}
  relax.return %0
}

// -----

relax.function @main(%i: !relax.tensor<[3], i32>, %on: !relax.prim<f32>, %off: !relax.prim<i64>) -> !relax.object {
  // expected-error @+1 {{relax.one_hot: on_value is f32 and off_value i64; they must agree}}
  %0 = relax.one_hot %i, %on, %off {depth = 2}
  relax.return %0
}

// -----

relax.function @main(%i: !relax.tensor<[3], i32>, %on: !relax.prim<f32>, %off: !relax.prim<f32>) -> !relax.object {
  // expected-error @+1 {{relax.one_hot: depth must be positive, got 0}}
  %0 = relax.one_hot %i, %on, %off {depth = 0}
  relax.return %0
}

// -----

relax.function @main(%i: !relax.tensor<[3], f32>, %on: !relax.prim<f32>, %off: !relax.prim<f32>) -> !relax.object {
  // expected-error @+1 {{relax.one_hot: indices have data type f32, expected an integer type}}
  %0 = relax.one_hot %i, %on, %off {depth = 2}
  relax.return %0
}

// -----

relax.function @main(%i: !relax.tensor<ndim = 2, i32>, %on: !relax.prim<f32>, %off: !relax.prim<f32>) -> !relax.object {
  // decided from the rank of the indices alone
  // expected-error @+1 {{relax.one_hot: axis 3 is out of range for a tensor of 3 dimensions (expected [-3, 3))}}
  %0 = relax.one_hot %i, %on, %off {depth = 2, axis = 3}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.flatten: result type tensor<[4, 1], f32> contradicts the inferred type tensor<[4 * n], f32>; use relax.match_cast to check it at run time}}
  %0 = relax.flatten %x : !relax.tensor<[4, 1], f32>
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 10], f32>) -> !relax.object {
  // expected-error @+1 {{relax.split: indices_or_sections must be a list of integers}}
  %0 = relax.split %x {indices_or_sections = [2.5], axis = 1}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.tile: repeats must be a list of integers}}
  %0 = relax.tile %x {repeats = [2.0]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.object) -> !relax.object {
  // expected-error @+1 {{relax.expand_dims: the x operand has type object, expected a tensor}}
  %0 = relax.expand_dims %x {axis = [0]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.object) -> !relax.object {
  // expected-error @+1 {{relax.squeeze: the x operand has type object, expected a tensor}}
  %0 = relax.squeeze %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.object) -> !relax.object {
  // expected-error @+1 {{relax.permute_dims: the x operand has type object, expected a tensor}}
  %0 = relax.permute_dims %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.object) -> !relax.object {
  // expected-error @+1 {{relax.flip: the data operand has type object, expected a tensor}}
  %0 = relax.flip %x {axis = 0}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2], f32>) -> !relax.object {
  // expected-error @+1 {{relax.stack: the tensors operand has type tensor<[2], f32>, expected a tuple of tensors}}
  %0 = relax.stack %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tuple<tensor<[2], f32>, object>) -> !relax.object {
  // expected-error @+1 {{relax.meshgrid: the tensors operand has type tuple<tensor<[2], f32>, object>, expected a tuple of tensors}}
  %0 = relax.meshgrid %x
  relax.return %0
}

// -----

relax.function @main(%x: !relax.object) -> !relax.object {
  // expected-error @+1 {{relax.split: the x operand has type object, expected a tensor}}
  %0 = relax.split %x {indices_or_sections = 2}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.object, %s: !relax.shape<[2]>) -> !relax.object {
  // expected-error @+1 {{relax.broadcast_to: the x operand has type object, expected a tensor}}
  %0 = relax.broadcast_to %x, %s
  relax.return %0
}

// -----

relax.function @main(%x: !relax.object) -> !relax.object {
  // expected-error @+1 {{relax.tile: the data operand has type object, expected a tensor}}
  %0 = relax.tile %x {repeats = [2]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.object) -> !relax.object {
  // expected-error @+1 {{relax.repeat: the data operand has type object, expected a tensor}}
  %0 = relax.repeat %x {repeats = 2}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.object, %t: !relax.tensor<[2], f32>) -> !relax.object {
  // expected-error @+1 {{relax.collapse_sum_like: the data operand has type object, expected a tensor}}
  %0 = relax.collapse_sum_like %x, %t
  relax.return %0
}

// -----

relax.function @main(%x: !relax.object, %s: !relax.shape<[2]>) -> !relax.object {
  // expected-error @+1 {{relax.collapse_sum_to: the data operand has type object, expected a tensor}}
  %0 = relax.collapse_sum_to %x, %s
  relax.return %0
}

// -----

relax.function @main(%x: !relax.object, %i: !relax.tensor<[2], i64>) -> !relax.object {
  // expected-error @+1 {{relax.gather_elements: the data operand has type object, expected a tensor}}
  %0 = relax.gather_elements %x, %i
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2], f32>, %i: !relax.object) -> !relax.object {
  // expected-error @+1 {{relax.gather_nd: the indices operand has type object, expected a tensor}}
  %0 = relax.gather_nd %x, %i
  relax.return %0
}

// -----

relax.function @main(%x: !relax.object, %i: !relax.tensor<[2], i64>, %u: !relax.tensor<[2], f32>) -> !relax.object {
  // expected-error @+1 {{relax.scatter_elements: the data operand has type object, expected a tensor}}
  %0 = relax.scatter_elements %x, %i, %u
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[4], f32>, %i: !relax.tensor<[2, 1], f32>, %u: !relax.tensor<[2], f32>) -> !relax.object {
  // expected-error @+1 {{relax.scatter_nd: indices have data type f32, expected an integer type}}
  %0 = relax.scatter_nd %x, %i, %u
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[4], f32>, %i: !relax.shape<[2, 1]>, %u: !relax.tensor<[2], f32>) -> !relax.object {
  // expected-error @+1 {{relax.scatter_nd: the indices operand has type shape<[2, 1]>, expected a tensor}}
  %0 = relax.scatter_nd %x, %i, %u
  relax.return %0
}

// -----

relax.function @main(%i: !relax.shape<[3]>, %on: !relax.prim<f32>, %off: !relax.prim<f32>) -> !relax.object {
  // expected-error @+1 {{relax.one_hot: the indices operand has type shape<[3]>, expected a tensor}}
  %0 = relax.one_hot %i, %on, %off {depth = 2}
  relax.return %0
}

// -----

relax.function @main(%i: !relax.tensor<[3], i32>, %on: !relax.prim<f32>, %off: !relax.object) -> !relax.object {
  // expected-error @+1 {{relax.one_hot: the off_value operand has type object, expected a prim value}}
  %0 = relax.one_hot %i, %on, %off {depth = 2}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[2, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.expand_dims: axis must be a list of integers}}
  %0 = relax.expand_dims %x {axis = [0.5]}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[3, 4], f32>, %i: !relax.tensor<[2], ui8>) -> !relax.object {
  %t = relax.tuple(%i)
  // expected-error @+1 {{relax.index_tensor: indices have data type ui8, expected a signed integer type (index 0)}}
  %0 = relax.index_tensor %x, %t
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[3], f32>, %i: !relax.tensor<[2], i64>) -> !relax.object {
  %t = relax.tuple(%i, %i)
  // expected-error @+1 {{relax.index_tensor: 2 index tensors for data of 1 dimensions}}
  %0 = relax.index_tensor %x, %t
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[3, 4], f32>, %i: !relax.tensor<[2], i64>, %j: !relax.tensor<[3], i64>) -> !relax.object {
  %t = relax.tuple(%i, %j)
  // expected-error @+1 {{relax.index_tensor: index shapes do not broadcast: 2 and 3 at axis 0}}
  %0 = relax.index_tensor %x, %t
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[3, 4], f32>, %i: !relax.tensor<[2], i64>) -> !relax.object {
  // expected-error @+1 {{relax.index_tensor: the indices operand has type tensor<[2], i64>, expected a tuple of tensors}}
  %0 = relax.index_tensor %x, %i
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[3, 4], f32>) -> !relax.object {
  %t = relax.tuple()
  // expected-error @+1 {{relax.index_tensor: the tuple of indices is empty}}
  %0 = relax.index_tensor %x, %t
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[3, 4], f32>, %i: !relax.tensor<[2], i64>, %v: !relax.tensor<[2], f32>) -> !relax.object {
  // expected-error @+1 {{relax.index_put: 1 index tensors for data of 2 dimensions; one per axis is needed}}
  %0 = relax.index_put %x, %i, %v
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[3], f32>, %i: !relax.tensor<[], i64>, %v: !relax.tensor<[1], f32>) -> !relax.object {
  %t = relax.tuple(%i)
  // expected-error @+1 {{relax.index_put: index tensor 0 has no dimensions; each needs one}}
  %0 = relax.index_put %x, %t, %v
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[3], f32>, %i: !relax.tensor<[2], f32>, %v: !relax.tensor<[2], f32>) -> !relax.object {
  // expected-error @+1 {{relax.index_put: indices have data type f32, expected an integer type (index 0)}}
  %0 = relax.index_put %x, %i, %v
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[3], f32>, %i: !relax.tensor<[2], i64>, %v: !relax.tensor<[2], f16>) -> !relax.object {
  // expected-error @+1 {{relax.index_put: data has data type f32 and values f16; they must agree}}
  %0 = relax.index_put %x, %i, %v
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[3], f32>, %i: !relax.shape<[2]>, %v: !relax.tensor<[2], f32>) -> !relax.object {
  // expected-error @+1 {{relax.index_put: the indices operand has type shape<[2]>, expected a tensor or a tuple of tensors}}
  %0 = relax.index_put %x, %i, %v
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[3, 4], f32>, %s: !relax.tensor<[3, 2], f32>) -> !relax.object {
  %zero = relax.prim_value 0
  %one = relax.prim_value 1
  %two = relax.prim_value 2
  // expected-error @+1 {{relax.slice_scatter: axis 2 is out of range for a tensor of 2 dimensions (expected [-2, 2))}}
  %0 = relax.slice_scatter %x, %s, %zero, %two, %one {axis = 2}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[3, 4], f32>, %s: !relax.tensor<[2], f32>) -> !relax.object {
  %zero = relax.prim_value 0
  %one = relax.prim_value 1
  %two = relax.prim_value 2
  // expected-error @+1 {{relax.slice_scatter: input_tensor has 2 dimensions and src 1; they must have the same rank}}
  %0 = relax.slice_scatter %x, %s, %zero, %two, %one
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[3, 4], f32>, %s: !relax.tensor<[3, 2], i32>) -> !relax.object {
  %zero = relax.prim_value 0
  %one = relax.prim_value 1
  %two = relax.prim_value 2
  // expected-error @+1 {{relax.slice_scatter: tensors have different data types f32 and i32}}
  %0 = relax.slice_scatter %x, %s, %zero, %two, %one {axis = 1}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[3, 4], f32>, %s: !relax.tensor<[3, 2], f32>, %start: !relax.prim<i64>) -> !relax.object {
  %one = relax.prim_value 1
  %two = relax.prim_value 2
  // expected-error @+1 {{relax.slice_scatter: start has type prim<i64>, expected an integer prim value with a known value}}
  %0 = relax.slice_scatter %x, %s, %start, %two, %one {axis = 1}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[3, 4], f32>, %s: !relax.tensor<[3, 2], f32>) -> !relax.object {
  %zero = relax.prim_value 0
  %one = relax.prim_value 1.0 : !relax.prim<f32>
  %two = relax.prim_value 2
  // expected-error @+1 {{relax.slice_scatter: step has type prim<f32>, expected an integer prim value with a known value}}
  %0 = relax.slice_scatter %x, %s, %zero, %two, %one {axis = 1}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[3, 4], f32>, %s: !relax.tensor<[3, 2], f32>) -> !relax.object {
  %zero = relax.prim_value 0
  %two = relax.prim_value 2
  // expected-error @+1 {{relax.slice_scatter: step 0 must be at least 1}}
  %0 = relax.slice_scatter %x, %s, %zero, %two, %zero {axis = 1}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[3, 4], f32>, %s: !relax.tensor<[3, 2], f32>) -> !relax.object {
  %one = relax.prim_value 1
  %three = relax.prim_value 3
  // expected-error @+1 {{relax.slice_scatter: end 1 is below start 3}}
  %0 = relax.slice_scatter %x, %s, %three, %one, %one {axis = 1}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[3, 4], f32>, %s: !relax.tensor<[2, 2], f32>) -> !relax.object {
  %zero = relax.prim_value 0
  %one = relax.prim_value 1
  %two = relax.prim_value 2
  // expected-error @+1 {{relax.slice_scatter: tensors differ in dimension 0 (3 and 2); only axis 1 may differ}}
  %0 = relax.slice_scatter %x, %s, %zero, %two, %one {axis = 1}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[3, 4], f32>, %s: !relax.tensor<[3, 2], f32>) -> !relax.object {
  %zero = relax.prim_value 0
  %one = relax.prim_value 1
  %three = relax.prim_value 3
  // expected-error @+1 {{relax.slice_scatter: src has 2 elements along axis 1, the slice 3}}
  %0 = relax.slice_scatter %x, %s, %zero, %three, %one {axis = 1}
  relax.return %0
}
