"""`R.nn.batch_norm` in inference mode (`training=False`, the moving statistics used) and in
training mode on channel axis 1, returning `(output, new_mean, new_var)`; the moving variance
kept positive."""
# ruff: noqa
# run: main
from tvm.script import ir as I, relax as R, tirx as T


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3, 4, 4), "float32"), gamma: R.Tensor((3,), "float32"), beta: R.Tensor((3,), "float32"), mean: R.Tensor((3,), "float32"), var: R.Tensor((3,), "float32")) -> R.Tuple(R.Tensor((2, 3, 4, 4), "float32"), R.Tensor((2, 3, 4, 4), "float32"), R.Tensor((3,), "float32"), R.Tensor((3,), "float32")):
        pvar = R.add(R.abs(var), R.const(0.5, "float32"))
        inf = R.nn.batch_norm(x, gamma, beta, mean, pvar, axis=1, epsilon=1e-5, training=False)
        y = inf[0]
        tr = R.nn.batch_norm(x, gamma, beta, mean, pvar, 1, momentum=0.2, center=False)
        return (y, tr[0], tr[1], tr[2])
