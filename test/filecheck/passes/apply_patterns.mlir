// RUN: relax-opt %s -p 'relax-apply-patterns{patterns="%S/Inputs/apply_patterns.py"}' --split-input-file | filecheck %s
// RUN: relax-opt %s -p 'relax-apply-patterns{patterns="%S/Inputs/apply_patterns.py:PATTERNS"},relax-apply-patterns{patterns="%S/Inputs/apply_patterns.py"}' --split-input-file | filecheck %s
// RUN: relax-opt %s -p 'relax-apply-patterns{patterns="relax_dialect.canonicalization.algebra"}' --split-input-file | filecheck %s --check-prefix=MODULE
// RUN: relax-opt %s -p relax-apply-patterns --split-input-file | filecheck %s --check-prefix=NONE

// Patterns of Inputs/apply_patterns.py: AddSelf (a BindingPattern) and ReluOfRelu
// (a plain xDSL RewritePattern); a module's PATTERNS (the algebraic
// canonicalization patterns, prefix MODULE); no patterns, no change (NONE).

// CHECK-LABEL: @add_self
// CHECK-NEXT:    %y, %j = relax.dataflow {
// CHECK-NEXT:      %a = relax.constant dense<[], f32, 2.0> : !relax.tensor<[], f32>
// CHECK-NEXT:      %a_1 = relax.multiply %x, %a : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:      %r = relax.nn.relu %a_1 : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:      %b = relax.add %r, %x : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:      %j_1 = relax.constant dense<[], i32, 2> : !relax.tensor<[], i32>
// CHECK-NEXT:      %j_2 = relax.multiply %i, %j_1 : !relax.tensor<[3], i32>
// CHECK-NEXT:      relax.output %b, %j_2
// CHECK-NEXT:    }
// MODULE-LABEL: @add_self
// MODULE:          %b = relax.add %r2, %x
// NONE-LABEL: @add_self
// NONE:            %r2 = relax.nn.relu %r
relax.function @add_self(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[3], i32>) -> !relax.tuple<tensor<[n, 4], f32>, tensor<[3], i32>> {
  %y, %j = relax.dataflow {
    %a = relax.add %x, %x
    %r = relax.nn.relu %a
    %r2 = relax.nn.relu %r
    %b = relax.add %r2, %x
    %j = relax.add %i, %i
    relax.output %b, %j
  }
  %t = relax.tuple(%y, %j)
  relax.return %t
}

// -----

// Bindings in every region are rewritten; different operands stay.

// CHECK-LABEL: @nested
// CHECK:           %b = relax.lambda (%y: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
// CHECK-NEXT:        %c = relax.constant dense<[], f32, 2.0> : !relax.tensor<[], f32>
// CHECK-NEXT:        %c_1 = relax.multiply %y, %c : !relax.tensor<[2], f32>
// CHECK-NEXT:        relax.return %c_1
// CHECK:           %d = relax.add %x, %z : !relax.tensor<[2], f32>
// MODULE-LABEL: @nested
// MODULE:          %d = relax.add %x, %z
relax.function @nested(%x: !relax.tensor<[2], f32>, %z: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
  %b = relax.lambda (%y: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
    %c = relax.add %y, %y
    relax.return %c
  }
  %e = relax.invoke %b(%x) : !relax.tensor<[2], f32>
  %d = relax.add %x, %z
  %s = relax.add %d, %e
  relax.return %s
}

// -----

// The module's PATTERNS: x * 1 is x.

// MODULE-LABEL: @multiply_by_one
// MODULE-NEXT:    relax.return %x
relax.function @multiply_by_one(%x: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
  %one = relax.constant dense<[], f32, 1.0>
  %y = relax.multiply %x, %one
  relax.return %y
}
