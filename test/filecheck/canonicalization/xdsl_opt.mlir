// RUN: xdsl-opt %s -p canonicalize | filecheck %s

// Plain xdsl-opt canonicalizes Relax IR next to the upstream dialects in one
// run: arith folds its constants, Relax applies its patterns (x * 1 is x, an
// operator of constants folds). xdsl-opt wires the TIR executor (through the
// xdsl.universe entry point), so a call_tir of constants folds too.

// CHECK-LABEL: func.func @ints() -> i32 {
// CHECK-NEXT:    %[[FIVE:.*]] = arith.constant 5 : i32
// CHECK-NEXT:    func.return %[[FIVE]] : i32
// CHECK-NEXT:  }
func.func @ints() -> i32 {
  %a = arith.constant 2 : i32
  %b = arith.constant 3 : i32
  %c = arith.addi %a, %b : i32
  %z = arith.constant 0 : i32
  %d = arith.addi %c, %z : i32
  func.return %d : i32
}

func.func @copy(%a: tensor<2xf32>, %out: tensor<2xf32>) -> tensor<2xf32> {
  func.return %a : tensor<2xf32>
}

// CHECK-LABEL: relax.function @relax
// CHECK-NEXT:    %s = relax.constant dense<[2], f32, [2.0, 4.0]> : !relax.tensor<[2], f32>
// CHECK-NEXT:    %k = relax.constant dense<[2], f32, [2.0, 4.0]> : !relax.tensor<[2], f32>
// CHECK-NEXT:    %t = relax.tuple(%x, %s, %k) : !relax.object
// CHECK-NEXT:    relax.return %t
relax.function @relax(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  %one = relax.constant dense<[], f32, 1.0>
  %y = relax.multiply %x, %one
  %c = relax.constant dense<[2], f32, [1.0, 2.0]>
  %s = relax.add %c, %c
  %k = relax.call_tir @copy(%s) : !relax.tensor<[2], f32>
  %t = relax.tuple(%y, %s, %k) : !relax.object
  relax.return %t
}
