// RUN: relax-opt %s -p relax-lambda-lift --split-input-file | filecheck %s
// RUN: relax-opt %s -p relax-lambda-lift,relax-lambda-lift --split-input-file | filecheck %s

// A lambda capturing nothing becomes a private function called directly
// (TVM's test_basic).

// CHECK-LABEL: relax.function private @basic_inner(%x2: !relax.tensor<[10, 5], f32>, %y2: !relax.tensor<[10, 5], f32>) -> !relax.tensor<[10, 5], f32> {
// CHECK-NEXT:   %s = relax.add %x2, %y2 : !relax.tensor<[10, 5], f32>
// CHECK-NEXT:   relax.return %s
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @basic(%x1: !relax.tensor<[10, 5], f32>, %y1: !relax.tensor<[10, 5], f32>) -> !relax.tensor<[10, 5], f32> {
// CHECK-NEXT:   %gv1 = relax.call @basic_inner(%x1, %y1) : !relax.tensor<[10, 5], f32>
// CHECK-NEXT:   relax.return %gv1
// CHECK-NEXT: }
relax.function @basic(%x1: !relax.tensor<[10, 5], f32>, %y1: !relax.tensor<[10, 5], f32>) -> !relax.tensor<[10, 5], f32> {
  %inner = relax.lambda (%x2: !relax.tensor<[10, 5], f32>, %y2: !relax.tensor<[10, 5], f32>) -> !relax.tensor<[10, 5], f32> {
    %s = relax.add %x2, %y2
    relax.return %s
  }
  %gv1 = relax.invoke %inner(%x1, %y1) : !relax.tensor<[10, 5], f32>
  relax.return %gv1
}

// -----

// A lambda returning a closure: the inner one captures the outer's parameter
// and becomes relax.make_closure, its call relax.invoke_pure_closure; the outer
// function now returns an object (TVM's test_closure).

// CHECK-LABEL: relax.function private @main_inner_func(%c1: !relax.tensor<[2, 3], f32>, %x1: !relax.tensor<[2, 3], f32>) -> !relax.tensor<[2, 3], f32> {
// CHECK-NEXT:   %s = relax.add %x1, %c1 : !relax.tensor<[2, 3], f32>
// CHECK-NEXT:   relax.return %s
// CHECK-NEXT: }
// CHECK-LABEL: relax.function private @main_outer_func(%c1: !relax.tensor<[2, 3], f32>) -> !relax.object {
// CHECK-NEXT:   %inner_func = relax.make_closure @main_inner_func(%c1) : !relax.object
// CHECK-NEXT:   relax.return %inner_func
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @main(%x: !relax.tensor<[2, 3], f32>, %y: !relax.tensor<[2, 3], f32>) -> !relax.tensor<[2, 3], f32> {
// CHECK-NEXT:   %in_call = relax.call @main_outer_func(%x) : !relax.object
// CHECK-NEXT:   %res = relax.invoke_pure_closure %in_call(%y) : !relax.tensor<[2, 3], f32>
// CHECK-NEXT:   relax.return %res
// CHECK-NEXT: }
relax.function @main(%x: !relax.tensor<[2, 3], f32>, %y: !relax.tensor<[2, 3], f32>) -> !relax.tensor<[2, 3], f32> {
  %outer_func = relax.lambda (%c1: !relax.tensor<[2, 3], f32>) -> !relax.func<(tensor<[2, 3], f32>) -> tensor<[2, 3], f32>> {
    %inner_func = relax.lambda (%x1: !relax.tensor<[2, 3], f32>) -> !relax.tensor<[2, 3], f32> {
      %s = relax.add %x1, %c1
      relax.return %s
    }
    relax.return %inner_func
  }
  %in_call = relax.invoke %outer_func(%x) : !relax.func<(tensor<[2, 3], f32>) -> tensor<[2, 3], f32>>
  %res = relax.invoke %in_call(%y) : !relax.tensor<[2, 3], f32>
  relax.return %res
}

// -----

// A recursive closure calls itself directly with its captured values
// (TVM's test_recursive).

// CHECK-LABEL: relax.function private @main_while_loop(%x: !relax.tensor<[2, 3], f32>, %i: !relax.tensor<[], i32>, %s: !relax.tensor<[2, 3], f32>) -> !relax.tensor<[2, 3], f32> {
// CHECK-NEXT:   %ten = relax.constant dense<[], i32, 10> : !relax.tensor<[], i32>
// CHECK-NEXT:   %cond = relax.less %i, %ten : !relax.tensor<[], bool>
// CHECK-NEXT:   %c = relax.constant dense<[], i32, 1> : !relax.tensor<[], i32>
// CHECK-NEXT:   %r = relax.if %cond : !relax.tensor<[2, 3], f32> {
// CHECK-NEXT:     %new_i = relax.add %i, %c : !relax.tensor<[], i32>
// CHECK-NEXT:     %new_s = relax.add %s, %x : !relax.tensor<[2, 3], f32>
// CHECK-NEXT:     %rr = relax.call @main_while_loop(%x, %new_i, %new_s) : !relax.tensor<[2, 3], f32>
// CHECK-NEXT:     relax.yield %rr
// CHECK-NEXT:   } else {
// CHECK-NEXT:     relax.yield %s
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %r
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @main(%x: !relax.tensor<[2, 3], f32>) -> !relax.tensor {
// CHECK-NEXT:   %while_loop = relax.make_closure @main_while_loop(%x) : !relax.object
// CHECK-NEXT:   %zero = relax.constant dense<[], i32, 0> : !relax.tensor<[], i32>
// CHECK-NEXT:   %gv = relax.invoke_pure_closure %while_loop(%zero, %x) : !relax.tensor<[2, 3], f32>
// CHECK-NEXT:   relax.return %gv
// CHECK-NEXT: }
relax.function @main(%x: !relax.tensor<[2, 3], f32>) -> !relax.tensor {
  %while_loop = relax.lambda recursive(%self) (%i: !relax.tensor<[], i32>, %s: !relax.tensor<[2, 3], f32>) -> !relax.tensor<[2, 3], f32> {
    %ten = relax.constant dense<[], i32, 10>
    %cond = relax.less %i, %ten
    %c = relax.constant dense<[], i32, 1>
    %r = relax.if %cond : !relax.tensor<[2, 3], f32> {
      %new_i = relax.add %i, %c
      %new_s = relax.add %s, %x
      %rr = relax.invoke %self(%new_i, %new_s) : !relax.tensor<[2, 3], f32>
      relax.yield %rr
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

// A recursive lambda capturing nothing; its other uses take relax.global_var.

// CHECK-LABEL: relax.function private @count_f(%i: !relax.tensor<[], i32>) -> !relax.tensor<[], i32> {
// CHECK-NEXT:   %ten = relax.constant dense<[], i32, 10> : !relax.tensor<[], i32>
// CHECK-NEXT:   %cond = relax.less %i, %ten : !relax.tensor<[], bool>
// CHECK-NEXT:   %r = relax.if %cond : !relax.tensor<[], i32> {
// CHECK-NEXT:     %one = relax.constant dense<[], i32, 1> : !relax.tensor<[], i32>
// CHECK-NEXT:     %n = relax.add %i, %one : !relax.tensor<[], i32>
// CHECK-NEXT:     %rr = relax.call @count_f(%n) : !relax.tensor<[], i32>
// CHECK-NEXT:     relax.yield %rr
// CHECK-NEXT:   } else {
// CHECK-NEXT:     relax.yield %i
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %r
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @count(%x: !relax.tensor<[], i32>) -> !relax.tuple<tensor<[], i32>, func<(tensor<[], i32>) -> tensor<[], i32>>> {
// CHECK-NEXT:   %f = relax.global_var @count_f : !relax.func<(tensor<[], i32>) -> tensor<[], i32>>
// CHECK-NEXT:   %g = relax.call @count_f(%x) : !relax.tensor<[], i32>
// CHECK-NEXT:   %t = relax.tuple(%g, %f) : !relax.tuple<tensor<[], i32>, func<(tensor<[], i32>) -> tensor<[], i32>>>
// CHECK-NEXT:   relax.return %t
// CHECK-NEXT: }
relax.function @count(%x: !relax.tensor<[], i32>) -> !relax.tuple<tensor<[], i32>, func<(tensor<[], i32>) -> tensor<[], i32>>> {
  %f = relax.lambda recursive(%self) (%i: !relax.tensor<[], i32>) -> !relax.tensor<[], i32> {
    %ten = relax.constant dense<[], i32, 10>
    %cond = relax.less %i, %ten
    %r = relax.if %cond : !relax.tensor<[], i32> {
      %one = relax.constant dense<[], i32, 1>
      %n = relax.add %i, %one
      %rr = relax.invoke %self(%n) : !relax.tensor<[], i32>
      relax.yield %rr
    } else {
      relax.yield %i
    }
    relax.return %r
  }
  %g = relax.invoke %f(%x) : !relax.tensor<[], i32>
  %t = relax.tuple(%g, %f)
  relax.return %t
}

// -----

// Lambdas of several functions are named after their function
// (TVM's test_multi_func).

// CHECK-LABEL: relax.function private @glob_func_1_inner(%x2: !relax.tensor<[10, 5], f32>, %y2: !relax.tensor<[10, 5], f32>) -> !relax.tensor<[10, 5], f32> {
// CHECK-NEXT:   %s = relax.add %x2, %y2 : !relax.tensor<[10, 5], f32>
// CHECK-NEXT:   relax.return %s
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @glob_func_1(%x1: !relax.tensor<[10, 5], f32>, %y1: !relax.tensor<[10, 5], f32>) -> !relax.tensor<[10, 5], f32> {
// CHECK-NEXT:   %gv1 = relax.call @glob_func_1_inner(%x1, %y1) : !relax.tensor<[10, 5], f32>
// CHECK-NEXT:   relax.return %gv1
// CHECK-NEXT: }
// CHECK-LABEL: relax.function private @glob_func_2_inner(%x2: !relax.tensor<[10, 5], f32>, %y2: !relax.tensor<[10, 5], f32>) -> !relax.tensor<[10, 5], f32> {
// CHECK-NEXT:   %s = relax.add %x2, %y2 : !relax.tensor<[10, 5], f32>
// CHECK-NEXT:   relax.return %s
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @glob_func_2(%x1: !relax.tensor<[10, 5], f32>, %y1: !relax.tensor<[10, 5], f32>) -> !relax.tensor<[10, 5], f32> {
// CHECK-NEXT:   %gv1 = relax.call @glob_func_2_inner(%x1, %y1) : !relax.tensor<[10, 5], f32>
// CHECK-NEXT:   relax.return %gv1
// CHECK-NEXT: }
relax.function @glob_func_1(%x1: !relax.tensor<[10, 5], f32>, %y1: !relax.tensor<[10, 5], f32>) -> !relax.tensor<[10, 5], f32> {
  %inner = relax.lambda (%x2: !relax.tensor<[10, 5], f32>, %y2: !relax.tensor<[10, 5], f32>) -> !relax.tensor<[10, 5], f32> {
    %s = relax.add %x2, %y2
    relax.return %s
  }
  %gv1 = relax.invoke %inner(%x1, %y1) : !relax.tensor<[10, 5], f32>
  relax.return %gv1
}
relax.function @glob_func_2(%x1: !relax.tensor<[10, 5], f32>, %y1: !relax.tensor<[10, 5], f32>) -> !relax.tensor<[10, 5], f32> {
  %inner = relax.lambda (%x2: !relax.tensor<[10, 5], f32>, %y2: !relax.tensor<[10, 5], f32>) -> !relax.tensor<[10, 5], f32> {
    %s = relax.add %x2, %y2
    relax.return %s
  }
  %gv1 = relax.invoke %inner(%x1, %y1) : !relax.tensor<[10, 5], f32>
  relax.return %gv1
}

// -----

// Without lambdas nothing changes (TVM's test_no_local_func).

// CHECK-LABEL: relax.function @no_local(%c0: !relax.tensor<[16, 16], f32>) -> !relax.tensor<[16, 16], f32> {
// CHECK-NEXT:   %s = relax.add %c0, %c0 : !relax.tensor<[16, 16], f32>
// CHECK-NEXT:   relax.return %s
// CHECK-NEXT: }
relax.function @no_local(%c0: !relax.tensor<[16, 16], f32>) -> !relax.tensor<[16, 16], f32> {
  %s = relax.add %c0, %c0
  relax.return %s
}

// -----

// An impure lambda stays impure (TVM's test_impure_function).

// CHECK-LABEL: relax.function private impure @impure_inner() -> !relax.tuple<> {
// CHECK-NEXT:   %y = relax.print {format = "Wow!"} : !relax.tuple<>
// CHECK-NEXT:   relax.return %y
// CHECK-NEXT: }
// CHECK-LABEL: relax.function impure @impure(%x: !relax.tensor<[], i32>) -> !relax.tensor<[], i32> {
// CHECK-NEXT:   %gv1 = relax.call @impure_inner() : !relax.tuple<>
// CHECK-NEXT:   relax.return %x
// CHECK-NEXT: }
relax.function impure @impure(%x: !relax.tensor<[], i32>) -> !relax.tensor<[], i32> {
  %inner = relax.lambda impure () -> !relax.tuple<> {
    %y = relax.print {format = "Wow!"}
    relax.return %y
  }
  %gv1 = relax.invoke %inner() : !relax.tuple<>
  relax.return %x
}

// -----

// A name the module has is not reused (TVM's
// test_lambda_function_with_same_name_as_global).

// CHECK-LABEL: relax.function private @main_inner_0(%x2: !relax.tensor<[10, 5], f32>, %y2: !relax.tensor<[10, 5], f32>) -> !relax.tensor<[10, 5], f32> {
// CHECK-NEXT:   %s = relax.add %x2, %y2 : !relax.tensor<[10, 5], f32>
// CHECK-NEXT:   relax.return %s
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @main(%x1: !relax.tensor<[10, 5], f32>, %y1: !relax.tensor<[10, 5], f32>) -> !relax.tensor<[10, 5], f32> {
// CHECK-NEXT:   %gv1 = relax.call @main_inner_0(%x1, %y1) : !relax.tensor<[10, 5], f32>
// CHECK-NEXT:   relax.return %gv1
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @main_inner() -> !relax.tuple<> {
// CHECK-NEXT:   %t = relax.tuple() : !relax.tuple<>
// CHECK-NEXT:   relax.return %t
// CHECK-NEXT: }
relax.function @main(%x1: !relax.tensor<[10, 5], f32>, %y1: !relax.tensor<[10, 5], f32>) -> !relax.tensor<[10, 5], f32> {
  %inner = relax.lambda (%x2: !relax.tensor<[10, 5], f32>, %y2: !relax.tensor<[10, 5], f32>) -> !relax.tensor<[10, 5], f32> {
    %s = relax.add %x2, %y2
    relax.return %s
  }
  %gv1 = relax.invoke %inner(%x1, %y1) : !relax.tensor<[10, 5], f32>
  relax.return %gv1
}
relax.function @main_inner() -> !relax.tuple<> {
  %t = relax.tuple()
  relax.return %t
}

// -----

// Two lambdas with the same name in one function: the whole path of names,
// then a number.

// CHECK-LABEL: relax.function private @paths_a_f(%q: !relax.tensor<[3], f32>) -> !relax.tensor<[3], f32> {
// CHECK-NEXT:   relax.return %q
// CHECK-NEXT: }
// CHECK-LABEL: relax.function private @paths_a(%p: !relax.tensor<[3], f32>) -> !relax.tensor<[3], f32> {
// CHECK-NEXT:   %r = relax.call @paths_a_f(%p) : !relax.tensor<[3], f32>
// CHECK-NEXT:   relax.return %r
// CHECK-NEXT: }
// CHECK-LABEL: relax.function private @paths_f_0(%q: !relax.tensor<[3], f32>) -> !relax.tensor<[3], f32> {
// CHECK-NEXT:   relax.return %q
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @paths(%x: !relax.tensor<[3], f32>) -> !relax.tensor<[3], f32> {
// CHECK-NEXT:   %u = relax.call @paths_a(%x) : !relax.tensor<[3], f32>
// CHECK-NEXT:   %v = relax.call @paths_f_0(%u) : !relax.tensor<[3], f32>
// CHECK-NEXT:   relax.return %v
// CHECK-NEXT: }
relax.function @paths(%x: !relax.tensor<[3], f32>) -> !relax.tensor<[3], f32> {
  %a = relax.lambda (%p: !relax.tensor<[3], f32>) -> !relax.tensor<[3], f32> {
    %f = relax.lambda (%q: !relax.tensor<[3], f32>) -> !relax.tensor<[3], f32> {
      relax.return %q
    }
    %r = relax.invoke %f(%p) : !relax.tensor<[3], f32>
    relax.return %r
  }
  %f = relax.lambda (%q: !relax.tensor<[3], f32>) -> !relax.tensor<[3], f32> {
    relax.return %q
  }
  %u = relax.invoke %a(%x) : !relax.tensor<[3], f32>
  %v = relax.invoke %f(%u) : !relax.tensor<[3], f32>
  relax.return %v
}

// -----

// Symbolic variables bound by the lambda's own parameters
// (TVM's test_symbolic_variable_defined_by_inner_func and _by_outer_func).

// CHECK-LABEL: relax.function private @sym_inner_inner(%x2: !relax.tensor<[n, m], f32>, %y2: !relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32> {
// CHECK-NEXT:   %s = relax.add %x2, %y2 : !relax.tensor<[n, m], f32>
// CHECK-NEXT:   relax.return %s
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @sym_inner(%x1: !relax.tensor<[10, 5], f32>, %y1: !relax.tensor<[10, 5], f32>) -> !relax.tensor<[10, 5], f32> {
// CHECK-NEXT:   %sum = relax.call @sym_inner_inner(%x1, %y1) : !relax.tensor<[10, 5], f32>
// CHECK-NEXT:   relax.return %sum
// CHECK-NEXT: }
// CHECK-LABEL: relax.function private @sym_outer_inner(%x2: !relax.tensor<[n, m], f32>, %y2: !relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32> {
// CHECK-NEXT:   %s = relax.add %x2, %y2 : !relax.tensor<[n, m], f32>
// CHECK-NEXT:   relax.return %s
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @sym_outer(%x1: !relax.tensor<[n, m], f32>, %y1: !relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32> {
// CHECK-NEXT:   %sum = relax.call @sym_outer_inner(%x1, %y1) : !relax.tensor<[n, m], f32>
// CHECK-NEXT:   relax.return %sum
// CHECK-NEXT: }
relax.function @sym_inner(%x1: !relax.tensor<[10, 5], f32>, %y1: !relax.tensor<[10, 5], f32>) -> !relax.tensor<[10, 5], f32> {
  %inner = relax.lambda (%x2: !relax.tensor<[n, m], f32>, %y2: !relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32> {
    %s = relax.add %x2, %y2
    relax.return %s
  }
  %sum = relax.invoke %inner(%x1, %y1) : !relax.tensor<[10, 5], f32>
  relax.return %sum
}
relax.function @sym_outer(%x1: !relax.tensor<[n, m], f32>, %y1: !relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32> {
  %inner = relax.lambda (%x2: !relax.tensor<[n, m], f32>, %y2: !relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32> {
    %s = relax.add %x2, %y2
    relax.return %s
  }
  %sum = relax.invoke %inner(%x1, %y1) : !relax.tensor<[n, m], f32>
  relax.return %sum
}

// -----

// Symbolic variables of the enclosing function that the lifted function's
// parameters do not bind are passed as one more shape (unlike TVM).

// CHECK-LABEL: relax.function private @sym_captured_f(%y: !relax.tensor<[2 * n], f32>, %tir_vars: !relax.shape<[n]>) -> !relax.tensor<ndim = 1, f32> {
// CHECK-NEXT:   %s = relax.shape [n] : !relax.shape<[n]>
// CHECK-NEXT:   %z = relax.zeros %s {dtype = f32} : !relax.tensor<[n], f32>
// CHECK-NEXT:   %w = relax.add %z, %z : !relax.tensor<[n], f32>
// CHECK-NEXT:   %r = relax.tuple(%y, %w) : !relax.tuple<tensor<[2 * n], f32>, tensor<[n], f32>>
// CHECK-NEXT:   %c = relax.concat %r {axis = 0} : !relax.tensor<[3 * n], f32>
// CHECK-NEXT:   relax.return %c
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @sym_captured(%x: !relax.tensor<[n], f32>) -> !relax.tensor<ndim = 1, f32> {
// CHECK-NEXT:   %t = relax.tuple(%x, %x) : !relax.tuple<tensor<[n], f32>, tensor<[n], f32>>
// CHECK-NEXT:   %y = relax.concat %t {axis = 0} : !relax.tensor<[2 * n], f32>
// CHECK-NEXT:   %tir_vars = relax.shape [n] : !relax.shape<[n]>
// CHECK-NEXT:   %f = relax.make_closure @sym_captured_f(%y, %tir_vars) : !relax.object
// CHECK-NEXT:   %r = relax.invoke_pure_closure %f() : !relax.tensor<ndim = 1, f32>
// CHECK-NEXT:   relax.return %r
// CHECK-NEXT: }
relax.function @sym_captured(%x: !relax.tensor<[n], f32>) -> !relax.tensor<ndim = 1, f32> {
  %t = relax.tuple(%x, %x)
  %y = relax.concat %t {axis = 0}
  %f = relax.lambda () -> !relax.tensor<ndim = 1, f32> {
    %s = relax.shape [n]
    %z = relax.zeros %s {dtype = f32}
    %w = relax.add %z, %z
    %r = relax.tuple(%y, %w)
    %c = relax.concat %r {axis = 0}
    relax.return %c
  }
  %r = relax.invoke %f() : !relax.tensor<ndim = 1, f32>
  relax.return %r
}

// -----

// Lambdas nested twice: each level passes on what the inner one captures.

// CHECK-LABEL: relax.function private @nested_inner(%a: !relax.tensor<[3], f32>, %x: !relax.tensor<[3], f32>, %b: !relax.tensor<[3], f32>) -> !relax.tensor<[3], f32> {
// CHECK-NEXT:   %s = relax.add %a, %b : !relax.tensor<[3], f32>
// CHECK-NEXT:   %t = relax.add %s, %x : !relax.tensor<[3], f32>
// CHECK-NEXT:   relax.return %t
// CHECK-NEXT: }
// CHECK-LABEL: relax.function private @nested_outer(%x: !relax.tensor<[3], f32>, %a: !relax.tensor<[3], f32>) -> !relax.tensor<[3], f32> {
// CHECK-NEXT:   %inner = relax.make_closure @nested_inner(%a, %x) : !relax.object
// CHECK-NEXT:   %u = relax.invoke_pure_closure %inner(%a) : !relax.tensor<[3], f32>
// CHECK-NEXT:   relax.return %u
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @nested(%x: !relax.tensor<[3], f32>) -> !relax.tensor<[3], f32> {
// CHECK-NEXT:   %outer = relax.make_closure @nested_outer(%x) : !relax.object
// CHECK-NEXT:   %r = relax.invoke_pure_closure %outer(%x) : !relax.tensor<[3], f32>
// CHECK-NEXT:   relax.return %r
// CHECK-NEXT: }
relax.function @nested(%x: !relax.tensor<[3], f32>) -> !relax.tensor<[3], f32> {
  %outer = relax.lambda (%a: !relax.tensor<[3], f32>) -> !relax.tensor<[3], f32> {
    %inner = relax.lambda (%b: !relax.tensor<[3], f32>) -> !relax.tensor<[3], f32> {
      %s = relax.add %a, %b
      %t = relax.add %s, %x
      relax.return %t
    }
    %u = relax.invoke %inner(%a) : !relax.tensor<[3], f32>
    relax.return %u
  }
  %r = relax.invoke %outer(%x) : !relax.tensor<[3], f32>
  relax.return %r
}

// -----

// A closure in a dataflow block, and closures flowing through an if and a
// tuple: every call of them becomes relax.invoke_pure_closure.

// CHECK-LABEL: relax.function private @flows_f(%x: !relax.tensor<[3], f32>, %y: !relax.tensor<[3], f32>) -> !relax.tensor<[3], f32> {
// CHECK-NEXT:   %z = relax.add %x, %y : !relax.tensor<[3], f32>
// CHECK-NEXT:   relax.return %z
// CHECK-NEXT: }
// CHECK-LABEL: relax.function private @flows_g(%x: !relax.tensor<[3], f32>, %y: !relax.tensor<[3], f32>) -> !relax.tensor<[3], f32> {
// CHECK-NEXT:   %z = relax.multiply %x, %y : !relax.tensor<[3], f32>
// CHECK-NEXT:   relax.return %z
// CHECK-NEXT: }
// CHECK-LABEL: relax.function private @flows_h(%y: !relax.tensor<[3], f32>) -> !relax.tensor<[3], f32> {
// CHECK-NEXT:   relax.return %y
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @flows(%x: !relax.tensor<[3], f32>, %b: !relax.tensor<[], bool>) -> !relax.tensor<[3], f32> {
// CHECK-NEXT:   %d = relax.dataflow {
// CHECK-NEXT:     %f = relax.make_closure @flows_f(%x) : !relax.object
// CHECK-NEXT:     %a = relax.invoke_pure_closure %f(%x) : !relax.tensor<[3], f32>
// CHECK-NEXT:     relax.output %a
// CHECK-NEXT:   }
// CHECK-NEXT:   %g = relax.make_closure @flows_g(%x) : !relax.object
// CHECK-NEXT:   %h = relax.global_var @flows_h : !relax.func<(tensor<[3], f32>) -> tensor<[3], f32>>
// CHECK-NEXT:   %k = relax.if %b : !relax.object {
// CHECK-NEXT:     relax.yield %g
// CHECK-NEXT:   } else {
// CHECK-NEXT:     relax.yield %h
// CHECK-NEXT:   }
// CHECK-NEXT:   %t = relax.tuple(%g, %h) : !relax.tuple<object, func<(tensor<[3], f32>) -> tensor<[3], f32>>>
// CHECK-NEXT:   %t0 = relax.tuple_get_item %t[0] : !relax.object
// CHECK-NEXT:   %r1 = relax.invoke_pure_closure %k(%d) : !relax.tensor<[3], f32>
// CHECK-NEXT:   %r2 = relax.invoke_pure_closure %t0(%r1) : !relax.tensor<[3], f32>
// CHECK-NEXT:   relax.return %r2
// CHECK-NEXT: }
relax.function @flows(%x: !relax.tensor<[3], f32>, %b: !relax.tensor<[], bool>) -> !relax.tensor<[3], f32> {
  %d = relax.dataflow {
    %f = relax.lambda (%y: !relax.tensor<[3], f32>) -> !relax.tensor<[3], f32> {
      %z = relax.add %x, %y
      relax.return %z
    }
    %a = relax.invoke %f(%x) : !relax.tensor<[3], f32>
    relax.output %a
  }
  %g = relax.lambda (%y: !relax.tensor<[3], f32>) -> !relax.tensor<[3], f32> {
    %z = relax.multiply %x, %y
    relax.return %z
  }
  %h = relax.lambda (%y: !relax.tensor<[3], f32>) -> !relax.tensor<[3], f32> {
    relax.return %y
  }
  %k = relax.if %b {
    relax.yield %g
  } else {
    relax.yield %h
  }
  %t = relax.tuple(%g, %h)
  %t0 = relax.tuple_get_item %t[0]
  %r1 = relax.invoke %k(%d) : !relax.tensor<[3], f32>
  %r2 = relax.invoke %t0(%r1) : !relax.tensor<[3], f32>
  relax.return %r2
}

// -----

// A function returning a closure returns an object; its callers invoke the
// result as a closure, and a function receiving one is called through
// relax.invoke_pure_closure.

// CHECK-LABEL: relax.function private @make_f(%x: !relax.tensor<[3], f32>, %y: !relax.tensor<[3], f32>) -> !relax.tensor<[3], f32> {
// CHECK-NEXT:   %z = relax.add %x, %y : !relax.tensor<[3], f32>
// CHECK-NEXT:   relax.return %z
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @make(%x: !relax.tensor<[3], f32>) -> !relax.object {
// CHECK-NEXT:   %f = relax.make_closure @make_f(%x) : !relax.object
// CHECK-NEXT:   relax.return %f
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @apply(%g: !relax.func<(tensor<[3], f32>) -> tensor<[3], f32>>, %x: !relax.tensor<[3], f32>) -> !relax.tensor<[3], f32> {
// CHECK-NEXT:   %r = relax.invoke %g(%x) : !relax.tensor<[3], f32>
// CHECK-NEXT:   relax.return %r
// CHECK-NEXT: }
// CHECK-LABEL: relax.function @use(%x: !relax.tensor<[3], f32>) -> !relax.tensor<[3], f32> {
// CHECK-NEXT:   %f = relax.call @make(%x) : !relax.object
// CHECK-NEXT:   %r = relax.invoke_pure_closure %f(%x) : !relax.tensor<[3], f32>
// CHECK-NEXT:   %apply = relax.global_var @apply : !relax.func<(func<(tensor<[3], f32>) -> tensor<[3], f32>>, tensor<[3], f32>) -> tensor<[3], f32>>
// CHECK-NEXT:   %s = relax.invoke_pure_closure %apply(%f, %r) : !relax.tensor<[3], f32>
// CHECK-NEXT:   relax.return %s
// CHECK-NEXT: }
relax.function @make(%x: !relax.tensor<[3], f32>) -> !relax.func<(tensor<[3], f32>) -> tensor<[3], f32>> {
  %f = relax.lambda (%y: !relax.tensor<[3], f32>) -> !relax.tensor<[3], f32> {
    %z = relax.add %x, %y
    relax.return %z
  }
  relax.return %f
}
relax.function @apply(%g: !relax.func<(tensor<[3], f32>) -> tensor<[3], f32>>, %x: !relax.tensor<[3], f32>) -> !relax.tensor<[3], f32> {
  %r = relax.invoke %g(%x) : !relax.tensor<[3], f32>
  relax.return %r
}
relax.function @use(%x: !relax.tensor<[3], f32>) -> !relax.tensor<[3], f32> {
  %f = relax.call @make(%x) : !relax.func<(tensor<[3], f32>) -> tensor<[3], f32>>
  %r = relax.invoke %f(%x) : !relax.tensor<[3], f32>
  %s = relax.call @apply(%f, %r) : !relax.tensor<[3], f32>
  relax.return %s
}
