"""Scalar constants with `R.const`: float32 (`R.const(1.5, "float32")`), float16, int32,
int64, bool, and the default data type of `R.const(2.0)` / `R.const(3)`."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32"), i: R.Tensor((4,), "int32")) -> R.Tuple(
        R.Tensor((4,), "float32"),
        R.Tensor((4,), "int32"),
        R.Tensor((4,), "bool"),
        R.Tensor((), "float16"),
        R.Tensor((), "int64"),
    ):
        a = R.multiply(x, R.const(1.5, "float32"))
        b = R.add(a, R.const(2.0))
        c = R.add(i, R.const(3, "int32"))
        d = R.multiply(c, R.const(3))
        e = R.logical_and(R.greater(x, R.const(0.0, "float32")), R.const(True, "bool"))
        h = R.const(-0.25, "float16")
        l = R.const(7, "int64")
        return (b, d, e, h, l)
