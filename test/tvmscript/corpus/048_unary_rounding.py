"""Rounding operators on floats and integers: `R.ceil`, `R.floor`, `R.round` (ties to even),
`R.trunc`, the identity on an int32 tensor."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 5), "float32"), i: R.Tensor((2, 5), "int32")) -> R.Tuple(
        R.Tensor((2, 5), "float32"),
        R.Tensor((2, 5), "float32"),
        R.Tensor((2, 5), "float32"),
        R.Tensor((2, 5), "float32"),
        R.Tensor((2, 5), "int32"),
    ):
        scaled = R.multiply(x, R.const(3.0, "float32"))
        c = R.ceil(scaled)
        f = R.floor(scaled)
        r = R.round(scaled)
        t = R.trunc(scaled)
        ic = R.ceil(i)
        ir = R.round(ic)
        return (c, f, r, t, ir)
