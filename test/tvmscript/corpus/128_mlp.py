"""A two-layer perceptron as a frontend would emit it: parameters after the input
(`num_input`), matmul + bias + gelu, a residual connection, softmax over classes, symbolic
batch size; a name (`h`, `o`) bound again in the same block shadows the previous binding."""
# ruff: noqa
# run: main b=4
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("b", 8), "float32"), w1: R.Tensor((8, 16), "float32"), b1: R.Tensor((16,), "float32"), w2: R.Tensor((16, 8), "float32"), b2: R.Tensor((8,), "float32"), wo: R.Tensor((8, 3), "float32")) -> R.Tensor(("b", 3), "float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            h = R.matmul(x, w1)
            h = R.add(h, b1)
            h = R.nn.gelu(h)
            o = R.matmul(h, w2)
            o = R.add(o, b2)
            r = R.add(o, x)
            logits = R.matmul(r, wo)
            probs = R.nn.softmax(logits, axis=-1)
            R.output(probs)
        return probs
