"""Arithmetic binary operators with NumPy broadcasting: `R.add`, `R.subtract`, `R.multiply`,
`R.divide`, `R.power`, `R.maximum`, `R.minimum` on (2, 3) with (3,), (2, 1) and a scalar
constant."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(
        x: R.Tensor((2, 3), "float32"), v: R.Tensor((3,), "float32"), c: R.Tensor((2, 1), "float32")
    ) -> R.Tuple(
        R.Tensor((2, 3), "float32"), R.Tensor((2, 3), "float32"), R.Tensor((2, 3), "float32")
    ):
        a = R.add(x, v)
        s = R.subtract(a, c)
        m = R.multiply(s, R.const(0.5, "float32"))
        d = R.divide(m, R.add(R.abs(c), R.const(1.0, "float32")))
        p = R.power(R.abs(x), v)
        q = R.power(R.abs(d), R.const(2.0, "float32"))
        mx = R.maximum(x, v)
        mn = R.minimum(mx, c)
        out = R.add(d, q)
        return (out, p, mn)
