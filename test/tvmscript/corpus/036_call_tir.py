"""`R.call_tir` of a `T.prim_func` in the module (a plain loop without blocks, which the
frontend reads as `scf.for`), with one output given by `out_sinfo=`."""

# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add_one(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for i in range(4):
            B[i] = A[i] + T.float32(1.0)

    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        cls = Module
        with R.dataflow():
            y = R.call_tir(cls.add_one, (x,), out_sinfo=R.Tensor((4,), "float32"))
            z = R.multiply(y, x)
            R.output(z)
        return z
