// RUN: relax-opt %s -p relax-lower-to-linalg,outline-kernels | filecheck %s

// Two layers of matmul + bias + ReLU and a residual add: one kernel per contraction with its
// element-wise chain. The two layers share a kernel (same computation, same types); the
// second's chain goes on to the residual add, so it is a kernel of its own. The last
// operation of each chain carries relax.epilogue (the tiling schedule fuses the chain into
// the contraction's tiles); the scaling of %x has no contraction: a kernel by itself.
relax.function @main(%x: !relax.tensor<[n, 8], f32>, %w: !relax.tensor<[8, 8], f32>, %b: !relax.tensor<[8], f32>) -> !relax.tensor<[n, 8], f32> {
  %m1 = relax.matmul %x, %w
  %a1 = relax.add %m1, %b
  %h1 = relax.nn.relu %a1
  %m2 = relax.matmul %h1, %w
  %a2 = relax.add %m2, %b
  %h2 = relax.nn.relu %a2
  %two = relax.constant dense<[], f32, 2.0> : !relax.tensor<[], f32>
  %s = relax.multiply %x, %two
  %r = relax.add %h2, %s
  relax.return %r
}
// CHECK-LABEL: func.func @main(
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    %[[N:.*]] = tensor.dim
// CHECK:         %[[H1:.*]] = func.call @[[LAYER:relax_kernel_[0-9a-f]+]](%[[N]], %0, %1, %2)
// CHECK-NOT:     linalg.
// CHECK:         %[[S:.*]] = func.call @[[SCALE:relax_kernel_[0-9a-f]+]](%[[N]], %0)
// CHECK-NOT:     linalg.
// CHECK:         %[[R:.*]] = func.call @[[LAST:relax_kernel_[0-9a-f]+]](%[[N]], %[[H1]], %1, %2, %[[S]])
// CHECK-NEXT:    func.return %[[R]]

// CHECK:       func.func private @[[LAYER]]({{.*}}) -> tensor<?x8xf32> attributes {no_inline} {
// CHECK:         linalg.fill
// CHECK-NEXT:    %[[P:.*]] = linalg.matmul
// CHECK:         %[[BIAS:.*]] = linalg.generic {{.*}} ins(%[[P]], %{{.*}} : tensor<?x8xf32>, tensor<8xf32>)
// CHECK:           arith.addf
// CHECK:         %[[RELU:.*]] = linalg.generic {{.*}} ins(%[[BIAS]] : tensor<?x8xf32>) {{.*}} attrs = {relax.epilogue} {
// CHECK:           arith.select
// CHECK:         func.return %[[RELU]]

// CHECK:       func.func private @[[LAST]](
// CHECK:         linalg.matmul
// CHECK:         arith.addf
// CHECK:         linalg.generic
// CHECK-NOT:     relax.epilogue
// CHECK:           arith.select
// CHECK:         linalg.generic {{.*}} attrs = {relax.epilogue} {
// CHECK:           arith.addf
// CHECK:         func.return

// CHECK:       func.func private @[[SCALE]](
// CHECK-NOT:     relax.epilogue
// CHECK:         arith.mulf
// CHECK:         func.return
// CHECK-NOT:   func.func
