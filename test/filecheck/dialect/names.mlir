// RUN: relax-opt %s | filecheck %s
// RUN: relax-opt %s | relax-opt | filecheck %s
// RUN: relax-opt %s --print-op-generic | relax-opt | filecheck %s

// Value names are kept exactly, a _<digits> suffix included; values given one
// name (in sibling branches) are told apart by a suffix that no other value of
// the function has, so printing and reading back is a fixed point.

// CHECK:      relax.function @main(%w_12: !relax.tensor<[2], f32>, %x_1: !relax.tensor<[2], f32>, %c: !relax.prim<bool>) -> !relax.tensor<[2], f32> {
// CHECK-NEXT:   %r = relax.if %c : !relax.tensor<[2], f32> {
// CHECK-NEXT:     %t = relax.add %w_12, %x_1 : !relax.tensor<[2], f32>
// CHECK-NEXT:     relax.yield %t
// CHECK-NEXT:   } else {
// CHECK-NEXT:     %t_2 = relax.multiply %w_12, %x_1 : !relax.tensor<[2], f32>
// CHECK-NEXT:     relax.yield %t_2
// CHECK-NEXT:   }
// CHECK-NEXT:   %t_1 = relax.subtract %r, %r : !relax.tensor<[2], f32>
// CHECK-NEXT:   relax.return %t_1
// CHECK-NEXT: }
relax.function @main(%w_12: !relax.tensor<[2], f32>, %x_1: !relax.tensor<[2], f32>, %c: !relax.prim<bool>) -> !relax.tensor<[2], f32> {
  %r = relax.if %c {
    %t = relax.add %w_12, %x_1
    relax.yield %t
  } else {
    %t = relax.multiply %w_12, %x_1
    relax.yield %t
  }
  %t_1 = relax.subtract %r, %r
  relax.return %t_1
}
