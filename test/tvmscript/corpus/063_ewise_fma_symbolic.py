"""`R.ewise_fma` on symbolic shapes in the printed form (annotated bindings, `n = T.int64()`),
chained twice. No run spec: TVM 0.25 has no
legalization for `ewise_fma`."""

# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(
        x: R.Tensor(("n", "m"), dtype="float32"),
        w: R.Tensor(("n", "m"), dtype="float32"),
        b: R.Tensor(("n", "m"), dtype="float32"),
    ) -> R.Tensor(("n", "m"), dtype="float32"):
        n = T.int64()
        m = T.int64()
        with R.dataflow():
            lv: R.Tensor((n, m), dtype="float32") = R.ewise_fma(x, w, b)
            gv: R.Tensor((n, m), dtype="float32") = R.ewise_fma(lv, x, w)
            R.output(gv)
        return gv
