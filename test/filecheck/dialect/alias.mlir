// RUN: relax-opt %s | filecheck %s
// RUN: relax-opt %s %roundtrip | filecheck %s
// RUN: relax-opt %s %generic-roundtrip | filecheck %s
// RUN: relax-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// relax.alias: a variable bound to another variable (TVMScript's `y = x`).
// Without a type it takes the value's; a weaker one (what the value's type
// statically satisfies) is kept.

// CHECK-LABEL: @main
// CHECK-NEXT:    %y = relax.alias %x : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:    %rank = relax.alias %y : !relax.tensor<ndim = 2, f32>
// CHECK-NEXT:    %weak = relax.alias %x : !relax.object
// CHECK-NEXT:    %same = relax.alias %x : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:    %t = relax.tuple(%rank, %weak, %same)
// GENERIC: "relax.alias"(%{{.*}}) : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
// GENERIC: "relax.alias"(%{{.*}}) : (!relax.tensor<[n, 4], f32>) -> !relax.object
relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  %y = relax.alias %x
  %rank = relax.alias %y : !relax.tensor<ndim = 2, f32>
  %weak = relax.alias %x : !relax.object
  %same = relax.alias %x : !relax.tensor<[n, 4], f32>
  %t = relax.tuple(%rank, %weak, %same)
  relax.return %t
}
