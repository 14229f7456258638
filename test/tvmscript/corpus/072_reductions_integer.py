"""Reductions on integers: `R.sum`, `R.prod`, `R.max`, `R.min` and `R.mean` (truncated toward
zero) of int32 tensors with negative values."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(i: R.Tensor((3, 4), "int32")) -> R.Tuple(
        R.Tensor((3,), "int32"),
        R.Tensor((4,), "int32"),
        R.Tensor((), "int32"),
        R.Tensor((), "int32"),
        R.Tensor((3,), "int32"),
    ):
        v = R.subtract(i, R.const(2, "int32"))
        s = R.sum(v, axis=1)
        p = R.prod(v, axis=0)
        mx = R.max(v)
        mn = R.min(v)
        m = R.mean(v, axis=1)
        return (s, p, mx, mn, m)
