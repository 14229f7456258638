// RUN: relax-opt %s -p canonicalize | relax-opt -p canonicalize | filecheck %s

// The printer writes a constant as a splat only when its elements are equal bit
// for bit: [-0.0, 0.0] compares equal but is not a splat (it printed as -0.0,
// and read back, x + -0.0 is x: the addition, which must stay since x + 0.0 is
// not x for x = -0.0, went).

// CHECK-LABEL: @mixed_signs
// CHECK-NEXT:    %signs = relax.constant dense<[2], f32, [-0.0, 0.0]> : !relax.tensor<[2], f32>
// CHECK-NEXT:    %y = relax.add %x, %signs : !relax.tensor<[2], f32>
// CHECK-NEXT:    relax.return %y
relax.function @mixed_signs(%x: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
  %signs = relax.constant dense<[2], f32, [-0.0, 0.0]>
  %y = relax.add %x, %signs
  relax.return %y
}
