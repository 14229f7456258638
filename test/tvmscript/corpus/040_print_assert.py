"""Impure operators in a `pure=False` function: `R.print` without and with a format,
`R.assert_op` with a 0-d bool tensor and with a `R.Prim("bool")` condition, and format
arguments."""

# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((2,), "float32"), flag: R.Prim("bool")) -> R.Tuple:
        R.print(x)
        R.print(x, R.prim_value(3), format="x={} three={}")
        positive = R.greater(R.min(x), R.const(-100.0, "float32"))
        R.assert_op(positive, format="x has a very negative element")
        R.assert_op(flag, [x], format="flag is false for {}")
        nothing = R.tuple()
        return nothing
