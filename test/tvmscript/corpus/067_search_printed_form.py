"""Search operators in the form TVM prints: `R.argmax(x, axis=1, keepdims=False)`,
`R.bucketize(k, b, out_int32=False, right=True)` (on integers), `R.where` on annotated bindings."""

# ruff: noqa
# run: main n=4
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(
        x: R.Tensor(("n", 3), dtype="float32"),
        k: R.Tensor(("n", 3), dtype="int64"),
        b: R.Tensor((4,), dtype="int64"),
    ) -> R.Tuple(
        R.Tensor(("n",), dtype="int64"),
        R.Tensor(("n", 3), dtype="int64"),
        R.Tensor(("n", 3), dtype="float32"),
    ):
        n = T.int64()
        with R.dataflow():
            lv: R.Tensor((n,), dtype="int64") = R.argmax(x, axis=1, keepdims=False)
            lv1: R.Tensor((4,), dtype="int64") = R.sort(b, axis=-1, descending=False)
            lv2: R.Tensor((n, 3), dtype="int64") = R.bucketize(k, lv1, out_int32=False, right=True)
            lv3: R.Tensor((n, 3), dtype="bool") = R.less(x, R.const(0.0, "float32"))
            lv4: R.Tensor((1, 3), dtype="int64") = R.argmin(x, axis=0, keepdims=True)
            lv5: R.Tensor((1, 3), dtype="float32") = R.astype(lv4, dtype="float32")
            lv6: R.Tensor((n, 3), dtype="float32") = R.where(lv3, x, lv5)
            gv = (lv, lv2, lv6)
            R.output(gv)
        return gv
