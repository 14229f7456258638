"""Reductions and scans in the form TVM prints: `R.sum(x, axis=[1], keepdims=False)`,
`R.max(x, axis=None, keepdims=False)`, `R.cumsum(x, axis=0, dtype="void", exclusive=False)`."""

# ruff: noqa
# run: main n=3
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tuple(
        R.Tensor(("n",), dtype="float32"),
        R.Tensor((), dtype="float32"),
        R.Tensor(("n", 4), dtype="float32"),
        R.Tensor((1, 4), dtype="float32"),
    ):
        n = T.int64()
        with R.dataflow():
            lv: R.Tensor((n,), dtype="float32") = R.sum(x, axis=[1], keepdims=False)
            lv1: R.Tensor((), dtype="float32") = R.max(x, axis=None, keepdims=False)
            lv2: R.Tensor((n, 4), dtype="float32") = R.cumsum(
                x, axis=0, dtype="void", exclusive=False
            )
            lv3: R.Tensor((1, 4), dtype="float32") = R.variance(x, axis=[0], keepdims=True)
            lv4: R.Tensor((1, 4), dtype="float32") = R.prod(lv3, axis=[0], keepdims=True)
            gv = (lv, lv1, lv2, lv4)
            R.output(gv)
        return gv
