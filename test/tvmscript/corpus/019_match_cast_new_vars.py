"""`R.match_cast` introducing new symbolic variables from a tensor of unknown shape, then
using them in later annotations and shapes."""

# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(ndim=2, dtype="float32")) -> R.Tensor(ndim=1, dtype="float32"):
        m = T.int64()
        k = T.int64()
        y = R.match_cast(x, R.Tensor((m, k), "float32"))
        flat: R.Tensor((m * k,), "float32") = R.reshape(y, R.shape([m * k]))
        s = R.shape([k, m])
        t = R.reshape(y, s)
        u = R.flatten(t)
        return u
