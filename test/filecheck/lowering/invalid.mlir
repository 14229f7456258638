// RUN: relax-opt %s --split-input-file --verify-diagnostics -p relax-lower-to-linalg

// A result of unknown rank: reported once the body is lowered.
// expected-error @+1 {{@main: the result: cannot be lowered: tensor<f32> has an unknown rank}}
relax.function @main(%x: !relax.tensor<[n], f32>) -> !relax.tensor<f32> {
  %y = relax.negative %x
  relax.return %y
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

// -----

relax.function private @shift(%s: !relax.tensor<[4], f32>, %y: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  relax.return %y
}
relax.function @main(%b: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  %f = relax.make_closure @shift(%b) : !relax.object
  // expected-error @+1 {{relax.tuple: an object (a closure, or a value cast to object) can only be invoked, captured by a closure, cast back with relax.match_cast or passed to a private function}}
  %t = relax.tuple(%f, %b)
  %r = relax.tuple_get_item %t[1]
  relax.return %r
}

// -----

relax.function @main(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], i32> {
  %o = relax.match_cast %x : !relax.object
  // expected-error @+1 {{relax.match_cast: the value is a tensor<[n], f32>, never a tensor<[n], i32>}}
  %t = relax.match_cast %o : !relax.tensor<[n], i32>
  relax.return %t
}
