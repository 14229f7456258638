"""Broadcasting over symbolic shapes: `("n", 1)` with `(1, "m")` gives `(n, m)`; a 0-d tensor
parameter; the result annotated with the broadcast shape."""

# ruff: noqa
# run: main n=3 m=4
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(
        col: R.Tensor(("n", 1), "float32"),
        row: R.Tensor((1, "m"), "float32"),
        s: R.Tensor((), "float32"),
    ) -> R.Tensor(("n", "m"), "float32"):
        n = T.int64()
        m = T.int64()
        with R.dataflow():
            grid: R.Tensor((n, m), "float32") = R.add(col, row)
            scaled = R.multiply(grid, s)
            prod = R.multiply(col, row)
            out = R.maximum(scaled, prod)
            R.output(out)
        return out
