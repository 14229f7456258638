// RUN: %verify-diagnostics %s
// Virtual devices: rule EN 24 of the spec (a tensor's virtual device is
// declared in the module), TVM's placement errors and malformed declarations.

// Rule EN 24: a parameter on an undeclared device.
builtin.module attributes {relax.global_infos = {vdevice = [#relax.vdevice<"llvm">]}} {
  // expected-error @+1 {{virtual device 'llvm:1:global' is not declared in the module's relax.global_infos (declared: llvm:0:global; well-formedness rule EN 24)}}
  relax.function @main(%x: !relax.tensor<[2], f32, vdevice = "llvm:1">) -> !relax.tensor<[2], f32> {
    relax.return %x
  }
}

// -----

// Rule EN 24: the memory scope must be the declared device's.
builtin.module attributes {relax.global_infos = {vdevice = [#relax.vdevice<"cuda", 0, "global.texture">]}} {
  relax.function @main(%x: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
    // expected-error @+1 {{virtual device 'cuda:0:global' has memory scope 'global', but the declared cuda device 0 has 'global.texture' (well-formedness rule EN 24)}}
    %y = relax.to_vdevice %x {dst_vdevice = "cuda:0:global"} : !relax.tensor<[2], f32>
    relax.return %y
  }
}

// -----

// Rule EN 24: without global infos no device is declared.
relax.function @main(%x: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
  // expected-error @+1 {{virtual device 'cuda:0:global' is not declared in the module's relax.global_infos (declared: none; well-formedness rule EN 24)}}
  %y = relax.abs %x : !relax.tensor<[2], f32, vdevice = "cuda">
  relax.return %x
}

// -----

// Binary arithmetic on two devices (TVM's InferBinaryArithOpOutVDevice).
builtin.module attributes {relax.global_infos = {vdevice = [#relax.vdevice<"llvm">, #relax.vdevice<"cuda">]}} {
  relax.function @main(%x: !relax.tensor<[2], f32, vdevice = "llvm">, %y: !relax.tensor<[2], f32, vdevice = "cuda">) -> !relax.tensor<[2], f32> {
    // expected-error @+1 {{relax.add: operands are on different virtual devices 'llvm:0:global' and 'cuda:0:global'; copy one with relax.to_vdevice}}
    %z = relax.add %x, %y : !relax.tensor<[2], f32>
    relax.return %z
  }
}

// -----

// A tensor on one device is never one on another.
builtin.module attributes {relax.global_infos = {vdevice = [#relax.vdevice<"llvm">, #relax.vdevice<"cuda">]}} {
  relax.function @main(%x: !relax.tensor<[2], f32, vdevice = "llvm">) -> !relax.tensor<[2], f32> {
    // expected-error @+1 {{relax.abs: result type tensor<[2], f32, vdevice = "cuda:0:global"> contradicts the inferred type tensor<[2], f32, vdevice = "llvm:0:global">}}
    %y = relax.abs %x : !relax.tensor<[2], f32, vdevice = "cuda">
    relax.return %y
  }
}

// -----

// The global infos hold virtual devices only.
// expected-error @+1 {{relax.global_infos holds unknown global info 'dummy' (known: vdevice)}}
builtin.module attributes {relax.global_infos = {dummy = [], vdevice = [#relax.vdevice<"llvm">]}} {
  relax.function @main(%x: !relax.tensor<[2], f32, vdevice = "llvm">) -> !relax.tensor<[2], f32> {
    relax.return %x
  }
}

// -----

relax.function @main(%x: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
  // expected-error @+1 {{bad virtual device: 'x' in 'cuda:x' is not a device index}}
  %y = relax.abs %x : !relax.tensor<[2], f32, vdevice = "cuda:x">
  relax.return %x
}

// -----

relax.function @main(%x: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
  // expected-error @+1 {{the virtual device is given twice}}
  %y = relax.abs %x : !relax.tensor<[2], f32, vdevice = "cuda", vdevice = "llvm">
  relax.return %x
}
