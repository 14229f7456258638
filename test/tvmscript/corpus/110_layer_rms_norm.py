"""`R.nn.layer_norm` over the last axis and the last two axes (with `center=False`), and
`R.nn.rms_norm` with the default axis and an `epsilon`."""
# ruff: noqa
# run: main n=3
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 2, 4), "float32"), g4: R.Tensor((4,), "float32"), b4: R.Tensor((4,), "float32"), g24: R.Tensor((2, 4), "float32"), b24: R.Tensor((2, 4), "float32")) -> R.Tuple(R.Tensor(("n", 2, 4), "float32"), R.Tensor(("n", 2, 4), "float32"), R.Tensor(("n", 2, 4), "float32")):
        a = R.nn.layer_norm(x, g4, b4, axes=[-1])
        b = R.nn.layer_norm(x, g24, b24, axes=[1, 2], epsilon=1e-3, center=False)
        c = R.nn.rms_norm(x, g4, epsilon=1e-6)
        return (a, b, c)
