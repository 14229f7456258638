"""A symbolic variable declared in the body with `n = T.int64()` and used in binding
annotations, `R.shape` and `R.reshape` targets."""

# ruff: noqa
# run: main n=4
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 2), "float32")) -> R.Tensor((2, "n"), "float32"):
        n = T.int64()
        t: R.Tensor((2, n), "float32") = R.permute_dims(x)
        s = R.shape([2, n])
        u = R.reshape(t, s)
        return u
