// RUN: relax-opt %s -p relax-o1 | filecheck %s --check-prefix=O1
// RUN: relax-opt %s -p relax-o2 | filecheck %s --check-prefix=O2

// relax-o1 folds the constant sum, removes the duplicate matmul (CSE) and the dead
// binding (DCE); relax-o2 then fuses the matmul with its epilogue.

// O1:      relax.function @main
// O1-NEXT:   %y = relax.dataflow {
// O1-NEXT:     %two = relax.constant dense<[4], f32, [2.0, 4.0, 6.0, 8.0]> : !relax.tensor<[4], f32>
// O1-NEXT:     %a = relax.matmul %x, %w : !relax.tensor<[n, 4], f32>
// O1-NEXT:     %s = relax.add %a, %two : !relax.tensor<[n, 4], f32>
// O1-NEXT:     %r = relax.nn.relu %s : !relax.tensor<[n, 4], f32>
// O1-NEXT:     relax.output %r
// O1-NOT:  relax.function

// O2:      relax.function private @fused_matmul_add_relu(%x: !relax.tensor<[n, 4], f32>, %w: !relax.tensor<[4, 4], f32>, %two: !relax.tensor<[4], f32>) -> !relax.tensor<[n, 4], f32> attributes {Primitive = true}
// O2:        relax.matmul
// O2-NEXT:   relax.add
// O2-NEXT:   relax.nn.relu
// O2:      relax.function @main
// O2:        %two = relax.constant dense<[4], f32, [2.0, 4.0, 6.0, 8.0]>
// O2-NEXT:   %r = relax.call @fused_matmul_add_relu(%x, %w, %two) : !relax.tensor<[n, 4], f32>
// O2-NEXT:   relax.output %r

relax.function @main(%x: !relax.tensor<[n, 4], f32>, %w: !relax.tensor<[4, 4], f32>) -> !relax.tensor<[n, 4], f32> {
  %y = relax.dataflow {
    %c = relax.constant dense<[4], f32, [1.0, 2.0, 3.0, 4.0]> : !relax.tensor<[4], f32>
    %two = relax.add %c, %c : !relax.tensor<[4], f32>
    %a = relax.matmul %x, %w : !relax.tensor<[n, 4], f32>
    %b = relax.matmul %x, %w : !relax.tensor<[n, 4], f32>
    %dead = relax.exp %b : !relax.tensor<[n, 4], f32>
    %s = relax.add %a, %two : !relax.tensor<[n, 4], f32>
    %r = relax.nn.relu %s : !relax.tensor<[n, 4], f32>
    relax.output %r
  }
  relax.return %y
}
