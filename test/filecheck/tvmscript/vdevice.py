# RUN: relax-opt %s | filecheck %s
# RUN: relax-opt %s --emit tvmscript | filecheck %s --check-prefix=EMIT
# RUN: relax-opt %s --emit tvmscript | relax-opt -f tvmscript --emit tvmscript | filecheck %s --check-prefix=EMIT
# Virtual devices as TVM 0.25 writes them: the module's global infos, the
# annotation's third argument or vdevice keyword resolved as TVM's
# LookupVDevice does ("kind:index" counts the devices of that kind,
# "vdevice:i" the declared ones), R.to_vdevice and R.hint_on_device.

from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice("llvm"), I.vdevice({"kind": "cuda", "arch": "sm_80", "keys": ["cuda", "gpu"], "max_num_threads": 1024}, 0, "global"), I.vdevice("llvm", 7, "global.texture")]})

    @R.function
    def main(x: R.Tensor(("n", 4), "float32", "llvm"), y: R.Tensor(("n", 4), "float32", vdevice="cuda:0:global"), z: R.Tensor(("n", 4), dtype="float32", vdevice="vdevice:2")) -> R.Tensor(("n", 4), "float32", "cuda"):
        n = T.int64()
        a = R.add(x, x)
        b = R.to_vdevice(a, "cuda:0")
        c = R.hint_on_device(b, R.device(2, 0))
        d: R.Tensor((n, 4), "float32", "cuda:0") = R.add(c, y)
        e = R.to_vdevice(d, I.vdevice("llvm", 7, "global.texture"))
        f = R.add(z, z)
        return d

# CHECK:      builtin.module attributes {relax.global_infos = {vdevice = [#relax.vdevice<"llvm", 0, "global">, #relax.vdevice<{kind = "cuda", arch = "sm_80", keys = ["cuda", "gpu"], max_num_threads = 1024 : i64}, 0, "global">, #relax.vdevice<"llvm", 7, "global.texture">]}} {
# CHECK-NEXT:   relax.function @main(%x: !relax.tensor<[n, 4], f32, vdevice = "llvm:0:global">, %y: !relax.tensor<[n, 4], f32, vdevice = "cuda:0:global">, %z: !relax.tensor<[n, 4], f32, vdevice = "llvm:1:global.texture">) -> !relax.tensor<[n, 4], f32, vdevice = "cuda:0:global"> {
# CHECK-NEXT:     %a = relax.add %x, %x : !relax.tensor<[n, 4], f32, vdevice = "llvm:0:global">
# CHECK-NEXT:     %b = relax.to_vdevice %a {dst_vdevice = "cuda:0:global"} : !relax.tensor<[n, 4], f32, vdevice = "cuda:0:global">
# CHECK-NEXT:     %c = relax.hint_on_device %b {device_type = 2, index = 0, memory_scope = "global"} : !relax.tensor<[n, 4], f32, vdevice = "cuda:0:global">
# CHECK-NEXT:     %d = relax.add %c, %y : !relax.tensor<[n, 4], f32, vdevice = "cuda:0:global">
# CHECK-NEXT:     %e = relax.to_vdevice %d {dst_vdevice = "llvm:1:global.texture"} : !relax.tensor<[n, 4], f32, vdevice = "llvm:1:global.texture">
# CHECK-NEXT:     %f = relax.add %z, %z : !relax.tensor<[n, 4], f32, vdevice = "llvm:1:global.texture">

# EMIT:      class Module:
# EMIT-NEXT:     I.module_global_infos({"vdevice": [I.vdevice("llvm", 0, "global"), I.vdevice({"kind": "cuda", "arch": "sm_80", "keys": ["cuda", "gpu"], "max_num_threads": 1024}, 0, "global"), I.vdevice("llvm", 7, "global.texture")]})
# EMIT-NEXT:     @R.function
# EMIT-NEXT:     def main(x: R.Tensor(("n", 4), dtype="float32", vdevice="llvm:0:global"), y: R.Tensor(("n", 4), dtype="float32", vdevice="cuda:0:global"), z: R.Tensor(("n", 4), dtype="float32", vdevice="llvm:1:global.texture")) -> R.Tensor(("n", 4), dtype="float32", vdevice="cuda:0:global"):
# EMIT:          a: R.Tensor((n, 4), dtype="float32", vdevice="llvm:0:global") = R.add(x, x)
# EMIT-NEXT:     b: R.Tensor((n, 4), dtype="float32", vdevice="cuda:0:global") = R.to_vdevice(a, dst_vdevice="cuda:0:global")
# EMIT-NEXT:     c: R.Tensor((n, 4), dtype="float32", vdevice="cuda:0:global") = R.hint_on_device(b, R.device(device_type=2, index=0), memory_scope="global")
