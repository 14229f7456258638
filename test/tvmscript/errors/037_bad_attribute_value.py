# error: 12:13: pad_mode 'mirror' is not one of
# An attribute with a value outside its choices: R.nn.pad's pad_mode is constant, reflect,
# replicate or circular (TVM 0.25 accepts any string).
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 5), "float32"):
        y = R.nn.pad(x, [0, 0, 1, 1], pad_mode="mirror")
        return y
# tvm: accepts
