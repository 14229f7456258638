// RUN: relax-opt %s -p relax-fold-constant --split-input-file | filecheck %s
// RUN: relax-opt %s -p relax-fold-constant,relax-fold-constant --split-input-file | filecheck %s
// RUN: relax-opt %s -p 'relax-fold-constant{max-size=4 max-creation-size=2 max-tir-size=0}' --split-input-file | filecheck %s --check-prefix=SMALL

// An operator of constants becomes a constant; the operands left unused go.

// CHECK-LABEL: @single_op
// CHECK-NEXT:    %gv = relax.dataflow {
// CHECK-NEXT:      %gv_1 = relax.constant dense<[2, 2], f32, [2.0, 4.0, 6.0, 8.0]> : !relax.tensor<[2, 2], f32>
// CHECK-NEXT:      relax.output %gv_1
// SMALL-LABEL: @single_op
// SMALL:           relax.constant dense<[2, 2], f32, [2.0, 4.0, 6.0, 8.0]>
relax.function @single_op() -> !relax.tensor<[2, 2], f32> {
  %gv = relax.dataflow {
    %c0 = relax.constant dense<[2, 2], f32, [1.0, 2.0, 3.0, 4.0]>
    %gv = relax.add %c0, %c0
    relax.output %gv
  }
  relax.return %gv
}

// -----

// A chain folds to its last value (TVM's test_fold_multiple_relax_ops).

// CHECK-LABEL: @chain
// CHECK-NEXT:    %gv = relax.dataflow {
// CHECK-NEXT:      %gv_1 = relax.constant dense<[2], f32, [1.0, 5.0]> : !relax.tensor<[2], f32>
// CHECK-NEXT:      relax.output %gv_1
relax.function @chain() -> !relax.tensor<[2], f32> {
  %gv = relax.dataflow {
    %c0 = relax.constant dense<[2], f32, [1.0, 2.0]>
    %c1 = relax.constant dense<[2], f32, [0.0, 1.0]>
    %lv0 = relax.add %c0, %c1
    %lv1 = relax.multiply %c0, %lv0
    %gv = relax.subtract %lv1, %c1
    relax.output %gv
  }
  relax.return %gv
}

// -----

// Unlike TVM, bindings outside dataflow blocks fold too, in every nested region.

// CHECK-LABEL: @outside_dataflow
// CHECK-NEXT:    %r = relax.if %cond : !relax.tensor<[], i32> {
// CHECK-NEXT:      %b = relax.constant dense<[], i32, 36> : !relax.tensor<[], i32>
// CHECK-NEXT:      relax.yield %b
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %f = relax.lambda () -> !relax.tensor<[], i32> {
// CHECK-NEXT:        %d = relax.constant dense<[], i32, 7> : !relax.tensor<[], i32>
// CHECK-NEXT:        relax.return %d
// CHECK-NEXT:      }
relax.function @outside_dataflow(%cond: !relax.tensor<[], bool>) -> !relax.tensor<[], i32> {
  %c = relax.constant dense<[], i32, 3>
  %a = relax.add %c, %c
  %r = relax.if %cond : !relax.tensor<[], i32> {
    %b = relax.multiply %a, %a
    relax.yield %b
  } else {
    %f = relax.lambda () -> !relax.tensor<[], i32> {
      %one = relax.constant dense<[], i32, 1>
      %d = relax.add %a, %one
      relax.return %d
    }
    %e = relax.invoke %f() : !relax.tensor<[], i32>
    relax.yield %e
  }
  relax.return %r
}

// -----

// Integer data types are kept; a binding using a parameter stays.

// CHECK-LABEL: @mixed
// CHECK-NEXT:    %lv = relax.constant dense<[3], i32, [2, 3, 4]> : !relax.tensor<[3], i32>
// CHECK-NEXT:    %gv = relax.add %lv, %x : !relax.tensor<[3], i32>
// CHECK-NEXT:    relax.return %gv
relax.function @mixed(%x: !relax.tensor<[3], i32>) -> !relax.tensor<[3], i32> {
  %c = relax.constant dense<[3], i32, [1, 2, 3]>
  %one = relax.constant dense<[], i32, 1>
  %lv = relax.add %c, %one
  %gv = relax.add %lv, %x
  relax.return %gv
}

// -----

// A data-dependent reshape target folds to a shape, and the reshape gets
// static dimensions (TVM's test_fold_multiple_relax_ops_with_data_dependent_reshape).

// CHECK-LABEL: @data_dependent_reshape
// CHECK-NEXT:    %gv = relax.dataflow {
// CHECK-NEXT:      %lv2 = relax.shape [16, 16] : !relax.shape<[16, 16]>
// CHECK-NEXT:      %gv_1 = relax.reshape %data, %lv2 : !relax.tensor<[16, 16], f32>
// CHECK-NEXT:      relax.output %gv_1
// CHECK-NEXT:    }
relax.function @data_dependent_reshape(%data: !relax.tensor<[256], f32>) -> !relax.tensor<ndim = 2, f32> {
  %gv = relax.dataflow {
    %c0 = relax.constant dense<[2], i64, [8, 8]>
    %c1 = relax.constant dense<[2], i64, [1, 1]>
    %lv0 = relax.add %c0, %c0
    %target_shape = relax.multiply %lv0, %c1
    %lv2 = relax.tensor_to_shape %target_shape : !relax.shape<ndim = 2>
    %gv = relax.reshape %data, %lv2 : !relax.tensor<ndim = 2, f32>
    relax.output %gv
  }
  relax.return %gv
}

// -----

// Shapes and prim values with known values are operands too
// (TVM's test_fold_shape_computation).

// CHECK-LABEL: @shape_computation
// CHECK-NEXT:    %gv = relax.dataflow {
// CHECK-NEXT:      %gv_1 = relax.constant dense<[1, 1], i64, 5> : !relax.tensor<[1, 1], i64>
// CHECK-NEXT:      relax.output %gv_1
relax.function @shape_computation(%data: !relax.tensor<[5, 4, 3, 2], f32>) -> !relax.tensor<[1, 1], i64> {
  %gv = relax.dataflow {
    %shape = relax.shape_of %data
    %lv = relax.shape_to_tensor %shape
    %indices = relax.constant dense<[1], i64, [0]>
    %lv1 = relax.take %lv, %indices {axis = 0}
    %lv2 = relax.expand_dims %lv1 {axis = [0]}
    %t = relax.tuple(%lv2)
    %gv = relax.concat %t {axis = 0}
    relax.output %gv
  }
  relax.return %gv
}

// -----

// shape_of a tensor of static shape, a field of a constant tuple, arange of
// prim values.

// CHECK-LABEL: @leaves
// CHECK-NEXT:    %s = relax.shape [2, 3] : !relax.shape<[2, 3]>
// CHECK-NEXT:    %c = relax.constant dense<[2], f32, [1.0, 2.0]> : !relax.tensor<[2], f32>
// CHECK-NEXT:    %a = relax.constant dense<[3], i64, [0, 2, 4]> : !relax.tensor<[3], i64>
// CHECK-NEXT:    %r = relax.tuple(%s, %c, %a)
relax.function @leaves(%x: !relax.tensor<[2, 3], f32>) -> !relax.object {
  %s = relax.shape_of %x
  %c = relax.constant dense<[2], f32, [1.0, 2.0]>
  %t = relax.tuple(%c, %x)
  %f = relax.tuple_get_item %t[0]
  %start = relax.prim_value 0
  %end = relax.prim_value 6
  %step = relax.prim_value 2
  %a = relax.arange %start, %end, %step {dtype = i64}
  %r = relax.tuple(%s, %f, %a) : !relax.object
  relax.return %r
}

// -----

// Impure operations, and operators whose kernel fails, stay.

// CHECK-LABEL: @impure_and_failing
// CHECK-NEXT:    %c = relax.constant dense<[2], f32, [1.0, 2.0]> : !relax.tensor<[2], f32>
// CHECK-NEXT:    %p = relax.print %c
// CHECK-NEXT:    %i = relax.constant dense<[1], i64, 7> : !relax.tensor<[1], i64>
// CHECK-NEXT:    %t = relax.take %c, %i {axis = 0} : !relax.tensor<[1], f32>
// CHECK-NEXT:    %k = relax.call_packed "my.f"(%c) : !relax.object
relax.function impure @impure_and_failing() -> !relax.tensor<[1], f32> {
  %c = relax.constant dense<[2], f32, [1.0, 2.0]>
  %p = relax.print %c
  %i = relax.constant dense<[1], i64, [7]>
  %t = relax.take %c, %i {axis = 0}
  %k = relax.call_packed "my.f"(%c) : !relax.object
  relax.return %t
}

// -----

// Creation operations fold up to 1024 elements (max-creation-size, as TVM);
// with tensor operands the limit is max-size.

// CHECK-LABEL: @sizes
// CHECK-NEXT:    %small = relax.constant dense<[4, 4], f32, 0.0> : !relax.tensor<[4, 4], f32>
// CHECK-NEXT:    %boundary = relax.constant dense<[1024], f32, 0.0> : !relax.tensor<[1024], f32>
// CHECK-NEXT:    %s2048 = relax.shape [2048]
// CHECK-NEXT:    %large = relax.zeros %s2048 {dtype = f32} : !relax.tensor<[2048], f32>
// CHECK-NEXT:    %grown = relax.constant dense<[2048], f32, 1.0> : !relax.tensor<[2048], f32>
// SMALL-LABEL: @sizes
// SMALL-NEXT:    %s44 = relax.shape [4, 4]
// SMALL-NEXT:    %small = relax.zeros %s44 {dtype = f32}
// SMALL:         %one = relax.constant dense<[1], f32, 1.0>
// SMALL-NEXT:    %grown = relax.broadcast_to %one, %s2048
relax.function @sizes() -> !relax.object {
  %s44 = relax.shape [4, 4]
  %small = relax.zeros %s44 {dtype = f32}
  %s1024 = relax.shape [1024]
  %boundary = relax.zeros %s1024 {dtype = f32}
  %s2048 = relax.shape [2048]
  %large = relax.zeros %s2048 {dtype = f32}
  %one = relax.constant dense<[1], f32, 1.0>
  %grown = relax.broadcast_to %one, %s2048
  %r = relax.tuple(%small, %boundary, %large, %grown) : !relax.object
  relax.return %r
}

// -----

// call_tir of constants runs on the interpreter's TIR executor (TVM's
// test_one_fold_addone, test_two_hop_addone, test_one_fold_transpose,
// test_fold_tuple_output); max-tir-size=0 turns it off.

func.func @addone(%a: tensor<4x4xf32>, %out: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %one = arith.constant 1.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xf32>) outs(%out : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %v = arith.addf %x, %one : f32
    linalg.yield %v : f32
  } -> tensor<4x4xf32>
  func.return %r : tensor<4x4xf32>
}
func.func @transpose(%a: tensor<2x3xf32>, %out: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %r = linalg.transpose ins(%a : tensor<2x3xf32>) outs(%out : tensor<3x2xf32>) permutation = [1, 0]
  func.return %r : tensor<3x2xf32>
}
func.func @split(%a: tensor<4x2xf32>, %o1: tensor<2x2xf32>, %o2: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  %u = tensor.extract_slice %a[0, 0] [2, 2] [1, 1] : tensor<4x2xf32> to tensor<2x2xf32>
  %l = tensor.extract_slice %a[2, 0] [2, 2] [1, 1] : tensor<4x2xf32> to tensor<2x2xf32>
  func.return %u, %l : tensor<2x2xf32>, tensor<2x2xf32>
}

// CHECK-LABEL: @call_tir
// CHECK-NEXT:    %lv1 = relax.constant dense<[4, 4], f32, 3.0> : !relax.tensor<[4, 4], f32>
// CHECK-NEXT:    %t = relax.constant dense<[3, 2], f32, [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]> : !relax.tensor<[3, 2], f32>
// CHECK-NEXT:    %s0 = relax.constant dense<[2, 2], f32, [0.0, 1.0, 2.0, 3.0]> : !relax.tensor<[2, 2], f32>
// CHECK-NEXT:    %s1 = relax.constant dense<[2, 2], f32, [4.0, 5.0, 6.0, 7.0]> : !relax.tensor<[2, 2], f32>
// CHECK-NEXT:    %s = relax.tuple(%s0, %s1)
// CHECK-NEXT:    %r = relax.tuple(%lv1, %t, %s)
// SMALL-LABEL: @call_tir
// SMALL:         relax.call_tir @addone
relax.function @call_tir() -> !relax.object {
  %c = relax.constant dense<[4, 4], f32, 1.0>
  %lv0 = relax.call_tir @addone(%c) : !relax.tensor<[4, 4], f32>
  %lv1 = relax.call_tir @addone(%lv0) : !relax.tensor<[4, 4], f32>
  %d = relax.constant dense<[2, 3], f32, [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]>
  %t = relax.call_tir @transpose(%d) : !relax.tensor<[3, 2], f32>
  %e = relax.constant dense<[4, 2], f32, [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]>
  %s = relax.call_tir @split(%e) : !relax.tuple<tensor<[2, 2], f32>, tensor<[2, 2], f32>>
  %r = relax.tuple(%lv1, %t, %s) : !relax.object
  relax.return %r
}

// -----

// A call_tir whose output shape is symbolic, or with an unknown argument, stays
// (TVM's test_fold_mixed_case).

func.func @addone_dyn(%a: tensor<?x4xf32>, %out: tensor<?x4xf32>) -> tensor<?x4xf32> {
  func.return %a : tensor<?x4xf32>
}

// CHECK-LABEL: @mixed_tir
// CHECK-NEXT:    %n = relax.match_cast %x : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:    %c = relax.constant
// CHECK-NEXT:    %lv0 = relax.call_tir @addone_dyn(%c) : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:    %lv1 = relax.call_tir @addone_dyn(%n) : !relax.tensor<[2, 4], f32>
relax.function @mixed_tir(%x: !relax.tensor<ndim = 2, f32>) -> !relax.object {
  %n = relax.match_cast %x : !relax.tensor<[n, 4], f32>
  %c = relax.constant dense<[2, 4], f32, 1.0>
  %lv0 = relax.call_tir @addone_dyn(%c) : !relax.tensor<[n, 4], f32>
  %lv1 = relax.call_tir @addone_dyn(%n) : !relax.tensor<[2, 4], f32>
  %r = relax.tuple(%lv0, %lv1) : !relax.object
  relax.return %r
}

// -----

// A more precise type that would make an operation provably invalid (here in a
// branch that may never run) is not propagated: the fold keeps the declared type.

// CHECK-LABEL: @keeps_declared_type
// CHECK-NEXT:    %s = relax.shape [3, 5] : !relax.shape<ndim = 2>
// CHECK-NEXT:    %s2 = relax.shape [4, 4]
// CHECK-NEXT:    %r = relax.if %cond
// CHECK-NEXT:      %y = relax.reshape %x, %s : !relax.tensor<ndim = 2, f32>
relax.function @keeps_declared_type(%x: !relax.tensor<[16], f32>, %cond: !relax.tensor<[], bool>) -> !relax.tensor<ndim = 2, f32> {
  %c = relax.constant dense<[2], i64, [3, 5]>
  %s = relax.tensor_to_shape %c : !relax.shape<ndim = 2>
  %s2 = relax.shape [4, 4]
  %r = relax.if %cond : !relax.tensor<ndim = 2, f32> {
    %y = relax.reshape %x, %s : !relax.tensor<ndim = 2, f32>
    relax.yield %y
  } else {
    %z = relax.reshape %x, %s2 : !relax.tensor<ndim = 2, f32>
    relax.yield %z
  }
  relax.return %r
}

// -----

// Folding the bindings between two dataflow blocks leaves them adjacent: they
// are merged, as the normal form asks.

// CHECK-LABEL: @merges_dataflow_blocks
// CHECK-NEXT:    %a, %b = relax.dataflow {
// CHECK-NEXT:      %a_1 = relax.exp %x
// CHECK-NEXT:      %b_1 = relax.constant dense<[2], f32, [4.0, 16.0]>
// CHECK-NEXT:      relax.output %a_1, %b_1
// CHECK-NEXT:    }
// CHECK-NEXT:    %t = relax.tuple(%a, %b)
relax.function @merges_dataflow_blocks(%x: !relax.tensor<[2], f32>) -> !relax.object {
  %a = relax.dataflow {
    %a = relax.exp %x
    relax.output %a
  }
  %c = relax.constant dense<[2], f32, [1.0, 2.0]>
  %d = relax.add %c, %c
  %b = relax.dataflow {
    %b = relax.multiply %d, %d
    relax.output %b
  }
  %t = relax.tuple(%a, %b) : !relax.object
  relax.return %t
}

// -----

// An output of a dataflow block is known when its value is: a use after the
// block folds in the same run (as TVM looks up the binding through the block).

// CHECK-LABEL: @through_output
// CHECK:         %{{.*}} = relax.constant dense<[2], f32, [3.0, 5.0]>
// CHECK-NOT:     relax.add
// CHECK:         relax.return
relax.function @through_output() -> !relax.tensor<[2], f32> {
  %gv = relax.dataflow {
    %c0 = relax.constant dense<[2], f32, [1.0, 2.0]>
    %lv = relax.add %c0, %c0
    relax.output %lv
  }
  %c1 = relax.constant dense<[2], f32, [1.0, 1.0]>
  %r = relax.add %gv, %c1
  relax.return %r
}
