"""Virtual devices: `I.module_global_infos` declaring a CPU device, tensors placed on it
(`"llvm"`, `vdevice="llvm:0:global"`, `"vdevice:0"`) or on none, results placed as TVM's
inference places them (binary arithmetic, `matmul`, `concat`, reductions, creation from
shapes), and a copy with `R.to_vdevice` (TVM's VM cannot build `R.hint_on_device` without
`RealizeVDevice`, nor run a second device on one CPU)."""

# ruff: noqa
# run: main n=3
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice("llvm")]})

    @R.function
    def main(
        x: R.Tensor(("n", 4), "float32"),
        w: R.Tensor((4, 4), "float32", vdevice="llvm:0:global"),
        b: R.Tensor((4,), "float32", "vdevice:0"),
    ) -> R.Tensor(("n", 4), "float32", "llvm"):
        n = T.int64()
        x1 = R.to_vdevice(x, "llvm")
        y = R.matmul(x1, w)
        z = R.add(y, b)
        s = R.sum(z, axis=[1], keepdims=True)
        both = R.concat((x, z), axis=0)
        ones = R.ones(R.shape([n, 4]), "float32")
        shifted = R.subtract(z, ones)
        out = R.multiply(shifted, s)
        return out
