// RUN: relax-opt %s -p canonicalize --split-input-file | filecheck %s
// RUN: relax-opt %s -p canonicalize,canonicalize --split-input-file | filecheck %s

// Algebraic identities (relax_dialect/canonicalization/algebra.py). Each case
// holds what must go and what must stay: an identity applies only when it holds
// for every input under IEEE arithmetic and TVM's semantics (NaN, infinities,
// the sign of zero, integer wrap-around) and when the operation's result has
// exactly its operand's StructInfo (no broadcast to a larger shape, no other
// data type). Shapes are symbolic ([n, 4]) and static.

// x * 1 and 1 * x are x (IEEE: exact for every x); a constant of ones that
// broadcasts x to a larger shape, a constant that is not all ones, -1, and a
// binding annotated less precisely than x (canonicalize keeps StructInfo) stay.

// CHECK-LABEL: @multiply_by_one
// CHECK-NEXT:    %one = relax.constant dense<[], f32, 1.0> : !relax.tensor<[], f32>
// CHECK-NEXT:    %ones = relax.constant dense<[3, 4], f32, 1.0> : !relax.tensor<[3, 4], f32>
// CHECK-NEXT:    %wide = relax.multiply %v, %ones : !relax.tensor<[3, 4], f32>
// CHECK-NEXT:    %mixed = relax.constant dense<[4], f32, [1.0, 1.0, 2.0, 1.0]> : !relax.tensor<[4], f32>
// CHECK-NEXT:    %not_one = relax.multiply %v, %mixed : !relax.tensor<[4], f32>
// CHECK-NEXT:    %minus_one = relax.constant dense<[], f32, -1.0> : !relax.tensor<[], f32>
// CHECK-NEXT:    %negated = relax.multiply %x, %minus_one : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:    %loose = relax.multiply %x, %one : !relax.tensor<ndim = 2, f32>
// CHECK-NEXT:    %t = relax.tuple(%x, %x, %x, %i, %x, %x, %wide, %not_one, %negated, %loose) : !relax.object
// CHECK-NEXT:    relax.return %t
relax.function @multiply_by_one(%x: !relax.tensor<[n, 4], f32>, %v: !relax.tensor<[4], f32>, %i: !relax.tensor<[2, 3], i32>) -> !relax.object {
  %one = relax.constant dense<[], f32, 1.0>
  %right = relax.multiply %x, %one
  %left = relax.multiply %one, %x
  %row = relax.constant dense<[1, 4], f32, 1.0>
  %same_shape = relax.multiply %x, %row
  %ione = relax.constant dense<[], i32, 1>
  %int = relax.multiply %i, %ione
  %p = relax.prim_value 1.0 : !relax.prim<f32, 1.0>
  %prim = relax.multiply %x, %p
  %q = relax.prim_value 1.0 : !relax.prim<f32, 1.0>
  %prim_left = relax.multiply %q, %x
  %ones = relax.constant dense<[3, 4], f32, 1.0>
  %wide = relax.multiply %v, %ones
  %mixed = relax.constant dense<[4], f32, [1.0, 1.0, 2.0, 1.0]>
  %not_one = relax.multiply %v, %mixed
  %minus_one = relax.constant dense<[], f32, -1.0>
  %negated = relax.multiply %x, %minus_one
  %loose = relax.multiply %x, %one : !relax.tensor<ndim = 2, f32>
  %t = relax.tuple(%right, %left, %same_shape, %int, %prim, %prim_left, %wide, %not_one, %negated, %loose) : !relax.object
  relax.return %t
}

// -----

// Relax binary operators do not promote data types (f16 * f32 is rejected by
// inference, as in TVM); only bool mixes with another data type, and the result
// has the first operand's. So 1.0 * b (an f32 result for a bool b) stays, and
// b * 1.0 (a bool result) is b.

// CHECK-LABEL: @bool_mixes
// CHECK-NEXT:    %one = relax.constant dense<[], f32, 1.0> : !relax.tensor<[], f32>
// CHECK-NEXT:    %promoted = relax.multiply %one, %b : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:    %t = relax.tuple(%promoted, %b) : !relax.object
// CHECK-NEXT:    relax.return %t
relax.function @bool_mixes(%b: !relax.tensor<[n, 4], bool>) -> !relax.object {
  %one = relax.constant dense<[], f32, 1.0>
  %promoted = relax.multiply %one, %b
  %kept = relax.multiply %b, %one
  %t = relax.tuple(%promoted, %kept) : !relax.object
  relax.return %t
}

// -----

// x + -0.0 and -0.0 + x are x for floats (-0.0 + -0.0 is -0.0, +0.0 + -0.0 is
// +0.0); x + 0.0 is not (-0.0 + 0.0 is +0.0) and stays, on either side, as
// does a zero constant whose zeros differ in sign. Integers: x + 0 is x.

// CHECK-LABEL: @add_zero
// CHECK-NEXT:    %pz = relax.constant dense<[], f32, 0.0> : !relax.tensor<[], f32>
// CHECK-NEXT:    %plus_zero = relax.add %x, %pz : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:    %plus_zero_left = relax.add %pz, %x : !relax.tensor<[n, 4], f32>
// The printer shows the constant %signs as a splat of -0.0 (a printer bug: see
// signed_zero_constant.mlir), so its elements are not checked here.
// CHECK-NEXT:    %signs = relax.constant dense<[4], f32, {{.*}}> : !relax.tensor<[4], f32>
// CHECK-NEXT:    %mixed_signs = relax.add %x, %signs : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:    %p = relax.prim_value 0.0 : !relax.prim<f32, 0.0>
// CHECK-NEXT:    %prim_plus_zero = relax.add %x, %p : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:    %t = relax.tuple(%x, %x, %x, %x, %h, %i, %i, %plus_zero, %plus_zero_left, %mixed_signs, %prim_plus_zero) : !relax.object
// CHECK-NEXT:    relax.return %t
relax.function @add_zero(%x: !relax.tensor<[n, 4], f32>, %h: !relax.tensor<[2, 3], f16>, %i: !relax.tensor<[2, 3], i32>) -> !relax.object {
  %nz = relax.constant dense<[], f32, -0.0>
  %minus_zero = relax.add %x, %nz
  %minus_zero_left = relax.add %nz, %x
  %nzs = relax.constant dense<[4], f32, -0.0>
  %minus_zeros = relax.add %x, %nzs
  %q = relax.prim_value -0.0 : !relax.prim<f32, -0.0>
  %prim = relax.add %x, %q
  %hz = relax.constant dense<[], f16, -0.0>
  %half = relax.add %h, %hz
  %iz = relax.constant dense<[], i32, 0>
  %int = relax.add %i, %iz
  %int_left = relax.add %iz, %i
  %pz = relax.constant dense<[], f32, 0.0>
  %plus_zero = relax.add %x, %pz
  %plus_zero_left = relax.add %pz, %x
  %signs = relax.constant dense<[4], f32, [-0.0, -0.0, 0.0, -0.0]>
  %mixed_signs = relax.add %x, %signs
  %p = relax.prim_value 0.0 : !relax.prim<f32, 0.0>
  %prim_plus_zero = relax.add %x, %p
  %t = relax.tuple(%minus_zero, %minus_zero_left, %minus_zeros, %prim, %half, %int, %int_left, %plus_zero, %plus_zero_left, %mixed_signs, %prim_plus_zero) : !relax.object
  relax.return %t
}

// -----

// x - 0.0 is x (-0.0 - 0.0 is -0.0); x - -0.0 is x + 0.0 and stays; 0 - x is
// not x. Integers: x - 0 is x.

// CHECK-LABEL: @subtract_zero
// CHECK-NEXT:    %pz = relax.constant dense<[], f32, 0.0> : !relax.tensor<[], f32>
// CHECK-NEXT:    %iz = relax.constant dense<[], i32, 0> : !relax.tensor<[], i32>
// CHECK-NEXT:    %nz = relax.constant dense<[], f32, -0.0> : !relax.tensor<[], f32>
// CHECK-NEXT:    %minus_minus_zero = relax.subtract %x, %nz : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:    %reversed = relax.subtract %pz, %x : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:    %int_reversed = relax.subtract %iz, %i : !relax.tensor<[2, 3], i32>
// CHECK-NEXT:    %t = relax.tuple(%x, %i, %minus_minus_zero, %reversed, %int_reversed) : !relax.object
// CHECK-NEXT:    relax.return %t
relax.function @subtract_zero(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[2, 3], i32>) -> !relax.object {
  %pz = relax.constant dense<[], f32, 0.0>
  %minus_zero = relax.subtract %x, %pz
  %iz = relax.constant dense<[], i32, 0>
  %int = relax.subtract %i, %iz
  %nz = relax.constant dense<[], f32, -0.0>
  %minus_minus_zero = relax.subtract %x, %nz
  %reversed = relax.subtract %pz, %x
  %int_reversed = relax.subtract %iz, %i
  %t = relax.tuple(%minus_zero, %int, %minus_minus_zero, %reversed, %int_reversed) : !relax.object
  relax.return %t
}

// -----

// x / 1 is x (IEEE: exact; integers: truncating division by 1); 1 / x and
// x / -1 stay.

// CHECK-LABEL: @divide_by_one
// CHECK-NEXT:    %one = relax.constant dense<[], f32, 1.0> : !relax.tensor<[], f32>
// CHECK-NEXT:    %reciprocal = relax.divide %one, %x : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:    %minus_one = relax.constant dense<[], f32, -1.0> : !relax.tensor<[], f32>
// CHECK-NEXT:    %negated = relax.divide %x, %minus_one : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:    %t = relax.tuple(%x, %i, %reciprocal, %negated) : !relax.object
// CHECK-NEXT:    relax.return %t
relax.function @divide_by_one(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[2, 3], i32>) -> !relax.object {
  %one = relax.constant dense<[], f32, 1.0>
  %float = relax.divide %x, %one
  %ione = relax.constant dense<[], i32, 1>
  %int = relax.divide %i, %ione
  %reciprocal = relax.divide %one, %x
  %minus_one = relax.constant dense<[], f32, -1.0>
  %negated = relax.divide %x, %minus_one
  %t = relax.tuple(%float, %int, %reciprocal, %negated) : !relax.object
  relax.return %t
}

// -----

// floor_divide(x, 1) is floor(x) on floats and stays; on integers it is x.
// floor_divide(1, x) stays.

// CHECK-LABEL: @floor_divide_by_one
// CHECK-NEXT:    %one = relax.constant dense<[], f32, 1.0> : !relax.tensor<[], f32>
// CHECK-NEXT:    %float = relax.floor_divide %x, %one : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:    %ione = relax.constant dense<[], i32, 1> : !relax.tensor<[], i32>
// CHECK-NEXT:    %reversed = relax.floor_divide %ione, %i : !relax.tensor<[n, 4], i32>
// CHECK-NEXT:    %t = relax.tuple(%float, %i, %reversed) : !relax.object
// CHECK-NEXT:    relax.return %t
relax.function @floor_divide_by_one(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[n, 4], i32>) -> !relax.object {
  %one = relax.constant dense<[], f32, 1.0>
  %float = relax.floor_divide %x, %one
  %ione = relax.constant dense<[], i32, 1>
  %int = relax.floor_divide %i, %ione
  %reversed = relax.floor_divide %ione, %i
  %t = relax.tuple(%float, %int, %reversed) : !relax.object
  relax.return %t
}

// -----

// Double negation is the identity: negative (IEEE flips the sign bit; integers
// wrap back), logical_not, bitwise_not. A single one, a triple one (one left),
// and two different ones stay.

// CHECK-LABEL: @involutions
// CHECK-NEXT:    %[[ODD:.*]] = relax.negative %x : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:    %single = relax.negative %x : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:    %not = relax.bitwise_not %i : !relax.tensor<[2, 3], i32>
// CHECK-NEXT:    %mixed = relax.negative %not : !relax.tensor<[2, 3], i32>
// CHECK-NEXT:    %t = relax.tuple(%x, %i, %i, %b, %[[ODD]], %single, %mixed) : !relax.object
// CHECK-NEXT:    relax.return %t
relax.function @involutions(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[2, 3], i32>, %b: !relax.tensor<[n], bool>) -> !relax.object {
  %n1 = relax.negative %x
  %n2 = relax.negative %n1
  %m1 = relax.negative %i
  %m2 = relax.negative %m1
  %c1 = relax.bitwise_not %i
  %c2 = relax.bitwise_not %c1
  %l1 = relax.logical_not %b
  %l2 = relax.logical_not %l1
  %n3 = relax.negative %n2
  %single = relax.negative %x
  %not = relax.bitwise_not %i
  %mixed = relax.negative %not
  %t = relax.tuple(%n2, %m2, %c2, %l2, %n3, %single, %mixed) : !relax.object
  relax.return %t
}

// -----

// maximum, minimum, bitwise_and, bitwise_or, logical_and and logical_or of an
// operand with itself are it (TVM's maximum is x > x ? x : x, NaN included).
// Different operands, and bitwise_xor, subtract of an operand with itself (not
// x, and not 0 for NaN or infinities) stay.

// CHECK-LABEL: @same_operands
// CHECK-NEXT:    %different = relax.maximum %x, %y : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:    %xor = relax.bitwise_xor %i, %i : !relax.tensor<[2, 3], i32>
// CHECK-NEXT:    %difference = relax.subtract %x, %x : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:    %t = relax.tuple(%x, %x, %i, %i, %b, %b, %different, %xor, %difference) : !relax.object
// CHECK-NEXT:    relax.return %t
relax.function @same_operands(%x: !relax.tensor<[n, 4], f32>, %y: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[2, 3], i32>, %b: !relax.tensor<[n], bool>) -> !relax.object {
  %max = relax.maximum %x, %x
  %min = relax.minimum %x, %x
  %and = relax.bitwise_and %i, %i
  %or = relax.bitwise_or %i, %i
  %land = relax.logical_and %b, %b
  %lor = relax.logical_or %b, %b
  %different = relax.maximum %x, %y
  %xor = relax.bitwise_xor %i, %i
  %difference = relax.subtract %x, %x
  %t = relax.tuple(%max, %min, %and, %or, %land, %lor, %different, %xor, %difference) : !relax.object
  relax.return %t
}

// -----

// where(c, x, x) is x; where(c, x, y) stays, and so does where(c, v, v) when
// the condition broadcasts v to a larger shape.

// CHECK-LABEL: @where_same
// CHECK-NEXT:    %different = relax.where %c, %x, %y : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:    %wide = relax.where %w, %v, %v : !relax.tensor<[3, 4], f32>
// CHECK-NEXT:    %t = relax.tuple(%x, %x, %different, %wide) : !relax.object
// CHECK-NEXT:    relax.return %t
relax.function @where_same(%c: !relax.tensor<[n, 4], bool>, %s: !relax.tensor<[], bool>, %x: !relax.tensor<[n, 4], f32>, %y: !relax.tensor<[n, 4], f32>, %w: !relax.tensor<[3, 4], bool>, %v: !relax.tensor<[4], f32>) -> !relax.object {
  %same = relax.where %c, %x, %x
  %scalar = relax.where %s, %x, %x
  %different = relax.where %c, %x, %y
  %wide = relax.where %w, %v, %v
  %t = relax.tuple(%same, %scalar, %different, %wide) : !relax.object
  relax.return %t
}

// -----

// astype to the data type x has is x; to another data type it stays.

// CHECK-LABEL: @astype
// CHECK-NEXT:    %half = relax.astype %x {dtype = f16} : !relax.tensor<[n, 4], f16>
// CHECK-NEXT:    %wider = relax.astype %i {dtype = i64} : !relax.tensor<[2, 3], i64>
// CHECK-NEXT:    %t = relax.tuple(%x, %i, %half, %wider) : !relax.object
// CHECK-NEXT:    relax.return %t
relax.function @astype(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[2, 3], i32>) -> !relax.object {
  %same = relax.astype %x {dtype = f32}
  %int_same = relax.astype %i {dtype = i32}
  %half = relax.astype %x {dtype = f16}
  %wider = relax.astype %i {dtype = i64}
  %t = relax.tuple(%same, %int_same, %half, %wider) : !relax.object
  relax.return %t
}

// -----

// broadcast_to the shape x has is x; to a larger shape it stays.

// CHECK-LABEL: @broadcast_to
// CHECK-NEXT:    %s3n4 = relax.shape [3, n, 4] : !relax.shape<[3, n, 4]>
// CHECK-NEXT:    %more_dims = relax.broadcast_to %x, %s3n4 : !relax.tensor<[3, n, 4], f32>
// CHECK-NEXT:    %s24 = relax.shape [2, 4] : !relax.shape<[2, 4]>
// CHECK-NEXT:    %larger = relax.broadcast_to %v, %s24 : !relax.tensor<[2, 4], f32>
// CHECK-NEXT:    %t = relax.tuple(%x, %i, %more_dims, %larger) : !relax.object
// CHECK-NEXT:    relax.return %t
relax.function @broadcast_to(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[2, 3], i32>, %v: !relax.tensor<[1, 4], f32>) -> !relax.object {
  %sn4 = relax.shape [n, 4]
  %same = relax.broadcast_to %x, %sn4
  %s23 = relax.shape [2, 3]
  %static = relax.broadcast_to %i, %s23
  %s3n4 = relax.shape [3, n, 4]
  %more_dims = relax.broadcast_to %x, %s3n4
  %s24 = relax.shape [2, 4]
  %larger = relax.broadcast_to %v, %s24
  %t = relax.tuple(%same, %static, %more_dims, %larger) : !relax.object
  relax.return %t
}

// -----

// On data TVM does not compute the operator on, the operations stay, so that a
// program that fails at run time still does: logical_not and logical_and of
// floats, negative of bool, bitwise_not of floats (logical_and of bools goes).

// CHECK-LABEL: @rejected_data
// CHECK-NEXT:    %n1 = relax.logical_not %x
// CHECK-NEXT:    %n2 = relax.logical_not %n1
// CHECK-NEXT:    %a = relax.logical_and %x, %x
// CHECK-NEXT:    %m1 = relax.negative %b
// CHECK-NEXT:    %m2 = relax.negative %m1
// CHECK-NEXT:    %w1 = relax.bitwise_not %x
// CHECK-NEXT:    %w2 = relax.bitwise_not %w1
// CHECK-NEXT:    %t = relax.tuple(%n2, %a, %m2, %w2, %b)
relax.function @rejected_data(%x: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<[4], bool>) -> !relax.object {
  %n1 = relax.logical_not %x
  %n2 = relax.logical_not %n1
  %a = relax.logical_and %x, %x
  %m1 = relax.negative %b
  %m2 = relax.negative %m1
  %w1 = relax.bitwise_not %x
  %w2 = relax.bitwise_not %w1
  %k = relax.logical_and %b, %b
  %t = relax.tuple(%n2, %a, %m2, %w2, %k) : !relax.object
  relax.return %t
}
