"""Neural-network operators in the form TVM prints: `R.nn.softmax(x, axis=-1)`,
`R.nn.layer_norm(x, g, b, axes=[-1], epsilon=..., center=True, scale=True)`,
`R.nn.leakyrelu(x, alpha=...)`, `R.nn.pad(x, pad_width=[...], pad_mode=..., pad_value=...)`."""
# ruff: noqa
# run: main n=2
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 6), dtype="float32"), g: R.Tensor((6,), dtype="float32"), b: R.Tensor((6,), dtype="float32")) -> R.Tensor(("n", 8), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            lv: R.Tensor((n, 6), dtype="float32") = R.nn.layer_norm(x, g, b, axes=[-1], epsilon=1.0000000000000001e-05, center=True, scale=True)
            lv1: R.Tensor((n, 6), dtype="float32") = R.nn.leakyrelu(lv, alpha=0.10000000000000001)
            lv2: R.Tensor((n, 6), dtype="float32") = R.nn.softmax(lv1, axis=-1)
            lv3: R.Tensor((n, 6), dtype="float32") = R.nn.silu(lv2)
            lv4: R.Tensor((n, 6), dtype="float32") = R.nn.rms_norm(lv3, g, axes=[-1], epsilon=1.0000000000000001e-05)
            gv: R.Tensor((n, 8), dtype="float32") = R.nn.pad(lv4, pad_width=[0, 0, 1, 1], pad_mode="constant", pad_value=0.0)
            R.output(gv)
        return gv
