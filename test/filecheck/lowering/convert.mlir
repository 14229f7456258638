// RUN: relax-opt %s --split-input-file -p convert-relax-to-linalg --print-op-generic | mlir-opt-22 --split-input-file | filecheck %s

// Broadcasting add: one linalg.generic, the vector read through (d0, d1) -> (d1);
// n is bound from the first parameter and checked on the third.
relax.function @main(%x: !relax.tensor<[n, 4], f32>, %y: !relax.tensor<[4], f32>, %z: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32> {
  %a = relax.add %x, %y
  %b = relax.multiply %a, %z
  relax.return %b
}
// CHECK-DAG:   #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %[[X:.*]]: tensor<?x4xf32> {bufferization.writable = false}, %[[Y:.*]]: tensor<4xf32> {bufferization.writable = false}, %[[Z:.*]]: tensor<?x4xf32> {bufferization.writable = false}) -> tensor<?x4xf32>
// CHECK:         %[[N:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x4xf32>
// CHECK:         %[[ZN:.*]] = tensor.dim %[[Z]], %{{.*}} : tensor<?x4xf32>
// CHECK:         %[[EQ:.*]] = arith.cmpi eq, %[[ZN]], %[[N]] : index
// CHECK:         cf.assert %[[EQ]], "{{.*}}convert.mlir:5:83: @main: argument 2: dimension 0 is not n"
// CHECK:         %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x4xf32>
// CHECK:         %[[A:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[Y]] : tensor<?x4xf32>, tensor<4xf32>) outs(%[[E]] : tensor<?x4xf32>)
// CHECK:           arith.addf
// CHECK:         linalg.generic
// CHECK:           arith.mulf
// CHECK:         return

// -----

// 2-D matmul: linalg.matmul on a zero-filled tensor.empty; batched matmul with a
// broadcast batch dimension: one contraction linalg.generic.
relax.function @main(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<[4, m], f32>, %c: !relax.tensor<[1, n, 4], f32>, %d: !relax.tensor<[2, 4, m], f32>) -> !relax.tuple<tensor<[n, m], f32>, tensor<[2, n, m], f32>> {
  %p = relax.matmul %a, %b
  %q = relax.matmul %c, %d
  %t = relax.tuple(%p, %q)
  relax.return %t
}
// CHECK-DAG:   #[[LHS:.*]] = affine_map<(d0, d1, d2, d3) -> (0, d1, d3)>
// CHECK-DAG:   #[[RHS:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @main(
// CHECK-SAME:    -> (tensor<?x?xf32>, tensor<2x?x?xf32>)
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[FILL:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<?x?xf32>)
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<?x4xf32>, tensor<4x?xf32>) outs(%[[FILL]] : tensor<?x?xf32>)
// CHECK:         linalg.generic {indexing_maps = [#[[LHS]], #[[RHS]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK:           arith.mulf
// CHECK:           arith.addf

// -----

// Batched matmul whose batch axes are 1 on both operands and the result: every axis is indexed
// by its loop (no constant 0, which only a real broadcast needs), so the maps stay projected
// permutations, the form the tiling schedule matches.
relax.function @main(%a: !relax.tensor<[1, 12, n, 8], f32>, %b: !relax.tensor<[1, 12, 8, n], f32>) -> !relax.tensor<[1, 12, n, n], f32> {
  %p = relax.matmul %a, %b
  relax.return %p
}
// CHECK-DAG:   #[[LHS:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
// CHECK-DAG:   #[[RHS:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @main(
// CHECK:         linalg.generic {indexing_maps = [#[[LHS]], #[[RHS]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}

// -----

// Reductions: sum drops the axis; mean with keepdims divides by the count and
// expands the reduced axis back as 1 (tensor.expand_shape).
relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.tuple<tensor<[n], f32>, tensor<[1, 4], f32>> {
  %s = relax.sum %x {axis = [1]}
  %m = relax.mean %x {axis = [0], keepdims = true}
  %t = relax.tuple(%s, %m)
  relax.return %t
}
// CHECK-LABEL: func.func @main(
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<?x4xf32>) outs(%{{.*}} : tensor<?xf32>)
// CHECK:           arith.addf
// CHECK:         linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%{{.*}} : tensor<?x4xf32>) outs(%{{.*}} : tensor<4xf32>)
// CHECK:         tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [1, 4] : tensor<4xf32> into tensor<1x4xf32>
// CHECK:         arith.index_cast %{{.*}} : index to i64
// CHECK:         arith.sitofp
// CHECK:         linalg.generic
// CHECK:           arith.divf

// -----

// match_cast binds m, checks the second dimension and casts; if is scf.if.
relax.function @main(%x: !relax.tensor<ndim = 2, f32>, %c: !relax.tensor<[], bool>) -> !relax.tensor<ndim = 2, f32> {
  %a = relax.match_cast %x : !relax.tensor<[m, m], f32>
  %r = relax.if %c {
    %e = relax.exp %a
    relax.yield %e
  } else {
    relax.yield %a
  }
  relax.return %r
}
// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %[[X:.*]]: tensor<?x?xf32> {bufferization.writable = false}, %[[C:.*]]: tensor<i1> {bufferization.writable = false}) -> tensor<?x?xf32>
// CHECK:         %[[M:.*]] = tensor.dim %[[X]], %{{.*}}
// CHECK:         %[[M2:.*]] = tensor.dim %[[X]], %{{.*}}
// CHECK:         %[[EQ:.*]] = arith.cmpi eq, %[[M2]], %[[M]] : index
// CHECK:         cf.assert %[[EQ]], "{{.*}}convert.mlir:{{[0-9]+}}:3: match_cast: dimension 1 is not m"
// CHECK:         %[[COND:.*]] = tensor.extract %[[C]][] : tensor<i1>
// CHECK:         scf.if %[[COND]] -> (tensor<?x?xf32>) {
// CHECK:           math.exp
// CHECK:           scf.yield
// CHECK:         } else {
// CHECK:           scf.yield %[[X]] : tensor<?x?xf32>

// -----

// Packed calls: a private declaration per name and signature.
relax.function @main(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  %y = relax.call_pure_packed "my.exp"(%x) : !relax.tensor<[n], f32>
  relax.return %y
}
// CHECK-LABEL: func.func @main(
// CHECK:         %[[Y:.*]] = call @relax_packed.my_exp(%{{.*}}) : (tensor<?xf32>) -> tensor<?xf32>
// CHECK:         return %[[Y]]
// CHECK:       func.func private @relax_packed.my_exp(tensor<?xf32>) -> tensor<?xf32> attributes {relax.packed = "my.exp", relax.packed_kind = "call_pure_packed"}
