"""Linear algebra in the form TVM prints: `R.matmul(x, w, out_dtype="void")`,
`R.einsum((a, b), subscripts="ij,jk->ik")`, `R.outer`, on symbolic batch sizes."""

# ruff: noqa
# run: main b=2
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(
        x: R.Tensor(("b", 4), dtype="float32"),
        w: R.Tensor((4, 3), dtype="float32"),
        u: R.Tensor((3,), dtype="float32"),
    ) -> R.Tuple(
        R.Tensor(("b", 3), dtype="float32"),
        R.Tensor(("b", 3), dtype="float32"),
        R.Tensor((3, 3), dtype="float32"),
    ):
        b = T.int64()
        with R.dataflow():
            lv: R.Tensor((b, 3), dtype="float32") = R.matmul(x, w, out_dtype="void")
            lv1: R.Tensor((b, 3), dtype="float32") = R.einsum((x, w), subscripts="ij,jk->ik")
            lv2: R.Tensor((3, 3), dtype="float32") = R.outer(u, u)
            lv3: R.Tensor((b, 3), dtype="float32") = R.matmul(lv1, lv2, out_dtype="float32")
            gv = (lv, lv3, lv2)
            R.output(gv)
        return gv
