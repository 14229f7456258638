"""Static tensor annotations of several ranks and data types, including a 0-d tensor
written `R.Tensor((), ...)` and a 1-d one `R.Tensor((5,), ...)`."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(
        s: R.Tensor((), "float32"),
        v: R.Tensor((5,), "float32"),
        m: R.Tensor((2, 5), "float32"),
        k: R.Tensor((2, 1, 5), "int32"),
    ) -> R.Tuple(R.Tensor((2, 5), "float32"), R.Tensor((2, 1, 5), "int32")):
        a = R.add(m, v)
        b = R.multiply(a, s)
        c = R.add(k, R.const(1, "int32"))
        return (b, c)
