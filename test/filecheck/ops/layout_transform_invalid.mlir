// RUN: %verify-diagnostics %s

relax.function @main(%x: !relax.tensor<[4, 3, 2], f32>) -> !relax.object {
  // expected-error @+1 {{relax.layout_transform: the input has 3 dimensions, the index map 2}}
  %0 = relax.layout_transform %x {index_map = affine_map<(d0, d1) -> (d1, d0)>}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[4, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.layout_transform: the index map's outputs must start at 0, one starts at 1}}
  %0 = relax.layout_transform %x {index_map = affine_map<(d0, d1) -> (d0 + 1, d1)>}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[4, 3], i32>) -> !relax.object {
  // expected-error @+1 {{relax.layout_transform: the pad value 0.5 is not a i32 value}}
  %0 = relax.layout_transform %x {index_map = affine_map<(d0, d1) -> (d1, d0)>, pad_value = 0.5}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[4, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.layout_transform: the index map must not have symbols}}
  %0 = relax.layout_transform %x {index_map = affine_map<(d0, d1)[s0] -> (d1 + s0, d0)>}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[4, 3], f32>) -> !relax.object {
  // expected-error @+1 {{relax.layout_transform: the index map divides only by positive constants}}
  %0 = relax.layout_transform %x {index_map = affine_map<(d0, d1) -> (d1 floordiv -2, d0)>}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.shape<[4, 3]>) -> !relax.object {
  // expected-error @+1 {{relax.layout_transform: the x operand has type shape<[4, 3]>, expected a tensor}}
  %0 = relax.layout_transform %x {index_map = affine_map<(d0, d1) -> (d1, d0)>}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[4, 3], f32>) -> !relax.object {
  // expected-error @+1 {{property 'index_map' expected in operation 'relax.layout_transform'}}
  %0 = relax.layout_transform %x {pad_value = 1.0}
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[4, 3], f32>) -> !relax.object {
  // expected-error @+1 {{unsupported attribute: Multiplication with non-constant (semi-affine) is not supported yet}}
  %0 = relax.layout_transform %x {index_map = affine_map<(d0, d1)[s0] -> (d1 * s0, d0)>}
  relax.return %x
}
