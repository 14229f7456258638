"""Creation from a shape: `R.zeros((2, 3), "float32")`, `R.ones` with a symbolic `R.shape`,
`R.full` with a 0-d tensor fill value (`R.const`) and an explicit `dtype`."""
# ruff: noqa
# run: main n=3
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n",), "float32")) -> R.Tuple(R.Tensor((2, 3), "float32"), R.Tensor(("n", 2), "int32"), R.Tensor((2, 2), "float32"), R.Tensor(("n",), "int64"), R.Tensor((), "bool")):
        n = T.int64()
        z = R.zeros((2, 3), "float32")
        o = R.ones(R.shape([n, 2]), dtype="int32")
        f = R.full((2, 2), R.const(2.5, "float32"))
        g = R.full(R.shape([n]), R.const(7, "int32"), dtype="int64")
        b = R.zeros((), "bool")
        return (z, o, f, g, b)
