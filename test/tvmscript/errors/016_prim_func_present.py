# error: 9:6: write the call_tir target as a destination-passing func.func
# A module with a TIR function (the target of R.call_tir), which our frontend does not parse.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def double(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for i in range(4):
            B[i] = A[i] * T.float32(2.0)

    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        cls = Module
        y = R.call_tir(cls.double, (x,), out_sinfo=R.Tensor((4,), "float32"))
        return y
# tvm: accepts
