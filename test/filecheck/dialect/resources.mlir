// RUN: relax-opt %s | filecheck %s
// RUN: relax-opt %s %roundtrip | filecheck %s
// RUN: relax-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// A dense_resource constant keeps its blob through relax-opt's printer, which
// prints each distinct attribute once: the handle is recorded for the
// dialect_resources section however often it is used.

func.func @twice() -> (tensor<2xi32>, tensor<2xi32>) {
  %0 = arith.constant dense_resource<weights> : tensor<2xi32>
  %1 = arith.constant dense_resource<weights> : tensor<2xi32>
  func.return %0, %1 : tensor<2xi32>, tensor<2xi32>
}

{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000100000002000000"
    }
  }
#-}

// CHECK:      %0 = arith.constant dense_resource<weights> : tensor<2xi32>
// CHECK-NEXT: %1 = arith.constant dense_resource<weights> : tensor<2xi32>
// CHECK:      dialect_resources: {
// CHECK-NEXT:   builtin: {
// CHECK-NEXT:     weights: "0x040000000100000002000000"

// GENERIC:      %0 = "arith.constant"() <{value = dense_resource<weights> : tensor<2xi32>}> : () -> tensor<2xi32>
// GENERIC:      weights: "0x040000000100000002000000"
