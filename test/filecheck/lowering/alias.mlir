// RUN: relax-opt %s -p convert-relax-to-linalg | filecheck %s
// RUN: python -c "import numpy as np; np.savez('%t.npz', x=np.arange(8, dtype='float32').reshape(2, 4))"
// RUN: relax-run %s --inputs %t.npz --backend all | filecheck %s --check-prefix=OUT

// relax.alias lowers to its value's lowered values: cast to a weaker tensor
// type, kept as they are under `object`, where a match_cast back checks them.

// CHECK-LABEL: func.func @main(%0: tensor<?x4xf32>
// CHECK:         %{{.*}} = tensor.cast %0 : tensor<?x4xf32> to tensor<?x?xf32>
// CHECK:         cf.assert %{{.*}}, "{{.*}}alias.mlir:15:3: match_cast: dimension 0 is not 2"
// CHECK:         %{{.*}} = tensor.cast %0 : tensor<?x4xf32> to tensor<2x4xf32>
relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<ndim = 2, f32> {
  %rank = relax.alias %x : !relax.tensor<ndim = 2, f32>
  %weak = relax.alias %x : !relax.object
  %back = relax.match_cast %weak : !relax.tensor<[2, 4], f32>
  %r = relax.add %rank, %back
  relax.return %r
}

// OUT: {{\[\[}} 0.  2.  4.  6.]
// OUT: [ 8. 10. 12. 14.]]
// OUT: lowered: {{.*}} agrees with reference
// OUT: mlir: {{.*}} agrees with reference
