// RUN: relax-opt %s -p relax-remove-unused-outputs --split-input-file | filecheck %s
// RUN: relax-opt %s -p relax-remove-unused-outputs,relax-remove-unused-outputs --split-input-file | filecheck %s

// One field read: the callee returns it alone, the caller uses the call's
// value directly, and what computed the other field goes (TVM's test_simple).

// CHECK-LABEL: @main
// CHECK-NEXT:    %args = relax.call @func() : !relax.tensor<[16, 16], i32>
// CHECK-NEXT:    relax.return %args
// CHECK:       relax.function private @func() -> !relax.tensor {
// CHECK-NEXT:    %s = relax.shape [16, 16]
// CHECK-NEXT:    %A = relax.zeros %s
// CHECK-NEXT:    relax.return %A
relax.function @main() -> !relax.tensor<[16, 16], i32> {
  %args = relax.call @func() : !relax.tuple<tensor<[16, 16], i32>, tensor<[16, 16], i32>>
  %a = relax.tuple_get_item %args[0]
  relax.return %a
}
relax.function private @func() -> !relax.tuple<tensor, tensor> {
  %s = relax.shape [16, 16]
  %A = relax.zeros %s {dtype = i32}
  %B = relax.ones %s {dtype = i32}
  %t = relax.tuple(%A, %B)
  relax.return %t
}

// -----

// Several fields read, by several callers: the tuple shrinks and the indices
// are renumbered (TVM's test_use_multiple_outputs, test_multiple_call_sites);
// through dataflow outputs and with symbolic shapes too.

// CHECK-LABEL: @main_a
// CHECK-NEXT:    %r = relax.dataflow {
// CHECK-NEXT:      %args = relax.call @func(%x) : !relax.tuple<tensor<[n], f32>, tensor<[n], f32>>
// CHECK-NEXT:      %a = relax.tuple_get_item %args[0]
// CHECK-LABEL: @main_b
// CHECK-NEXT:    %args = relax.dataflow {
// CHECK-NEXT:      %args_1 = relax.call @func(%x) : !relax.tuple<tensor<[n], f32>, tensor<[n], f32>>
// CHECK-NEXT:      relax.output %args_1
// CHECK-NEXT:    }
// CHECK-NEXT:    %c = relax.tuple_get_item %args[1] : !relax.tensor<[n], f32>
// CHECK-LABEL: relax.function private @func
// CHECK-SAME:    -> !relax.tuple<tensor<[m], f32>, tensor<[m], f32>>
// CHECK-NEXT:    %t = relax.dataflow {
// CHECK-NEXT:      %A = relax.exp %x
// CHECK-NEXT:      %C = relax.cos %x
// CHECK-NEXT:      %t_1 = relax.tuple(%A, %C)
relax.function @main_a(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  %r = relax.dataflow {
    %args = relax.call @func(%x) : !relax.tuple<tensor<[n], f32>, tensor<[n], f32>, tensor<[n], f32>>
    %a = relax.tuple_get_item %args[0]
    relax.output %a
  }
  relax.return %r
}
relax.function @main_b(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  %args = relax.dataflow {
    %args = relax.call @func(%x) : !relax.tuple<tensor<[n], f32>, tensor<[n], f32>, tensor<[n], f32>>
    relax.output %args
  }
  %c = relax.tuple_get_item %args[2]
  relax.return %c
}
relax.function private @func(%x: !relax.tensor<[m], f32>) -> !relax.tuple<tensor<[m], f32>, tensor<[m], f32>, tensor<[m], f32>> {
  %t = relax.dataflow {
    %A = relax.exp %x
    %B = relax.sin %x
    %C = relax.cos %x
    %t = relax.tuple(%A, %B, %C)
    relax.output %t
  }
  relax.return %t
}

// -----

// A tuple used whole (returned, here) keeps every field (TVM's test_return_tuple);
// so does a public function, and one used as a value.

// CHECK-LABEL: @whole
// CHECK:       relax.function private @g(%B: !relax.tensor<[16, 16], i32>) -> !relax.tuple<tensor<[16, 16], i32>, tensor<[16, 16], i32>>
// CHECK-NEXT:    %C = relax.multiply %B, %B
// CHECK-NEXT:    %D = relax.add %B, %B
// CHECK:       relax.function @public(%B: !relax.tensor<[16, 16], i32>) -> !relax.tuple<tensor<[16, 16], i32>, tensor<[16, 16], i32>>
// CHECK:       relax.function private @by_value(%B: !relax.tensor<[16, 16], i32>) -> !relax.tuple<tensor<[16, 16], i32>, tensor<[16, 16], i32>>
relax.function @whole(%A: !relax.tensor<[16, 16], i32>) -> !relax.tuple<tensor<[16, 16], i32>, tensor<[16, 16], i32>> {
  %B = relax.add %A, %A
  %out = relax.call @g(%B) : !relax.tuple<tensor<[16, 16], i32>, tensor<[16, 16], i32>>
  %p = relax.call @public(%B) : !relax.tuple<tensor<[16, 16], i32>, tensor<[16, 16], i32>>
  %p0 = relax.tuple_get_item %p[0]
  %u = relax.tuple(%out, %p0)
  relax.return %out
}
relax.function @escape(%B: !relax.tensor<[16, 16], i32>) -> !relax.object {
  %v = relax.call @by_value(%B) : !relax.tuple<tensor<[16, 16], i32>, tensor<[16, 16], i32>>
  %v0 = relax.tuple_get_item %v[0]
  %f = relax.global_var @by_value : !relax.func<(tensor<[16, 16], i32>) -> tuple<tensor<[16, 16], i32>, tensor<[16, 16], i32>>>
  %t = relax.tuple(%v0, %f)
  relax.return %t
}
relax.function private @g(%B: !relax.tensor<[16, 16], i32>) -> !relax.tuple<tensor<[16, 16], i32>, tensor<[16, 16], i32>> {
  %C = relax.multiply %B, %B
  %D = relax.add %B, %B
  %t = relax.tuple(%C, %D)
  relax.return %t
}
relax.function @public(%B: !relax.tensor<[16, 16], i32>) -> !relax.tuple<tensor<[16, 16], i32>, tensor<[16, 16], i32>> {
  %C = relax.multiply %B, %B
  %D = relax.add %B, %B
  %t = relax.tuple(%C, %D)
  relax.return %t
}
relax.function private @by_value(%B: !relax.tensor<[16, 16], i32>) -> !relax.tuple<tensor<[16, 16], i32>, tensor<[16, 16], i32>> {
  %C = relax.multiply %B, %B
  %D = relax.add %B, %B
  %t = relax.tuple(%C, %D)
  relax.return %t
}

// -----

// A returned tuple that is not a `relax.tuple` binding is taken apart; a field
// that only fed a removed field of the caller's own (private) result goes too.

// CHECK-LABEL: @top
// CHECK-NEXT:    %r = relax.call @outer(%x) : !relax.tensor<[4], f32>
// CHECK-NEXT:    relax.return %r
// CHECK:       relax.function private @outer(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
// CHECK-NEXT:    %i = relax.call @inner(%x) : !relax.tensor<[4], f32>
// CHECK-NEXT:    relax.return %i
// CHECK:       relax.function private @inner(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
// CHECK-NEXT:    %t = relax.call_pure_packed "pair"(%x)
// CHECK-NEXT:    %{{.*}} = relax.tuple_get_item %t[0]
// CHECK-NEXT:    relax.return
relax.function @top(%x: !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  %r = relax.call @outer(%x) : !relax.tuple<tensor<[4], f32>, tensor<[4], f32>>
  %a = relax.tuple_get_item %r[0]
  relax.return %a
}
relax.function private @outer(%x: !relax.tensor<[4], f32>) -> !relax.tuple<tensor<[4], f32>, tensor<[4], f32>> {
  %i = relax.call @inner(%x) : !relax.tuple<tensor<[4], f32>, tensor<[4], f32>>
  %a = relax.tuple_get_item %i[0]
  %b = relax.tuple_get_item %i[1]
  %t = relax.tuple(%a, %b)
  relax.return %t
}
relax.function private @inner(%x: !relax.tensor<[4], f32>) -> !relax.tuple<tensor<[4], f32>, tensor<[4], f32>> {
  %t = relax.call_pure_packed "pair"(%x) : !relax.tuple<tensor<[4], f32>, tensor<[4], f32>>
  relax.return %t
}
