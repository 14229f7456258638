"""Comparison operators producing bool tensors: `R.equal`, `R.not_equal`, `R.less`,
`R.less_equal`, `R.greater`, `R.greater_equal`, on floats (broadcast) and integers."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(
        x: R.Tensor((2, 3), "float32"),
        y: R.Tensor((3,), "float32"),
        i: R.Tensor((2, 3), "int64"),
        j: R.Tensor((2, 3), "int64"),
    ) -> R.Tuple(
        R.Tensor((2, 3), "bool"),
        R.Tensor((2, 3), "bool"),
        R.Tensor((2, 3), "bool"),
        R.Tensor((2, 3), "bool"),
        R.Tensor((2, 3), "bool"),
        R.Tensor((2, 3), "bool"),
    ):
        eq = R.equal(i, j)
        ne = R.not_equal(i, j)
        lt = R.less(x, y)
        le = R.less_equal(i, j)
        gt = R.greater(x, R.const(0.0, "float32"))
        ge = R.greater_equal(y, x)
        return (eq, ne, lt, le, gt, ge)
