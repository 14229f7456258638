// RUN: relax-opt %s -p relax-convert-to-dataflow --split-input-file | filecheck %s
// RUN: relax-opt %s -p relax-convert-to-dataflow,relax-convert-to-dataflow --split-input-file | filecheck %s
// RUN: relax-opt %s -p 'relax-convert-to-dataflow{min-size=1}' --split-input-file | filecheck %s --check-prefix=ONE

// TVM's test_basic: a run of pure bindings becomes a dataflow block exporting
// what is used after it.

// CHECK-LABEL: @basic
// CHECK-NEXT:   %c = relax.dataflow {
// CHECK-NEXT:     %a = relax.add %x, %y : !relax.tensor<[4], f32>
// CHECK-NEXT:     %b = relax.multiply %a, %x : !relax.tensor<[4], f32>
// CHECK-NEXT:     %c_1 = relax.subtract %b, %a : !relax.tensor<[4], f32>
// CHECK-NEXT:     relax.output %c_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %c
relax.function @basic(%x: !relax.tensor<[4], f32>, %y: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  %a = relax.add %x, %y
  %b = relax.multiply %a, %x
  %c = relax.subtract %b, %a
  relax.return %c
}

// -----

// TVM's test_trivial: a single binding is below the default minimum size.

// ONE-LABEL: @trivial
// ONE-NEXT:    %a = relax.dataflow {
// ONE-NEXT:      %a_1 = relax.add %x, %x
// ONE-NEXT:      relax.output %a_1
// CHECK-LABEL: @trivial
// CHECK-NEXT:   %a = relax.add %x, %x : !relax.tensor<[4], f32>
// CHECK-NEXT:   relax.return %a
relax.function @trivial(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  %a = relax.add %x, %x
  relax.return %a
}

// -----

// TVM's test_multiple_blocks / test_impure_external_function: an impure call
// splits the runs.

// CHECK-LABEL: @multiple_blocks
// CHECK-NEXT:   %a, %b = relax.dataflow {
// CHECK-NEXT:     %a_1 = relax.add %x, %x : !relax.tensor<[4], f32>
// CHECK-NEXT:     %b_1 = relax.multiply %a_1, %x : !relax.tensor<[4], f32>
// CHECK-NEXT:     relax.output %a_1, %b_1
// CHECK-NEXT:   }
// CHECK-NEXT:   %p = relax.call_packed "log"(%b) : !relax.object
// CHECK-NEXT:   %d = relax.dataflow {
// CHECK-NEXT:     %c = relax.subtract %b, %a : !relax.tensor<[4], f32>
// CHECK-NEXT:     %d_1 = relax.exp %c : !relax.tensor<[4], f32>
// CHECK-NEXT:     relax.output %d_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %d
relax.function impure @multiple_blocks(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  %a = relax.add %x, %x
  %b = relax.multiply %a, %x
  %p = relax.call_packed "log"(%b) : !relax.object
  %c = relax.subtract %b, %a
  %d = relax.exp %c
  relax.return %d
}

// -----

// TVM's test_extract_inside_branches: an if stays outside, its branches are
// converted.

// CHECK-LABEL: @inside_branches
// CHECK-NEXT:   %r = relax.if %cond : !relax.tensor<[4], f32> {
// CHECK-NEXT:     %b = relax.dataflow {
// CHECK-NEXT:       %a = relax.add %x, %x : !relax.tensor<[4], f32>
// CHECK-NEXT:       %b_1 = relax.multiply %a, %x : !relax.tensor<[4], f32>
// CHECK-NEXT:       relax.output %b_1
// CHECK-NEXT:     }
// CHECK-NEXT:     relax.yield %b
// CHECK-NEXT:   } else {
// CHECK-NEXT:     %c = relax.exp %x : !relax.tensor<[4], f32>
// CHECK-NEXT:     relax.yield %c
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %r
relax.function @inside_branches(%cond: !relax.tensor<[], bool>, %x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  %r = relax.if %cond : !relax.tensor<[4], f32> {
    %a = relax.add %x, %x
    %b = relax.multiply %a, %x
    relax.yield %b
  } else {
    %c = relax.exp %x
    relax.yield %c
  }
  relax.return %r
}

// -----

// TVM's test_merge_with_preceding_dataflow_block / test_merge_with_next_dataflow_block:
// an existing block joins the run around it.

// CHECK-LABEL: @merge_existing
// CHECK-NEXT:   %b = relax.dataflow {
// CHECK-NEXT:     %lv = relax.add %x, %x : !relax.tensor<[4], f32>
// CHECK-NEXT:     %b_1 = relax.multiply %lv, %x : !relax.tensor<[4], f32>
// CHECK-NEXT:     relax.output %b_1
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %b
relax.function @merge_existing(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  %a = relax.dataflow {
    %lv = relax.add %x, %x
    relax.output %lv
  }
  %b = relax.multiply %a, %x
  relax.return %b
}

// -----

// TVM's test_impure_inner_function / test_pure_inner_function: a call of an
// impure function stays outside, one of a pure function joins.

// CHECK-LABEL: @inner_functions
// CHECK-NEXT:   %b = relax.dataflow {
// CHECK-NEXT:     %a = relax.call @pure(%x) : !relax.tensor<[4], f32>
// CHECK-NEXT:     %b_1 = relax.exp %a : !relax.tensor<[4], f32>
// CHECK-NEXT:     relax.output %b_1
// CHECK-NEXT:   }
// CHECK-NEXT:   %c = relax.call @impure(%b) : !relax.tensor<[4], f32>
// CHECK-NEXT:   %d = relax.exp %c : !relax.tensor<[4], f32>
// CHECK-NEXT:   relax.return %d
// CHECK-NEXT: }
// CHECK:      relax.function private @pure
// CHECK-NEXT:   relax.return %x
// CHECK-NEXT: }
// CHECK:      relax.function private impure @impure
// CHECK-NEXT:   %p = relax.call_packed "log"(%x) : !relax.object
// CHECK-NEXT:   relax.return %x
relax.function impure @inner_functions(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  %a = relax.call @pure(%x) : !relax.tensor<[4], f32>
  %b = relax.exp %a
  %c = relax.call @impure(%b) : !relax.tensor<[4], f32>
  %d = relax.exp %c
  relax.return %d
}
relax.function private @pure(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  relax.return %x
}
relax.function private impure @impure(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  %p = relax.call_packed "log"(%x) : !relax.object
  relax.return %x
}

// -----

// A recursive call may not be in a dataflow block (well-formedness rule 6).

// CHECK-LABEL: @recursive
// CHECK-NEXT:   %one, %zero, %c = relax.dataflow {
// CHECK-NEXT:     %one_1 = relax.constant dense<[], i64, 1> : !relax.tensor<[], i64>
// CHECK-NEXT:     %zero_1 = relax.constant dense<[], i64, 0> : !relax.tensor<[], i64>
// CHECK-NEXT:     %c_1 = relax.greater %n, %zero_1 : !relax.tensor<[], bool>
// CHECK-NEXT:     relax.output %one_1, %zero_1, %c_1
// CHECK-NEXT:   }
// CHECK-NEXT:   %r = relax.if %c : !relax.tensor<[], i64> {
// CHECK-NEXT:     %m = relax.subtract %n, %one : !relax.tensor<[], i64>
// CHECK-NEXT:     %s = relax.call @recursive(%m) : !relax.tensor<[], i64>
// CHECK-NEXT:     %t = relax.add %s, %n : !relax.tensor<[], i64>
// CHECK-NEXT:     relax.yield %t
// CHECK-NEXT:   } else {
// CHECK-NEXT:     relax.yield %zero
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %r
relax.function @recursive(%n: !relax.tensor<[], i64>) -> !relax.tensor<[], i64> {
  %one = relax.constant dense<[], i64, 1>
  %zero = relax.constant dense<[], i64, 0>
  %c = relax.greater %n, %zero
  %r = relax.if %c : !relax.tensor<[], i64> {
    %m = relax.subtract %n, %one
    %s = relax.call @recursive(%m) : !relax.tensor<[], i64>
    %t = relax.add %s, %n
    relax.yield %t
  } else {
    relax.yield %zero
  }
  relax.return %r
}
