// RUN: relax-opt %s %roundtrip | filecheck %s
// RUN: relax-opt %s %generic-roundtrip | filecheck %s
// Virtual devices: the module's declarations, tensor types on them, TVM's
// placement of inferred results, and the two placement operators.

// CHECK:      builtin.module attributes {relax.global_infos = {vdevice = [#relax.vdevice<"llvm", 0, "global">, #relax.vdevice<{kind = "cuda", arch = "sm_80"}, 0, "global">, #relax.vdevice<"llvm -mcpu=skylake", 1, "global.texture">]}} {
// CHECK-NEXT:   relax.function @main(%x: !relax.tensor<[n, 4], f32, vdevice = "llvm:0:global">, %y: !relax.tensor<[n, 4], f32, vdevice = "cuda:0:global">, %z: !relax.tensor<[n, 4], f32>) -> !relax.tensor<ndim = 2, f32> {
builtin.module attributes {relax.global_infos = {vdevice = [
    #relax.vdevice<"llvm">,
    #relax.vdevice<{kind = "cuda", arch = "sm_80"}, 0>,
    #relax.vdevice<"llvm -mcpu=skylake", 1, "global.texture">]}} {
  relax.function @main(%x: !relax.tensor<[n, 4], f32, vdevice = "llvm">, %y: !relax.tensor<[n, 4], f32, vdevice = "cuda:0">, %z: !relax.tensor<[n, 4], f32>) -> !relax.tensor<ndim = 2, f32> {
    // binary arithmetic: an operand without a device takes the other's
    // CHECK-NEXT: %a = relax.add %x, %z : !relax.tensor<[n, 4], f32, vdevice = "llvm:0:global">
    %a = relax.add %x, %z
    // CHECK-NEXT: %b = relax.to_vdevice %a {dst_vdevice = "cuda:0:global"} : !relax.tensor<[n, 4], f32, vdevice = "cuda:0:global">
    %b = relax.to_vdevice %a {dst_vdevice = "cuda:0:global"}
    // CHECK-NEXT: %c = relax.hint_on_device %b {device_type = 2, index = 0} : !relax.tensor<[n, 4], f32, vdevice = "cuda:0:global">
    %c = relax.hint_on_device %b {device_type = 2, index = 0}
    // COMMON: different devices give none
    // CHECK-NEXT: %t = relax.tuple(%x, %y) : !relax.tuple<tensor<[n, 4], f32, vdevice = "llvm:0:global">, tensor<[n, 4], f32, vdevice = "cuda:0:global">>
    %t = relax.tuple(%x, %y)
    // CHECK-NEXT: %d = relax.concat %t : !relax.tensor<[2 * n, 4], f32>
    %d = relax.concat %t
    // CHECK-NEXT: %e = relax.matmul %c, %y : !relax.tensor<[n, 4], f32, vdevice = "cuda:0:global">
    %e = relax.matmul %c, %y : !relax.tensor<[n, 4], f32, vdevice = "cuda:0:global">
    // DATA: the first tensor operand's device
    // CHECK-NEXT: %s = relax.sum %x {axis = [1]} : !relax.tensor<[n], f32, vdevice = "llvm:0:global">
    %s = relax.sum %x {axis = [1]}
    // CHECK-NEXT: %l = relax.ones_like %y : !relax.tensor<[n, 4], f32, vdevice = "cuda:0:global">
    %l = relax.ones_like %y
    // NONE: built from a shape
    // CHECK-NEXT: %sh = relax.shape_of %x : !relax.shape<[n, 4]>
    %sh = relax.shape_of %x
    // CHECK-NEXT: %o = relax.ones %sh {dtype = f32} : !relax.tensor<[n, 4], f32>
    %o = relax.ones %sh {dtype = f32}
    // tuple results: each tensor field
    // CHECK-NEXT: %p = relax.split %y {indices_or_sections = 2, axis = 1} : !relax.tuple<tensor<[n, 2], f32, vdevice = "cuda:0:global">, tensor<[n, 2], f32, vdevice = "cuda:0:global">>
    %p = relax.split %y {indices_or_sections = 2, axis = 1}
    // a weaker annotation drops the device
    // CHECK-NEXT: %w = relax.multiply %x, %x : !relax.tensor<[n, 4], f32>
    %w = relax.multiply %x, %x : !relax.tensor<[n, 4], f32>
    relax.return %d
  }
}

// -----

// The join of if branches keeps a device both share.
// CHECK-LABEL: relax.function @join
// CHECK:       %r = relax.if %c : !relax.tensor<[2], f32, vdevice = "cuda:0:global">
// CHECK:       %q = relax.if %c : !relax.tensor<[2], f32>
builtin.module attributes {relax.global_infos = {vdevice = [#relax.vdevice<"llvm">, #relax.vdevice<"cuda">]}} {
  relax.function @join(%c: !relax.tensor<[], bool>, %x: !relax.tensor<[2], f32, vdevice = "cuda">, %y: !relax.tensor<[2], f32, vdevice = "llvm">) -> !relax.tensor<[2], f32> {
    %r = relax.if %c {
      relax.yield %x
    } else {
      relax.yield %x
    }
    %q = relax.if %c {
      relax.yield %x
    } else {
      relax.yield %y
    }
    relax.return %q
  }
}
