"""`R.call_tir` with a symbolic shape passed to the `T.prim_func` through `tir_vars=`
(`R.shape([n])`), and two outputs (`out_sinfo=[...]`)."""

# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def split_signs(a: T.handle, b: T.handle, c: T.handle, n: T.int64):
        A = T.match_buffer(a, (n,), "float32")
        B = T.match_buffer(b, (n,), "float32")
        C = T.match_buffer(c, (n,), "float32")
        for i in range(n):
            B[i] = T.max(A[i], T.float32(0.0))
            C[i] = T.min(A[i], T.float32(0.0))

    @R.function
    def main(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
        n = T.int64()
        cls = Module
        parts = R.call_tir(
            cls.split_signs,
            (x,),
            out_sinfo=[R.Tensor((n,), "float32"), R.Tensor((n,), "float32")],
            tir_vars=R.shape([n]),
        )
        pos = parts[0]
        neg = parts[1]
        s = R.subtract(pos, neg)
        return s
