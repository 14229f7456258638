// A residual linear layer, x @ w + x, checked to keep the input's shape,
// over a symbolic batch size `n`:
//
//   python -c "import numpy as np; np.savez('in.npz', x=np.ones((3, 4), 'float32'), w=np.eye(4, dtype='float32'))"
//   relax-run examples/normalize.mlir --inputs in.npz --outputs out.npz

relax.function @main(%x: !relax.tensor<[n, 4], f32>, %w: !relax.tensor<[4, 4], f32>) -> !relax.tensor<[n, 4], f32> {
  %y = relax.dataflow {
    %scaled = relax.matmul %x, %w
    %shifted = relax.add %scaled, %x
    relax.output %shifted
  }
  %checked = relax.match_cast %y : !relax.tensor<[n, 4], f32>
  relax.return %checked
}
