// RUN: relax-opt %s --split-input-file -p relax-lower-to-linalg --print-op-generic | mlir-opt-22 --split-input-file | filecheck %s

// A reshape whose target has two dynamic sizes in its one group is a gather
// (mlir-opt-22 crashes on such an expand_shape); one dynamic size keeps
// collapse_shape + expand_shape.
relax.function @main(%x: !relax.tensor<[m * n], f32>, %y: !relax.tensor<[m, n], f32>, %z: !relax.tensor<[m, 4], f32>) -> !relax.tuple<tensor<[m, n], f32>, tensor<[2, m, 2], f32>> {
  %s = relax.shape [m, n]
  %a = relax.reshape %x, %s
  %t = relax.shape [2, m, 2]
  %b = relax.reshape %z, %t
  %r = relax.tuple(%a, %b)
  relax.return %r
}
// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %[[X:.*]]: tensor<?xf32> {bufferization.writable = false}, %{{.*}}: tensor<?x?xf32> {bufferization.writable = false}, %[[Z:.*]]: tensor<?x4xf32> {bufferization.writable = false})
// CHECK:         %[[M:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?x?xf32>
// CHECK:         %[[N:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?x?xf32>
// CHECK:         %[[E:.*]] = tensor.empty(%[[M]], %[[N]]) : tensor<?x?xf32>
// CHECK:         %[[A:.*]] = linalg.generic {{.*}} outs(%[[E]] : tensor<?x?xf32>)
// CHECK:           %[[I:.*]] = linalg.index 0 : index
// CHECK:           %[[J:.*]] = linalg.index 1 : index
// CHECK:           %[[ROW:.*]] = arith.muli %[[I]], %[[N]] : index
// CHECK:           %[[AT:.*]] = arith.addi %[[ROW]], %[[J]] : index
// CHECK:           tensor.extract %[[X]][%[[AT]]] : tensor<?xf32>
// CHECK-NOT:     tensor.reshape
// CHECK:         %[[FLAT:.*]] = tensor.collapse_shape %[[Z]] {{\[\[}}0, 1]] : tensor<?x4xf32> into tensor<?xf32>
// CHECK:         %[[B:.*]] = tensor.expand_shape %[[FLAT]] {{\[\[}}0, 1, 2]] output_shape [2, %[[M]], 2] : tensor<?xf32> into tensor<2x?x2xf32>
// CHECK:         return %[[A]], %[[B]]

// -----

// scatter_elements: an scf.for over the updates (row-major) carrying the result; each
// update is combined with the element it lands on (max: the old one when greater)
// and inserted back; negative indices count from the end, then are checked.
relax.function @main(%d: !relax.tensor<[n, 3], f32>, %i: !relax.tensor<[k, 3], i32>, %u: !relax.tensor<[k, 3], f32>) -> !relax.tensor<[n, 3], f32> {
  %r = relax.scatter_elements %d, %i, %u {reduction = "max"}
  relax.return %r
}
// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %[[D:.*]]: tensor<?x3xf32> {bufferization.writable = false}, %[[I:.*]]: tensor<?x3xi32> {bufferization.writable = false}, %[[U:.*]]: tensor<?x3xf32> {bufferization.writable = false})
// CHECK:         %[[N:.*]] = tensor.dim %[[D]]
// CHECK:         %[[K:.*]] = tensor.dim %[[I]]
// CHECK:         %[[COUNT:.*]] = arith.muli %[[K]], %[[C3:.*]] : index
// CHECK:         %[[R:.*]] = scf.for %[[P:.*]] = %{{.*}} to %[[COUNT]] step %{{.*}} iter_args(%[[OUT:.*]] = %[[D]]) -> (tensor<?x3xf32>) {
// CHECK:           %[[COL:.*]] = arith.remui %[[P]], %[[C3]] : index
// CHECK:           %[[ROW:.*]] = arith.divui %[[P]], %[[C3]] : index
// CHECK:           %[[NEW:.*]] = tensor.extract %[[U]][%[[ROW]], %[[COL]]] : tensor<?x3xf32>
// CHECK:           %[[RAW:.*]] = tensor.extract %[[I]][%[[ROW]], %[[COL]]] : tensor<?x3xi32>
// CHECK:           %[[INDEX:.*]] = arith.index_cast %[[RAW]] : i32 to index
// CHECK:           %[[NEGATIVE:.*]] = arith.cmpi slt, %[[INDEX]], %{{.*}} : index
// CHECK:           %[[SHIFTED:.*]] = arith.addi %[[INDEX]], %[[N]] : index
// CHECK:           %[[AT:.*]] = arith.select %[[NEGATIVE]], %[[SHIFTED]], %[[INDEX]] : index
// CHECK:           %[[INSIDE:.*]] = arith.cmpi ult, %[[AT]], %[[N]] : index
// CHECK:           cf.assert %[[INSIDE]], "{{.*}}scatter_reshape.mlir:36:3: relax.scatter_elements: an index is outside axis 0 of the data"
// CHECK:           %[[OLD:.*]] = tensor.extract %[[OUT]][%[[AT]], %[[COL]]] : tensor<?x3xf32>
// CHECK:           %[[GREATER:.*]] = arith.cmpf ogt, %[[OLD]], %[[NEW]] : f32
// CHECK:           %[[MAX:.*]] = arith.select %[[GREATER]], %[[OLD]], %[[NEW]] : f32
// CHECK:           %[[NEXT:.*]] = tensor.insert %[[MAX]] into %[[OUT]][%[[AT]], %[[COL]]] : tensor<?x3xf32>
// CHECK:           scf.yield %[[NEXT]] : tensor<?x3xf32>
// CHECK:         return %[[R]]

// -----

// scatter_nd: the coordinates of an update are read from the last axis of the
// indices (not wrapped: a negative one fails the check); the remaining axes of
// the update address its slice.
relax.function @main(%d: !relax.tensor<[n, 3], i32>, %i: !relax.tensor<[k, 1], i64>, %u: !relax.tensor<[k, 3], i32>) -> !relax.tensor<[n, 3], i32> {
  %r = relax.scatter_nd %d, %i, %u {reduction = "add"}
  relax.return %r
}
// CHECK-LABEL: func.func @main(
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[OUT:.*]] = %{{.*}}) -> (tensor<?x3xi32>) {
// CHECK:           %[[COL:.*]] = arith.remui
// CHECK:           %[[ROW:.*]] = arith.divui
// CHECK:           %[[NEW:.*]] = tensor.extract %{{.*}}[%[[ROW]], %[[COL]]] : tensor<?x3xi32>
// CHECK:           %[[RAW:.*]] = tensor.extract %{{.*}}[%[[ROW]], %{{.*}}] : tensor<?x1xi64>
// CHECK:           %[[AT:.*]] = arith.index_cast %[[RAW]] : i64 to index
// CHECK:           %[[INSIDE:.*]] = arith.cmpi ult, %[[AT]], %{{.*}} : index
// CHECK:           cf.assert %[[INSIDE]], "{{.*}}relax.scatter_nd: an index is outside axis 0 of the data"
// CHECK:           %[[OLD:.*]] = tensor.extract %[[OUT]][%[[AT]], %[[COL]]] : tensor<?x3xi32>
// CHECK:           %[[SUM:.*]] = arith.addi %[[OLD]], %[[NEW]] : i32
// CHECK:           tensor.insert %[[SUM]] into %[[OUT]][%[[AT]], %[[COL]]] : tensor<?x3xi32>
