"""`R.std` and `R.variance` (population, ddof 0): over all elements, along axes, with
`keepdims=True`; a standardisation built from them."""

# ruff: noqa
# run: main n=5
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3), "float32")) -> R.Tuple(
        R.Tensor((), "float32"), R.Tensor((3,), "float32"), R.Tensor(("n", 3), "float32")
    ):
        total = R.std(x)
        per_col = R.variance(x, axis=0)
        mu = R.mean(x, axis=0, keepdims=True)
        sd = R.std(x, axis=[0], keepdims=True)
        z = R.divide(R.subtract(x, mu), R.add(sd, R.const(1e-3, "float32")))
        return (total, per_col, z)
