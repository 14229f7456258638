"""Data-type conversion and sorting in the form TVM prints: `R.astype(x, dtype="int32")`,
`R.sort(x, axis=-1, descending=False)`, `R.argsort(x, axis=0, descending=True,
dtype="int64")`, `R.topk(x, k=2, axis=-1, ret_type="both", largest=True, dtype="int32")`."""
# ruff: noqa
# run: main n=3
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 5), dtype="float32")) -> R.Tuple(R.Tensor(("n", 5), dtype="int32"), R.Tensor(("n", 5), dtype="int64"), R.Tensor(("n", 2), dtype="float32"), R.Tensor(("n", 2), dtype="int32")):
        n = T.int64()
        with R.dataflow():
            lv: R.Tensor((n, 5), dtype="float32") = R.multiply(x, R.const(4.0, "float32"))
            lv1: R.Tensor((n, 5), dtype="int32") = R.astype(lv, dtype="int32")
            lv2: R.Tensor((n, 5), dtype="int32") = R.sort(lv1, axis=-1, descending=False)
            lv3: R.Tensor((n, 5), dtype="int64") = R.argsort(x, axis=0, descending=True, dtype="int64")
            lv4: R.Tuple(R.Tensor((n, 2), dtype="float32"), R.Tensor((n, 2), dtype="int32")) = R.topk(x, k=2, axis=-1, ret_type="both", largest=True, dtype="int32")
            lv5: R.Tensor((n, 2), dtype="float32") = lv4[0]
            lv6: R.Tensor((n, 2), dtype="int32") = lv4[1]
            gv = (lv2, lv3, lv5, lv6)
            R.output(gv)
        return gv
