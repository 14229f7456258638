"""`R.einsum` over a tuple of tensors: matrix product, batched product, transposition, trace
of each matrix of a batch (repeated label), a dot product to a scalar, and an ellipsis."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(
        a: R.Tensor((3, 4), "float32"),
        b: R.Tensor((4, 2), "float32"),
        x: R.Tensor((2, 3, 3), "float32"),
        v: R.Tensor((4,), "float32"),
    ) -> R.Tuple(
        R.Tensor((3, 2), "float32"),
        R.Tensor((2, 3, 3), "float32"),
        R.Tensor((4, 3), "float32"),
        R.Tensor((2,), "float32"),
        R.Tensor((), "float32"),
        R.Tensor((2, 3, 3), "float32"),
    ):
        mm = R.einsum((a, b), "ij,jk->ik")
        bmm = R.einsum((x, x), subscripts="bij,bjk->bik")
        t = R.einsum((a,), "ij->ji")
        tr = R.einsum((x,), "bii->b")
        dot = R.einsum((v, v), "i,i->")
        ell = R.einsum((x,), "...ij->...ji")
        return (mm, bmm, t, tr, dot, ell)
