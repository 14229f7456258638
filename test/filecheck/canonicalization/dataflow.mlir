// RUN: relax-opt %s -p canonicalize --split-input-file | filecheck %s
// RUN: relax-opt %s -p canonicalize,canonicalize --split-input-file | filecheck %s

// Dataflow blocks in normal form (relax_dialect/canonicalization/dataflow.py).

// When what stood between two dataflow blocks goes, they merge (normal form
// rule 4): the later block's bindings join the earlier one, a use of an
// earlier output becomes the inner value, and the merged block exports both
// blocks' outputs. Three blocks merge into one.

// CHECK-LABEL: @adjacent
// CHECK-NEXT:    %a, %b, %c = relax.dataflow {
// CHECK-NEXT:      %a_1 = relax.exp %x : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:      %b_1 = relax.add %a_1, %x : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:      %c_1 = relax.multiply %b_1, %a_1 : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:      relax.output %a_1, %b_1, %c_1
// CHECK-NEXT:    }
// CHECK-NEXT:    %t = relax.tuple(%a, %b, %c) : !relax.object
// CHECK-NEXT:    relax.return %t
relax.function @adjacent(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  %a = relax.dataflow {
    %a = relax.exp %x
    relax.output %a
  }
  %one = relax.constant dense<[], f32, 1.0>
  %y = relax.multiply %x, %one
  %b = relax.dataflow {
    %b = relax.add %a, %y
    relax.output %b
  }
  %z = relax.match_cast %b : !relax.tensor<[n, 4], f32>
  %c = relax.dataflow {
    %c = relax.multiply %z, %a
    relax.output %c
  }
  %t = relax.tuple(%a, %b, %c) : !relax.object
  relax.return %t
}

// -----

// A dataflow block whose bindings all go is the outer values it exports.

// CHECK-LABEL: @emptied
// CHECK-NEXT:    %t = relax.tuple(%x, %i) : !relax.object
// CHECK-NEXT:    relax.return %t
relax.function @emptied(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[2, 3], i32>) -> !relax.object {
  %y, %j = relax.dataflow {
    %one = relax.constant dense<[], f32, 1.0>
    %y = relax.multiply %x, %one
    %j = relax.astype %i {dtype = i32}
    relax.output %y, %j
  }
  %t = relax.tuple(%y, %j) : !relax.object
  relax.return %t
}

// -----

// Blocks with a binding that stays between them stay apart; a block that
// keeps a binding stays.

// CHECK-LABEL: @apart
// CHECK-NEXT:    %a = relax.dataflow {
// CHECK-NEXT:      %a_1 = relax.exp %x : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:      relax.output %a_1
// CHECK-NEXT:    }
// CHECK-NEXT:    %m = relax.match_cast %w : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:    %b = relax.dataflow {
// CHECK-NEXT:      %b_1 = relax.add %a, %m : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:      relax.output %b_1
// CHECK-NEXT:    }
// CHECK-NEXT:    relax.return %b
relax.function @apart(%x: !relax.tensor<[n, 4], f32>, %w: !relax.tensor<ndim = 2, f32>) -> !relax.tensor<[n, 4], f32> {
  %a = relax.dataflow {
    %a = relax.exp %x
    relax.output %a
  }
  %m = relax.match_cast %w : !relax.tensor<[n, 4], f32>
  %b = relax.dataflow {
    %b = relax.add %a, %m
    relax.output %b
  }
  relax.return %b
}

// -----

// A closure in the later block that captures an output of the earlier one
// cannot join it (it would capture a dataflow variable of its own block,
// well-formedness rule 10), and cannot move before it (it uses its output):
// it moves out, between the blocks, which stay apart (as the passes do).

// CHECK-LABEL: @capturing_closure
// CHECK-NEXT:    %a = relax.dataflow {
// CHECK-NEXT:      %a_1 = relax.exp %x : !relax.tensor<[2], f32>
// CHECK-NEXT:      relax.output %a_1
// CHECK-NEXT:    }
// CHECK-NEXT:    %f = relax.lambda () -> !relax.tensor<[2], f32> {
// CHECK-NEXT:      relax.return %a
// CHECK-NEXT:    }
// CHECK-NEXT:    %b = relax.dataflow {
// CHECK-NEXT:      %r = relax.invoke %f() : !relax.tensor<[2], f32>
// CHECK-NEXT:      %b_1 = relax.add %r, %x : !relax.tensor<[2], f32>
// CHECK-NEXT:      relax.output %b_1
// CHECK-NEXT:    }
// CHECK-NEXT:    %t = relax.tuple(%a, %b) : !relax.object
// CHECK-NEXT:    relax.return %t
relax.function @capturing_closure(%x: !relax.tensor<[2], f32>) -> !relax.object {
  %a = relax.dataflow {
    %a = relax.exp %x
    relax.output %a
  }
  %one = relax.constant dense<[], f32, 1.0>
  %y = relax.multiply %x, %one
  %b = relax.dataflow {
    %f = relax.lambda () -> !relax.tensor<[2], f32> {
      relax.return %a
    }
    %r = relax.invoke %f() : !relax.tensor<[2], f32>
    %b = relax.add %r, %y
    relax.output %b
  }
  %t = relax.tuple(%a, %b) : !relax.object
  relax.return %t
}
