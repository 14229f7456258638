// RUN: relax-opt %s --split-input-file -p relax-lower-to-linalg --print-op-generic | mlir-opt-22 --split-input-file | filecheck %s

// A closure capturing %b, invoked directly and by another closure that captures it:
// relax-lambda-lift gives @main_outer an object parameter, which every caller fills
// with a closure of @main_inner, so it lowers to the captured tensor.
relax.function @main(%x: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<[4], f32>) -> !relax.tensor<[n, 4], f32> {
  %inner = relax.lambda (%y: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32> {
    %z = relax.add %y, %b
    relax.return %z
  }
  %outer = relax.lambda (%y: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32> {
    %u = relax.invoke %inner(%y) : !relax.tensor<[n, 4], f32>
    %v = relax.multiply %u, %x
    relax.return %v
  }
  %r = relax.invoke %outer(%x) : !relax.tensor<[n, 4], f32>
  %s = relax.invoke %inner(%r) : !relax.tensor<[n, 4], f32>
  relax.return %s
}
// CHECK-LABEL: func.func private @main_inner(
// CHECK-SAME:    %{{.*}}: tensor<4xf32> {bufferization.writable = false}, %{{.*}}: tensor<?x4xf32> {bufferization.writable = false}) -> tensor<?x4xf32>
// CHECK-LABEL: func.func private @main_outer(
// CHECK-SAME:    %[[B:.*]]: tensor<4xf32> {bufferization.writable = false}, %[[X:.*]]: tensor<?x4xf32> {bufferization.writable = false}, %[[Y:.*]]: tensor<?x4xf32> {bufferization.writable = false}) -> tensor<?x4xf32>
// CHECK:         call @main_inner(%[[B]], %[[Y]]) : (tensor<4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %[[X:.*]]: tensor<?x4xf32> {bufferization.writable = false}, %[[B:.*]]: tensor<4xf32> {bufferization.writable = false}) -> tensor<?x4xf32>
// CHECK:         %[[R:.*]] = call @main_outer(%[[B]], %[[X]], %[[X]])
// CHECK:         %[[S:.*]] = call @main_inner(%[[B]], %[[R]])
// CHECK:         return %[[S]]

// -----

// A tensor cast to object and back: the values are kept; the cast back is checked
// against the tensor's type (dimension 0 is n, not 2).
relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[2, 4], f32> {
  %o = relax.match_cast %x : !relax.object
  %t = relax.match_cast %o : !relax.tensor<[2, 4], f32>
  relax.return %t
}
// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %[[X:.*]]: tensor<?x4xf32> {bufferization.writable = false}) -> tensor<2x4xf32>
// CHECK:         %[[EQ:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK:         cf.assert %[[EQ]], "{{.*}}closures.mlir:37:3: match_cast: dimension 0 is not 2"
// CHECK:         %[[T:.*]] = tensor.cast %[[X]] : tensor<?x4xf32> to tensor<2x4xf32>
// CHECK:         return %[[T]]
