// RUN: relax-opt %s --disable-verify -p relax-normalize --split-input-file | relax-opt --split-input-file | filecheck %s
// RUN: relax-opt %s --disable-verify -p relax-normalize,relax-normalize --split-input-file | filecheck %s

// The inputs are not in normal form: --disable-verify lets them in, and the
// second relax-opt checks that the result is well formed.

// A binding declared with a weaker type gets the inferred one (TVM's
// test_normalize_function: the normalizer fills in StructInfo).

// CHECK-LABEL: @reinfer
// CHECK-NEXT:   %y = relax.add %x, %x : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:   %z = relax.multiply %y, %x : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:   relax.return %z
relax.function @reinfer(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<f32> {
  %y = relax.add %x, %x : !relax.tensor<f32>
  %z = relax.multiply %y, %x : !relax.object
  relax.return %z
}

// -----

// A declared type stronger than the inferred one is kept, as TVM keeps annotations.

// CHECK-LABEL: @stronger_annotation
// CHECK-NEXT:   %y = relax.call_pure_packed "f"(%x) : !relax.tensor<[4], f32>
// CHECK-NEXT:   %z = relax.exp %y : !relax.tensor<[4], f32>
// CHECK-NEXT:   relax.return %z
relax.function @stronger_annotation(%x: !relax.tensor<f32>) -> !relax.tensor<f32> {
  %y = relax.call_pure_packed "f"(%x) : !relax.tensor<[4], f32>
  %z = relax.exp %y
  relax.return %z
}

// -----

// TVM's test_normalize_combine_nearby_blocks: adjacent dataflow blocks merge.

// CHECK-LABEL: @combine_blocks
// CHECK-NEXT:   %a, %b, %c = relax.dataflow {
// CHECK-NEXT:     %lv0 = relax.add %x, %x : !relax.tensor<[4], f32>
// CHECK-NEXT:     %lv1 = relax.multiply %lv0, %x : !relax.tensor<[4], f32>
// CHECK-NEXT:     %lv2 = relax.subtract %lv1, %lv0 : !relax.tensor<[4], f32>
// CHECK-NEXT:     relax.output %lv0, %lv1, %lv2
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %c
relax.function @combine_blocks(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  %a = relax.dataflow {
    %lv0 = relax.add %x, %x
    relax.output %lv0
  }
  %b = relax.dataflow {
    %lv1 = relax.multiply %a, %x
    relax.output %lv1
  }
  %c = relax.dataflow {
    %lv2 = relax.subtract %b, %a
    relax.output %lv2
  }
  relax.return %c
}

// -----

// An empty dataflow block goes; its results are the values it exports.

// CHECK-LABEL: @empty_block
// CHECK-NEXT:   %b = relax.exp %x : !relax.tensor<[4], f32>
// CHECK-NEXT:   relax.return %b
relax.function @empty_block(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  %a = relax.dataflow {
    relax.output %x
  }
  %b = relax.exp %a
  relax.return %b
}

// -----

// Nested regions are normalized too (TVM's test_normalize_if_branches): the
// branches first, then the if joins them.

// CHECK-LABEL: @if_branches
// CHECK-NEXT:   %r = relax.if %c : !relax.tensor<[n], f32> {
// CHECK-NEXT:     %a = relax.add %x, %x : !relax.tensor<[n], f32>
// CHECK-NEXT:     relax.yield %a
// CHECK-NEXT:   } else {
// CHECK-NEXT:     %b = relax.multiply %x, %x : !relax.tensor<[n], f32>
// CHECK-NEXT:     relax.yield %b
// CHECK-NEXT:   }
// CHECK-NEXT:   relax.return %r
relax.function @if_branches(%c: !relax.tensor<[], bool>, %x: !relax.tensor<[n], f32>) -> !relax.tensor<f32> {
  %r = relax.if %c : !relax.tensor<f32> {
    %a = relax.add %x, %x : !relax.tensor<f32>
    relax.yield %a
  } else {
    %b = relax.multiply %x, %x : !relax.tensor<f32>
    relax.yield %b
  }
  relax.return %r
}

// -----

// A callee without return annotation is normalized before its callers, which
// then see its precise result.

// CHECK-LABEL: @caller
// CHECK-NEXT:   %y = relax.call @callee(%x) : !relax.tensor<[n], f32>
// CHECK-NEXT:   relax.return %y
// CHECK-NEXT: }
// CHECK:      relax.function private @callee
// CHECK-NEXT:   %y = relax.add %x, %x : !relax.tensor<[k], f32>
// CHECK-NEXT:   relax.return %y
relax.function @caller(%x: !relax.tensor<[n], f32>) -> !relax.tensor<f32> {
  %y = relax.call @callee(%x) : !relax.tensor<f32>
  relax.return %y
}
relax.function private @callee(%x: !relax.tensor<[k], f32>) {
  %y = relax.add %x, %x : !relax.tensor<f32>
  relax.return %y
}

// -----

// A closure's body and type are re-inferred.

// CHECK-LABEL: @closure
// CHECK-NEXT:   %f = relax.lambda (%y: !relax.tensor<[4], f32>) {
// CHECK-NEXT:     %z = relax.exp %y : !relax.tensor<[4], f32>
// CHECK-NEXT:     relax.return %z
// CHECK-NEXT:   }
// CHECK-NEXT:   %r = relax.invoke %f(%x) : !relax.tensor<[4], f32>
// CHECK-NEXT:   relax.return %r
relax.function @closure(%x: !relax.tensor<[4], f32>) -> !relax.tensor<f32> {
  %f = relax.lambda (%y: !relax.tensor<[4], f32>) {
    %z = relax.exp %y : !relax.tensor<f32>
    relax.return %z
  }
  %r = relax.invoke %f(%x) : !relax.tensor<f32>
  relax.return %r
}
