// RUN: relax-opt %s -p canonicalize --split-input-file | filecheck %s
// RUN: relax-opt %s -p canonicalize,canonicalize --split-input-file | filecheck %s

// Shape computations on known shapes, and reshape chains
// (relax_dialect/canonicalization/shapes.py).

// shape_of a tensor whose dimensions are known, symbolic or static, is the
// shape literal; of a tensor of unknown dimensions it stays.

// CHECK-LABEL: @shape_of
// CHECK-NEXT:    %symbolic = relax.shape [n, 4] : !relax.shape<[n, 4]>
// CHECK-NEXT:    %static = relax.shape [2, 3] : !relax.shape<[2, 3]>
// CHECK-NEXT:    %unknown = relax.shape_of %u : !relax.shape<ndim = 2>
// CHECK-NEXT:    %t = relax.tuple(%symbolic, %static, %unknown) : !relax.object
// CHECK-NEXT:    relax.return %t
relax.function @shape_of(%x: !relax.tensor<[n, 4], f32>, %s: !relax.tensor<[2, 3], i32>, %u: !relax.tensor<ndim = 2, f32>) -> !relax.object {
  %symbolic = relax.shape_of %x
  %static = relax.shape_of %s
  %unknown = relax.shape_of %u
  %t = relax.tuple(%symbolic, %static, %unknown) : !relax.object
  relax.return %t
}

// -----

// tensor_to_shape of a 1-d integer constant is the shape literal; it keeps the
// binding's StructInfo (canonicalize does not refine it, so the reshape's type
// stays). Of a tensor that is not a constant it stays.

// CHECK-LABEL: @tensor_to_shape
// CHECK-NEXT:    %s = relax.shape [2, 8] : !relax.shape<ndim = 2>
// CHECK-NEXT:    %r = relax.reshape %x, %s : !relax.tensor<ndim = 2, f32>
// CHECK-NEXT:    %dynamic = relax.tensor_to_shape %d : !relax.shape<ndim = 2>
// CHECK-NEXT:    %t = relax.tuple(%r, %dynamic) : !relax.object
// CHECK-NEXT:    relax.return %t
relax.function @tensor_to_shape(%x: !relax.tensor<[16], f32>, %d: !relax.tensor<[2], i64>) -> !relax.object {
  %c = relax.constant dense<[2], i64, [2, 8]>
  %s = relax.tensor_to_shape %c : !relax.shape<ndim = 2>
  %r = relax.reshape %x, %s : !relax.tensor<ndim = 2, f32>
  %dynamic = relax.tensor_to_shape %d : !relax.shape<ndim = 2>
  %t = relax.tuple(%r, %dynamic) : !relax.object
  relax.return %t
}

// -----

// size of a tensor of static shape is its element count as an i64 constant;
// with a symbolic dimension it stays.

// CHECK-LABEL: @size
// CHECK-NEXT:    %static = relax.constant dense<[], i64, 24> : !relax.tensor<[], i64>
// CHECK-NEXT:    %symbolic = relax.size %x : !relax.tensor<[], i64>
// CHECK-NEXT:    %t = relax.tuple(%static, %symbolic) : !relax.object
// CHECK-NEXT:    relax.return %t
relax.function @size(%x: !relax.tensor<[n, 4], f32>, %s: !relax.tensor<[2, 3, 4], i32>) -> !relax.object {
  %static = relax.size %s
  %symbolic = relax.size %x
  %t = relax.tuple(%static, %symbolic) : !relax.object
  relax.return %t
}

// -----

// reshape(reshape(x, s1), s2) is reshape(x, s2); a reshape to the shape its
// operand provably has (n * 4 and 4 * n included) is the operand, with
// symbolic and static shapes.

// CHECK-LABEL: @reshape_chain
// CHECK-NEXT:    %s2 = relax.shape [n * 4] : !relax.shape<[n * 4]>
// CHECK-NEXT:    %r2 = relax.reshape %x, %s2 : !relax.tensor<[n * 4], f32>
// CHECK-NEXT:    %flat = relax.shape [-1] : !relax.shape<[-1]>
// CHECK-NEXT:    %v = relax.reshape %w, %flat : !relax.tensor<[12], i32>
// CHECK-NEXT:    %t = relax.tuple(%x, %r2, %w, %v) : !relax.object
// CHECK-NEXT:    relax.return %t
relax.function @reshape_chain(%x: !relax.tensor<[n, 4], f32>, %w: !relax.tensor<[3, 4], i32>) -> !relax.object {
  %s1 = relax.shape [n, 2, 2]
  %r1 = relax.reshape %x, %s1
  %s2 = relax.shape [n * 4]
  %r2 = relax.reshape %r1, %s2
  %s3 = relax.shape [n, 4]
  %r3 = relax.reshape %r2, %s3
  %s34 = relax.shape [3, 4]
  %same = relax.reshape %w, %s34
  %s62 = relax.shape [6, 2]
  %u = relax.reshape %w, %s62
  %flat = relax.shape [-1]
  %v = relax.reshape %u, %flat
  %t = relax.tuple(%r3, %r2, %same, %v) : !relax.object
  relax.return %t
}

// -----

// A target with 0 (copy the operand's length there) depends on the inner
// reshape's shape: the chain stays. A reshape to another shape stays.

// CHECK-LABEL: @reshape_chain_stays
// CHECK-NEXT:    %s1 = relax.shape [3, 4] : !relax.shape<[3, 4]>
// CHECK-NEXT:    %r1 = relax.reshape %x, %s1 : !relax.tensor<[3, 4], f32>
// CHECK-NEXT:    %s2 = relax.shape [0, 2, -1] : !relax.shape<[0, 2, -1]>
// CHECK-NEXT:    %r2 = relax.reshape %r1, %s2 : !relax.tensor<[3, 2, 2], f32>
// CHECK-NEXT:    %t = relax.tuple(%r1, %r2) : !relax.object
// CHECK-NEXT:    relax.return %t
relax.function @reshape_chain_stays(%x: !relax.tensor<[2, 6], f32>) -> !relax.object {
  %s1 = relax.shape [3, 4]
  %r1 = relax.reshape %x, %s1
  %s2 = relax.shape [0, 2, -1]
  %r2 = relax.reshape %r1, %s2
  %t = relax.tuple(%r1, %r2) : !relax.object
  relax.return %t
}

// -----

// The same when the binding's type does not tell the shapes apart (here
// only the rank): collapsing would give reshape(x, [0, 2, -1]), of shape
// [2, 2, 3] instead of [3, 2, 2].

// CHECK-LABEL: @reshape_copy_dimension_loose
// CHECK-NEXT:    %s1 = relax.shape [3, 4] : !relax.shape<[3, 4]>
// CHECK-NEXT:    %r1 = relax.reshape %x, %s1 : !relax.tensor<[3, 4], f32>
// CHECK-NEXT:    %s2 = relax.shape [0, 2, -1] : !relax.shape<[0, 2, -1]>
// CHECK-NEXT:    %r2 = relax.reshape %r1, %s2 : !relax.tensor<ndim = 3, f32>
// CHECK-NEXT:    relax.return %r2
relax.function @reshape_copy_dimension_loose(%x: !relax.tensor<[2, 6], f32>) -> !relax.tensor<ndim = 3, f32> {
  %s1 = relax.shape [3, 4]
  %r1 = relax.reshape %x, %s1
  %s2 = relax.shape [0, 2, -1]
  %r2 = relax.reshape %r1, %s2 : !relax.tensor<ndim = 3, f32>
  relax.return %r2
}
