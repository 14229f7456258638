// RUN: relax-opt %s --split-input-file | filecheck %s

// Filled tensors: the shape comes from a shape value or from another tensor.

// CHECK-LABEL: @filled
relax.function @filled(%s: !relax.shape<[n, 3]>, %sr: !relax.shape<ndim = 2>, %su: !relax.shape, %c: !relax.tensor<[], f32>, %cv: !relax.tensor<[]>) -> !relax.object {
  // CHECK: relax.zeros %s {dtype = f32} : !relax.tensor<[n, 3], f32>
  %0 = relax.zeros %s {dtype = f32}
  // CHECK: relax.ones %sr {dtype = i8} : !relax.tensor<ndim = 2, i8>
  %1 = relax.ones %sr {dtype = i8}
  // CHECK: relax.zeros %su {dtype = bool} : !relax.tensor<bool>
  %2 = relax.zeros %su {dtype = bool}
  %lit = relax.shape [2, n * 2]
  // CHECK: relax.ones %lit {dtype = f16} : !relax.tensor<[2, n * 2], f16>
  %3 = relax.ones %lit {dtype = f16}
  // relax.full takes the fill value's data type unless dtype is given.
  // CHECK: relax.full %s, %c : !relax.tensor<[n, 3], f32>
  %4 = relax.full %s, %c
  // CHECK: relax.full %s, %c {dtype = i32} : !relax.tensor<[n, 3], i32>
  %5 = relax.full %s, %c {dtype = i32}
  // CHECK: relax.full %sr, %cv : !relax.tensor<ndim = 2>
  %6 = relax.full %sr, %cv
  // CHECK: relax.full %su, %c {dtype = i64} : !relax.tensor<i64>
  %7 = relax.full %su, %c {dtype = i64}
  relax.return %0
}

// -----

// CHECK-LABEL: @like
relax.function @like(%x: !relax.tensor<[n, 4], f32>, %xr: !relax.tensor<ndim = 3, i32>, %xu: !relax.tensor, %c: !relax.tensor<[], f16>) -> !relax.object {
  // CHECK: relax.zeros_like %x : !relax.tensor<[n, 4], f32>
  %0 = relax.zeros_like %x
  // CHECK: relax.ones_like %x {dtype = i8} : !relax.tensor<[n, 4], i8>
  %1 = relax.ones_like %x {dtype = i8}
  // CHECK: relax.zeros_like %xr {dtype = f16} : !relax.tensor<ndim = 3, f16>
  %2 = relax.zeros_like %xr {dtype = f16}
  // CHECK: relax.ones_like %xu : !relax.tensor
  %3 = relax.ones_like %xu
  // relax.full_like takes the data type of x (not of the fill value) unless dtype is given.
  // CHECK: relax.full_like %x, %c : !relax.tensor<[n, 4], f32>
  %4 = relax.full_like %x, %c
  // CHECK: relax.full_like %xr, %c {dtype = bool} : !relax.tensor<ndim = 3, bool>
  %5 = relax.full_like %xr, %c {dtype = bool}
  // CHECK: relax.full_like %xu, %c {dtype = f32} : !relax.tensor<f32>
  %6 = relax.full_like %xu, %c {dtype = f32}
  relax.return %0
}

// -----

// CHECK-LABEL: @eye
relax.function @eye(%x: !relax.tensor<[n, m], i32>, %xr: !relax.tensor<ndim = 2, f32>, %xu: !relax.tensor<f16>, %k: !relax.prim<i64>, %pn: !relax.prim<i64, n>) -> !relax.object {
  %c3 = relax.prim_value 3
  %c0 = relax.prim_value 0
  // CHECK: relax.eye %c3, %c3, %c0 : !relax.tensor<[3, 3], f32>
  %0 = relax.eye %c3, %c3, %c0
  // The diagonal may be unknown; the dimensions must have known values.
  // CHECK: relax.eye %pn, %c3, %k {dtype = i32} : !relax.tensor<[n, 3], i32>
  %1 = relax.eye %pn, %c3, %k {dtype = i32}
  // CHECK: relax.eye_like %x, %c0 : !relax.tensor<[n, m], i32>
  %2 = relax.eye_like %x, %c0
  // CHECK: relax.eye_like %x, %k {dtype = f16} : !relax.tensor<[n, m], f16>
  %3 = relax.eye_like %x, %k {dtype = f16}
  // CHECK: relax.eye_like %xr, %c0 : !relax.tensor<ndim = 2, f32>
  %4 = relax.eye_like %xr, %c0
  // CHECK: relax.eye_like %xu, %c0 {dtype = bool} : !relax.tensor<bool>
  %5 = relax.eye_like %xu, %c0 {dtype = bool}
  relax.return %0
}

// -----

// relax.arange: ceil((end - start) / step) elements, i64 for signed integer
// bounds and f32 otherwise unless dtype is given.

// CHECK-LABEL: @arange
relax.function @arange(%pn: !relax.prim<i64, n>, %pm: !relax.prim<i64, m>) -> !relax.object {
  %c0 = relax.prim_value 0
  %c1 = relax.prim_value 1
  %c3 = relax.prim_value 3
  %c5 = relax.prim_value 5
  %c10 = relax.prim_value 10
  %m1 = relax.prim_value -1
  %m2 = relax.prim_value -2
  %f0 = relax.prim_value 0.5
  %f1 = relax.prim_value 3.0
  %f2 = relax.prim_value 0.7
  %fm = relax.prim_value -0.3
  %u0 = relax.prim_value 0 : !relax.prim<ui32, 0>
  %u8 = relax.prim_value 8 : !relax.prim<ui32, 8>
  %u3 = relax.prim_value 3 : !relax.prim<ui32, 3>
  %i0 = relax.prim_value 0 : !relax.prim<i32, 0>
  %i8 = relax.prim_value 8 : !relax.prim<i32, 8>
  %n4 = relax.prim_value n + 4
  %n4x = relax.prim_value 4 * n
  %c4 = relax.prim_value 4
  // CHECK: relax.arange %c0, %c10, %c3 : !relax.tensor<[4], i64>
  %0 = relax.arange %c0, %c10, %c3
  // CHECK: relax.arange %c5, %c0, %m1 : !relax.tensor<[5], i64>
  %1 = relax.arange %c5, %c0, %m1
  // CHECK: relax.arange %c10, %c1, %m2 {dtype = f32} : !relax.tensor<[5], f32>
  %2 = relax.arange %c10, %c1, %m2 {dtype = f32}
  // CHECK: relax.arange %c5, %c5, %c1 : !relax.tensor<[0], i64>
  %3 = relax.arange %c5, %c5, %c1
  // CHECK: relax.arange %i0, %i8, %c3 : !relax.tensor<[3], i64>
  %4 = relax.arange %i0, %i8, %c3
  // Symbolic bounds and steps.
  // CHECK: relax.arange %c0, %pn, %c1 : !relax.tensor<[n], i64>
  %5 = relax.arange %c0, %pn, %c1
  // CHECK: relax.arange %pm, %pn, %c3 {dtype = i32} : !relax.tensor<[(2 * m + n + 2) floordiv 3 - m], i32>
  %6 = relax.arange %pm, %pn, %c3 {dtype = i32}
  // CHECK: relax.arange %pn, %n4, %c1 : !relax.tensor<[4], i64>
  %7 = relax.arange %pn, %n4, %c1
  // CHECK: relax.arange %c0, %n4x, %c4 : !relax.tensor<[n], i64>
  %8 = relax.arange %c0, %n4x, %c4
  // CHECK: relax.arange %pn, %c0, %m1 : !relax.tensor<[n], i64>
  %9 = relax.arange %pn, %c0, %m1
  // CHECK: relax.arange %c0, %c10, %pn : !relax.tensor<[-1 * (-10 floordiv n)], i64>
  %10 = relax.arange %c0, %c10, %pn
  // Floats: computed in single precision; symbolic float ranges keep the rank only.
  // CHECK: relax.arange %f0, %f1, %f2 : !relax.tensor<[4], f32>
  %11 = relax.arange %f0, %f1, %f2
  // CHECK: relax.arange %f1, %c0, %fm {dtype = f16} : !relax.tensor<[10], f16>
  %12 = relax.arange %f1, %c0, %fm {dtype = f16}
  // CHECK: relax.arange %c0, %pn, %f0 : !relax.tensor<ndim = 1, f32>
  %13 = relax.arange %c0, %pn, %f0
  // CHECK: relax.arange %pn, %n4, %f2 : !relax.tensor<[6], f32>
  %15 = relax.arange %pn, %n4, %f2
  // Unsigned bounds take the float path (and default to f32).
  // CHECK: relax.arange %u0, %u8, %u3 : !relax.tensor<[3], f32>
  %14 = relax.arange %u0, %u8, %u3
  relax.return %0
}

// -----

// CHECK-LABEL: @triangular
relax.function @triangular(%x: !relax.tensor<[b, n, m], f32>, %xr: !relax.tensor<ndim = 2, i32>, %xu: !relax.tensor, %k: !relax.prim<i64>, %f: !relax.prim<f32>) -> !relax.object {
  %c1 = relax.prim_value 1
  // CHECK: relax.tril %x, %c1 : !relax.tensor<[b, n, m], f32>
  %0 = relax.tril %x, %c1
  // CHECK: relax.triu %x, %k : !relax.tensor<[b, n, m], f32>
  %1 = relax.triu %x, %k
  // CHECK: relax.tril %xr, %f : !relax.tensor<ndim = 2, i32>
  %2 = relax.tril %xr, %f
  // CHECK: relax.triu %xu, %c1 : !relax.tensor
  %3 = relax.triu %xu, %c1
  relax.return %0
}
