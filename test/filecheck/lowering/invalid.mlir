// RUN: relax-opt %s --split-input-file --verify-diagnostics -p relax-lower-to-linalg

relax.function @main(%x: !relax.tensor<[n], f32>) -> !relax.tensor<ndim = 1, f32> {
  %f = relax.prim_value false : !relax.prim<bool, false>
  // expected-error @+1 {{relax.unique cannot be lowered: the length of its result depends on the data}}
  %u = relax.unique %x, %f, %f, %f, %f
  relax.return %u
}

// -----

// expected-error @+1 {{@main: argument 0: cannot be lowered: a value of type object has no lowered form}}
relax.function @main(%x: !relax.object) -> !relax.object {
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[m], f32>) -> !relax.tensor<ndim = 1, f32> {
  // expected-error @+1 {{relax.match_cast: cannot be lowered: the data type is unknown (void)}}
  %y = relax.match_cast %x : !relax.tensor<[n]>
  relax.return %y
}

// -----

relax.function @main(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  // expected-error @+1 {{relax.str: strings cannot be lowered (remove unused ones with relax-dce)}}
  %s = relax.str "hello"
  relax.return %x
}
