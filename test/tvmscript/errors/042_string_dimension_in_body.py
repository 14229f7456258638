# error: 12:22: only allowed in the signature
# A body annotation with a quoted symbolic dimension ("n") instead of the variable n.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), "float32")) -> R.Tensor(("n", 4), "float32"):
        n = T.int64()
        y: R.Tensor(("n", 4), "float32") = R.exp(x)
        return y
# tvm: rejects
