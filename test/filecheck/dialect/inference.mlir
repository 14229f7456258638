// RUN: relax-opt %s --split-input-file | filecheck %s

// StructInfo inference: a binding written without `: type` gets the type the
// spec's derivation rules give it.

// CHECK-LABEL: @broadcast
relax.function @broadcast(%a: !relax.tensor<[n, 1, 4], f32>, %b: !relax.tensor<[3, 1], f32>, %c: !relax.tensor<[2, 3], f32>, %d: !relax.tensor<[2, n], f32>, %e: !relax.tensor<ndim = 2, f32>, %f: !relax.tensor<f32>, %g: !relax.tensor<[4], bool>, %h: !relax.tensor<[4]>, %p: !relax.prim<f32>, %q: !relax.prim<f32>) -> !relax.object {
  // CHECK: relax.add %a, %b : !relax.tensor<[n, 3, 4], f32>
  %0 = relax.add %a, %b
  // (2, 3) + (2, n): not decidable statically, only the rank is known.
  // CHECK: relax.add %c, %d : !relax.tensor<ndim = 2, f32>
  %1 = relax.add %c, %d
  // CHECK: relax.add %c, %c : !relax.tensor<[2, 3], f32>
  %2 = relax.add %c, %c
  // CHECK: relax.add %e, %a : !relax.tensor<ndim = 3, f32>
  %3 = relax.add %e, %a
  // CHECK: relax.add %f, %a : !relax.tensor<f32>
  %4 = relax.add %f, %a
  // bool mixes with any data type; an unknown data type makes the result unknown.
  // CHECK: relax.add %g, %g : !relax.tensor<[4], bool>
  %5 = relax.add %g, %g
  // CHECK: relax.add %h, %g : !relax.tensor<[4]>
  %6 = relax.add %h, %g
  // a prim value acts as a tensor of shape [1]
  // CHECK: relax.add %a, %p : !relax.tensor<[n, 1, 4], f32>
  %7 = relax.add %a, %p
  // CHECK: relax.add %p, %q : !relax.prim<f32>
  %8 = relax.add %p, %q
  relax.return %0
}

// -----

// CHECK-LABEL: @matmul
relax.function @matmul(%a: !relax.tensor<[b, n, k], f16>, %w: !relax.tensor<[k, m], f16>, %v: !relax.tensor<[k], f16>, %u: !relax.tensor<[n], f16>, %x: !relax.tensor<[1, n, k], f16>, %y: !relax.tensor<[7, k, m], f16>, %z: !relax.tensor<ndim = 3, f16>, %o: !relax.tensor<f16>) -> !relax.object {
  // CHECK: relax.matmul %a, %w : !relax.tensor<[b, n, m], f16>
  %0 = relax.matmul %a, %w
  // CHECK: relax.matmul %a, %v : !relax.tensor<[b, n], f16>
  %1 = relax.matmul %a, %v
  // CHECK: relax.matmul %u, %x : !relax.tensor<[1, k], f16>
  %2 = relax.matmul %u, %x
  // CHECK: relax.matmul %v, %v : !relax.tensor<[], f16>
  %3 = relax.matmul %v, %v
  // CHECK: relax.matmul %x, %y : !relax.tensor<[7, n, m], f16>
  %4 = relax.matmul %x, %y
  // CHECK: relax.matmul %z, %w : !relax.tensor<ndim = 3, f16>
  %5 = relax.matmul %z, %w
  // CHECK: relax.matmul %o, %w : !relax.tensor<f16>
  %6 = relax.matmul %o, %w
  // CHECK: relax.matmul %a, %w {out_dtype = f32} : !relax.tensor<[b, n, m], f32>
  %7 = relax.matmul %a, %w {out_dtype = f32}
  relax.return %0
}

// -----

// Calls substitute the callee's symbolic variables; unbound ones are erased.
// CHECK-LABEL: @calls
relax.function @calls(%x: !relax.tensor<[n, 4], f32>, %y: !relax.tensor<ndim = 2, f32>) -> !relax.object {
  %f = relax.lambda (%a: !relax.tensor<[r, c], f32>) -> !relax.tensor<[r * c, r + 1], f32> {
    %s = relax.match_cast %a : !relax.tensor<[r * c, r + 1], f32>
    relax.return %s
  }
  // CHECK: relax.invoke %f(%x) : !relax.tensor<[4 * n, n + 1], f32>
  %0 = relax.invoke %f(%x)
  // CHECK: relax.invoke %f(%y) : !relax.tensor<ndim = 2, f32>
  %1 = relax.invoke %f(%y)
  // a lambda without return annotation returns its body's type, erased of
  // the symbolic variables it binds itself
  // CHECK: %g = relax.lambda (%b: !relax.object) {
  %g = relax.lambda (%b: !relax.object) {
    %t = relax.match_cast %b : !relax.tensor<[q, 2], f32>
    relax.return %t
  }
  // CHECK: relax.invoke %g(%x) : !relax.tensor<ndim = 2, f32>
  %2 = relax.invoke %g(%x)
  // CHECK: relax.tuple(%0, %x) : !relax.tuple<tensor<[4 * n, n + 1], f32>, tensor<[n, 4], f32>>
  %3 = relax.tuple(%0, %x)
  // CHECK: relax.tuple_get_item %3[1] : !relax.tensor<[n, 4], f32>
  %4 = relax.tuple_get_item %3[1]
  // CHECK: relax.shape [n * 2, 3] : !relax.shape<[n * 2, 3]>
  %5 = relax.shape [n * 2, 3]
  // CHECK: relax.prim_value n + 1 : !relax.prim<i64, n + 1>
  %6 = relax.prim_value n + 1
  // CHECK: relax.constant dense<[2], f32, [1.0, 2.0]> : !relax.tensor<[2], f32>
  %7 = relax.constant dense<[2], f32, [1.0, 2.0]>
  // CHECK: relax.str "s" : !relax.object
  %8 = relax.str "s"
  relax.return %0
}

// -----

// If joins its branches.
// CHECK-LABEL: @branches
relax.function @branches(%c: !relax.tensor<[], bool>, %x: !relax.tensor<[n, 4], f32>, %y: !relax.tensor<[n, 5], f32>, %z: !relax.tensor<[n, 4], f16>) -> !relax.object {
  // CHECK: relax.if %c : !relax.tensor<ndim = 2, f32>
  %0 = relax.if %c {
    relax.yield %x
  } else {
    relax.yield %y
  }
  // CHECK: relax.if %c : !relax.tensor<[n, 4]>
  %1 = relax.if %c {
    relax.yield %x
  } else {
    relax.yield %z
  }
  // CHECK: relax.if %c : !relax.tensor {
  %2 = relax.if %c {
    relax.yield %x
  } else {
    relax.yield %c
  }
  // variables a branch binds are out of scope after the if
  // CHECK: relax.if %c : !relax.tensor<ndim = 2, f32>
  %4 = relax.if %c {
    %q = relax.match_cast %x : !relax.tensor<[q, 4], f32>
    relax.yield %q
  } else {
    %r = relax.match_cast %x : !relax.tensor<[q, 4], f32>
    relax.yield %r
  }
  // CHECK: relax.if %c : !relax.object
  %3 = relax.if %c {
    relax.yield %x
  } else {
    %s = relax.shape [n]
    relax.yield %s
  }
  relax.return %0
}
