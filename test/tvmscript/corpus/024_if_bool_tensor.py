"""`if`/`else` on a 0-d `bool` tensor computed from the input, each branch binding values
and ending in the variable returned after the `if`."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        s = R.sum(x)
        cond = R.greater(s, R.const(0.0, "float32"))
        if cond:
            a = R.multiply(x, R.const(2.0, "float32"))
            y = R.add(a, x)
        else:
            b = R.negative(x)
            y = R.exp(b)
        z = R.add(y, x)
        return z
