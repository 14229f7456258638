// Initializers: a large one as a dense_resource blob after the module, a small
// one inline; or parameters after the inputs with --params-as-inputs.
// RUN: relax-opt %S/Inputs/weights.onnx | filecheck %s
// RUN: relax-opt %S/Inputs/weights.onnx | relax-opt | filecheck %s
// RUN: relax-opt %S/Inputs/weights.onnx --params-as-inputs | filecheck %s --check-prefix=PARAMS

// CHECK:      relax.function @main(%x: !relax.tensor<[n, 2, 256], f32>) {
// CHECK:        %w = relax.constant dense<[2, 256], f32, dense_resource<w>> : !relax.tensor<[2, 256], f32>
// CHECK:        %b = relax.constant dense<[1], f32, 0.5> : !relax.tensor<[1], f32>
// CHECK:      dialect_resources: {
// CHECK-NEXT:   builtin: {
// CHECK-NEXT:     w: "0x04000000000000000000003B0000803B

// PARAMS: relax.function @main(%x: !relax.tensor<[n, 2, 256], f32>, %w: !relax.tensor<[2, 256], f32>, %b: !relax.tensor<[1], f32>)
// PARAMS-NOT: relax.constant
