// RUN: relax-opt %s -p relax-dce --split-input-file | filecheck %s
// RUN: relax-opt %s -p relax-dce,relax-dce --split-input-file | filecheck %s

// Unused bindings of a dataflow block go, and the bindings only they used
// (TVM's test_simple).

// CHECK-LABEL: @simple
// CHECK-NEXT:    %gv = relax.dataflow {
// CHECK-NEXT:      %lv0 = relax.permute_dims %x
// CHECK-NEXT:      %gv_1 = relax.add %lv0, %lv0
// CHECK-NEXT:      relax.output %gv_1
// CHECK-NEXT:    }
// CHECK-NEXT:    relax.return %gv
relax.function @simple(%x: !relax.tensor<[2, 3], f32>, %b: !relax.tensor<[2, 3], f32>) -> !relax.tensor<[3, 2], f32> {
  %gv = relax.dataflow {
    %lv0 = relax.permute_dims %x {axes = [1, 0]}
    %lv1 = relax.add %x, %b
    %lv2 = relax.multiply %lv1, %lv1
    %gv = relax.add %lv0, %lv0
    relax.output %gv
  }
  relax.return %gv
}

// -----

// A dataflow output nobody reads stops being exported, and what computed it
// goes; bindings outside dataflow blocks go too (TVM's test_2block).

// CHECK-LABEL: @two_blocks
// CHECK-NEXT:    %gv2 = relax.dataflow {
// CHECK-NEXT:      %gv2_1 = relax.permute_dims %x
// CHECK-NEXT:      relax.output %gv2_1
// CHECK-NEXT:    }
// CHECK-NEXT:    %gv3 = relax.astype %gv2 {dtype = f16}
// CHECK-NEXT:    relax.return %gv3
relax.function @two_blocks(%x: !relax.tensor<[2, 3], f32>) -> !relax.tensor<[3, 2], f16> {
  %gv2, %gv22 = relax.dataflow {
    %gv2 = relax.permute_dims %x {axes = [1, 0]}
    %gv21 = relax.permute_dims %gv2 {axes = [1, 0]}
    %gv22 = relax.add %gv21, %x
    relax.output %gv2, %gv22
  }
  %gv3 = relax.astype %gv2 {dtype = f16}
  %dead = relax.exp %gv22
  relax.return %gv3
}

// -----

// A dataflow block left empty goes, before or after the live one (TVM's
// test_unused_dfb and test_unused_dfb2).

// CHECK-LABEL: @dead_blocks
// CHECK-NEXT:    %gv_x = relax.astype %x {dtype = f16}
// CHECK-NEXT:    %lv3 = relax.dataflow {
// CHECK-NEXT:      %lv1 = relax.permute_dims %gv_x
// CHECK-NEXT:      %lv3_1 = relax.exp %lv1
// CHECK-NEXT:      relax.output %lv3_1
// CHECK-NEXT:    }
// CHECK-NEXT:    relax.return %lv3
relax.function @dead_blocks(%x: !relax.tensor<[2, 3], f32>) -> !relax.tensor<[3, 2], f16> {
  %lv0 = relax.dataflow {
    %lv0 = relax.permute_dims %x {axes = [1, 0]}
    relax.output %lv0
  }
  %gv_x = relax.astype %x {dtype = f16}
  %lv3 = relax.dataflow {
    %lv1 = relax.permute_dims %gv_x {axes = [1, 0]}
    %lv3 = relax.exp %lv1
    %lv4 = relax.permute_dims %lv0 {axes = [1, 0]}
    relax.output %lv3
  }
  %lv5 = relax.negative %lv3
  %lv6 = relax.dataflow {
    %lv6 = relax.negative %lv5
    relax.output %lv6
  }
  relax.return %lv3
}

// -----

// Removing the binding between two dataflow blocks merges them (normal form).

// CHECK-LABEL: @merge_blocks
// CHECK-NEXT:    %a, %c = relax.dataflow {
// CHECK-NEXT:      %a_1 = relax.exp %x
// CHECK-NEXT:      %c_1 = relax.sin %x
// CHECK-NEXT:      relax.output %a_1, %c_1
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = relax.add %a, %c
relax.function @merge_blocks(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  %a = relax.dataflow {
    %a = relax.exp %x
    relax.output %a
  }
  %b = relax.cos %a
  %c = relax.dataflow {
    %c = relax.sin %x
    relax.output %c
  }
  %r = relax.add %a, %c
  relax.return %r
}

// -----

// Impure operations, match_cast (which may fail at run time) and in-place calls
// stay; pure calls whose value is unused go.

// CHECK-LABEL: @effects
// CHECK-NEXT:    %p = relax.print %x
// CHECK-NEXT:    %a = relax.assert_op %c, %x
// CHECK-NEXT:    %o = relax.call_packed "my.log"(%x)
// CHECK-NEXT:    %m = relax.match_cast %x : !relax.tensor<[4], f32>
// CHECK-NEXT:    %i = relax.call_inplace_packed "my.scale"(%x)
// CHECK-NEXT:    %l = relax.call @log(%x)
// CHECK-NEXT:    relax.return %x
relax.function impure @effects(%x: !relax.tensor<[4], f32>, %c: !relax.tensor<[], bool>) -> !relax.tensor<[4], f32> {
  %p = relax.print %x {format = "{}"}
  %a = relax.assert_op %c, %x {format = "bad {}"}
  %o = relax.call_packed "my.log"(%x) : !relax.object
  %q = relax.call_pure_packed "my.exp"(%x) : !relax.tensor<[4], f32>
  %m = relax.match_cast %x : !relax.tensor<[4], f32>
  %i = relax.call_inplace_packed "my.scale"(%x) {inplace_indices = [0]} : !relax.tensor<[4], f32>
  %l = relax.call @log(%x) : !relax.tensor<[4], f32>
  %n = relax.call @pure(%x) : !relax.tensor<[4], f32>
  relax.return %x
}
relax.function private impure @log(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  %p = relax.print %x {format = "{}"}
  relax.return %x
}
relax.function private @pure(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  relax.return %x
}

// -----

// Inside branches and closures too; an unused `if` goes when its branches are
// pure, and stays (cleaned) when one has an effect.

// CHECK-LABEL: @nested
// CHECK-NEXT:    %kept = relax.if %c
// CHECK-NEXT:      %p = relax.print %x
// CHECK-NEXT:      relax.yield %x
// CHECK-NEXT:    } else {
// CHECK-NEXT:      relax.yield %x
// CHECK-NEXT:    }
// CHECK-NEXT:    %f = relax.lambda
// CHECK-NEXT:      relax.return %y
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = relax.invoke %f(%x)
// CHECK-NEXT:    relax.return %r
relax.function impure @nested(%x: !relax.tensor<[4], f32>, %c: !relax.tensor<[], bool>) -> !relax.tensor<[4], f32> {
  %gone = relax.if %c : !relax.tensor<[4], f32> {
    %e = relax.exp %x
    relax.yield %e
  } else {
    relax.yield %x
  }
  %kept = relax.if %c : !relax.tensor<[4], f32> {
    %p = relax.print %x {format = "{}"}
    %d = relax.sin %x
    relax.yield %x
  } else {
    relax.yield %x
  }
  %f = relax.lambda (%y: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
    %dead = relax.exp %y
    relax.return %y
  }
  %g = relax.lambda (%y: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
    relax.return %y
  }
  %r = relax.invoke %f(%x) : !relax.tensor<[4], f32>
  relax.return %r
}

// -----

// A recursive closure is kept whole (TVM's test_recursively_defined_lambda).

// CHECK-LABEL: @recursive_lambda
// CHECK-NEXT:    %while_loop = relax.lambda recursive(%self)
// CHECK-NEXT:      %cond = relax.less %i, %n
// CHECK-NEXT:      %r = relax.if %cond
// CHECK-NEXT:        %one = relax.constant
// CHECK-NEXT:        %new_i = relax.add %i, %one
// CHECK-NEXT:        %new_s = relax.add %s, %x
// CHECK-NEXT:        %rec = relax.invoke %self(%new_i, %new_s)
// CHECK-NEXT:        relax.yield %rec
// CHECK:         %gv = relax.invoke %while_loop(%zero, %x)
// CHECK-NEXT:    relax.return %gv
relax.function @recursive_lambda(%x: !relax.tensor<[2, 3], f32>, %n: !relax.tensor<[], i32>) -> !relax.tensor<[2, 3], f32> {
  %while_loop = relax.lambda recursive(%self) (%i: !relax.tensor<[], i32>, %s: !relax.tensor<[2, 3], f32>) -> !relax.tensor<[2, 3], f32> {
    %cond = relax.less %i, %n
    %r = relax.if %cond : !relax.tensor<[2, 3], f32> {
      %one = relax.constant dense<[], i32, 1>
      %new_i = relax.add %i, %one
      %new_s = relax.add %s, %x
      %rec = relax.invoke %self(%new_i, %new_s) : !relax.tensor<[2, 3], f32>
      relax.yield %rec
    } else {
      relax.yield %s
    }
    relax.return %r
  }
  %zero = relax.constant dense<[], i32, 0>
  %gv = relax.invoke %while_loop(%zero, %x) : !relax.tensor<[2, 3], f32>
  relax.return %gv
}

// -----

// Private functions no public function reaches go; public ones, the kernels
// call_tir names and the private kernels those call stay; a func.func is public
// unless marked private (TVM's test_unused_relax_func, test_unused_prim_func,
// test_preserve_indirectly_used_prim_func, test_multiple_unused_funcs).

// CHECK-LABEL: @main
// CHECK:       func.func private @tir_add
// CHECK:       func.func private @tir_helper
// CHECK:       func.func @tir_unused
// CHECK-NOT:   @unused_func
// CHECK-NOT:   @tir_private_unused
// CHECK-NOT:   @called_by_dead
relax.function @main(%x: !relax.tensor<[16], f32>, %w: !relax.tensor<[16], f32>) -> !relax.tensor<[16], f32> {
  %gv0 = relax.call_tir @tir_add(%x, %w) : !relax.tensor<[16], f32>
  %dead = relax.call @called_by_dead(%x) : !relax.tensor<[16], f32>
  relax.return %gv0
}
func.func private @tir_add(%x: tensor<16xf32>, %y: tensor<16xf32>, %z: tensor<16xf32>) -> tensor<16xf32> {
  %r = func.call @tir_helper(%z) : (tensor<16xf32>) -> tensor<16xf32>
  func.return %r : tensor<16xf32>
}
func.func private @tir_helper(%z: tensor<16xf32>) -> tensor<16xf32> {
  func.return %z : tensor<16xf32>
}
func.func @tir_unused(%x: tensor<16xf32>, %z: tensor<16xf32>) -> tensor<16xf32> {
  func.return %z : tensor<16xf32>
}
func.func private @tir_private_unused(%x: tensor<16xf32>, %z: tensor<16xf32>) -> tensor<16xf32> {
  func.return %z : tensor<16xf32>
}
relax.function private @unused_func(%x: !relax.tensor<[m, n], f32>, %w: !relax.tensor<[m, n], f32>) -> !relax.tensor<[m, n], f32> {
  %gv0 = relax.add %x, %w
  relax.return %gv0
}
relax.function private @called_by_dead(%x: !relax.tensor<[16], f32>) -> !relax.tensor<[16], f32> {
  relax.return %x
}

// -----

// A function value counts as a use; a private function only a dead one uses
// goes with it (`entry-functions` is tested in test_pass_dce.py).

// CHECK-LABEL: @bar
// CHECK:       relax.function private @by_value
// CHECK-NOT:   @foo
// CHECK-NOT:   @tir_add
relax.function @bar(%x: !relax.tensor<[16], f32>) -> !relax.object {
  %f = relax.global_var @by_value : !relax.func<(tensor<[16], f32>) -> tensor<[16], f32>>
  relax.return %f
}
relax.function private @foo(%x: !relax.tensor<[16], f32>, %w: !relax.tensor<[16], f32>) -> !relax.tensor<[16], f32> {
  %gv0 = relax.call_tir @tir_add(%x, %w) : !relax.tensor<[16], f32>
  relax.return %gv0
}
relax.function private @by_value(%x: !relax.tensor<[16], f32>) -> !relax.tensor<[16], f32> {
  relax.return %x
}
func.func private @tir_add(%x: tensor<16xf32>, %y: tensor<16xf32>, %z: tensor<16xf32>) -> tensor<16xf32> {
  func.return %z : tensor<16xf32>
}
