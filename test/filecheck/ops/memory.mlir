// RUN: relax-opt %s --split-input-file | filecheck %s

// Memory views: the shape operand (or the input's shape, or rank) with the data
// type of `dtype` (or the input's).

// CHECK-LABEL: @view
relax.function @view(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<ndim = 3, i16>, %c: !relax.tensor<[2, 3], bool>, %s: !relax.shape<ndim = 2>) -> !relax.object {
  // CHECK: relax.memory.view %a {dtype = i32} : !relax.tensor<[n, 4], i32>
  %0 = relax.memory.view %a {dtype = i32}
  // CHECK: relax.memory.view %b {dtype = f16} : !relax.tensor<ndim = 3, f16>
  %1 = relax.memory.view %b {dtype = f16}
  // CHECK: relax.memory.view %c {dtype = i8} : !relax.tensor<[2, 3], i8>
  %2 = relax.memory.view %c {dtype = i8}
  // a narrower data type may keep the shape: the view reads a prefix
  // CHECK: relax.memory.view %a {dtype = ui8} : !relax.tensor<[n, 4], ui8>
  %3 = relax.memory.view %a {dtype = ui8}
  // CHECK: %[[SHAPE:.*]] = relax.shape [n, 16]
  %4 = relax.shape [n, 16]
  // CHECK: relax.memory.view %a, %[[SHAPE]] {dtype = ui8} : !relax.tensor<[n, 16], ui8>
  %5 = relax.memory.view %a, %4 {dtype = ui8}
  // CHECK: relax.memory.view %a, %s : !relax.tensor<ndim = 2, f32>
  %6 = relax.memory.view %a, %s
  // CHECK: relax.memory.view %a : !relax.tensor<[n, 4], f32>
  %7 = relax.memory.view %a
  relax.return %0
}
