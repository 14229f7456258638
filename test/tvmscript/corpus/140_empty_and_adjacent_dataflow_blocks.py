"""Dataflow blocks as TVM prints them after some passes: an empty one, and adjacent ones.
Reading normalises them, as TVM's parser does: the empty block goes, the adjacent ones
become one that outputs what each did."""

# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        with R.dataflow():
            R.output()
        with R.dataflow():
            a = R.exp(x)
            R.output(a)
        with R.dataflow():
            b = R.add(a, x)
            R.output(b)
        c = R.multiply(a, b)
        with R.dataflow():
            R.output()
        return c
