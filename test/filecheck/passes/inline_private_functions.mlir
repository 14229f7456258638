// RUN: relax-opt %s -p relax-inline-private-functions --split-input-file | filecheck %s
// RUN: relax-opt %s -p relax-inline-private-functions,relax-inline-private-functions --split-input-file | filecheck %s

// A call of a private function becomes the callee's body, and the function
// goes (TVM's test_inline_simple).

// CHECK-LABEL: @main
// CHECK-NEXT:    %B = relax.multiply %A, %A
// CHECK-NEXT:    %t = relax.tuple(%B, %B)
// CHECK-NEXT:    %C = relax.concat %t {axis = 1}
// CHECK-NEXT:    %D = relax.add %C, %C
// CHECK-NEXT:    relax.return %D
// CHECK-NOT:   @subroutine
relax.function @main(%A: !relax.tensor<[16, 16], i32>) -> !relax.tensor<[16, 32], i32> {
  %B = relax.multiply %A, %A
  %C = relax.call @subroutine(%B) : !relax.tensor<[16, 32], i32>
  %D = relax.add %C, %C
  relax.return %D
}
relax.function private @subroutine(%B: !relax.tensor<[16, 16], i32>) -> !relax.tensor<[16, 32], i32> {
  %t = relax.tuple(%B, %B)
  %C = relax.concat %t {axis = 1}
  relax.return %C
}

// -----

// Into a dataflow block, a callee's dataflow block dissolves (TVM's
// test_inline_dataflow_block).

// CHECK-LABEL: @main
// CHECK-NEXT:    %D = relax.dataflow {
// CHECK-NEXT:      %B = relax.multiply %A, %A
// CHECK-NEXT:      %t = relax.tuple(%B, %B)
// CHECK-NEXT:      %C = relax.concat %t {axis = 1}
// CHECK-NEXT:      %D_1 = relax.add %C, %C
// CHECK-NEXT:      relax.output %D_1
// CHECK-NEXT:    }
// CHECK-NEXT:    relax.return %D
relax.function @main(%A: !relax.tensor<[16, 16], i32>) -> !relax.tensor<[16, 32], i32> {
  %D = relax.dataflow {
    %B = relax.multiply %A, %A
    %C = relax.call @subroutine(%B) : !relax.tensor<[16, 32], i32>
    %D = relax.add %C, %C
    relax.output %D
  }
  relax.return %D
}
relax.function private @subroutine(%B: !relax.tensor<[16, 16], i32>) -> !relax.tensor<[16, 32], i32> {
  %C = relax.dataflow {
    %t = relax.tuple(%B, %B)
    %C = relax.concat %t {axis = 1}
    relax.output %C
  }
  relax.return %C
}

// -----

// A body that cannot live in a dataflow block (an `if`) splits the caller's
// block around it (TVM's test_inline_non_dataflow_block_into_dataflow_block).

// CHECK-LABEL: @main
// CHECK-NEXT:    %B = relax.dataflow {
// CHECK-NEXT:      %B_1 = relax.multiply %A, %A
// CHECK-NEXT:      relax.output %B_1
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = relax.if %c
// CHECK-NEXT:      relax.yield %B
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %n = relax.negative %B
// CHECK-NEXT:      relax.yield %n
// CHECK-NEXT:    }
// CHECK-NEXT:    %D = relax.dataflow {
// CHECK-NEXT:      %D_1 = relax.add %r, %r
// CHECK-NEXT:      relax.output %D_1
// CHECK-NEXT:    }
relax.function @main(%A: !relax.tensor<[16, 16], i32>, %c: !relax.tensor<[], bool>) -> !relax.tensor<[16, 16], i32> {
  %D = relax.dataflow {
    %B = relax.multiply %A, %A
    %C = relax.call @subroutine(%B, %c) : !relax.tensor<[16, 16], i32>
    %D = relax.add %C, %C
    relax.output %D
  }
  relax.return %D
}
relax.function private @subroutine(%B: !relax.tensor<[16, 16], i32>, %c: !relax.tensor<[], bool>) -> !relax.tensor<[16, 16], i32> {
  %r = relax.if %c : !relax.tensor<[16, 16], i32> {
    relax.yield %B
  } else {
    %n = relax.negative %B
    relax.yield %n
  }
  relax.return %r
}

// -----

// The callee's signature variables become the caller's expressions, each
// call with its own (TVM's test_subroutine_with_symbolic_vars,
// test_subroutine_with_symbolic_vars_and_static_argument,
// test_inline_multiple_instances_with_distinct_static_shapes).

// CHECK-LABEL: @main
// CHECK-NEXT:    %t = relax.tuple(%A, %A) : !relax.tuple<tensor<[n, 16], i32>, tensor<[n, 16], i32>>
// CHECK-NEXT:    %C = relax.concat %t {axis = 1} : !relax.tensor<[n, 32], i32>
// CHECK-NEXT:    %t_1 = relax.tuple(%S, %S) : !relax.tuple<tensor<[16, 16], i32>, tensor<[16, 16], i32>>
// CHECK-NEXT:    %C_1 = relax.concat %t_1 {axis = 1} : !relax.tensor<[16, 32], i32>
relax.function @main(%A: !relax.tensor<[n, 16], i32>, %S: !relax.tensor<[16, 16], i32>) -> !relax.tuple<tensor<[n, 32], i32>, tensor<[16, 32], i32>> {
  %C = relax.call @subroutine(%A) : !relax.tensor<[n, 32], i32>
  %E = relax.call @subroutine(%S) : !relax.tensor<[16, 32], i32>
  %t = relax.tuple(%C, %E)
  relax.return %t
}
relax.function private @subroutine(%B: !relax.tensor<[n, 16], i32>) -> !relax.tensor<[n, 32], i32> {
  %t = relax.tuple(%B, %B)
  %C = relax.concat %t {axis = 1}
  relax.return %C
}

// -----

// Variables the callee binds in its body are renamed apart from the caller's;
// an argument not known to match its parameter is checked by a match_cast, as
// the call would have checked it.

// CHECK-LABEL: @main
// CHECK-NEXT:    %x = relax.match_cast %A : !relax.tensor<[k], f32>
// CHECK-NEXT:    %u = relax.call_pure_packed "my.unique"(%x) : !relax.tensor<ndim = 1, f32>
// CHECK-NEXT:    %v = relax.match_cast %u : !relax.tensor<[m_1], f32>
// CHECK-NEXT:    %m = relax.match_cast %A : !relax.tensor<[m], f32>
relax.function @main(%A: !relax.tensor<ndim = 1, f32>) -> !relax.tuple<tensor<ndim = 1, f32>, tensor<ndim = 1, f32>> {
  %r = relax.call @subroutine(%A) : !relax.tensor<ndim = 1, f32>
  %m = relax.match_cast %A : !relax.tensor<[m], f32>
  %t = relax.tuple(%r, %m)
  relax.return %t
}
relax.function private @subroutine(%x: !relax.tensor<[k], f32>) -> !relax.tensor<ndim = 1, f32> {
  %u = relax.call_pure_packed "my.unique"(%x) : !relax.tensor<ndim = 1, f32>
  %v = relax.match_cast %u : !relax.tensor<[m], f32>
  relax.return %v
}

// -----

// Nested private calls are inlined too (TVM's test_inline_nested_subroutine_calls,
// test_inline_multiple_instances).

// CHECK-LABEL: @main
// CHECK-NEXT:    %B = relax.multiply %A, %A
// CHECK-NEXT:    %C = relax.exp %B
// CHECK-NEXT:    %D = relax.multiply %C, %C
// CHECK-NEXT:    %C_1 = relax.exp %D
// CHECK-NEXT:    %D_1 = relax.multiply %C_1, %C_1
// CHECK-NEXT:    relax.return %D_1
// CHECK-NOT:   relax.function private
relax.function @main(%A: !relax.tensor<[16, 16], f32>) -> !relax.tensor<[16, 16], f32> {
  %B = relax.multiply %A, %A
  %D = relax.call @subroutine(%B) : !relax.tensor<[16, 16], f32>
  %E = relax.call @subroutine(%D) : !relax.tensor<[16, 16], f32>
  relax.return %E
}
relax.function private @subroutine(%B: !relax.tensor<[16, 16], f32>) -> !relax.tensor<[16, 16], f32> {
  %C = relax.exp %B
  %D = relax.call @subsubroutine(%C) : !relax.tensor<[16, 16], f32>
  relax.return %D
}
relax.function private @subsubroutine(%C: !relax.tensor<[16, 16], f32>) -> !relax.tensor<[16, 16], f32> {
  %D = relax.multiply %C, %C
  relax.return %D
}

// -----

// Recursive functions, functions used as values and fused kernels (`Primitive`)
// stay (TVM's test_skip_inline_of_recursive_functions).

// CHECK-LABEL: @main
// CHECK-NEXT:    %B = relax.call @recursive(%x)
// CHECK-NEXT:    %f = relax.global_var @by_value
// CHECK-NEXT:    %k = relax.call @kernel(%x)
// CHECK:       relax.function private @recursive
// CHECK:       relax.function private @by_value
// CHECK:       relax.function private @kernel
relax.function @main(%x: !relax.tensor<[], i64>) -> !relax.tuple<tensor<[], i64>, object, tensor<[], i64>> {
  %B = relax.call @recursive(%x) : !relax.tensor<[], i64>
  %f = relax.global_var @by_value : !relax.func<(tensor<[], i64>) -> tensor<[], i64>>
  %k = relax.call @kernel(%x) : !relax.tensor<[], i64>
  %t = relax.tuple(%B, %f, %k)
  relax.return %t
}
relax.function private @recursive(%x: !relax.tensor<[], i64>) -> !relax.tensor<[], i64> {
  %zero = relax.constant dense<[], i64, 0>
  %cond = relax.greater %x, %zero
  %r = relax.if %cond : !relax.tensor<[], i64> {
    %one = relax.constant dense<[], i64, 1>
    %y = relax.subtract %x, %one
    %o = relax.call @recursive(%y) : !relax.tensor<[], i64>
    relax.yield %o
  } else {
    relax.yield %zero
  }
  relax.return %r
}
relax.function private @by_value(%x: !relax.tensor<[], i64>) -> !relax.tensor<[], i64> {
  relax.return %x
}
relax.function private @kernel(%x: !relax.tensor<[], i64>) -> !relax.tensor<[], i64> attributes {Primitive = true} {
  relax.return %x
}
