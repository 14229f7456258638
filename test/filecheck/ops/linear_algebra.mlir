// RUN: relax-opt %s --split-input-file | filecheck %s

// Linear algebra: matmul (NumPy matmul), einsum (TVM's einsum shape rules),
// outer (two vectors).

// CHECK-LABEL: @matmul
relax.function @matmul(%a: !relax.tensor<[b, n, k], f32>, %w: !relax.tensor<[k, m], f32>, %v: !relax.tensor<[k], f32>, %x: !relax.tensor<[2, 3, 4], f32>, %y: !relax.tensor<[q, 4, 5], f32>, %s: !relax.tensor<[3, r], f32>, %t: !relax.tensor<[p, 5], f32>, %i: !relax.tensor<[4, 4], i8>, %o: !relax.tensor<[k, m]>, %u: !relax.tensor<ndim = 1, f32>) -> !relax.object {
  // CHECK: relax.matmul %a, %w : !relax.tensor<[b, n, m], f32>
  %0 = relax.matmul %a, %w
  // a 1-D operand is a vector whose axis is dropped
  // CHECK: relax.matmul %v, %w : !relax.tensor<[m], f32>
  %1 = relax.matmul %v, %w
  // CHECK: relax.matmul %v, %a : !relax.tensor<[b, k], f32>
  %2 = relax.matmul %v, %a
  // batch dimensions 2 and q cannot be broadcast statically: only the rank
  // CHECK: relax.matmul %x, %y : !relax.tensor<ndim = 3, f32>
  %3 = relax.matmul %x, %y
  // inner dimensions r and p may be equal at run time
  // CHECK: relax.matmul %s, %t : !relax.tensor<[3, 5], f32>
  %4 = relax.matmul %s, %t
  // CHECK: relax.matmul %i, %i {out_dtype = i32} : !relax.tensor<[4, 4], i32>
  %5 = relax.matmul %i, %i {out_dtype = i32}
  // CHECK: relax.matmul %o, %v : !relax.tensor<[k]>
  %6 = relax.matmul %o, %v
  // CHECK: relax.matmul %u, %w : !relax.tensor<ndim = 1, f32>
  %7 = relax.matmul %u, %w
  relax.return %0
}

// -----

// einsum: explicit (`->`) or implicit subscripts (the labels used once, in
// alphabetical order, uppercase first), ellipses, traces and diagonals.
// CHECK-LABEL: @einsum
relax.function @einsum(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<[4, m], f32>, %c: !relax.tensor<[5, n, 2, 3], f32>, %d: !relax.tensor<[n, 3, 4], f32>, %e: !relax.tensor<[3, 3], f32>, %f: !relax.tensor<[2, 3], f32>, %g: !relax.tensor<[3, 4], f32>) -> !relax.object {
  %ab = relax.tuple(%a, %b)
  // CHECK: relax.einsum %ab {subscripts = "ij,jk->ik"} : !relax.tensor<[n, m], f32>
  %0 = relax.einsum %ab {subscripts = "ij,jk->ik"}
  // CHECK: relax.einsum %ab {subscripts = "ij,jk"} : !relax.tensor<[n, m], f32>
  %1 = relax.einsum %ab {subscripts = "ij,jk"}
  // CHECK: relax.einsum %ab {subscripts = " ij , jk -> kji "} : !relax.tensor<[m, 4, n], f32>
  %2 = relax.einsum %ab {subscripts = " ij , jk -> kji "}
  %cd = relax.tuple(%c, %d)
  // CHECK: relax.einsum %cd {subscripts = "...ij,...jk->...ik"} : !relax.tensor<[5, n, 2, 4], f32>
  %3 = relax.einsum %cd {subscripts = "...ij,...jk->...ik"}
  // CHECK: relax.einsum %cd {subscripts = "...ij,...jk"} : !relax.tensor<[5, n, 2, 4], f32>
  %4 = relax.einsum %cd {subscripts = "...ij,...jk"}
  %ee = relax.tuple(%e)
  // CHECK: relax.einsum %ee {subscripts = "ii"} : !relax.tensor<[], f32>
  %5 = relax.einsum %ee {subscripts = "ii"}
  // CHECK: relax.einsum %ee {subscripts = "ii->i"} : !relax.tensor<[3], f32>
  %6 = relax.einsum %ee {subscripts = "ii->i"}
  %fg = relax.tuple(%f, %g)
  // CHECK: relax.einsum %fg {subscripts = "Ba,ab"} : !relax.tensor<[2, 4], f32>
  %7 = relax.einsum %fg {subscripts = "Ba,ab"}
  // CHECK: relax.einsum %fg {subscripts = "ij,kl->"} : !relax.tensor<[], f32>
  %8 = relax.einsum %fg {subscripts = "ij,kl->"}
  relax.return %0
}

// -----

// Label extents: 1 broadcasts; a symbolic extent wins over a constant one,
// two different symbolic ones give their max. Ellipsis dimensions broadcast
// with NumPy's rule, a constant winning over a symbolic one.
// CHECK-LABEL: @einsum_extents
relax.function @einsum_extents(%a: !relax.tensor<[2, 1], f32>, %b: !relax.tensor<[4, 3], f32>, %c: !relax.tensor<[2, n], f32>, %d: !relax.tensor<[m, 3], f32>, %e: !relax.tensor<[n, 3], f32>, %f: !relax.tensor<[m, 2, 3], f32>, %g: !relax.tensor<[7, 3, 4], f32>, %h: !relax.tensor<[1, 2, 3], f32>, %i: !relax.tensor<[n, m], f32>, %j: !relax.tensor<[4, 1], f32>, %k: !relax.tensor<[n, 1], f32>) -> !relax.object {
  %ab = relax.tuple(%a, %b)
  // CHECK: relax.einsum %ab {subscripts = "ij,jk->ijk"} : !relax.tensor<[2, 4, 3], f32>
  %0 = relax.einsum %ab {subscripts = "ij,jk->ijk"}
  %cb = relax.tuple(%c, %b)
  // CHECK: relax.einsum %cb {subscripts = "ij,jk->ij"} : !relax.tensor<[2, n], f32>
  %1 = relax.einsum %cb {subscripts = "ij,jk->ij"}
  %cd = relax.tuple(%c, %d)
  // CHECK: relax.einsum %cd {subscripts = "ij,jk->j"} : !relax.tensor<[max(m, n)], f32>
  %2 = relax.einsum %cd {subscripts = "ij,jk->j"}
  %ce = relax.tuple(%c, %e)
  // CHECK: relax.einsum %ce {subscripts = "ij,jk->j"} : !relax.tensor<[n], f32>
  %3 = relax.einsum %ce {subscripts = "ij,jk->j"}
  %fg = relax.tuple(%f, %g)
  // CHECK: relax.einsum %fg {subscripts = "...ij,...jk->...ik"} : !relax.tensor<[7, 2, 4], f32>
  %4 = relax.einsum %fg {subscripts = "...ij,...jk->...ik"}
  %hg = relax.tuple(%h, %g)
  // CHECK: relax.einsum %hg {subscripts = "...ij,...jk->...ik"} : !relax.tensor<[7, 2, 4], f32>
  %5 = relax.einsum %hg {subscripts = "...ij,...jk->...ik"}
  %ii = relax.tuple(%i)
  // CHECK: relax.einsum %ii {subscripts = "ii->i"} : !relax.tensor<[max(m, n)], f32>
  %6 = relax.einsum %ii {subscripts = "ii->i"}
  %hk = relax.tuple(%h, %k)
  // CHECK: relax.einsum %hk {subscripts = "...,...->..."} : !relax.tensor<[1, 2, 3], f32>
  %7 = relax.einsum %hk {subscripts = "...,...->..."}
  %bj = relax.tuple(%b, %j)
  // CHECK: relax.einsum %bj {subscripts = "a...,a...->..."} : !relax.tensor<[3], f32>
  %8 = relax.einsum %bj {subscripts = "a...,a...->..."}
  relax.return %0
}

// -----

// Unknown shapes keep the output rank (TVM keeps the rank of the operand whose
// shape is unknown); it is unknown only when an output `...` covers
// dimensions of an operand of unknown rank. An unknown data type is shared.
// CHECK-LABEL: @einsum_unknown
relax.function @einsum_unknown(%a: !relax.tensor<[3], f32>, %r: !relax.tensor<ndim = 1, f32>, %m: !relax.tensor<ndim = 2, f32>, %u: !relax.tensor<f32>, %v: !relax.tensor<[3]>, %w: !relax.tensor<[n, 3]>) -> !relax.object {
  %ar = relax.tuple(%a, %r)
  // CHECK: relax.einsum %ar {subscripts = "i,j->ij"} : !relax.tensor<ndim = 2, f32>
  %0 = relax.einsum %ar {subscripts = "i,j->ij"}
  %ma = relax.tuple(%m, %a)
  // CHECK: relax.einsum %ma {subscripts = "ij,j->i"} : !relax.tensor<ndim = 1, f32>
  %1 = relax.einsum %ma {subscripts = "ij,j->i"}
  // CHECK: relax.einsum %ma {subscripts = "...j,j"} : !relax.tensor<ndim = 1, f32>
  %2 = relax.einsum %ma {subscripts = "...j,j"}
  %au = relax.tuple(%a, %u)
  // CHECK: relax.einsum %au {subscripts = "i,j->ij"} : !relax.tensor<ndim = 2, f32>
  %3 = relax.einsum %au {subscripts = "i,j->ij"}
  // CHECK: relax.einsum %au {subscripts = "i,...->...i"} : !relax.tensor<f32>
  %4 = relax.einsum %au {subscripts = "i,...->...i"}
  %vw = relax.tuple(%v, %w)
  // CHECK: relax.einsum %vw {subscripts = "j,ij->i"} : !relax.tensor<[n]>
  %5 = relax.einsum %vw {subscripts = "j,ij->i"}
  relax.return %0
}

// -----

// outer: two vectors; the data type is the first operand's.
// CHECK-LABEL: @outer
relax.function @outer(%a: !relax.tensor<[n], f32>, %b: !relax.tensor<[4], f32>, %i: !relax.tensor<[4], i32>, %r: !relax.tensor<ndim = 1, f32>, %v: !relax.tensor<[m]>) -> !relax.object {
  // CHECK: relax.outer %a, %b : !relax.tensor<[n, 4], f32>
  %0 = relax.outer %a, %b
  // CHECK: relax.outer %a, %i : !relax.tensor<[n, 4], f32>
  %1 = relax.outer %a, %i
  // CHECK: relax.outer %i, %a : !relax.tensor<[4, n], i32>
  %2 = relax.outer %i, %a
  // CHECK: relax.outer %r, %b : !relax.tensor<ndim = 2, f32>
  %3 = relax.outer %r, %b
  // CHECK: relax.outer %v, %a : !relax.tensor<[m, n]>
  %4 = relax.outer %v, %a
  relax.return %0
}
