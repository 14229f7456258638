"""Unary operators in the form TVM prints: every binding annotated, symbolic dimensions as
`n = T.int64()` variables, signature shapes quoted (`("n", "m")`), `dtype=` keywords."""

# ruff: noqa
# run: main n=2 m=3
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tensor(("n", "m"), dtype="float32"):
        n = T.int64()
        m = T.int64()
        with R.dataflow():
            lv: R.Tensor((n, m), dtype="float32") = R.sigmoid(x)
            lv1: R.Tensor((n, m), dtype="float32") = R.cos(lv)
            lv2: R.Tensor((n, m), dtype="float32") = R.floor(lv1)
            lv3: R.Tensor((n, m), dtype="float32") = R.sin(x)
            lv4: R.Tensor((n, m), dtype="float32") = R.negative(lv3)
            lv5: R.Tensor((n, m), dtype="float32") = R.add(lv2, lv4)
            gv: R.Tensor((n, m), dtype="float32") = R.clip(
                lv5, R.prim_value(T.float32(-1.0)), R.prim_value(T.float32(1.0))
            )
            R.output(gv)
        return gv
