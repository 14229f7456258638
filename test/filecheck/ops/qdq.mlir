// RUN: relax-opt %s --split-input-file | filecheck %s
// RUN: relax-opt %s --split-input-file %generic-roundtrip | filecheck %s

// Quantization: the result keeps the data's shape (static, symbolic or rank
// only) with data type `out_dtype`; the scale and zero point are per tensor
// (no dimensions, or all provably 1) or per axis (as long as data along `axis`).

// CHECK-LABEL: @quantize
relax.function @quantize(%x: !relax.tensor<[n, 4], f32>, %h: !relax.tensor<[2, 3], f16>, %r: !relax.tensor<ndim = 2, f32>, %s: !relax.tensor<[], f32>, %z: !relax.tensor<[], i8>, %sv: !relax.tensor<[4], f32>, %zv: !relax.tensor<[4], ui8>, %sn: !relax.tensor<[n], f16>, %zn: !relax.tensor<[n], i32>, %one: !relax.tensor<[1, 1], f32>, %zf: !relax.tensor<[1], f16>) -> !relax.object {
  // CHECK: relax.quantize %x, %s, %z : !relax.tensor<[n, 4], i8>
  %0 = relax.quantize %x, %s, %z
  // per axis along the last axis (the default) or axis 0
  // CHECK: relax.quantize %x, %sv, %zv {out_dtype = ui8} : !relax.tensor<[n, 4], ui8>
  %1 = relax.quantize %x, %sv, %zv {out_dtype = ui8}
  // CHECK: relax.quantize %x, %sn, %zn {axis = 0, out_dtype = i16} : !relax.tensor<[n, 4], i16>
  %2 = relax.quantize %x, %sn, %zn {axis = 0, out_dtype = i16}
  // CHECK: relax.quantize %x, %sv, %z {axis = -1, out_dtype = ui16} : !relax.tensor<[n, 4], ui16>
  %3 = relax.quantize %x, %sv, %z {axis = -1, out_dtype = ui16}
  // all-ones shapes are per tensor whatever the axis; f16 data and zero points
  // CHECK: relax.quantize %h, %one, %zf {axis = 1} : !relax.tensor<[2, 3], i8>
  %4 = relax.quantize %h, %one, %zf {axis = 1}
  // a rank-only tensor with per-tensor parameters
  // CHECK: relax.quantize %r, %s, %z {axis = 0} : !relax.tensor<ndim = 2, i8>
  %5 = relax.quantize %r, %s, %z {axis = 0}
  // TVM's spellings are accepted
  // CHECK: relax.quantize %x, %s, %z {out_dtype = ui8} : !relax.tensor<[n, 4], ui8>
  %6 = relax.quantize %x, %s, %z {out_dtype = uint8}
  relax.return %0
}

// -----

// CHECK-LABEL: @dequantize
relax.function @dequantize(%q: !relax.tensor<[n, 4], i8>, %u: !relax.tensor<[n, 4], ui16>, %w: !relax.tensor<[2], i32>, %f: !relax.tensor<ndim = 3, f16>, %s: !relax.tensor<[], f32>, %z: !relax.tensor<[], i8>, %sv: !relax.tensor<[4], f16>, %zv: !relax.tensor<[4], ui32>) -> !relax.object {
  // CHECK: relax.dequantize %q, %s, %z : !relax.tensor<[n, 4], f32>
  %0 = relax.dequantize %q, %s, %z
  // CHECK: relax.dequantize %u, %sv, %zv {out_dtype = f16} : !relax.tensor<[n, 4], f16>
  %1 = relax.dequantize %u, %sv, %zv {out_dtype = f16}
  // CHECK: relax.dequantize %w, %s, %z {axis = 0} : !relax.tensor<[2], f32>
  %2 = relax.dequantize %w, %s, %z {axis = 0}
  // CHECK: relax.dequantize %f, %s, %z {axis = 2, out_dtype = f32} : !relax.tensor<ndim = 3, f32>
  %3 = relax.dequantize %f, %s, %z {axis = 2, out_dtype = f32}
  relax.return %0
}
