// --bind-inputs VALUES.npz specialises a model on some graph inputs: they become
// constants (the axes of ReduceSum here), the others stay parameters, with their
// symbolic dimensions. Without it, the refusal names the input to bind; a value
// that does not fit its input is an error naming the input.
// RUN: python -c "import numpy as np; np.savez('%t.npz', axes=np.array([1]))"
// RUN: python -c "import numpy as np; np.savez('%t.i32.npz', axes=np.array([1], 'int32'))"
// RUN: python -c "import numpy as np; np.savez('%t.typo.npz', axis=np.array([1]))"
// RUN: relax-opt %S/Inputs/reduce_axes.onnx --bind-inputs %t.npz | filecheck %s
// RUN: not relax-opt %S/Inputs/reduce_axes.onnx 2>&1 | filecheck %s --check-prefix=REFUSED -DFILE=%S/Inputs/reduce_axes.onnx
// RUN: not relax-opt %S/Inputs/reduce_axes.onnx --bind-inputs %t.i32.npz 2>&1 | filecheck %s --check-prefix=DTYPE -DFILE=%S/Inputs/reduce_axes.onnx
// RUN: not relax-opt %S/Inputs/reduce_axes.onnx --bind-inputs %t.typo.npz 2>&1 | filecheck %s --check-prefix=UNKNOWN -DFILE=%S/Inputs/reduce_axes.onnx

// CHECK:      relax.function @main(%x: !relax.tensor<[n, 4], f32>, %mask: !relax.tensor<[m, 1], f32>) {
// CHECK-NOT:  relax.constant
// CHECK:        %s = relax.sum %x {axis = [1], keepdims = false} : !relax.tensor<[n], f32>
// CHECK:        relax.multiply %s, %mask : !relax.tensor<[m, n], f32>

// REFUSED: [[FILE]]: node 'sum' (ReduceSum, opset 18): error: the axes computed at run time is not supported: it must be known at import time (it depends on graph input 'axes'; bind it with --bind-inputs)

// DTYPE: [[FILE]]: input 'axes': error: the value bound is int32, the input is int64

// UNKNOWN: [[FILE]]: input 'axis': error: cannot bind 'axis': it is not an input of the graph (its inputs: 'x', 'axes', 'mask')
