// RUN: relax-opt %s -p relax-simplify-shapes --split-input-file | filecheck %s
// RUN: relax-opt %s -p relax-simplify-shapes,relax-simplify-shapes --split-input-file | filecheck %s

// shape_of a tensor whose dimensions are known is a shape literal; an unknown
// shape stays.

// CHECK-LABEL: @shape_of
// CHECK-NEXT:    %s = relax.shape [n, 4] : !relax.shape<[n, 4]>
// CHECK-NEXT:    %u = relax.shape_of %y : !relax.shape<ndim = 2>
relax.function @shape_of(%x: !relax.tensor<[n, 4], f32>, %y: !relax.tensor<ndim = 2, f32>) -> !relax.tuple<shape<[n, 4]>, shape<ndim = 2>> {
  %s = relax.shape_of %x
  %u = relax.shape_of %y
  %t = relax.tuple(%s, %u)
  relax.return %t
}

// -----

// tensor_to_shape of a constant is a shape literal, and what uses it learns
// the dimensions; size of a static tensor is a constant.

// CHECK-LABEL: @tensor_to_shape_and_size
// CHECK-NEXT:    %s = relax.shape [2, 8] : !relax.shape<[2, 8]>
// CHECK-NEXT:    %r = relax.reshape %x, %s : !relax.tensor<[2, 8], f32>
// CHECK-NEXT:    %size = relax.constant dense<[], i64, 16> : !relax.tensor<[], i64>
// CHECK-NEXT:    %dynamic = relax.size %y : !relax.tensor<[], i64>
relax.function @tensor_to_shape_and_size(%x: !relax.tensor<[16], f32>, %y: !relax.tensor<[n], f32>) -> !relax.object {
  %c = relax.constant dense<[2], i64, [2, 8]>
  %s = relax.tensor_to_shape %c : !relax.shape<ndim = 2>
  %r = relax.reshape %x, %s : !relax.tensor<ndim = 2, f32>
  %size = relax.size %r
  %dynamic = relax.size %y
  %t = relax.tuple(%r, %size, %dynamic) : !relax.object
  relax.return %t
}

// -----

// Reshape chains collapse; a reshape to the shape its operand has is the operand.

// CHECK-LABEL: @reshape_chain
// CHECK-NEXT:    %s2 = relax.shape [4 * n]
// CHECK-NEXT:    %r2 = relax.reshape %x, %s2 : !relax.tensor<[4 * n], f32>
// CHECK-NEXT:    %r4 = relax.tuple(%x, %r2)
relax.function @reshape_chain(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  %s1 = relax.shape [n, 2, 2]
  %r1 = relax.reshape %x, %s1
  %s2 = relax.shape [n * 4]
  %r2 = relax.reshape %r1, %s2
  %s3 = relax.shape [n, 4]
  %r3 = relax.reshape %r2, %s3
  %r4 = relax.tuple(%r3, %r2) : !relax.object
  relax.return %r4
}

// -----

// A target with 0 (the operand's length there) depends on the intermediate
// shape: the chain stays.

// CHECK-LABEL: @reshape_copy_dimension
// CHECK:         %r1 = relax.reshape %x, %s1 : !relax.tensor<[3, 4], f32>
// CHECK-NEXT:    %s2 = relax.shape [0, 2, -1]
// CHECK-NEXT:    %r2 = relax.reshape %r1, %s2 : !relax.tensor<[3, 2, 2], f32>
relax.function @reshape_copy_dimension(%x: !relax.tensor<[2, 6], f32>) -> !relax.tensor<[3, 2, 2], f32> {
  %s1 = relax.shape [3, 4]
  %r1 = relax.reshape %x, %s1
  %s2 = relax.shape [0, 2, -1]
  %r2 = relax.reshape %r1, %s2
  relax.return %r2
}

// -----

// A match_cast to the type its value has goes (TVM's canonicalization test_same_shape).

// CHECK-LABEL: @same_shape
// CHECK-NEXT:    %q = relax.add %x, %x : !relax.tensor<[m, n], f32>
// CHECK-NEXT:    relax.return %q
relax.function @same_shape(%x: !relax.tensor<[m, n], f32>) -> !relax.tensor<[m, n], f32> {
  %z = relax.match_cast %x : !relax.tensor<[m, n], f32>
  %q = relax.add %z, %x
  relax.return %q
}

// -----

// A match_cast binding variables its value's shape does not determine stays
// (TVM's test_change_shape).

// CHECK-LABEL: @change_shape
// CHECK-NEXT:    %z = relax.match_cast %x : !relax.tensor<[o, p]>
// CHECK-NEXT:    %q = relax.add %z, %x : !relax.tensor<[o, p]>
relax.function @change_shape(%x: !relax.tensor<ndim = 2>) -> !relax.tensor<ndim = 2> {
  %z = relax.match_cast %x : !relax.tensor<[o, p]>
  %q = relax.add %z, %x : !relax.tensor<[o, p]>
  relax.return %q
}

// -----

// Variables a match_cast binds from a known shape are replaced by their values
// everywhere after it, and the cast goes (TVM's
// test_replace_symbolic_variable_and_remove_match_cast, with literals and nested
// regions).

// CHECK-LABEL: @replace_variables
// CHECK-NEXT:    %q = relax.add %x, %x : !relax.tensor<[m, n], f32>
// CHECK-NEXT:    %s = relax.shape [m, n + 1] : !relax.shape<[m, n + 1]>
// CHECK-NEXT:    %p = relax.prim_value m * n : !relax.prim<i64, m * n>
// CHECK-NEXT:    %f = relax.lambda (%a: !relax.tensor<[m, n], f32>) -> !relax.tensor<[m, n], f32> {
// CHECK-NEXT:      relax.return %a
// CHECK-NEXT:    }
relax.function @replace_variables(%x: !relax.tensor<[m, n], f32>) -> !relax.object {
  %z = relax.match_cast %x : !relax.tensor<[o, p], f32>
  %q = relax.add %z, %x
  %s = relax.shape [o, p + 1]
  %p = relax.prim_value o * p
  %f = relax.lambda (%a: !relax.tensor<[o, p], f32>) -> !relax.tensor<[o, p], f32> {
    relax.return %a
  }
  %t = relax.tuple(%q, %s, %p, %f) : !relax.object
  relax.return %t
}

// -----

// Tuples and prim values bind variables too.

// CHECK-LABEL: @tuple_and_prim
// CHECK-NEXT:    %e = relax.tuple_get_item %x[0] : !relax.tensor<[m, n]>
// CHECK-NEXT:    %q = relax.add %e, %e : !relax.tensor<[m, n]>
// CHECK-NEXT:    %s = relax.shape [n + 1, m] : !relax.shape<[n + 1, m]>
relax.function @tuple_and_prim(%x: !relax.tuple<tensor<[m, n]>>, %v: !relax.prim<i64, n + 1>) -> !relax.object {
  %z = relax.match_cast %x : !relax.tuple<tensor<[o, p]>>
  %e = relax.tuple_get_item %z[0]
  %q = relax.add %e, %e
  %k = relax.match_cast %v : !relax.prim<i64, k>
  %s = relax.shape [k, o]
  %t = relax.tuple(%q, %s) : !relax.object
  relax.return %t
}

// -----

// Static shapes propagate once the variables are known (TVM's
// test_fold_variables_from_match_cast).

// CHECK-LABEL: @fold_variables
// CHECK-NEXT:    %t = relax.tuple(%A, %B)
// CHECK-NEXT:    %lhs = relax.concat %t {axis = 0} : !relax.tensor<[32, 16], f32>
// CHECK-NEXT:    %proj = relax.matmul %lhs, %state : !relax.tensor<[32], f32>
// CHECK-NEXT:    %s = relax.shape [32] : !relax.shape<[32]>
// CHECK-NEXT:    relax.return %proj
relax.function @fold_variables(%state: !relax.tensor<[16], f32>, %A: !relax.tensor<[16, 16], f32>, %B: !relax.tensor<[16, 16], f32>) -> !relax.tensor<ndim = 1, f32> {
  %lhs_A = relax.match_cast %A : !relax.tensor<[n1, m], f32>
  %lhs_B = relax.match_cast %B : !relax.tensor<[n2, m], f32>
  %rhs = relax.match_cast %state : !relax.tensor<[m], f32>
  %t = relax.tuple(%lhs_A, %lhs_B)
  %lhs = relax.concat %t {axis = 0} : !relax.tensor<[n1 + n2, m], f32>
  %proj = relax.matmul %lhs, %rhs : !relax.tensor<[n1 + n2], f32>
  %s = relax.shape [n1 + n2]
  relax.return %proj
}

// -----

// Casts that check something stay: inconsistent definitions (TVM's
// test_inconsistent_match_cast_raises_error; here the function is left alone),
// a variable already bound, a repeated variable.

// CHECK-LABEL: @inconsistent
// CHECK-NEXT:    %lhs_A = relax.match_cast %A : !relax.tensor<[n1, m], f32>
// CHECK-NEXT:    %lhs_B = relax.match_cast %B : !relax.tensor<[n2, m], f32>
relax.function @inconsistent(%A: !relax.tensor<[16, 16], f32>, %B: !relax.tensor<[32, 32], f32>) -> !relax.tensor<ndim = 2, f32> {
  %lhs_A = relax.match_cast %A : !relax.tensor<[n1, m], f32>
  %lhs_B = relax.match_cast %B : !relax.tensor<[n2, m], f32>
  relax.return %lhs_B
}

// CHECK-LABEL: @checks
// CHECK-NEXT:    %a = relax.match_cast %y : !relax.tensor<[n], f32>
// CHECK-NEXT:    %b = relax.match_cast %z : !relax.tensor<[k, k], f32>
relax.function @checks(%x: !relax.tensor<[n], f32>, %y: !relax.tensor<[m], f32>, %z: !relax.tensor<[m, p], f32>) -> !relax.object {
  %a = relax.match_cast %y : !relax.tensor<[n], f32>
  %b = relax.match_cast %z : !relax.tensor<[k, k], f32>
  %t = relax.tuple(%a, %b) : !relax.object
  relax.return %t
}

// -----

// A variable bound in a branch is replaced in that branch only.

// CHECK-LABEL: @branches
// CHECK-NEXT:    %r = relax.if %c : !relax.tensor<ndim = 1, f32> {
// CHECK-NEXT:      %s = relax.shape [n] : !relax.shape<[n]>
// CHECK-NEXT:      relax.yield %x
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %b = relax.match_cast %y : !relax.tensor<[k], f32>
// CHECK-NEXT:      %s2 = relax.shape [k]
relax.function @branches(%c: !relax.tensor<[], bool>, %x: !relax.tensor<[n], f32>, %y: !relax.tensor<ndim = 1, f32>) -> !relax.tensor<ndim = 1, f32> {
  %r = relax.if %c : !relax.tensor<ndim = 1, f32> {
    %a = relax.match_cast %x : !relax.tensor<[k], f32>
    %s = relax.shape [k]
    relax.yield %a
  } else {
    %b = relax.match_cast %y : !relax.tensor<[k], f32>
    %s2 = relax.shape [k]
    %cast = relax.match_cast %b : !relax.tensor<[n], f32>
    relax.yield %cast
  }
  relax.return %r
}

// -----

// Expressions in types and literals are simplified; a dataflow block left
// empty goes.

// CHECK-LABEL: @simplify
// CHECK-SAME:    (%n: !relax.prim<i64, n>, %x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
// CHECK-NEXT:    %s = relax.shape [4 * n, 1] : !relax.shape<[4 * n, 1]>
// CHECK-NEXT:    %p = relax.prim_value n : !relax.prim<i64, n>
// CHECK-NEXT:    relax.return %x
relax.function @simplify(%n: !relax.prim<i64, n>, %x: !relax.tensor<[n + 1 - 1], f32>) -> !relax.tensor<[(n * 2) floordiv 2], f32> {
  %s = relax.shape [n * 2 * 2, n - n + 1]
  %p = relax.prim_value (n + 3) - 3
  %y = relax.dataflow {
    %z = relax.match_cast %x : !relax.tensor<[n], f32>
    relax.output %z
  }
  relax.return %y
}

// -----

// Redundant reshapes (TVM's RemoveRedundantReshape tests: one_arg, two_arg,
// three_arg): a chain collapses to its last reshape, and a reshape to the
// shape its operand has goes with the dataflow block it leaves empty.

// CHECK-LABEL: @reshape_one_arg
// CHECK-NEXT:    %gv = relax.dataflow {
// CHECK-NEXT:      %s = relax.shape [1, 1001]
// CHECK-NEXT:      %gv_1 = relax.reshape %x, %s : !relax.tensor<[1, 1001], f16>
// CHECK-NEXT:      relax.output %gv_1
// CHECK-NEXT:    }
relax.function @reshape_one_arg(%x: !relax.tensor<[1, 1001, 1, 1], f16>) -> !relax.tensor<[1, 1001], f16> {
  %gv = relax.dataflow {
    %s = relax.shape [1, 1001]
    %lv = relax.reshape %x, %s
    %lv1 = relax.reshape %lv, %s
    %gv = relax.reshape %lv1, %s
    relax.output %gv
  }
  relax.return %gv
}

// CHECK-LABEL: @reshape_two_arg
// CHECK-NEXT:    %lv1 = relax.dataflow {
// CHECK-NEXT:      %s2 = relax.shape [1, 1001]
// CHECK-NEXT:      %lv1_1 = relax.reshape %x, %s2 : !relax.tensor<[1, 1001], f16>
// CHECK-NEXT:      relax.output %lv1_1
relax.function @reshape_two_arg(%x: !relax.tensor<[1, 1001, 1, 1], f16>) -> !relax.tensor<[1, 1001], f16> {
  %lv1 = relax.dataflow {
    %s1 = relax.shape [1, 1001, 1]
    %lv = relax.reshape %x, %s1
    %s2 = relax.shape [1, 1001]
    %lv1 = relax.reshape %lv, %s2
    relax.output %lv1
  }
  relax.return %lv1
}

// CHECK-LABEL: @reshape_three_arg
// CHECK-NEXT:    relax.return %x
relax.function @reshape_three_arg(%x: !relax.tensor<[1, 1001, 1, 1], f16>) -> !relax.tensor<[1, 1001, 1, 1], f16> {
  %lv = relax.dataflow {
    %s = relax.shape [1, 1001, 1, 1]
    %lv = relax.reshape %x, %s
    relax.output %lv
  }
  relax.return %lv
}
