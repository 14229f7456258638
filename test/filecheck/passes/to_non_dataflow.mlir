// RUN: relax-opt %s -p relax-to-non-dataflow --split-input-file | filecheck %s
// RUN: relax-opt %s -p relax-to-non-dataflow,relax-to-non-dataflow --split-input-file | filecheck %s

// TVM's ToNonDataflow: the bindings of a dataflow block move to the enclosing
// block; an exported value takes the name it had outside.

// CHECK-LABEL: @basic
// CHECK-NEXT:   %lv0 = relax.matmul %x, %w : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:   %gv = relax.nn.relu %lv0 : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:   %r = relax.add %gv, %x : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:   relax.return %r
relax.function @basic(%x: !relax.tensor<[n, 4], f32>, %w: !relax.tensor<[4, 4], f32>) -> !relax.tensor<[n, 4], f32> {
  %gv = relax.dataflow {
    %lv0 = relax.matmul %x, %w
    %lv1 = relax.nn.relu %lv0
    relax.output %lv1
  }
  %r = relax.add %gv, %x
  relax.return %r
}

// -----

// Blocks nested in branches and closures, and an exported outer value.

// CHECK-LABEL: @nested
// CHECK-NEXT:   %r = relax.if %c : !relax.tensor<[4], f32> {
// CHECK-NEXT:     %a = relax.exp %x : !relax.tensor<[4], f32>
// CHECK-NEXT:     %s = relax.add %a, %x : !relax.tensor<[4], f32>
// CHECK-NEXT:     relax.yield %s
// CHECK-NEXT:   } else {
// CHECK-NEXT:     %f = relax.lambda (%y: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
// CHECK-NEXT:       %z = relax.sin %y : !relax.tensor<[4], f32>
// CHECK-NEXT:       relax.return %z
// CHECK-NEXT:     }
// CHECK-NEXT:     %t = relax.invoke %f(%x) : !relax.tensor<[4], f32>
// CHECK-NEXT:     relax.yield %t
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %r
relax.function @nested(%c: !relax.tensor<[], bool>, %x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  %r = relax.if %c : !relax.tensor<[4], f32> {
    %a, %b = relax.dataflow {
      %lv = relax.exp %x
      relax.output %lv, %x
    }
    %s = relax.add %a, %b
    relax.yield %s
  } else {
    %f = relax.lambda (%y: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
      %z = relax.dataflow {
        %lv = relax.sin %y
        relax.output %lv
      }
      relax.return %z
    }
    %t = relax.invoke %f(%x) : !relax.tensor<[4], f32>
    relax.yield %t
  }
  relax.return %r
}

// -----

// A function without dataflow blocks is unchanged.

// CHECK-LABEL: @unchanged
// CHECK-NEXT:   %a = relax.exp %x : !relax.tensor<[4], f32>
// CHECK-NEXT:   relax.return %a
relax.function @unchanged(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  %a = relax.exp %x
  relax.return %a
}
