// RUN: relax-opt %s | filecheck %s
// RUN: relax-opt %s %roundtrip | filecheck %s
// RUN: relax-opt %s %generic-roundtrip | filecheck %s
// RUN: relax-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Every expression and binding form of the grammar.

// CHECK-LABEL: relax.function @values
relax.function @values(%x: !relax.tensor<[n, 4], f32>) -> !relax.tuple<tensor<[n, 4], f32>, shape<[n, 5]>> {
  // CHECK-NEXT: %c = relax.constant dense<[2, 2], i32, [1, 2, 3, 4]> : !relax.tensor<[2, 2], i32>
  // GENERIC: "relax.constant"() <{value = #relax.dense<[2, 2], i32, [1, 2, 3, 4]>}> : () -> !relax.tensor<[2, 2], i32>
  %c = relax.constant dense<[2, 2], i32, [1, 2, 3, 4]> : !relax.tensor<[2, 2], i32>
  // CHECK-NEXT: %scalar = relax.constant dense<[], f32, 0.5> : !relax.tensor<[], f32>
  %scalar = relax.constant dense<[], f32, 0.5> : !relax.tensor<[], f32>
  // CHECK-NEXT: %splat = relax.constant dense<[3, 2], bool, true> : !relax.tensor<[3, 2], bool>
  %splat = relax.constant dense<[3, 2], bool, true> : !relax.tensor<[3, 2], bool>
  // CHECK-NEXT: %big = relax.constant dense<[17], i8, "0x000102030405060708090A0B0C0D0E0F10"> : !relax.tensor<[17], i8>
  %big = relax.constant dense<[17], i8, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]> : !relax.tensor<[17], i8>
  // CHECK-NEXT: %weak = relax.constant dense<[2], f16, [1.0, -2.5]> : !relax.tensor<f16>
  %weak = relax.constant dense<[2], f16, [1.0, -2.5]> : !relax.tensor<f16>
  // CHECK-NEXT: %s = relax.shape [n, n + 1] : !relax.shape<[n, n + 1]>
  // GENERIC: "relax.shape"() <{dims = #relax.dims<[n, n + 1]>}> : () -> !relax.shape<[n, n + 1]>
  %s = relax.shape [n, n + 1] : !relax.shape<[n, n + 1]>
  // CHECK-NEXT: %s2 = relax.shape [n, 5] : !relax.shape<[n, 5]>
  %s2 = relax.shape [n, 5] : !relax.shape<[n, 5]>
  // CHECK-NEXT: %p = relax.prim_value n * 2 : !relax.prim<i64, n * 2>
  // GENERIC: "relax.prim_value"() <{value = #relax.expr<n * 2>}> : () -> !relax.prim<i64, n * 2>
  %p = relax.prim_value n * 2 : !relax.prim<i64, n * 2>
  // CHECK-NEXT: %pf = relax.prim_value 1.5 : !relax.prim<f32, 1.5>
  %pf = relax.prim_value 1.5 : !relax.prim<f32, 1.5>
  // CHECK-NEXT: %pb = relax.prim_value true : !relax.prim<bool>
  %pb = relax.prim_value true : !relax.prim<bool>
  // CHECK-NEXT: %str = relax.str "hello \22world\22" : !relax.object
  %str = relax.str "hello \"world\"" : !relax.object
  // CHECK-NEXT: %dt = relax.dtype f32x4 : !relax.object
  // GENERIC: "relax.dtype"() <{value = #relax.dtype<f32x4>}> : () -> !relax.object
  %dt = relax.dtype f32x4 : !relax.object
  // CHECK-NEXT: %t = relax.tuple(%x, %s2) : !relax.tuple<tensor<[n, 4], f32>, shape<[n, 5]>>
  %t = relax.tuple(%x, %s2) : !relax.tuple<tensor<[n, 4], f32>, shape<[n, 5]>>
  // CHECK-NEXT: %empty = relax.tuple() : !relax.tuple<>
  %empty = relax.tuple() : !relax.tuple<>
  // CHECK-NEXT: %first = relax.tuple_get_item %t[0] : !relax.tensor<[n, 4], f32>
  // GENERIC: "relax.tuple_get_item"(%{{.*}}) <{index = #builtin.int<0>}>
  %first = relax.tuple_get_item %t[0] : !relax.tensor<[n, 4], f32>
  // CHECK-NEXT: %second = relax.tuple_get_item %t[1] : !relax.shape<ndim = 2>
  %second = relax.tuple_get_item %t[1] : !relax.shape<ndim = 2>
  // CHECK-NEXT: relax.return %t
  relax.return %t
}

// CHECK-LABEL: relax.function @bindings
relax.function @bindings(%x: !relax.object, %c: !relax.tensor<[], bool>) -> !relax.tensor<ndim = 2, f32> {
  // CHECK-NEXT: %m = relax.match_cast %x : !relax.tensor<[a, b], f32>
  // GENERIC: "relax.match_cast"(%{{.*}}) : (!relax.object) -> !relax.tensor<[a, b], f32>
  %m = relax.match_cast %x : !relax.tensor<[a, b], f32>
  // CHECK-NEXT: %shape = relax.shape [a * b] : !relax.shape<[a * b]>
  %shape = relax.shape [a * b] : !relax.shape<[a * b]>
  // CHECK-NEXT: %d0, %d1 = relax.dataflow {
  // CHECK-NEXT:   %lv = relax.add %m, %m : !relax.tensor<[a, b], f32>
  // CHECK-NEXT:   %lv2 = relax.add %lv, %m : !relax.tensor<[a, b], f32>
  // CHECK-NEXT:   relax.output %lv, %lv2
  // CHECK-NEXT: }
  // GENERIC: "relax.output"(%{{.*}}, %{{.*}}) : (!relax.tensor<[a, b], f32>, !relax.tensor<[a, b], f32>) -> ()
  // GENERIC-NEXT: }) : () -> (!relax.tensor<[a, b], f32>, !relax.tensor<[a, b], f32>)
  %d0, %d1 = relax.dataflow {
    %lv = relax.add %m, %m : !relax.tensor<[a, b], f32>
    %lv2 = relax.add %lv, %m : !relax.tensor<[a, b], f32>
    relax.output %lv, %lv2
  }
  // CHECK-NEXT: %r = relax.if %c : !relax.tensor<ndim = 2, f32> {
  // CHECK-NEXT:   %k = relax.match_cast %d0 : !relax.tensor<[a, k], f32>
  // CHECK-NEXT:   relax.yield %k
  // CHECK-NEXT: } else {
  // CHECK-NEXT:   relax.yield %d1
  // CHECK-NEXT: }
  %r = relax.if %c : !relax.tensor<ndim = 2, f32> {
    %k = relax.match_cast %d0 : !relax.tensor<[a, k], f32>
    relax.yield %k
  } else {
    relax.yield %d1
  }
  relax.return %r
}

// CHECK-LABEL: relax.function private impure @closures
relax.function private impure @closures(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  // CHECK-NEXT: %add = relax.lambda (%y: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  // CHECK-NEXT:   %z = relax.add %x, %y : !relax.tensor<[n], f32>
  // CHECK-NEXT:   relax.return %z
  // CHECK-NEXT: }
  // GENERIC: }) : () -> !relax.func<(tensor<[n], f32>) -> tensor<[n], f32>>
  %add = relax.lambda (%y: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
    %z = relax.add %x, %y : !relax.tensor<[n], f32>
    relax.return %z
  }
  // CHECK-NEXT: %loop = relax.lambda recursive(%self) impure (%v: !relax.tensor<[m], f32>) -> !relax.tensor<[m], f32> {
  // CHECK-NEXT:   %again = relax.invoke %self(%v) : !relax.tensor<[m], f32>
  // CHECK-NEXT:   relax.return %again
  // CHECK-NEXT: }
  // GENERIC: "relax.lambda"() <{ret_type = !relax.tensor<[m], f32>, purity = false, recursive}> ({
  // GENERIC-NEXT: ^{{.*}}(%self: !relax.func<(tensor<[m], f32>) -> tensor<[m], f32>, impure>, %v: !relax.tensor<[m], f32>):
  %loop = relax.lambda recursive(%self) impure (%v: !relax.tensor<[m], f32>) -> !relax.tensor<[m], f32> {
    %again = relax.invoke %self(%v) : !relax.tensor<[m], f32>
    relax.return %again
  }
  // CHECK-NEXT: %inferred = relax.lambda (%u: !relax.object) {
  %inferred = relax.lambda (%u: !relax.object) {
    %w = relax.match_cast %u : !relax.tensor<[w], f32>
    relax.return %w
  }
  // CHECK: %called = relax.invoke %add(%x) : !relax.tensor<[n], f32>
  %called = relax.invoke %add(%x) : !relax.tensor<[n], f32>
  // CHECK-NEXT: %looped = relax.invoke %loop(%x) : !relax.tensor<[n], f32>
  %looped = relax.invoke %loop(%x) : !relax.tensor<[n], f32>
  // CHECK-NEXT: %opaque = relax.invoke %inferred(%x) : !relax.tensor<ndim = 1, f32>
  %opaque = relax.invoke %inferred(%x) : !relax.tensor<ndim = 1, f32>
  relax.return %called
}

// CHECK-LABEL: relax.function impure @calls
relax.function impure @calls(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  // CHECK-NEXT: %g = relax.call @closures(%x) : !relax.tensor<[n], f32>
  // GENERIC: "relax.call"(%{{.*}}) <{callee = @closures}>
  %g = relax.call @closures(%x) : !relax.tensor<[n], f32>
  // CHECK-NEXT: %ref = relax.global_var @closures : !relax.func<(tensor<[n], f32>) -> tensor<[n], f32>, impure>
  %ref = relax.global_var @closures : !relax.func<(tensor<[n], f32>) -> tensor<[n], f32>, impure>
  // CHECK-NEXT: %via = relax.invoke %ref(%g) : !relax.tensor<[n], f32>
  %via = relax.invoke %ref(%g) : !relax.tensor<[n], f32>
  // CHECK-NEXT: %ext = relax.extern_func "my.packed" : !relax.func<derive "default_derive", impure>
  %ext = relax.extern_func "my.packed" : !relax.func<derive "default_derive", impure>
  // CHECK-NEXT: %ext_call = relax.invoke %ext(%x) : !relax.tensor<[n], f32>
  %ext_call = relax.invoke %ext(%x) : !relax.tensor<[n], f32>
  // CHECK-NEXT: %typed = relax.extern_func "my.typed" : !relax.func<(tensor<[k], f32>) -> tensor<[k], f32>>
  %typed = relax.extern_func "my.typed" : !relax.func<(tensor<[k], f32>) -> tensor<[k], f32>>
  // CHECK-NEXT: %op = relax.op_ref "relax.add" : !relax.object
  %op = relax.op_ref "relax.add" : !relax.object
  // CHECK-NEXT: %sum = relax.invoke %op(%x, %x) : !relax.tensor<[n], f32>
  %sum = relax.invoke %op(%x, %x) : !relax.tensor<[n], f32>
  // CHECK-NEXT: %packed = relax.call_packed "my.print"(%x, %sum) : !relax.object
  // GENERIC: "relax.call_packed"(%{{.*}}, %{{.*}}) <{callee = "my.print"}>
  %packed = relax.call_packed "my.print"(%x, %sum) : !relax.object
  // CHECK-NEXT: %pure = relax.call_pure_packed "my.exp"(%x) : !relax.tensor<[n], f32>
  %pure = relax.call_pure_packed "my.exp"(%x) : !relax.tensor<[n], f32>
  // CHECK-NEXT: %dps = relax.call_dps_packed "my.copy"(%x) : !relax.tuple<tensor<[n], f32>, tensor<[2], i64>>
  %dps = relax.call_dps_packed "my.copy"(%x) : !relax.tuple<tensor<[n], f32>, tensor<[2], i64>>
  // CHECK-NEXT: %tir = relax.call_tir @double(%x) : !relax.tensor<[n], f32>
  // GENERIC: "relax.call_tir"(%{{.*}}) <{callee = @double, operandSegmentSizes = array<i32: 1, 0>}>
  %tir = relax.call_tir @double(%x) : !relax.tensor<[n], f32>
  // CHECK-NEXT: %vars = relax.shape [n] : !relax.shape<[n]>
  %vars = relax.shape [n] : !relax.shape<[n]>
  // CHECK-NEXT: %tir2 = relax.call_tir @fill(%x) tir_vars %vars : !relax.tuple<tensor<[n], f32>, tensor<[n, 2], f32>>
  %tir2 = relax.call_tir @fill(%x) tir_vars %vars : !relax.tuple<tensor<[n], f32>, tensor<[n, 2], f32>>
  relax.return %tir
}

// CHECK-LABEL: func.func @double
func.func @double(%a: tensor<?xf32>, %out: tensor<?xf32>) -> tensor<?xf32> {
  func.return %a : tensor<?xf32>
}
func.func @fill(%a: tensor<?xf32>, %n: index, %o1: tensor<?xf32>, %o2: tensor<?x2xf32>) -> (tensor<?xf32>, tensor<?x2xf32>) {
  func.return %o1, %o2 : tensor<?xf32>, tensor<?x2xf32>
}
