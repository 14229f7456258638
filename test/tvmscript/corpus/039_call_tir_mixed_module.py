"""A module mixing a `T.prim_func`, a private Relax helper and `R.call_tir` of a prim function
referred to as `Module.name` inside a dataflow block."""

# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def row_sum(A: T.Buffer((3, 4), "float32"), B: T.Buffer((3,), "float32")):
        for i in range(3):
            B[i] = T.float32(0.0)
            for j in range(4):
                B[i] = B[i] + A[i, j]

    @R.function(private=True)
    def normalize(x: R.Tensor((3, 4), "float32"), s: R.Tensor((3,), "float32")) -> R.Tensor(
        (3, 4), "float32"
    ):
        t = R.expand_dims(s, axis=1)
        y = R.divide(x, t)
        return y

    @R.function
    def main(x: R.Tensor((3, 4), "float32")) -> R.Tensor((3, 4), "float32"):
        with R.dataflow():
            e = R.exp(x)
            s = R.call_tir(Module.row_sum, (e,), out_sinfo=R.Tensor((3,), "float32"))
            y = Module.normalize(e, s)
            R.output(y)
        return y
