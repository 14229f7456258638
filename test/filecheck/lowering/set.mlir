// RUN: relax-opt %s --split-input-file -p relax-lower-to-linalg --print-op-generic | mlir-opt-22 --split-input-file | filecheck %s

// nonzero in two phases: a reduction counts the non-zero elements (NaN counts,
// -0.0 does not); the result, with one scratch column, is filled by an scf.for over
// the elements in row-major order, which writes every element's coordinates at the
// next free column and advances it past the non-zero ones; the scratch column is
// sliced off.
relax.function @main(%x: !relax.tensor<[n, 3], f32>) -> !relax.tensor<ndim = 2, i64> {
  %r = relax.nonzero %x
  relax.return %r
}
// CHECK-LABEL: func.func @main(
// CHECK:         %[[FLAT:.*]] = tensor.collapse_shape
// CHECK:         %[[TOTAL:.*]] = arith.muli
// CHECK:         %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["reduction"]} ins(%[[FLAT]] : tensor<?xf32>)
// CHECK:           arith.cmpf une
// CHECK:         %[[RAW:.*]] = tensor.extract %[[SUM]][] : tensor<i64>
// CHECK:         %[[COUNT:.*]] = arith.index_cast %[[RAW]] : i64 to index
// CHECK:         %[[WIDER:.*]] = arith.addi %[[COUNT]], %{{.*}} : index
// CHECK:         %[[EMPTY:.*]] = tensor.empty(%[[WIDER]]) : tensor<2x?xi64>
// CHECK:         %[[FILLED:.*]]:2 = scf.for %[[I:.*]] = %{{.*}} to %[[TOTAL]] step %{{.*}} iter_args(%[[COL:.*]] = %{{.*}}, %[[OUT:.*]] = %[[EMPTY]]) -> (index, tensor<2x?xi64>) {
// CHECK:           arith.remui %[[I]]
// CHECK:           arith.divui %[[I]]
// CHECK:           %[[ROW0:.*]] = tensor.insert %{{.*}} into %[[OUT]][%{{.*}}, %[[COL]]] : tensor<2x?xi64>
// CHECK:           %[[ROW1:.*]] = tensor.insert %{{.*}} into %[[ROW0]][%{{.*}}, %[[COL]]] : tensor<2x?xi64>
// CHECK:           %[[NEXT:.*]] = arith.addi %[[COL]], %{{.*}} : index
// CHECK:           scf.yield %[[NEXT]], %[[ROW1]] : index, tensor<2x?xi64>
// CHECK:         %[[R:.*]] = tensor.extract_slice %[[FILLED]]#1[0, 0] [2, %[[COUNT]]] [1, 1]
// CHECK:         tensor.cast %[[R]] : tensor<2x?xi64> to tensor<?x?xi64>

// -----

// unique (sorted, with counts): a radix sort of the slice indices (one stable
// sorting network per element of a slice; flattened, one pass), a loop counting
// the runs of equal slices, the outputs allocated with that count, a loop over
// the sorted slices carrying the run number that writes each run's first index
// and count and each slice's run, and the values gathered at the first indices.
relax.function @main(%x: !relax.tensor<[n], i32>) -> !relax.tuple<tensor<ndim = 1, i32>, tensor<ndim = 1, i64>> {
  %t = relax.prim_value true
  %f = relax.prim_value false
  %r = relax.unique %x, %t, %f, %f, %t
  relax.return %r
}
// CHECK-LABEL: func.func @main(
// CHECK:         %[[N:.*]] = tensor.dim
// CHECK:         %[[ORDER:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<?xi64>) {
// CHECK:         %[[COUNT:.*]] = scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (index) {
// CHECK:           tensor.extract %[[ORDER]]
// CHECK:         %[[FIRST:.*]] = tensor.empty(%[[COUNT]]) : tensor<?xi64>
// CHECK:         %[[INVERSE:.*]] = tensor.empty(%[[N]]) : tensor<?xi64>
// CHECK:         %[[ZEROS:.*]] = tensor.empty(%[[COUNT]]) : tensor<?xi64>
// CHECK:         %[[COUNTS:.*]] = linalg.fill ins(%{{.*}} : i64) outs(%[[ZEROS]] : tensor<?xi64>)
// CHECK:         %[[RESULT:.*]]:4 = scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[NUMBER:.*]] = %{{.*}}, %{{.*}} = %[[FIRST]], %{{.*}} = %[[INVERSE]], %{{.*}} = %[[COUNTS]])
// CHECK:           %[[NEXT:.*]] = arith.addi %[[NUMBER]], %{{.*}} : index
// CHECK:           tensor.insert %{{.*}} into %{{.*}}[%[[NEXT]]] : tensor<?xi64>
// CHECK:         %[[VALUES:.*]] = tensor.empty(%[[COUNT]]) : tensor<?xi32>
// CHECK:         %[[GATHERED:.*]] = linalg.generic {{.*}} outs(%[[VALUES]] : tensor<?xi32>)
// CHECK:           tensor.extract %[[RESULT]]#1
// CHECK:         return %[[GATHERED]], %[[RESULT]]#3 : tensor<?xi32>, tensor<?xi64>
