"""Predicates on floats producing bool tensors: `R.isnan`, `R.isinf`, `R.isfinite` on values
that include infinities (a division by zero), and `R.logical_not`."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((6,), "float32")) -> R.Tuple(
        R.Tensor((6,), "bool"),
        R.Tensor((6,), "bool"),
        R.Tensor((6,), "bool"),
        R.Tensor((6,), "bool"),
    ):
        zero = R.zeros((6,), "float32")
        inf = R.divide(x, zero)
        n = R.isnan(inf)
        i = R.isinf(inf)
        f = R.isfinite(x)
        nf = R.logical_not(R.isfinite(inf))
        return (n, i, f, nf)
