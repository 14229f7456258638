"""`R.matmul` with NumPy semantics: 2-D, batched with broadcasting of the batch dimensions,
vector-matrix and matrix-vector (the vector axis dropped), and `out_dtype`."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(
        a: R.Tensor((3, 4), "float32"),
        b: R.Tensor((4, 5), "float32"),
        batch: R.Tensor((2, 1, 3, 4), "float32"),
        w: R.Tensor((6, 4, 5), "float32"),
        v: R.Tensor((4,), "float32"),
        h: R.Tensor((3, 4), "float16"),
    ) -> R.Tuple(
        R.Tensor((3, 5), "float32"),
        R.Tensor((2, 6, 3, 5), "float32"),
        R.Tensor((5,), "float32"),
        R.Tensor((3,), "float32"),
        R.Tensor((3, 4), "float32"),
    ):
        c = R.matmul(a, b)
        d = R.matmul(batch, w)
        e = R.matmul(v, b)
        f = R.matmul(a, v)
        hh = R.matmul(h, R.permute_dims(h), out_dtype="float32")
        g = R.matmul(hh, a)
        return (c, d, e, f, g)
