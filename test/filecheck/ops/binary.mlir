// RUN: relax-opt %s --split-input-file | filecheck %s
// RUN: relax-opt %s --split-input-file %generic-roundtrip | filecheck %s

// Broadcasting: static, symbolic, undecidable, unknown rank and shape.
// CHECK-LABEL: @broadcast
relax.function @broadcast(%a: !relax.tensor<[n, 1, 4], f32>, %b: !relax.tensor<[3, 1], f32>, %c: !relax.tensor<[2, 3], f32>, %d: !relax.tensor<[2, m], f32>, %e: !relax.tensor<ndim = 2, f32>, %f: !relax.tensor<f32>, %s: !relax.tensor<[], f32>, %k: !relax.tensor<[n, m], f32>, %z: !relax.tensor<[0, 1], f32>) -> !relax.object {
  // CHECK: relax.subtract %a, %b : !relax.tensor<[n, 3, 4], f32>
  %0 = relax.subtract %a, %b
  // CHECK: relax.multiply %b, %a : !relax.tensor<[n, 3, 4], f32>
  %1 = relax.multiply %b, %a
  // (2, 3) against (2, m): undecidable, only the rank is kept
  // CHECK: relax.divide %c, %d : !relax.tensor<ndim = 2, f32>
  %2 = relax.divide %c, %d
  // CHECK: relax.floor_divide %c, %e : !relax.tensor<ndim = 2, f32>
  %3 = relax.floor_divide %c, %e
  // CHECK: relax.mod %e, %a : !relax.tensor<ndim = 3, f32>
  %4 = relax.mod %e, %a
  // CHECK: relax.floor_mod %f, %a : !relax.tensor<f32>
  %5 = relax.floor_mod %f, %a
  // a 0-d tensor broadcasts with anything
  // CHECK: relax.power %s, %a : !relax.tensor<[n, 1, 4], f32>
  %6 = relax.power %s, %a
  // CHECK: relax.maximum %k, %k : !relax.tensor<[n, m], f32>
  %7 = relax.maximum %k, %k
  // n against 2 is undecidable even though m matches
  // CHECK: relax.minimum %k, %d : !relax.tensor<ndim = 2, f32>
  %8 = relax.minimum %k, %d
  // CHECK: relax.atan2 %z, %a : !relax.tensor<[n, 0, 4], f32>
  %9 = relax.atan2 %z, %a
  // CHECK: relax.log_add_exp %s, %s : !relax.tensor<[], f32>
  %10 = relax.log_add_exp %s, %s
  // CHECK: relax.add %f, %f : !relax.tensor<f32>
  %11 = relax.add %f, %f
  relax.return %0
}

// -----

// Data types: operands agree, bool mixes with any (the first operand's type
// wins), void makes the result void; comparisons give bool.
// CHECK-LABEL: @dtypes
relax.function @dtypes(%x: !relax.tensor<[n, 4], i32>, %y: !relax.tensor<[4], f16>, %g: !relax.tensor<[4], bool>, %v: !relax.tensor<[n, 4]>, %u: !relax.tensor) -> !relax.object {
  // CHECK: relax.add %x, %g : !relax.tensor<[n, 4], i32>
  %0 = relax.add %x, %g
  // CHECK: relax.multiply %g, %y : !relax.tensor<[4], bool>
  %1 = relax.multiply %g, %y
  // CHECK: relax.subtract %v, %x : !relax.tensor<[n, 4]>
  %2 = relax.subtract %v, %x
  // CHECK: relax.maximum %u, %y : !relax.tensor
  %3 = relax.maximum %u, %y
  // comparisons do not compare the operand data types
  // CHECK: relax.equal %x, %y : !relax.tensor<[n, 4], bool>
  %4 = relax.equal %x, %y
  // CHECK: relax.not_equal %v, %u : !relax.tensor<bool>
  %5 = relax.not_equal %v, %u
  // CHECK: relax.less %y, %g : !relax.tensor<[4], bool>
  %6 = relax.less %y, %g
  // CHECK: relax.less_equal %x, %x : !relax.tensor<[n, 4], bool>
  %7 = relax.less_equal %x, %x
  // CHECK: relax.greater %v, %y : !relax.tensor<[n, 4], bool>
  %8 = relax.greater %v, %y
  // CHECK: relax.greater_equal %u, %u : !relax.tensor<bool>
  %9 = relax.greater_equal %u, %u
  relax.return %0
}

// -----

// Logical and bitwise operators: the common data type, not checked (as in TVM).
// CHECK-LABEL: @logical_bitwise
relax.function @logical_bitwise(%p: !relax.tensor<[n, 1], bool>, %q: !relax.tensor<[1, m], bool>, %x: !relax.tensor<[n, 8], i64>, %y: !relax.tensor<[8], i64>, %w: !relax.tensor<[8], ui8>, %f: !relax.tensor<[8], f32>) -> !relax.object {
  // CHECK: relax.logical_and %p, %q : !relax.tensor<[n, m], bool>
  %0 = relax.logical_and %p, %q
  // CHECK: relax.logical_or %q, %p : !relax.tensor<[n, m], bool>
  %1 = relax.logical_or %q, %p
  // CHECK: relax.logical_xor %p, %p : !relax.tensor<[n, 1], bool>
  %2 = relax.logical_xor %p, %p
  // CHECK: relax.logical_and %f, %f : !relax.tensor<[8], f32>
  %3 = relax.logical_and %f, %f
  // CHECK: relax.bitwise_and %x, %y : !relax.tensor<[n, 8], i64>
  %4 = relax.bitwise_and %x, %y
  // CHECK: relax.bitwise_or %w, %w : !relax.tensor<[8], ui8>
  %5 = relax.bitwise_or %w, %w
  // CHECK: relax.bitwise_xor %p, %x : !relax.tensor<[n, 8], bool>
  %6 = relax.bitwise_xor %p, %x
  // CHECK: relax.left_shift %x, %y : !relax.tensor<[n, 8], i64>
  %7 = relax.left_shift %x, %y
  // CHECK: relax.right_shift %y, %x : !relax.tensor<[n, 8], i64>
  %8 = relax.right_shift %y, %x
  relax.return %0
}

// -----

// Prim values act as tensors of shape [1]; two prim values give a prim value.
// CHECK-LABEL: @prims
relax.function @prims(%x: !relax.tensor<[n, 3], f32>, %s: !relax.tensor<[], f32>, %p: !relax.prim<f32>, %q: !relax.prim<f32>, %i: !relax.prim<i64>, %u: !relax.tensor<f32>) -> !relax.object {
  // CHECK: relax.add %x, %p : !relax.tensor<[n, 3], f32>
  %0 = relax.add %x, %p
  // CHECK: relax.subtract %p, %s : !relax.tensor<[1], f32>
  %1 = relax.subtract %p, %s
  // CHECK: relax.multiply %p, %q : !relax.prim<f32>
  %2 = relax.multiply %p, %q
  // CHECK: relax.less %p, %i : !relax.prim<bool>
  %3 = relax.less %p, %i
  // CHECK: relax.equal %u, %i : !relax.tensor<bool>
  %4 = relax.equal %u, %i
  // CHECK: relax.floor_mod %i, %i : !relax.prim<i64>
  %5 = relax.floor_mod %i, %i
  relax.return %0
}

// -----

// A declared result type may be weaker than the inferred one.
// CHECK-LABEL: @declared
relax.function @declared(%x: !relax.tensor<[n, 3], f32>) -> !relax.object {
  // CHECK: relax.power %x, %x : !relax.tensor<ndim = 2, f32>
  %0 = relax.power %x, %x : !relax.tensor<ndim = 2, f32>
  // CHECK: relax.greater %x, %x : !relax.object
  %1 = relax.greater %x, %x : !relax.object
  relax.return %0
}
