"""`R.nonzero` (one row per dimension, data-dependent column count) recovered with
`R.match_cast` to `(2, k)`, and used to count the non-zero elements."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(i: R.Tensor((3, 4), "int32"), b: R.Tensor((5,), "bool")) -> R.Tuple(R.Tensor(ndim=2, dtype="int64"), R.Tensor(ndim=2, dtype="int64")):
        k = T.int64()
        j = T.int64()
        nz = R.nonzero(i)
        idx = R.match_cast(nz, R.Tensor((2, k), "int64"))
        nb = R.nonzero(b)
        jb = R.match_cast(nb, R.Tensor((1, j), "int64"))
        return (idx, jb)
