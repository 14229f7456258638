"""An impure function (`pure=False`) that prints values with `R.print` and asserts with
`R.assert_op` outside any dataflow block."""

# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((3,), "float32")) -> R.Tensor((3,), "float32"):
        y = R.add(x, x)
        R.print(y, format="y = {}")
        s = R.sum(y)
        ok = R.less(s, R.const(1000.0, "float32"))
        R.assert_op(ok, s, format="sum too large: {}")
        return y
