// The ONNX frontend from the command line: the suffix, -f onnx on standard input,
// and the sniffer; symbolic dimensions through a folded reshape to heads.
// RUN: relax-opt %S/Inputs/heads.onnx | filecheck %s
// RUN: relax-opt -f onnx - < %S/Inputs/heads.onnx | filecheck %s
// RUN: relax-opt - < %S/Inputs/heads.onnx | filecheck %s
// RUN: relax-opt %S/Inputs/heads.onnx --emit tvmscript | filecheck %s --check-prefix=TVMSCRIPT

// CHECK:      relax.function @main(%x: !relax.tensor<[batch, seq, 768], f32>) {
// CHECK:        %[[SHAPE:.*]] = relax.shape [batch, seq, 12, 64]
// CHECK-NEXT:   %split = relax.reshape %x, %[[SHAPE]] : !relax.tensor<[batch, seq, 12, 64], f32>
// CHECK-NEXT:   %{{.*}} = relax.permute_dims %split {axes = [0, 2, 1, 3]} : !relax.tensor<[batch, 12, seq, 64], f32>

// TVMSCRIPT: def main(x: R.Tensor(("batch", "seq", 768), dtype="float32")) -> R.Tensor(("batch", 12, "seq", 64), dtype="float32"):
// TVMSCRIPT: split: R.Tensor((batch, seq, 12, 64), dtype="float32") = R.reshape(x, R.shape([batch, seq, 12, 64]))
