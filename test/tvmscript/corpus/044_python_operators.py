"""Python operator sugar on tensors as users write it (`x + y`, `x * y`, `x - y`, `x / y`,
`-x`), next to the explicit calls TVM prints (`R.add`, `R.multiply`, ...)."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32"), y: R.Tensor((2, 3), "float32")) -> R.Tensor(
        (2, 3), "float32"
    ):
        a = x + y
        b = a * x
        c = b - y
        d = c / R.const(2.0, "float32")
        e = -d
        return e
