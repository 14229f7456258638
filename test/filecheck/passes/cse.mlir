// RUN: relax-opt %s -p relax-cse --split-input-file | filecheck %s
// RUN: relax-opt %s -p relax-cse,relax-cse --split-input-file | filecheck %s
// RUN: relax-opt %s -p 'relax-cse{call-only=true}' --split-input-file | filecheck %s --check-prefix=CALLS

// A repeated computation takes the first one's value (TVM's test_simple).

// CHECK-LABEL: @simple
// CHECK-NEXT:    %gv = relax.dataflow {
// CHECK-NEXT:      %lv0 = relax.add %x, %y
// CHECK-NEXT:      %gv_1 = relax.multiply %lv0, %lv0
// CHECK-NEXT:      relax.output %gv_1
relax.function @simple(%x: !relax.tensor<[2, 3], f32>, %y: !relax.tensor<[2, 3], f32>) -> !relax.tensor<[2, 3], f32> {
  %gv = relax.dataflow {
    %lv0 = relax.add %x, %y
    %lv1 = relax.add %x, %y
    %gv = relax.multiply %lv0, %lv1
    relax.output %gv
  }
  relax.return %gv
}

// -----

// Outside dataflow blocks too (TVM's test_cse_outside_dataflow); attributes
// must agree, an omitted default equals a written one.

// CHECK-LABEL: @outside_dataflow
// CHECK-NEXT:    %lv0 = relax.add %x, %y
// CHECK-NEXT:    %s0 = relax.sum %lv0 {axis = [1]}
// CHECK-NEXT:    %s2 = relax.sum %lv0 {axis = [0]}
// CHECK-NEXT:    %gv = relax.multiply %s0, %s0
// CHECK-NEXT:    %r = relax.tuple(%gv, %s2)
relax.function @outside_dataflow(%x: !relax.tensor<[2, 3], f32>, %y: !relax.tensor<[2, 3], f32>) -> !relax.tuple<tensor<[2], f32>, tensor<[3], f32>> {
  %lv0 = relax.add %x, %y
  %lv1 = relax.add %x, %y
  %s0 = relax.sum %lv0 {axis = [1]}
  %s1 = relax.sum %lv1 {axis = [1], keepdims = false}
  %s2 = relax.sum %lv1 {axis = [0]}
  %gv = relax.multiply %s0, %s1
  %r = relax.tuple(%gv, %s2)
  relax.return %r
}

// -----

// A later dataflow block cannot use an earlier block's inner values, nor can
// bindings after it; they may use its outputs (TVM's test_no_cse_across_dataflow
// and test_no_replacement_across_dataflow_boundary).

// CHECK-LABEL: @across_dataflow
// CHECK-NEXT:    %gv1 = relax.dataflow {
// CHECK-NEXT:      %lv0 = relax.add %x, %y
// CHECK-NEXT:      %gv1_1 = relax.multiply %lv0, %lv0
// CHECK-NEXT:      relax.output %gv1_1
// CHECK-NEXT:    }
// CHECK-NEXT:    %p = relax.print
// CHECK-NEXT:    %gv2 = relax.dataflow {
// CHECK-NEXT:      %lv2 = relax.add %x, %y
// CHECK-NEXT:      %gv2_1 = relax.multiply %lv2, %lv2
// CHECK-NEXT:      relax.output %gv2_1
// CHECK-NEXT:    }
// CHECK-NEXT:    %gv3 = relax.add %x, %y
// CHECK-NEXT:    %gv5 = relax.multiply %gv3, %gv3
// CHECK-NEXT:    %o1 = relax.add %gv1, %gv2
relax.function impure @across_dataflow(%x: !relax.tensor<[2, 3], f32>, %y: !relax.tensor<[2, 3], f32>) -> !relax.tensor<[2, 3], f32> {
  %gv1 = relax.dataflow {
    %lv0 = relax.add %x, %y
    %lv1 = relax.add %x, %y
    %gv1 = relax.multiply %lv0, %lv1
    relax.output %gv1
  }
  %p = relax.print {format = "Prevent dataflow block merging"}
  %gv2 = relax.dataflow {
    %lv2 = relax.add %x, %y
    %lv3 = relax.add %x, %y
    %gv2 = relax.multiply %lv2, %lv3
    relax.output %gv2
  }
  %gv3 = relax.add %x, %y
  %gv4 = relax.add %x, %y
  %gv5 = relax.multiply %gv3, %gv4
  %o1 = relax.add %gv1, %gv2
  %o = relax.add %o1, %gv5
  relax.return %o
}

// -----

// CHECK-LABEL: @output_boundary
// CHECK-NEXT:    %B, %C = relax.dataflow {
// CHECK-NEXT:      %A = relax.add %x, %y
// CHECK-NEXT:      %C_1 = relax.multiply %A, %A
// CHECK-NEXT:      relax.output %A, %C_1
// CHECK-NEXT:    }
// CHECK-NEXT:    %t = relax.tuple(%B, %C, %B)
relax.function @output_boundary(%x: !relax.tensor<[2, 3], f32>, %y: !relax.tensor<[2, 3], f32>) -> !relax.tuple<tensor<[2, 3], f32>, tensor<[2, 3], f32>, tensor<[2, 3], f32>> {
  %B, %C = relax.dataflow {
    %A = relax.add %x, %y
    %B = relax.add %x, %y
    %C = relax.multiply %A, %B
    relax.output %B, %C
  }
  %D = relax.add %x, %y
  %t = relax.tuple(%B, %C, %D)
  relax.return %t
}

// -----

// Two outputs that became the same value become one.

// CHECK-LABEL: @same_outputs
// CHECK-NEXT:    %A = relax.dataflow {
// CHECK-NEXT:      %A_1 = relax.add %x, %y
// CHECK-NEXT:      relax.output %A_1
// CHECK-NEXT:    }
// CHECK-NEXT:    %t = relax.tuple(%A, %A)
relax.function @same_outputs(%x: !relax.tensor<[2, 3], f32>, %y: !relax.tensor<[2, 3], f32>) -> !relax.tuple<tensor<[2, 3], f32>, tensor<[2, 3], f32>> {
  %A, %B = relax.dataflow {
    %A = relax.add %x, %y
    %B = relax.add %x, %y
    relax.output %A, %B
  }
  %t = relax.tuple(%A, %B)
  relax.return %t
}

// -----

// Removing the binding between two dataflow blocks merges them, and the merged
// block is one scope (so that a second run changes nothing).

// CHECK-LABEL: @merged_blocks
// CHECK-NEXT:    %s = relax.exp %x
// CHECK-NEXT:    %g1 = relax.dataflow {
// CHECK-NEXT:      %a = relax.add %x, %y
// CHECK-NEXT:      %g1_1 = relax.multiply %a, %s
// CHECK-NEXT:      relax.output %g1_1
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = relax.add %g1, %g1
relax.function @merged_blocks(%x: !relax.tensor<[2, 3], f32>, %y: !relax.tensor<[2, 3], f32>) -> !relax.tensor<[2, 3], f32> {
  %s = relax.exp %x
  %g1 = relax.dataflow {
    %a = relax.add %x, %y
    %g1 = relax.multiply %a, %s
    relax.output %g1
  }
  %s2 = relax.exp %x
  %g2 = relax.dataflow {
    %b = relax.add %x, %y
    %g2 = relax.multiply %b, %s2
    relax.output %g2
  }
  %r = relax.add %g1, %g2
  relax.return %r
}

// -----

// A closure of the later block that uses an earlier output cannot join the
// merged block: it moves in front of it, and the blocks stay apart.

// CHECK-LABEL: @closure_between
// CHECK:         relax.output %g1_1
// CHECK-NEXT:    }
// CHECK-NEXT:    %f = relax.lambda
// CHECK-NEXT:      %w = relax.add %z, %g1
// CHECK-NEXT:      %w3 = relax.add %w, %w
// CHECK-NEXT:      relax.return %w3
// CHECK-NEXT:    }
// CHECK-NEXT:    %g2 = relax.dataflow {
// CHECK-NEXT:      %b = relax.add %x, %y
relax.function @closure_between(%x: !relax.tensor<[2, 3], f32>, %y: !relax.tensor<[2, 3], f32>) -> !relax.tensor<[2, 3], f32> {
  %s = relax.exp %x
  %g1 = relax.dataflow {
    %a = relax.add %x, %y
    %g1 = relax.multiply %a, %s
    relax.output %g1
  }
  %s2 = relax.exp %x
  %g2 = relax.dataflow {
    %f = relax.lambda (%z: !relax.tensor<[2, 3], f32>) -> !relax.tensor<[2, 3], f32> {
      %w = relax.add %z, %g1
      %w2 = relax.add %z, %g1
      %w3 = relax.add %w, %w2
      relax.return %w3
    }
    %b = relax.add %x, %y
    %c = relax.invoke %f(%b) : !relax.tensor<[2, 3], f32>
    %g2 = relax.multiply %c, %s2
    relax.output %g2
  }
  %r = relax.add %g1, %g2
  relax.return %r
}

// -----

// Impure operations stay; the pure ones around them merge (TVM's
// test_do_not_eliminate_impure, test_do_not_eliminate_extern_func).

// CHECK-LABEL: @impure
// CHECK-NEXT:    %p1 = relax.print
// CHECK-NEXT:    %p2 = relax.print
// CHECK-NEXT:    %a1 = relax.assert_op
// CHECK-NEXT:    %e1 = relax.call_packed "extern_func_name"(%x)
// CHECK-NEXT:    %e2 = relax.call_packed "extern_func_name"(%x)
// CHECK-NEXT:    %q1 = relax.call_pure_packed "pure_func"(%x)
// CHECK-NEXT:    %i1 = relax.call @log(%x)
// CHECK-NEXT:    %i2 = relax.call @log(%x)
// CHECK-NEXT:    %f1 = relax.call @pure(%x)
// CHECK-NEXT:    %lv0 = relax.add %x, %x
// CHECK-NEXT:    %gv = relax.multiply %lv0, %lv0
// CHECK-NEXT:    %a2 = relax.assert_op
// CHECK-NEXT:    %t = relax.tuple(%gv, %q1, %f1, %f1)
relax.function impure @impure(%x: !relax.tensor<[2, 3], f32>, %c: !relax.tensor<[], bool>) -> !relax.tuple<tensor<[2, 3], f32>, tensor<[2, 3], f32>, tensor<[2, 3], f32>, tensor<[2, 3], f32>> {
  %p1 = relax.print {format = "Message"}
  %p2 = relax.print {format = "Message"}
  %a1 = relax.assert_op %c {format = "Always fails"}
  %e1 = relax.call_packed "extern_func_name"(%x) : !relax.tensor<[2, 3], f32>
  %e2 = relax.call_packed "extern_func_name"(%x) : !relax.tensor<[2, 3], f32>
  %q1 = relax.call_pure_packed "pure_func"(%x) : !relax.tensor<[2, 3], f32>
  %q2 = relax.call_pure_packed "pure_func"(%x) : !relax.tensor<[2, 3], f32>
  %i1 = relax.call @log(%x) : !relax.tensor<[2, 3], f32>
  %i2 = relax.call @log(%x) : !relax.tensor<[2, 3], f32>
  %f1 = relax.call @pure(%x) : !relax.tensor<[2, 3], f32>
  %f2 = relax.call @pure(%x) : !relax.tensor<[2, 3], f32>
  %lv0 = relax.add %x, %x
  %lv1 = relax.add %x, %x
  %gv = relax.multiply %lv0, %lv1
  %a2 = relax.assert_op %c {format = "Always fails"}
  %t = relax.tuple(%gv, %q2, %f1, %f2)
  relax.return %t
}
relax.function private impure @log(%x: !relax.tensor<[2, 3], f32>) -> !relax.tensor<[2, 3], f32> {
  %p = relax.print %x {format = "{}"}
  relax.return %x
}
relax.function private @pure(%x: !relax.tensor<[2, 3], f32>) -> !relax.tensor<[2, 3], f32> {
  relax.return %x
}

// -----

// In-place calls are never merged, nor is a value one writes into.

// CHECK-LABEL: @in_place
// CHECK-NEXT:    %s = relax.shape [4]
// CHECK-NEXT:    %z1 = relax.zeros %s
// CHECK-NEXT:    %z2 = relax.zeros %s
// CHECK-NEXT:    %z3 = relax.zeros %s
// CHECK-NEXT:    %w1 = relax.call_tir_inplace @fill(%z1)
// CHECK-NEXT:    %w2 = relax.call_tir_inplace @fill(%z2)
// CHECK-NEXT:    %t = relax.tuple(%w1, %w2, %z3, %z3)
relax.function @in_place() -> !relax.tuple<tensor<[4], f32>, tensor<[4], f32>, tensor<[4], f32>, tensor<[4], f32>> {
  %s = relax.shape [4]
  %z1 = relax.zeros %s {dtype = f32}
  %z2 = relax.zeros %s {dtype = f32}
  %z3 = relax.zeros %s {dtype = f32}
  %w1 = relax.call_tir_inplace @fill(%z1) {inplace_indices = [0]} : !relax.tensor<[4], f32>
  %w2 = relax.call_tir_inplace @fill(%z2) {inplace_indices = [0]} : !relax.tensor<[4], f32>
  %z4 = relax.zeros %s {dtype = f32}
  %t = relax.tuple(%w1, %w2, %z3, %z4)
  relax.return %t
}
func.func private @fill(%x: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  func.return %x : tensor<4xf32>
}

// -----

// A match_cast to the same type merges; one that binds other symbolic
// variables does not (TVM's test_match_cast, test_match_cast_with_symbolic_vars).

// CHECK-LABEL: @match_cast
// CHECK-NEXT:    %gv = relax.dataflow {
// CHECK-NEXT:      %A1 = relax.add %x, %y
// CHECK-NEXT:      %B1 = relax.match_cast %A1 : !relax.tensor<[n, m], f32>
// CHECK-NEXT:      %B3 = relax.match_cast %A1 : !relax.tensor<[p, q], f32>
// CHECK-NEXT:      %lv = relax.multiply %B1, %B1
// CHECK-NEXT:      %gv_1 = relax.multiply %lv, %B3
relax.function @match_cast(%x: !relax.tensor<ndim = 2, f32>, %y: !relax.tensor<ndim = 2, f32>) -> !relax.tensor<ndim = 2, f32> {
  %gv = relax.dataflow {
    %A1 = relax.add %x, %y
    %B1 = relax.match_cast %A1 : !relax.tensor<[n, m], f32>
    %A2 = relax.add %x, %y
    %B2 = relax.match_cast %A2 : !relax.tensor<[n, m], f32>
    %B3 = relax.match_cast %A2 : !relax.tensor<[p, q], f32>
    %lv = relax.multiply %B1, %B2
    %gv = relax.multiply %lv, %B3
    relax.output %gv
  }
  relax.return %gv
}

// -----

// A branch sees the bindings before the `if`, not the other branch's, and
// what a branch binds is gone after the `if` (TVM's
// test_replace_binding_within_branch_with_duplicate_before_branch,
// test_keep_duplicate_across_if_and_then, test_keep_duplicate_after_branch).

// CHECK-LABEL: @branches
// CHECK-NEXT:    %A = relax.add %x, %y
// CHECK-NEXT:    %D = relax.if %cond
// CHECK-NEXT:      %C = relax.multiply %x, %A
// CHECK-NEXT:      %S = relax.subtract %x, %y
// CHECK-NEXT:      %E = relax.multiply %C, %S
// CHECK-NEXT:      relax.yield %E
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %C_1 = relax.multiply %y, %A
// CHECK-NEXT:      %S_1 = relax.subtract %x, %y
// CHECK-NEXT:      %E_1 = relax.multiply %C_1, %S_1
// CHECK-NEXT:      relax.yield %E_1
// CHECK-NEXT:    }
// CHECK-NEXT:    %S2 = relax.subtract %x, %y
// CHECK-NEXT:    %R = relax.multiply %D, %S2
relax.function @branches(%x: !relax.tensor<[2, 3], f32>, %y: !relax.tensor<[2, 3], f32>, %cond: !relax.prim<bool>) -> !relax.tensor<[2, 3], f32> {
  %A = relax.add %x, %y
  %D = relax.if %cond : !relax.tensor<[2, 3], f32> {
    %B = relax.add %x, %y
    %C = relax.multiply %x, %B
    %S = relax.subtract %x, %y
    %E = relax.multiply %C, %S
    relax.yield %E
  } else {
    %B = relax.add %x, %y
    %C = relax.multiply %y, %B
    %S = relax.subtract %x, %y
    %E = relax.multiply %C, %S
    relax.yield %E
  }
  %S2 = relax.subtract %x, %y
  %R = relax.multiply %D, %S2
  relax.return %R
}

// -----

// A closure body is a scope of its own; calls of a pure closure merge (TVM's
// test_inner_function).

// CHECK-LABEL: @inner_function
// CHECK-NEXT:    %gv = relax.dataflow {
// CHECK-NEXT:      %bar = relax.lambda
// CHECK-NEXT:        %inner = relax.dataflow {
// CHECK-NEXT:          %i0 = relax.add %y, %y
// CHECK-NEXT:          %i2 = relax.add %i0, %i0
// CHECK-NEXT:          relax.output %i2
// CHECK-NEXT:        }
// CHECK-NEXT:        %r = relax.add %inner, %inner
// CHECK-NEXT:        relax.return %r
// CHECK-NEXT:      }
// CHECK-NEXT:      %lv0 = relax.invoke %bar(%x)
// CHECK-NEXT:      %lv2 = relax.add %lv0, %lv0
// CHECK-NEXT:      %lv6 = relax.add %lv2, %lv2
// CHECK-NEXT:      relax.output %lv6
relax.function @inner_function(%x: !relax.tensor<[], i32>) -> !relax.tensor<[], i32> {
  %gv = relax.dataflow {
    %bar = relax.lambda (%y: !relax.tensor<[], i32>) -> !relax.tensor<[], i32> {
      %inner = relax.dataflow {
        %i0 = relax.add %y, %y
        %i1 = relax.add %y, %y
        %i2 = relax.add %i0, %i1
        relax.output %i2
      }
      %r = relax.add %inner, %inner
      relax.return %r
    }
    %lv0 = relax.invoke %bar(%x) : !relax.tensor<[], i32>
    %lv1 = relax.invoke %bar(%x) : !relax.tensor<[], i32>
    %lv2 = relax.add %lv0, %lv1
    %lv3 = relax.invoke %bar(%x) : !relax.tensor<[], i32>
    %lv4 = relax.invoke %bar(%x) : !relax.tensor<[], i32>
    %lv5 = relax.add %lv3, %lv4
    %lv6 = relax.add %lv2, %lv5
    relax.output %lv6
  }
  relax.return %gv
}

// -----

// Leaf values (constants, prim values, shapes, tuples) merge; as operands they
// compare by value, so with `call-only` (which merges calls alone) the calls
// still merge, as in TVM where leaves are written inline (TVM's test_call_only,
// test_constants).

// CHECK-LABEL: @leaves
// CHECK-NEXT:    %out = relax.dataflow {
// CHECK-NEXT:      %p0 = relax.prim_value 0
// CHECK-NEXT:      %p1 = relax.prim_value 160
// CHECK-NEXT:      %p2 = relax.prim_value 1
// CHECK-NEXT:      %lv1 = relax.arange %p0, %p1, %p2
// CHECK-NEXT:      %c1 = relax.constant
// CHECK-NEXT:      %lv3 = relax.add %x, %lv1
// CHECK-NEXT:      %lv4 = relax.add %lv3, %lv1
// CHECK-NEXT:      %t1 = relax.tuple(%lv4, %c1)
// CHECK-NEXT:      %out_1 = relax.concat %t1
// CHECK-NEXT:      %out3 = relax.add %out_1, %out_1
// CHECK-NEXT:      relax.output %out3
// CALLS-LABEL: @leaves
// CALLS-NEXT:    %out = relax.dataflow {
// CALLS-NEXT:      %p0 = relax.prim_value 0
// CALLS-NEXT:      %p1 = relax.prim_value 160
// CALLS-NEXT:      %p2 = relax.prim_value 1
// CALLS-NEXT:      %lv1 = relax.arange %p0, %p1, %p2
// CALLS-NEXT:      %q0 = relax.prim_value 0
// CALLS-NEXT:      %q1 = relax.prim_value 160
// CALLS-NEXT:      %q2 = relax.prim_value 1
// CALLS-NEXT:      %c1 = relax.constant
// CALLS-NEXT:      %c2 = relax.constant
// CALLS-NEXT:      %lv3 = relax.add %x, %lv1
// CALLS-NEXT:      %lv4 = relax.add %lv3, %lv1
// CALLS-NEXT:      %t1 = relax.tuple(%lv4, %c1)
// CALLS-NEXT:      %t2 = relax.tuple(%lv4, %c2)
// CALLS-NEXT:      %out_1 = relax.concat %t1
// CALLS-NEXT:      %out3 = relax.add %out_1, %out_1
// CALLS-NEXT:      relax.output %out3
relax.function @leaves(%x: !relax.tensor<[160], f32>) -> !relax.tensor<[320], f32> {
  %out = relax.dataflow {
    %p0 = relax.prim_value 0
    %p1 = relax.prim_value 160
    %p2 = relax.prim_value 1
    %lv1 = relax.arange %p0, %p1, %p2 {dtype = f32}
    %q0 = relax.prim_value 0
    %q1 = relax.prim_value 160
    %q2 = relax.prim_value 1
    %lv2 = relax.arange %q0, %q1, %q2 {dtype = f32}
    %c1 = relax.constant dense<[160], f32, 0.0>
    %c2 = relax.constant dense<[160], f32, 0.0>
    %lv3 = relax.add %x, %lv1
    %lv4 = relax.add %lv3, %lv2
    %t1 = relax.tuple(%lv4, %c1)
    %t2 = relax.tuple(%lv4, %c2)
    %out = relax.concat %t1
    %out2 = relax.concat %t2
    %out3 = relax.add %out, %out2
    relax.output %out3
  }
  relax.return %out
}
