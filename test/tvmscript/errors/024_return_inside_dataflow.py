# error: 14:13: a function cannot return from inside a dataflow block
# A return statement inside `with R.dataflow():` (TVM 0.25 accepts it, ending the block with an
# implicit R.output of the returned variable).
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        with R.dataflow():
            y = R.exp(x)
            return y
# tvm: accepts
