// RUN: relax-opt %s --split-input-file | filecheck %s
// RUN: relax-opt %s --split-input-file %generic-roundtrip | filecheck %s

// Reshape: constant targets (with -1 and 0 resolved from the input shape),
// symbolic element counts compared by the simplifier, shape variables.
// CHECK-LABEL: @reshape
relax.function @reshape(%x: !relax.tensor<[n, 4], f32>, %y: !relax.tensor<[2, 3, 4], i32>, %z: !relax.tensor<[n, m, 4], f16>, %u: !relax.tensor<ndim = 2, f32>, %v: !relax.tensor, %s: !relax.shape<[m, 2]>, %r: !relax.shape<ndim = 3>, %q: !relax.shape) -> !relax.object {
  %a = relax.shape [n, 2, 2]
  // CHECK: relax.reshape %x, %a : !relax.tensor<[n, 2, 2], f32>
  %0 = relax.reshape %x, %a
  %b = relax.shape [n, 3]
  // 4 * n against 3 * n: not provably different (n may be 0), left to run time
  // CHECK: relax.reshape %x, %b : !relax.tensor<[n, 3], f32>
  %1 = relax.reshape %x, %b
  %c = relax.shape [6, 1, -1]
  // CHECK: relax.reshape %y, %c : !relax.tensor<[6, 1, 4], i32>
  %2 = relax.reshape %y, %c
  %d = relax.shape [-1]
  // CHECK: relax.reshape %y, %d : !relax.tensor<[24], i32>
  %3 = relax.reshape %y, %d
  %e = relax.shape [0, -1, 2]
  // 0 copies n; -1 is (4 * m * n) / (2 * n) with the common factor n cancelled
  // CHECK: relax.reshape %z, %e : !relax.tensor<[n, 2 * m, 2], f16>
  %4 = relax.reshape %z, %e
  %f = relax.shape [-1, 2]
  // CHECK: relax.reshape %x, %f : !relax.tensor<[2 * n, 2], f32>
  %5 = relax.reshape %x, %f
  %g = relax.shape [3, -1]
  // CHECK: relax.reshape %x, %g : !relax.tensor<[3, n + n floordiv 3], f32>
  %6 = relax.reshape %x, %g
  // a shape variable: its known dimensions, else its rank
  // CHECK: relax.reshape %x, %s : !relax.tensor<[m, 2], f32>
  %7 = relax.reshape %x, %s
  // CHECK: relax.reshape %x, %r : !relax.tensor<ndim = 3, f32>
  %8 = relax.reshape %x, %r
  // CHECK: relax.reshape %x, %q : !relax.tensor<f32>
  %9 = relax.reshape %x, %q
  // without the shape of x there is nothing to compare
  // CHECK: relax.reshape %u, %a : !relax.tensor<[n, 2, 2], f32>
  %10 = relax.reshape %u, %a
  // CHECK: relax.reshape %v, %b : !relax.tensor<[n, 3]>
  %11 = relax.reshape %v, %b
  %h = relax.shape [0, 0, 0]
  // CHECK: relax.reshape %y, %h : !relax.tensor<[2, 3, 4], i32>
  %12 = relax.reshape %y, %h
  %i = relax.shape []
  // CHECK: relax.reshape %v, %i : !relax.tensor<[]>
  %13 = relax.reshape %v, %i
  relax.return %0
}

// -----

// CHECK-LABEL: @flatten
relax.function @flatten(%x: !relax.tensor<[n, m, 3], f32>, %y: !relax.tensor<[n], i8>, %s: !relax.tensor<[], f32>, %u: !relax.tensor<ndim = 3, f32>, %v: !relax.tensor<f32>, %w: !relax.tensor<[n, m]>) -> !relax.object {
  // CHECK: relax.flatten %x : !relax.tensor<[3 * (m * n)], f32>
  %0 = relax.flatten %x
  // CHECK: relax.flatten %y : !relax.tensor<[n], i8>
  %1 = relax.flatten %y
  // a scalar flattens to one element
  // CHECK: relax.flatten %s : !relax.tensor<[1], f32>
  %2 = relax.flatten %s
  // CHECK: relax.flatten %u : !relax.tensor<ndim = 1, f32>
  %3 = relax.flatten %u
  // CHECK: relax.flatten %v : !relax.tensor<ndim = 1, f32>
  %4 = relax.flatten %v
  // CHECK: relax.flatten %w : !relax.tensor<[m * n]>
  %5 = relax.flatten %w
  relax.return %0
}

// -----

// CHECK-LABEL: @expand_dims
relax.function @expand_dims(%x: !relax.tensor<[n, 3], f32>, %u: !relax.tensor<ndim = 2, f32>, %v: !relax.tensor<f32>) -> !relax.object {
  // axes are positions in the result: -1 is the new last axis
  // CHECK: relax.expand_dims %x {axis = [0, -1]} : !relax.tensor<[1, n, 3, 1], f32>
  %0 = relax.expand_dims %x {axis = [0, -1]}
  // CHECK: relax.expand_dims %x {axis = [1, 3]} : !relax.tensor<[n, 1, 3, 1], f32>
  %1 = relax.expand_dims %x {axis = [1, 3]}
  // CHECK: relax.expand_dims %x {axis = [-2]} : !relax.tensor<[n, 1, 3], f32>
  %2 = relax.expand_dims %x {axis = [-2]}
  // CHECK: relax.expand_dims %x {axis = []} : !relax.tensor<[n, 3], f32>
  %3 = relax.expand_dims %x {axis = []}
  // CHECK: relax.expand_dims %u {axis = [-1]} : !relax.tensor<ndim = 3, f32>
  %4 = relax.expand_dims %u {axis = [-1]}
  // CHECK: relax.expand_dims %v {axis = [5]} : !relax.tensor<f32>
  %5 = relax.expand_dims %v {axis = [5]}
  relax.return %0
}

// -----

// CHECK-LABEL: @squeeze
relax.function @squeeze(%x: !relax.tensor<[1, n, 1, 3], f32>, %y: !relax.tensor<[1, 2, 1, 3], f32>, %u: !relax.tensor<ndim = 3, f32>, %v: !relax.tensor<f32>) -> !relax.object {
  // CHECK: relax.squeeze %x {axis = [0, -2]} : !relax.tensor<[n, 3], f32>
  %0 = relax.squeeze %x {axis = [0, -2]}
  // a listed axis of constant length other than 1 stays; a symbolic one goes
  // CHECK: relax.squeeze %x {axis = [3]} : !relax.tensor<[1, n, 1, 3], f32>
  %1 = relax.squeeze %x {axis = [3]}
  // CHECK: relax.squeeze %x {axis = [1]} : !relax.tensor<[1, 1, 3], f32>
  %2 = relax.squeeze %x {axis = [1]}
  // CHECK: relax.squeeze %x {axis = []} : !relax.tensor<[1, n, 1, 3], f32>
  %3 = relax.squeeze %x {axis = []}
  // without axis, a symbolic dimension makes the rank unknown
  // CHECK: relax.squeeze %x : !relax.tensor<f32>
  %4 = relax.squeeze %x
  // CHECK: relax.squeeze %y : !relax.tensor<[2, 3], f32>
  %5 = relax.squeeze %y
  // CHECK: relax.squeeze %u {axis = [1]} : !relax.tensor<ndim = 2, f32>
  %6 = relax.squeeze %u {axis = [1]}
  // CHECK: relax.squeeze %u : !relax.tensor<f32>
  %7 = relax.squeeze %u
  // CHECK: relax.squeeze %v {axis = [1]} : !relax.tensor<f32>
  %8 = relax.squeeze %v {axis = [1]}
  relax.return %0
}

// -----

// CHECK-LABEL: @permute_dims
relax.function @permute_dims(%x: !relax.tensor<[n, m, 3], f32>, %w: !relax.tensor<[n], f32>, %u: !relax.tensor<ndim = 3, f32>, %v: !relax.tensor<f32>) -> !relax.object {
  // CHECK: relax.permute_dims %x : !relax.tensor<[3, m, n], f32>
  %0 = relax.permute_dims %x
  // CHECK: relax.permute_dims %x {axes = [1, -1, 0]} : !relax.tensor<[m, 3, n], f32>
  %1 = relax.permute_dims %x {axes = [1, -1, 0]}
  // identity permutation; unset axes reverse them
  // CHECK: relax.permute_dims %x {axes = [0, 1, 2]} : !relax.tensor<[n, m, 3], f32>
  %2 = relax.permute_dims %x {axes = [0, 1, 2]}
  // CHECK: relax.permute_dims %w : !relax.tensor<[n], f32>
  %3 = relax.permute_dims %w
  // CHECK: relax.permute_dims %u : !relax.tensor<ndim = 3, f32>
  %4 = relax.permute_dims %u
  // CHECK: relax.permute_dims %u {axes = [2, 0, 1]} : !relax.tensor<ndim = 3, f32>
  %5 = relax.permute_dims %u {axes = [2, 0, 1]}
  // CHECK: relax.permute_dims %v : !relax.tensor<f32>
  %6 = relax.permute_dims %v
  // an unknown rank is the number of axes
  // CHECK: relax.permute_dims %v {axes = [1, 0]} : !relax.tensor<ndim = 2, f32>
  %7 = relax.permute_dims %v {axes = [1, 0]}
  relax.return %0
}

// -----

// CHECK-LABEL: @flip
relax.function @flip(%x: !relax.tensor<[n, 3], f32>, %u: !relax.tensor<ndim = 2, i32>, %v: !relax.tensor<f32>) -> !relax.object {
  // CHECK: relax.flip %x {axis = -2} : !relax.tensor<[n, 3], f32>
  %0 = relax.flip %x {axis = -2}
  // CHECK: relax.flip %u {axis = 1} : !relax.tensor<ndim = 2, i32>
  %1 = relax.flip %u {axis = 1}
  // CHECK: relax.flip %v {axis = 7} : !relax.tensor<f32>
  %2 = relax.flip %v {axis = 7}
  relax.return %0
}

// -----

// CHECK-LABEL: @concat
relax.function @concat(%a: !relax.tensor<[n, 3], f32>, %b: !relax.tensor<[m, 3], f32>, %c: !relax.tensor<[2, 3], f32>, %d: !relax.tensor<[n, 4], f32>, %e: !relax.tensor<[m, 4], f32>, %u: !relax.tensor<ndim = 2, f32>, %v: !relax.tensor<f32>, %w: !relax.tensor<[2, 3]>) -> !relax.object {
  %t0 = relax.tuple(%a, %a)
  // axis defaults to 0; joined lengths add up
  // CHECK: relax.concat %t0 : !relax.tensor<[2 * n, 3], f32>
  %0 = relax.concat %t0
  %t1 = relax.tuple(%a, %b, %c)
  // CHECK: relax.concat %t1 {axis = 0} : !relax.tensor<[m + n + 2, 3], f32>
  %1 = relax.concat %t1 {axis = 0}
  %t2 = relax.tuple(%a, %d)
  // CHECK: relax.concat %t2 {axis = -1} : !relax.tensor<[n, 7], f32>
  %2 = relax.concat %t2 {axis = -1}
  %t3 = relax.tuple(%a, %e)
  // n against m on the other axis: undecidable, only the rank is kept
  // CHECK: relax.concat %t3 {axis = 1} : !relax.tensor<ndim = 2, f32>
  %3 = relax.concat %t3 {axis = 1}
  %t4 = relax.tuple(%u, %c)
  // CHECK: relax.concat %t4 {axis = 1} : !relax.tensor<ndim = 2, f32>
  %4 = relax.concat %t4 {axis = 1}
  %t5 = relax.tuple(%v, %c)
  // CHECK: relax.concat %t5 {axis = 1} : !relax.tensor<ndim = 2, f32>
  %5 = relax.concat %t5 {axis = 1}
  %t6 = relax.tuple(%v, %v)
  // CHECK: relax.concat %t6 {axis = 1} : !relax.tensor<f32>
  %6 = relax.concat %t6 {axis = 1}
  %t7 = relax.tuple(%c)
  // a single tensor is returned as is; void makes the result void
  // CHECK: relax.concat %t7 {axis = 1} : !relax.tensor<[2, 3], f32>
  %7 = relax.concat %t7 {axis = 1}
  %t8 = relax.tuple(%w, %c)
  // CHECK: relax.concat %t8 : !relax.tensor<[4, 3]>
  %8 = relax.concat %t8
  relax.return %0
}

// -----

// CHECK-LABEL: @stack
relax.function @stack(%a: !relax.tensor<[n, 3], f32>, %b: !relax.tensor<[m, 3], f32>, %u: !relax.tensor<ndim = 2, f32>, %v: !relax.tensor<f32>, %w: !relax.tensor<[n, 3]>) -> !relax.object {
  %t0 = relax.tuple(%a, %a, %a)
  // CHECK: relax.stack %t0 : !relax.tensor<[3, n, 3], f32>
  %0 = relax.stack %t0
  // CHECK: relax.stack %t0 {axis = -1} : !relax.tensor<[n, 3, 3], f32>
  %1 = relax.stack %t0 {axis = -1}
  %t2 = relax.tuple(%a, %b)
  // the stacked shapes must agree; n against m keeps only the rank
  // CHECK: relax.stack %t2 {axis = 1} : !relax.tensor<ndim = 3, f32>
  %2 = relax.stack %t2 {axis = 1}
  %t3 = relax.tuple(%a)
  // CHECK: relax.stack %t3 {axis = 1} : !relax.tensor<[n, 1, 3], f32>
  %3 = relax.stack %t3 {axis = 1}
  %t4 = relax.tuple(%u, %a)
  // CHECK: relax.stack %t4 : !relax.tensor<ndim = 3, f32>
  %4 = relax.stack %t4
  %t5 = relax.tuple(%v, %a)
  // unknown ranks take the known one
  // CHECK: relax.stack %t5 {axis = 2} : !relax.tensor<ndim = 3, f32>
  %5 = relax.stack %t5 {axis = 2}
  %t6 = relax.tuple(%v, %v)
  // CHECK: relax.stack %t6 : !relax.tensor<f32>
  %6 = relax.stack %t6
  %t7 = relax.tuple(%w, %a)
  // CHECK: relax.stack %t7 : !relax.tensor<[2, n, 3]>
  %7 = relax.stack %t7
  relax.return %0
}

// -----

// CHECK-LABEL: @split
relax.function @split(%x: !relax.tensor<[n, 10], f32>, %u: !relax.tensor<ndim = 2, f32>, %v: !relax.tensor<f32>) -> !relax.object {
  // CHECK: relax.split %x {indices_or_sections = 3, axis = 1} : !relax.tuple<tensor<[n, 4], f32>, tensor<[n, 4], f32>, tensor<[n, 2], f32>>
  %0 = relax.split %x {indices_or_sections = 3, axis = 1}
  // sections of ceildiv(length, 3), the last one the remainder
  // CHECK: relax.split %x {indices_or_sections = 3} : !relax.tuple<tensor<[(n + 2) floordiv 3, 10], f32>, tensor<[(n + 2) floordiv 3, 10], f32>, tensor<[n - 2 * ((n + 2) floordiv 3), 10], f32>>
  %1 = relax.split %x {indices_or_sections = 3}
  // CHECK: relax.split %x {indices_or_sections = [2, 5], axis = -1} : !relax.tuple<tensor<[n, 2], f32>, tensor<[n, 3], f32>, tensor<[n, 5], f32>>
  %2 = relax.split %x {indices_or_sections = [2, 5], axis = -1}
  // indices are clamped to the length; decreasing ones give an empty piece
  // CHECK: relax.split %x {indices_or_sections = [3, 12, 2], axis = 1} : !relax.tuple<tensor<[n, 3], f32>, tensor<[n, 7], f32>, tensor<[n, 0], f32>, tensor<[n, 8], f32>>
  %3 = relax.split %x {indices_or_sections = [3, 12, 2], axis = 1}
  // CHECK: relax.split %x {indices_or_sections = [-3, 4], axis = 1} : !relax.tuple<tensor<[n, 0], f32>, tensor<[n, 4], f32>, tensor<[n, 6], f32>>
  %4 = relax.split %x {indices_or_sections = [-3, 4], axis = 1}
  // symbolic length: the clamps stay
  // CHECK: relax.split %x {indices_or_sections = [2]} : !relax.tuple<tensor<[max(0, min(n, 2) - min(n, 0)), 10], f32>, tensor<[max(0, n - min(n, 2)), 10], f32>>
  %5 = relax.split %x {indices_or_sections = [2]}
  // one piece is x itself, not a tuple
  // CHECK: relax.split %x {indices_or_sections = 1} : !relax.tensor<[n, 10], f32>
  %6 = relax.split %x {indices_or_sections = 1}
  // CHECK: relax.split %x {indices_or_sections = []} : !relax.tensor<[n, 10], f32>
  %7 = relax.split %x {indices_or_sections = []}
  // CHECK: relax.split %u {indices_or_sections = 2, axis = 1} : !relax.tuple<tensor<ndim = 2, f32>, tensor<ndim = 2, f32>>
  %8 = relax.split %u {indices_or_sections = 2, axis = 1}
  // CHECK: relax.split %v {indices_or_sections = [1], axis = 7} : !relax.tuple<tensor<f32>, tensor<f32>>
  %9 = relax.split %v {indices_or_sections = [1], axis = 7}
  // CHECK: relax.split %x {indices_or_sections = 4, axis = 1} : !relax.tuple<tensor<[n, 3], f32>, tensor<[n, 3], f32>, tensor<[n, 3], f32>, tensor<[n, 1], f32>>
  %10 = relax.split %x {indices_or_sections = 4, axis = 1}
  relax.return %0
}

// -----

// CHECK-LABEL: @meshgrid
relax.function @meshgrid(%a: !relax.tensor<[n], f32>, %b: !relax.tensor<[3], f32>, %c: !relax.tensor<[m], f32>, %u: !relax.tensor<ndim = 1, f32>, %w: !relax.tensor<[2]>) -> !relax.object {
  %t = relax.tuple(%a, %b, %c)
  // CHECK: relax.meshgrid %t : !relax.tuple<tensor<[n, 3, m], f32>, tensor<[n, 3, m], f32>, tensor<[n, 3, m], f32>>
  %0 = relax.meshgrid %t
  // Cartesian indexing swaps the first two axes
  // CHECK: relax.meshgrid %t {indexing = "xy"} : !relax.tuple<tensor<[3, n, m], f32>, tensor<[3, n, m], f32>, tensor<[3, n, m], f32>>
  %1 = relax.meshgrid %t {indexing = "xy"}
  %t2 = relax.tuple(%a)
  // CHECK: relax.meshgrid %t2 {indexing = "xy"} : !relax.tuple<tensor<[n], f32>>
  %2 = relax.meshgrid %t2 {indexing = "xy"}
  %t3 = relax.tuple(%u, %b)
  // CHECK: relax.meshgrid %t3 : !relax.tuple<tensor<ndim = 2, f32>, tensor<ndim = 2, f32>>
  %3 = relax.meshgrid %t3
  %t4 = relax.tuple(%w, %b)
  // CHECK: relax.meshgrid %t4 : !relax.tuple<tensor<[2, 3], f32>, tensor<[2, 3], f32>>
  %4 = relax.meshgrid %t4
  relax.return %0
}

// -----

// CHECK-LABEL: @broadcast_to
relax.function @broadcast_to(%x: !relax.tensor<[n, 1], f32>, %y: !relax.tensor<[3, 1], f32>, %u: !relax.tensor<ndim = 2, f32>, %s: !relax.shape<ndim = 3>, %q: !relax.shape, %r: !relax.shape<[m, 3, 5]>) -> !relax.object {
  %a = relax.shape [2, n, 4]
  // CHECK: relax.broadcast_to %x, %a : !relax.tensor<[2, n, 4], f32>
  %0 = relax.broadcast_to %x, %a
  %b = relax.shape [m, 4]
  // n against m is left to run time
  // CHECK: relax.broadcast_to %x, %b : !relax.tensor<[m, 4], f32>
  %1 = relax.broadcast_to %x, %b
  // CHECK: relax.broadcast_to %x, %s : !relax.tensor<ndim = 3, f32>
  %2 = relax.broadcast_to %x, %s
  // CHECK: relax.broadcast_to %x, %q : !relax.tensor<f32>
  %3 = relax.broadcast_to %x, %q
  // CHECK: relax.broadcast_to %u, %a : !relax.tensor<[2, n, 4], f32>
  %4 = relax.broadcast_to %u, %a
  // CHECK: relax.broadcast_to %y, %r : !relax.tensor<[m, 3, 5], f32>
  %5 = relax.broadcast_to %y, %r
  relax.return %0
}

// -----

// CHECK-LABEL: @tile
relax.function @tile(%x: !relax.tensor<[n, 3], f32>, %u: !relax.tensor<ndim = 2, f32>, %v: !relax.tensor<f32>) -> !relax.object {
  // CHECK: relax.tile %x {repeats = [2]} : !relax.tensor<[n, 6], f32>
  %0 = relax.tile %x {repeats = [2]}
  // more repeats than axes: the data gets leading axes of length 1
  // CHECK: relax.tile %x {repeats = [2, 1, 3]} : !relax.tensor<[2, n, 9], f32>
  %1 = relax.tile %x {repeats = [2, 1, 3]}
  // CHECK: relax.tile %x {repeats = []} : !relax.tensor<[n, 3], f32>
  %2 = relax.tile %x {repeats = []}
  // CHECK: relax.tile %x {repeats = [0, 2]} : !relax.tensor<[0, 6], f32>
  %3 = relax.tile %x {repeats = [0, 2]}
  // CHECK: relax.tile %u {repeats = [2, 1, 3]} : !relax.tensor<ndim = 3, f32>
  %4 = relax.tile %u {repeats = [2, 1, 3]}
  // CHECK: relax.tile %u {repeats = [1, 1]} : !relax.tensor<ndim = 2, f32>
  %5 = relax.tile %u {repeats = [1, 1]}
  // CHECK: relax.tile %u {repeats = [2]} : !relax.tensor<ndim = 2, f32>
  %6 = relax.tile %u {repeats = [2]}
  // CHECK: relax.tile %v {repeats = [2]} : !relax.tensor<ndim = 1, f32>
  %7 = relax.tile %v {repeats = [2]}
  relax.return %0
}

// -----

// CHECK-LABEL: @repeat
relax.function @repeat(%x: !relax.tensor<[n, 3], f32>, %u: !relax.tensor<ndim = 2, f32>, %v: !relax.tensor<f32>) -> !relax.object {
  // without axis the result is flat
  // CHECK: relax.repeat %x {repeats = 2} : !relax.tensor<[6 * n], f32>
  %0 = relax.repeat %x {repeats = 2}
  // CHECK: relax.repeat %x {repeats = 2, axis = -2} : !relax.tensor<[2 * n, 3], f32>
  %1 = relax.repeat %x {repeats = 2, axis = -2}
  // CHECK: relax.repeat %x {repeats = 0, axis = 1} : !relax.tensor<[n, 0], f32>
  %2 = relax.repeat %x {repeats = 0, axis = 1}
  // CHECK: relax.repeat %u {repeats = 2, axis = 1} : !relax.tensor<ndim = 2, f32>
  %3 = relax.repeat %u {repeats = 2, axis = 1}
  // one repeat keeps the type of the data
  // CHECK: relax.repeat %u {repeats = 1, axis = 1} : !relax.tensor<ndim = 2, f32>
  %4 = relax.repeat %u {repeats = 1, axis = 1}
  // CHECK: relax.repeat %u {repeats = 3} : !relax.tensor<ndim = 1, f32>
  %5 = relax.repeat %u {repeats = 3}
  // CHECK: relax.repeat %v {repeats = 2, axis = 5} : !relax.tensor<f32>
  %6 = relax.repeat %v {repeats = 2, axis = 5}
  relax.return %0
}

// -----

// CHECK-LABEL: @collapse_sum
relax.function @collapse_sum(%x: !relax.tensor<[n, 3, 4], f32>, %t: !relax.tensor<[3, 1], i32>, %k: !relax.tensor<ndim = 2, f32>, %u: !relax.tensor<ndim = 3, f32>, %o: !relax.tensor<f32>, %s: !relax.shape<ndim = 2>, %q: !relax.shape) -> !relax.object {
  // the target's shape with the data's type
  // CHECK: relax.collapse_sum_like %x, %t : !relax.tensor<[3, 1], f32>
  %0 = relax.collapse_sum_like %x, %t
  // CHECK: relax.collapse_sum_like %x, %k : !relax.tensor<ndim = 2, f32>
  %1 = relax.collapse_sum_like %x, %k
  // CHECK: relax.collapse_sum_like %x, %x : !relax.tensor<[n, 3, 4], f32>
  %2 = relax.collapse_sum_like %x, %x
  // CHECK: relax.collapse_sum_like %u, %t : !relax.tensor<[3, 1], f32>
  %3 = relax.collapse_sum_like %u, %t
  // CHECK: relax.collapse_sum_like %x, %o : !relax.tensor<f32>
  %4 = relax.collapse_sum_like %x, %o
  %a = relax.shape [3, 1]
  // CHECK: relax.collapse_sum_to %x, %a : !relax.tensor<[3, 1], f32>
  %5 = relax.collapse_sum_to %x, %a
  %b = relax.shape [n, 1, 4]
  // CHECK: relax.collapse_sum_to %x, %b : !relax.tensor<[n, 1, 4], f32>
  %6 = relax.collapse_sum_to %x, %b
  // CHECK: relax.collapse_sum_to %x, %s : !relax.tensor<ndim = 2, f32>
  %7 = relax.collapse_sum_to %x, %s
  // CHECK: relax.collapse_sum_to %x, %q : !relax.tensor<f32>
  %8 = relax.collapse_sum_to %x, %q
  %c = relax.shape []
  // CHECK: relax.collapse_sum_to %x, %c : !relax.tensor<[], f32>
  %9 = relax.collapse_sum_to %x, %c
  relax.return %0
}

// -----

// CHECK-LABEL: @gather
relax.function @gather(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[m, 2], i64>, %j: !relax.tensor<[m, 2], i32>, %k: !relax.tensor<ndim = 2, i64>, %l: !relax.tensor<i64>, %u: !relax.tensor<ndim = 2, f32>, %d: !relax.tensor<[n, 4, 5], f32>, %p: !relax.tensor<[n, 1], i64>, %q: !relax.tensor<[n, 7, 2], i64>, %r: !relax.tensor<[2, m], i64>, %w: !relax.tensor<[3], i64>, %v: !relax.tensor<[5, 2]>) -> !relax.object {
  // CHECK: relax.gather_elements %x, %i {axis = 1} : !relax.tensor<[m, 2], f32>
  %0 = relax.gather_elements %x, %i {axis = 1}
  // CHECK: relax.gather_elements %x, %j {axis = -2} : !relax.tensor<[m, 2], f32>
  %1 = relax.gather_elements %x, %j {axis = -2}
  // CHECK: relax.gather_elements %x, %i : !relax.tensor<[m, 2], f32>
  %2 = relax.gather_elements %x, %i
  // CHECK: relax.gather_elements %x, %k : !relax.tensor<ndim = 2, f32>
  %3 = relax.gather_elements %x, %k
  // CHECK: relax.gather_elements %x, %l : !relax.tensor<f32>
  %4 = relax.gather_elements %x, %l
  // CHECK: relax.gather_elements %u, %i : !relax.tensor<[m, 2], f32>
  %5 = relax.gather_elements %u, %i
  // CHECK: relax.gather_elements %x, %v : !relax.tensor<[5, 2], f32>
  %6 = relax.gather_elements %x, %v
  // CHECK: relax.gather_nd %d, %i : !relax.tensor<[m, 5], f32>
  %7 = relax.gather_nd %d, %i
  // indices.shape[:-1] + data.shape[batch_dims + k:]
  // CHECK: relax.gather_nd %d, %p {batch_dims = 1} : !relax.tensor<[n, 5], f32>
  %8 = relax.gather_nd %d, %p {batch_dims = 1}
  // CHECK: relax.gather_nd %d, %q {batch_dims = 1} : !relax.tensor<[n, 7], f32>
  %9 = relax.gather_nd %d, %q {batch_dims = 1}
  // a symbolic index depth leaves the rank unknown
  // CHECK: relax.gather_nd %d, %r : !relax.tensor<f32>
  %10 = relax.gather_nd %d, %r
  // CHECK: relax.gather_nd %d, %w : !relax.tensor<[], f32>
  %11 = relax.gather_nd %d, %w
  // CHECK: relax.gather_nd %x, %v : !relax.tensor<[5], f32>
  %12 = relax.gather_nd %x, %v
  // CHECK: relax.gather_nd %u, %i : !relax.tensor<ndim = 1, f32>
  %13 = relax.gather_nd %u, %i
  // CHECK: relax.gather_nd %d, %k : !relax.tensor<f32>
  %14 = relax.gather_nd %d, %k
  // CHECK: relax.gather_nd %d, %l : !relax.tensor<f32>
  %15 = relax.gather_nd %d, %l
  relax.return %0
}

// -----

// CHECK-LABEL: @scatter
relax.function @scatter(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[m, 2], i64>, %w: !relax.tensor<[m, 2], f32>, %j: !relax.tensor<[m, 2], ui8>, %k: !relax.tensor<[n, 4], i32>, %c: !relax.tensor<[m, 2], i32>, %u: !relax.tensor<ndim = 2, f32>, %v: !relax.tensor<f32>, %o: !relax.tensor<[n, 4]>, %d: !relax.tensor<[n, 4, 5], f32>, %e: !relax.tensor<[m, 5], f32>, %f: !relax.tensor<[m, 4, 5], f32>, %h: !relax.tensor<[m, 1], i64>, %g: !relax.tensor<[m, 3], i64>, %s: !relax.tensor<[m], f32>) -> !relax.object {
  // CHECK: relax.scatter_elements %x, %i, %w : !relax.tensor<[n, 4], f32>
  %0 = relax.scatter_elements %x, %i, %w
  // CHECK: relax.scatter_elements %x, %j, %w {axis = -1, reduction = "add"} : !relax.tensor<[n, 4], f32>
  %1 = relax.scatter_elements %x, %j, %w {axis = -1, reduction = "add"}
  // CHECK: relax.scatter_elements %k, %i, %c {reduction = "max"} : !relax.tensor<[n, 4], i32>
  %2 = relax.scatter_elements %k, %i, %c {reduction = "max"}
  // CHECK: relax.scatter_elements %u, %i, %w {reduction = "mean"} : !relax.tensor<ndim = 2, f32>
  %3 = relax.scatter_elements %u, %i, %w {reduction = "mean"}
  // CHECK: relax.scatter_elements %v, %i, %w {axis = 9} : !relax.tensor<f32>
  %4 = relax.scatter_elements %v, %i, %w {axis = 9}
  // CHECK: relax.scatter_elements %x, %i, %v : !relax.tensor<[n, 4], f32>
  %5 = relax.scatter_elements %x, %i, %v
  // CHECK: relax.scatter_elements %o, %i, %c : !relax.tensor<[n, 4]>
  %6 = relax.scatter_elements %o, %i, %c
  // CHECK: relax.scatter_nd %d, %i, %e : !relax.tensor<[n, 4, 5], f32>
  %7 = relax.scatter_nd %d, %i, %e
  // CHECK: relax.scatter_nd %d, %h, %f {reduction = "mul"} : !relax.tensor<[n, 4, 5], f32>
  %8 = relax.scatter_nd %d, %h, %f {reduction = "mul"}
  // CHECK: relax.scatter_nd %d, %g, %s {reduction = "min"} : !relax.tensor<[n, 4, 5], f32>
  %9 = relax.scatter_nd %d, %g, %s {reduction = "min"}
  // CHECK: relax.scatter_nd %u, %i, %w : !relax.tensor<ndim = 2, f32>
  %10 = relax.scatter_nd %u, %i, %w
  // CHECK: relax.scatter_nd %v, %i, %w : !relax.tensor<f32>
  %11 = relax.scatter_nd %v, %i, %w
  relax.return %0
}

// -----

// CHECK-LABEL: @one_hot
relax.function @one_hot(%i: !relax.tensor<[n, 3], i32>, %j: !relax.tensor<[4], ui8>, %u: !relax.tensor<ndim = 2, i64>, %v: !relax.tensor<i64>, %w: !relax.tensor<[n]>) -> !relax.object {
  %on = relax.prim_value 1.0 : !relax.prim<f32>
  %off = relax.prim_value 0.0 : !relax.prim<f32>
  %one = relax.prim_value 1
  %zero = relax.prim_value 0
  // CHECK: relax.one_hot %i, %on, %off {depth = 5} : !relax.tensor<[n, 3, 5], f32>
  %0 = relax.one_hot %i, %on, %off {depth = 5}
  // the data type is the prim values'
  // CHECK: relax.one_hot %i, %one, %zero {depth = 5, axis = 0} : !relax.tensor<[5, n, 3], i64>
  %1 = relax.one_hot %i, %one, %zero {depth = 5, axis = 0}
  // CHECK: relax.one_hot %i, %one, %zero {depth = 5, axis = -2} : !relax.tensor<[n, 5, 3], i64>
  %2 = relax.one_hot %i, %one, %zero {depth = 5, axis = -2}
  // CHECK: relax.one_hot %j, %one, %zero {depth = 2} : !relax.tensor<[4, 2], i64>
  %3 = relax.one_hot %j, %one, %zero {depth = 2}
  // CHECK: relax.one_hot %u, %on, %off {depth = 5, axis = 1} : !relax.tensor<ndim = 3, f32>
  %4 = relax.one_hot %u, %on, %off {depth = 5, axis = 1}
  // CHECK: relax.one_hot %v, %on, %off {depth = 5} : !relax.tensor<f32>
  %5 = relax.one_hot %v, %on, %off {depth = 5}
  // CHECK: relax.one_hot %w, %one, %zero {depth = 5} : !relax.tensor<[n, 5], i64>
  %6 = relax.one_hot %w, %one, %zero {depth = 5}
  relax.return %0
}

// -----

// index_tensor: the index shapes broadcast (aligned from the right) followed by
// the dimensions of data left unindexed.
// CHECK-LABEL: @index_tensor
relax.function @index_tensor(%x: !relax.tensor<[n, 4, 5], f32>, %i: !relax.tensor<[2], i64>, %j: !relax.tensor<[3, 1], i32>, %k: !relax.tensor<[m], i64>, %r: !relax.tensor<ndim = 1, i64>, %u: !relax.tensor<ndim = 3, f16>, %v: !relax.tensor<i8>, %w: !relax.tensor<[2]>) -> !relax.object {
  %t0 = relax.tuple(%i)
  // CHECK: relax.index_tensor %x, %t0 : !relax.tensor<[2, 4, 5], f32>
  %0 = relax.index_tensor %x, %t0
  %t1 = relax.tuple(%j, %i)
  // CHECK: relax.index_tensor %x, %t1 : !relax.tensor<[3, 2, 5], f32>
  %1 = relax.index_tensor %x, %t1
  %t2 = relax.tuple(%k, %k, %k)
  // CHECK: relax.index_tensor %x, %t2 : !relax.tensor<[m], f32>
  %2 = relax.index_tensor %x, %t2
  // m against 2 is undecided: the rank too is unknown, as in TVM
  %t3 = relax.tuple(%k, %i)
  // CHECK: relax.index_tensor %x, %t3 : !relax.tensor<f32>
  %3 = relax.index_tensor %x, %t3
  // an index without a shape leaves the rank unknown
  %t4 = relax.tuple(%r)
  // CHECK: relax.index_tensor %x, %t4 : !relax.tensor<f32>
  %4 = relax.index_tensor %x, %t4
  // data without a shape keeps the rank; without a rank nothing
  %t5 = relax.tuple(%j)
  // CHECK: relax.index_tensor %u, %t5 : !relax.tensor<ndim = 4, f16>
  %5 = relax.index_tensor %u, %t5
  // CHECK: relax.index_tensor %v, %t5 : !relax.tensor<i8>
  %6 = relax.index_tensor %v, %t5
  // indices of unknown data type are assumed to be integers
  %t7 = relax.tuple(%w)
  // CHECK: relax.index_tensor %x, %t7 : !relax.tensor<[2, 4, 5], f32>
  %7 = relax.index_tensor %x, %t7
  relax.return %0
}

// -----

// index_put: the type of data.
// CHECK-LABEL: @index_put
relax.function @index_put(%x: !relax.tensor<[n, 4], f32>, %i: !relax.tensor<[2], i64>, %j: !relax.tensor<[2, 1], ui8>, %v: !relax.tensor<[2], f32>, %y: !relax.tensor<[n], i32>, %yv: !relax.tensor<[3], i32>, %u: !relax.tensor<f16>, %r: !relax.tensor<ndim = 2, f32>, %w: !relax.tensor<[2]>) -> !relax.object {
  %t0 = relax.tuple(%i, %i)
  // CHECK: relax.index_put %x, %t0, %v : !relax.tensor<[n, 4], f32>
  %0 = relax.index_put %x, %t0, %v
  %t1 = relax.tuple(%j, %i)
  // CHECK: relax.index_put %x, %t1, %v {accumulate = true} : !relax.tensor<[n, 4], f32>
  %1 = relax.index_put %x, %t1, %v {accumulate = true}
  // one tensor indexes 1-D data
  // CHECK: relax.index_put %y, %i, %yv : !relax.tensor<[n], i32>
  %2 = relax.index_put %y, %i, %yv
  // data of unknown rank: nothing else is checked
  // CHECK: relax.index_put %u, %i, %v : !relax.tensor<f16>
  %3 = relax.index_put %u, %i, %v
  %t4 = relax.tuple(%i, %w)
  // CHECK: relax.index_put %r, %t4, %w : !relax.tensor<ndim = 2, f32>
  %4 = relax.index_put %r, %t4, %w
  relax.return %0
}

// -----

// slice_scatter: the type of input_tensor; src spans ceil((end - start) / step)
// along the axis.
// CHECK-LABEL: @slice_scatter
relax.function @slice_scatter(%x: !relax.tensor<[n, 8], f32>, %a: !relax.tensor<[n, 3], f32>, %b: !relax.tensor<[2, 8], f32>, %c: !relax.tensor<[m, 8], f32>, %u: !relax.tensor<f32>, %r: !relax.tensor<ndim = 2, f32>) -> !relax.object {
  %zero = relax.prim_value 0
  %one = relax.prim_value 1
  %two = relax.prim_value 2
  %three = relax.prim_value 3
  %six = relax.prim_value 6
  %n = relax.prim_value n
  // CHECK: relax.slice_scatter %x, %a, %zero, %six, %two {axis = 1} : !relax.tensor<[n, 8], f32>
  %0 = relax.slice_scatter %x, %a, %zero, %six, %two {axis = 1}
  // CHECK: relax.slice_scatter %x, %a, %three, %six, %one {axis = -1} : !relax.tensor<[n, 8], f32>
  %1 = relax.slice_scatter %x, %a, %three, %six, %one {axis = -1}
  // CHECK: relax.slice_scatter %x, %b, %one, %three, %one : !relax.tensor<[n, 8], f32>
  %2 = relax.slice_scatter %x, %b, %one, %three, %one
  // symbolic bounds; a length not provably different passes
  // CHECK: relax.slice_scatter %x, %x, %zero, %n, %one : !relax.tensor<[n, 8], f32>
  %3 = relax.slice_scatter %x, %x, %zero, %n, %one
  // CHECK: relax.slice_scatter %x, %c, %zero, %two, %one : !relax.tensor<[n, 8], f32>
  %4 = relax.slice_scatter %x, %c, %zero, %two, %one
  // unknown ranks and shapes
  // CHECK: relax.slice_scatter %u, %a, %zero, %two, %one {axis = 5} : !relax.tensor<f32>
  %5 = relax.slice_scatter %u, %a, %zero, %two, %one {axis = 5}
  // CHECK: relax.slice_scatter %r, %u, %zero, %two, %one : !relax.tensor<ndim = 2, f32>
  %6 = relax.slice_scatter %r, %u, %zero, %two, %one
  relax.return %0
}
