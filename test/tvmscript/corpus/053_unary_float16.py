"""Unary operators on float16 tensors (`R.exp`, `R.sigmoid`, `R.erf`, `R.sqrt`, `R.round`),
as mixed-precision models use them."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((8,), "float16")) -> R.Tuple(
        R.Tensor((8,), "float16"), R.Tensor((8,), "float16")
    ):
        e = R.exp(R.negative(R.abs(x)))
        s = R.sigmoid(x)
        f = R.erf(x)
        r = R.sqrt(R.abs(x))
        a = R.add(R.add(e, s), f)
        b = R.round(R.multiply(r, R.const(4.0, "float16")))
        return (a, b)
