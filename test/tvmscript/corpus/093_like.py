"""Creation shaped like another tensor: `R.zeros_like`, `R.ones_like` (with a new `dtype`),
`R.full_like` with a 0-d tensor fill value, on a symbolic shape."""
# ruff: noqa
# run: main n=2
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3), "float32"), v: R.Tensor((), "float32")) -> R.Tuple(R.Tensor(("n", 3), "float32"), R.Tensor(("n", 3), "int8"), R.Tensor(("n", 3), "float32"), R.Tensor(("n", 3), "float16")):
        a = R.zeros_like(x)
        b = R.ones_like(x, dtype="int8")
        c = R.full_like(x, v)
        d = R.full_like(x, R.const(3, "int32"), dtype="float16")
        return (a, b, c, d)
