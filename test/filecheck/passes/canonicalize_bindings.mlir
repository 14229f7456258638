// RUN: relax-opt %s -p relax-canonicalize-bindings --split-input-file | filecheck %s
// RUN: relax-opt %s -p relax-canonicalize-bindings,relax-canonicalize-bindings --split-input-file | filecheck %s

// TVM's test_match_cast / test_fold_match_cast: a cast its value's StructInfo
// already implies is the value itself.

// CHECK-LABEL: @trivial_match_cast
// CHECK-NEXT:   %z = relax.add %x, %x : !relax.tensor<[2, 3], f32>
// CHECK-NEXT:   relax.return %z
relax.function @trivial_match_cast(%x: !relax.tensor<[2, 3], f32>) -> !relax.tensor<[2, 3], f32> {
  %y = relax.match_cast %x : !relax.tensor<[2, 3], f32>
  %z = relax.add %y, %y
  relax.return %z
}

// -----

// TVM's test_change_shape: a cast that may fail stays.

// CHECK-LABEL: @cast_stays
// CHECK-NEXT:   %y = relax.match_cast %x : !relax.tensor<[2, 3], f32>
// CHECK-NEXT:   relax.return %y
relax.function @cast_stays(%x: !relax.tensor<ndim = 2, f32>) -> !relax.tensor<[2, 3], f32> {
  %y = relax.match_cast %x : !relax.tensor<[2, 3], f32>
  relax.return %y
}

// -----

// TVM's test_replace_symbolic_variable_and_remove_match_cast and
// test_fold_variables_from_match_cast: a variable matched against a known
// expression is that expression; the cast then goes.

// CHECK-LABEL: @learn_symbolic_var
// CHECK-NEXT:   %s = relax.shape [n, 2, 2] : !relax.shape<[n, 2, 2]>
// CHECK-NEXT:   %z = relax.reshape %x, %s : !relax.tensor<[n, 2, 2], f32>
// CHECK-NEXT:   relax.return %z
relax.function @learn_symbolic_var(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 2, 2], f32> {
  %y = relax.match_cast %x : !relax.tensor<[m, 4], f32>
  %s = relax.shape [m, 2, 2]
  %z = relax.reshape %y, %s
  relax.return %z
}

// -----

// TVM's test_unwrap_tuple: an item of a tuple built here is the field.

// CHECK-LABEL: @unwrap_tuple
// CHECK-NEXT:   %t = relax.tuple(%x, %y) : !relax.tuple<tensor<[4], f32>, tensor<[4], f32>>
// CHECK-NEXT:   %c = relax.add %x, %y : !relax.tensor<[4], f32>
// CHECK-NEXT:   relax.return %c
relax.function @unwrap_tuple(%x: !relax.tensor<[4], f32>, %y: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  %t = relax.tuple(%x, %y)
  %a = relax.tuple_get_item %t[0]
  %b = relax.tuple_get_item %t[1]
  %c = relax.add %a, %b
  relax.return %c
}

// -----

// TVM's test_trace_tuple_through_round_trip: a tuple of all the items of a
// tuple, in order, is that tuple.

// CHECK-LABEL: @tuple_round_trip
// CHECK-NEXT:   %a = relax.tuple_get_item %t[0] : !relax.tensor<[4], f32>
// CHECK-NEXT:   %b = relax.tuple_get_item %t[1] : !relax.tensor<[4], f32>
// CHECK-NEXT:   relax.return %t
relax.function @tuple_round_trip(%t: !relax.tuple<tensor<[4], f32>, tensor<[4], f32>>) -> !relax.tuple<tensor<[4], f32>, tensor<[4], f32>> {
  %a = relax.tuple_get_item %t[0]
  %b = relax.tuple_get_item %t[1]
  %u = relax.tuple(%a, %b)
  relax.return %u
}

// -----

// TVM's test_trace_partial_tuple_through_round_trip: a partial or reordered
// tuple stays.

// CHECK-LABEL: @partial_tuple
// CHECK-NEXT:   %a = relax.tuple_get_item %t[0] : !relax.tensor<[4], f32>
// CHECK-NEXT:   %b = relax.tuple_get_item %t[1] : !relax.tensor<[4], f32>
// CHECK-NEXT:   %u = relax.tuple(%a, %b) : !relax.tuple<tensor<[4], f32>, tensor<[4], f32>>
// CHECK-NEXT:   relax.return %u
relax.function @partial_tuple(%t: !relax.tuple<tensor<[4], f32>, tensor<[4], f32>, tensor<[4], f32>>) -> !relax.tuple<tensor<[4], f32>, tensor<[4], f32>> {
  %a = relax.tuple_get_item %t[0]
  %b = relax.tuple_get_item %t[1]
  %u = relax.tuple(%a, %b)
  relax.return %u
}

// -----

// TVM's test_multiple_outputs / test_canonicalize_var_to_dataflow_var_if_legal:
// a dataflow block exports only what is used after it, each value once, and
// no outer value.

// CHECK-LABEL: @prune_outputs
// CHECK-NEXT:   %b = relax.dataflow {
// CHECK-NEXT:     %lv0 = relax.add %x, %x : !relax.tensor<[4], f32>
// CHECK-NEXT:     %lv1 = relax.multiply %lv0, %x : !relax.tensor<[4], f32>
// CHECK-NEXT:     relax.output %lv1
// CHECK-NEXT:   }
// CHECK-NEXT:   %r = relax.add %b, %x : !relax.tensor<[4], f32>
// CHECK-NEXT:   %s = relax.add %r, %b : !relax.tensor<[4], f32>
// CHECK-NEXT:   relax.return %s
relax.function @prune_outputs(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  %a, %b, %c, %d = relax.dataflow {
    %lv0 = relax.add %x, %x
    %lv1 = relax.multiply %lv0, %x
    relax.output %lv0, %lv1, %lv1, %x
  }
  %r = relax.add %c, %d
  %s = relax.add %r, %b
  relax.return %s
}

// -----

// TVM's test_match_cast_may_have_distinct_values_in_branches: what a branch
// learns stays in the branch.

// CHECK-LABEL: @branches
// CHECK-NEXT:   %r = relax.if %c : !relax.tensor<[n], f32> {
// CHECK-NEXT:     %s = relax.shape [n] : !relax.shape<[n]>
// CHECK-NEXT:     %b = relax.reshape %x, %s : !relax.tensor<[n], f32>
// CHECK-NEXT:     relax.yield %b
// CHECK-NEXT:   } else {
// CHECK-NEXT:     relax.yield %x
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %r
relax.function @branches(%c: !relax.tensor<[], bool>, %x: !relax.tensor<[n], f32>) -> !relax.tensor<ndim = 1, f32> {
  %r = relax.if %c : !relax.tensor<ndim = 1, f32> {
    %a = relax.match_cast %x : !relax.tensor<[k], f32>
    %s = relax.shape [k]
    %b = relax.reshape %a, %s
    relax.yield %b
  } else {
    %a = relax.match_cast %x : !relax.tensor<[k], f32>
    relax.yield %a
  }
  relax.return %r
}

// -----

// TVM's test_inner_function: closures are canonicalized too.

// CHECK-LABEL: @inner_function
// CHECK-NEXT:   %f = relax.lambda (%y: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
// CHECK-NEXT:     %t = relax.tuple(%y) : !relax.tuple<tensor<[4], f32>>
// CHECK-NEXT:     relax.return %y
// CHECK-NEXT:   }
// CHECK-NEXT:   %r = relax.invoke %f(%x) : !relax.tensor<[4], f32>
// CHECK-NEXT:   relax.return %r
relax.function @inner_function(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  %f = relax.lambda (%y: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
    %z = relax.match_cast %y : !relax.tensor<[4], f32>
    %t = relax.tuple(%z)
    %u = relax.tuple_get_item %t[0]
    relax.return %u
  }
  %r = relax.invoke %f(%x) : !relax.tensor<[4], f32>
  relax.return %r
}

// -----

// Impure operations stay, whatever their results' uses.

// CHECK-LABEL: @impure
// CHECK-NEXT:   %p = relax.call_packed "log"(%x) : !relax.object
// CHECK-NEXT:   relax.return %x
relax.function impure @impure(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  %p = relax.call_packed "log"(%x) : !relax.object
  %y = relax.match_cast %x : !relax.tensor<[4], f32>
  relax.return %y
}

// -----

// TVM's test_simple_assignments, test_ops: a chain of aliases (`y = x`) is the
// value; uses take it. An alias of a weaker type goes too, its uses re-inferred.

// CHECK-LABEL: @aliases
// CHECK-NEXT:   %z = relax.add %x, %w : !relax.tensor<[2, 3], f32>
// CHECK-NEXT:   relax.return %z
relax.function @aliases(%x: !relax.tensor<[2, 3], f32>, %w: !relax.tensor<[2, 3], f32>) -> !relax.tensor<ndim = 2, f32> {
  %y = relax.alias %x
  %q = relax.alias %y
  %o = relax.alias %q : !relax.tensor<ndim = 2, f32>
  %z = relax.add %o, %w : !relax.tensor<ndim = 2, f32>
  relax.return %z
}

// -----

// TVM's test_dataflow_block and test_assign_to_output_in_dataflow_block: the
// block exports the aliased value; a block left with nothing goes.

// CHECK-LABEL: @aliases_in_dataflow
// CHECK-NEXT:   %n = relax.dataflow {
// CHECK-NEXT:     %y = relax.constant
// CHECK-NEXT:     relax.output %y
// CHECK-NEXT:   }
// CHECK-NEXT:   %r = relax.tuple(%n, %x)
relax.function @aliases_in_dataflow(%x: !relax.tensor<[2], f32>) -> !relax.object {
  %n, %m = relax.dataflow {
    %y = relax.constant dense<[], i32, 1> : !relax.tensor<[], i32>
    %z = relax.alias %y
    %n = relax.alias %z
    %a = relax.alias %x
    %m = relax.alias %a
    relax.output %n, %m
  }
  %r = relax.tuple(%n, %m) : !relax.object
  relax.return %r
}
