// RUN: relax-run %s | filecheck %s
// RUN: relax-run %s --entry closures | filecheck %s --check-prefix=CLOSURES
// RUN: not relax-run %s --entry checked 2>&1 | filecheck %s --check-prefix=CHECKED

// CHECK: @main()
// CHECK-NEXT: out0: tensor of shape [2, 2] and dtype f32
// CHECK-NEXT:   {{\[\[}} 8. 12.]
// CHECK-NEXT:    [18. 26.]]
// CHECK-NEXT: out1: shape(2, 2)
relax.function @main() -> !relax.tuple<tensor<[2, 2], f32>, shape<[2, 2]>> {
  %x = relax.constant dense<[2, 2], f32, [1.0, 2.0, 3.0, 4.0]> : !relax.tensor<[2, 2], f32>
  %r = relax.dataflow {
    %y = relax.matmul %x, %x : !relax.tensor<[2, 2], f32>
    %z = relax.add %y, %x : !relax.tensor<[2, 2], f32>
    relax.output %z
  }
  %any = relax.match_cast %r : !relax.tensor<[a, b], f32>
  %s = relax.shape [a, b] : !relax.shape<[a, b]>
  %t = relax.tuple(%r, %s) : !relax.tuple<tensor<[2, 2], f32>, shape<[2, 2]>>
  relax.return %t
}

// CLOSURES: out0: tensor of shape [3] and dtype i64
// CLOSURES-NEXT: [2 4 6]
relax.function @closures() -> !relax.tensor<[3], i64> {
  %c = relax.constant dense<[3], i64, [1, 2, 3]> : !relax.tensor<[3], i64>
  %double = relax.lambda (%v: !relax.tensor<[k], i64>) -> !relax.tensor<[k], i64> {
    %w = relax.add %v, %v : !relax.tensor<[k], i64>
    relax.return %w
  }
  %r = relax.invoke %double(%c) : !relax.tensor<[3], i64>
  relax.return %r
}

// CHECKED: run.mlir:[[# @LINE + 3]]:3: error: match_cast: dimension n bound to 2, got 3
relax.function @checked() -> !relax.object {
  %c = relax.constant dense<[2, 3], f32, 0.0> : !relax.tensor<[2, 3], f32>
  %t = relax.match_cast %c : !relax.tensor<[n, n], f32>
  relax.return %t
}
