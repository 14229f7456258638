"""Binary operators in the form TVM prints, every binding annotated, constants as
`R.const(v, "dtype")`, comparisons feeding `R.where`."""

# ruff: noqa
# run: main n=4
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(
        x: R.Tensor(("n", 2), dtype="float32"), y: R.Tensor((2,), dtype="float32")
    ) -> R.Tensor(("n", 2), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            lv: R.Tensor((n, 2), dtype="float32") = R.subtract(x, y)
            lv1: R.Tensor((n, 2), dtype="float32") = R.multiply(lv, lv)
            lv2: R.Tensor((n, 2), dtype="bool") = R.greater_equal(lv1, R.const(1.0, "float32"))
            lv3: R.Tensor((n, 2), dtype="float32") = R.floor_mod(lv1, R.const(0.75, "float32"))
            lv4: R.Tensor((n, 2), dtype="float32") = R.minimum(lv1, y)
            gv: R.Tensor((n, 2), dtype="float32") = R.where(lv2, lv3, lv4)
            R.output(gv)
        return gv
