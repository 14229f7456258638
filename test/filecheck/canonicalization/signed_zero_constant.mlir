// XFAIL: *
// RUN: relax-opt %s -p canonicalize | relax-opt -p canonicalize | filecheck %s

// A known bug, not in a pattern: the printer writes a constant whose elements
// compare equal as a splat, and -0.0 == 0.0, so [-0.0, 0.0] prints as -0.0
// (relax_dialect/attributes.py, dense_body_text). Read back, the constant is
// another one, on which x + -0.0 is x: the addition, which must stay (x + 0.0
// is not x for x = -0.0), goes. Remove the XFAIL line once the printer keeps
// the signs of zeros.

// CHECK-LABEL: @mixed_signs
// CHECK-NEXT:    %signs = relax.constant dense<[2], f32, [-0.0, 0.0]> : !relax.tensor<[2], f32>
// CHECK-NEXT:    %y = relax.add %x, %signs : !relax.tensor<[2], f32>
// CHECK-NEXT:    relax.return %y
relax.function @mixed_signs(%x: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
  %signs = relax.constant dense<[2], f32, [-0.0, 0.0]>
  %y = relax.add %x, %signs
  relax.return %y
}
