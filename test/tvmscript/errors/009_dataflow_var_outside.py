# error: 15:16: 'lv' is a dataflow variable, not visible after its block
# A dataflow variable that R.output does not list, used after the block.
# ruff: noqa
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        with R.dataflow():
            lv = R.exp(x)
            gv = R.add(lv, x)
            R.output(gv)
        return lv
# tvm: rejects
