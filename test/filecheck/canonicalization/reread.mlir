// RUN: relax-opt %s -p canonicalize -o %t.once.mlir
// RUN: relax-opt %t.once.mlir -p relax-check-well-formed -o %t.reread.mlir
// RUN: diff %t.once.mlir %t.reread.mlir
// RUN: relax-opt %t.once.mlir -p canonicalize | diff %t.once.mlir -
// RUN: filecheck %s --input-file %t.once.mlir

// relax-opt checks well-formedness after every pass; the output of
// canonicalize is also read back: the checker accepts it, it prints the
// same, and canonicalizing it again changes nothing. The program has a
// rewrite of every pattern file: a dataflow block emptied and two merged, a
// trivial match_cast (and one kept in an unannotated lambda), a field of a
// tuple, a shape literal, a folded operator, identities, IEEE special values.

// CHECK-LABEL: @main
// Whether the merged block still exports %b (x itself, unused) depends on the
// order the blocks are rewritten in; both forms are well formed.
// CHECK-NEXT:    %a, {{(%b, )?}}%e = relax.dataflow {
// CHECK-NEXT:      %a_1 = relax.exp %x : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:      %e_1 = relax.add %a_1, %x : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:      relax.output %a_1, {{(%x, )?}}%e_1
// CHECK-NEXT:    }
// CHECK-NEXT:    %f = relax.lambda () {
// CHECK-NEXT:      %c = relax.match_cast %x : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:      relax.return %c
// CHECK-NEXT:    }
// CHECK-NEXT:    %s = relax.shape [n, 4] : !relax.shape<[n, 4]>
// CHECK-NEXT:    %special = relax.constant dense<[3], f32, [nan, -inf, inf]> : !relax.tensor<[3], f32>
// CHECK-NEXT:    %minus_zero = relax.constant dense<[], f32, -0.0> : !relax.tensor<[], f32>
// CHECK-NEXT:    %pz = relax.constant dense<[], f32, 0.0> : !relax.tensor<[], f32>
// CHECK-NEXT:    %kept = relax.add %x, %pz : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:    %r = relax.tuple(%a, %e, %x, %f, %s, %special, %minus_zero, %kept) : !relax.object
// CHECK-NEXT:    relax.return %r
relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  %a = relax.dataflow {
    %a = relax.exp %x
    relax.output %a
  }
  %m = relax.match_cast %a : !relax.tensor<[n, 4], f32>
  %b = relax.dataflow {
    %one = relax.constant dense<[], f32, 1.0>
    %b = relax.multiply %x, %one
    relax.output %b
  }
  %t = relax.tuple(%m, %b)
  %t1 = relax.tuple_get_item %t[1]
  %e = relax.dataflow {
    %e = relax.add %m, %t1
    relax.output %e
  }
  %n1 = relax.negative %x
  %n2 = relax.negative %n1
  %f = relax.lambda () {
    %c = relax.match_cast %x : !relax.tensor<[n, 4], f32>
    relax.return %c
  }
  %s = relax.shape_of %x
  %v = relax.constant dense<[3], f32, [0.0, 1.0, -1.0]>
  %z = relax.constant dense<[], f32, 0.0>
  %q = relax.divide %v, %z
  %special = relax.negative %q
  %minus_zero = relax.negative %z
  %pz = relax.constant dense<[], f32, 0.0>
  %kept = relax.add %x, %pz
  %r = relax.tuple(%a, %e, %n2, %f, %s, %special, %minus_zero, %kept) : !relax.object
  relax.return %r
}
