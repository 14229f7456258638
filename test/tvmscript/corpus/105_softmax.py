"""`R.nn.softmax` and `R.nn.log_softmax` along the default last axis, axis 0 and a symbolic
dimension."""
# ruff: noqa
# run: main n=3
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 5), "float32")) -> R.Tuple(R.Tensor(("n", 5), "float32"), R.Tensor(("n", 5), "float32"), R.Tensor(("n", 5), "float32")):
        a = R.nn.softmax(x)
        b = R.nn.softmax(x, axis=0)
        c = R.nn.log_softmax(x, axis=-1)
        return (a, b, c)
