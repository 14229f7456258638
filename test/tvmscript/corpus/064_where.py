"""`R.where(condition, x1, x2)`: selection with a broadcast condition, a scalar branch value and
an int32 selection."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(
        c: R.Tensor((3, 1), "bool"),
        x: R.Tensor((3, 4), "float32"),
        y: R.Tensor((4,), "float32"),
        i: R.Tensor((3, 4), "int32"),
    ) -> R.Tuple(
        R.Tensor((3, 4), "float32"), R.Tensor((3, 4), "float32"), R.Tensor((3, 4), "int32")
    ):
        a = R.where(c, x, y)
        pos = R.greater(x, R.const(0.0, "float32"))
        b = R.where(pos, x, R.const(0.0, "float32"))
        k = R.where(pos, i, R.negative(i))
        return (a, b, k)
