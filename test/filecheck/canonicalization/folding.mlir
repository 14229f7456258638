// RUN: relax-opt %s -p canonicalize --split-input-file | filecheck %s
// RUN: relax-opt %s -p canonicalize,canonicalize --split-input-file | filecheck %s

// Constant folding of one binding through the interpreter's NumPy kernels
// (relax_dialect/canonicalization/folding.py), within the default size limits.

// An operator of constants becomes a constant; a chain folds to its last value
// and the constants left unused go. A binding using a parameter stays.

// CHECK-LABEL: @operator_of_constants
// CHECK-NEXT:    %b = relax.constant dense<[2, 2], f32, [1.0, 4.0, 9.0, 16.0]> : !relax.tensor<[2, 2], f32>
// CHECK-NEXT:    %i = relax.constant dense<[3], i32, [-2, -1, 0]> : !relax.tensor<[3], i32>
// CHECK-NEXT:    %y = relax.add %x, %i : !relax.tensor<[n, 3], i32>
// CHECK-NEXT:    %t = relax.tuple(%b, %y) : !relax.object
// CHECK-NEXT:    relax.return %t
relax.function @operator_of_constants(%x: !relax.tensor<[n, 3], i32>) -> !relax.object {
  %c = relax.constant dense<[2, 2], f32, [1.0, 2.0, 3.0, 4.0]>
  %a = relax.multiply %c, %c
  %b = relax.maximum %a, %c
  %k = relax.constant dense<[3], i32, [7, 8, 9]>
  %nine = relax.constant dense<[], i32, 9>
  %i = relax.subtract %k, %nine
  %y = relax.add %x, %i
  %t = relax.tuple(%b, %y) : !relax.object
  relax.return %t
}

// -----

// Folding follows IEEE: 0/0 is NaN, 1/0 is infinity, the negation of +0.0 is
// -0.0, and -0.0 - -0.0 is +0.0.

// CHECK-LABEL: @ieee
// CHECK-NEXT:    %q = relax.constant dense<[3], f32, [nan, inf, -inf]> : !relax.tensor<[3], f32>
// CHECK-NEXT:    %m = relax.constant dense<[], f32, -0.0> : !relax.tensor<[], f32>
// CHECK-NEXT:    %p = relax.constant dense<[], f32, 0.0> : !relax.tensor<[], f32>
// CHECK-NEXT:    %t = relax.tuple(%q, %m, %p) : !relax.object
// CHECK-NEXT:    relax.return %t
relax.function @ieee() -> !relax.object {
  %n = relax.constant dense<[3], f32, [0.0, 1.0, -1.0]>
  %z = relax.constant dense<[], f32, 0.0>
  %q = relax.divide %n, %z
  %m = relax.negative %z
  %p = relax.subtract %m, %m
  %t = relax.tuple(%q, %m, %p) : !relax.object
  relax.return %t
}

// -----

// Operands known from their types: a shape of static dimensions, prim values
// with known values; a field of a tuple parameter whose type determines it.

// CHECK-LABEL: @known_from_types
// CHECK-NEXT:    %a = relax.constant dense<[3], i64, [0, 2, 4]> : !relax.tensor<[3], i64>
// CHECK-NEXT:    %st = relax.constant dense<[2], i64, [2, 3]> : !relax.tensor<[2], i64>
// CHECK-NEXT:    %f = relax.shape [2, 3] : !relax.shape<[2, 3]>
// CHECK-NEXT:    %r = relax.tuple(%a, %st, %f) : !relax.object
// CHECK-NEXT:    relax.return %r
relax.function @known_from_types(%x: !relax.tensor<[2, 3], f32>, %p: !relax.tuple<shape<[2, 3]>, tensor<[n], f32>>) -> !relax.object {
  %start = relax.prim_value 0
  %end = relax.prim_value 6
  %step = relax.prim_value 2
  %a = relax.arange %start, %end, %step {dtype = i64}
  %s = relax.shape_of %x
  %st = relax.shape_to_tensor %s
  %f = relax.tuple_get_item %p[0]
  %r = relax.tuple(%a, %st, %f) : !relax.object
  relax.return %r
}

// -----

// Impure operations, and operators whose kernel fails (an index out of
// range), stay.

// CHECK-LABEL: @impure_and_failing
// CHECK-NEXT:    %c = relax.constant dense<[2], f32, [1.0, 2.0]> : !relax.tensor<[2], f32>
// CHECK-NEXT:    %p = relax.print %c
// CHECK-NEXT:    %i = relax.constant dense<[1], i64, 7> : !relax.tensor<[1], i64>
// CHECK-NEXT:    %t = relax.take %c, %i {axis = 0} : !relax.tensor<[1], f32>
// CHECK-NEXT:    relax.return %t
relax.function impure @impure_and_failing() -> !relax.tensor<[1], f32> {
  %c = relax.constant dense<[2], f32, [1.0, 2.0]>
  %p = relax.print %c
  %i = relax.constant dense<[1], i64, [7]>
  %t = relax.take %c, %i {axis = 0}
  relax.return %t
}

// -----

// An operation without tensor operands folds up to 1024 elements (TVM's
// limit: cheaper to compute at run time than to store); one with tensor
// operands up to 1 << 20 elements.

// CHECK-LABEL: @size_limits
// CHECK-NEXT:    %created = relax.constant dense<[1024], f32, 0.0> : !relax.tensor<[1024], f32>
// CHECK-NEXT:    %s1025 = relax.shape [1025] : !relax.shape<[1025]>
// CHECK-NEXT:    %not_created = relax.zeros %s1025 {dtype = f32} : !relax.tensor<[1025], f32>
// CHECK-NEXT:    %one = relax.constant dense<[1], f32, 1.0> : !relax.tensor<[1], f32>
// CHECK-NEXT:    %grown = relax.constant dense<[1048576], f32, 1.0> : !relax.tensor<[1048576], f32>
// CHECK-NEXT:    %s_over = relax.shape [1048577] : !relax.shape<[1048577]>
// CHECK-NEXT:    %not_grown = relax.broadcast_to %one, %s_over : !relax.tensor<[1048577], f32>
// CHECK-NEXT:    %r = relax.tuple(%created, %not_created, %grown, %not_grown) : !relax.object
// CHECK-NEXT:    relax.return %r
relax.function @size_limits() -> !relax.object {
  %s1024 = relax.shape [1024]
  %created = relax.zeros %s1024 {dtype = f32}
  %s1025 = relax.shape [1025]
  %not_created = relax.zeros %s1025 {dtype = f32}
  %one = relax.constant dense<[1], f32, 1.0>
  %s_max = relax.shape [1048576]
  %grown = relax.broadcast_to %one, %s_max
  %s_over = relax.shape [1048577]
  %not_grown = relax.broadcast_to %one, %s_over
  %r = relax.tuple(%created, %not_created, %grown, %not_grown) : !relax.object
  relax.return %r
}

// -----

// call_tir of constants runs on the TIR executor relax-opt wires, up to 4096
// output elements; beyond, or with an argument that is not known, it stays.

func.func @copy(%a: tensor<4096xf32>, %out: tensor<4096xf32>) -> tensor<4096xf32> {
  func.return %a : tensor<4096xf32>
}
func.func @copy_large(%a: tensor<4097xf32>, %out: tensor<4097xf32>) -> tensor<4097xf32> {
  func.return %a : tensor<4097xf32>
}

// CHECK-LABEL: @call_tir
// CHECK-NEXT:    %small = relax.constant dense<[4096], f32, 2.0> : !relax.tensor<[4096], f32>
// CHECK-NEXT:    %d = relax.constant dense<[4097], f32, 2.0> : !relax.tensor<[4097], f32>
// CHECK-NEXT:    %large = relax.call_tir @copy_large(%d) : !relax.tensor<[4097], f32>
// CHECK-NEXT:    %unknown = relax.call_tir @copy(%x) : !relax.tensor<[4096], f32>
// CHECK-NEXT:    %r = relax.tuple(%small, %large, %unknown) : !relax.object
// CHECK-NEXT:    relax.return %r
relax.function @call_tir(%x: !relax.tensor<[4096], f32>) -> !relax.object {
  %c = relax.constant dense<[4096], f32, 2.0>
  %small = relax.call_tir @copy(%c) : !relax.tensor<[4096], f32>
  %d = relax.constant dense<[4097], f32, 2.0>
  %large = relax.call_tir @copy_large(%d) : !relax.tensor<[4097], f32>
  %unknown = relax.call_tir @copy(%x) : !relax.tensor<[4096], f32>
  %r = relax.tuple(%small, %large, %unknown) : !relax.object
  relax.return %r
}
