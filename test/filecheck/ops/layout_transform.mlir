// RUN: relax-opt %s --split-input-file | filecheck %s
// RUN: relax-opt %s --split-input-file %generic-roundtrip | filecheck %s

// The result's shape is TVM's IndexMap.map_shape: a split i floordiv c has
// ceildiv(n, c) (padded), i mod c has c, fused axes multiply, other outputs the
// range of the expression over the input.
// CHECK-LABEL: @layout_transform
relax.function @layout_transform(%x: !relax.tensor<[n, m], f32>, %y: !relax.tensor<[10, 3], i32>, %p: !relax.tensor<[1, 8, h, w], f16>, %z: !relax.tensor<[4, 6], i64>) -> !relax.object {
  // CHECK: relax.layout_transform %x {index_map = affine_map<(d0, d1) -> ((d0 floordiv 4), d1, (d0 mod 4))>} : !relax.tensor<[(n + 3 * n floormod 4) floordiv 4, m, 4], f32>
  %0 = relax.layout_transform %x {index_map = affine_map<(d0, d1) -> (d0 floordiv 4, d1, d0 mod 4)>}
  // CHECK: relax.layout_transform %y {index_map = affine_map<(d0, d1) -> ((d0 floordiv 4), d1, (d0 mod 4))>, pad_value = 7} : !relax.tensor<[3, 3, 4], i32>
  %1 = relax.layout_transform %y {index_map = affine_map<(d0, d1) -> (d0 floordiv 4, d1, d0 mod 4)>, pad_value = 7}
  // CHECK: relax.layout_transform %p {index_map = affine_map<(d0, d1, d2, d3) -> (d0, (d1 floordiv 4), d2, d3, (d1 mod 4))>, pad_value = -1.5} : !relax.tensor<[1, 2, h, w, 4], f16>
  %2 = relax.layout_transform %p {index_map = affine_map<(d0, d1, d2, d3) -> (d0, d1 floordiv 4, d2, d3, d1 mod 4)>, pad_value = -1.5}
  // CHECK: relax.layout_transform %x {index_map = affine_map<(d0, d1) -> (d1, d0)>, axis_separators = [1], input_axis_separators = [1]} : !relax.tensor<[m, n], f32>
  %3 = relax.layout_transform %x {index_map = affine_map<(d0, d1) -> (d1, d0)>, axis_separators = [1], input_axis_separators = [1]}
  // CHECK: relax.layout_transform %y {index_map = affine_map<(d0, d1) -> (((d0 * 3) + d1))>} : !relax.tensor<[30], i32>
  %4 = relax.layout_transform %y {index_map = affine_map<(d0, d1) -> (d0 * 3 + d1)>}
  // CHECK: relax.layout_transform %z {index_map = affine_map<(d0, d1) -> (((d0 + (d1 * -1)) + 5), d1)>} : !relax.tensor<[9, 6], i64>
  %5 = relax.layout_transform %z {index_map = affine_map<(d0, d1) -> (d0 - d1 + 5, d1)>}
  // CHECK: relax.layout_transform %z {index_map = affine_map<(d0, d1) -> ((d0 * 2), d1)>} : !relax.tensor<[8, 6], i64>
  %6 = relax.layout_transform %z {index_map = affine_map<(d0, d1) -> (d0 * 2, d1)>}
  relax.return %0
}

// -----

// An unknown shape keeps the rank of the map's results.
// CHECK-LABEL: @unknown
relax.function @unknown(%u: !relax.tensor<ndim = 2, f32>, %a: !relax.tensor<f32>) -> !relax.object {
  // CHECK: relax.layout_transform %u {index_map = affine_map<(d0, d1) -> ((d0 floordiv 4), d1, (d0 mod 4))>} : !relax.tensor<ndim = 3, f32>
  %0 = relax.layout_transform %u {index_map = affine_map<(d0, d1) -> (d0 floordiv 4, d1, d0 mod 4)>}
  // CHECK: relax.layout_transform %a {index_map = affine_map<(d0, d1, d2) -> (d2, d0, d1)>} : !relax.tensor<ndim = 3, f32>
  %1 = relax.layout_transform %a {index_map = affine_map<(d0, d1, d2) -> (d2, d0, d1)>}
  relax.return %0
}
