"""`R.tril` and `R.triu` of a matrix and a batch of matrices, with `k` 0 (default), positive
and negative."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4, 4), "float32"), b: R.Tensor((2, 3, 4), "int32")) -> R.Tuple(R.Tensor((4, 4), "float32"), R.Tensor((4, 4), "float32"), R.Tensor((2, 3, 4), "int32"), R.Tensor((2, 3, 4), "int32")):
        l = R.tril(x)
        u = R.triu(x, 1)
        lb = R.tril(b, k=-1)
        ub = R.triu(b, k=2)
        return (l, u, lb, ub)
