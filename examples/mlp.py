"""A two-layer perceptron in TVMScript with a symbolic batch size `n`: dense + ReLU,
dense, softmax over the classes; the weights are parameters. `mlp_inputs.npz` holds a
batch of 3 rows and the weights (NumPy's `default_rng(0)`, standard normal, in the
order x, w1, b1, w2, b2). Run it with each backend:

    relax-run examples/mlp.py --inputs examples/mlp_inputs.npz --outputs out.npz
    relax-run examples/mlp.py --inputs examples/mlp_inputs.npz --backend lowered
    relax-run examples/mlp.py --inputs examples/mlp_inputs.npz --backend mlir
"""

# ruff: noqa
from tvm.script import ir as I, relax as R


@I.ir_module
class Module:
    @R.function
    def main(
        x: R.Tensor(("n", 16), "float32"),
        w1: R.Tensor((16, 32), "float32"),
        b1: R.Tensor((32,), "float32"),
        w2: R.Tensor((32, 4), "float32"),
        b2: R.Tensor((4,), "float32"),
    ) -> R.Tensor(("n", 4), "float32"):
        with R.dataflow():
            hidden = R.nn.relu(R.add(R.matmul(x, w1), b1))
            logits = R.add(R.matmul(hidden, w2), b2)
            probs = R.nn.softmax(logits, axis=-1)
            R.output(probs)
        return probs
