// RUN: %verify-diagnostics %s
// Every error of the linear algebra operators.

relax.function @main(%a: !relax.shape<[4]>, %b: !relax.tensor<[4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.matmul: the first operand has type shape<[4]>, expected a tensor}}
  %0 = relax.matmul %a, %b
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[4], f32>, %b: !relax.prim<f32>) -> !relax.object {
  // expected-error @+1 {{relax.matmul: the second operand has type prim<f32>, expected a tensor}}
  %0 = relax.matmul %a, %b
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[4], f32>, %b: !relax.tensor<[], f32>) -> !relax.object {
  // expected-error @+1 {{relax.matmul: the second operand is a scalar}}
  %0 = relax.matmul %a, %b
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[], f32>, %b: !relax.tensor<[4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.matmul: the first operand is a scalar}}
  %0 = relax.matmul %a, %b
  relax.return %0
}

// -----

// out_dtype does not lift the requirement that the operands agree
relax.function @main(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<[4], i32>) -> !relax.object {
  // expected-error @+1 {{relax.matmul: operands have different data types f32 and i32}}
  %0 = relax.matmul %a, %b
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<[5, 2], f32>) -> !relax.object {
  // expected-error @+1 {{relax.matmul: inner dimensions 4 and 5 differ}}
  %0 = relax.matmul %a, %b {out_dtype = f16}
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[2, 3, 4], f32>, %b: !relax.tensor<[3, 4, 5], f32>) -> !relax.object {
  // expected-error @+1 {{relax.matmul: dimensions 2 (axis 0 of the first operand) and 3 (axis 0 of the second) cannot be broadcast together}}
  %0 = relax.matmul %a, %b
  relax.return %0
}

// -----

// symbolic dimensions provably different
relax.function @main(%a: !relax.tensor<[k, n], f32>, %b: !relax.tensor<[n + 1], f32>) -> !relax.object {
  // expected-error @+1 {{relax.matmul: inner dimensions n and n + 1 differ}}
  %0 = relax.matmul %a, %b
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<[4, 2], f32>) -> !relax.object {
  // expected-error @+1 {{relax.matmul: result type tensor<[n, 4], f32> contradicts the inferred type tensor<[n, 2], f32>; use relax.match_cast to check it at run time}}
  %0 = relax.matmul %a, %b : !relax.tensor<[n, 4], f32>
  relax.return %0
}

// -----

// the operands are one tuple
relax.function @main(%a: !relax.tensor<[n, 4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.einsum: the operand has type tensor<[n, 4], f32>, expected a tuple of tensors}}
  %0 = relax.einsum %a {subscripts = "ij"}
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tuple<>) -> !relax.object {
  // expected-error @+1 {{relax.einsum: the tuple of operands is empty}}
  %0 = relax.einsum %a {subscripts = "->"}
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[n, 4], f32>, %s: !relax.shape<[2]>) -> !relax.object {
  %t = relax.tuple(%a, %s)
  // expected-error @+1 {{relax.einsum: field 1 of the operand tuple has type shape<[2]>, expected a tensor}}
  %0 = relax.einsum %t {subscripts = "ij,k"}
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<[4], i32>) -> !relax.object {
  %t = relax.tuple(%a, %b)
  // expected-error @+1 {{relax.einsum: operands have different data types f32 and i32}}
  %0 = relax.einsum %t {subscripts = "ij,j"}
  relax.return %0
}

// -----

// as in TVM, an unknown data type does not mix with a known one
relax.function @main(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<[4]>) -> !relax.object {
  %t = relax.tuple(%a, %b)
  // expected-error @+1 {{relax.einsum: operands have different data types f32 and void}}
  %0 = relax.einsum %t {subscripts = "ij,j"}
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[n, 4], f32>) -> !relax.object {
  %t = relax.tuple(%a)
  // expected-error @+1 {{relax.einsum: subscripts 'ij->i->j' have more than one '->'}}
  %0 = relax.einsum %t {subscripts = "ij->i->j"}
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[n, 4], f32>) -> !relax.object {
  %t = relax.tuple(%a)
  // expected-error @+1 {{relax.einsum: subscript '...i...' has more than one '...'}}
  %0 = relax.einsum %t {subscripts = "...i...->i"}
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[n, 4], f32>) -> !relax.object {
  %t = relax.tuple(%a)
  // expected-error @+1 {{relax.einsum: subscripts 'i1->i' contain '1'; labels are letters}}
  %0 = relax.einsum %t {subscripts = "i1->i"}
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[n, 4], f32>) -> !relax.object {
  %t = relax.tuple(%a)
  // expected-error @+1 {{relax.einsum: subscripts 'i..j' contain '.'; labels are letters}}
  %0 = relax.einsum %t {subscripts = "i..j"}
  relax.return %0
}

// -----

// the output is one subscript
relax.function @main(%a: !relax.tensor<[n, 4], f32>) -> !relax.object {
  %t = relax.tuple(%a)
  // expected-error @+1 {{relax.einsum: subscripts 'ij->i,j' contain ','; labels are letters}}
  %0 = relax.einsum %t {subscripts = "ij->i,j"}
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[n, 4], f32>) -> !relax.object {
  %t = relax.tuple(%a)
  // expected-error @+1 {{relax.einsum: subscripts 'ij,jk->ik' name 2 operands, got 1}}
  %0 = relax.einsum %t {subscripts = "ij,jk->ik"}
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[n, 4], f32>) -> !relax.object {
  %t = relax.tuple(%a)
  // expected-error @+1 {{relax.einsum: subscript 'ijk' has 3 labels for operand 0 of rank 2}}
  %0 = relax.einsum %t {subscripts = "ijk->i"}
  relax.return %0
}

// -----

// a known rank is enough
relax.function @main(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<ndim = 1, f32>) -> !relax.object {
  %t = relax.tuple(%a, %b)
  // expected-error @+1 {{relax.einsum: subscript 'jk' has 2 labels for operand 1 of rank 1}}
  %0 = relax.einsum %t {subscripts = "ij,jk->ik"}
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[n, 4], f32>) -> !relax.object {
  %t = relax.tuple(%a)
  // expected-error @+1 {{relax.einsum: subscript 'ij...k' has 3 labels for operand 0 of rank 2}}
  %0 = relax.einsum %t {subscripts = "ij...k->i"}
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[n, 4], f32>) -> !relax.object {
  %t = relax.tuple(%a)
  // expected-error @+1 {{relax.einsum: output label 'k' is not an input label}}
  %0 = relax.einsum %t {subscripts = "ij->k"}
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[n, 4], f32>) -> !relax.object {
  %t = relax.tuple(%a)
  // expected-error @+1 {{relax.einsum: output label 'i' is repeated}}
  %0 = relax.einsum %t {subscripts = "ij->ii"}
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[2, 3], f32>, %b: !relax.tensor<[4, 5], f32>) -> !relax.object {
  %t = relax.tuple(%a, %b)
  // expected-error @+1 {{relax.einsum: label 'j' has extents 3 and 4}}
  %0 = relax.einsum %t {subscripts = "ij,jk->ik"}
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[3, 2], f32>) -> !relax.object {
  %t = relax.tuple(%a)
  // expected-error @+1 {{relax.einsum: label 'i' has extents 3 and 2}}
  %0 = relax.einsum %t {subscripts = "ii->i"}
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[6, 2, 3], f32>, %b: !relax.tensor<[7, 3, 4], f32>) -> !relax.object {
  %t = relax.tuple(%a, %b)
  // expected-error @+1 {{relax.einsum: a dimension covered by '...' has extents 6 and 7}}
  %0 = relax.einsum %t {subscripts = "...ij,...jk->...ik"}
  relax.return %0
}

// -----

// subscripts are required
relax.function @main(%a: !relax.tensor<[n, 4], f32>) -> !relax.object {
  %t = relax.tuple(%a)
  // expected-error @+1 {{property 'subscripts' expected in operation 'relax.einsum'}}
  %0 = relax.einsum %t
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[n, 4], f32>) -> !relax.object {
  %t = relax.tuple(%a)
  // expected-error @+1 {{relax.einsum: result type tensor<[3], f32> contradicts the inferred type tensor<[4], f32>}}
  %0 = relax.einsum %t {subscripts = "ij->j"} : !relax.tensor<[3], f32>
  relax.return %0
}

// -----

relax.function @main(%a: !relax.object, %b: !relax.tensor<[4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.outer: the first operand has type object, expected a tensor}}
  %0 = relax.outer %a, %b
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[4], f32>, %b: !relax.prim<i64>) -> !relax.object {
  // expected-error @+1 {{relax.outer: the second operand has type prim<i64>, expected a tensor}}
  %0 = relax.outer %a, %b
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<[4], f32>) -> !relax.object {
  // expected-error @+1 {{relax.outer: the first operand has type tensor<[n, 4], f32>, expected a 1-D tensor}}
  %0 = relax.outer %a, %b
  relax.return %0
}

// -----

// as in TVM, an unknown rank is rejected
relax.function @main(%a: !relax.tensor<[4], f32>, %b: !relax.tensor<f32>) -> !relax.object {
  // expected-error @+1 {{relax.outer: the second operand has type tensor<f32>, expected a 1-D tensor}}
  %0 = relax.outer %a, %b
  relax.return %0
}

// -----

relax.function @main(%a: !relax.tensor<[4], f32>, %b: !relax.tensor<[n], f32>) -> !relax.object {
  // expected-error @+1 {{relax.outer: result type tensor<[5, n], f32> contradicts the inferred type tensor<[4, n], f32>}}
  %0 = relax.outer %a, %b : !relax.tensor<[5, n], f32>
  relax.return %0
}
