// RUN: relax-opt %s -p convert-relax-to-linalg --print-op-generic | mlir-opt-22 | filecheck %s
// RUN: relax-run %s --backend all | filecheck %s --check-prefix=OUT
// Placement lowers to identities carrying it: mlir-opt-22 reads them, and every
// backend computes what the reference interpreter does (one CPU holds every
// virtual device).

builtin.module attributes {relax.global_infos = {vdevice = [#relax.vdevice<"llvm">, #relax.vdevice<{kind = "cuda", arch = "sm_80"}, 0, "global">]}} {
  relax.function @main() -> !relax.tensor<[2, 2], f32, vdevice = "cuda:0:global"> {
    %c = relax.constant dense<[2, 2], f32, [1.0, 2.0, 3.0, 4.0]> : !relax.tensor<[2, 2], f32>
    %x = relax.to_vdevice %c {dst_vdevice = "llvm:0:global"}
    %y = relax.to_vdevice %x {dst_vdevice = "cuda:0:global"}
    %h = relax.hint_on_device %y {device_type = 2, index = 0}
    %z = relax.matmul %h, %y
    relax.return %z
  }
}

// CHECK:       module attributes {relax.vdevices = {"cuda:0:global" = {memory_scope = "global", target = {arch = "sm_80", kind = "cuda"}, vdevice_id = 0 : i64}, "llvm:0:global" = {memory_scope = "global", target = "llvm", vdevice_id = 0 : i64}}}
// CHECK-LABEL: func.func @main()
// CHECK:         %[[C:.*]] = arith.constant dense<{{.*}}> : tensor<2x2xf32>
// CHECK:         %[[X:.*]] = tensor.cast %[[C]] {relax.vdevice = "llvm:0:global"} : tensor<2x2xf32> to tensor<2x2xf32>
// CHECK:         %[[Y:.*]] = tensor.cast %[[X]] {relax.vdevice = "cuda:0:global"} : tensor<2x2xf32> to tensor<2x2xf32>
// CHECK:         %[[H:.*]] = tensor.cast %[[Y]] {relax.device_hint = {device_type = 2 : i64, index = 0 : i64, memory_scope = "global"}} : tensor<2x2xf32> to tensor<2x2xf32>
// CHECK:         linalg.matmul ins(%[[H]], %[[Y]] : tensor<2x2xf32>, tensor<2x2xf32>)

// OUT:      @main()
// OUT-NEXT: out0: tensor of shape [2, 2] and dtype f32
// OUT-NEXT:   {{\[\[}} 7. 10.]
// OUT-NEXT:    [15. 22.]]
// OUT:      lowered: {{.*}}agrees with reference
// OUT:      mlir: {{.*}}agrees with reference
