# error: 11:18: GPU thread bindings are outside the TIR subset
# A T.prim_func (the target of R.call_tir) bound to GPU threads: outside the TIR subset the frontend reads.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def double(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for i in T.thread_binding(4, thread="threadIdx.x"):
            B[i] = A[i] * T.float32(2.0)

    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        cls = Module
        y = R.call_tir(cls.double, (x,), out_sinfo=R.Tensor((4,), "float32"))
        return y
# tvm: accepts
