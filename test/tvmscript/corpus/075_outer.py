"""`R.outer` of two vectors: static lengths and symbolic lengths, float and int."""

# ruff: noqa
# run: main n=3 m=4
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(
        u: R.Tensor(("n",), "float32"), v: R.Tensor(("m",), "float32"), i: R.Tensor((2,), "int32")
    ) -> R.Tuple(R.Tensor(("n", "m"), "float32"), R.Tensor((2, 2), "int32")):
        o = R.outer(u, v)
        oi = R.outer(i, i)
        return (o, oi)
