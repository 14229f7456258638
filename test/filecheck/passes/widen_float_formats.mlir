// RUN: relax-opt %s -p relax-widen-float-formats --split-input-file | filecheck %s

// Operators on bf16/float8 values compute in f32: each operand converted once, the
// result converted back; constants become f32 constants converted.

// CHECK-LABEL: @arithmetic
// CHECK:         %[[C:.*]] = relax.constant dense<[4], f32, [1.5, 2.0, -0.25, 8.0]>
// CHECK-NEXT:    %[[CB:.*]] = relax.astype %[[C]] {dtype = bf16} : !relax.tensor<[4], bf16>
// CHECK-NEXT:    %[[X:.*]] = relax.astype %x {dtype = f32} : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:    %[[CW:.*]] = relax.astype %[[CB]] {dtype = f32} : !relax.tensor<[4], f32>
// CHECK-NEXT:    %[[A:.*]] = relax.add %[[X]], %[[CW]] : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:    %[[AB:.*]] = relax.astype %[[A]] {dtype = bf16} : !relax.tensor<[n, 4], bf16>
// CHECK-NEXT:    %[[AW:.*]] = relax.astype %[[AB]] {dtype = f32}
// CHECK-NEXT:    %[[S:.*]] = relax.multiply %[[AW]], %[[AW]] : !relax.tensor<[n, 4], f32>
// CHECK-NEXT:    %[[SB:.*]] = relax.astype %[[S]] {dtype = bf16}
// CHECK:         relax.astype %{{.*}} {dtype = f8E4M3FN} : !relax.tensor<[n, 4], f8E4M3FN>
relax.function @arithmetic(%x: !relax.tensor<[n, 4], bf16>) -> !relax.tensor<[n, 4], f8E4M3FN> {
  %c = relax.constant dense<[4], bf16, [1.5, 2.0, -0.25, 8.0]>
  %a = relax.add %x, %c
  %s = relax.multiply %a, %a
  %e = relax.exp %s
  %r = relax.astype %e {dtype = f8E4M3FN}
  relax.return %r
}

// -----

// A result that is not of a format (argmax) is the f32 operator's; a format given by an
// attribute (zeros_like's dtype) stays, as do conversions and other element types.

// CHECK-LABEL: @kept
// CHECK:         %[[W:.*]] = relax.astype %x {dtype = f32}
// CHECK-NEXT:    %[[I:.*]] = relax.argmax %[[W]] {axis = 0} : !relax.tensor<[], i64>
// CHECK-NEXT:    %[[Z:.*]] = relax.zeros_like %x {dtype = f8E5M2} : !relax.tensor<[4], f8E5M2>
// CHECK-NEXT:    %[[F:.*]] = relax.astype %x {dtype = f32}
// CHECK-NEXT:    %[[N:.*]] = relax.negative %[[F]] : !relax.tensor<[4], f32>
// CHECK-NOT:     relax.astype %[[N]]
relax.function @kept(%x: !relax.tensor<[4], bf16>) -> !relax.tuple<tensor<[], i64>, tensor<[4], f8E5M2>, tensor<[4], f32>> {
  %i = relax.argmax %x {axis = 0}
  %z = relax.zeros_like %x {dtype = f8E5M2}
  %f = relax.astype %x {dtype = f32}
  %n = relax.negative %f
  %r = relax.tuple(%i, %z, %n)
  relax.return %r
}
