"""Creation operators in the form TVM prints: `R.zeros(R.shape([...]), dtype=...)`,
`R.full(R.shape([...]), R.const(...), dtype=...)`, `R.eye(R.prim_value(3), ...)`,
`R.arange(R.prim_value(0), ...)`, `R.tril(x, R.prim_value(0))`, `R.ones_like(x, dtype="void")`."""
# ruff: noqa
# run: main n=3
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", "n"), dtype="float32")) -> R.Tuple(R.Tensor(("n", "n"), dtype="float32"), R.Tensor((4,), dtype="int64"), R.Tensor((2, 3), dtype="float32")):
        n = T.int64()
        with R.dataflow():
            lv: R.Tensor((n, n), dtype="float32") = R.zeros(R.shape([n, n]), dtype="float32")
            lv1: R.Tensor((n, n), dtype="float32") = R.ones_like(x, dtype="void")
            lv2: R.Tensor((n, n), dtype="float32") = R.tril(lv1, R.prim_value(0))
            lv3: R.Tensor((n, n), dtype="float32") = R.triu(x, R.prim_value(1))
            lv4: R.Tensor((n, n), dtype="float32") = R.add(lv, lv2)
            lv5: R.Tensor((n, n), dtype="float32") = R.add(lv4, lv3)
            lv6: R.Tensor((4,), dtype="int64") = R.arange(R.prim_value(0), R.prim_value(8), R.prim_value(2), dtype="int64")
            lv7: R.Tensor((2, 3), dtype="float32") = R.eye(R.prim_value(2), R.prim_value(3), R.prim_value(0), dtype="float32")
            lv8: R.Tensor((2, 3), dtype="float32") = R.full(R.shape([2, 3]), R.const(0.5, "float32"), dtype="float32")
            lv9: R.Tensor((2, 3), dtype="float32") = R.add(lv7, lv8)
            gv = (lv5, lv6, lv9)
            R.output(gv)
        return gv
