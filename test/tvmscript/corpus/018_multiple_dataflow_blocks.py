"""Two dataflow blocks separated by ordinary bindings; the second block uses outputs of the
first; a binding after the last block."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        with R.dataflow():
            a = R.exp(x)
            b = R.add(a, x)
            R.output(b)
        c = R.multiply(b, b)
        with R.dataflow():
            d = R.subtract(c, b)
            e = R.tanh(d)
            R.output(e)
        f = R.add(e, x)
        return f
