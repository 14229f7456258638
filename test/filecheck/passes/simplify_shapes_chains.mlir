// RUN: relax-opt %s -p relax-simplify-shapes --split-input-file | filecheck %s
// RUN: relax-opt %s -p canonicalize --split-input-file | filecheck %s

// Two permutations compose into one; a composition that moves no axis is the
// operand.

// CHECK-LABEL: @permutations
// CHECK-NEXT:    %d = relax.permute_dims %x {axes = [2, 0, 1]} : !relax.tensor<[8, n, 4], f32>
// CHECK-NEXT:    %r = relax.tuple(%x, %d) :
relax.function @permutations(%x: !relax.tensor<[n, 4, 8], f32>) -> !relax.tuple<tensor<[n, 4, 8], f32>, tensor<[8, n, 4], f32>> {
  %a = relax.permute_dims %x {axes = [2, 0, 1]} : !relax.tensor<[8, n, 4], f32>
  %b = relax.permute_dims %a {axes = [1, 2, 0]} : !relax.tensor<[n, 4, 8], f32>
  %c = relax.permute_dims %x {axes = [1, 2, -3]} : !relax.tensor<[4, 8, n], f32>
  %d = relax.permute_dims %c {axes = [1, 2, 0]} : !relax.tensor<[8, n, 4], f32>
  %r = relax.tuple(%b, %d) : !relax.tuple<tensor<[n, 4, 8], f32>, tensor<[8, n, 4], f32>>
  relax.return %r
}

// -----

// A reversal (no axes) twice is the identity.

// CHECK-LABEL: @reversals
// CHECK-NEXT:    relax.return %x
relax.function @reversals(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32> {
  %a = relax.permute_dims %x : !relax.tensor<[4, n], f32>
  %b = relax.permute_dims %a : !relax.tensor<[n, 4], f32>
  relax.return %b
}

// -----

// squeeze undoes expand_dims of the same axes (negative ones too), and
// expand_dims undoes squeeze; other axes stay.

// CHECK-LABEL: @unit_axes
// CHECK-NEXT:    %g = relax.expand_dims %x {axis = [1]} : !relax.tensor<[n, 1, 4], f32>
// CHECK-NEXT:    %h = relax.squeeze %g {axis = [0]} : !relax.tensor<[1, 4], f32>
// CHECK-NEXT:    %r = relax.tuple(%x, %y, %h) :
relax.function @unit_axes(%x: !relax.tensor<[n, 4], f32>, %y: !relax.tensor<[2, 1, 4], f32>) -> !relax.tuple<tensor<[n, 4], f32>, tensor<[2, 1, 4], f32>, tensor<[1, 4], f32>> {
  %e = relax.expand_dims %x {axis = [0, -1]} : !relax.tensor<[1, n, 4, 1], f32>
  %f = relax.squeeze %e {axis = [3, 0]} : !relax.tensor<[n, 4], f32>
  %s = relax.squeeze %y {axis = [1]} : !relax.tensor<[2, 4], f32>
  %t = relax.expand_dims %s {axis = [1]} : !relax.tensor<[2, 1, 4], f32>
  %g = relax.expand_dims %x {axis = [1]} : !relax.tensor<[n, 1, 4], f32>
  %h = relax.squeeze %g {axis = [0]} : !relax.tensor<[1, 4], f32>
  %r = relax.tuple(%f, %t, %h) : !relax.tuple<tensor<[n, 4], f32>, tensor<[2, 1, 4], f32>, tensor<[1, 4], f32>>
  relax.return %r
}
