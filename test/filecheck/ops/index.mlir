// RUN: relax-opt %s --split-input-file | filecheck %s

// relax.take: x.shape[:axis] + indices.shape + x.shape[axis + 1:].

// CHECK-LABEL: @take
relax.function @take(%x: !relax.tensor<[n, 4, 5], f32>, %i: !relax.tensor<[2, m], i32>, %v: !relax.tensor<[n], f16>, %u: !relax.tensor<[3], ui8>, %w: !relax.tensor<[3]>, %p: !relax.prim<i64>, %xr: !relax.tensor<ndim = 3, f32>, %xu: !relax.tensor<f32>, %iu: !relax.tensor<i64>, %xv: !relax.tensor<[n, 4]>) -> !relax.object {
  // CHECK: relax.take %x, %i {axis = 1} : !relax.tensor<[n, 2, m, 5], f32>
  %0 = relax.take %x, %i {axis = 1}
  // CHECK: relax.take %x, %i {axis = -1, mode = "clip"} : !relax.tensor<[n, 4, 2, m], f32>
  %1 = relax.take %x, %i {axis = -1, mode = "clip"}
  // Without an axis the data is 1-D.
  // CHECK: relax.take %v, %i {mode = "wrap"} : !relax.tensor<[2, m], f16>
  %2 = relax.take %v, %i {mode = "wrap"}
  // Unsigned and void indices are accepted.
  // CHECK: relax.take %x, %u {axis = 0, mode = "nan"} : !relax.tensor<[3, 4, 5], f32>
  %3 = relax.take %x, %u {axis = 0, mode = "nan"}
  // CHECK: relax.take %x, %w {axis = 2, mode = "fast"} : !relax.tensor<[n, 4, 3], f32>
  %4 = relax.take %x, %w {axis = 2, mode = "fast"}
  // A prim value index is a 0-d tensor: the axis disappears.
  // CHECK: relax.take %x, %p {axis = 1} : !relax.tensor<[n, 5], f32>
  %5 = relax.take %x, %p {axis = 1}
  // CHECK: relax.take %v, %p : !relax.tensor<[], f16>
  %6 = relax.take %v, %p
  // Unknown shapes keep the rank, unknown ranks keep nothing but the data type.
  // CHECK: relax.take %xr, %i {axis = 1} : !relax.tensor<ndim = 4, f32>
  %7 = relax.take %xr, %i {axis = 1}
  // CHECK: relax.take %xu, %i {axis = 1} : !relax.tensor<f32>
  %8 = relax.take %xu, %i {axis = 1}
  // CHECK: relax.take %x, %iu {axis = 0} : !relax.tensor<f32>
  %9 = relax.take %x, %iu {axis = 0}
  // CHECK: relax.take %xv, %i {axis = 0} : !relax.tensor<[2, m, 4]>
  %10 = relax.take %xv, %i {axis = 0}
  relax.return %0
}

// -----

// relax.strided_slice: ceil((end - begin) / stride) per sliced axis, with the
// bounds resolved like Python slicing unless assume_inbound.

// CHECK-LABEL: @strided_slice
relax.function @strided_slice(%x: !relax.tensor<[n, 8, 6], f32>) -> !relax.object {
  %c0 = relax.prim_value 0
  %c1 = relax.prim_value 1
  %c2 = relax.prim_value 2
  %c7 = relax.prim_value 7
  %m1 = relax.prim_value -1
  %m2 = relax.prim_value -2
  %m3 = relax.prim_value -3
  %m9 = relax.prim_value -9
  %big = relax.prim_value 100
  %pn = relax.prim_value n
  %ax1 = relax.tuple(%c1)
  %ax0 = relax.tuple(%c0)
  %axm1 = relax.tuple(%m1)
  %ax01 = relax.tuple(%c0, %c1)
  %b1 = relax.tuple(%c1)
  %b7 = relax.tuple(%c7)
  %bm3 = relax.tuple(%m3)
  %bm1 = relax.tuple(%m1)
  %em9 = relax.tuple(%m9)
  %e7 = relax.tuple(%c7)
  %e1 = relax.tuple(%c1)
  %ebig = relax.tuple(%big)
  %en = relax.tuple(%pn)
  %s2 = relax.tuple(%c2)
  %sm2 = relax.tuple(%m2)
  %sm1 = relax.tuple(%m1)
  %b00 = relax.tuple(%c0, %c1)
  %e00 = relax.tuple(%c2, %m1)
  // CHECK: relax.strided_slice %x, %ax1, %b1, %e7 : !relax.tensor<[n, 6, 6], f32>
  %0 = relax.strided_slice %x, %ax1, %b1, %e7
  // CHECK: relax.strided_slice %x, %ax1, %b1, %e7, %s2 : !relax.tensor<[n, 3, 6], f32>
  %1 = relax.strided_slice %x, %ax1, %b1, %e7, %s2
  // A negative stride walks backwards.
  // CHECK: relax.strided_slice %x, %ax1, %b7, %e1, %sm2 : !relax.tensor<[n, 3, 6], f32>
  %2 = relax.strided_slice %x, %ax1, %b7, %e1, %sm2
  // Negative bounds count from the end; out-of-range ones are clamped.
  // CHECK: relax.strided_slice %x, %axm1, %bm3, %ebig : !relax.tensor<[n, 8, 3], f32>
  %3 = relax.strided_slice %x, %axm1, %bm3, %ebig
  // CHECK: relax.strided_slice %x, %ax1, %bm1, %em9, %sm1 : !relax.tensor<[n, 8, 6], f32>
  %4 = relax.strided_slice %x, %ax1, %bm1, %em9, %sm1
  // CHECK: relax.strided_slice %x, %ax01, %b00, %e00 : !relax.tensor<[min(n, 2), 6, 6], f32>
  %5 = relax.strided_slice %x, %ax01, %b00, %e00
  // Symbolic extents and bounds.
  // CHECK: relax.strided_slice %x, %ax0, %b1, %en : !relax.tensor<[n - min(n, 1), 8, 6], f32>
  %6 = relax.strided_slice %x, %ax0, %b1, %en
  // CHECK: relax.strided_slice %x, %ax0, %ax0, %en, %s2 : !relax.tensor<[(n + 1) floordiv 2, 8, 6], f32>
  %7 = relax.strided_slice %x, %ax0, %ax0, %en, %s2
  // assume_inbound takes the bounds as they are.
  // CHECK: relax.strided_slice %x, %ax0, %b1, %en {assume_inbound = true} : !relax.tensor<[n - 1, 8, 6], f32>
  %8 = relax.strided_slice %x, %ax0, %b1, %en {assume_inbound = true}
  // CHECK: relax.strided_slice %x, %ax1, %b7, %e1, %sm2 {assume_inbound = true} : !relax.tensor<[n, 3, 6], f32>
  %9 = relax.strided_slice %x, %ax1, %b7, %e1, %sm2 {assume_inbound = true}
  relax.return %0
}

// -----

// CHECK-LABEL: @strided_slice_unknown
relax.function @strided_slice_unknown(%x: !relax.tensor<[n, 8], f32>, %xr: !relax.tensor<ndim = 2, f32>, %xu: !relax.tensor<f32>, %xv: !relax.tensor<[n, 8]>, %p: !relax.prim<i64>, %k: !relax.prim<i64, k>, %t: !relax.tuple<prim<i64>>, %o: !relax.object) -> !relax.object {
  %c1 = relax.prim_value 1
  %c4 = relax.prim_value 4
  %ax = relax.tuple(%c1)
  %end = relax.tuple(%c4)
  %unknown = relax.tuple(%p)
  %sym = relax.tuple(%k)
  // CHECK: relax.strided_slice %xr, %ax, %ax, %end : !relax.tensor<ndim = 2, f32>
  %0 = relax.strided_slice %xr, %ax, %ax, %end
  // CHECK: relax.strided_slice %xu, %ax, %ax, %end : !relax.tensor<f32>
  %1 = relax.strided_slice %xu, %ax, %ax, %end
  // CHECK: relax.strided_slice %xv, %ax, %ax, %end : !relax.tensor<[n, 3]>
  %2 = relax.strided_slice %xv, %ax, %ax, %end
  // A bound of unknown value, a tuple of unknown values, an object: rank only.
  // CHECK: relax.strided_slice %x, %ax, %unknown, %end : !relax.tensor<ndim = 2, f32>
  %3 = relax.strided_slice %x, %ax, %unknown, %end
  // CHECK: relax.strided_slice %x, %ax, %t, %end : !relax.tensor<ndim = 2, f32>
  %4 = relax.strided_slice %x, %ax, %t, %end
  // CHECK: relax.strided_slice %x, %o, %ax, %end : !relax.tensor<ndim = 2, f32>
  %5 = relax.strided_slice %x, %o, %ax, %end
  // CHECK: relax.strided_slice %x, %ax, %ax, %end, %unknown : !relax.tensor<ndim = 2, f32>
  %6 = relax.strided_slice %x, %ax, %ax, %end, %unknown
  // A symbolic begin or stride.
  // CHECK: relax.strided_slice %x, %ax, %sym, %end {assume_inbound = true} : !relax.tensor<[n, 4 - k], f32>
  %7 = relax.strided_slice %x, %ax, %sym, %end {assume_inbound = true}
  // CHECK: relax.strided_slice %x, %ax, %sym, %end : !relax.tensor<[n, 4 - min(8, max(0, select(lt(k, 0), k + 8, k)))], f32>
  %8 = relax.strided_slice %x, %ax, %sym, %end
  // CHECK: relax.strided_slice %x, %ax, %ax, %end, %sym {assume_inbound = true} : !relax.tensor<[n, select(lt(k, 0), (-1 * k - 4) floordiv (-1 * k), (k + 2) floordiv k)], f32>
  %9 = relax.strided_slice %x, %ax, %ax, %end, %sym {assume_inbound = true}
  // No axes: the tensor is unchanged.
  %none = relax.tuple()
  // CHECK: relax.strided_slice %x, %none, %none, %none : !relax.tensor<[n, 8], f32>
  %10 = relax.strided_slice %x, %none, %none, %none
  relax.return %0
}

// -----

// relax.dynamic_strided_slice: bounds known at run time only, the rank stays.

// CHECK-LABEL: @dynamic_strided_slice
relax.function @dynamic_strided_slice(%x: !relax.tensor<[n, 8], f32>, %xu: !relax.tensor<f16>, %xv: !relax.tensor<[4, 4]>, %b: !relax.tensor<[2], i64>, %bv: !relax.tensor<[2]>, %o: !relax.object) -> !relax.object {
  // CHECK: relax.dynamic_strided_slice %x, %b, %b, %b : !relax.tensor<ndim = 2, f32>
  %0 = relax.dynamic_strided_slice %x, %b, %b, %b
  // CHECK: relax.dynamic_strided_slice %xv, %bv, %b, %bv : !relax.tensor<ndim = 2>
  %1 = relax.dynamic_strided_slice %xv, %bv, %b, %bv
  // With an unknown rank nothing is checked.
  // CHECK: relax.dynamic_strided_slice %xu, %o, %o, %o : !relax.tensor<f16>
  %2 = relax.dynamic_strided_slice %xu, %o, %o, %o
  relax.return %0
}
