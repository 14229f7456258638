// RUN: %verify-diagnostics %s
// relax.alias names the value itself: its type may only be one the value's
// type statically satisfies (a more specific one is relax.match_cast's job).

relax.function @main(%x: !relax.tensor<ndim = 2, f32>) -> !relax.object {
  // expected-error @+1 {{relax.alias: a value of type tensor<ndim = 2, f32> is not always a tensor<[3, 4], f32>; use relax.match_cast to check it at run time}}
  %y = relax.alias %x : !relax.tensor<[3, 4], f32>
  relax.return %y
}

// -----

relax.function @main(%x: !relax.tensor<[3, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.alias: a value of type tensor<[3, 4], f32> is not always a tensor<[3, 5], f32>; use relax.match_cast to check it at run time}}
  %y = relax.alias %x : !relax.tensor<[3, 5], f32>
  relax.return %y
}

// -----

relax.function @main(%o: !relax.object) -> !relax.object {
  // expected-error @+1 {{relax.alias: a value of type object is not always a shape<[2]>; use relax.match_cast to check it at run time}}
  %y = relax.alias %o : !relax.shape<[2]>
  relax.return %y
}
