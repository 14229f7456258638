"""Activation functions: `R.nn.relu`, `R.nn.gelu`, `R.nn.gelu_tanh`, `R.nn.selu`,
`R.nn.silu`, `R.nn.leakyrelu` (default and `alpha=`), `R.nn.softplus` (defaults and
`beta`/`threshold`)."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 8), "float32")) -> R.Tuple(R.Tensor((2, 8), "float32"), R.Tensor((2, 8), "float32"), R.Tensor((2, 8), "float32"), R.Tensor((2, 8), "float32")):
        with R.dataflow():
            r = R.nn.relu(x)
            g = R.nn.gelu(x)
            gt = R.nn.gelu_tanh(x)
            se = R.nn.selu(x)
            si = R.nn.silu(x)
            l1 = R.nn.leakyrelu(x)
            l2 = R.nn.leakyrelu(x, alpha=0.2)
            s1 = R.nn.softplus(x)
            s2 = R.nn.softplus(R.multiply(x, R.const(10.0, "float32")), beta=2.0, threshold=5.0)
            a = R.add(r, g)
            b = R.subtract(gt, se)
            c = R.add(si, R.add(l1, l2))
            d = R.add(s1, s2)
            R.output(a, b, c, d)
        return (a, b, c, d)
