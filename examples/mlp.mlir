// A two-layer perceptron over a batch of symbolic size `n`.
//
//   relax-opt examples/mlp.mlir
//
// parses the module, checks it against the spec's well-formedness rules and
// prints it back. Bindings written without `: type` get the StructInfo the
// spec's derivation rules infer: look at the output to see the symbolic
// shapes flow through the calls of @dense.

relax.function @main(%x: !relax.tensor<[n, 784], f32>, %w1: !relax.tensor<[784, 128], f32>, %b1: !relax.tensor<[128], f32>, %w2: !relax.tensor<[128, 10], f32>, %b2: !relax.tensor<[10], f32>) -> !relax.tensor<[n, 10], f32> {
  %hidden = relax.call @dense(%x, %w1, %b1) : !relax.tensor<[n, 128], f32>
  %logits = relax.call @dense(%hidden, %w2, %b2) : !relax.tensor<[n, 10], f32>
  relax.return %logits
}

// One fully connected layer: x @ w + bias, as a pure dataflow block.
relax.function private @dense(%x: !relax.tensor<[batch, inputs], f32>, %w: !relax.tensor<[inputs, outputs], f32>, %bias: !relax.tensor<[outputs], f32>) -> !relax.tensor<[batch, outputs], f32> {
  %y = relax.dataflow {
    %product = relax.matmul %x, %w
    %shifted = relax.add %product, %bias
    relax.output %shifted
  }
  relax.return %y
}
