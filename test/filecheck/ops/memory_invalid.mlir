// RUN: %verify-diagnostics %s
// Every error of the memory views.

relax.function @main(%x: !relax.prim<f32>) -> !relax.object {
  // expected-error @+1 {{relax.memory.view: the x operand has type prim<f32>, expected a tensor}}
  %0 = relax.memory.view %x {dtype = i32}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[3, 4], f32>) -> !relax.object {
  %s = relax.shape [3, 8]
  // expected-error @+1 {{relax.memory.view: a view of [3, 8] f32 reads past the end of the [3, 4] f32 tensor}}
  %0 = relax.memory.view %x, %s
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<ndim = 2, i32>) -> !relax.object {
  // expected-error @+1 {{relax.memory.view: i64 elements are wider than i32 ones: a view of the same shape reads past the end (give a shape)}}
  %0 = relax.memory.view %x {dtype = i64}
  relax.return %0
}

// -----

relax.function @main(%x: !relax.tensor<[3], i32>, %y: !relax.tensor<[2]>) -> !relax.object {
  %s = relax.shape [4]
  // expected-error @+1 {{relax.memory.view: a view of [4] has more elements than [2]}}
  %0 = relax.memory.view %y, %s
  relax.return %0
}
