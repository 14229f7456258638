"""A branch whose value is bound by its last binding, whatever form that takes: an `if`
whose arms both bind the variable (also as `elif`), a tuple unpacking, a dataflow block that
outputs it; statements that bind no value (`n = T.int64()`) after it do not count."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(
        c: R.Tensor((), "bool"), d: R.Tensor((), "bool"), x: R.Tensor((2, 3), "float32")
    ) -> R.Tensor((2, 3), "float32"):
        if c:
            y = R.add(x, x)
            if d:
                z = R.multiply(y, x)
            else:
                z = R.subtract(y, x)
        elif d:
            t = (x, R.exp(x))
            a, z = t
        else:
            with R.dataflow():
                z = R.tanh(x)
                R.output(z)
            n = T.int64()
        return z
