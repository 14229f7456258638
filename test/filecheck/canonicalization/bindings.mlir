// RUN: relax-opt %s -p canonicalize --split-input-file | filecheck %s
// RUN: relax-opt %s -p canonicalize,canonicalize --split-input-file | filecheck %s

// Trivial bindings (relax_dialect/canonicalization/bindings.py).

// A match_cast whose value's StructInfo already implies the target is the
// value, with symbolic and static shapes; a cast that checks something (a rank
// or a shape the value is not known to have) stays. A cast to a weaker type
// stays too: canonicalize keeps every binding's StructInfo, and the value's is
// more precise (relax-canonicalize-bindings removes it, refining the uses).

// CHECK-LABEL: @trivial_match_cast
// CHECK-NEXT:    %weaker = relax.match_cast %x : !relax.tensor<ndim = 2, f32>
// CHECK-NEXT:    %narrowing = relax.match_cast %y : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:    %fixing = relax.match_cast %x : !relax.tensor<[2, 4], f32>
// CHECK-NEXT:    %t = relax.tuple(%x, %s, %weaker, %narrowing, %fixing) : !relax.object
// CHECK-NEXT:    relax.return %t
relax.function @trivial_match_cast(%x: !relax.tensor<[n, 4], f32>, %s: !relax.tensor<[2, 3], i32>, %y: !relax.tensor<ndim = 2, f32>) -> !relax.object {
  %symbolic = relax.match_cast %x : !relax.tensor<[n, 4], f32>
  %static = relax.match_cast %s : !relax.tensor<[2, 3], i32>
  %weaker = relax.match_cast %x : !relax.tensor<ndim = 2, f32>
  %narrowing = relax.match_cast %y : !relax.tensor<[n, 4], f32>
  %fixing = relax.match_cast %x : !relax.tensor<[2, 4], f32>
  %t = relax.tuple(%symbolic, %static, %weaker, %narrowing, %fixing) : !relax.object
  relax.return %t
}

// -----

// In a lambda without a return annotation, whose type is that of what it
// returns erased of the variables its casts bind, a trivial cast that names a
// variable stays, even one bound outside (here n): removing it would change
// the lambda's type from () -> tensor<ndim = 2> to () -> tensor<[n, 4]>. With
// a return annotation, or when the cast names no variable, it goes.

// CHECK-LABEL: @trivial_match_cast_in_lambdas
// CHECK-NEXT:    %unannotated = relax.lambda () {
// CHECK-NEXT:      %c = relax.match_cast %x : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:      relax.return %c
// CHECK-NEXT:    }
// CHECK-NEXT:    %annotated = relax.lambda () -> !relax.tensor<[n, 4], f32> {
// CHECK-NEXT:      relax.return %x
// CHECK-NEXT:    }
// CHECK-NEXT:    %no_vars = relax.lambda () {
// CHECK-NEXT:      relax.return %s
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = relax.invoke %unannotated() : !relax.tensor<ndim = 2, f32>
// CHECK-NEXT:    %t = relax.tuple(%unannotated, %annotated, %no_vars, %r) : !relax.object
// CHECK-NEXT:    relax.return %t
relax.function @trivial_match_cast_in_lambdas(%x: !relax.tensor<[n, 4], f32>, %s: !relax.tensor<[3, 2], f32>) -> !relax.object {
  %unannotated = relax.lambda () {
    %c = relax.match_cast %x : !relax.tensor<[n, 4], f32>
    relax.return %c
  }
  %annotated = relax.lambda () -> !relax.tensor<[n, 4], f32> {
    %d = relax.match_cast %x : !relax.tensor<[n, 4], f32>
    relax.return %d
  }
  %no_vars = relax.lambda () {
    %e = relax.match_cast %s : !relax.tensor<[3, 2], f32>
    relax.return %e
  }
  %r = relax.invoke %unannotated()
  %t = relax.tuple(%unannotated, %annotated, %no_vars, %r) : !relax.object
  relax.return %t
}

// -----

// tuple_get_item of a relax.tuple is the field; of a tuple that is not built
// here it stays.

// CHECK-LABEL: @field_of_tuple
// CHECK-NEXT:    %p1 = relax.tuple_get_item %p[1] : !relax.tensor<[2, 3], i32>
// CHECK-NEXT:    %r = relax.tuple(%x, %s, %p1) : !relax.object
// CHECK-NEXT:    relax.return %r
relax.function @field_of_tuple(%x: !relax.tensor<[n, 4], f32>, %s: !relax.tensor<[2, 3], i32>, %p: !relax.tuple<tensor<[n, 4], f32>, tensor<[2, 3], i32>>) -> !relax.object {
  %t = relax.tuple(%x, %s)
  %t0 = relax.tuple_get_item %t[0]
  %t1 = relax.tuple_get_item %t[1]
  %p1 = relax.tuple_get_item %p[1]
  %r = relax.tuple(%t0, %t1, %p1) : !relax.object
  relax.return %r
}

// -----

// A tuple of all the fields of a tuple, in order, is that tuple; reordered,
// partial, or mixing two tuples it stays.

// CHECK-LABEL: @rebuilt_tuple
// CHECK-NEXT:    %a = relax.tuple_get_item %p[0] : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:    %b = relax.tuple_get_item %p[1] : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:    %swapped = relax.tuple(%b, %a) : !relax.tuple<tensor<[n, 4], f32>, tensor<[n, 4], f32>>
// CHECK-NEXT:    %partial = relax.tuple(%a) : !relax.tuple<tensor<[n, 4], f32>>
// CHECK-NEXT:    %c = relax.tuple_get_item %q[1] : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:    %mixed = relax.tuple(%a, %c) : !relax.tuple<tensor<[n, 4], f32>, tensor<[n, 4], f32>>
// CHECK-NEXT:    %r = relax.tuple(%p, %swapped, %partial, %mixed) : !relax.object
// CHECK-NEXT:    relax.return %r
relax.function @rebuilt_tuple(%p: !relax.tuple<tensor<[n, 4], f32>, tensor<[n, 4], f32>>, %q: !relax.tuple<tensor<[n, 4], f32>, tensor<[n, 4], f32>>) -> !relax.object {
  %a = relax.tuple_get_item %p[0]
  %b = relax.tuple_get_item %p[1]
  %same = relax.tuple(%a, %b)
  %swapped = relax.tuple(%b, %a)
  %partial = relax.tuple(%a)
  %c = relax.tuple_get_item %q[1]
  %mixed = relax.tuple(%a, %c)
  %r = relax.tuple(%same, %swapped, %partial, %mixed) : !relax.object
  relax.return %r
}

// -----

// An alias (`y = x`) is the value; one of a weaker type stays, as canonicalize
// keeps every binding's StructInfo (relax-canonicalize-bindings removes it).

// CHECK-LABEL: @alias
// CHECK-NEXT:    %weak = relax.alias %x : !relax.object
// CHECK-NEXT:    %t = relax.tuple(%x, %weak) : !relax.object
// CHECK-NEXT:    relax.return %t
relax.function @alias(%x: !relax.tensor<[n, 4], f32>) -> !relax.object {
  %y = relax.alias %x
  %z = relax.alias %y
  %weak = relax.alias %z : !relax.object
  %t = relax.tuple(%z, %weak) : !relax.object
  relax.return %t
}
