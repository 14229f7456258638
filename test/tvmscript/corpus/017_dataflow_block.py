"""A dataflow block (`with R.dataflow():`) whose `R.output(...)` exposes two of its
variables, used after the block."""

# ruff: noqa
# run: main n=3
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), "float32"), w: R.Tensor((4, 4), "float32")) -> R.Tuple(
        R.Tensor(("n", 4), "float32"), R.Tensor(("n", 4), "float32")
    ):
        with R.dataflow():
            lv0 = R.matmul(x, w)
            lv1 = R.add(lv0, x)
            lv2 = R.nn.relu(lv1)
            gv0 = R.multiply(lv2, lv2)
            gv1 = R.subtract(lv2, lv0)
            R.output(gv0, gv1)
        return (gv0, gv1)
