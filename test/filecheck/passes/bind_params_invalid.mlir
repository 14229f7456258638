// RUN: python -c "import numpy as np; np.savez('%t.npz', w=np.eye(2, dtype='float32'))"
// RUN: relax-opt %s -p 'relax-bind-params{params="%t.npz"}' --split-input-file --verify-diagnostics
// Errors of relax-bind-params; the module is left unchanged.

// An array that does not match the parameter's StructInfo.

// expected-error @+1 {{relax-bind-params: parameter %w}}
relax.function @main(%w: !relax.tensor<[n, 3], f32>) -> !relax.tensor<[n, 3], f32> {
  relax.return %w
}

// -----

// A function something calls keeps its parameters.

relax.function @main(%w: !relax.tensor<[2, 2], f32>) -> !relax.tensor<[2, 2], f32> {
  relax.return %w
}
relax.function @caller(%y: !relax.tensor<[2, 2], f32>) -> !relax.tensor<[2, 2], f32> {
  // expected-error @+1 {{relax-bind-params: @main is used here, so its parameters cannot be removed}}
  %r = relax.call @main(%y) : !relax.tensor<[2, 2], f32>
  relax.return %r
}
