// RUN: relax-opt %s -p relax-topological-sort --split-input-file | filecheck %s
// RUN: relax-opt %s -p relax-topological-sort,relax-topological-sort --split-input-file | filecheck %s
// RUN: relax-opt %s -p 'relax-topological-sort{direction=from-outputs}' --split-input-file | filecheck %s --check-prefix=OUT
// RUN: relax-opt %s -p 'relax-topological-sort{order=breadth-first}' --split-input-file | filecheck %s --check-prefix=BFS

// TVM's test_depth_first_from_inputs (with the constants as parameters, as TVM
// keeps them inline): each chain follows its first use.

// CHECK-LABEL: @dfs_from_inputs
// CHECK-NEXT:   %D = relax.dataflow {
// CHECK-NEXT:     %B1 = relax.add %A, %one : !relax.tensor<f32>
// CHECK-NEXT:     %C1 = relax.add %A, %B1 : !relax.tensor<f32>
// CHECK-NEXT:     %B2 = relax.add %A, %two : !relax.tensor<f32>
// CHECK-NEXT:     %C2 = relax.add %A, %B2 : !relax.tensor<f32>
// CHECK-NEXT:     %D_1 = relax.add %C1, %C2 : !relax.tensor<f32>
// CHECK-NEXT:     relax.output %D_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %D
relax.function @dfs_from_inputs(%A: !relax.tensor<f32>, %one: !relax.tensor<[], f32>, %two: !relax.tensor<[], f32>) -> !relax.tensor<f32> {
  %D = relax.dataflow {
    %B1 = relax.add %A, %one
    %B2 = relax.add %A, %two
    %C1 = relax.add %A, %B1
    %C2 = relax.add %A, %B2
    %D = relax.add %C1, %C2
    relax.output %D
  }
  relax.return %D
}

// -----

// TVM's test_depth_first_from_input_with_constant: bindings without inputs are
// reached too, and a binding waits for all its operands.

// CHECK-LABEL: @with_constant
// CHECK-NEXT:   %E = relax.dataflow {
// CHECK-NEXT:     %B1 = relax.constant dense<[], f32, 1.0> : !relax.tensor<[], f32>
// CHECK-NEXT:     %C1 = relax.add %A, %B1 : !relax.tensor<f32>
// CHECK-NEXT:     %D1 = relax.add %A, %C1 : !relax.tensor<f32>
// CHECK-NEXT:     %B2 = relax.constant dense<[], f32, 2.0> : !relax.tensor<[], f32>
// CHECK-NEXT:     %C2 = relax.add %A, %B2 : !relax.tensor<f32>
// CHECK-NEXT:     %D2 = relax.add %A, %C2 : !relax.tensor<f32>
// CHECK-NEXT:     %E_1 = relax.add %D1, %D2 : !relax.tensor<f32>
// CHECK-NEXT:     relax.output %E_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %E
relax.function @with_constant(%A: !relax.tensor<f32>) -> !relax.tensor<f32> {
  %E = relax.dataflow {
    %B1 = relax.constant dense<[], f32, 1.0>
    %B2 = relax.constant dense<[], f32, 2.0>
    %C2 = relax.add %A, %B2
    %C1 = relax.add %A, %B1
    %D2 = relax.add %A, %C2
    %D1 = relax.add %A, %C1
    %E = relax.add %D1, %D2
    relax.output %E
  }
  relax.return %E
}

// -----

// TVM's test_depth_first_from_input_with_multiple_inputs: parameter order breaks ties.

// CHECK-LABEL: @multiple_inputs
// CHECK-NEXT:   %E = relax.dataflow {
// CHECK-NEXT:     %C1 = relax.add %A, %B1 : !relax.tensor<f32>
// CHECK-NEXT:     %D1 = relax.add %A, %C1 : !relax.tensor<f32>
// CHECK-NEXT:     %C2 = relax.add %A, %B2 : !relax.tensor<f32>
// CHECK-NEXT:     %D2 = relax.add %A, %C2 : !relax.tensor<f32>
// CHECK-NEXT:     %E_1 = relax.add %D1, %D2 : !relax.tensor<f32>
// CHECK-NEXT:     relax.output %E_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %E
relax.function @multiple_inputs(%A: !relax.tensor<f32>, %B1: !relax.tensor<f32>, %B2: !relax.tensor<f32>) -> !relax.tensor<f32> {
  %E = relax.dataflow {
    %C2 = relax.add %A, %B2
    %C1 = relax.add %A, %B1
    %D2 = relax.add %A, %C2
    %D1 = relax.add %A, %C1
    %E = relax.add %D1, %D2
    relax.output %E
  }
  relax.return %E
}

// -----

// TVM's test_depth_first_from_output_tuple_with_binding and
// test_depth_first_from_output_with_unused_variables: from the outputs, the
// value used first comes first; unused bindings stay.

// OUT-LABEL: @from_outputs
// OUT-NEXT:    %C1, %C2 = relax.dataflow {
// OUT-NEXT:      %B1 = relax.add %A, %one
// OUT-NEXT:      %C1_1 = relax.add %A, %B1
// OUT-NEXT:      %D1 = relax.add %A, %C1_1
// OUT-NEXT:      %B2 = relax.add %A, %two
// OUT-NEXT:      %C2_1 = relax.add %A, %B2
// OUT-NEXT:      %D2 = relax.add %A, %C2_1
// OUT-NEXT:      relax.output %C1_1, %C2_1
// CHECK-LABEL: @from_outputs
// CHECK-NEXT:   %C1, %C2 = relax.dataflow {
// CHECK-NEXT:     %B1 = relax.add %A, %one : !relax.tensor<f32>
// CHECK-NEXT:     %C1_1 = relax.add %A, %B1 : !relax.tensor<f32>
// CHECK-NEXT:     %D1 = relax.add %A, %C1_1 : !relax.tensor<f32>
// CHECK-NEXT:     %B2 = relax.add %A, %two : !relax.tensor<f32>
// CHECK-NEXT:     %C2_1 = relax.add %A, %B2 : !relax.tensor<f32>
// CHECK-NEXT:     %D2 = relax.add %A, %C2_1 : !relax.tensor<f32>
// CHECK-NEXT:     relax.output %C1_1, %C2_1
// CHECK-NEXT:   }
// CHECK-NEXT:   %gv = relax.tuple(%C1, %C2) : !relax.tuple<tensor<f32>, tensor<f32>>
// CHECK-NEXT:   relax.return %gv
relax.function @from_outputs(%A: !relax.tensor<f32>, %one: !relax.tensor<[], f32>, %two: !relax.tensor<[], f32>) -> !relax.tuple<tensor<f32>, tensor<f32>> {
  %C1, %C2 = relax.dataflow {
    %B2 = relax.add %A, %two
    %B1 = relax.add %A, %one
    %C2 = relax.add %A, %B2
    %C1 = relax.add %A, %B1
    %D1 = relax.add %A, %C1
    %D2 = relax.add %A, %C2
    relax.output %C1, %C2
  }
  %gv = relax.tuple(%C1, %C2)
  relax.return %gv
}

// -----

// TVM's test_breadth_first_break_ties_by_existing_order.

// BFS-LABEL: @breadth_first
// BFS-NEXT:    %D = relax.dataflow {
// BFS-NEXT:      %B2 = relax.add %A, %one
// BFS-NEXT:      %B1 = relax.add %A, %two
// BFS-NEXT:      %C2 = relax.add %A, %B2
// BFS-NEXT:      %C1 = relax.add %A, %B1
// BFS-NEXT:      %D_1 = relax.add %C2, %C1
// CHECK-LABEL: @breadth_first
// CHECK-NEXT:   %D = relax.dataflow {
// CHECK-NEXT:     %B2 = relax.add %A, %one : !relax.tensor<f32>
// CHECK-NEXT:     %C2 = relax.add %A, %B2 : !relax.tensor<f32>
// CHECK-NEXT:     %B1 = relax.add %A, %two : !relax.tensor<f32>
// CHECK-NEXT:     %C1 = relax.add %A, %B1 : !relax.tensor<f32>
// CHECK-NEXT:     %D_1 = relax.add %C2, %C1 : !relax.tensor<f32>
// CHECK-NEXT:     relax.output %D_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %D
relax.function @breadth_first(%A: !relax.tensor<f32>, %one: !relax.tensor<[], f32>, %two: !relax.tensor<[], f32>) -> !relax.tensor<f32> {
  %D = relax.dataflow {
    %B1 = relax.add %A, %two
    %C1 = relax.add %A, %B1
    %B2 = relax.add %A, %one
    %C2 = relax.add %A, %B2
    %D = relax.add %C2, %C1
    relax.output %D
  }
  relax.return %D
}

// -----

// A user of a symbolic variable stays after the cast that binds it.

// CHECK-LABEL: @match_cast_binder
// CHECK-NEXT:   %r = relax.dataflow {
// CHECK-NEXT:     %a = relax.match_cast %x : !relax.tensor<[k], f32>
// CHECK-NEXT:     %s = relax.shape [k, 2] : !relax.shape<[k, 2]>
// CHECK-NEXT:     %u = relax.exp %y : !relax.tensor<f32>
// CHECK-NEXT:     %v = relax.reshape %u, %s : !relax.tensor<[k, 2], f32>
// CHECK-NEXT:     %r_1 = relax.add %v, %v : !relax.tensor<[k, 2], f32>
// CHECK-NEXT:     relax.output %r_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %r
relax.function @match_cast_binder(%x: !relax.tensor<ndim = 1, f32>, %y: !relax.tensor<f32>) -> !relax.tensor<f32> {
  %r = relax.dataflow {
    %a = relax.match_cast %x : !relax.tensor<[k], f32>
    %s = relax.shape [k, 2]
    %u = relax.exp %y
    %v = relax.reshape %u, %s
    %r = relax.add %v, %v
    relax.output %r
  }
  relax.return %r
}

// -----

// Outside dataflow blocks (TVM leaves them alone) impure calls keep their order
// and a cast that may fail stays between them.

// CHECK-LABEL: @effects
// CHECK-NEXT:   %p1 = relax.call_packed "log"(%x) : !relax.object
// CHECK-NEXT:   %m = relax.match_cast %o : !relax.tensor<[4], f32>
// CHECK-NEXT:   %p2 = relax.call_packed "log"(%x) : !relax.object
// CHECK-NEXT:   %b = relax.sin %x : !relax.tensor<[4], f32>
// CHECK-NEXT:   %c = relax.add %m, %b : !relax.tensor<[4], f32>
// CHECK-NEXT:   relax.return %c
relax.function impure @effects(%x: !relax.tensor<[4], f32>, %o: !relax.object) -> !relax.tensor<[4], f32> {
  %p1 = relax.call_packed "log"(%x) : !relax.object
  %m = relax.match_cast %o : !relax.tensor<[4], f32>
  %p2 = relax.call_packed "log"(%x) : !relax.object
  %b = relax.sin %x
  %c = relax.add %m, %b
  relax.return %c
}

// -----

// A closure's dataflow block may use the values it captures (they count as inputs).

// CHECK-LABEL: @closure
// CHECK-NEXT:   %t = relax.tanh %x : !relax.tensor<[4], f32>
// CHECK-NEXT:   %f = relax.lambda (%y: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
// CHECK-NEXT:     %r = relax.dataflow {
// CHECK-NEXT:       %b = relax.sin %y : !relax.tensor<[4], f32>
// CHECK-NEXT:       %a = relax.mean %t {axis = [0], keepdims = true} : !relax.tensor<[1], f32>
// CHECK-NEXT:       %c = relax.add %a, %b : !relax.tensor<[4], f32>
// CHECK-NEXT:       relax.output %c
// CHECK-NEXT:     }
// CHECK-NEXT:     relax.return %r
// CHECK-NEXT:   }
// CHECK-NEXT:   %z = relax.invoke %f(%x) : !relax.tensor<[4], f32>
// CHECK-NEXT:   relax.return %z
relax.function @closure(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  %t = relax.tanh %x
  %f = relax.lambda (%y: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
    %r = relax.dataflow {
      %a = relax.mean %t {axis = [0], keepdims = true}
      %b = relax.sin %y
      %c = relax.add %a, %b
      relax.output %c
    }
    relax.return %r
  }
  %z = relax.invoke %f(%x) : !relax.tensor<[4], f32>
  relax.return %z
}
