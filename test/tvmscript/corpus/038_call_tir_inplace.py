"""`R.call_tir_inplace`: the `T.prim_func` writes its result into its first argument
(`inplace_indices=[0]`)."""

# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def scale_inplace(A: T.Buffer((2, 3), "float32"), B: T.Buffer((2, 3), "float32")):
        for i, j in T.grid(2, 3):
            A[i, j] = A[i, j] * B[i, j]

    @R.function
    def main(x: R.Tensor((2, 3), "float32"), y: R.Tensor((2, 3), "float32")) -> R.Tensor(
        (2, 3), "float32"
    ):
        cls = Module
        a = R.add(x, y)
        b = R.call_tir_inplace(
            cls.scale_inplace, (a, y), inplace_indices=[0], out_sinfo=R.Tensor((2, 3), "float32")
        )
        return b
