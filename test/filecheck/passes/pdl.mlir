// RUN: relax-opt %s -p 'apply-pdl{pdl_file="%S/Inputs/pdl_patterns.mlir"}' --split-input-file --verify-diagnostics | filecheck %s
// RUN: relax-opt %s -p 'relax-apply-patterns{patterns="%S/Inputs/pdl_patterns.mlir"}' --split-input-file --verify-diagnostics | filecheck %s

// Patterns written in PDL (Inputs/pdl_patterns.mlir), run by xDSL's PDL
// interpreter: from xDSL's apply-pdl, or from relax-apply-patterns.

// x + x becomes x * 2, with a new relax.constant.

// CHECK-LABEL: @add_self
// CHECK-NEXT:    %y = relax.dataflow {
// CHECK-NEXT:      %0 = relax.constant dense<[], f32, 2.0> : !relax.tensor<[], f32>
// CHECK-NEXT:      %a = relax.multiply %x, %0 : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:      %b = relax.add %a, %x : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:      relax.output %b
relax.function @add_self(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32> {
  %y = relax.dataflow {
    %a = relax.add %x, %x
    %b = relax.add %a, %x
    relax.output %b
  }
  relax.return %y
}

// -----

// Two transpositions of a matrix cancel (a match on the axes property); the
// inner one, left unused, goes.

// CHECK-LABEL: @transpose_twice
// CHECK-NEXT:    %c = relax.nn.relu %x : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:    %d = relax.permute_dims %c {axes = [0, 1]} : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:    relax.return %d
relax.function @transpose_twice(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32> {
  %a = relax.permute_dims %x {axes = [1, 0]}
  %b = relax.permute_dims %a {axes = [1, 0]}
  %c = relax.nn.relu %b
  %d = relax.permute_dims %c {axes = [0, 1]}
  relax.return %d
}

// -----

// The constant of @add_self is f32: on f16 operands the multiply does not infer
// the add's type, which the well-formedness check after the pass reports.

// expected-error @+1 {{relax.multiply: operands have different data types f16 and f32}}
relax.function @add_self_f16(%x: !relax.tensor<[4], f16>) -> !relax.tensor<[4], f16> {
  %y = relax.add %x, %x
  relax.return %y
}
