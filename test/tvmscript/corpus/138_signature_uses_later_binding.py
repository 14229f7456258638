"""A signature is one binding site: a parameter may use a compound dimension (`"a * b"`)
whose variables a later parameter binds."""

# ruff: noqa
# run: main a=2 b=3
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(
        x: R.Tensor(("a * b",), "float32"), y: R.Tensor(("a", "b"), "float32")
    ) -> R.Tensor(("a * b",), "float32"):
        a = T.int64()
        b = T.int64()
        z = R.reshape(y, R.shape([a * b]))
        w = R.add(x, z)
        return w
