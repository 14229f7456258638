"""`R.nn.pixel_shuffle` (channels `C * r * r` to spatial `H * r`, `W * r`) and
`R.nn.batch_flatten` of 4-d data. No run spec: TVM 0.25's legalization of `pixel_shuffle`
calls a missing `topi.nn.pixel_shuffle`."""
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 8, 2, 3), "float32")) -> R.Tuple(R.Tensor((1, 2, 4, 6), "float32"), R.Tensor((1, 48), "float32")):
        p = R.nn.pixel_shuffle(x, 2)
        f = R.nn.batch_flatten(x)
        return (p, f)
