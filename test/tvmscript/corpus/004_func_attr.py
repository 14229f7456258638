"""Function attributes with `R.func_attr({...})`: an integer, a string and a flag."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 2), "float32"), w: R.Tensor((2, 2), "float32")) -> R.Tensor(
        (2, 2), "float32"
    ):
        R.func_attr({"num_input": 1, "some_note": "weights last", "relax.force_pure": True})
        y = R.matmul(x, w)
        return y
