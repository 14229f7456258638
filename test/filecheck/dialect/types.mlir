// RUN: relax-opt %s | filecheck %s
// RUN: relax-opt %s %roundtrip | filecheck %s
// RUN: relax-opt %s %generic-roundtrip | filecheck %s
// RUN: relax-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Every StructInfo type, as parameter annotations.

// CHECK-LABEL: relax.function @objects(%o: !relax.object) -> !relax.object
// GENERIC: "relax.function"() <{sym_name = "objects", global_symbol = "objects", ret_type = !relax.object, purity = true}>
relax.function @objects(%o: !relax.object) -> !relax.object {
  relax.return %o
}

// CHECK-LABEL: relax.function @prims
// CHECK-SAME: %a: !relax.prim<i64>
// CHECK-SAME: %b: !relax.prim<f32>
// CHECK-SAME: %c: !relax.prim<bool>
// CHECK-SAME: %d: !relax.prim<ui8>
// CHECK-SAME: %e: !relax.prim<i64, n>
// CHECK-SAME: %f: !relax.prim<f16, 1.5>
// CHECK-SAME: -> !relax.prim<i64, n * 2 + 1>
relax.function @prims(%a: !relax.prim<int64>, %b: !relax.prim<float32>, %c: !relax.prim<bool>, %d: !relax.prim<u8>, %e: !relax.prim<i64, n>, %f: !relax.prim<f16, 1.5>) -> !relax.prim<i64, n * 2 + 1> {
  %r = relax.prim_value 2 * n + 1 : !relax.prim<i64, n * 2 + 1>
  relax.return %r
}

// CHECK-LABEL: relax.function @shapes
// CHECK-SAME: %a: !relax.shape,
// CHECK-SAME: %b: !relax.shape<ndim = 2>
// CHECK-SAME: %c: !relax.shape<[n, 4]>
// CHECK-SAME: %d: !relax.shape<[]>
relax.function @shapes(%a: !relax.shape, %b: !relax.shape<ndim = 2>, %c: !relax.shape<[n, 4]>, %d: !relax.shape<[]>) -> !relax.shape<ndim = 2> {
  relax.return %c
}

// CHECK-LABEL: relax.function @tensors
// CHECK-SAME: %a: !relax.tensor,
// CHECK-SAME: %b: !relax.tensor<f32>
// CHECK-SAME: %c: !relax.tensor<ndim = 3, i32>
// CHECK-SAME: %d: !relax.tensor<[n, m floordiv 2, 4], f16>
// CHECK-SAME: %e: !relax.tensor<[], bool>
// CHECK-SAME: %f: !relax.tensor<[n, m]>
// CHECK-SAME: %g: !relax.tensor<ndim = 2>
// CHECK-SAME: %h: !relax.tensor<[n, m], f64>
relax.function @tensors(%a: !relax.tensor, %b: !relax.tensor<f32>, %c: !relax.tensor<ndim = 3, i32>, %d: !relax.tensor<[n, m floordiv 2, 4], f16>, %e: !relax.tensor<[], bool>, %f: !relax.tensor<[n, m]>, %g: !relax.tensor<ndim = 2>, %h: !relax.tensor<ndim = 2, [n, m], float64>) -> !relax.tensor<ndim = 3, f16> {
  relax.return %d
}

// CHECK-LABEL: relax.function @tuples
// CHECK-SAME: %a: !relax.tuple<>
// CHECK-SAME: %b: !relax.tuple<tensor<[n], f32>, object, prim<i64>>
// CHECK-SAME: %c: !relax.tuple<tuple<shape<[n]>>, tensor>
relax.function @tuples(%a: !relax.tuple<>, %b: !relax.tuple<!relax.tensor<[n], f32>, object, prim<i64>>, %c: !relax.tuple<tuple<shape<[n]>>, tensor>) -> !relax.tuple<> {
  relax.return %a
}

// CHECK-LABEL: relax.function @functions
// CHECK-SAME: %a: !relax.func<(tensor<[k], f32>) -> tensor<[k], f32>>
// CHECK-SAME: %b: !relax.func<(object, shape<[j]>) -> tuple<>, impure>
// CHECK-SAME: %c: !relax.func<derive "default_derive", impure>
// CHECK-SAME: %d: !relax.func<() -> func<(tensor) -> tensor>>
relax.function @functions(%a: !relax.func<(tensor<[k], f32>) -> tensor<[k], f32>>, %b: !relax.func<(object, shape<[j]>) -> tuple<>, impure>, %c: !relax.func<derive "default_derive", impure>, %d: !relax.func<() -> func<(tensor) -> tensor>>) -> !relax.object {
  relax.return %a
}

// CHECK-LABEL: relax.function @symbolic_expressions
// CHECK-SAME: -> !relax.tensor<[n * m - 1, min(n, m), max(n, 4), n floormod 3, select(lt(n, m), n, m)], f32>
relax.function @symbolic_expressions(%s: !relax.shape<[n, m]>, %x: !relax.tensor<f32>) -> !relax.tensor<[n * m - 1, min(n, m), max(n, 4), n floormod 3, select(lt(n, m), n, m)], f32> {
  %y = relax.match_cast %x : !relax.tensor<[n * m - 1, min(n, m), max(n, 4), n floormod 3, select(lt(n, m), n, m)], f32>
  relax.return %y
}
